/*
 * NAME
 *	fs-ops - what a spool's file operations cost on one file system
 * SYNOPSIS
 *	bench/fs-ops DIR [N]
 * DESCRIPTION
 *	In DIR (a new, empty directory), three phases of N operations each
 *	(default 1,000), as a spool does them, with the mean microseconds of
 *	each step printed on one line:
 *
 *	replace	create tmp.I (O_EXCL), write 100 bytes, close, rename it
 *		over "target": each rename frees the inode it replaces;
 *	create	then create new.I, write 100 bytes, close: new inodes
 *		right after those frees;
 *	deliver	create, write, fsync, close, rename over "target", fsync
 *		DIR: a delivery (util/file.c's atomic write), N / 4 times.
 *
 *	Output: "replace_create replace_rename create deliver", in
 *	microseconds, "%.1f".  Not a test: bench/fs-ops.sh runs it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void
die(const char *what, const char *name)
{
	fprintf(stderr, "fs-ops: %s %s: %s\n", what, name, strerror(errno));
	exit(74);
}

/* Create NAME in dirfd with 100 bytes, optionally synced; its fd closed. */
static void
make_file(int dirfd, const char *name, int sync)
{
	static const char bytes[100] = "spool file\n";
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0644);

	if (fd < 0)
		die("create", name);
	if (write(fd, bytes, sizeof bytes) != (ssize_t)sizeof bytes)
		die("write", name);
	if (sync && fsync(fd) < 0)
		die("fsync", name);
	if (close(fd) < 0)
		die("close", name);
}

int
main(int argc, char **argv)
{
	double t0, t1, create = 0, rename_t = 0, fresh = 0, deliver = 0;
	char name[64];
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 1000, i;
	int dirfd;

	if (argc < 2 || argc > 3 || n < 4) {
		fprintf(stderr, "usage: fs-ops DIR [N]\n");
		return 64;
	}
	if ((dirfd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		die("open", argv[1]);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "tmp.%ld", i);
		t0 = now_us();
		make_file(dirfd, name, 0);
		t1 = now_us();
		if (renameat(dirfd, name, dirfd, "target") < 0)
			die("rename", name);
		create += t1 - t0;
		rename_t += now_us() - t1;
	}
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "new.%ld", i);
		t0 = now_us();
		make_file(dirfd, name, 0);
		fresh += now_us() - t0;
	}
	for (i = 0; i < n / 4; i++) {
		snprintf(name, sizeof name, "del.%ld", i);
		t0 = now_us();
		make_file(dirfd, name, 1);
		if (renameat(dirfd, name, dirfd, "target") < 0)
			die("rename", name);
		if (fsync(dirfd) < 0)
			die("fsync", argv[1]);
		deliver += now_us() - t0;
	}
	printf("%.1f %.1f %.1f %.1f\n", create / (double)n,
	    rename_t / (double)n, fresh / (double)n, deliver / (double)(n / 4));
	return 0;
}
