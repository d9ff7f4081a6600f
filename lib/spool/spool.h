/*
 * NAME
 *	spool - the spool directory: layout, creation, locking, delivery
 * SYNOPSIS
 *	struct spool sp;
 *	spool_open(&sp, path, SPOOL_CREATE, &d);
 *	spool_write(&sp, SPOOL_PLANS, "current.yaml", buf, len, 0644, 0, &d);
 *	spool_close(&sp);
 * DESCRIPTION
 *	The spool (bf-spool(5)) is one directory tree on one filesystem.  Every
 *	subdirectory is opened once, without following symbolic links, and all
 *	later access is relative to those descriptors, so a directory swapped
 *	for a link after opening changes nothing.  With SPOOL_CREATE missing
 *	directories are made with their documented modes (incoming/ and tmp/
 *	are 1733: anyone may deliver, no one may list or touch another's
 *	files); otherwise a missing subdirectory is an error only when used.
 *
 *	spool_write() delivers a file the Maildir way (file_write_atomic());
 *	spool_stage() and spool_publish() are its two halves (file_stage(),
 *	file_publish()), named in messages by the file's place in dir;
 *	spool_stage_unsynced() and spool_sync_staged() stage several files
 *	to be synced together (file_stage_unsynced(), file_sync_staged()).
 *	spool_replace() writes as spool_write() does (mode 0644) unless the
 *	file in place already says the same: same(OLD, OLDLEN, arg) returns 1
 *	for the same content, or, same NULL, the bytes are equal.  A file
 *	that cannot be read (at most max bytes, a regular file) is replaced,
 *	with SPOOL_REPLACE_WARN said to be unless it is missing.  It returns
 *	1 written, 0 kept.
 *	spool_lock() takes SPOOL/lock with flock(2), at most one holder per
 *	spool; the holder's pid is written in the file for the message others
 *	get.  spool_clean_tmp() removes files left in tmp/ by crashed writers.
 *
 *	Trust (bf-spool(5), SECURITY): spool_open() refuses a spool whose top
 *	directory or any subdirectory belongs to someone other than root and
 *	the user running the program, or that others may write; incoming/
 *	and tmp/ may be written by all only with the sticky bit.
 *	spool_check_dir() is that check, for the directories made later
 *	(history/objects/, history/runs/).  A spool created by a user other
 *	than root gets a top directory of mode 0700: it is that user's own.
 *	spool_default() is the site's spool when no -d names one (site.h;
 *	a configuration file that does not load leaves the built-in one);
 *	programs use cli_spool(), which says where the spool came from.
 * DIAGNOSTICS
 *	-1 with d set: 66 no such spool, 73 cannot create, 75 locked, 78 a
 *	spool not to be trusted ("sp/jobs: owned by uid 1002, not by root:
 *	refused (bf-spool(5), SECURITY)").
 */
#ifndef BF_SPOOL_H
#define BF_SPOOL_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "util/file.h"
#include "util/log.h"

enum spool_dir {
	SPOOL_INCOMING, SPOOL_JOBS, SPOOL_REJECTED, SPOOL_HOLES,
	SPOOL_PROGRESS, SPOOL_PROFILES, SPOOL_PLANS, SPOOL_HISTORY,
	SPOOL_RUN, SPOOL_TMP, SPOOL_CANCEL, SPOOL_NDIRS
};

#define SPOOL_CREATE	0x1
#define SPOOL_REPLACE_WARN 0x1	/* spool_replace(): say an unreadable file */

struct spool {
	char path[PATH_MAX];
	int fd;
	int dirs[SPOOL_NDIRS];
	int lockfd;
};

const char *spool_default(void);
const char *spool_dir_name(enum spool_dir dir);
int spool_open(struct spool *sp, const char *path, int flags, struct diag *d);
int spool_check_dir(int fd, const char *label, int shared, struct diag *d);
void spool_close(struct spool *sp);
int spool_dirfd(const struct spool *sp, enum spool_dir dir, struct diag *d);
int spool_write(struct spool *sp, enum spool_dir dir, const char *name,
    const void *buf, size_t len, mode_t mode, int flags, struct diag *d);
int spool_stage(struct spool *sp, enum spool_dir dir, const char *name,
    const void *buf, size_t len, mode_t mode, struct file_staged *st,
    struct diag *d);
int spool_publish(struct spool *sp, struct file_staged *st, enum spool_dir dir,
    const char *name, int flags, struct diag *d);
int spool_stage_unsynced(struct spool *sp, enum spool_dir dir,
    const char *name, const void *buf, size_t len, mode_t mode,
    struct file_staged *st, struct diag *d);
int spool_sync_staged(struct spool *sp, enum spool_dir dir,
    struct file_staged *st, size_t n, struct diag *d);
typedef int spool_same_fn(const char *old, size_t oldlen, void *arg);
int spool_replace(struct spool *sp, enum spool_dir dir, const char *name,
    const void *buf, size_t len, size_t max, int flags, spool_same_fn *same,
    void *arg, struct diag *d);
int spool_lock(struct spool *sp, struct diag *d);
void spool_unlock(struct spool *sp);
int spool_clean_tmp(struct spool *sp, time_t max_age);
int spool_list(const struct spool *sp, enum spool_dir dir, char ***names,
    size_t *count, struct diag *d);
void spool_list_free(char **names, size_t count);

#endif
