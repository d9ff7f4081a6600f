/*
 * NAME
 *	watch_dirs - the directories bf-watch watches with inotify
 * DESCRIPTION
 *	See watch_int.h.  incoming/, holes/, progress/, profiles/, jobs/
 *	and cancel/ from the start; each run/NAME/ once it exists, where
 *	its exit record arrives by rename.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inotifytools/inotify.h>
#include <unistd.h>

#include <inotifytools/inotifytools.h>

#include "spool/job.h"
#include "spool/spool.h"
#include "watch/watch_int.h"

/* libinotifytools does not give its descriptor out; /proc does. */
static int
inotify_fd(void)
{
	char path[64], link[64];
	struct dirent *e;
	ssize_t n;
	int fd = -1;
	DIR *dp = opendir("/proc/self/fd");

	if (dp == NULL)
		return -1;
	while (fd < 0 && (e = readdir(dp)) != NULL) {
		snprintf(path, sizeof path, "/proc/self/fd/%.20s", e->d_name);
		n = readlink(path, link, sizeof link - 1);
		if (n > 0) {
			link[n] = '\0';
			if (strcmp(link, "anon_inode:inotify") == 0)
				fd = atoi(e->d_name);
		}
	}
	closedir(dp);
	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
}

static int
watch_dir(struct watcher *w, const char *sub, int events)
{
	char path[PATH_MAX + 80];

	/* Watched already: watching again would leak the library's record
	 * (it names a directory with a trailing slash). */
	snprintf(path, sizeof path, "%s/%s/", w->sp->path, sub);
	if (inotifytools_wd_from_filename(path) != -1)
		return 0;
	path[strlen(path) - 1] = '\0';
	return inotifytools_watch_file(path, events) ? 0 : -1;
}

int
watch_dirs_open(struct watcher *w, struct diag *d)
{
	static const char *dirs[] = { "incoming", "holes", "progress",
	    "profiles", "jobs", "cancel" };
	const int ev = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM |
	    IN_DELETE | IN_CREATE | IN_MODIFY;
	size_t i;

	if (!inotifytools_initialize())
		return diag_errno(d, inotifytools_error(), "unable to use "
		    "inotify");
	if ((w->ifd = inotify_fd()) < 0)
		return diag_set(d, EX_UNAVAILABLE, "unable to find the inotify "
		    "descriptor");
	for (i = 0; i < sizeof dirs / sizeof *dirs; i++)
		if (watch_dir(w, dirs[i], ev) < 0)
			return diag_errno(d, inotifytools_error(), "unable to "
			    "watch %s/%s", w->sp->path, dirs[i]);
	return 0;
}

/* Each job's run/NAME/: its exit record arrives there by rename. */
void
watch_dirs_runs(struct watcher *w)
{
	char **names, sub[JOB_NAME_MAX + 8];
	struct diag d;
	size_t n, i;

	if (spool_list(w->sp, SPOOL_RUN, &names, &n, &d) < 0)
		return;
	for (i = 0; i < n; i++) {
		snprintf(sub, sizeof sub, "run/%s", names[i]);
		watch_dir(w, sub, IN_MOVED_TO | IN_MOVE_SELF);
	}
	spool_list_free(names, n);
}
