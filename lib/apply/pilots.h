/*
 * NAME
 *	pilots - nodes held from a batch scheduler by pilot jobs: what the
 *	Slurm and PBS backends share
 * SYNOPSIS
 *	const struct backend_ops backend_slurm = { "slurm", pilots_start,
 *	    pilots_resize, pilots_stop, pilots_status, pilots_retire,
 *	    &backend_slurm_pilots };
 *	pilots_cleanup(&b, &text, &d);
 *	text = pilots_ids(&b, "resnet18");
 * DESCRIPTION
 *	Every node a job gets is held by one pilot job of the scheduler on
 *	exactly that node, so that the scheduler, preempting whole jobs,
 *	takes back that node and no other.  The job's command runs through
 *	the local backend (backend_local.c: supervisor, owner's uid, run/
 *	files) with BF_HOSTFILE listing the nodes whose pilots run; its
 *	workers run inside the pilots (supervise.c, with the argv of the
 *	scheduler's ops).  A scheduler is a struct pilot_ops: how to name,
 *	submit, poll, cancel and list pilots, which nodes run other work,
 *	and the argv of a worker inside a pilot and of a signal to it.
 *
 *	run/NAME/pilots records "NODE ID" per line, written after every
 *	submit and cancel, and run/NAME/pilots.log one line per event,
 *	"TIME submit|run|cancel|leave NODE ID [STATE]"; both move to
 *	history/runs/STEM/ with the run.
 *
 *	start() and resize() submit the pilots of the nodes the job lacks
 *	(but on a node the scheduler runs other work on), cancel those of
 *	the nodes it no longer gets, and wait up to ops->wait seconds for
 *	the new ones to run; one not running then is cancelled, its node
 *	not obtained: run/NAME/hosts lists only the nodes held.  start()
 *	fails (65, the plan's step skipped) when no pilot ran.  A shrink
 *	takes the leaving nodes out of the hosts file first, waits for their
 *	workers to end (the supervisor gives them notice and the grace),
 *	then cancels their pilots.  status() polls the job's pilots: a
 *	pilot that ended, was preempted or is no longer running is
 *	cancelled, logged as a leave and its node taken out of
 *	run/NAME/hosts, so that bf-apply adopts the smaller job; a job left
 *	with no node is stopped ("plan": preempted, its job file kept).
 *	When the scheduler does not answer, or with b->dry_run, status()
 *	says what the local backend says and changes nothing.  stop() and
 *	retire() cancel every pilot of the job, by name.
 *
 *	pilots_cleanup() cancels every pilot of the spool (listed by the
 *	spool's name prefix) and returns one "cancelled ID NAME NODE" line
 *	per pilot.  pilots_ids() gives a job's pilots for state.yaml,
 *	"NODE: ID, ..." in node order (malloc'd; NULL for the local
 *	backend or none).
 *
 *	pilots_run() runs a scheduler's command (argv[0] on PATH, no shell),
 *	standard input /dev/null, as the user as when not NULL (root only:
 *	the child takes that uid, gid and groups, HOME, USER, LOGNAME, and
 *	"/" as its directory), its standard output in *out when out is not
 *	NULL.  pilots_exec() does the same and leaves the judging of the
 *	exit status, in *status (waitpid's), and of the standard error, in
 *	*err, to the caller.  Both give the command cmdout_timeout() seconds
 *	(BF_SCHED_TIMEOUT, default 30): one that hangs is killed with its
 *	process group, a warning logged, and it fails with 75, so that the
 *	caller tries again later and is never blocked longer; for as many
 *	seconds after, every scheduler command of the process fails at once
 *	(75) without being run, so that a step of many commands costs one
 *	timeout.  A SIGTERM or SIGINT pending meanwhile (bf-watch blocks
 *	them outside its wait) kills the command at once (75).
 *	pilot_argv_add() appends one argument, made
 *	by printf, to a pilot_argv.
 * DIAGNOSTICS
 *	-1 with d set: 69 a command not found ("qsub: not found on PATH;
 *	is PBS installed?"); 75 one that failed, with its first line of
 *	standard error (the scheduler not answering), or that did not end
 *	in time ("qdel: no answer in 30 s (BF_SCHED_TIMEOUT); killed"); 76 output that is
 *	not what the scheduler prints; 65 a job no pilot could be started
 *	for; 78 a bad setting.
 */
#ifndef BF_PILOTS_H
#define BF_PILOTS_H

#include <stddef.h>
#include <sys/types.h>

#include "util/hostlist.h"
#include "util/log.h"

#include "apply/backend.h"
#include "run/pilot.h"
#include "run/who.h"
#include "spool/job.h"

/* One pilot of the spool, as the scheduler lists it (for --cleanup). */
struct pilot_entry {
	char id[PILOT_ID_MAX];
	char name[256];
	char node[HOSTLIST_MAX_NAME + 1];	/* "" when not known */
};

struct pilot_ops {
	const struct pilot_exec *exec;	/* the supervisor's part (pilot.h) */
	const char *running;	/* the state of a pilot holding its node */
	double wait;		/* seconds a new pilot has to run */
	double tick;		/* seconds between polls meanwhile */
	/* Checks the settings when the backend is opened; may be NULL. */
	int (*open)(struct backend *b, struct diag *d);
	/* The pilot name of job; with job NULL, the spool's prefix. */
	void (*name)(struct backend *b, const char *job, char *out,
	    size_t size);
	/* One pilot on node for j, named name: its id in id. */
	int (*submit)(struct backend *b, const struct job *j,
	    const char *node, const char *name, char *id, size_t idsize,
	    struct diag *d);
	/* The state of each pilot of p, those named name; "" if gone. */
	int (*poll)(struct backend *b, const char *name, struct pilots *p,
	    struct diag *d);
	int (*cancel)(struct backend *b, char *const ids[], size_t n,
	    struct diag *d);
	/* Every pilot named name, recorded or not. */
	int (*cancel_named)(struct backend *b, const char *name,
	    struct diag *d);
	/* Every pilot whose name starts with prefix, malloc'd. */
	int (*list)(struct backend *b, const char *prefix,
	    struct pilot_entry **v, size_t *n, struct diag *d);
	/* The nodes running work other than pilots named prefix..., sorted. */
	int (*busy)(struct backend *b, const char *prefix,
	    struct hostlist *busy, struct diag *d);
};

extern const struct pilot_ops backend_slurm_pilots;	/* backend_slurm.c */
extern const struct pilot_ops backend_pbs_pilots;	/* backend_pbs.c */

int pilots_start(struct backend *b, const struct job *j,
    const struct hostlist *hosts, struct diag *d);
int pilots_resize(struct backend *b, const struct job *j,
    const struct hostlist *hosts, struct diag *d);
int pilots_stop(struct backend *b, const char *name, const char *why,
    struct diag *d);
int pilots_status(struct backend *b, const char *name,
    struct backend_status *st, struct diag *d);
int pilots_retire(struct backend *b, const char *name, const char *stem,
    struct diag *d);

int pilots_run(const struct pilot_ops *po, char *const argv[],
    const struct who *as, char **out, struct diag *d);
int pilots_exec(char *const argv[], const struct who *as, char **out,
    char **err, int *status, struct diag *d);
void pilots_failed(const struct pilot_ops *po, const char *prog,
    int status, const char *err, struct diag *d);
void pilots_tag(struct backend *b, char tag[9]);

/* Every pilot of the spool cancelled (bf-apply --cleanup); its report. */
int pilots_cleanup(struct backend *b, char **text, struct diag *d);
/* The ids of a job's pilots, for state.yaml; NULL when none (local). */
char *pilots_ids(struct backend *b, const char *name);

#endif
