/*
 * NAME
 *	backend - how bf-apply starts, resizes, stops and observes jobs
 * SYNOPSIS
 *	struct backend b;
 *	backend_open(&b, "local", &sp, &d);
 *	b.ops->start(&b, &job, &hosts, &d);
 *	b.ops->resize(&b, &job, &hosts, &d);
 *	b.ops->stop(&b, "resnet18", "plan", &d);
 *	b.ops->status(&b, "resnet18", &st, &d);
 *	b.ops->retire(&b, "resnet18", "1612915800-resnet18", &d);
 * DESCRIPTION
 *	A backend owns SPOOL/run/NAME/ for each job it runs.  What every
 *	backend keeps there is the same, so that bf-hosts and the elastic
 *	runtimes need not know which backend runs a job:
 *
 *		hosts	one "host:slots" line per host, rewritten atomically
 *			by start and resize (backend_write_hosts())
 *		output	the job's standard output and error
 *		pid	written once the job runs: supervisor, pgid, started
 *		exit	written once it ended: code or signal, ended
 *		stopping  written before a stop: why ("plan: 1", "done: 1",
 *			or "cancel: UID" with the uid who asked)
 *
 *	backend_local_stop_begin() gives a job its notice (records why,
 *	SIGTERM) without waiting: bf-apply notifies every job a decision stops, sets
 *	stop_since to that moment, then stop()s each, and a stop waits only
 *	what is left of the grace since then, so that one grace is waited in
 *	all, not one per job.
 *
 *	start_begin() and start_end(), where a backend has them (local; NULL
 *	for slurm and pbs, whose pilots are waited for in start()), are
 *	start() in two halves: start_begin() returns once the supervisor is
 *	forked, with a token for start_end(), which waits for what start()
 *	waits for and says the same; bf-apply begins every start of a
 *	decision, then ends each, so that the supervisors start together.
 *	start_begin() finds the hosts file written: its caller writes it.
 *	Such a backend's resize() only writes the hosts file, so that the
 *	hosts files of a decision's resizes and starts may be written as one
 *	group: between backend_hosts_batch() and backend_hosts_publish(),
 *	backend_write_hosts() only writes and begins to sync each file in
 *	tmp/; the publish syncs them all, renames each into its run/NAME/,
 *	then syncs those directories, so that a decision pays for a few
 *	ordered syncs, not two per job.  Nothing is in run/NAME/ before it is
 *	synced; a failure unstages what is not published and says the first.
 *
 *	What a backend read of run/NAME/ (its hosts file, the local pid
 *	record) is remembered with the stat of the file it came from (device,
 *	inode, size, modification and change times) and read again only
 *	when that differs: bf-watch asks it of every run in every pass.  These
 *	files are replaced by rename, never rewritten in place, and run/NAME/
 *	is the spool owner's only.  backend_forget_run() drops a run's, at
 *	its retirement; backend_close() all.
 *
 *	status() tells RUNNING, EXITED (exit written, nothing left running),
 *	LOST (started, but neither running nor with an exit record: its
 *	supervisor was killed) or NONE (never started).  stop() returns when
 *	the job ended.  retire() moves run/NAME to history/runs/STEM.
 *	backend_open() knows "local", "slurm" and "pbs" (backend_slurm.c,
 *	backend_pbs.c: each node held by a pilot job of the scheduler, the
 *	command run as by the local backend, what they share in pilots.c); a
 *	backend is one more file with one more struct backend_ops, and a
 *	scheduler of pilot jobs one more struct pilot_ops.  A backend may
 *	obtain fewer nodes than asked for: run/NAME/hosts tells which.
 *	pilots_ids() gives a job's pilot ids for state.yaml ("NODE: ID,
 *	...", malloc'd; NULL for the local backend), and pilots_cleanup()
 *	cancels every pilot of the spool (pilots.h).
 * DIAGNOSTICS
 *	-1 with d set; EX_CONFIG (78) when a job may not be run by this
 *	process (another user's job and not root, or root's job without
 *	allow_root).
 */
#ifndef BF_BACKEND_H
#define BF_BACKEND_H

#include <sys/types.h>

#include "util/file.h"
#include "util/hostlist.h"
#include "util/log.h"

#include "run/launch.h"
#include "run/rundir.h"
#include "run/supervise.h"
#include "spool/job.h"
#include "spool/spool.h"

enum backend_phase { BACKEND_NONE, BACKEND_RUNNING, BACKEND_EXITED,
	BACKEND_LOST };

struct backend_status {
	enum backend_phase phase;
	int code;		/* exit code, -1 if killed by a signal */
	int signal;		/* the killing signal, 0 when it exited */
	long long started, ended;
	long long id;		/* the run's own number (its supervisor's pid) */
	char stopping[16];	/* "", "plan", "done" or "cancel" */
	long long cancelled_by;	/* "cancel": the uid who asked */
};

struct backend;
struct launcher;
struct pilot_ops;

struct run_seen {
	char name[JOB_NAME_MAX + 1];
	struct rundir_key hosts_key;	/* ino 0: not read */
	struct hostlist hosts;
	struct rundir_key pid_key;	/* the local pid record */
	long long started, supervisor;	/* from it */
};

struct backend_ops {
	const char *name;
	int (*start)(struct backend *b, const struct job *j,
	    const struct hostlist *hosts, struct diag *d);
	int (*resize)(struct backend *b, const struct job *j,
	    const struct hostlist *hosts, struct diag *d);
	int (*stop)(struct backend *b, const char *name, const char *why,
	    struct diag *d);
	int (*status)(struct backend *b, const char *name,
	    struct backend_status *st, struct diag *d);
	int (*retire)(struct backend *b, const char *name, const char *stem,
	    struct diag *d);
	const struct pilot_ops *pilot;	/* NULL: no pilot jobs (local) */
	int (*start_begin)(struct backend *b, const struct job *j,
	    const struct hostlist *hosts, int *token, struct diag *d);
	int (*start_end)(struct backend *b, const char *name, int token,
	    struct diag *d);
};

struct backend {
	const struct backend_ops *ops;
	struct spool *sp;
	char spool_abs[PATH_MAX];	/* for the jobs' environment */
	char coord_host[256];	/* this host, as the nodes reach it */
	double grace;		/* seconds between SIGTERM and SIGKILL */
	double stop_since;	/* CLOCK_MONOTONIC of a batch's SIGTERM, 0 */
	int allow_root;		/* run jobs of uid 0 when root */
	int dry_run;		/* status() changes nothing (bf-apply -n) */
	size_t pilot_name_max;	/* longest pilot name the scheduler takes */
	struct file_group batch;	/* backend_hosts_batch(): staged */
	int batching;
	struct run_seen *seen;	/* sorted by name */
	size_t nseen, seen_cap;
	struct launcher *launcher;	/* lent by bf-watch (launcher.h);
					   NULL: supervisors are forked */
	char shadowing[16];	/* "shadow": the backend it stands in for */
};

extern const struct backend_ops backend_local;
extern const struct backend_ops backend_slurm;	/* backend_slurm.c */
extern const struct backend_ops backend_pbs;	/* backend_pbs.c */
extern const struct backend_ops backend_shadow;	/* backend_shadow.c */

int backend_open(struct backend *b, const char *name, struct spool *sp,
    struct diag *d);
int backend_write_hosts(struct backend *b, const char *name,
    const struct hostlist *hosts, long slots, struct diag *d);
int backend_run_hosts(struct backend *b, const char *name,
    const struct hostlist **hl, struct diag *d);
struct run_seen *backend_seen(struct backend *b, const char *name);
void backend_forget_run(struct backend *b, const char *name);
void backend_close(struct backend *b);
void backend_supervisor_env(const struct backend *b,
    struct supervisor_env *env);
void backend_launch_site(const struct backend *b, struct launch_site *site);
void backend_hosts_batch(struct backend *b);
int backend_hosts_publish(struct backend *b, struct diag *d);
int backend_may_run(const struct job *j, int allow_root, struct diag *d);
int backend_local_stop_begin(struct backend *b, const char *name,
    const char *why, struct diag *d);

#endif
