/*
 * NAME
 *	file - bounded reads and atomic writes
 * SYNOPSIS
 *	file_read_at(AT_FDCWD, "job.yaml", FILE_MAX_JOB, 0, &buf, &len, &d);
 *	file_read_named(jobsfd, "a.yaml", "jobs/a.yaml", FILE_MAX_JOB,
 *	    FILE_NOFOLLOW, &buf, &len, &d);
 *	file_write_atomic(tmpfd, destfd, "current.yaml", buf, len, 0644, 0, &d);
 *	file_write_path("out/summary.yaml", buf, len, 0644, &d);
 * DESCRIPTION
 *	file_read_at() reads a whole regular file of at most max bytes into a
 *	NUL-terminated buffer.  With FILE_NOFOLLOW a symbolic link is refused
 *	without being followed, and anything but a regular file is refused
 *	without being opened (a FIFO would block, a device could act).
 *	file_read_named() does the same, its messages naming the file as
 *	label says (a path from the spool, "jobs/a.yaml"), not as name.
 *
 *	file_write_atomic() is the spool's only way to make a file appear:
 *	write a new file in the tmp directory (O_CREAT|O_EXCL, mode 0600),
 *	check every write, fsync, set the final mode, close, rename into the
 *	destination directory, fsync that directory.  With FILE_NOREPLACE an
 *	existing destination is never replaced (renameat2 RENAME_NOREPLACE, or
 *	link then unlink where the filesystem lacks it) and the call fails with
 *	errno EEXIST.  On any failure the tmp file is removed
 *	and nothing appears at the destination.
 *
 *	file_stage() and file_publish() are its two halves, for a writer
 *	that must have several files complete before any appears (all of
 *	bf-submit's or none): file_stage() writes, syncs and closes the file
 *	in tmp/; file_publish() renames it into place as above, and on
 *	failure leaves it staged, so that another name may be tried (EEXIST
 *	with FILE_NOREPLACE); file_unstage() removes a file still staged.
 *
 *	A writer of several files whose order on the disk matters only
 *	between groups (the history record: the files, then their names, then
 *	the mark) syncs a group at once: file_stage_unsynced() writes the
 *	file and its final mode and begins its writeback (sync_file_range(2)
 *	on Linux), leaving it open; file_sync_staged() then fsyncs and closes
 *	each of a set, so that one journal commit serves them all, and on any
 *	failure unstages them all.  file_publish() with FILE_NODIRSYNC leaves
 *	out the directory's fsync, which file_sync_dir() then does once for
 *	all the names published into it.  Nothing appears before its file is
 *	synced; a name published without FILE_NODIRSYNC is on the disk when
 *	the call returns, one published with it once file_sync_dir() returns.
 *
 *	A struct file_group keeps such a set: file_group_stage() stages one
 *	file unsynced (under the name as, in tmp/) with the caller's dirfd
 *	and name for its publishing; past FILE_GROUP_OPEN_MAX files held
 *	open, those staged so far are synced first, so that a group of
 *	thousands does not run out of descriptors.  file_group_sync() syncs
 *	every file staged so far (*failed the one that failed);
 *	file_group_free() unstages what was not published and frees.
 *
 *	The pool: a daemon that writes files on a path whose latency counts
 *	makes their inodes ahead, while it is idle.  file_pool_fill() makes
 *	empty files in tmp/ ("pool.PID.SEQ.RANDOM", mode 0600) until want
 *	are ready; a file staged in that tmp/ by the same process then takes
 *	one (renamed to the usual temporary name, then opened), so that
 *	creating it costs a rename, not an allocation: on an ext4 without a
 *	journal, which skips inodes freed in the last minutes, an allocation
 *	can take a millisecond.  A file gone, not the inode made, no longer
 *	empty, of another owner or linked elsewhere too is passed over (its
 *	name removed); a process forked from the filler never takes from
 *	it; a file system without RENAME_NOREPLACE has no pool.
 *	file_pool_count() says how many are ready, file_pool_taken() how
 *	many were taken in all;
 *	file_pool_empty() removes the pool, file_pool_clean() the empty
 *	pool files of this user that a process which died left in tmp/
 *	(only for a caller that knows no other process of its user pools
 *	there, e.g. the holder of the spool's lock).
 *
 *	file_write_path() does the same for a path outside the spool, with a
 *	dot-prefixed temporary file in the destination's own directory.
 * DIAGNOSTICS
 *	-1 with d set: 66 missing input, 65 not a regular file or too large,
 *	75 disk full, 73 permission, 74 other I/O errors.
 */
#ifndef BF_FILE_H
#define BF_FILE_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/log.h"

#define FILE_NOFOLLOW	0x1
#define FILE_NOREPLACE	0x2
#define FILE_NODIRSYNC	0x4	/* file_publish(): file_sync_dir() follows */

#define FILE_MAX_JOB	(1024 * 1024)

/* A file written and synced in tmp/, not yet in place. */
struct file_staged {
	int tmpdirfd;
	int fd;				/* open until synced (unsynced), or -1 */
	const char *where;		/* how messages name tmp/ */
	char tmpname[NAME_MAX + 1];	/* "" once published or removed */
};

/* Files staged unsynced together, each with where it is to go. */
#define FILE_GROUP_OPEN_MAX	64

struct file_group_item {
	struct file_staged st;
	int dirfd;			/* the caller's: where it goes, or -1 */
	char name[NAME_MAX + 1];	/* the caller's: its name there */
};

struct file_group {
	struct file_group_item *v;
	size_t n, cap;
	size_t open;			/* staged and not yet synced */
};

int file_read_at(int dirfd, const char *name, size_t max, int flags,
    char **buf, size_t *len, struct diag *d);
int file_read_named(int dirfd, const char *name, const char *label,
    size_t max, int flags, char **buf, size_t *len, struct diag *d);
int file_read_fd(int fd, const char *label, size_t max, char **buf,
    size_t *len, struct diag *d);
int file_write_atomic(int tmpdirfd, int destdirfd, const char *name,
    const void *buf, size_t len, mode_t mode, int flags, struct diag *d);
int file_stage(int tmpdirfd, const char *name, const void *buf, size_t len,
    mode_t mode, struct file_staged *st, struct diag *d);
int file_publish(struct file_staged *st, int destdirfd, const char *name,
    int flags, struct diag *d);
void file_unstage(struct file_staged *st);
int file_stage_unsynced(int tmpdirfd, const char *name, const void *buf,
    size_t len, mode_t mode, struct file_staged *st, struct diag *d);
int file_sync_staged(struct file_staged *st, size_t n, struct diag *d);
int file_sync_dir(int dirfd, const char *label, struct diag *d);
int file_group_stage(struct file_group *g, int tmpdirfd, int dirfd,
    const char *name, const char *as, const void *buf, size_t len,
    mode_t mode, struct diag *d);
int file_group_sync(struct file_group *g, size_t *failed, struct diag *d);
void file_group_free(struct file_group *g);
#define FILE_POOL_MAX	512

int file_pool_fill(int tmpdirfd, size_t want, struct diag *d);
size_t file_pool_count(int tmpdirfd);
unsigned long file_pool_taken(void);
void file_pool_empty(void);
int file_pool_clean(int tmpdirfd);
int file_write_path(const char *path, const void *buf, size_t len,
    mode_t mode, struct diag *d);
int file_write_all(int fd, const void *buf, size_t len);

#endif
