/*
 * NAME
 *	spool - the spool directory: layout, creation, locking, delivery
 * DESCRIPTION
 *	See spool.h.  Modes are set with fchmodat() after mkdirat(), since the
 *	caller's umask would otherwise decide them.
 * DIAGNOSTICS
 *	"unable to create spool/jobs: Permission denied",
 *	"spool is locked by pid 1234 (another bf-watch?)".
 */
#define _GNU_SOURCE		/* flock(2), O_PATH */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/array.h"
#include "util/file.h"
#include "util/site.h"

#include "spool/spool.h"

static const struct {
	const char *name;
	mode_t mode;
} layout[SPOOL_NDIRS] = {
	[SPOOL_INCOMING] = { "incoming", 01733 },
	[SPOOL_JOBS] = { "jobs", 0755 },
	[SPOOL_REJECTED] = { "rejected", 0755 },
	[SPOOL_HOLES] = { "holes", 0755 },
	[SPOOL_PROGRESS] = { "progress", 0755 },
	[SPOOL_PROFILES] = { "profiles", 0755 },
	[SPOOL_PLANS] = { "plans", 0755 },
	[SPOOL_HISTORY] = { "history", 0755 },
	[SPOOL_RUN] = { "run", 0755 },
	[SPOOL_TMP] = { "tmp", 01733 },
	[SPOOL_CANCEL] = { "cancel", 01733 },
};

const char *
spool_default(void)
{
	static struct site_spool s;
	struct diag d;

	return site_spool(&s, NULL, &d) < 0 ? SITE_SPOOL : s.path;
}

const char *
spool_dir_name(enum spool_dir dir)
{
	return layout[dir].name;
}

static int
make_dir(int parent, const char *name, mode_t mode, const char *label,
    struct diag *d)
{
	if (mkdirat(parent, name, 0700) < 0) {
		if (errno == EEXIST)
			return 0;
		return diag_errno(d, errno, "unable to create %s", label);
	}
	if (fchmodat(parent, name, mode, 0) < 0)
		return diag_errno(d, errno, "unable to set the mode of %s",
		    label);
	return 0;
}

/*
 * A user may deliver into incoming/, cancel/ and tmp/ (mode 1733) without reading
 * them: such a directory is opened with O_PATH, enough for openat(),
 * renameat() and linkat() relative to it.
 */
static int
open_dir(int parent, const char *name)
{
	int fd = openat(parent, name,
	    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 && errno == EACCES)
		fd = openat(parent, name,
		    O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd;
}

/*
 * bf-spool(5) SECURITY: whoever may change a spool directory decides
 * what the programs do (a job file names the uid its job runs as), so a
 * directory is trusted only when it belongs to root or to the user
 * running the program, and no one else may write it.  incoming/ and tmp/
 * are written by everyone, but only with the sticky bit, which keeps
 * users from renaming or removing each other's files.
 */
int
spool_check_dir(int fd, const char *label, int shared, struct diag *d)
{
	struct stat st;
	uid_t me = geteuid();

	if (fstat(fd, &st) < 0)
		return diag_errno(d, errno, "unable to check %s", label);
	if (st.st_uid != 0 && st.st_uid != me) {
		if (me == 0)
			return diag_set(d, EX_CONFIG, "%s: owned by uid %lu, "
			    "not by root: refused (bf-spool(5), SECURITY)",
			    label, (unsigned long)st.st_uid);
		return diag_set(d, EX_CONFIG, "%s: owned by uid %lu, not by "
		    "root or uid %lu: refused (bf-spool(5), SECURITY)", label,
		    (unsigned long)st.st_uid, (unsigned long)me);
	}
	if ((st.st_mode & 022) != 0 && !(shared && (st.st_mode & S_ISVTX)))
		return diag_set(d, EX_CONFIG, "%s: mode %04o lets others "
		    "write it%s: refused (bf-spool(5), SECURITY)", label,
		    (unsigned)(st.st_mode & 07777), shared ?
		    " without the sticky bit" : "");
	return 0;
}

int
spool_open(struct spool *sp, const char *path, int flags, struct diag *d)
{
	char label[PATH_MAX + 64];
	int i;

	memset(sp, 0, sizeof *sp);
	sp->fd = sp->lockfd = -1;
	for (i = 0; i < SPOOL_NDIRS; i++)
		sp->dirs[i] = -1;
	if (strlen(path) >= sizeof sp->path)
		return diag_set(d, EX_USAGE, "%s: spool path too long", path);
	memcpy(sp->path, path, strlen(path) + 1);
	/* A user's own spool is private: no one else could use it. */
	if ((flags & SPOOL_CREATE) && make_dir(AT_FDCWD, path,
	    geteuid() == 0 ? 0755 : 0700, path, d) < 0)
		return -1;
	sp->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sp->fd < 0) {
		diag_errno(d, errno, "unable to open spool %s", path);
		if (errno == ENOENT)
			d->code = EX_NOINPUT;
		return -1;
	}
	if (spool_check_dir(sp->fd, path, 0, d) < 0) {
		spool_close(sp);
		return -1;
	}
	for (i = 0; i < SPOOL_NDIRS; i++) {
		snprintf(label, sizeof label, "%s/%s", path, layout[i].name);
		if ((flags & SPOOL_CREATE) && make_dir(sp->fd, layout[i].name,
		    layout[i].mode, label, d) < 0) {
			spool_close(sp);
			return -1;
		}
		sp->dirs[i] = open_dir(sp->fd, layout[i].name);
		if (sp->dirs[i] < 0 && errno != ENOENT) {
			diag_errno(d, errno, "unable to open %s", label);
			spool_close(sp);
			return -1;
		}
		if (sp->dirs[i] >= 0 && spool_check_dir(sp->dirs[i], label,
		    layout[i].mode & S_ISVTX, d) < 0) {
			spool_close(sp);
			return -1;
		}
	}
	return 0;
}

void
spool_close(struct spool *sp)
{
	int i;

	for (i = 0; i < SPOOL_NDIRS; i++) {
		if (sp->dirs[i] >= 0)
			close(sp->dirs[i]);
		sp->dirs[i] = -1;
	}
	if (sp->lockfd >= 0)
		close(sp->lockfd);
	if (sp->fd >= 0)
		close(sp->fd);
	sp->fd = sp->lockfd = -1;
}

int
spool_dirfd(const struct spool *sp, enum spool_dir dir, struct diag *d)
{
	if (sp->dirs[dir] < 0)
		return diag_set(d, EX_NOINPUT, "%s/%s: no such directory "
		    "(bf-watch makes the spool's directories)", sp->path,
		    layout[dir].name);
	return sp->dirs[dir];
}

/* Say which spool file failed: the tmp name alone says little. */
static int
failed_at(const struct spool *sp, enum spool_dir dir, const char *name,
    struct diag *d)
{
	int err = errno;

	diag_prefix(d, "%s/%s/%s: ", sp->path, layout[dir].name, name);
	errno = err;
	return -1;
}

/* Staged in tmp/, synced (sync) or its writeback only begun. */
static int
stage_in(struct spool *sp, enum spool_dir dir, const char *name,
    const void *buf, size_t len, mode_t mode, int sync,
    struct file_staged *st, struct diag *d)
{
	int tmpfd = spool_dirfd(sp, SPOOL_TMP, d);

	if (tmpfd < 0)
		return -1;
	if ((sync ? file_stage(tmpfd, name, buf, len, mode, st, d) :
	    file_stage_unsynced(tmpfd, name, buf, len, mode, st, d)) < 0)
		return failed_at(sp, dir, name, d);
	return 0;
}

int
spool_stage(struct spool *sp, enum spool_dir dir, const char *name,
    const void *buf, size_t len, mode_t mode, struct file_staged *st,
    struct diag *d)
{
	return stage_in(sp, dir, name, buf, len, mode, 1, st, d);
}

int
spool_stage_unsynced(struct spool *sp, enum spool_dir dir, const char *name,
    const void *buf, size_t len, mode_t mode, struct file_staged *st,
    struct diag *d)
{
	return stage_in(sp, dir, name, buf, len, mode, 0, st, d);
}

int
spool_sync_staged(struct spool *sp, enum spool_dir dir,
    struct file_staged *st, size_t n, struct diag *d)
{
	if (file_sync_staged(st, n, d) < 0) {
		int err = errno;
		diag_prefix(d, "%s/%s: ", sp->path, layout[dir].name);
		errno = err;
		return -1;
	}
	return 0;
}

int
spool_publish(struct spool *sp, struct file_staged *st, enum spool_dir dir,
    const char *name, int flags, struct diag *d)
{
	int destfd = spool_dirfd(sp, dir, d);

	if (destfd < 0)
		return -1;
	if (file_publish(st, destfd, name, flags, d) < 0)
		return failed_at(sp, dir, name, d);
	return 0;
}

int
spool_write(struct spool *sp, enum spool_dir dir, const char *name,
    const void *buf, size_t len, mode_t mode, int flags, struct diag *d)
{
	struct file_staged st;

	if (spool_dirfd(sp, dir, d) < 0 ||
	    spool_stage(sp, dir, name, buf, len, mode, &st, d) < 0)
		return -1;
	if (spool_publish(sp, &st, dir, name, flags, d) < 0) {
		file_unstage(&st);
		return -1;
	}
	return 0;
}

int
spool_replace(struct spool *sp, enum spool_dir dir, const char *name,
    const void *buf, size_t len, size_t max, int flags, spool_same_fn *same,
    void *arg, struct diag *d)
{
	char *old, label[NAME_MAX + 16];
	size_t oldlen;
	int fd = spool_dirfd(sp, dir, d), kept;

	if (fd < 0)
		return -1;
	snprintf(label, sizeof label, "%s/%s", spool_dir_name(dir), name);
	if (file_read_named(fd, name, label, max, FILE_NOFOLLOW, &old, &oldlen,
	    d) == 0) {
		kept = same != NULL ? same(old, oldlen, arg) :
		    oldlen == len && memcmp(old, buf, len) == 0;
		free(old);
		if (kept)
			return 0;
	} else if (d->code != EX_NOINPUT && (flags & SPOOL_REPLACE_WARN))
		log_warn("%s; replacing it", d->text);
	diag_clear(d);
	return spool_write(sp, dir, name, buf, len, 0644, 0, d) < 0 ? -1 : 1;
}

static long
lock_holder(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* Every regular file of a directory, with one link, made owner-only. */
static void
narrow_dir(int dirfd)
{
	struct dirent *e;
	struct stat st;
	DIR *dir;
	int fd = dup(dirfd);

	if (fd < 0 || (dir = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	rewinddir(dir);
	while ((e = readdir(dir)) != NULL)
		if (e->d_name[0] != '.' &&
		    fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && st.st_nlink == 1 &&
		    (st.st_mode & 077) != 0)
			(void)fchmodat(dirfd, e->d_name, st.st_mode & 0700, 0);
	closedir(dir);
}

static void
narrow_sub(int parent, const char *name, const char *file)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return;
	if (file == NULL)
		narrow_dir(fd);
	else if (fstatat(fd, file, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode) && st.st_nlink == 1 &&
	    (st.st_mode & 077) != 0)
		(void)fchmodat(fd, file, st.st_mode & 0700, 0);
	close(fd);
}

/*
 * Files an older version left readable by all that bf-spool(5) SECURITY
 * now keeps to their owner: job files and their copies, progress logs
 * and outputs.  A file that is not ours to change is left as it is.
 */
static void
narrow_private(const struct spool *sp)
{
	struct dirent *e;
	DIR *dir;
	int fd;

	if (sp->dirs[SPOOL_JOBS] >= 0)
		narrow_dir(sp->dirs[SPOOL_JOBS]);
	if (sp->dirs[SPOOL_PROGRESS] >= 0)
		narrow_dir(sp->dirs[SPOOL_PROGRESS]);
	if (sp->dirs[SPOOL_HISTORY] >= 0)
		narrow_sub(sp->dirs[SPOOL_HISTORY], "objects", NULL);
	if (sp->dirs[SPOOL_RUN] < 0 || (fd = dup(sp->dirs[SPOOL_RUN])) < 0)
		return;
	if ((dir = fdopendir(fd)) == NULL) {
		close(fd);
		return;
	}
	rewinddir(dir);
	while ((e = readdir(dir)) != NULL)
		if (e->d_name[0] != '.')
			narrow_sub(sp->dirs[SPOOL_RUN], e->d_name, "output");
	closedir(dir);
}

int
spool_lock(struct spool *sp, struct diag *d)
{
	char pid[32];
	int fd;

	struct stat st;

	/*
	 * 0600: flock(2) works on a descriptor open for reading, so a lock
	 * file others could open would let any user hold the spool.
	 */
	fd = openat(sp->fd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd < 0)
		return diag_errno(d, errno, "unable to open %s/lock", sp->path);
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int err = errno;
		long holder = lock_holder(fd);
		close(fd);
		if (err == EWOULDBLOCK)
			return diag_set(d, EX_TEMPFAIL, "%s is locked by pid %ld "
			    "(a bf-watch or intake is running)", sp->path,
			    holder);
		return diag_errno(d, err, "unable to lock %s/lock", sp->path);
	}
	/*
	 * Over the old pid, then cut to length: writing in place needs no
	 * new block, and a write that fails (a full disk) leaves the old
	 * text, not an empty file.
	 */
	snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (file_write_all(fd, pid, strlen(pid)) < 0 ||
	    ftruncate(fd, (off_t)strlen(pid)) < 0) {
		int err = errno;
		close(fd);
		return diag_errno(d, err, "unable to write %s/lock", sp->path);
	}
	sp->lockfd = fd;
	/*
	 * A lock file readable by others was made by an older version: so
	 * were the files it left readable by all.  Narrowed once, here, by
	 * the lock's holder; from then on the lock's mode says it is done.
	 */
	if (fstat(fd, &st) == 0 && (st.st_mode & 077) != 0) {
		narrow_private(sp);
		(void)fchmod(fd, 0600);
	}
	return 0;
}

void
spool_unlock(struct spool *sp)
{
	if (sp->lockfd >= 0)
		close(sp->lockfd);
	sp->lockfd = -1;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
spool_list(const struct spool *sp, enum spool_dir dir, char ***namesp,
    size_t *countp, struct diag *d)
{
	int fd = spool_dirfd(sp, dir, d);
	char **names = NULL;
	size_t count = 0, cap = 0;
	struct dirent *ent;
	DIR *dp;

	if (fd < 0)
		return -1;
	fd = dup(fd);
	if (fd < 0 || (dp = fdopendir(fd)) == NULL) {
		if (fd >= 0)
			close(fd);
		return diag_errno(d, errno, "unable to list %s/%s", sp->path,
		    layout[dir].name);
	}
	rewinddir(dp);
	/* readdir() says an error only through errno: never an empty list. */
	while ((errno = 0, ent = readdir(dp)) != NULL) {
		char **grown;
		if (ent->d_name[0] == '.')
			continue;
		/* Doubling: a realloc a name was quadratic (20,000 names
		 * took 33 s under ASan, whose realloc always copies). */
		grown = array_grow(names, &cap, count + 1, sizeof *names, 64);
		if (grown == NULL || (grown[count] = strdup(ent->d_name)) ==
		    NULL) {
			names = grown ? grown : names;
			spool_list_free(names, count);
			closedir(dp);
			return diag_errno(d, ENOMEM, "unable to list %s",
			    layout[dir].name);
		}
		names = grown;
		count++;
	}
	if (errno != 0) {
		int err = errno;
		spool_list_free(names, count);
		closedir(dp);
		return diag_errno(d, err, "unable to list %s/%s", sp->path,
		    layout[dir].name);
	}
	closedir(dp);
	if (count > 1)
		qsort(names, count, sizeof *names, name_cmp);
	*namesp = names;
	*countp = count;
	return 0;
}

void
spool_list_free(char **names, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

int
spool_clean_tmp(struct spool *sp, time_t max_age)
{
	char **names;
	size_t count, i;
	time_t now = time(NULL);
	struct diag ignored;
	int removed = 0;

	if (sp->dirs[SPOOL_TMP] < 0 ||
	    spool_list(sp, SPOOL_TMP, &names, &count, &ignored) < 0)
		return 0;
	for (i = 0; i < count; i++) {
		struct stat st;
		if (fstatat(sp->dirs[SPOOL_TMP], names[i], &st,
		    AT_SYMLINK_NOFOLLOW) == 0 && now - st.st_mtime > max_age &&
		    unlinkat(sp->dirs[SPOOL_TMP], names[i], 0) == 0)
			removed++;
	}
	spool_list_free(names, count);
	return removed;
}
