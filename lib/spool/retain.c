/*
 * NAME
 *	retain - how long rejected/, plans/ and history/ keep what they hold
 * DESCRIPTION
 *	See retain.h.  Every removal is unlinkat() relative to the spool's
 *	directory descriptors, of a name just listed, never following a
 *	link; a directory is never removed.
 */
#define _GNU_SOURCE		/* st_ctim, st_mtim */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file.h"
#include "util/ydoc.h"

#include "spool/history.h"
#include "spool/plan.h"
#include "spool/retain.h"

static int
ends_with(const char *s, const char *suffix)
{
	size_t l = strlen(s), k = strlen(suffix);

	return l > k && strcmp(s + l - k, suffix) == 0;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
listed(char **names, size_t n, const char *name)
{
	return bsearch(&name, names, n, sizeof *names, name_cmp) != NULL;
}

/* Remove DIR/NAME unless it is a directory; 1 removed, 0 gone or kept. */
static int
remove_entry(int dirfd, const char *dir, const char *name)
{
	char shown[NAME_MAX + 4];
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	ydoc_excerpt(name, shown, sizeof shown);
	if (S_ISDIR(st.st_mode)) {
		log_warn("retention: %s/%s is a directory, left where it is",
		    dir, shown);
		return -1;
	}
	if (unlinkat(dirfd, name, 0) == 0)
		return 1;
	if (errno != ENOENT)
		log_warn("retention: unable to remove %s/%s: %s", dir, shown,
		    strerror(errno));
	return errno == ENOENT ? 0 : -1;
}

static int
older(int dirfd, const char *name, time_t now, double max_age)
{
	struct stat st;

	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    (double)(now - st.st_ctim.tv_sec) - st.st_ctim.tv_nsec / 1e9 >
	    max_age;
}

int
retain_rejected(struct spool *sp, time_t now, double max_age,
    size_t *removed, struct diag *d)
{
	int fd = spool_dirfd(sp, SPOOL_REJECTED, d);
	char **names, other[NAME_MAX + 8];
	size_t n, i, l;

	*removed = 0;
	if (fd < 0 || spool_list(sp, SPOOL_REJECTED, &names, &n, d) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		l = strlen(names[i]);
		if (ends_with(names[i], ".err")) {
			/* A reason, and the file it is beside. */
			if (!older(fd, names[i], now, max_age))
				continue;
			snprintf(other, sizeof other, "%.*s", (int)(l - 4),
			    names[i]);
			if (remove_entry(fd, "rejected", other) < 0)
				continue;
			if (remove_entry(fd, "rejected", names[i]) > 0)
				(*removed)++;
		} else if (l + 5 <= sizeof other) {
			/* A file without its reason: by its own time. */
			snprintf(other, sizeof other, "%s.err", names[i]);
			if (!listed(names, n, other) &&
			    older(fd, names[i], now, max_age) &&
			    remove_entry(fd, "rejected", names[i]) > 0)
				(*removed)++;
		}
	}
	spool_list_free(names, n);
	if (*removed > 0)
		(void)fsync(fd);
	return 0;
}

/* The model plans/current.yaml names, "" when none. */
static void
current_model(struct spool *sp, char *out, size_t outlen)
{
	struct diag ignored;
	struct plan p;
	char *buf;
	size_t len;

	out[0] = '\0';
	if (sp->dirs[SPOOL_PLANS] < 0 || file_read_at(sp->dirs[SPOOL_PLANS],
	    "current.yaml", HISTORY_MAX_FILE, FILE_NOFOLLOW, &buf, &len,
	    &ignored) < 0)
		return;
	if (plan_parse(&p, "plans/current.yaml", buf, len, &ignored) == 0) {
		if (strncmp(p.mps, "plans/", 6) == 0 &&
		    strlen(p.mps + 6) < outlen)
			memcpy(out, p.mps + 6, strlen(p.mps + 6) + 1);
		plan_free(&p);
	}
	free(buf);
}

struct aged {
	const char *name;
	struct timespec mtime;
};

/* Newest first, then by name, so that the order never depends on luck. */
static int
newest_first(const void *a, const void *b)
{
	const struct aged *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec > y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec > y->mtime.tv_nsec ? -1 : 1;
	return strcmp(y->name, x->name);
}

static int
retain_plans_dir(struct spool *sp, size_t keep, size_t *removed,
    struct diag *d)
{
	int fd = spool_dirfd(sp, SPOOL_PLANS, d);
	char **names, current[512];
	struct aged *models;
	struct stat st;
	size_t n, i, k = 0;

	if (fd < 0 || spool_list(sp, SPOOL_PLANS, &names, &n, d) < 0)
		return -1;
	current_model(sp, current, sizeof current);
	if ((models = calloc(n + 1, sizeof *models)) == NULL) {
		spool_list_free(names, n);
		return diag_errno(d, ENOMEM, "retention");
	}
	for (i = 0; i < n; i++)
		if (ends_with(names[i], ".mps") && strcmp(names[i], current) &&
		    fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode)) {
			models[k].name = names[i];
			models[k++].mtime = st.st_mtim;
		}
	if (k > 1)
		qsort(models, k, sizeof *models, newest_first);
	/* The current plan's model is one of the keep newest. */
	for (i = current[0] ? keep - 1 : keep; i < k; i++)
		if (remove_entry(fd, "plans", models[i].name) > 0)
			(*removed)++;
	free(models);
	spool_list_free(names, n);
	return 0;
}

int
retain_models(struct spool *sp, size_t keep, size_t *removed,
    struct diag *d)
{
	struct history_plan *plans;
	char name[HISTORY_STEM_MAX + 8];
	size_t n, i;

	*removed = 0;
	if (keep == 0)
		return 0;
	if (retain_plans_dir(sp, keep, removed, d) < 0)
		return -1;
	if (sp->dirs[SPOOL_HISTORY] < 0)
		return 0;
	if (history_plans(sp, &plans, &n, d) < 0)
		return -1;
	for (i = 0; i + keep < n; i++) {
		snprintf(name, sizeof name, "%s.mps", plans[i].stem);
		if (remove_entry(sp->dirs[SPOOL_HISTORY], "history", name) > 0)
			(*removed)++;
	}
	free(plans);
	if (*removed > 0) {
		(void)fsync(sp->dirs[SPOOL_HISTORY]);
		(void)fsync(sp->dirs[SPOOL_PLANS]);
	}
	return 0;
}
