/*
 * NAME
 *	launch - what a supervisor is told of the job it starts, and how it
 *	is sent
 * SYNOPSIS
 *	struct launch_site site = { spool_abs, coord_host, grace, pilot };
 *	struct launch l;
 *	launch_init(&l, &site, &job, nodes, port);
 *	n = launch_pack(&l, buf, size);
 *	launch_unpack(&l, buf, n, pilot);
 *	launch_send(sock, buf, len, fds);
 *	launch_receive(sock, buf, size, fds);
 *	launch_free(&l);
 * DESCRIPTION
 *	A launch is everything a supervisor (supervise.h) needs to run one
 *	job, made before the fork or the message that starts it: the job's
 *	name, command and worker, its restarts and grace, its owner (who.h),
 *	the pilot commands of its scheduler (pilot.h; NULL for the local
 *	backend), and its environment: a fixed PATH, HOME, SHELL, USER and
 *	LOGNAME, BF_COMMAND, BF_JOB, BF_NODES, BF_MIN_NODES, BF_MAX_NODES,
 *	BF_SLOTS, BF_SPOOL, BF_HOSTFILE, BF_PROGRESS, BF_COORD_HOST,
 *	BF_COORD_PORT and BF_COORD, BF_SECRET (LAUNCH_SECRET_BYTES from
 *	getrandom(2) in hex, new for every run: a coordinator's key that
 *	only the job's own processes hold), and the cluster's SLURM_CONF and
 *	PBS_CONF_FILE when set.  The site is what the backend knows: the
 *	spool's absolute path, this host as the nodes reach it, the grace
 *	and the pilot commands.  launch_init() returns 0, or -1 when out of
 *	memory, without randomness, or with more than LAUNCH_ENV_MAX
 *	variables; launch_free()
 *	frees a launch it made.
 *
 *	launch_pack() writes l into buf as a version, its numbers and its
 *	strings (each with its length, then NUL-terminated) and returns the
 *	pack's length; like snprintf(3), it writes only what fits in size,
 *	and buf may be NULL with size 0 to learn the length.  launch_unpack()
 *	reads it back into l, whose strings then point into buf, with pilot
 *	as its pilot when the pack says it has one (a pointer is not sent);
 *	-1 (EBADMSG) for anything that is not a whole, well-formed pack, or
 *	one with a pilot when pilot is NULL.
 *
 *	launch_send() sends buf and three descriptors in one message on the
 *	socket (SOCK_SEQPACKET): 0, or -1 with errno set.  launch_receive()
 *	reads one into buf and fds (each -1 when not sent; received close on
 *	exec): its length, 0 at end of file, -1 with errno set, or -2 for a
 *	message or descriptors cut short (EMSGSIZE).
 */
#ifndef BF_LAUNCH_H
#define BF_LAUNCH_H

#include <sys/types.h>

#include "run/pilot.h"
#include "run/who.h"
#include "spool/job.h"

#define LAUNCH_ENV_MAX	32
#define LAUNCH_SECRET_BYTES	16	/* BF_SECRET: 128 bits, 32 hex digits */
#define LAUNCH_FDS	3	/* with a launch: run/NAME, lock, pipe */

/* A pack at most: the command twice (its text, BF_COMMAND), the worker. */
#define LAUNCH_MAX_PACK		(4 * JOB_MAX_COMMAND + 65536)

struct launch_site {
	const char *spool_abs;	/* for the jobs' environment */
	const char *coord_host;	/* this host, as the nodes reach it */
	double grace;		/* seconds between SIGTERM and SIGKILL */
	const struct pilot_exec *pilot;	/* NULL: workers run here */
};

struct launch {
	char name[JOB_NAME_MAX + 1];
	char *command, *worker;	/* copies; worker NULL when none */
	long restarts;		/* per host stay */
	double grace;
	const struct pilot_exec *pilot;	/* workers inside the node's pilot
					   job (pilot.h); NULL: here */
	size_t nenv;
	char *envp[LAUNCH_ENV_MAX + 1];
	struct who who;
};

int launch_init(struct launch *l, const struct launch_site *site,
    const struct job *j, long nodes, long port);
void launch_free(struct launch *l);
/* KEY=VALUE into envp (n set), replacing KEY: 0, or -1 when full. */
int launch_env_set(char **envp, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
ssize_t launch_pack(const struct launch *l, char *buf, size_t size);
int launch_unpack(struct launch *l, char *buf, size_t len,
    const struct pilot_exec *pilot);
int launch_send(int sock, const char *buf, size_t len,
    const int fds[LAUNCH_FDS]);
ssize_t launch_receive(int sock, char *buf, size_t size,
    int fds[LAUNCH_FDS]);

#endif
