/*
 * NAME
 *	intake - move job files from incoming/ to jobs/ or rejected/
 * DESCRIPTION
 *	See intake.h.  Every decision about one file ends in exactly one
 *	rename or unlink of that file, so a crash at any point leaves it
 *	either still in incoming/ (and decided again) or where it belongs.
 */
#define _GNU_SOURCE		/* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fault.h"
#include "util/file.h"
#include "util/hash.h"
#include "util/ydoc.h"

#include "spool/intake.h"
#include "spool/job.h"

static const char *
kind_of(mode_t mode)
{
	if (S_ISLNK(mode))
		return "a symbolic link";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	return "not a regular file";
}

static int
ends_err(const char *s)
{
	size_t l = strlen(s);

	return l >= 4 && strcmp(s + l - 4, ".err") == 0;
}

/* rejected/NAME.N (NAME alone for n 0): a name never ending in ".err". */
static void
candidate(const char *base, int n, char *out, size_t outlen)
{
	if (n == 0)
		snprintf(out, outlen, "%s", base);
	else
		snprintf(out, outlen, "%s.%d", base, n);
}

/*
 * Narrow a refused file to its owner once it is in rejected/: only a
 * regular file with one link, so that a hard link planted to someone
 * else's file never has that file's mode changed.  Best effort: a
 * non-root intake cannot change another user's file.
 */
static void
narrow_rejected(int rejfd, const char *target)
{
	struct stat st;

	if (fstatat(rejfd, target, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode) && st.st_nlink == 1 &&
	    (st.st_mode & 077) != 0)
		(void)fchmodat(rejfd, target, st.st_mode & 0700, 0);
}

/*
 * A name in incoming/ is anyone's choice: messages show it through
 * ydoc_excerpt(), control characters and bytes that are not UTF-8 as '?',
 * so that a reason stays one line and a log cannot be written into.
 */
static void
show_name(const char *name, char *out, size_t outlen)
{
	ydoc_excerpt(name, out, outlen);
}

/*
 * The name still holds the file decided on.  incoming/ is anyone's: its
 * owner may have replaced a file (rename(2) over it) since the intake
 * read it, and the new file must wait for the next intake rather than be
 * moved or removed unread.  The file decided on is held open (O_PATH)
 * meanwhile, so its inode number cannot have been given to a new file.
 * (This narrows the race to the instant between this check and the
 * rename or unlink; no call removes a name only if it still holds a
 * given inode.)
 */
static int
still_same(const struct spool *sp, const char *name, const struct stat *seen)
{
	struct stat now;

	return fstatat(sp->dirs[SPOOL_INCOMING], name, &now,
	    AT_SYMLINK_NOFOLLOW) == 0 && now.st_dev == seen->st_dev &&
	    now.st_ino == seen->st_ino;
}

/*
 * A reason a crash left alone, without its file, that says word for word
 * what this one would and belongs to the same submitter: this refusal's
 * own, done again.  Anything else in the way is another's.
 */
static int
same_reason(int rejfd, const char *errname, const char *line, uid_t owner)
{
	struct diag ignored;
	struct stat st;
	char *buf;
	size_t len;
	int same;

	if (fstatat(rejfd, errname, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISREG(st.st_mode) || st.st_uid != owner ||
	    file_read_at(rejfd, errname, DIAG_MAX + 512, FILE_NOFOLLOW, &buf,
	    &len, &ignored) < 0)
		return 0;
	same = len == strlen(line) && memcmp(buf, line, len) == 0;
	free(buf);
	return same;
}

/*
 * rejected/TARGET becomes the file decided on, held as pfd, never another
 * put in its place meanwhile: a hard link to the held file (through
 * /proc, as no name is needed), then its name in incoming/ removed while
 * it still names that file.  Without /proc, a rename that never replaces.
 * -1 with errno; ENOENT: withdrawn.
 */
static int
move_refused(const struct spool *sp, int pfd, const char *name,
    const struct stat *seen, int rejfd, const char *target,
    const char *shown)
{
	char proc[64];
	struct stat st;

	snprintf(proc, sizeof proc, "/proc/self/fd/%d", pfd);
	if (linkat(AT_FDCWD, proc, rejfd, target, AT_SYMLINK_FOLLOW) < 0) {
		int err = errno;
		if (err == ENOENT && fstat(pfd, &st) == 0 && st.st_nlink == 0)
			return -1;	/* withdrawn meanwhile */
		if (err != ENOENT && err != EPERM && err != EXDEV)
			return errno = err, -1;
		return renameat2(sp->dirs[SPOOL_INCOMING], name, rejfd, target,
		    RENAME_NOREPLACE);
	}
	fault_point("intake-after-link");
	if (still_same(sp, name, seen) && unlinkat(sp->dirs[SPOOL_INCOMING],
	    name, 0) < 0 && errno != ENOENT)
		log_warn("refused incoming/%s as rejected/%s but unable to "
		    "remove it: %s (the next intake removes it)", shown,
		    target, strerror(errno));
	return 0;
}

/*
 * A crash between the link and the removal of the name in incoming/
 * left the file under both: the refusal was made, rejected/TARGET is the
 * file itself.
 */
static int
refused_before(int rejfd, const char *target, const struct stat *seen)
{
	struct stat st;

	return seen->st_nlink > 1 && fstatat(rejfd, target, &st,
	    AT_SYMLINK_NOFOLLOW) == 0 && st.st_dev == seen->st_dev &&
	    st.st_ino == seen->st_ino;
}

static int
reject(struct spool *sp, const char *name, int pfd, const struct stat *seen,
    const char *reason, struct intake_result *r, struct diag *d)
{
	char base[200], target[256], errname[270], line[DIAG_MAX + 322],
	    shown[NAME_MAX + 4];
	int rejfd = spool_dirfd(sp, SPOOL_REJECTED, d);
	struct diag wd;
	struct stat st;
	mode_t mode = 0644;
	uid_t owner = geteuid();
	int give = 0, n, wrote = 0;

	show_name(name, shown, sizeof shown);
	if (rejfd < 0)
		return -1;
	/*
	 * The reason quotes the file: its submitter's and the spool owner's
	 * only.  Given to the submitter when we may (root, or it is ours);
	 * otherwise it stays readable by all, or the submitter could not
	 * learn why.
	 */
	if (seen->st_uid == geteuid() || geteuid() == 0) {
		mode = 0600;
		give = seen->st_uid != geteuid();
		owner = seen->st_uid;
	}
	snprintf(line, sizeof line, "%s\n", reason);
	/*
	 * NAME, NAME.1, ...: the first with both the name and NAME.err free.
	 * Nothing in rejected/ is ever replaced: the reason is delivered
	 * only where no file is (FILE_NOREPLACE), and so is the file.
	 */
	ydoc_excerpt(name, base, sizeof base);
	for (n = ends_err(base) ? 1 : 0; n < 10000; n++) {
		candidate(base, n, target, sizeof target);
		snprintf(errname, sizeof errname, "%s.err", target);
		if (refused_before(rejfd, target, seen)) {
			if (still_same(sp, name, seen))
				(void)unlinkat(sp->dirs[SPOOL_INCOMING], name,
				    0);
			log_warn("rejected incoming/%s as rejected/%s before "
			    "a crash: its reason is rejected/%s", shown, target,
			    errname);
			r->rejected++;
			return 0;
		}
		if (fstatat(rejfd, target, &st, AT_SYMLINK_NOFOLLOW) == 0 ||
		    errno != ENOENT)
			continue;
		if (spool_write(sp, SPOOL_REJECTED, errname, line,
		    strlen(line), mode, FILE_NOREPLACE, &wd) == 0) {
			wrote = 1;
			break;
		}
		if (errno != EEXIST) {
			*d = wd;
			return -1;
		}
		if (same_reason(rejfd, errname, line, owner))
			break;
	}
	if (n == 10000) {
		log_warn("left incoming/%s in place: no free name for it in "
		    "rejected/", shown);
		r->deferred++;
		return 0;
	}
	if (wrote && give && fchownat(rejfd, errname, seen->st_uid,
	    seen->st_gid, AT_SYMLINK_NOFOLLOW) < 0)
		(void)fchmodat(rejfd, errname, 0644, 0);
	fault_point("intake-after-reason");
	if (!still_same(sp, name, seen)) {
		(void)unlinkat(rejfd, errname, 0);
		if (fstatat(sp->dirs[SPOOL_INCOMING], name, &st,
		    AT_SYMLINK_NOFOLLOW) == 0) {
			log_warn("left incoming/%s in place: it changed while "
			    "it was being read", shown);
			r->deferred++;
		}
		return 0;	/* withdrawn or replaced meanwhile */
	}
	if (move_refused(sp, pfd, name, seen, rejfd, target, shown) < 0) {
		int err = errno;
		(void)unlinkat(rejfd, errname, 0);
		if (err == ENOENT)
			return 0;	/* withdrawn meanwhile */
		/* This file's trouble, not the spool's: the others go on. */
		log_warn("left incoming/%s in place: unable to move it to "
		    "rejected/%s: %s", shown, target, strerror(err));
		r->deferred++;
		return 0;
	}
	narrow_rejected(rejfd, target);
	(void)fsync(rejfd);
	(void)fsync(sp->dirs[SPOOL_INCOMING]);
	log_warn("rejected incoming/%s as rejected/%s: %s", shown, target,
	    reason);
	r->rejected++;
	return 0;
}

/* The same submission accepted before a crash removed it from incoming/. */
static int
already_accepted(struct spool *sp, const struct job *j)
{
	struct job old;
	struct diag ignored;
	char file[JOB_NAME_MAX + 8];
	int same;

	snprintf(file, sizeof file, "%s.yaml", j->name);
	if (job_load_at(&old, sp->dirs[SPOOL_JOBS], file, file,
	    JOB_TRUSTED | JOB_QUIET, &ignored) < 0)
		return 0;
	same = old.owner_uid == j->owner_uid &&
	    strcmp(old.source_file, j->source_file) == 0 &&
	    strcmp(old.source_hash, j->source_hash) == 0;
	job_free(&old);
	return same;
}

static int
accept_job(struct spool *sp, const char *name, int pfd,
    const struct stat *seen, struct job *j, struct intake_result *r,
    struct diag *d)
{
	char file[JOB_NAME_MAX + 8], reason[DIAG_MAX], shown[NAME_MAX + 4];
	struct diag wd;
	size_t len;
	char *text;
	int rc;

	show_name(name, shown, sizeof shown);

	snprintf(file, sizeof file, "%s.yaml", j->name);
	if (already_accepted(sp, j)) {
		if (still_same(sp, name, seen))
			(void)unlinkat(sp->dirs[SPOOL_INCOMING], name, 0);
		return 0;
	}
	text = job_format(j, &len);
	if (text == NULL)
		return diag_errno(d, ENOMEM, "unable to format job %s",
		    j->name);
	/* A job's command is its owner's business: the spool's owner only. */
	rc = spool_write(sp, SPOOL_JOBS, file, text, len, 0600,
	    FILE_NOREPLACE, &wd);
	free(text);
	if (rc < 0 && errno == EEXIST) {
		snprintf(reason, sizeof reason, "incoming/%s:%zu: job name "
		    "'%s' is taken by jobs/%s", shown, j->line, j->name, file);
		return reject(sp, name, pfd, seen, reason, r, d);
	}
	if (rc < 0) {
		*d = wd;
		return -1;
	}
	fault_point("intake-after-accept");
	/* A file its owner put in its place meanwhile waits for the next. */
	if (still_same(sp, name, seen) &&
	    unlinkat(sp->dirs[SPOOL_INCOMING], name, 0) < 0 && errno != ENOENT)
		log_warn("accepted incoming/%s as jobs/%s but unable to remove "
		    "it: %s (the next intake removes it)", shown, file,
		    strerror(errno));
	log_info("accepted incoming/%s as jobs/%s (uid %lld)", shown, file,
	    j->owner_uid);
	r->accepted++;
	return 0;
}

static int
entry_cmp(const void *a, const void *b)
{
	const struct intake_entry *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return (x->ino > y->ino) - (x->ino < y->ino);
}

static void
memo_add(struct intake_memo *o, const struct intake_entry *e)
{
	if (o->nnext == o->capnext && o->capnext < INTAKE_MEMO_MAX) {
		size_t cap = o->capnext ? 2 * o->capnext : 64;
		struct intake_entry *grown = realloc(o->next,
		    cap * sizeof *grown);
		if (grown != NULL) {
			o->next = grown;
			o->capnext = cap;
		}
	}
	if (o->nnext < o->capnext)
		o->next[o->nnext++] = *e;
}

/*
 * A run stopped early met only some entries: those it did not meet stay
 * remembered, or the next run would say them again.  (An entry removed
 * meanwhile stays too, until a whole run passes without it.)
 */
static void
memo_keep_unmet(struct intake_memo *o)
{
	size_t i, met = o->nnext;

	if (met > 1)
		qsort(o->next, met, sizeof *o->next, entry_cmp);
	for (i = 0; i < o->nseen; i++)
		if (met == 0 || bsearch(&o->seen[i], o->next, met,
		    sizeof *o->next, entry_cmp) == NULL)
			memo_add(o, &o->seen[i]);
}

/*
 * Anything but a regular file is refused where it is: never opened,
 * followed or moved (a FIFO in rejected/ would hang a reader, a
 * directory there could take a reason's name).  It is reported the first
 * time a run meets it; one that a memo says an earlier run reported is
 * not reported again.  Only INTAKE_INPLACE_SHOWN are reported by name
 * per run, the rest counted.
 */
static void
in_place(struct intake_memo *o, const char *label, const struct stat *st,
    struct intake_result *r)
{
	struct intake_entry e = { st->st_dev, st->st_ino };

	r->inplace++;
	memo_add(o, &e);
	if (o->nseen > 0 && bsearch(&e, o->seen, o->nseen, sizeof e,
	    entry_cmp) != NULL)
		return;
	if (++r->inplace_new <= INTAKE_INPLACE_SHOWN)
		log_warn("left %s in place: %s, not a job file (its owner may "
		    "remove it)", label, kind_of(st->st_mode));
}

/* st: the status of the file named, held open by the caller as pfd. */
static int
decide(struct spool *sp, const char *name, int pfd, struct stat st,
    time_t now, struct intake_memo *o, struct intake_result *r,
    struct diag *d)
{
	char label[NAME_MAX + 16], shown[NAME_MAX + 4], reason[DIAG_MAX + 320],
	    msg[DIAG_MAX + 4];
	struct diag pd;
	struct stat now_st;
	struct job j;
	char *buf;
	size_t len;
	int fd = sp->dirs[SPOOL_INCOMING], rc, rfd;

	show_name(name, shown, sizeof shown);
	snprintf(label, sizeof label, "incoming/%s", shown);
	if (!S_ISREG(st.st_mode)) {
		in_place(o, label, &st, r);
		return 0;
	}
	if (st.st_nlink != 1) {
		snprintf(reason, sizeof reason, "%s: has %lu hard links; "
		    "copy the file instead", label, (unsigned long)st.st_nlink);
		return reject(sp, name, pfd, &st, reason, r, d);
	}
	if (st.st_size > FILE_MAX_JOB) {
		snprintf(reason, sizeof reason, "%s: larger than %d bytes",
		    label, FILE_MAX_JOB);
		return reject(sp, name, pfd, &st, reason, r, d);
	}
	/*
	 * Read what was checked: the name may be relinked to another file
	 * between the fstatat() above and the open (incoming/ is anyone's),
	 * so the open file must be the one checked, still with one link.
	 */
	rfd = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (rfd < 0) {
		if (errno == ENOENT)
			return 0;	/* withdrawn meanwhile */
		if (errno == ELOOP || errno == ENXIO)
			goto changed;
		diag_errno(&pd, errno, "unable to open %s", name);
		pd.code = EX_NOINPUT;
		rc = -1;
	} else if (fstat(rfd, &now_st) < 0 || now_st.st_dev != st.st_dev ||
	    now_st.st_ino != st.st_ino || !S_ISREG(now_st.st_mode) ||
	    now_st.st_nlink != 1) {
		close(rfd);
		goto changed;
	} else {
		st = now_st;	/* the owner, of the file read */
		rc = file_read_fd(rfd, name, FILE_MAX_JOB, &buf, &len, &pd);
		close(rfd);
	}
	if (rc < 0) {
		/* The message names the file as it is: show it. */
		ydoc_excerpt(pd.text, msg, sizeof msg);
		if (pd.code != EX_DATAERR) {
			/* Not the file's fault (we may not read it): keep it. */
			log_warn("left %s in place: %s", label, msg);
			r->deferred++;
			return 0;
		}
		snprintf(reason, sizeof reason, "%s: %s", label, msg);
		return reject(sp, name, pfd, &st, reason, r, d);
	}
	rc = job_parse(&j, label, buf, len, 0, &pd);
	if (rc < 0) {
		free(buf);
		return reject(sp, name, pfd, &st, pd.text, r, d);
	}
	j.owner_uid = st.st_uid;
	j.submitted = (long long)now;
	snprintf(j.source_file, sizeof j.source_file, "%s", name);
	hash_format(hash_buf(buf, len), j.source_hash);
	free(buf);
	rc = accept_job(sp, name, pfd, &st, &j, r, d);
	job_free(&j);
	return rc;
changed:
	/* Replaced while we looked: the next intake decides it. */
	log_warn("left %s in place: it changed while it was being read",
	    label);
	r->deferred++;
	return 0;
}

/*
 * O_PATH opens the name itself, whatever it is, without following a link,
 * opening a FIFO or device for I/O, or reading anything.
 */
static int
intake_one(struct spool *sp, const char *name, time_t now,
    struct intake_memo *o, struct intake_result *r, struct diag *d)
{
	char shown[NAME_MAX + 4];
	struct stat st;
	int pfd, rc;

	pfd = openat(sp->dirs[SPOOL_INCOMING], name, O_PATH | O_NOFOLLOW |
	    O_CLOEXEC);
	if (pfd < 0 && errno == ENOENT)
		return 0;	/* withdrawn meanwhile */
	if (pfd < 0 || fstat(pfd, &st) < 0) {
		/* Not the file's fault: the next intake tries again. */
		show_name(name, shown, sizeof shown);
		log_warn("left incoming/%s in place: %s", shown,
		    strerror(errno));
		if (pfd >= 0)
			close(pfd);
		r->deferred++;
		return 0;
	}
	rc = decide(sp, name, pfd, st, now, o, r, d);
	close(pfd);
	return rc;
}

int
intake_run(struct spool *sp, time_t now, const struct intake_opts *o,
    struct intake_result *r, struct diag *d)
{
	struct intake_memo scratch, *memo = o ? o->memo : NULL;
	char **names;
	size_t count, i, decided;
	int rc = 0;

	memset(r, 0, sizeof *r);
	memset(&scratch, 0, sizeof scratch);
	if (memo == NULL)
		memo = &scratch;
	memo->nnext = 0;
	if (spool_dirfd(sp, SPOOL_JOBS, d) < 0 ||
	    spool_list(sp, SPOOL_INCOMING, &names, &count, d) < 0)
		return -1;
	for (i = 0; i < count && rc == 0; i++) {
		decided = r->accepted + r->rejected + r->deferred;
		if (o != NULL && ((o->max > 0 && decided >= o->max) ||
		    (o->stop != NULL && o->stop(o->arg)))) {
			r->more = 1;
			break;
		}
		rc = intake_one(sp, names[i], now, memo, r, d);
	}
	spool_list_free(names, count);
	if (r->inplace_new > INTAKE_INPLACE_SHOWN)
		log_warn("left %zu more entries in incoming/ in place: not "
		    "regular files, not job files", r->inplace_new -
		    INTAKE_INPLACE_SHOWN);
	/*
	 * What is there now is what the next run knows of; a run stopped
	 * early keeps what it had not met yet.
	 */
	if (r->more)
		memo_keep_unmet(memo);
	if (memo->nnext > 1)
		qsort(memo->next, memo->nnext, sizeof *memo->next, entry_cmp);
	free(memo->seen);
	memo->seen = memo->next;
	memo->nseen = memo->nnext;
	memo->next = NULL;
	memo->nnext = memo->capnext = 0;
	if (memo == &scratch)
		intake_memo_free(&scratch);
	return rc;
}

void
intake_memo_free(struct intake_memo *m)
{
	free(m->seen);
	free(m->next);
	memset(m, 0, sizeof *m);
}
