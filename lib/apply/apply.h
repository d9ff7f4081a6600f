/*
 * NAME
 *	apply - enact a plan through a backend, one true state at a time
 * SYNOPSIS
 *	struct apply_opts o = { .now = time(NULL) };
 *	struct apply_result r;
 *	apply_run(&sp, &backend, "plans/current.yaml", buf, len, &o, &r, &d);
 *	for (i = 0; i < r.n; i++) apply_print(stdout, &r.acts[i]);
 *	apply_result_free(&r);
 * DESCRIPTION
 *	apply_run() first makes the state agree with what runs (a job found
 *	running in run/ is adopted with the hosts it was given; a job in the
 *	state that never started is dropped), then computes the actions that
 *	take the state to the plan, in the order stop, shrink, grow, start so
 *	that a node is free before it is handed out, and carries them out,
 *	writing state.yaml after each one.  Then it stops the jobs whose
 *	progress log reached their samples, and retires the jobs that ended:
 *	a record in history/runs/, their nodes freed, their job file removed
 *	(kept when the plan stopped them or they were lost: they may run
 *	again).  A run/NAME/ whose start never ran is reused by the job's
 *	next start, or retired as lost once its job is gone.
 *
 *	A plan is enacted when its inputs are the spool's current inputs
 *	(inputs_stale(), inputs.h); it is then recorded in history/ before
 *	its first action.  A plan whose inputs changed is refused (75,
 *	stale; r.stale names the input) unless it was recorded already: then
 *	it is the plan a crash interrupted, and it is finished.
 *
 *	Nodes a start or grow did not obtain are kept out of the decisions
 *	made from the same holes file (state.yaml unobtained, state.h) for
 *	apply_unobtained_secs(): BF_UNOBTAINED_SECS from the environment, a
 *	number from 0 up (else STATE_UNOBTAINED_SECS, 60); after the plan of
 *	the first run that long after, the record is dropped.
 *
 *	o.inputs, when not NULL, are the spool's inputs as the caller read
 *	them a moment before (bf-watch, which decided from them): state.yaml
 *	is parsed from them and the plan compared with them, unless this run
 *	wrote state.yaml or removed a job file first, which reads the spool
 *	again.  o.plan, when not NULL, is buf already parsed; apply_run()
 *	takes it over (and leaves it empty).  o.jobs, when not NULL, holds
 *	the job files of o.inputs parsed: the done check takes each job's
 *	samples from it rather than from its file.
 *	A plan already carried out gives no action, so applying it again
 *	changes nothing.  With dry_run nothing is changed at all.
 *
 *	Actions print as one line each:
 *		start NAME 0->N HOSTS
 *		grow|shrink|move NAME WAS->N HOSTS
 *		stop NAME WAS->0 plan|done
 *		adopt NAME N HOSTS
 *		finished|failed|preempted|lost NAME WAS->0 exit CODE|signal SIG
 *		lost NAME WAS->0 exit unknown	(its supervisor vanished)
 *		lost NAME WAS->0 never started	(no supervisor ever ran)
 *		refused NAME REASON
 *		skipped NAME WAS->N REASON	(a stale plan's node still held)
 * DIAGNOSTICS
 *	-1 with d set: 65 bad plan or state, 66 missing input, 75 stale plan
 *	or a job that did not stop, 73/74 cannot write.  A job the backend
 *	may not run is an action "refused", not an error.
 */
#ifndef BF_APPLY_H
#define BF_APPLY_H

#include <stddef.h>
#include <stdio.h>

#include "util/log.h"

#include "apply/backend.h"
#include "spool/inputs.h"
#include "spool/job.h"
#include "spool/plan.h"
#include "spool/spool.h"

struct job_cache;		/* job_cache.h */

struct apply_opts {
	int dry_run;
	long long now;
	/* bf-watch's: what it read this pass, so as not to read it again */
	const struct inputs *inputs;	/* the spool's inputs, or NULL */
	struct plan *plan;	/* buf parsed, or NULL; taken over */
	struct job_cache *jobs;	/* jobs parsed, or NULL */
};

struct apply_action {
	char kind[12];
	char name[JOB_NAME_MAX + 1];
	long was, nodes;
	char *hosts;		/* target hostlist, NULL when none */
	char note[DIAG_MAX];	/* why: plan|done, exit status, refusal */
	char reason[16];	/* for the log: chosen, taken back, pilot
				 * lost, done, cancelled, failed, ... */
};

struct apply_result {
	size_t n, cap;
	struct apply_action *acts;
	int refused;		/* jobs the backend may not run */
	int enacted;		/* the plan was recorded in history now */
	const char *stale;	/* refused: the input that changed (75) */
	long nodes;		/* nodes held after, for the log */
	long jobs;		/* jobs running after (in the state) */
	size_t cancels_left;	/* requests left for the next run */
};

int apply_run(struct spool *sp, struct backend *b, const char *label,
    const char *buf, size_t len, const struct apply_opts *o,
    struct apply_result *r, struct diag *d);
void apply_print(FILE *fp, const struct apply_action *a);
void apply_result_free(struct apply_result *r);
double apply_unobtained_secs(void);

#endif
