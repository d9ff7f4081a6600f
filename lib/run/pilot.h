/*
 * NAME
 *	pilot - a pilot job's records and the argv of its commands
 * SYNOPSIS
 *	struct pilots p;
 *	pilot_load(rfd, &p, &d);	pilot_save(tmpfd, rfd, &p, &d);
 *	pilot_add(&p, node, id);	pilot_remove(&p, i);	pilot_free(&p);
 *	pilot_of(rfd, host, id);
 *	struct pilot_argv a = { .n = 0 };
 *	pilot_argv_add(&a, "--jobid=%s", id);
 *	exec->worker(&a, pilot, host, job, cmd);
 * DESCRIPTION
 *	A pilot is a job of the batch scheduler that holds one node for a
 *	job of bftrainer (apply/pilots.h submits, polls and cancels them).
 *	This is the part the supervisor shares with those backends.
 *
 *	run/NAME/pilots (RUNDIR_PILOTS of rundir.h) records one "NODE ID"
 *	line per pilot.  pilot_load() reads it (missing: none; a line whose
 *	id does not start with a digit 1-9 is skipped) and pilot_save()
 *	writes it whole, atomically through tmpfd.  pilot_of() gives the id
 *	of the pilot that holds host: 0, or -1 when none is recorded.
 *
 *	struct pilot_exec is what the supervisor needs of a scheduler: its
 *	name for messages, and the argv of a worker inside the pilot that
 *	holds its node (worker()) and of a signal to what runs in a pilot
 *	(signal(): 1, or 0 when the scheduler has no such command), each
 *	built in a struct pilot_argv by pilot_argv_add() (printf-like; -1
 *	when it does not fit).
 */
#ifndef BF_PILOT_H
#define BF_PILOT_H

#include <stddef.h>

#include "util/hostlist.h"
#include "util/log.h"

#include "spool/job.h"

#define PILOT_ID_MAX	256	/* PBS: SEQUENCE.SERVER, a host name */
#define PILOT_NAME_MAX	(JOB_NAME_MAX + 16)
#define PILOT_ARGV_MAX	24

struct pilot {
	char node[HOSTLIST_MAX_NAME + 1];
	char id[PILOT_ID_MAX];
	char state[24];		/* from the scheduler; "" when not listed */
};

struct pilots {
	size_t n, cap;
	struct pilot *v;
};

/* An argv built in place: the arguments point into buf. */
struct pilot_argv {
	char *argv[PILOT_ARGV_MAX + 1];
	size_t n, used;
	char buf[4096];
};

struct pilot_exec {
	const char *scheduler;	/* "Slurm", "PBS": for messages */
	/* The argv running the shell command cmd inside pilot on host. */
	int (*worker)(struct pilot_argv *a, const char *pilot,
	    const char *host, const char *job, const char *cmd);
	/* The argv signalling what runs inside pilot: 1, or 0 for none. */
	int (*signal)(struct pilot_argv *a, const char *pilot, int sig);
};

int pilot_load(int rfd, struct pilots *p, struct diag *d);
int pilot_save(int tmpfd, int rfd, const struct pilots *p, struct diag *d);
int pilot_add(struct pilots *p, const char *node, const char *id);
void pilot_remove(struct pilots *p, size_t i);
void pilot_free(struct pilots *p);
int pilot_of(int rfd, const char *host, char id[PILOT_ID_MAX]);
int pilot_argv_add(struct pilot_argv *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
