/*
 * NAME
 *	launch - what a supervisor is told of the job it starts, and how it
 *	is sent
 * DESCRIPTION
 *	See launch.h.  The pack, in the machine's own byte order (both ends
 *	are one program):
 *
 *		u32 version, u32 count of strings
 *		i64 restarts, f64 grace, i64 uid, i64 gid, i64 known,
 *		i64 has-worker, i64 has-pilot (each 0 or 1)
 *		then the strings in order, each a u32 length, its bytes, a NUL:
 *		name, command, worker ("" with has-worker 0), who.name,
 *		who.home, then the environment, one string each
 *
 *	The pilot (a struct pilot_exec of pilot.h: how a worker runs inside
 *	a node's pilot job) is not a pointer to send: the pack says whether
 *	there is one, and the receiver gives its backend's, the only one the
 *	launch can have (launch_init() takes it from the site).
 */
#define _GNU_SOURCE		/* vasprintf, MSG_CMSG_CLOEXEC */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "run/launch.h"

#define PACK_VERSION	1u

/* KEY=VALUE into the environment, replacing KEY; 0, or -1 when full. */
int
launch_env_set(char **envp, size_t *n, const char *fmt, ...)
{
	va_list ap;
	char *s;
	size_t i, klen;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -1;
	klen = strcspn(s, "=") + 1;
	for (i = 0; i < *n; i++)
		if (strncmp(envp[i], s, klen) == 0) {
			free(envp[i]);
			envp[i] = s;
			return 0;
		}
	if (*n >= LAUNCH_ENV_MAX) {
		free(s);
		return -1;
	}
	envp[(*n)++] = s;
	envp[*n] = NULL;
	return 0;
}

/*
 * The run's secret: 128 bits from the kernel's generator, as 32 hex
 * digits.  Only the job's environment carries it (never an argv, which
 * ps shows to everyone, nor a file): /proc/PID/environ is readable by
 * the process's own uid only.  A coordinator keys what it serves with
 * it (examples/torch).  -1 when the generator fails.
 */
static int
make_secret(char hex[2 * LAUNCH_SECRET_BYTES + 1])
{
	unsigned char b[LAUNCH_SECRET_BYTES];
	size_t got = 0, i;
	ssize_t r;

	while (got < sizeof b) {
		r = getrandom(b + got, sizeof b - got, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	for (i = 0; i < sizeof b; i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	explicit_bzero(b, sizeof b);
	return 0;
}

int
launch_init(struct launch *l, const struct launch_site *site,
    const struct job *j, long nodes, long port)
{
	const char *conf = getenv("SLURM_CONF"),
	    *pbsconf = getenv("PBS_CONF_FILE");
	char **e = l->envp;
	char secret[2 * LAUNCH_SECRET_BYTES + 1];
	size_t *n = &l->nenv;
	int bad = 0;

	memset(l, 0, sizeof *l);
	if (make_secret(secret) < 0)
		return -1;
	snprintf(l->name, sizeof l->name, "%s", j->name);
	who_of((uid_t)j->owner_uid, &l->who);
	l->command = strdup(j->command);
	l->worker = j->worker ? strdup(j->worker) : NULL;
	l->restarts = j->worker_restarts;
	l->grace = site->grace;
	l->pilot = site->pilot;
	bad |= l->command == NULL || (j->worker && l->worker == NULL);
	bad |= launch_env_set(e, n, "PATH=/usr/local/bin:/usr/bin:/bin");
	bad |= launch_env_set(e, n, "HOME=%s", l->who.home);
	bad |= launch_env_set(e, n, "SHELL=/bin/sh");
	if (l->who.known) {
		bad |= launch_env_set(e, n, "USER=%s", l->who.name);
		bad |= launch_env_set(e, n, "LOGNAME=%s", l->who.name);
	}
	bad |= launch_env_set(e, n, "BF_COMMAND=%s", j->command);
	bad |= launch_env_set(e, n, "BF_JOB=%s", j->name);
	bad |= launch_env_set(e, n, "BF_NODES=%ld", nodes);
	bad |= launch_env_set(e, n, "BF_MIN_NODES=%ld", j->min_nodes);
	bad |= launch_env_set(e, n, "BF_MAX_NODES=%ld", j->max_nodes);
	bad |= launch_env_set(e, n, "BF_SLOTS=%ld", j->slots_per_node);
	bad |= launch_env_set(e, n, "BF_SPOOL=%s", site->spool_abs);
	bad |= launch_env_set(e, n, "BF_HOSTFILE=%s/run/%s/hosts",
	    site->spool_abs, j->name);
	bad |= launch_env_set(e, n, "BF_PROGRESS=%s/progress/%s.log",
	    site->spool_abs, j->name);
	bad |= launch_env_set(e, n, "BF_COORD_HOST=%s", site->coord_host);
	bad |= launch_env_set(e, n, "BF_COORD_PORT=%ld", port);
	bad |= launch_env_set(e, n, "BF_COORD=%s:%ld", site->coord_host, port);
	bad |= launch_env_set(e, n, "BF_SECRET=%s", secret);
	explicit_bzero(secret, sizeof secret);
	/* The cluster's, not the user's: srun and squeue find Slurm by it. */
	if (conf != NULL && *conf != '\0')
		bad |= launch_env_set(e, n, "SLURM_CONF=%s", conf);
	/* PBS's commands (qsig, pbs_attach) find the server by it. */
	if (pbsconf != NULL && *pbsconf != '\0')
		bad |= launch_env_set(e, n, "PBS_CONF_FILE=%s", pbsconf);
	if (bad) {
		launch_free(l);
		return -1;
	}
	return 0;
}

void
launch_free(struct launch *l)
{
	size_t i;

	for (i = 0; i < l->nenv; i++)
		free(l->envp[i]);
	free(l->command);
	free(l->worker);
	memset(l, 0, sizeof *l);
}

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
    const struct pilot_exec *pilot)
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
	    count - 5 > LAUNCH_ENV_MAX || uid < 0 || uid > UINT32_MAX ||
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
launch_send(int sock, const char *buf, size_t len, const int fds[LAUNCH_FDS])
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int) * LAUNCH_FDS)];
	} u;
	struct iovec iov = { (void *)(uintptr_t)buf, len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
	    .msg_control = u.space, .msg_controllen = sizeof u.space };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	ssize_t sent;

	memset(u.space, 0, sizeof u.space);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int) * LAUNCH_FDS);
	memcpy(CMSG_DATA(c), fds, sizeof(int) * LAUNCH_FDS);
	do
		sent = sendmsg(sock, &m, MSG_NOSIGNAL);
	while (sent < 0 && errno == EINTR);
	if (sent < 0)
		return -1;
	return 0;
}

ssize_t
launch_receive(int sock, char *buf, size_t size, int fds[LAUNCH_FDS])
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(sizeof(int) * LAUNCH_FDS)];
	} u;
	struct iovec iov = { buf, size };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
	    .msg_control = u.space, .msg_controllen = sizeof u.space };
	struct cmsghdr *c;
	size_t i, n;
	ssize_t got;

	for (i = 0; i < LAUNCH_FDS; i++)
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
			if (i < LAUNCH_FDS && fds[i] < 0)
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

