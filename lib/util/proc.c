/*
 * NAME
 *	proc - run a program to its end: its input, its outputs, its status
 * DESCRIPTION
 *	See proc.h.  The one fork, exec and wait of bftrainer's programs
 *	that run another to its end (the schedulers' commands of the pilot
 *	backends, bf-profile and --holes-cmd under bf-watch, gnuplot for
 *	bf-report and bf-sim); the job supervisor, which keeps its
 *	children, has its own.
 */
#define _GNU_SOURCE		/* pipe2, close_range */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"
#include "util/now.h"
#include "util/proc.h"

struct sink {
	int fd;			/* -1 once at its end */
	char *buf;
	size_t len, cap, max;
	int lost;
};

static int
sink_read(struct sink *s)
{
	char drop[4096];
	ssize_t r;

	if (s->len + 4096 + 1 > s->cap && s->cap < s->max + 1) {
		size_t cap = s->cap ? 2 * s->cap : 8192;
		char *b;
		if (cap > s->max + 1)
			cap = s->max + 1;
		if ((b = realloc(s->buf, cap)) == NULL)
			return -1;
		s->buf = b;
		s->cap = cap;
	}
	if (s->len + 1 < s->cap)
		r = read(s->fd, s->buf + s->len, s->cap - s->len - 1);
	else
		r = read(s->fd, drop, sizeof drop);
	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (r <= 0) {
		close(s->fd);
		s->fd = -1;
		return 0;
	}
	if (s->len + 1 < s->cap)
		s->len += (size_t)r;
	else
		s->lost = 1;
	return 0;
}

/* In the child: fd as target, from a choice of the caller's. */
static void
child_fd(int how, int pipefd, int target)
{
	int fd = how == PROC_CAPTURE ? pipefd : how;

	if (how == PROC_INHERIT)
		return;
	if (how == PROC_NULL)
		fd = open("/dev/null", O_RDWR);
	if (fd < 0 || (fd != target && dup2(fd, target) < 0))
		_exit(126);
}

static void
child(const struct proc *p, int group, const int in[2], const int out[2],
    const int err[2])
{
	sigset_t none;
	int e;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	if (group)
		(void)setpgid(0, 0);	/* its whole group killed at the end */
	if (p->in != NULL) {
		if (dup2(in[0], STDIN_FILENO) < 0)
			_exit(126);
	} else
		child_fd(PROC_NULL, -1, STDIN_FILENO);
	child_fd(p->out, out[1], STDOUT_FILENO);
	child_fd(p->err, err[1], STDERR_FILENO);
	if (p->dir != NULL && chdir(p->dir) < 0) {
		fprintf(stderr, "%s: unable to enter %s: %s\n", log_prog,
		    p->dir, strerror(errno));
		_exit(126);
	}
	if (p->setup != NULL)
		p->setup(p->arg);
	execvp(p->argv[0], p->argv);
	e = errno;
	fprintf(stderr, "%s: unable to run %s: %s\n", log_prog, p->argv[0],
	    strerror(e));
	_exit(e == ENOENT ? 127 : 126);
}

static void
close_pair(int fds[2])
{
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	fds[0] = fds[1] = -1;
}

void
proc_out_free(struct proc_out *o)
{
	if (o == NULL)
		return;
	free(o->out);
	free(o->err);
	memset(o, 0, sizeof *o);
}

/* Milliseconds to wait in poll(2): -1 with no deadline, else at most
 * 100 (a pending SIGTERM is looked for that often). */
static int
ms_left(double deadline)
{
	double left;

	if (deadline <= 0)
		return -1;
	left = deadline - now_mono();
	return left <= 0 ? 0 : left > 0.1 ? 100 : (int)(left * 1e3) + 1;
}

/* A SIGTERM or SIGINT waiting, blocked: the caller is asked to end. */
static int
term_pending(void)
{
	sigset_t set;

	return sigpending(&set) == 0 && (sigismember(&set, SIGTERM) == 1 ||
	    sigismember(&set, SIGINT) == 1);
}

/* The child's exit, waiting at most until deadline (0: for ever). */
static int
reap(pid_t pid, int *status, double deadline)
{
	struct timespec ts = { 0, 5 * 1000 * 1000 };
	pid_t r;

	for (;;) {
		r = waitpid(pid, status, deadline > 0 ? WNOHANG : 0);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR) {
			*status = 126 << 8;
			return 0;
		}
		if (r == 0 && (now_mono() >= deadline || term_pending()))
			return -1;
		if (r == 0)
			nanosleep(&ts, NULL);
	}
}

int
proc_run(const struct proc *p, int *status, struct proc_out *o,
    struct diag *d)
{
	return proc_run_bounded(p, 0, 0, status, o, d);
}

int
proc_run_bounded(const struct proc *p, double timeout, size_t maxout,
    int *status, struct proc_out *o, struct diag *d)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
	size_t max = maxout ? maxout : PROC_MAX_CAPTURE;
	struct sink s[2] = { { -1, NULL, 0, 0, max, 0 },
	    { -1, NULL, 0, 0, max, 0 } };
	double deadline = timeout > 0 ? now_mono() + timeout : 0;
	size_t fed = 0;
	void (*was)(int);
	pid_t pid;
	int e, oom = 0, late = 0;

	if (o != NULL)
		memset(o, 0, sizeof *o);
	if ((p->in != NULL && pipe2(in, O_CLOEXEC) < 0) ||
	    (p->out == PROC_CAPTURE && pipe2(out, O_CLOEXEC) < 0) ||
	    (p->err == PROC_CAPTURE && pipe2(err, O_CLOEXEC) < 0) ||
	    (pid = fork()) < 0) {
		e = errno;
		close_pair(in), close_pair(out), close_pair(err);
		return diag_errno(d, e, "unable to run %s", p->argv[0]);
	}
	if (pid == 0)
		child(p, timeout > 0, in, out, err);
	if (timeout > 0)
		(void)setpgid(pid, pid);	/* before any kill(-pid) */
	close(in[0]), close(out[1]), close(err[1]);
	s[0].fd = out[0];
	s[1].fd = err[0];
	was = signal(SIGPIPE, SIG_IGN);	/* a child that stops reading */
	/* A write of more than the pipe holds would block, the child
	 * blocked in turn on an output not read meanwhile. */
	if (in[1] >= 0)
		(void)fcntl(in[1], F_SETFL, O_NONBLOCK);
	if (in[1] >= 0 && p->inlen == 0) {
		close(in[1]);
		in[1] = -1;
	}
	while (in[1] >= 0 || s[0].fd >= 0 || s[1].fd >= 0) {
		struct pollfd pf[3] = { { in[1], POLLOUT, 0 },
		    { s[0].fd, POLLIN, 0 }, { s[1].fd, POLLIN, 0 } };
		int i, n = poll(pf, 3, ms_left(deadline));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (deadline > 0 && (now_mono() >= deadline ||
		    term_pending())) {
			late = 1;
			break;
		}
		if (in[1] >= 0 && pf[0].revents) {
			ssize_t w = write(in[1], p->in + fed, p->inlen - fed);
			if (w > 0)
				fed += (size_t)w;
			if ((w < 0 && errno != EINTR && errno != EAGAIN) ||
			    fed == p->inlen) {
				close(in[1]);
				in[1] = -1;
			}
		}
		for (i = 0; i < 2; i++)
			if (s[i].fd >= 0 && pf[i + 1].revents && !oom &&
			    sink_read(&s[i]) < 0)
				oom = 1;
		if (oom)
			break;
	}
	if (in[1] >= 0)
		close(in[1]);
	if (s[0].fd >= 0)
		close(s[0].fd);
	if (s[1].fd >= 0)
		close(s[1].fd);
	if (late || reap(pid, status, deadline) < 0) {
		late = 1;
		(void)kill(-pid, SIGKILL);
		(void)kill(pid, SIGKILL);
		(void)reap(pid, status, 0);
	}
	signal(SIGPIPE, was);
	if (oom || (o == NULL && (s[0].buf || s[1].buf))) {
		free(s[0].buf);
		free(s[1].buf);
		return oom ? diag_errno(d, ENOMEM, "%s", p->argv[0]) : 0;
	}
	if (o != NULL) {
		o->out = s[0].buf ? s[0].buf : strdup("");
		o->err = s[1].buf ? s[1].buf : strdup("");
		if (o->out == NULL || o->err == NULL) {
			proc_out_free(o);
			return diag_errno(d, ENOMEM, "%s", p->argv[0]);
		}
		o->out[s[0].len] = '\0', o->outlen = s[0].len;
		o->err[s[1].len] = '\0', o->errlen = s[1].len;
		o->timedout = late;
		o->interrupted = late && term_pending();
		o->lost = s[0].lost | s[1].lost;
	}
	return 0;
}

static int
int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

void
proc_close_others(const int *keep, size_t n)
{
	int sorted[16];
	unsigned lo = 3;
	size_t i;

	if (n > sizeof sorted / sizeof *sorted)
		n = sizeof sorted / sizeof *sorted;
	memcpy(sorted, keep, n * sizeof *keep);
	qsort(sorted, n, sizeof *sorted, int_cmp);
	for (i = 0; i < n; i++) {
		if (sorted[i] < 0)
			continue;
		if ((unsigned)sorted[i] > lo)
			close_range(lo, (unsigned)sorted[i] - 1, 0);
		if ((unsigned)sorted[i] + 1 > lo)
			lo = (unsigned)sorted[i] + 1;
	}
	close_range(lo, ~0U, 0);
}
