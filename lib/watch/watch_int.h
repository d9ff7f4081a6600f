/*
 * NAME
 *	watch_int - what the daemon's loop (watch.c) and its chain
 *	(watch_chain.c) share
 * DESCRIPTION
 *	Internal to bf-watch's library (watch.h is the interface).  watch.c
 *	waits: signals, inotify, the holes command, the debounce, retention;
 *	watch_chain.c decides and enacts at each wake-up: intake, profiles,
 *	the decision made in-process, bf-apply's code.
 */
#ifndef BF_WATCH_INT_H
#define BF_WATCH_INT_H

#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "util/cmdout.h"
#include "util/hash.h"
#include "util/log.h"

#include "apply/backend.h"
#include "run/launcher.h"
#include "solve/decide.h"
#include "spool/intake.h"
#include "spool/job.h"
#include "spool/lifetime.h"
#include "spool/spool.h"
#include "watch/watch.h"

#define WATCH_MAX_PASSES	20
#define WATCH_INTAKE_SECONDS	0.25	/* of intake per pass: a flood of
					 * incoming/ waits for the rest */
#define WATCH_MAX_LOGS		4096
#define WATCH_PROFILE_EVERY	5.0	/* seconds: measurements pile up */
#define WATCH_RETAIN_EVERY	3600.0	/* seconds between retention runs */

#define WATCH_METRICS_BUCKETS	12
enum watch_error_kind { WATCH_ERR_INTAKE, WATCH_ERR_PROFILE, WATCH_ERR_SOLVE,
	WATCH_ERR_APPLY, WATCH_ERR_HOLES_CMD, WATCH_ERROR_KINDS };

/* What --metrics writes (watch_metrics.c). */
struct watch_metrics {
	long long started, last_pass;	/* unix seconds */
	long nodes_idle, nodes_held, jobs_running, jobs_waiting;
	char idle_of[HASH_TEXT_LEN];	/* the holes nodes_idle counts */
	int giving_back;
	unsigned long long bucket[WATCH_METRICS_BUCKETS], decisions, actions;
	unsigned long long not_optimal;	/* decisions not proven optimal */
	double decision_sum;
	unsigned long long errors[WATCH_ERROR_KINDS];
};

struct seen_log {
	char name[JOB_NAME_MAX + 1];
	off_t size;
};

struct watcher {
	struct spool *sp;
	const struct watch_opts *o;
	struct backend b;
	struct launcher launcher;	/* lent to b while it runs */
	volatile sig_atomic_t *got_term;	/* SIGTERM or SIGINT seen */
	int ifd;		/* the inotify descriptor */
	char self_dir[PATH_MAX - 256];
	int urgent;		/* a holes event: do not debounce */
	int force_solve;
	char failed_inputs[5 * HASH_TEXT_LEN + 8];	/* a failed solve's */
	int failed_later;	/* ... with a code worth a retry (75, 71) */
	double solve_retry_at;	/* ... not before then */
	double retry_at;	/* 0: nothing to retry */
	int left_undone;	/* a step failed to retry: --once exits 75 */
	double profiled_at;	/* when bf-profile last ran */
	char *good_policy;	/* the last policy.yaml a decision loaded */
	size_t good_policy_len;
	char good_policy_dig[HASH_TEXT_LEN];	/* "" when none yet */
	char bad_policy_dig[HASH_TEXT_LEN];	/* policy.yaml that did not
						 * load, said once */
	char solve_error[DIAG_MAX];	/* the last failed decision's, said
					 * once; "" after a plan */
	int giving_back;	/* the plan in force is a give-back plan */
	struct watch_metrics m;
	char said_holes[HASH_TEXT_LEN];	/* of the last decision logged */
	int metrics_failed;	/* writing them failed: said once */
	struct intake_memo memo;	/* entries left in incoming/, said */
	struct stat holes_seen;	/* holes/current.yaml as the last solve saw
				 * it: a new one stops the intake */
	int backlog;		/* the intake stopped with files left */
	double intake_until;	/* when this pass's intake stops */
	size_t nlogs;
	struct seen_log logs[WATCH_MAX_LOGS];
	struct job_cache jobs_parsed;	/* kept while unchanged */
	struct inputs_memo jobs_read;	/* the job files' bytes, likewise */
	char *plan_text;	/* plans/current.yaml as last read or made, */
	size_t plan_len;
	struct plan plan_head;	/* and its head (no jobs): its inputs */
	size_t pool_want;	/* files made ahead in tmp/ (file.h) */
	int pool_off;		/* making one failed: not until the next chain */
	struct lifetime_table life;	/* --horizon learnt (watch_horizon.c) */
	char life_error[DIAG_MAX];	/* why it could not be had, last */
};

/* watch_metrics.c */
void watch_metrics_decision(struct watch_metrics *m, double seconds,
    const char *status);
int watch_metrics_write(const struct watch_metrics *m, const char *path,
    struct diag *d);

/* watch_horizon.c */
void watch_horizon(struct watcher *w, struct solve_opts *o);

/* watch_dirs.c */
int watch_dirs_open(struct watcher *w, struct diag *d);
void watch_dirs_runs(struct watcher *w);

/* watch_chain.c */
#define WATCH_CHILD_TIMEOUT	(2 * cmdout_timeout() + 10)
int watch_run_child(char *const argv[], int outfd);
void watch_child_failed(struct watcher *w, const char *what, int code);
void watch_holes_now(const struct watcher *w, struct stat *st);
int watch_chain(struct watcher *w, const char *trigger, struct diag *d);

#endif
