/*
 * NAME
 *	launcher - a small process that forks the supervisors for bf-watch
 * DESCRIPTION
 *	See launcher.h.  The pack, in the machine's own byte order (both
 *	ends are one program):
 *
 *		u32 version, u32 count of strings
 *		i64 restarts, f64 grace, i64 uid, i64 gid, i64 known,
 *		i64 has-worker, i64 has-pilot (each 0 or 1)
 *		then the strings in order, each a u32 length, its bytes, a NUL:
 *		name, command, worker ("" with has-worker 0), who.name,
 *		who.home, then the environment, one string each
 *
 *	The pilot (a struct pilot_ops of pilots.h: how a worker runs inside
 *	a node's pilot job) is not a pointer to send: the pack says whether
 *	there is one, and the launcher gives its backend's, the only one the
 *	launch can have (launch_init() takes it from the backend).
 */
#define _GNU_SOURCE		/* close_range, MSG_CMSG_CLOEXEC */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/log.h"
#include "util/proc.h"

#include "run/launch.h"
#include "run/launcher.h"
#include "run/supervise.h"


/* Said on the start pipe as a supervisor says its own failures. */
static void
tell(int pw, int code, const char *what, const char *name, int err)
{
	char msg[512];
	int n = snprintf(msg, sizeof msg, "%d %s %s: %s", code, what, name,
	    strerror(err));

	if (n > 0)
		(void)!write(pw, msg, (size_t)n < sizeof msg ? (size_t)n :
		    sizeof msg - 1);
}

/*
 * The warm supervisors the launcher holds (supervise_warm()): their
 * sockets, each ready once it said so ("r", after its job's fork).
 */
struct warm_pool {
	int fd[LAUNCHER_WARM];
	int ready[LAUNCHER_WARM];
	size_t n;
	int wait_ms;		/* idle time before the next is forked */
};

/* No room for a process, or one that ended unused: not again at once. */
static void
warm_later(struct warm_pool *p)
{
	p->wait_ms = p->wait_ms < 5000 ? p->wait_ms * 2 : 10000;
}

/* One more, forked while nothing is asked of the launcher. */
static void
warm_fill(struct warm_pool *p, const struct supervisor_env *env)
{
	int fd;

	if (supervise_warm(env, &fd) < 0) {
		warm_later(p);
		return;
	}
	p->fd[p->n] = fd;
	p->ready[p->n++] = 0;
}

static void
warm_drop(struct warm_pool *p, size_t i)
{
	close(p->fd[i]);	/* its end of file: it exits, if it runs */
	p->n--;
	memmove(p->fd + i, p->fd + i + 1, (p->n - i) * sizeof *p->fd);
	memmove(p->ready + i, p->ready + i + 1, (p->n - i) * sizeof *p->ready);
}

/*
 * What poll(2) found on their sockets: one that says it is ready is;
 * one that hung up (it ended, or failed its set-up) or says anything
 * else is let go.
 */
static void
warm_polled(struct warm_pool *p, const struct pollfd *pfd)
{
	size_t i, n = p->n;
	int gone = 0;
	char c;

	for (i = n; i-- > 0;) {
		short r = pfd[i].revents;
		if (r == 0)
			continue;
		if (!(r & (POLLHUP | POLLERR)) && (r & POLLIN) &&
		    !p->ready[i] && recv(p->fd[i], &c, 1, MSG_DONTWAIT) == 1 &&
		    c == 'r') {
			p->ready[i] = 1;
			p->wait_ms = LAUNCHER_WARM_IDLE_MS;
			continue;
		}
		warm_drop(p, i);
		gone = 1;
	}
	if (gone)
		warm_later(p);
}

/*
 * The launch handed to a warm supervisor that is ready, the newest first;
 * one that is gone is let go and the next tried.  0 once one took it, -1
 * when none did (none ready, or a send that failed for another reason):
 * then it is forked as before.
 */
static int
warm_take(struct warm_pool *p, const char *buf, size_t len,
    const int fds[LAUNCH_FDS])
{
	size_t i;

	for (i = p->n; i-- > 0;) {
		if (!p->ready[i])
			continue;
		if (launch_send(p->fd[i], buf, len, fds) == 0) {
			warm_drop(p, i);	/* it has its launch */
			return 0;
		}
		if (errno != EPIPE && errno != ECONNRESET &&
		    errno != ENOTCONN)
			return -1;
		warm_drop(p, i);
	}
	return -1;
}

static _Noreturn void
launcher_main(const struct supervisor_env *env, int sock)
{
	/* Its own: not the spool's lock, which it does not keep. */
	struct supervisor_env mine = { env->tmpfd, -1, env->pilot };
	struct warm_pool warm = { .n = 0, .wait_ms = LAUNCHER_WARM_IDLE_MS };
	struct pollfd pfd[1 + LAUNCHER_WARM];
	struct launch l;
	int fds[LAUNCH_FDS], keep[2] = { sock, env->tmpfd }, i, r;
	char *buf = malloc(LAUNCH_MAX_PACK);
	ssize_t got;
	pid_t pid;

	/* Only its socket and tmp/: not the spool's lock, not inotify's. */
	proc_close_others(keep, 2);
	signal(SIGHUP, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, SIG_IGN);	/* the kernel reaps its children */
	if (buf == NULL)
		_exit(71);
	pfd[0].fd = sock;
	pfd[0].events = POLLIN;
	for (;;) {
		/* A warm one says it is ready; one that ended hangs up. */
		for (i = 0; i < (int)warm.n; i++) {
			pfd[1 + i].fd = warm.fd[i];
			pfd[1 + i].events = warm.ready[i] ? 0 : POLLIN;
			pfd[1 + i].revents = 0;
		}
		pfd[0].revents = 0;
		r = poll(pfd, 1 + warm.n, warm.n < LAUNCHER_WARM ?
		    warm.wait_ms : -1);
		if (r == 0)
			warm_fill(&warm, &mine);
		if (r <= 0)
			continue;
		warm_polled(&warm, pfd + 1);
		if (!(pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		memset(&l, 0, sizeof l);
		got = launch_receive(sock, buf, LAUNCH_MAX_PACK, fds);
		if (got == 0 || got == -1)
			_exit(0);	/* bf-watch is gone */
		if (fds[2] < 0) {
			for (i = 0; i < LAUNCH_FDS; i++)
				if (fds[i] >= 0)
					close(fds[i]);
			continue;	/* no pipe to answer on */
		}
		if (got < 0 || fds[0] < 0 || fds[1] < 0 ||
		    launch_unpack(&l, buf, (size_t)got, mine.pilot) < 0)
			tell(fds[2], EX_SOFTWARE, "the launcher could not read "
			    "the start of", "a job", got < 0 ? EMSGSIZE :
			    EBADMSG);
		else if (warm_take(&warm, buf, (size_t)got, fds) == 0)
			;	/* a warm supervisor has it */
		else if ((pid = fork()) == 0) {
			close(sock);
			supervise(&mine, &l, fds[0], fds[1], fds[2]);
		} else if (pid < 0)
			tell(fds[2], EX_OSERR, "unable to start job", l.name,
			    errno);
		for (i = 0; i < LAUNCH_FDS; i++)
			if (fds[i] >= 0)
				close(fds[i]);
	}
}

void
launcher_init(struct launcher *ln)
{
	memset(ln, 0, sizeof *ln);
	ln->fd = -1;
	ln->env.tmpfd = ln->env.spool_lockfd = -1;
}

int
launcher_open(struct launcher *ln, const struct supervisor_env *env,
    const char *spool, struct diag *d)
{
	int sv[2], size = LAUNCH_MAX_PACK * 2;
	struct timeval timeout = { 1, 0 };
	pid_t pid;

	if (ln->fd >= 0)
		return 0;
	if (env->tmpfd < 0)
		return diag_set(d, EX_SOFTWARE, "%s: no tmp/ for the launcher",
		    spool);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return diag_errno(d, errno, "unable to make the launcher's "
		    "socket");
	(void)setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
	/* A launcher stopped or stuck: EAGAIN after a second, then a fork. */
	(void)setsockopt(sv[0], SOL_SOCKET, SO_SNDTIMEO, &timeout,
	    sizeof timeout);
	(void)setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
	if ((pid = fork()) < 0) {
		int err = errno;
		close(sv[0]);
		close(sv[1]);
		return diag_errno(d, err, "unable to start the launcher");
	}
	if (pid == 0)
		launcher_main(env, sv[1]);
	close(sv[1]);
	ln->fd = sv[0];
	ln->pid = pid;
	if (&ln->env != env)
		ln->env = *env;
	snprintf(ln->spool, sizeof ln->spool, "%s", spool);
	return 0;
}

/*
 * Its end of file makes it exit; one stopped or stuck is killed after a
 * second.  pid is 0 once the caller reaped it (launcher_reaped()), so
 * that a pid used again is never waited for nor killed.
 */
void
launcher_close(struct launcher *ln)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int i;

	if (ln->fd < 0)
		return;
	close(ln->fd);
	ln->fd = -1;
	for (i = 0; i < 100 && ln->pid > 0; i++) {
		pid_t r = waitpid(ln->pid, NULL, WNOHANG);
		if (r == ln->pid || (r < 0 && errno != EINTR))
			ln->pid = 0;
		else
			nanosleep(&tick, NULL);
	}
	if (ln->pid > 0) {
		kill(ln->pid, SIGKILL);
		while (waitpid(ln->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	ln->pid = 0;
}

void
launcher_reaped(struct launcher *ln, pid_t pid)
{
	if (pid > 0 && pid == ln->pid)
		ln->pid = 0;
}

int
launcher_send(struct launcher *ln, const struct launch *l, int rfd,
    int lockfd, int pw)
{
	const int fds[LAUNCH_FDS] = { rfd, lockfd, pw };
	struct diag d;
	ssize_t len;
	char *buf;
	int err, rc;

	if (ln->fd < 0) {
		errno = ENOTCONN;
		return -1;
	}
	if ((len = launch_pack(l, NULL, 0)) < 0)
		return -1;
	if (len > LAUNCH_MAX_PACK) {
		errno = EMSGSIZE;
		return -1;
	}
	if ((buf = malloc((size_t)len)) == NULL)
		return -1;
	(void)launch_pack(l, buf, (size_t)len);
	if ((rc = launch_send(ln->fd, buf, (size_t)len, fds)) < 0 &&
	    (errno == EPIPE || errno == ECONNRESET)) {
		err = errno;
		log_warn("the launcher of supervisors is gone (%s); started "
		    "again", strerror(err));
		launcher_close(ln);
		if (launcher_open(ln, &ln->env, ln->spool, &d) < 0) {
			log_warn("%s; supervisors are forked by bf-watch",
			    d.text);
			errno = err;
		} else
			rc = launch_send(ln->fd, buf, (size_t)len, fds);
	}
	err = errno;
	free(buf);
	errno = err;
	return rc;
}
