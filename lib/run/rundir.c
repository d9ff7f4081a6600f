/*
 * NAME
 *	rundir - the records of run/NAME/, one job's run, in one place
 * DESCRIPTION
 *	See rundir.h.
 */
#define _GNU_SOURCE		/* open_memstream */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/file.h"
#include "util/now.h"

#include "run/rundir.h"

/* run/NAME, made when missing; the caller closes the descriptor. */
int
rundir_make(const struct spool *sp, const char *name, struct diag *d)
{
	int rfd = spool_dirfd(sp, SPOOL_RUN, d), fd;

	if (rfd < 0)
		return -1;
	if (mkdirat(rfd, name, 0755) < 0 && errno != EEXIST)
		return diag_errno(d, errno, "unable to create %s/run/%s",
		    sp->path, name);
	fd = openat(rfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd < 0)
		return diag_errno(d, errno, "unable to open %s/run/%s",
		    sp->path, name);
	return fd;
}

int
rundir_open(const struct spool *sp, const char *name)
{
	int rfd = sp->dirs[SPOOL_RUN];

	return rfd < 0 ? -1 : openat(rfd, name, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC);
}

int
rundir_hosts_read(int dirfd, const char *file, struct hostlist *hl,
    struct diag *d)
{
	char *buf, *line, *save, *colon;
	size_t len;

	hostlist_init(hl);
	if (file_read_at(dirfd, file, 1 << 24, FILE_NOFOLLOW, &buf, &len,
	    d) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if ((colon = strchr(line, ':')) != NULL)
			*colon = '\0';
		if (*line != '\0' && hostlist_add(hl, line) < 0) {
			free(buf);
			hostlist_free(hl);
			return diag_errno(d, ENOMEM, "%s", file);
		}
	}
	free(buf);
	hostlist_sort_uniq(hl);
	return 0;
}

long
rundir_hosts_slots(int rfd)
{
	char *buf, *colon;
	struct diag d;
	size_t len;
	long s = 1;

	if (file_read_at(rfd, RUNDIR_HOSTS, 1 << 24, FILE_NOFOLLOW, &buf, &len,
	    &d) < 0)
		return 1;
	if ((colon = strchr(buf, ':')) != NULL)
		s = strtol(colon + 1, NULL, 10);
	free(buf);
	return s > 0 ? s : 1;
}

/* host:slots, the host as a hostlist would print it, slots >= 1. */
int
rundir_hosts_line_ok(const char *line, size_t len)
{
	const char *colon = memchr(line, ':', len);
	size_t i;

	if (colon == NULL || colon == line || colon - line >
	    HOSTLIST_MAX_NAME || colon + 1 == line + len || colon[1] == '0')
		return 0;
	for (i = 0; line + i < colon; i++)
		if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		    "0123456789._-", line[i]) == NULL)
			return 0;
	for (i = (size_t)(colon - line) + 1; i < len; i++)
		if (line[i] < '0' || line[i] > '9')
			return 0;
	return 1;
}

/* The lock held by a live supervisor: 1; free: 0. */
int
rundir_locked(int rfd)
{
	int fd = openat(rfd, RUNDIR_LOCK, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC), held;

	if (fd < 0)
		return 0;
	held = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

void
rundir_record_open(int rfd, const char *file, struct rundir_record *r)
{
	struct diag d;
	size_t len;

	r->loaded = 0;
	r->buf = NULL;
	if (file_read_at(rfd, file, 4096, FILE_NOFOLLOW, &r->buf, &len,
	    &d) < 0)
		return;
	if (ydoc_load(&r->doc, file, r->buf, len, &d) == 0)
		r->loaded = 1;
}

/* key: number, from the record; -1 when it has none. */
int
rundir_record_key(struct rundir_record *r, const char *key,
    long long *out)
{
	const struct ydoc_node *v;
	struct diag d;

	return r->loaded && r->doc.root != NULL &&
	    r->doc.root->kind == YDOC_MAPPING &&
	    (v = ydoc_get(r->doc.root, key)) != NULL &&
	    ydoc_long(&r->doc, v, key, -(1LL << 40), 1LL << 40, out,
	    &d) == 0 ? 0 : -1;
}

void
rundir_record_close(struct rundir_record *r)
{
	if (r->loaded)
		ydoc_free(&r->doc);
	free(r->buf);
	r->loaded = 0;
	r->buf = NULL;
}

/* The stopping record: why a stop was asked, written before SIGTERM. */
int
rundir_stopping_write(int tmpfd, int rfd, const char *why, struct diag *d)
{
	char text[64];

	if (strncmp(why, "cancel:", 7) == 0)
		snprintf(text, sizeof text, "cancel: %s\n", why + 7);
	else
		snprintf(text, sizeof text, "%s: 1\n", why);
	return file_write_atomic(tmpfd, rfd, RUNDIR_STOPPING, text,
	    strlen(text), 0644, 0, d);
}

void
rundir_stopping_read(int rfd, char *why, size_t len, long long *by)
{
	static const char *const whys[] = { "plan", "done", "cancel" };
	struct rundir_record r;
	long long v;
	size_t i;

	why[0] = '\0';
	*by = 0;
	rundir_record_open(rfd, RUNDIR_STOPPING, &r);
	for (i = 0; i < sizeof whys / sizeof whys[0]; i++)
		if (rundir_record_key(&r, whys[i], &v) == 0) {
			snprintf(why, len, "%s", whys[i]);
			if (i == 2)
				*by = v;
			break;
		}
	rundir_record_close(&r);
}

int
rundir_exit_read(int rfd, long long *ended, int *sig, int *code)
{
	struct rundir_record r;
	long long v;
	int rc = -1;

	rundir_record_open(rfd, RUNDIR_EXIT, &r);
	if (rundir_record_key(&r, "ended", ended) == 0) {
		rc = 0;
		*sig = 0;
		*code = -1;
		if (rundir_record_key(&r, "signal", &v) == 0)
			*sig = (int)v;
		else if (rundir_record_key(&r, "code", &v) == 0)
			*code = (int)v;
	}
	rundir_record_close(&r);
	return rc;
}

/* key: number, from one of the small records in run/NAME/. */
int
rundir_record_get(int rfd, const char *file, const char *key,
    long long *out)
{
	struct rundir_record r;
	int rc;

	rundir_record_open(rfd, file, &r);
	rc = rundir_record_key(&r, key, out);
	rundir_record_close(&r);
	return rc;
}

/*
 * The stat of dirfd/file, a regular file not followed through a link:
 * 0, or -1 when it is not one (then nothing is remembered of it).
 */
int
rundir_key(int dirfd, const char *file, struct rundir_key *k)
{
	struct stat st;

	memset(k, 0, sizeof *k);
	if (fstatat(dirfd, file, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISREG(st.st_mode) || st.st_ino == 0)
		return -1;
	k->dev = st.st_dev;
	k->ino = st.st_ino;
	k->size = st.st_size;
	k->mtim = st.st_mtim;
	k->ctim = st.st_ctim;
	return 0;
}

/* Equal stats, a remembered (inode 0: nothing remembered). */
int
rundir_key_equal(const struct rundir_key *a, const struct rundir_key *b)
{
	return a->ino != 0 && a->dev == b->dev && a->ino == b->ino &&
	    a->size == b->size && a->mtim.tv_sec == b->mtim.tv_sec &&
	    a->mtim.tv_nsec == b->mtim.tv_nsec &&
	    a->ctim.tv_sec == b->ctim.tv_sec &&
	    a->ctim.tv_nsec == b->ctim.tv_nsec;
}

/* Calls fn for each "HOST PGID RESTARTS STATE" line with a PGID. */
static int
each_running(int rfd, int (*fn)(const char *host, pid_t pgid, void *arg),
    void *arg)
{
	char *buf, *line, *save, host[HOSTLIST_MAX_NAME + 1];
	long pgid;
	struct diag d;
	size_t len;
	int n = 0;

	if (file_read_at(rfd, RUNDIR_WORKERS, (16 * 1024 * 1024), FILE_NOFOLLOW,
	    &buf, &len, &d) < 0)
		return 0;
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%255s %ld", host, &pgid) == 2 && pgid > 1)
			n += fn(host, (pid_t)pgid, arg);
	free(buf);
	return n;
}

static int
is_leaving(const char *host, pid_t pgid, void *arg)
{
	(void)pgid;
	return hostlist_contains(arg, host);
}

int
rundir_wait_workers(int rfd, const struct hostlist *leaving,
    double seconds)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	double until = now_mono() + seconds;

	while (each_running(rfd, is_leaving, (void *)leaving) > 0) {
		if (now_mono() >= until)
			return -1;
		nanosleep(&tick, NULL);
	}
	return 0;
}

struct groups {
	pid_t *v;
	size_t n, max;
};

static int
add_group(const char *host, pid_t pgid, void *arg)
{
	struct groups *g = arg;

	(void)host;
	if (g->n < g->max)
		g->v[g->n++] = pgid;
	return 1;
}

size_t
rundir_worker_groups(int rfd, pid_t *pgids, size_t max)
{
	struct groups g = { pgids, 0, max };

	each_running(rfd, add_group, &g);
	return g.n;
}

int
rundir_hosts_format(const struct hostlist *hosts, long slots, char **bufp,
    size_t *lenp, struct diag *d)
{
	char *buf = NULL;
	size_t size = 0, i;
	FILE *fp = open_memstream(&buf, &size);

	if (fp == NULL)
		return diag_errno(d, ENOMEM, RUNDIR_HOSTS);
	for (i = 0; i < hosts->n; i++)
		fprintf(fp, "%s:%ld\n", hosts->names[i], slots);
	if (ferror(fp) | fclose(fp)) {
		free(buf);
		return diag_errno(d, ENOMEM, RUNDIR_HOSTS);
	}
	*bufp = buf;
	*lenp = size;
	return 0;
}

static int
record(int tmpfd, int rfd, const char *job, const char *name,
    const char *text, struct diag *d)
{
	if (file_write_atomic(tmpfd, rfd, name, text, strlen(text), 0644, 0,
	    d) < 0)
		return diag_prefix(d, "run/%s/%s: ", job, name);
	return 0;
}

int
rundir_pid_write(int tmpfd, int rfd, const char *job,
    const struct rundir_pid *p, struct diag *d)
{
	char text[256];

	snprintf(text, sizeof text, "supervisor: %ld\npgid: %ld\nstarted: "
	    "%lld\nuid: %ld\n", p->supervisor, p->pgid, p->started, p->uid);
	return record(tmpfd, rfd, job, RUNDIR_PID, text, d);
}

int
rundir_exit_write(int tmpfd, int rfd, const char *job, int status,
    struct diag *d)
{
	char text[256];

	if (WIFSIGNALED(status))
		snprintf(text, sizeof text, "signal: %d\nended: %lld\n",
		    WTERMSIG(status), (long long)time(NULL));
	else
		snprintf(text, sizeof text, "code: %d\nended: %lld\n",
		    WEXITSTATUS(status), (long long)time(NULL));
	return record(tmpfd, rfd, job, RUNDIR_EXIT, text, d);
}
