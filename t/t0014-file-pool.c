/*
 * t0014-file-pool - tests for the pool of lib/util/file.c: files made
 * ahead in tmp/ are the inodes later writes publish (compared by inode
 * number with what the fill made), a pool file that is gone, not empty or
 * not ours is passed over, a forked child and another tmp/ never take
 * from it, and emptying and cleaning leave tmp/ as it was.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/file.h"

#include "tap.h"

#define MAXN 64

/* The names in dir (but . and ..), sorted; their count. */
static size_t
names(int dirfd, char out[][64], size_t max)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	size_t n = 0, i, j;
	char t[64];

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL && n < max)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			snprintf(out[n++], 64, "%.63s", e->d_name);
	closedir(d);
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(out[j - 1], out[j]) > 0; j--) {
			memcpy(t, out[j], 64);
			memcpy(out[j], out[j - 1], 64);
			memcpy(out[j - 1], t, 64);
		}
	return n;
}

static ino_t
inode_of(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ?
	    st.st_ino : 0;
}

/* Whether ino is one of the n inodes in v. */
static int
among(ino_t ino, const ino_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == ino)
			return 1;
	return 0;
}

static int
content_is(int dirfd, const char *name, const char *want)
{
	struct diag d;
	size_t len;
	char *buf;
	int same;

	if (file_read_at(dirfd, name, 1024, FILE_NOFOLLOW, &buf, &len, &d) < 0)
		return 0;
	same = len == strlen(want) && memcmp(buf, want, len) == 0;
	free(buf);
	return same;
}

int
main(void)
{
	char base[] = "/tmp/t0014.XXXXXX", path[4200], list[MAXN][64];
	ino_t made[MAXN];
	struct file_staged st;
	struct diag d;
	struct stat sb;
	int tmpfd, destfd, otherfd, all, status;
	size_t n, i;
	pid_t pid;

	if (mkdtemp(base) == NULL)
		return 1;
	snprintf(path, sizeof path, "%s/tmp", base);
	mkdir(path, 01733);
	tmpfd = open(path, O_RDONLY | O_DIRECTORY);
	snprintf(path, sizeof path, "%s/dest", base);
	mkdir(path, 0755);
	destfd = open(path, O_RDONLY | O_DIRECTORY);
	snprintf(path, sizeof path, "%s/other", base);
	mkdir(path, 0755);
	otherfd = open(path, O_RDONLY | O_DIRECTORY);
	if (tmpfd < 0 || destfd < 0 || otherfd < 0)
		return 1;

	/* The fill. */
	is_int(file_pool_count(tmpfd), 0, "no pool before a fill");
	is_int(file_pool_fill(tmpfd, 4, &d), 0, "a fill of 4");
	is_int(file_pool_count(tmpfd), 4, "4 ready");
	n = names(tmpfd, list, MAXN);
	is_int(n, 4, "4 files in tmp/");
	all = 1;
	for (i = 0; i < n; i++) {
		all &= strncmp(list[i], "pool.", 5) == 0 &&
		    fstatat(tmpfd, list[i], &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(sb.st_mode) && (sb.st_mode & 07777) == 0600 &&
		    sb.st_size == 0 && sb.st_uid == geteuid();
		made[i] = inode_of(tmpfd, list[i]);
	}
	ok(all, "each named pool.*, empty, 0600, ours");
	is_int(file_pool_count(otherfd), 0, "another directory has no pool");

	/* A write takes one. */
	is_int(file_write_atomic(tmpfd, destfd, "a", "alpha\n", 6, 0644, 0,
	    &d), 0, "a written");
	ok(among(inode_of(destfd, "a"), made, 4),
	    "a is one of the files the fill made");
	ok(content_is(destfd, "a", "alpha\n"), "a holds what was written");
	ok(fstatat(destfd, "a", &sb, 0) == 0 && (sb.st_mode & 07777) == 0644,
	    "a has the mode asked for");
	is_int(file_pool_count(tmpfd), 3, "3 left");
	is_int(file_pool_taken(), 1, "1 taken");
	is_int(names(tmpfd, list, MAXN), 3, "tmp/ holds the 3 left only");

	/* Staged unsynced, synced, published: the same. */
	is_int(file_stage_unsynced(tmpfd, "b", "beta\n", 5, 0640, &st, &d), 0,
	    "b staged");
	ok(strncmp(st.tmpname, "pool.", 5) != 0 &&
	    strstr(st.tmpname, ".b") != NULL,
	    "b's temporary name is the usual one, ending in its name (%s)",
	    st.tmpname);
	ok(file_sync_staged(&st, 1, &d) == 0 &&
	    file_publish(&st, destfd, "b", 0, &d) == 0, "b published");
	ok(among(inode_of(destfd, "b"), made, 4) &&
	    inode_of(destfd, "b") != inode_of(destfd, "a"),
	    "b is another file the fill made");
	ok(content_is(destfd, "b", "beta\n"), "b holds what was written");
	is_int(file_pool_count(tmpfd), 2, "2 left");

	/* Another tmp/: not taken from. */
	is_int(file_write_atomic(otherfd, destfd, "c", "gamma\n", 6, 0644, 0,
	    &d), 0, "c written through another directory");
	ok(!among(inode_of(destfd, "c"), made, 4),
	    "c is a new file, not one of the pool's");
	is_int(file_pool_count(tmpfd), 2, "still 2 left");

	/* A forked child: not taken from. */
	if ((pid = fork()) == 0) {
		int rc = file_write_atomic(tmpfd, destfd, "d", "delta\n", 6,
		    0644, 0, &d);
		file_pool_empty();	/* the parent's: not removed */
		_exit(rc == 0 ? 0 : 1);
	}
	ok(pid > 0 && waitpid(pid, &status, 0) == pid &&
	    WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "d written by a forked child");
	ok(!among(inode_of(destfd, "d"), made, 4),
	    "d is a new file, not one of the pool's");
	is_int(file_pool_count(tmpfd), 2, "the child took none, emptied none");
	is_int(names(tmpfd, list, MAXN), 2, "both still in tmp/");

	/*
	 * Of the two left, one removed behind the pool's back, the other
	 * written to: both passed over, the write makes a file of its own.
	 */
	names(tmpfd, list, MAXN);
	unlinkat(tmpfd, list[0], 0);
	{
		int fd = openat(tmpfd, list[1], O_WRONLY);
		ok(fd >= 0 && write(fd, "x", 1) == 1, "a pool file written to "
		    "behind the pool's back");
		if (fd >= 0)
			close(fd);
	}
	is_int(file_write_atomic(tmpfd, destfd, "e", "eps\n", 4, 0644, 0, &d),
	    0, "e written");
	is_int(file_pool_taken(), 2, "e took nothing from the pool (the "
	    "inode of the one removed may be e's: a free inode is reused)");
	ok(content_is(destfd, "e", "eps\n"), "e holds what was written");
	is_int(file_pool_count(tmpfd), 0, "the pool is spent");
	is_int(names(tmpfd, list, MAXN), 0, "tmp/ is empty: the written "
	    "one was removed");

	/*
	 * Three more passed over: one linked elsewhere too, one of another
	 * owner (root's test; otherwise linked too), one replaced under its
	 * name by another empty file of ours (not the inode the fill made).
	 */
	is_int(file_pool_fill(tmpfd, 3, &d), 0, "a fill of 3");
	names(tmpfd, list, MAXN);
	ok(linkat(tmpfd, list[0], destfd, "linked0", 0) == 0,
	    "one linked elsewhere");
	if (geteuid() == 0)
		ok(fchownat(tmpfd, list[1], 65534, 65534,
		    AT_SYMLINK_NOFOLLOW) == 0, "one given to nobody");
	else
		ok(linkat(tmpfd, list[1], destfd, "linked1", 0) == 0,
		    "one linked elsewhere too (not root: no chown)");
	{
		int fd = openat(tmpfd, "x", O_WRONLY | O_CREAT | O_EXCL, 0600);
		ok(fd >= 0 && close(fd) == 0 &&
		    renameat(tmpfd, "x", tmpfd, list[2]) == 0,
		    "one replaced by another empty file of ours");
	}
	is_int(file_write_atomic(tmpfd, destfd, "f", "phi\n", 4, 0644, 0, &d),
	    0, "f written");
	is_int(file_pool_taken(), 2, "f took nothing from the pool");
	ok(content_is(destfd, "f", "phi\n"), "f holds what was written");
	is_int(file_pool_count(tmpfd), 0, "the three are no longer the pool's");
	is_int(names(tmpfd, list, MAXN), 0, "tmp/ is empty: the three "
	    "names were the pool's, removed");
	ok(fstatat(destfd, "linked0", &sb, 0) == 0 && sb.st_nlink == 1 &&
	    sb.st_size == 0, "the link elsewhere is left as it was, empty");
	unlinkat(destfd, "linked0", 0);
	unlinkat(destfd, "linked1", 0);
	unlinkat(destfd, "f", 0);

	/* Emptying. */
	is_int(file_pool_fill(tmpfd, 3, &d), 0, "a fill of 3");
	file_pool_empty();
	is_int(file_pool_count(tmpfd), 0, "emptied: none ready");
	is_int(names(tmpfd, list, MAXN), 0, "emptied: tmp/ is empty");

	/* Cleaning what a dead process left: ours, empty, pool.* only. */
	{
		static const char *const plant[] = { "pool.1.2.deadbeef",
		    "pool.1.3.deadbeef", "123.4.abcdef01.job.yaml" };
		int fd;

		for (i = 0; i < 3; i++)
			if ((fd = openat(tmpfd, plant[i], O_WRONLY | O_CREAT,
			    0600)) >= 0)
				close(fd);
		fd = openat(tmpfd, "pool.1.3.deadbeef", O_WRONLY);
		if (fd >= 0) {
			if (write(fd, "data", 4) != 4)
				diag("write: %s", strerror(errno));
			close(fd);
		}
		is_int(file_pool_clean(tmpfd), 1, "clean removed one file");
		n = names(tmpfd, list, MAXN);
		ok(n == 2 && strcmp(list[0], "123.4.abcdef01.job.yaml") == 0 &&
		    strcmp(list[1], "pool.1.3.deadbeef") == 0,
		    "left: the staged job file and the pool name with data");
		for (i = 0; i < n; i++)
			unlinkat(tmpfd, list[i], 0);
	}

	/* A fill past the maximum is held to it. */
	is_int(file_pool_fill(tmpfd, FILE_POOL_MAX + 10, &d), 0,
	    "a fill past the maximum");
	is_int(file_pool_count(tmpfd), FILE_POOL_MAX, "held to %d",
	    FILE_POOL_MAX);
	file_pool_empty();

	/*
	 * A tmp/ that refuses files (0555; root's test drops to nobody in
	 * a child first): the fill fails and says so, nothing is ready.
	 */
	fchmod(otherfd, 0555);
	if ((pid = fork()) == 0) {
		int rc;
		if (geteuid() == 0 && setuid(65534) < 0)
			_exit(2);
		rc = file_pool_fill(otherfd, 2, &d);
		printf("# %s\n", d.text);
		_exit(rc < 0 && strstr(d.text, "unable to create tmp/pool.") !=
		    NULL && file_pool_count(otherfd) == 0 ? 0 : 1);
	}
	ok(pid > 0 && waitpid(pid, &status, 0) == pid &&
	    WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "an unwritable tmp/: the fill fails, says why, nothing ready");
	fchmod(otherfd, 0755);

	unlinkat(destfd, "a", 0);
	unlinkat(destfd, "b", 0);
	unlinkat(destfd, "c", 0);
	unlinkat(destfd, "d", 0);
	unlinkat(destfd, "e", 0);
	close(tmpfd);
	close(destfd);
	close(otherfd);
	snprintf(path, sizeof path, "%s/tmp", base);
	rmdir(path);
	snprintf(path, sizeof path, "%s/dest", base);
	rmdir(path);
	snprintf(path, sizeof path, "%s/other", base);
	rmdir(path);
	rmdir(base);
	return tap_done();
}
