/*
 * NAME
 *	fsync-shim - count the fsyncs of a program, for bench/watch.sh
 * SYNOPSIS
 *	LD_PRELOAD=bench/fsync-shim.so BF_FSYNC_LOG=FILE program ...
 * DESCRIPTION
 *	Wraps fsync(2) and fdatasync(2): each call is done as asked, then
 *	one line is appended to FILE, "PID START_MS DURATION_MS PATH", START_MS
 *	on CLOCK_MONOTONIC (the clock bench/watch-lat's rounds are on), PATH
 *	the file or directory synced (/proc/self/fd/N, "-" if unknown), with
 *	one write(2) to a file opened O_APPEND, so that the lines of forked
 *	children do not mix.  Without BF_FSYNC_LOG it only passes the calls
 *	on.  Not a part of bftrainer: a measuring instrument, built by
 *	`make bench/fsync-shim.so`; its own cost is two clock reads, a
 *	readlink and a write per call.  KEEP=1 FSYNCS=1 bench/watch.sh keeps
 *	the log, to see which syncs a round makes, in what order.
 *
 *	With BF_FSYNC_SKIP=1 a call returns 0 at once and syncs nothing (the
 *	line is still written, its duration the shim's own): what a round
 *	would cost if the disk synced for free (FSYNCS=skip bench/watch.sh).
 *	A measurement only: the spool's crash rules no longer hold.
 */
#define _GNU_SOURCE		/* RTLD_NEXT */

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int fsync(int fd);
int fdatasync(int fd);

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void
note(int synced, double start, double end)
{
	const char *path = getenv("BF_FSYNC_LOG");
	char line[96 + 4096], link[32], target[4096];
	ssize_t len;
	int fd, n, saved = errno;

	if (path == NULL || *path == '\0')
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd < 0) {
		errno = saved;
		return;
	}
	snprintf(link, sizeof link, "/proc/self/fd/%d", synced);
	len = readlink(link, target, sizeof target - 1);
	target[len < 0 ? 0 : len] = '\0';
	n = snprintf(line, sizeof line, "%ld %.3f %.3f %s\n", (long)getpid(),
	    start, end - start, len < 0 ? "-" : target);
	if (n > 0 && write(fd, line, (size_t)n) < 0)
		n = 0;
	close(fd);
	errno = saved;
}

static int
call(const char *name, int fd)
{
	const char *s = getenv("BF_FSYNC_SKIP");
	int (*real)(int), skip = s != NULL && strcmp(s, "1") == 0;
	double t0;
	int rc;

	*(void **)&real = dlsym(RTLD_NEXT, name);
	if (real == NULL) {
		errno = ENOSYS;
		return -1;
	}
	t0 = now_ms();
	rc = skip ? 0 : real(fd);
	note(fd, t0, now_ms());
	return rc;
}

int
fsync(int fd)
{
	return call("fsync", fd);
}

int
fdatasync(int fd)
{
	return call("fdatasync", fd);
}
