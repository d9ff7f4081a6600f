/*
 * NAME
 *	file - bounded reads and atomic writes
 * DESCRIPTION
 *	See file.h.  The temporary name holds the pid, a sequence number and
 *	the destination name, so a leftover in tmp/ says who left it; it never
 *	starts a name another program would act on.
 *
 *	One exception to "on any failure nothing appears": when only the
 *	final fsync of the destination directory fails, the file is in place
 *	and complete, and the failure is still reported.  errno is kept for
 *	the caller (EEXIST: FILE_NOREPLACE found the name taken).
 * DIAGNOSTICS
 *	Codes from diag_errno(): 75 disk or quota full (ENOSPC, EDQUOT), 73
 *	permission or read-only file system (EACCES, EPERM, EROFS), 74 other
 *	I/O errors.  Messages name the file and the failing step, e.g.
 *	"unable to write tmp/123.4.current.yaml: No space left on device";
 *	file_write_path() puts the path first:
 *	"out/summary.yaml: unable to write out/.123.4.summary.yaml: ...".
 */
#define _GNU_SOURCE		/* renameat2(2) RENAME_NOREPLACE */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/array.h"
#include "util/fault.h"
#include "util/file.h"

int
file_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
file_read_fd(int fd, const char *label, size_t max, char **bufp,
    size_t *lenp, struct diag *d)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap + 1);

	if (buf == NULL)
		return diag_errno(d, ENOMEM, "unable to read %s", label);
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *nbuf;
			if (cap > max)
				break;
			cap *= 2;
			nbuf = realloc(buf, cap + 1);
			if (nbuf == NULL) {
				free(buf);
				return diag_errno(d, ENOMEM, "unable to read %s",
				    label);
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			int err = errno;
			if (err == EINTR)
				continue;
			free(buf);
			diag_errno(d, err, "unable to read %s", label);
			d->code = EX_IOERR;
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > max) {
		free(buf);
		return diag_set(d, EX_DATAERR, "%s: larger than %zu bytes",
		    label, max);
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

int
file_read_named(int dirfd, const char *name, const char *label, size_t max,
    int flags, char **bufp, size_t *lenp, struct diag *d)
{
	struct stat st;
	int fd, rc;

	if (flags & FILE_NOFOLLOW) {
		/* Look before opening: opening a FIFO blocks, a device acts. */
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			goto openerr;
		if (S_ISLNK(st.st_mode))
			return diag_set(d, EX_DATAERR,
			    "%s: is a symbolic link, not followed", label);
		if (!S_ISREG(st.st_mode))
			return diag_set(d, EX_DATAERR,
			    "%s: not a regular file", label);
	}
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
	    ((flags & FILE_NOFOLLOW) ? O_NOFOLLOW : 0));
	if (fd < 0)
		goto openerr;
	if (fstat(fd, &st) < 0) {
		int err = errno;
		close(fd);
		return diag_errno(d, err, "unable to stat %s", label);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return diag_set(d, EX_DATAERR, "%s: not a regular file", label);
	}
	if ((unsigned long long)st.st_size > max) {
		close(fd);
		return diag_set(d, EX_DATAERR, "%s: larger than %zu bytes",
		    label, max);
	}
	rc = file_read_fd(fd, label, max, bufp, lenp, d);
	close(fd);
	return rc;
openerr:
	if (errno == ELOOP)
		return diag_set(d, EX_DATAERR,
		    "%s: is a symbolic link, not followed", label);
	diag_errno(d, errno, "unable to open %s", label);
	if (errno == ENOENT || errno == ENOTDIR)
		d->code = EX_NOINPUT;
	else if (errno == EACCES || errno == EPERM)
		d->code = EX_NOINPUT;
	return -1;
}

int
file_read_at(int dirfd, const char *name, size_t max, int flags,
    char **bufp, size_t *lenp, struct diag *d)
{
	return file_read_named(dirfd, name, name, max, flags, bufp, lenp, d);
}

/*
 * tmp/ is writable by every user: a name others could foretell (pid and
 * sequence alone) could be taken ahead of us a hundred times over, and
 * every write refused.  A random part makes that a guess.
 */
static unsigned int
tmp_random(void)
{
	unsigned int r;

	if (getentropy(&r, sizeof r) == 0)
		return r;
	return (unsigned int)clock() ^ (unsigned int)time(NULL) * 2654435761u;
}

/*
 * A temporary name, "PREFIXPID.SEQ.RANDOM.NAME": prefix "" or "." for a
 * file being written, "pool." with no name for one of the pool.
 */
static void
tmp_name(char *buf, size_t len, const char *prefix, const char *name)
{
	static unsigned long seq;

	snprintf(buf, len, "%s%ld.%lu.%08x%s%.200s", prefix, (long)getpid(),
	    ++seq, tmp_random(), *name ? "." : "", name);
}

/*
 * The pool (file_pool_fill()): the names and inodes of empty files this
 * process made in one tmp/, "pool.PID.SEQ.RANDOM", taken last made first.
 * A process forked from the one that made them does not take them (its
 * copy of the list would hand the same file out twice); their tmp/ is
 * told by the descriptor given and its device and inode.  A file system
 * without RENAME_NOREPLACE gets no pool (broken).
 */
#define POOL_NAME_MAX	48

static struct {
	pid_t pid;
	int tmpdirfd;
	dev_t dev;
	ino_t ino;
	size_t n;
	unsigned long taken;
	int broken;
	char names[FILE_POOL_MAX][POOL_NAME_MAX];
	ino_t inos[FILE_POOL_MAX];
} pool = { .tmpdirfd = -1 };

static int
pool_ours(int tmpdirfd)
{
	struct stat st;

	return pool.n > 0 && pool.pid == getpid() &&
	    pool.tmpdirfd == tmpdirfd && fstat(tmpdirfd, &st) == 0 &&
	    st.st_dev == pool.dev && st.st_ino == pool.ino;
}

/*
 * A file of the pool renamed to tmpname (RENAME_NOREPLACE: a name someone
 * planted is never replaced) and opened; -1 when the pool has none left
 * that is still the file made (its inode), ours, empty and linked nowhere
 * else (the caller then makes one).  In tmp/ (sticky) no one else can
 * rename or remove it between the rename and the open; O_NONBLOCK all the
 * same, so that nothing put there in its place could hold the open.  A
 * name that cannot be renamed is removed, not left behind; a failure to
 * open that is no file's (EMFILE, ENFILE, ENOMEM) stops the taking, which
 * would only spend the pool.
 */
static int
pool_take(int tmpdirfd, const char *name, char *tmpname, size_t tmplen)
{
	while (pool_ours(tmpdirfd)) {
		const char *p = pool.names[--pool.n];
		ino_t ino = pool.inos[pool.n];
		struct stat st;
		int fd, err;

		tmp_name(tmpname, tmplen, "", name);
		if (renameat2(tmpdirfd, p, tmpdirfd, tmpname,
		    RENAME_NOREPLACE) < 0) {
			if (errno == EINVAL || errno == ENOSYS)
				pool.broken = 1;
			if (errno != ENOENT)
				(void)unlinkat(tmpdirfd, p, 0);
			if (pool.broken)
				file_pool_empty();
			continue;
		}
		fd = openat(tmpdirfd, tmpname, O_WRONLY | O_NOFOLLOW |
		    O_NONBLOCK | O_CLOEXEC);
		err = errno;
		if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_ino == ino && st.st_uid == geteuid() &&
		    st.st_nlink == 1 && st.st_size == 0 &&
		    fcntl(fd, F_SETFL, 0) == 0) {
			/* Its times are the write's, not the fill's. */
			(void)futimens(fd, NULL);
			pool.taken++;
			return fd;
		}
		if (fd >= 0)
			(void)close(fd);
		(void)unlinkat(tmpdirfd, tmpname, 0);
		if (fd < 0 && (err == EMFILE || err == ENFILE ||
		    err == ENOMEM))
			break;
	}
	return -1;
}

int
file_pool_fill(int tmpdirfd, size_t want, struct diag *d)
{
	struct stat st;
	int attempt = 0;

	if (pool.broken)
		return diag_set(d, EX_UNAVAILABLE, "tmp/: no pool where "
		    "rename(2) cannot refuse to replace (RENAME_NOREPLACE)");
	if (want > FILE_POOL_MAX)
		want = FILE_POOL_MAX;
	if (fstat(tmpdirfd, &st) < 0)
		return diag_errno(d, errno, "unable to stat tmp/");
	if (pool.pid != getpid() || pool.tmpdirfd != tmpdirfd ||
	    pool.dev != st.st_dev || pool.ino != st.st_ino) {
		file_pool_empty();	/* another tmp/: the old one's removed */
		pool.pid = getpid();
		pool.tmpdirfd = tmpdirfd;
		pool.dev = st.st_dev;
		pool.ino = st.st_ino;
	}
	while (pool.n < want) {
		char *p = pool.names[pool.n];
		int fd;

		tmp_name(p, POOL_NAME_MAX, "pool.", "");
		fd = openat(tmpdirfd, p, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0) {
			if (errno == EEXIST && ++attempt < 100)
				continue;
			return diag_errno(d, errno, "unable to create tmp/%s",
			    p);
		}
		if (fstat(fd, &st) < 0) {
			int err = errno;
			(void)close(fd);
			(void)unlinkat(tmpdirfd, p, 0);
			return diag_errno(d, err, "unable to stat tmp/%s", p);
		}
		(void)close(fd);
		pool.inos[pool.n++] = st.st_ino;
	}
	return 0;
}

size_t
file_pool_count(int tmpdirfd)
{
	return pool_ours(tmpdirfd) ? pool.n : 0;
}

unsigned long
file_pool_taken(void)
{
	return pool.taken;
}

void
file_pool_empty(void)
{
	if (pool.pid == getpid())
		while (pool.n > 0)
			(void)unlinkat(pool.tmpdirfd,
			    pool.names[--pool.n], 0);
	pool.n = 0;
}

int
file_pool_clean(int tmpdirfd)
{
	/* Its own open file description: a dup would share the offset. */
	int fd = openat(tmpdirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int removed = 0;
	struct dirent *e;
	DIR *dir;

	if (fd < 0)
		return 0;
	if ((dir = fdopendir(fd)) == NULL) {
		(void)close(fd);
		return 0;
	}
	while ((e = readdir(dir)) != NULL) {
		struct stat st;

		if (strncmp(e->d_name, "pool.", 5) == 0 &&
		    fstatat(tmpdirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) ==
		    0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
		    st.st_size == 0 && unlinkat(tmpdirfd, e->d_name, 0) == 0)
			removed++;
	}
	(void)closedir(dir);
	return removed;
}

static int
tmp_create(int tmpdirfd, const char *where, const char *name, char *tmpname,
    size_t tmplen, int dot, struct diag *d)
{
	int attempt, fd;

	if (!dot && (fd = pool_take(tmpdirfd, name, tmpname, tmplen)) >= 0)
		return fd;
	for (attempt = 0; attempt < 100; attempt++) {
		tmp_name(tmpname, tmplen, dot ? "." : "", name);
		fd = openat(tmpdirfd, tmpname,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return diag_errno(d, errno, "unable to create %s%s",
			    where, tmpname);
	}
	return diag_set(d, EX_CANTCREAT, "unable to create a file in %s "
	    "for %s: every name tried exists", *where ? where : "./", name);
}

static int
write_and_sync(int fd, const char *where, const char *tmpname,
    const void *buf, size_t len, mode_t mode, int sync, struct diag *d)
{
	if (file_write_all(fd, buf, len) < 0)
		return diag_errno(d, errno, "unable to write %s%s", where,
		    tmpname);
	fault_point("atomic-after-write");
	if (fchmod(fd, mode) < 0)
		return diag_errno(d, errno, "unable to chmod %s%s", where,
		    tmpname);
	if (!sync) {
#ifdef SYNC_FILE_RANGE_WRITE
		/* The writeback begun now; the fsync later waits less. */
		(void)sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
#endif
		return 0;
	}
	/* Where space is allocated late (delayed allocation, NFS), a full
	 * disk shows here or at close(2), not at write(2). */
	if (fsync(fd) < 0)
		return diag_errno(d, errno, "unable to fsync %s%s", where,
		    tmpname);
	return 0;
}

static int
publish(int tmpdirfd, const char *where, const char *tmpname, int destdirfd,
    const char *name, int flags, struct diag *d)
{
	if (flags & FILE_NOREPLACE) {
		/* One atomic step where the filesystem can; a link otherwise. */
		if (renameat2(tmpdirfd, tmpname, destdirfd, name,
		    RENAME_NOREPLACE) == 0)
			return 0;
		if (errno == EEXIST)
			return diag_set(d, EX_CANTCREAT,
			    "%s: exists already, not replaced", name);
		if (errno != EINVAL && errno != ENOSYS)
			return diag_errno(d, errno, "unable to rename %s%s "
			    "to %s", where, tmpname, name);
		if (linkat(tmpdirfd, tmpname, destdirfd, name, 0) < 0) {
			int err = errno;
			if (err == EEXIST)
				return diag_set(d, EX_CANTCREAT,
				    "%s: exists already, not replaced", name);
			return diag_errno(d, err, "unable to link %s", name);
		}
		fault_point("atomic-after-link");
		(void)unlinkat(tmpdirfd, tmpname, 0);
		return 0;
	}
	if (renameat(tmpdirfd, tmpname, destdirfd, name) < 0)
		return diag_errno(d, errno, "unable to rename %s%s to %s",
		    where, tmpname, name);
	return 0;
}

/*
 * where: how messages name the directory of the temporary file, "tmp/" in
 * the spool, the destination's own directory otherwise.
 */
static int
stage(int tmpdirfd, const char *where, const char *name, const void *buf,
    size_t len, mode_t mode, int dot, int sync, struct file_staged *st,
    struct diag *d)
{
	int fd, saved;

	st->tmpdirfd = tmpdirfd;
	st->fd = -1;
	st->where = where;
	st->tmpname[0] = '\0';
	fd = tmp_create(tmpdirfd, where, name, st->tmpname, sizeof st->tmpname,
	    dot, d);
	if (fd < 0) {
		st->tmpname[0] = '\0';	/* the names tried are not ours */
		return -1;
	}
	if (write_and_sync(fd, where, st->tmpname, buf, len, mode, sync,
	    d) < 0) {
		saved = errno;
		(void)close(fd);
		errno = saved;
		file_unstage(st);	/* keeps errno */
		return -1;
	}
	if (!sync) {
		st->fd = fd;
		return 0;
	}
	if (close(fd) < 0) {
		diag_errno(d, errno, "unable to close %s%s", where,
		    st->tmpname);
		file_unstage(st);	/* keeps errno */
		return -1;
	}
	return 0;
}

int
file_stage(int tmpdirfd, const char *name, const void *buf, size_t len,
    mode_t mode, struct file_staged *st, struct diag *d)
{
	return stage(tmpdirfd, "tmp/", name, buf, len, mode, 0, 1, st, d);
}

int
file_stage_unsynced(int tmpdirfd, const char *name, const void *buf,
    size_t len, mode_t mode, struct file_staged *st, struct diag *d)
{
	return stage(tmpdirfd, "tmp/", name, buf, len, mode, 0, 0, st, d);
}

/*
 * Every file of the set synced and closed, or, on the first failure, every
 * one unstaged (a full disk shows here, as in write_and_sync()).  Files
 * already synced (fd -1) are left as they are.
 */
int
file_sync_staged(struct file_staged *st, size_t n, struct diag *d)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < n; i++) {
		if (st[i].fd < 0)
			continue;
		if (rc == 0 && fsync(st[i].fd) < 0)
			rc = diag_errno(d, errno, "unable to fsync %s%s",
			    st[i].where, st[i].tmpname);
		if (close(st[i].fd) < 0 && rc == 0)
			rc = diag_errno(d, errno, "unable to close %s%s",
			    st[i].where, st[i].tmpname);
		st[i].fd = -1;
	}
	if (rc < 0)
		for (i = 0; i < n; i++)
			file_unstage(&st[i]);	/* keeps errno */
	return rc;
}

/* Every file of the group staged so far synced (and closed). */
int
file_group_sync(struct file_group *g, size_t *failed, struct diag *d)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (file_sync_staged(&g->v[i].st, 1, d) < 0) {
			*failed = i;
			return -1;
		}
	g->open = 0;
	return 0;
}

int
file_group_stage(struct file_group *g, int tmpdirfd, int dirfd,
    const char *name, const char *as, const void *buf, size_t len,
    mode_t mode, struct diag *d)
{
	struct file_group_item *it;
	size_t failed;

	if (g->open >= FILE_GROUP_OPEN_MAX && file_group_sync(g, &failed,
	    d) < 0)
		return -1;
	if ((it = array_grow(g->v, &g->cap, g->n + 1, sizeof *it, 16)) == NULL)
		return diag_errno(d, ENOMEM, "%s", name);
	g->v = it;
	it = &g->v[g->n];
	it->dirfd = dirfd;
	snprintf(it->name, sizeof it->name, "%s", name);
	if (file_stage_unsynced(tmpdirfd, as, buf, len, mode, &it->st, d) < 0)
		return -1;
	g->n++;
	g->open++;
	return 0;
}

void
file_group_free(struct file_group *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		file_unstage(&g->v[i].st);
	free(g->v);
	memset(g, 0, sizeof *g);
}

/* The names published into a directory with FILE_NODIRSYNC, on the disk. */
int
file_sync_dir(int dirfd, const char *label, struct diag *d)
{
	if (fsync(dirfd) < 0 && errno != EINVAL && errno != EBADF)
		return diag_errno(d, errno, "unable to fsync %s", label);
	return 0;
}

int
file_publish(struct file_staged *st, int destdirfd, const char *name,
    int flags, struct diag *d)
{
	fault_point("atomic-before-rename");
	if (st->fd >= 0)	/* not synced: never published */
		return diag_set(d, EX_SOFTWARE, "%s%s: published before it "
		    "was synced", st->where, st->tmpname);
	if (publish(st->tmpdirfd, st->where, st->tmpname, destdirfd, name,
	    flags, d) < 0)
		return -1;
	st->tmpname[0] = '\0';
	if (flags & FILE_NODIRSYNC)
		return 0;
	/*
	 * The rename is durable only once the directory itself is synced.  A
	 * directory we may write but not read (incoming/ for a user) gives
	 * EBADF: the intake that reads it syncs what it moves.  Failing here,
	 * the file is in place and complete, only perhaps not on the disk.
	 */
	if (fsync(destdirfd) < 0 && errno != EINVAL && errno != EBADF)
		return diag_errno(d, errno, "unable to fsync the directory of %s",
		    name);
	return 0;
}

void
file_unstage(struct file_staged *st)
{
	int saved = errno;

	if (st->fd >= 0)
		(void)close(st->fd);
	st->fd = -1;
	if (st->tmpname[0] != '\0')
		(void)unlinkat(st->tmpdirfd, st->tmpname, 0);
	st->tmpname[0] = '\0';
	errno = saved;
}

static int
write_atomic(int tmpdirfd, const char *where, int destdirfd, const char *name,
    const void *buf, size_t len, mode_t mode, int flags, int dot,
    struct diag *d)
{
	struct file_staged st;

	if (stage(tmpdirfd, where, name, buf, len, mode, dot, 1, &st, d) < 0)
		return -1;
	if (file_publish(&st, destdirfd, name, flags, d) < 0) {
		/* Removed when not published; once published (only the
		 * directory's fsync failed) nothing is left staged. */
		file_unstage(&st);
		return -1;
	}
	return 0;
}

int
file_write_atomic(int tmpdirfd, int destdirfd, const char *name,
    const void *buf, size_t len, mode_t mode, int flags, struct diag *d)
{
	return write_atomic(tmpdirfd, "tmp/", destdirfd, name, buf, len, mode,
	    flags, 0, d);
}

int
file_write_path(const char *path, const void *buf, size_t len, mode_t mode,
    struct diag *d)
{
	char dir[PATH_MAX], where[PATH_MAX + 1];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dirfd, rc, err;

	if (*base == '\0')
		return diag_set(d, EX_USAGE, "%s: not a file name", path);
	if (slash == NULL)
		snprintf(dir, sizeof dir, ".");
	else if (slash == path)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return diag_errno(d, errno, "unable to open directory %s", dir);
	/* "out/.123.4.summary.yaml", as the temporary file is named. */
	snprintf(where, sizeof where, "%s%s", slash ? dir : "",
	    slash == NULL || slash == path ? "" : "/");
	rc = write_atomic(dirfd, where, dirfd, base, buf, len, mode, 0, 1, d);
	err = errno;
	close(dirfd);
	if (rc < 0)
		diag_prefix(d, "%s: ", path);
	errno = err;
	return rc;
}
