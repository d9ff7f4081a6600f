/*
 * NAME
 *	cancel - a user's request to cancel a job, and its answer
 * DESCRIPTION
 *	See cancel.h.  The request is delivered as incoming/ files are: a
 *	dot name while it is written, then a rename.  The answer is written
 *	in tmp/ and renamed into cancel/ after it was given to the asking
 *	uid, so it appears whole and only its reader can open it.
 */
#define _GNU_SOURCE		/* getrandom */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/array.h"
#include "util/file.h"

#include "spool/cancel.h"

#define CANCEL_MAX_ANSWER	4096

static void
make_token(char *token)
{
	unsigned char raw[CANCEL_TOKEN_LEN / 2];
	size_t i;

	/* getrandom(2) blocks only before the pool is seeded, at boot. */
	if (getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw) {
		unsigned long x = (unsigned long)getpid() ^
		    (unsigned long)time(NULL) ^ (unsigned long)clock();
		for (i = 0; i < sizeof raw; i++, x = x * 6364136223846793005UL +
		    1442695040888963407UL)
			raw[i] = (unsigned char)(x >> 56);
	}
	for (i = 0; i < sizeof raw; i++)
		snprintf(token + 2 * i, 3, "%02x", raw[i]);
}

int
cancel_ask(struct spool *sp, const char *name, char *token, struct diag *d)
{
	char tmp[JOB_NAME_MAX + CANCEL_TOKEN_LEN + 4];
	char file[JOB_NAME_MAX + CANCEL_TOKEN_LEN + 2], text[JOB_NAME_MAX + 16];
	int cfd = spool_dirfd(sp, SPOOL_CANCEL, d), fd, err;

	if (!job_name_valid(name))
		return diag_set(d, EX_USAGE, "'%.64s' is not a job name", name);
	if (cfd < 0)
		return -1;
	make_token(token);
	snprintf(file, sizeof file, "%s@%s", name, token);
	snprintf(tmp, sizeof tmp, ".%s", file);
	snprintf(text, sizeof text, "cancel %s\n", name);
	fd = openat(cfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	if (fd < 0)
		return diag_errno(d, errno, "unable to create %s/cancel/%s",
		    sp->path, tmp);
	if (file_write_all(fd, text, strlen(text)) < 0 || fsync(fd) < 0) {
		err = errno;
		close(fd);
		unlinkat(cfd, tmp, 0);
		return diag_errno(d, err, "unable to write %s/cancel/%s",
		    sp->path, tmp);
	}
	close(fd);
	if (renameat(cfd, tmp, cfd, file) < 0) {
		err = errno;
		unlinkat(cfd, tmp, 0);
		return diag_errno(d, err, "unable to deliver %s/cancel/%s",
		    sp->path, file);
	}
	fsync(cfd);
	return 0;
}

int
cancel_wait(struct spool *sp, const char *name, const char *token,
    double seconds, char *answer, size_t size, struct diag *d)
{
	struct timespec tick = { 0, 100 * 1000 * 1000 };
	char file[JOB_NAME_MAX + CANCEL_TOKEN_LEN + 16], *buf, *nl, *text;
	int cfd = spool_dirfd(sp, SPOOL_CANCEL, d);
	long code, tries = (long)(seconds * 10) + 1;
	size_t len;

	if (cfd < 0)
		return -1;
	snprintf(file, sizeof file, "%s@%s.answer", name, token);
	while (file_read_at(cfd, file, CANCEL_MAX_ANSWER, FILE_NOFOLLOW,
	    &buf, &len, d) < 0) {
		if (d->code != EX_NOINPUT)
			return -1;
		if (--tries <= 0)
			return diag_set(d, EX_TEMPFAIL, "%s: no answer within "
			    "%g s; the request stays queued (is bf-watch "
			    "running? bf-apply acts on it)", name, seconds);
		diag_clear(d);
		nanosleep(&tick, NULL);
	}
	unlinkat(cfd, file, 0);
	if ((nl = strchr(buf, '\n')) != NULL)
		*nl = '\0';
	code = strtol(buf, &text, 10);
	if (text == buf || *text != ' ' || (code != CANCEL_DONE &&
	    code != CANCEL_REFUSED && code != CANCEL_NO_JOB)) {
		free(buf);
		return diag_set(d, EX_DATAERR, "cancel/%s:1: not an answer",
		    file);
	}
	snprintf(answer, size, "%s", text + 1);
	free(buf);
	return (int)code;
}

/* NAME@TOKEN, NAME a job name, TOKEN CANCEL_TOKEN_LEN hex digits. */
static int
request_name(const char *file, char *name)
{
	const char *at = strrchr(file, '@');
	size_t n;

	if (at == NULL || strlen(at + 1) != CANCEL_TOKEN_LEN ||
	    strspn(at + 1, "0123456789abcdef") != CANCEL_TOKEN_LEN ||
	    (n = (size_t)(at - file)) == 0 || n > JOB_NAME_MAX)
		return -1;
	memcpy(name, file, n);
	name[n] = '\0';
	return job_name_valid(name) ? 0 : -1;
}

int
cancel_list(struct spool *sp, struct cancel_req **reqs, size_t *n,
    struct diag *d)
{
	struct cancel_req *v = NULL, *grown;
	char **names;
	size_t count, i, cap = 0;
	struct stat st;
	int cfd;

	*reqs = NULL;
	*n = 0;
	/* An older spool has no cancel/ yet: nothing was asked. */
	if (sp->dirs[SPOOL_CANCEL] < 0)
		return 0;
	cfd = sp->dirs[SPOOL_CANCEL];
	if (spool_list(sp, SPOOL_CANCEL, &names, &count, d) < 0)
		return -1;
	for (i = 0; i < count; i++) {
		char name[JOB_NAME_MAX + 1];
		/* Answers, names of another form, links and the like: no. */
		if (request_name(names[i], name) < 0 ||
		    fstatat(cfd, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		/*
		 * A file with another name too is not the asker's own making:
		 * a hard link to another user's file would ask as that user
		 * (its owner).  Removed, as the intake refuses them; the
		 * other name, the file, stays.
		 */
		if (st.st_nlink != 1) {
			if (unlinkat(cfd, names[i], 0) == 0)
				log_warn("cancel/%s: has %lu names (a hard link), "
				    "removed unanswered", names[i],
				    (unsigned long)st.st_nlink);
			continue;
		}
		if ((grown = array_grow(v, &cap, *n + 1, sizeof *v, 16)) ==
		    NULL) {
			free(v);
			spool_list_free(names, count);
			return diag_errno(d, ENOMEM, "cancel");
		}
		v = grown;
		snprintf(v[*n].file, sizeof v[*n].file, "%s", names[i]);
		snprintf(v[*n].name, sizeof v[*n].name, "%s", name);
		v[(*n)++].uid = st.st_uid;
	}
	spool_list_free(names, count);
	*reqs = v;
	return 0;
}

int
cancel_answer(struct spool *sp, const struct cancel_req *r, int code,
    const char *text, struct diag *d)
{
	char file[sizeof r->file + 8], line[512];
	struct file_staged st;
	int cfd = spool_dirfd(sp, SPOOL_CANCEL, d), rc;

	if (cfd < 0)
		return -1;
	snprintf(file, sizeof file, "%s.answer", r->file);
	snprintf(line, sizeof line, "%d %s\n", code, text);
	if (spool_stage(sp, SPOOL_CANCEL, file, line, strlen(line), 0600, &st,
	    d) < 0)
		return -1;
	/* The asker's alone, before it is there to be read. */
	if (geteuid() == 0 && fchownat(st.tmpdirfd, st.tmpname, r->uid,
	    (gid_t)-1, AT_SYMLINK_NOFOLLOW) < 0) {
		int err = errno;
		file_unstage(&st);
		return diag_errno(d, err, "unable to give %s/cancel/%s to uid "
		    "%ld", sp->path, file, (long)r->uid);
	}
	/* Never onto what is there: an answer is the asker's own only. */
	if ((rc = spool_publish(sp, &st, SPOOL_CANCEL, file, FILE_NOREPLACE,
	    d)) < 0)
		file_unstage(&st);
	if (rc == 0 && unlinkat(cfd, r->file, 0) == 0)
		fsync(cfd);
	return rc;
}

void
cancel_list_free(struct cancel_req *reqs, size_t n)
{
	(void)n;
	free(reqs);
}
