/*
 * NAME
 *	apply_int - what apply.c and apply_retire.c share: the run's context
 * DESCRIPTION
 *	Internal to bf-apply's library (apply.h is the interface).  apply.c
 *	reconciles the state with the backend and enacts a plan's steps;
 *	apply_retire.c ends jobs: the record of a run that ended, the jobs
 *	done at their samples, cancel requests, and the runs to retire.
 */
#ifndef BF_APPLY_INT_H
#define BF_APPLY_INT_H

#include <stdio.h>

#include "util/hostlist.h"
#include "util/log.h"

#include "apply/apply.h"
#include "apply/backend.h"
#include "spool/job.h"
#include "spool/plan.h"
#include "spool/state.h"

struct retiring;

struct seen {
	char name[JOB_NAME_MAX + 1];
	struct backend_status bs;
};

struct ctx {
	size_t nseen, capseen;
	struct seen *seen;	/* statuses asked for, until acted upon; by name */
	struct spool *sp;
	struct backend *b;
	const struct apply_opts *o;
	struct apply_result *r;
	struct state st;
	struct plan plan;
	struct diag *d;
	int changed;		/* state.yaml or jobs/ written by this run */
	int state_due;		/* steps done that state.yaml lacks */
	long state_writes;	/* state.yaml written by this run */
	struct retiring *moving;	/* recorded, out of the state; to move */
	size_t nmoving;
	long moving_after;	/* moved once state_writes passes it */
};

/* Cancel requests answered in one run of the apply step, at most. */
#define APPLY_CANCELS_PER_RUN	64

/* apply_ctx.c */
int apply_status(struct ctx *c, const char *name, struct backend_status *bs);
void apply_forget(struct ctx *c, const char *name);
int apply_act(struct ctx *c, const char *kind, const char *name, long was,
    long nodes, const char *hosts, const char *note);
int apply_write_state(struct ctx *c);
void apply_reason(struct ctx *c, const char *reason);
int apply_taken_back(const struct ctx *c, const char *name);
long apply_held(const struct ctx *c, const char *name);
char *apply_compress(const struct hostlist *hl);
int apply_load_job(struct ctx *c, const char *name, struct job *j,
    char **buf, size_t *len);
const struct job *apply_job_peek(const struct ctx *c, const char *name);
int apply_has_job_file(struct ctx *c, const char *name);

/* apply_retire.c */
int apply_stop_one(struct ctx *c, const char *name, const char *why,
    struct backend_status *bs);
int apply_do_stop(struct ctx *c, const char *name, const char *why);
int apply_retire(struct ctx *c, const char *name,
    const struct backend_status *bs);
int apply_retire_stopped(struct ctx *c, const char *const *names,
    const struct backend_status *bs, size_t n);
int apply_retire_moves(struct ctx *c);
int apply_check_done(struct ctx *c);
int apply_process_cancels(struct ctx *c);
int apply_retire_ended(struct ctx *c);

#endif
