/*
 * NAME
 *	apply_retire - the end of a job's run: its record, done, cancelled
 * DESCRIPTION
 *	See apply.h and apply_int.h.  A job that ended is recorded in
 *	history/ first, then dropped from the state, then its job file
 *	removed, its log and profile moved with its run, and its run/
 *	directory moved last (bf-spool(5), STATE TABLE).
 */
#define _GNU_SOURCE		/* memmem */
#include <dirent.h>
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
#include "util/now.h"

#include "apply/apply_int.h"
#include "spool/cancel.h"
#include "spool/history.h"
#include "spool/progress.h"

/* Lost: no exit record, because its supervisor vanished or never ran. */
static int
lost(const struct backend_status *bs)
{
	return bs->phase == BACKEND_LOST || bs->phase == BACKEND_NONE;
}

static const char *
outcome(const struct backend_status *bs)
{
	if (lost(bs))
		return "lost";
	if (strcmp(bs->stopping, "cancel") == 0)
		return "cancelled";
	if (strcmp(bs->stopping, "done") == 0)
		return "finished";
	if (strcmp(bs->stopping, "plan") == 0)
		return "preempted";
	return bs->signal == 0 && bs->code == 0 ? "finished" : "failed";
}

/*
 * A record with no run (ID 0) is this run's only when it says lost and
 * its directory has not arrived: another job of the name may have left
 * one, cancelled while waiting or never started, at any time before.
 */
static int
norun_pending(int fd, const char *file)
{
	char dir[JOB_NAME_MAX + 64], *buf;
	struct diag ignored;
	struct stat st;
	size_t len;
	int mine;

	snprintf(dir, sizeof dir, "%.*s", (int)(strlen(file) - 5), file);
	if (fstatat(fd, dir, &st, AT_SYMLINK_NOFOLLOW) == 0 ||
	    file_read_at(fd, file, HISTORY_MAX_FILE, 0, &buf, &len,
	    &ignored) < 0)
		return 0;
	mine = memmem(buf, len, "\noutcome: lost\n", 15) != NULL;
	free(buf);
	return mine;
}

/*
 * A lost run has no exit record: it ended when it was found lost.  Found
 * again after a crash between its record and the move of its run/ (so
 * in a later second, maybe), it ends when its record says, so that one
 * run has one record, named ENDED-NAME-ID, beside its directory.
 */
static long long
lost_ended(struct ctx *c, const char *name, long long id)
{
	char suffix[JOB_NAME_MAX + 32];
	long long ended = c->o->now;
	struct dirent *e;
	struct diag ignored;
	size_t sl, l, digits;
	DIR *dp;
	int fd;

	if (c->o->dry_run ||
	    (fd = history_subdir(c->sp, "runs", &ignored)) < 0)
		return ended;
	if ((dp = fdopendir(fd)) == NULL) {
		close(fd);
		return ended;
	}
	sl = (size_t)snprintf(suffix, sizeof suffix, "-%s-%lld.yaml", name,
	    id);
	while ((e = readdir(dp)) != NULL) {
		l = strlen(e->d_name);
		digits = strspn(e->d_name, "0123456789");
		if (l > sl && digits > 0 && digits == l - sl &&
		    strcmp(e->d_name + digits, suffix) == 0 &&
		    (id != 0 || norun_pending(fd, e->d_name))) {
			ended = strtoll(e->d_name, NULL, 10);
			break;
		}
	}
	closedir(dp);
	return ended;
}

/*
 * progress/NAME.log and profiles/NAME.yaml into run/NAME/ (progress.log,
 * profile.yaml), which then moves to history/runs/.  A run that never
 * made a directory has no log either.
 */
static void
keep_with_run(struct ctx *c, const char *name)
{
	char log[JOB_NAME_MAX + 8], prof[JOB_NAME_MAX + 8];
	int rfd = rundir_open(c->b->sp, name);

	if (rfd < 0)
		return;
	snprintf(log, sizeof log, "%s.log", name);
	snprintf(prof, sizeof prof, "%s.yaml", name);
	if (spool_dirfd(c->sp, SPOOL_PROGRESS, c->d) >= 0 &&
	    renameat(c->sp->dirs[SPOOL_PROGRESS], log, rfd, "progress.log") == 0)
		fsync(c->sp->dirs[SPOOL_PROGRESS]);
	if (spool_dirfd(c->sp, SPOOL_PROFILES, c->d) >= 0 &&
	    renameat(c->sp->dirs[SPOOL_PROFILES], prof, rfd, "profile.yaml") == 0)
		fsync(c->sp->dirs[SPOOL_PROFILES]);
	diag_clear(c->d);
	fsync(rfd);
	close(rfd);
}

/* A job whose run ended, being retired: its record, then what follows. */
struct retiring {
	char name[JOB_NAME_MAX + 1];
	char stem[HISTORY_RUN_STEM_MAX];
	struct history_run hr;
	char *hosts, *buf;
};

static void
retiring_free(struct retiring *t)
{
	free(t->hosts);
	free(t->buf);
}

/*
 * The record of a run that ended, made and said (its outcome printed):
 * 0, or 1 when that is all (-n), -1 on failure.
 */
static int
retire_prepare(struct ctx *c, const char *name,
    const struct backend_status *bs, struct retiring *t)
{
	const struct state_job *sj = state_find(&c->st, name);
	char note[64];
	long was = apply_held(c, name);
	struct job j;
	size_t len;

	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "%s", name);
	t->hosts = sj ? apply_compress(&sj->hosts) : NULL;
	t->hr.name = t->name;
	t->hr.code = bs->code;
	t->hr.signal = bs->signal;
	t->hr.started = bs->started;
	t->hr.outcome = outcome(bs);
	t->hr.cancelled_by = bs->cancelled_by;
	t->hr.ended = lost(bs) ? lost_ended(c, name, bs->id) : bs->ended;
	t->hr.hosts = t->hosts;
	t->hr.nodes = was;
	if (bs->phase == BACKEND_NONE)
		snprintf(note, sizeof note, "never started");
	else if (bs->signal)
		snprintf(note, sizeof note, "signal %d", bs->signal);
	else if (bs->code >= 0)
		snprintf(note, sizeof note, "exit %d", bs->code);
	else
		snprintf(note, sizeof note, "exit unknown");
	if (apply_act(c, t->hr.outcome, name, was, 0, NULL, note) < 0 ||
	    c->o->dry_run) {
		retiring_free(t);
		return c->o->dry_run ? 1 : -1;
	}
	apply_reason(c, strcmp(t->hr.outcome, "finished") == 0 ? "done" :
	    strcmp(t->hr.outcome, "preempted") == 0 ? "stopped" :
	    strcmp(t->hr.outcome, "lost") == 0 ? "supervisor lost" :
	    t->hr.outcome);
	if (apply_load_job(c, name, &j, &t->buf, &len) == 0) {
		t->hr.job_buf = t->buf;
		t->hr.job_len = len;
		job_free(&j);
	}
	diag_clear(c->d);
	/* The same job may end twice in one second: the run's id tells. */
	snprintf(t->stem, sizeof t->stem, "%lld-%s-%lld", t->hr.ended, name,
	    bs->id);
	t->hr.stem = t->stem;
	return 0;
}

/*
 * After its record and the state without it (rc 0 when both were
 * written): a job that ran to its end goes; one stopped or lost may run
 * again.  Its log and profile go with the run, so that a new job of the
 * name starts afresh, and nobody else can write into or read its
 * measurements; its run/ directory moves last.
 */
static int
retire_finish(struct ctx *c, struct retiring *t, int rc)
{
	char file[JOB_NAME_MAX + 8];
	int ended = rc == 0 && (strcmp(t->hr.outcome, "finished") == 0 ||
	    strcmp(t->hr.outcome, "failed") == 0 ||
	    strcmp(t->hr.outcome, "cancelled") == 0);

	c->changed |= ended;
	snprintf(file, sizeof file, "%s.yaml", t->name);
	if (ended && unlinkat(c->sp->dirs[SPOOL_JOBS], file, 0) == 0)
		fsync(c->sp->dirs[SPOOL_JOBS]);
	if (ended)
		keep_with_run(c, t->name);
	fault_point("apply-before-retire");
	apply_forget(c, t->name);
	if (rc == 0 && (rc = c->b->ops->retire(c->b, t->name, t->stem,
	    c->d)) == 0)
		backend_forget_run(c->b, t->name);
	return rc;
}

int
apply_retire(struct ctx *c, const char *name, const struct backend_status *bs)
{
	struct retiring t;
	int rc;

	if ((rc = retire_prepare(c, name, bs, &t)) != 0)
		return rc < 0 ? -1 : 0;
	if (history_record_run(c->sp, &t.hr, c->d) < 0)
		rc = -1;
	else	/* the run's directory goes beside its record */
		snprintf(t.stem, sizeof t.stem, "%s", t.hr.written);
	fault_point("apply-after-record");
	if (rc == 0 && state_remove(&c->st, name) == 0)
		rc = apply_write_state(c);
	rc = retire_finish(c, &t, rc);
	retiring_free(&t);
	return rc;
}

/*
 * The jobs one plan stopped, retired together, in apply_retire()'s order
 * but with the plan's other steps between: their records synced as one
 * group, the jobs out of the state, which the plan's one state write
 * saves after its resizes and starts (c->state_due), and their runs moved
 * after that write, by apply_retire_moves().  On a failure the first is
 * said, and the runs not moved are retired again by the next run.
 */
int
apply_retire_stopped(struct ctx *c, const char *const *names,
    const struct backend_status *bs, size_t n)
{
	struct retiring *t = calloc(n + 1, sizeof *t);
	struct history_run *hr = calloc(n + 1, sizeof *hr);
	size_t i, k = 0;
	int rc = 0, r;

	if (t == NULL || hr == NULL || c->moving != NULL) {
		free(t), free(hr);
		return diag_errno(c->d, c->moving ? EINVAL : ENOMEM, "retire");
	}
	for (i = 0; i < n && rc == 0; i++)
		if ((r = retire_prepare(c, names[i], &bs[i], &t[k])) < 0)
			rc = -1;
		else if (r == 0)
			hr[k] = t[k].hr, k++;
	if (rc == 0 && k > 0 && history_record_runs(c->sp, hr, k, c->d) < 0)
		rc = -1;
	for (i = 0; i < k && rc == 0; i++)
		snprintf(t[i].stem, sizeof t[i].stem, "%s", hr[i].written);
	free(hr);
	fault_point("apply-after-record");
	c->moving = t;
	c->nmoving = k;
	c->moving_after = c->state_writes;
	for (i = 0; i < k && rc == 0; i++)
		if (state_remove(&c->st, t[i].name) == 0)
			c->state_due = 1;
	if (rc < 0)		/* not out of the state: not moved */
		c->moving_after = LONG_MAX;
	return rc;
}

/*
 * The runs apply_retire_stopped() recorded, moved once a state without
 * them was written (else left for the next run to retire): 0, or -1 with
 * the first failure said.
 */
int
apply_retire_moves(struct ctx *c)
{
	int written = c->state_writes > c->moving_after, rc = 0;
	struct diag first = { 0, "" };
	size_t i;

	for (i = 0; i < c->nmoving; i++) {
		if (retire_finish(c, &c->moving[i], written ? 0 : -1) < 0 &&
		    rc == 0) {
			rc = -1;
			first = *c->d;
		}
		diag_clear(c->d);
		retiring_free(&c->moving[i]);
	}
	free(c->moving);
	c->moving = NULL;
	c->nmoving = 0;
	if (rc < 0)
		*c->d = first;
	return rc;
}

/*
 * The samples of the last report in progress/NAME.log (progress_last():
 * the rules of every reader of the log); -1 when there is none.  Only the
 * tail is read: a report is one short line.
 */
static long long
progress_samples(struct ctx *c, const char *name)
{
	struct progress_report last;

	if (progress_last_at(c->sp->dirs[SPOOL_PROGRESS], name, &last) < 0)
		return -1;
	return last.samples;
}

/* A waiting job cancelled: its job file goes, its record says so. */
static int
cancel_waiting(struct ctx *c, const char *name, uid_t by)
{
	/* Fresh: another job of the name cancelled in the same second may
	 * have had the same file, and so the same record. */
	struct history_run hr = { .name = name, .outcome = "cancelled",
	    .code = -1, .cancelled_by = (long long)by, .fresh = 1 };
	char stem[HISTORY_RUN_STEM_MAX], file[JOB_NAME_MAX + 8];
	struct job j;
	char *buf = NULL;
	size_t len;
	int rc;

	if (apply_load_job(c, name, &j, &buf, &len) == 0) {
		hr.job_buf = buf;
		hr.job_len = len;
		job_free(&j);
	}
	diag_clear(c->d);
	hr.ended = c->o->now;
	snprintf(stem, sizeof stem, "%lld-%s-0", hr.ended, name);
	hr.stem = stem;
	snprintf(file, sizeof file, "%s.yaml", name);
	c->changed = 1;
	if ((rc = history_record_run(c->sp, &hr, c->d)) == 0 &&
	    unlinkat(c->sp->dirs[SPOOL_JOBS], file, 0) == 0)
		fsync(c->sp->dirs[SPOOL_JOBS]);
	if (rc == 0) {
		keep_with_run(c, name);
		rc = apply_act(c, "cancelled", name, 0, 0, NULL, "");
		apply_reason(c, "cancelled");
	}
	free(buf);
	return rc;
}

/*
 * A run/NAME/ of a start that never ran (a crash between its hosts file
 * and its supervisor, a start that failed), whose job is neither in the
 * state nor in jobs/ any more: nothing will start it again, so it goes
 * to history/runs/ like any run, lost, with whatever output it has.
 * With its job file still there it stays: the next start reuses it.
 */
static int
abandoned(struct ctx *c, const char *name, const struct backend_status *bs)
{
	return bs->phase == BACKEND_NONE && state_find(&c->st, name) == NULL &&
	    !apply_has_job_file(c, name);
}

int
apply_retire_ended(struct ctx *c)
{
	struct backend_status bs;
	char **names;
	size_t n, i;
	int rc = 0;

	if (spool_list(c->sp, SPOOL_RUN, &names, &n, c->d) < 0)
		return -1;
	for (i = 0; i < n && rc == 0; i++) {
		if (!job_name_valid(names[i]))
			continue;
		/* A job may have ended meanwhile: asked again. */
		apply_forget(c, names[i]);
		rc = apply_status(c, names[i], &bs);
		if (rc == 0 && (bs.phase == BACKEND_EXITED ||
		    bs.phase == BACKEND_LOST || abandoned(c, names[i], &bs)))
			rc = apply_retire(c, names[i], &bs);
	}
	spool_list_free(names, n);
	return rc;
}

/*
 * A job stopped, said first: 1 when that is all (-n), 0 with its status
 * after the stop in *bs, -1 on failure.
 */
int
apply_stop_one(struct ctx *c, const char *name, const char *why,
    struct backend_status *bs)
{
	if (apply_act(c, "stop", name, apply_held(c, name), 0, NULL, why) < 0)
		return -1;
	apply_reason(c, strcmp(why, "done") == 0 ? "done" :
	    strcmp(why, "cancel") == 0 ? "cancelled" :
	    apply_taken_back(c, name) ? "taken back" : "chosen");
	if (c->o->dry_run)
		return 1;
	apply_forget(c, name);
	if (c->b->ops->stop(c->b, name, why, c->d) < 0 ||
	    apply_status(c, name, bs) < 0)
		return -1;
	fault_point("apply-after-stop");
	return 0;
}

int
apply_do_stop(struct ctx *c, const char *name, const char *why)
{
	struct backend_status bs;
	int rc = apply_stop_one(c, name, why, &bs);

	if (rc != 0)
		return rc < 0 ? -1 : 0;
	return bs.phase == BACKEND_RUNNING ? 0 : apply_retire(c, name, &bs);
}

/*
 * Jobs stopped together (done, cancelled): every one gets its notice
 * first, then each is waited for, one grace in all, as the stops of a
 * plan are (apply.c, notify_stops()).
 */
static int
stop_together(struct ctx *c, char (*names)[JOB_NAME_MAX + 1],
    char (*whys)[32], size_t n)
{
	size_t i;
	int rc = 0;

	if (n >= 2) {
		c->b->stop_since = now_mono();
		for (i = 0; i < n; i++)
			if (backend_local_stop_begin(c->b, names[i], whys[i],
			    c->d) < 0)
				diag_clear(c->d);
	}
	for (i = 0; i < n && rc == 0; i++)
		rc = apply_do_stop(c, names[i], whys[i]);
	c->b->stop_since = 0;
	return rc;
}

int
apply_check_done(struct ctx *c)
{
	char (*names)[JOB_NAME_MAX + 1], (*whys)[32];
	struct backend_status bs;
	const struct job *pj;
	struct job j;
	long long done, want;
	size_t i, n = 0;
	int rc;

	if (c->st.n == 0)
		return 0;
	names = calloc(c->st.n, sizeof *names);
	whys = calloc(c->st.n, sizeof *whys);
	if (names == NULL || whys == NULL) {
		free(names);
		free(whys);
		return diag_errno(c->d, ENOMEM, "done");
	}
	for (i = 0; i < c->st.n; i++) {
		const char *name = c->st.jobs[i].name;
		if (apply_status(c, name, &bs) < 0) {
			free(names);
			free(whys);
			return -1;
		}
		if (bs.phase != BACKEND_RUNNING)
			continue;
		if ((pj = apply_job_peek(c, name)) != NULL)
			want = pj->samples;
		else if (apply_load_job(c, name, &j, NULL, NULL) < 0) {
			diag_clear(c->d);
			continue;
		} else {
			want = j.samples;
			job_free(&j);
		}
		if (want <= 0 || (done = progress_samples(c, name)) < want)
			continue;
		snprintf(names[n], sizeof names[n], "%s", name);
		snprintf(whys[n++], sizeof whys[0], "done");
	}
	rc = stop_together(c, names, whys, n);
	free(names);
	free(whys);
	return rc;
}

/*
 * The requests in cancel/, at most APPLY_CANCELS_PER_RUN of them (a flood
 * waits for the next runs, never the answer to a holes change, which the
 * plan gave before: apply_run()); the running jobs they cancel stopped
 * together, one grace in all; then each answered.  An answer that cannot
 * be written (something planted at its name) drops that request alone.
 */
int
apply_process_cancels(struct ctx *c)
{
	struct cancel_req *reqs;
	struct backend_status bs;
	char (*names)[JOB_NAME_MAX + 1] = NULL, (*whys)[32] = NULL;
	char (*texts)[256] = NULL;
	int *codes = NULL;
	size_t n, i, k = 0;
	struct job j;
	int rc = 0;

	if (c->o->dry_run || cancel_list(c->sp, &reqs, &n, c->d) < 0)
		return c->o->dry_run ? 0 : -1;
	if (n > APPLY_CANCELS_PER_RUN) {
		c->r->cancels_left = n - APPLY_CANCELS_PER_RUN;
		n = APPLY_CANCELS_PER_RUN;
	}
	if (n > 0 && ((names = calloc(n, sizeof *names)) == NULL ||
	    (whys = calloc(n, sizeof *whys)) == NULL ||
	    (texts = calloc(n, sizeof *texts)) == NULL ||
	    (codes = calloc(n, sizeof *codes)) == NULL))
		rc = diag_errno(c->d, ENOMEM, "cancel");
	/* Decided first; the running ones to stop gathered. */
	for (i = 0; i < n && rc == 0; i++) {
		const struct cancel_req *r = &reqs[i];
		codes[i] = -1;
		if (apply_load_job(c, r->name, &j, NULL, NULL) < 0) {
			if (c->d->code != EX_NOINPUT && c->d->code != EX_DATAERR) {
				diag_clear(c->d);
				continue;	/* cannot tell now: asked again */
			}
			diag_clear(c->d);
			codes[i] = CANCEL_NO_JOB;
			snprintf(texts[i], sizeof texts[i], "no job %s in jobs/",
			    r->name);
		} else if (r->uid != 0 && (long long)r->uid != j.owner_uid) {
			codes[i] = CANCEL_REFUSED;
			snprintf(texts[i], sizeof texts[i], "job %s is uid "
			    "%lld's, not uid %ld's: not cancelled", r->name,
			    j.owner_uid, (long)r->uid);
			job_free(&j);
		} else {
			job_free(&j);
			codes[i] = CANCEL_DONE;
			snprintf(texts[i], sizeof texts[i], "job %s cancelled",
			    r->name);
			if ((rc = apply_status(c, r->name, &bs)) < 0)
				break;
			if (bs.phase == BACKEND_RUNNING) {
				snprintf(names[k], sizeof names[k], "%s",
				    r->name);
				snprintf(whys[k++], sizeof whys[0], "cancel:%ld",
				    (long)r->uid);
			} else
				rc = cancel_waiting(c, r->name, r->uid);
		}
	}
	if (rc == 0)
		rc = stop_together(c, names, whys, k);
	for (i = 0; i < n && rc == 0; i++) {
		struct diag d;
		if (codes[i] < 0)
			continue;
		if (cancel_answer(c->sp, &reqs[i], codes[i], texts[i], &d) < 0) {
			if (!diag_code_transient(d.code) || d.code == EX_IOERR) {
				log_warn("cancel/%s: %s; the request removed "
				    "unanswered", reqs[i].file, d.text);
				(void)unlinkat(c->sp->dirs[SPOOL_CANCEL],
				    reqs[i].file, 0);
			} else {
				*c->d = d;
				rc = -1;
			}
		}
	}
	free(names);
	free(whys);
	free(texts);
	free(codes);
	cancel_list_free(reqs, n);
	return rc;
}
