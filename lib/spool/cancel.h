/*
 * NAME
 *	cancel - a user's request to cancel a job, and its answer
 * SYNOPSIS
 *	cancel_ask(&sp, "resnet18", token, &d);		(bf-cancel, the user)
 *	cancel_wait(&sp, "resnet18", token, 60, answer, sizeof answer, &d);
 *
 *	cancel_list(&sp, &reqs, &n, &d);		(bf-apply, root)
 *	cancel_answer(&sp, &reqs[i], CANCEL_DONE, "cancelled", &d);
 *	cancel_list_free(reqs, n);
 * DESCRIPTION
 *	A job file in jobs/ is the service's (0600), so a user cannot remove
 *	it; cancelling goes through SPOOL/cancel/ (mode 1733: anyone
 *	delivers, nobody lists, nobody removes another's file), as a
 *	submission goes through incoming/:
 *
 *	1. cancel_ask() writes cancel/.NAME@TOKEN (O_EXCL, 0600, the user's),
 *	   fsyncs it and renames it to cancel/NAME@TOKEN: the request, its
 *	   file's owner the uid who asks.  TOKEN is 16 random hex digits, so
 *	   no one can guess a request's name.
 *	2. bf-apply (run by bf-watch, or from cron) lists the requests
 *	   (cancel_list(): regular files only, NAME valid, owner known),
 *	   decides each (the job's owner or root may cancel it), acts, and
 *	   cancel_answer() writes cancel/NAME@TOKEN.answer, owned by the
 *	   asking uid, 0600, one line "CODE TEXT", then removes the request.
 *	   A request with more than one name (a hard link: it would ask as
 *	   another user) is removed unanswered, as the intake refuses one;
 *	   an answer never replaces what is at its name (a directory a user
 *	   planted there fails that answer alone: the caller drops the
 *	   request, logged, and goes on).
 *	3. cancel_wait() waits for the answer, reads it, removes it, and
 *	   returns its CODE.  An answer never fetched stays; a request never
 *	   answered stays queued.
 *
 *	CODE is 0 cancelled, 77 refused (another user's job), 66 no such job.
 * DIAGNOSTICS
 *	-1 with d set: 64 a bad job name, 73/74 cannot write, 75 no answer
 *	within the wait (the request stays queued), 65 an answer that does
 *	not parse.
 */
#ifndef BF_CANCEL_H
#define BF_CANCEL_H

#include <stddef.h>
#include <sys/types.h>

#include "util/log.h"

#include "spool/job.h"
#include "spool/spool.h"

#define CANCEL_TOKEN_LEN	16
#define CANCEL_DONE		0
#define CANCEL_REFUSED		EX_NOPERM
#define CANCEL_NO_JOB		EX_NOINPUT

struct cancel_req {
	char file[JOB_NAME_MAX + CANCEL_TOKEN_LEN + 2];	/* NAME@TOKEN */
	char name[JOB_NAME_MAX + 1];
	uid_t uid;			/* who asks */
};

int cancel_ask(struct spool *sp, const char *name, char *token,
    struct diag *d);
int cancel_wait(struct spool *sp, const char *name, const char *token,
    double seconds, char *answer, size_t size, struct diag *d);
int cancel_list(struct spool *sp, struct cancel_req **reqs, size_t *n,
    struct diag *d);
int cancel_answer(struct spool *sp, const struct cancel_req *r, int code,
    const char *text, struct diag *d);
void cancel_list_free(struct cancel_req *reqs, size_t n);

#endif
