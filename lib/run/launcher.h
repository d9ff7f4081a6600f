/*
 * NAME
 *	launcher - a small process that forks the supervisors for bf-watch
 * SYNOPSIS
 *	struct launcher ln;
 *	launcher_init(&ln);
 *	launcher_open(&ln, &env, spool_path, &d);	(bf-watch, at its start)
 *	launcher_send(&ln, &launch, rfd, lockfd, pw);	(the local backend)
 *	launcher_reaped(&ln, pid);		(a child the caller reaped)
 *	launcher_close(&ln);			(bf-watch, at its end)
 * DESCRIPTION
 *	A fork(2) copies the page tables of the process that forks, and every
 *	page it writes afterwards is copied once more while a child shares
 *	it: the larger the process, the more a fork costs it.  bf-watch holds
 *	CBC and a decision's data, and forked one supervisor per start
 *	(supervise.h); the copies after each fork cost it milliseconds of
 *	each decision on a virtual machine whose page faults are slow.
 *
 *	The launcher is bf-watch's (struct launcher, its socket and pid); the
 *	local backend is lent it (struct backend's launcher) to send starts.
 *	env is what every supervisor is given (supervise.h).
 *
 *	launcher_open() forks, once and while bf-watch is still small, the
 *	launcher: it keeps only its standard streams, its end of a socket
 *	pair and tmp/ of the spool, and forks each supervisor it is asked
 *	for, so that bf-watch itself never forks on its way to a decision.
 *	launcher_send() asks for one: the launch (packed by launch_pack())
 *	and three descriptors, run/NAME/, the lock bf-watch holds, and the
 *	start pipe, go in one message (SCM_RIGHTS); once sent, bf-watch
 *	closes its copies, exactly as after a fork.  The launcher answers
 *	nothing: a supervisor it could not fork is said on the start pipe
 *	("CODE reason"), as a supervisor says its own failures, and a
 *	message lost with a dead launcher closes the pipe with no pid
 *	record, which start_end() reports.
 *
 *	launcher_send() returns 0 once the message is sent, or -1 with errno
 *	set otherwise: no launcher (ENOTCONN), one gone (EPIPE, ECONNRESET),
 *	its socket full for a second (EAGAIN: a launcher stopped or stuck
 *	behind many starts; one stopped with room left holds what it is sent,
 *	as a supervisor stopped would), a pack larger than the socket takes
 *	(EMSGSIZE, ENOBUFS).  A message
 *	not sent is not queued, so the caller then forks the supervisor
 *	itself, as bf-apply always does, and no job can start twice.  A gone
 *	launcher is closed and started once again, right then: that one is
 *	a fork of bf-watch as it is then, large; when that fails too, there
 *	is none for the rest of the run.
 *
 *	While nothing is asked of it for LAUNCHER_WARM_IDLE_MS, the launcher
 *	forks a warm supervisor (supervise_warm() of supervise.h: its set-up
 *	done and its job's process forked, both waiting), up to LAUNCHER_WARM
 *	of them, one at a time; each says on its socket when it is ready.
 *	A fork that fails, or a warm one that ends unused (killed, its job's
 *	process killed, its own set-up failed), makes the launcher wait twice
 *	as long before the next, at most 10 s, until one is ready again.  A
 *	start is handed to the newest ready one (the message as it came, on
 *	that one's own socket, whose end the launcher then closes), so that
 *	no fork is left on the way from a plan to its pid records; with none
 *	ready, or a send that fails other than to a gone one, the launcher
 *	forks the supervisor itself as before.  Warm supervisors and their
 *	jobs' processes end, unused, at the end of file of their sockets:
 *	when the launcher ends.
 *
 *	The launcher ignores SIGHUP, SIGINT and SIGTERM and ends when
 *	bf-watch does: at the end of file of its socket, including after a
 *	kill -9 of bf-watch.  launcher_close() closes the socket and waits a
 *	second for it, then kills it (SIGKILL).  Its children, the
 *	supervisors, are reaped by the kernel (SIGCHLD ignored); they are in
 *	sessions of their own and outlive it, as they outlive bf-watch.
 *	The caller that reaps its children with waitpid(-1) says which pid it
 *	reaped (launcher_reaped()), so that a pid used again by another
 *	process is never waited for nor killed.
 */
#ifndef BF_LAUNCHER_H
#define BF_LAUNCHER_H

#include <limits.h>
#include <sys/types.h>

#include "util/log.h"

#include "run/launch.h"
#include "run/supervise.h"

/* Warm supervisors the launcher keeps, and the idle time before each. */
#define LAUNCHER_WARM		4
#define LAUNCHER_WARM_IDLE_MS	50

struct launcher {
	int fd;			/* -1: none; supervisors are forked */
	pid_t pid;		/* 0 once reaped */
	struct supervisor_env env;	/* to start it again */
	char spool[PATH_MAX];	/* for messages */
};

void launcher_init(struct launcher *ln);
int launcher_open(struct launcher *ln, const struct supervisor_env *env,
    const char *spool, struct diag *d);
int launcher_send(struct launcher *ln, const struct launch *l, int rfd,
    int lockfd, int pw);
void launcher_close(struct launcher *ln);
void launcher_reaped(struct launcher *ln, pid_t pid);

#endif
