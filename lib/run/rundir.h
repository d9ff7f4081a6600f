/*
 * NAME
 *	rundir - the records of run/NAME/, one job's run, in one place
 * SYNOPSIS
 *	int rfd = rundir_make(sp, name, &d);	(made when missing)
 *	int rfd = rundir_open(sp, name);	(-1 when missing)
 *	rundir_hosts_read(rfd, RUNDIR_HOSTS, &hl, &d);
 *	rundir_hosts_format(&hl, slots, &buf, &len, &d);
 *	rundir_pid_write(tmpfd, rfd, name, &pid, &d);
 *	rundir_exit_write(tmpfd, rfd, name, status, &d);
 *	rundir_record_get(rfd, RUNDIR_PID, "pgid", &pgid);
 *	if (rundir_locked(rfd)) ...	(a supervisor runs the job)
 *	rundir_key(rfd, RUNDIR_PID, &k); rundir_key_equal(&was, &k);
 *	rundir_wait_workers(rfd, &leaving, seconds);
 *	n = rundir_worker_groups(rfd, pgids, max);
 * DESCRIPTION
 *	The directory run/NAME/ of the spool is the protocol between the
 *	programs that start a job (bf-apply, bf-watch: apply/), its
 *	supervisor (run/supervise.h) and those that read it (bf-hosts,
 *	bf-report).  Its files, each written whole (by rename) unless it is a
 *	log:
 *
 *	RUNDIR_HOSTS	"HOST:SLOTS" lines, sorted: the nodes the job holds
 *			(Horovod's host discovery contract); written by
 *			bf-apply, read by the supervisor at every change.
 *	RUNDIR_PILOTS	"NODE ID" lines: the pilot job holding each node
 *			(run/pilot.h); written by the pilot backends, read
 *			by the supervisor to place a worker.
 *	RUNDIR_PID	the pid record, YAML: supervisor, pgid, started,
 *			uid; written by the supervisor before the job runs.
 *	RUNDIR_EXIT	the exit record, YAML: code or signal, and ended;
 *			written by the supervisor last.
 *	RUNDIR_STOPPING	why a stop was asked ("plan", "done", "cancel"),
 *			written before the job's SIGTERM.
 *	RUNDIR_WORKERS	"HOST PGID RESTARTS STATE" lines, the supervisor's
 *			workers (PGID 0 when none runs; STATE running,
 *			stopping, waiting, done or failed).
 *	RUNDIR_LOCK	held (flock) by the supervisor while the job runs:
 *			free means nothing of the job runs.
 *	RUNDIR_SHADOW	"backend: NAME": the run was a shadow's (bf-watch
 *			--shadow), which started nothing; its pid record
 *			names no supervisor and no process group.
 *	RUNDIR_OUTPUT, RUNDIR_WORKERS_LOG, RUNDIR_PILOTS_LOG
 *			the job's output and the event logs, appended to.
 *
 *	rundir_make() creates run/NAME/ when missing and opens it;
 *	rundir_open() opens it when it exists (-1 with errno set otherwise).
 *	Neither follows a symbolic link.  The caller closes the descriptor.
 *
 *	rundir_hosts_read() reads a hosts file back into a sorted, unique
 *	hostlist (the slots after each colon are ignored);
 *	rundir_hosts_format() writes one as the file's text (malloc'd) with
 *	slots on every line; rundir_hosts_slots() is the slots of the first
 *	line, 1 when none can be read.  rundir_hosts_line_ok() says whether
 *	one line (without its newline) is "HOST:SLOTS".
 *
 *	rundir_pid_write() and rundir_exit_write() write the two records
 *	atomically through tmpfd (the spool's tmp/); status is waitpid(2)'s.
 *	rundir_record_get() reads one number of a small YAML record (pid,
 *	exit, stopping): 0, or -1 when the file or the key is missing.
 *	rundir_record_open(), _key() and _close() read several from one.
 *
 *	rundir_stopping_write() writes the stopping record for why: "plan",
 *	"done", or "cancel:UID" (a cancel, and who asked), as "WHY: 1" or
 *	"cancel: UID".  rundir_stopping_read() reads it back: why is "plan",
 *	"done", "cancel" or "" (no record), and *by the cancel's UID.
 *	rundir_exit_read() reads the exit record: 0 with *ended, and *sig
 *	(0 when none) or *code (-1 when none), when it says when the run
 *	ended; -1, nothing set, when there is no such record.
 *
 *	rundir_locked() is 1 when a supervisor holds run/NAME/lock.
 *
 *	rundir_key() takes a file's stat as a key (-1 when it is not a
 *	regular file: the key is then all zero), so that a caller reads a
 *	file again only when rundir_key_equal() says it changed.
 *
 *	rundir_wait_workers() returns once no host of leaving has a worker
 *	running in RUNDIR_WORKERS (0), or after seconds (-1).
 *	rundir_worker_groups() gives the process groups of the workers that
 *	run, at most max, for a stop.
 */
#ifndef BF_RUNDIR_H
#define BF_RUNDIR_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "util/hostlist.h"
#include "util/log.h"
#include "util/ydoc.h"

#include "spool/spool.h"

#define RUNDIR_HOSTS		"hosts"
#define RUNDIR_PILOTS		"pilots"
#define RUNDIR_PILOTS_LOG	"pilots.log"
#define RUNDIR_PID		"pid"
#define RUNDIR_EXIT		"exit"
#define RUNDIR_STOPPING		"stopping"
#define RUNDIR_WORKERS		"workers"
#define RUNDIR_WORKERS_LOG	"workers.log"
#define RUNDIR_LOCK		"lock"
#define RUNDIR_OUTPUT		"output"
#define RUNDIR_SHADOW		"shadow"

#define RUNDIR_HOSTS_MAX	(1 << 24)	/* bytes of a hosts file */

/* A file of run/NAME/ as last read: read again when its stat differs. */
struct rundir_key {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtim, ctim;
};

/* The pid record: who supervises the job, and its process group. */
struct rundir_pid {
	long supervisor, pgid, uid;
	long long started;
};

/* One of the small records, read and parsed once. */
struct rundir_record {
	struct ydoc doc;
	char *buf;
	int loaded;
};

int rundir_make(const struct spool *sp, const char *name, struct diag *d);
int rundir_open(const struct spool *sp, const char *name);

int rundir_hosts_read(int dirfd, const char *file, struct hostlist *hl,
    struct diag *d);
int rundir_hosts_format(const struct hostlist *hosts, long slots,
    char **buf, size_t *len, struct diag *d);
long rundir_hosts_slots(int rfd);
int rundir_hosts_line_ok(const char *line, size_t len);

int rundir_pid_write(int tmpfd, int rfd, const char *job,
    const struct rundir_pid *p, struct diag *d);
int rundir_exit_write(int tmpfd, int rfd, const char *job, int status,
    struct diag *d);
void rundir_record_open(int rfd, const char *file, struct rundir_record *r);
int rundir_record_key(struct rundir_record *r, const char *key,
    long long *out);
void rundir_record_close(struct rundir_record *r);
int rundir_record_get(int rfd, const char *file, const char *key,
    long long *out);

int rundir_stopping_write(int tmpfd, int rfd, const char *why,
    struct diag *d);
void rundir_stopping_read(int rfd, char *why, size_t len, long long *by);
int rundir_exit_read(int rfd, long long *ended, int *sig, int *code);

int rundir_locked(int rfd);

int rundir_key(int dirfd, const char *file, struct rundir_key *k);
int rundir_key_equal(const struct rundir_key *a, const struct rundir_key *b);

int rundir_wait_workers(int rfd, const struct hostlist *leaving,
    double seconds);
size_t rundir_worker_groups(int rfd, pid_t *pgids, size_t max);

#endif
