/*
 * NAME
 *	launcher - a small process that forks the supervisors for bf-watch
 * SYNOPSIS
 *	launcher_open(&backend, &d);		(bf-watch, at its start)
 *	launcher_send(&backend, &launch, rfd, lockfd, pw);
 *	launcher_close(&backend);		(backend_close() calls it)
 *	launcher_reaped(&backend, pid);		(a child the caller reaped)
 *	launch_send(sock, buf, len, fds);	launch_receive(sock, buf, size, fds);
 *	n = launch_pack(&launch, buf, size);
 *	launch_unpack(&launch, buf, n, backend.ops->pilot);
 * DESCRIPTION
 *	A fork(2) copies the page tables of the process that forks, and every
 *	page it writes afterwards is copied once more while a child shares
 *	it: the larger the process, the more a fork costs it.  bf-watch holds
 *	CBC and a decision's data, and forked one supervisor per start
 *	(supervise.h); the copies after each fork cost it milliseconds of
 *	each decision on a virtual machine whose page faults are slow.
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
#ifndef BF_LAUNCHER_H
#define BF_LAUNCHER_H

#include <sys/types.h>

#include "backend.h"
#include "pilots.h"
#include "supervise.h"

/* Warm supervisors the launcher keeps, and the idle time before each. */
#define LAUNCHER_WARM		4
#define LAUNCHER_WARM_IDLE_MS	50

/* A pack at most: the command twice (its text, BF_COMMAND), the worker. */
#define LAUNCH_MAX_PACK		(4 * JOB_MAX_COMMAND + 65536)

int launcher_open(struct backend *b, struct diag *d);
int launcher_send(struct backend *b, const struct launch *l, int rfd,
    int lockfd, int pw);
void launcher_close(struct backend *b);
ssize_t launch_pack(const struct launch *l, char *buf, size_t size);
int launch_unpack(struct launch *l, char *buf, size_t len,
    const struct pilot_ops *pilot);
void launcher_reaped(struct backend *b, pid_t pid);
int launch_send(int sock, const char *buf, size_t len, const int fds[3]);
ssize_t launch_receive(int sock, char *buf, size_t size, int fds[3]);

#endif
