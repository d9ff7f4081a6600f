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

#include "launcher.h"

#define PACK_VERSION	1u
#define PACK_FDS	3

struct packer {
	char *buf;
	size_t size, at;
	int bad;
};

static void
put(struct packer *p, const void *v, size_t n)
{
	if (p->buf != NULL && p->at <= p->size && n <= p->size - p->at)
		memcpy(p->buf + p->at, v, n);
	p->at += n;
}

static void
put_i64(struct packer *p, int64_t v)
{
	put(p, &v, sizeof v);
}

static void
put_str(struct packer *p, const char *s)
{
	size_t n = strlen(s);
	uint32_t len = (uint32_t)n;

	if (n >= UINT32_MAX)
		p->bad = 1;
	put(p, &len, sizeof len);
	put(p, s, n + 1);
}

ssize_t
launch_pack(const struct launch *l, char *buf, size_t size)
{
	struct packer p = { buf, size, 0, 0 };
	uint32_t version = PACK_VERSION, count = 5 + (uint32_t)l->nenv;
	double grace = l->grace;
	size_t i;

	put(&p, &version, sizeof version);
	put(&p, &count, sizeof count);
	put_i64(&p, l->restarts);
	put(&p, &grace, sizeof grace);
	put_i64(&p, (int64_t)l->who.uid);
	put_i64(&p, (int64_t)l->who.gid);
	put_i64(&p, l->who.known);
	put_i64(&p, l->worker != NULL);
	put_i64(&p, l->pilot != NULL);
	put_str(&p, l->name);
	put_str(&p, l->command);
	put_str(&p, l->worker != NULL ? l->worker : "");
	put_str(&p, l->who.name);
	put_str(&p, l->who.home);
	for (i = 0; i < l->nenv; i++)
		put_str(&p, l->envp[i]);
	if (p.bad || p.at > SSIZE_MAX) {
		errno = EMSGSIZE;
		return -1;
	}
	return (ssize_t)p.at;
}

struct reader {
	char *buf;
	size_t len, at;
	int bad;
};

static void
get(struct reader *r, void *v, size_t n)
{
	if (r->bad || n > r->len - r->at) {
		r->bad = 1;
		memset(v, 0, n);
		return;
	}
	memcpy(v, r->buf + r->at, n);
	r->at += n;
}

static int64_t
get_i64(struct reader *r)
{
	int64_t v;

	get(r, &v, sizeof v);
	return v;
}

/* The next string, in place; NULL when it is not a whole one. */
static char *
get_str(struct reader *r)
{
	uint32_t len;
	char *s;

	get(r, &len, sizeof len);
	if (r->bad || len >= r->len - r->at ||
	    r->buf[r->at + len] != '\0' || memchr(r->buf + r->at, '\0',
	    len) != NULL) {
		r->bad = 1;
		return NULL;
	}
	s = r->buf + r->at;
	r->at += (size_t)len + 1;
	return s;
}

static int
copy_into(char *dst, size_t size, const char *s)
{
	size_t n = s != NULL ? strlen(s) : size;

	if (n >= size)
		return -1;
	memcpy(dst, s, n + 1);
	return 0;
}

int
launch_unpack(struct launch *l, char *buf, size_t len,
    const struct pilot_ops *pilot)
{
	struct reader r = { buf, len, 0, 0 };
	uint32_t version, count;
	int64_t uid, gid, known, has_worker, has_pilot;
	char *name, *who_name, *who_home;
	size_t i;

	memset(l, 0, sizeof *l);
	get(&r, &version, sizeof version);
	get(&r, &count, sizeof count);
	l->restarts = (long)get_i64(&r);
	get(&r, &l->grace, sizeof l->grace);
	uid = get_i64(&r);
	gid = get_i64(&r);
	known = get_i64(&r);
	has_worker = get_i64(&r);
	has_pilot = get_i64(&r);
	if (r.bad || version != PACK_VERSION || count < 5 ||
	    count - 5 > SUPERVISE_ENV_MAX || uid < 0 || uid > UINT32_MAX ||
	    gid < 0 || gid > UINT32_MAX || (known != 0 && known != 1) ||
	    (has_worker != 0 && has_worker != 1) ||
	    (has_pilot != 0 && has_pilot != 1) || (has_pilot && !pilot) ||
	    !(l->grace >= 0))
		goto bad;
	name = get_str(&r);
	l->command = get_str(&r);
	l->worker = get_str(&r);
	who_name = get_str(&r);
	who_home = get_str(&r);
	l->nenv = count - 5;
	for (i = 0; i < l->nenv; i++)
		l->envp[i] = get_str(&r);
	l->envp[l->nenv] = NULL;
	if (r.bad || r.at != len || *name == '\0' ||
	    copy_into(l->name, sizeof l->name, name) < 0 ||
	    copy_into(l->who.name, sizeof l->who.name, who_name) < 0 ||
	    copy_into(l->who.home, sizeof l->who.home, who_home) < 0)
		goto bad;
	if (!has_worker)
		l->worker = NULL;
	l->pilot = has_pilot ? pilot : NULL;
	l->who.uid = (uid_t)uid;
	l->who.gid = (gid_t)gid;
	l->who.known = (int)known;
	return 0;
bad:
	memset(l, 0, sizeof *l);
	errno = EBADMSG;
	return -1;
}

int
launch_send(int sock, const char *buf, size_t len, const int fds[PACK_FDS])
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int) * PACK_FDS)];
	} u;
	struct iovec iov = { (void *)(uintptr_t)buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
	    .msg_control = u.space, .msg_controllen = sizeof u.space };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	ssize_t sent;

	memset(u.space, 0, sizeof u.space);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int) * PACK_FDS);
	memcpy(CMSG_DATA(c), fds, sizeof(int) * PACK_FDS);
	do
		sent = sendmsg(sock, &m, MSG_NOSIGNAL);
	while (sent < 0 && errno == EINTR);
	if (sent < 0)
		return -1;
	return 0;
}

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

ssize_t
launch_receive(int sock, char *buf, size_t size, int fds[PACK_FDS])
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int) * PACK_FDS)];
	} u;
	struct iovec iov = { buf, size };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
	    .msg_control = u.space, .msg_controllen = sizeof u.space };
	struct cmsghdr *c;
	size_t i, n;
	ssize_t got;

	for (i = 0; i < PACK_FDS; i++)
		fds[i] = -1;
	do
		got = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	while (got < 0 && errno == EINTR);
	if (got <= 0)
		return got;
	for (c = CMSG_FIRSTHDR(&m); c != NULL; c = CMSG_NXTHDR(&m, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++) {
			int fd;
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
			if (i < PACK_FDS && fds[i] < 0)
				fds[i] = fd;
			else
				close(fd);
		}
	}
	if (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
		errno = EMSGSIZE;
		return -2;
	}
	return got;
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
warm_fill(struct warm_pool *p, struct backend *b)
{
	int fd;

	if (supervise_warm(b, &fd) < 0) {
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
    const int fds[PACK_FDS])
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
launcher_main(struct backend *b, int sock, int tmpfd)
{
	struct spool sp;
	struct backend mine = *b;
	struct warm_pool warm = { .n = 0, .wait_ms = LAUNCHER_WARM_IDLE_MS };
	struct pollfd pfd[1 + LAUNCHER_WARM];
	struct launch l;
	int fds[PACK_FDS], keep[2] = { sock, tmpfd }, i, r;
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
	memset(&sp, 0, sizeof sp);
	snprintf(sp.path, sizeof sp.path, "%s", b->sp->path);
	sp.fd = -1;
	for (i = 0; i < SPOOL_NDIRS; i++)
		sp.dirs[i] = -1;
	sp.dirs[SPOOL_TMP] = tmpfd;
	sp.lockfd = -1;
	mine.sp = &sp;
	mine.seen = NULL;
	mine.nseen = mine.seen_cap = 0;
	mine.launcher_fd = -1;
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
			for (i = 0; i < PACK_FDS; i++)
				if (fds[i] >= 0)
					close(fds[i]);
			continue;	/* no pipe to answer on */
		}
		if (got < 0 || fds[0] < 0 || fds[1] < 0 ||
		    launch_unpack(&l, buf, (size_t)got, mine.ops != NULL ?
		    mine.ops->pilot : NULL) < 0)
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
		for (i = 0; i < PACK_FDS; i++)
			if (fds[i] >= 0)
				close(fds[i]);
	}
}

int
launcher_open(struct backend *b, struct diag *d)
{
	int sv[2], tmpfd = b->sp->dirs[SPOOL_TMP], size = LAUNCH_MAX_PACK * 2;
	struct timeval timeout = { 1, 0 };
	pid_t pid;

	if (b->launcher_fd >= 0)
		return 0;
	if (tmpfd < 0)
		return diag_set(d, EX_SOFTWARE, "%s: no tmp/ for the launcher",
		    b->sp->path);
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
		launcher_main(b, sv[1], tmpfd);
	close(sv[1]);
	b->launcher_fd = sv[0];
	b->launcher_pid = pid;
	return 0;
}

/*
 * Its end of file makes it exit; one stopped or stuck is killed after a
 * second.  launcher_pid is 0 once the caller reaped it (launcher_reaped()),
 * so that a pid used again is never waited for nor killed.
 */
void
launcher_close(struct backend *b)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int i;

	if (b->launcher_fd < 0)
		return;
	close(b->launcher_fd);
	b->launcher_fd = -1;
	for (i = 0; i < 100 && b->launcher_pid > 0; i++) {
		pid_t r = waitpid(b->launcher_pid, NULL, WNOHANG);
		if (r == b->launcher_pid || (r < 0 && errno != EINTR))
			b->launcher_pid = 0;
		else
			nanosleep(&tick, NULL);
	}
	if (b->launcher_pid > 0) {
		kill(b->launcher_pid, SIGKILL);
		while (waitpid(b->launcher_pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	b->launcher_pid = 0;
}

void
launcher_reaped(struct backend *b, pid_t pid)
{
	if (pid > 0 && pid == b->launcher_pid)
		b->launcher_pid = 0;
}

int
launcher_send(struct backend *b, const struct launch *l, int rfd,
    int lockfd, int pw)
{
	const int fds[PACK_FDS] = { rfd, lockfd, pw };
	struct diag d;
	ssize_t len;
	char *buf;
	int err, rc;

	if (b->launcher_fd < 0) {
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
	if ((rc = launch_send(b->launcher_fd, buf, (size_t)len, fds)) < 0 &&
	    (errno == EPIPE || errno == ECONNRESET)) {
		err = errno;
		log_warn("the launcher of supervisors is gone (%s); started "
		    "again", strerror(err));
		launcher_close(b);
		if (launcher_open(b, &d) < 0) {
			log_warn("%s; supervisors are forked by bf-watch",
			    d.text);
			errno = err;
		} else
			rc = launch_send(b->launcher_fd, buf, (size_t)len, fds);
	}
	err = errno;
	free(buf);
	errno = err;
	return rc;
}
