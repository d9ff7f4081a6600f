/*
 * NAME
 *	watch - the daemon's loop: wake on the spool, run the chain
 * DESCRIPTION
 *	See watch.h.  This module is the daemon itself, so unlike the rest
 *	of lib/ it logs (one line per decision, one per failed child) with
 *	log_info()/log_warn(); it still returns its fatal errors in d.
 *
 *	libinotifytools reads several events per read(2) and keeps the rest;
 *	poll(2) on its descriptor cannot see those.  That is harmless here:
 *	an event read together with an earlier one happened before the pass
 *	that the earlier one starts, and the pass reads the spool itself.
 */
#define _GNU_SOURCE		/* ppoll */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inotifytools/inotify.h>
#include <inotifytools/inotifytools.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/fault.h"
#include "util/file.h"
#include "util/proc.h"

#include "apply.h"
#include "backend.h"
#include "decide.h"
#include "history.h"
#include "holes.h"
#include "intake.h"
#include "plan.h"
#include "retain.h"
#include "watch.h"

#define WATCH_MAX_PASSES	20
#define WATCH_INTAKE_SECONDS	0.25	/* of intake per pass: a flood of
					 * incoming/ waits for the rest */
#define WATCH_MAX_LOGS		4096
#define WATCH_PROFILE_EVERY	5.0	/* seconds: measurements pile up */
#define WATCH_RETAIN_EVERY	3600.0	/* seconds between retention runs */

static volatile sig_atomic_t got_term, got_hup, got_chld;

struct seen_log {
	char name[JOB_NAME_MAX + 1];
	off_t size;
};

struct watcher {
	struct spool *sp;
	const struct watch_opts *o;
	struct backend b;
	int ifd;		/* the inotify descriptor */
	char self_dir[PATH_MAX - 256];
	int urgent;		/* a holes event: do not debounce */
	int force_solve;
	char failed_inputs[5 * HASH_TEXT_LEN + 8];	/* a failed solve's */
	int failed_later;	/* ... with a code worth a retry (75, 71) */
	double solve_retry_at;	/* ... not before then */
	double retry_at;	/* 0: nothing to retry */
	int left_undone;	/* a step failed to retry: --once exits 75 */
	double profiled_at;	/* when bf-profile last ran */
	struct intake_memo memo;	/* entries left in incoming/, said */
	struct stat holes_seen;	/* holes/current.yaml as the last solve saw
				 * it: a new one stops the intake */
	int backlog;		/* the intake stopped with files left */
	double intake_until;	/* when this pass's intake stops */
	size_t nlogs;
	struct seen_log logs[WATCH_MAX_LOGS];
};

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
on_signal(int sig)
{
	if (sig == SIGHUP)
		got_hup = 1;
	else if (sig == SIGCHLD)
		got_chld = 1;
	else
		got_term = 1;
}

/* Signals arrive only inside ppoll(): the flags are never missed. */
static void
signals(sigset_t *waitmask)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGCHLD };
	struct sigaction sa;
	sigset_t block;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	for (i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		sigaction(sigs[i], &sa, NULL);
		sigaddset(&block, sigs[i]);
	}
	signal(SIGPIPE, SIG_IGN);
	sigprocmask(SIG_BLOCK, &block, waitmask);
	for (i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigdelset(waitmask, sigs[i]);
}

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

static int
watches(struct watcher *w, struct diag *d)
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
static void
watch_runs(struct watcher *w)
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

/* Next to this program first, then on PATH; 0 when found. */
static int
find_program(const struct watcher *w, const char *name, char *out,
    size_t outlen)
{
	const char *path = getenv("PATH"), *p, *colon;
	size_t l;

	snprintf(out, outlen, "%s/%s", w->self_dir, name);
	if (w->self_dir[0] != '\0' && access(out, X_OK) == 0)
		return 0;
	for (p = path ? path : "/usr/bin:/bin"; *p != '\0'; p = colon + 1) {
		colon = strchr(p, ':');
		l = colon ? (size_t)(colon - p) : strlen(p);
		snprintf(out, outlen, "%.*s/%s", (int)l, p, name);
		if (l > 0 && access(out, X_OK) == 0)
			return 0;
		if (colon == NULL)
			break;
	}
	return -1;
}

/* Run a program to its end; its exit code, or 128+signal, or -1. */
static int
run_child(char *const argv[], int outfd)
{
	struct proc p = { argv, NULL, NULL, 0, outfd >= 0 ? outfd :
	    PROC_INHERIT, PROC_INHERIT, NULL, NULL };
	struct diag d;
	int status;

	if (proc_run(&p, &status, NULL, &d) < 0) {
		log_warn("%s", d.text);
		return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	    128 + WTERMSIG(status);
}

/*
 * A failed child: try again later (75, 71, 74; killed by a signal, which
 * says nothing of its input, or not run at all) or once an input changes
 * (any other exit: the input is what it refused).
 */
static void
child_failed(struct watcher *w, const char *what, int code)
{
	int later = code == EX_TEMPFAIL || code == EX_OSERR ||
	    code == EX_IOERR || code < 0 || code > 128;

	if (code < 0)
		log_warn("%s could not be run; will retry", what);
	else if (code > 128)
		log_warn("%s killed by signal %d; will retry", what,
		    code - 128);
	else
		log_warn("%s failed (exit %d)%s", what, code, later ?
		    "; will retry" : "; waiting for new input");
	if (later) {
		w->retry_at = now_s() + w->o->retry;
		w->left_undone = 1;
	}
}

/* holes/current.yaml now, or a zeroed status when there is none. */
static void
holes_now(const struct watcher *w, struct stat *st)
{
	memset(st, 0, sizeof *st);
	if (w->sp->dirs[SPOOL_HOLES] < 0 || fstatat(w->sp->dirs[SPOOL_HOLES],
	    "current.yaml", st, AT_SYMLINK_NOFOLLOW) < 0)
		memset(st, 0, sizeof *st);
}

/*
 * The intake stops once its time is up or a holes file other than the
 * one the last solve read is there: it is delivered by rename, so a new
 * one is a new inode (or, written in place, a new change time).
 */
static int
intake_stop(void *arg)
{
	const struct watcher *w = arg;
	struct stat now;

	if (now_s() >= w->intake_until)
		return 1;
	holes_now(w, &now);
	return now.st_dev != w->holes_seen.st_dev ||
	    now.st_ino != w->holes_seen.st_ino ||
	    now.st_size != w->holes_seen.st_size ||
	    now.st_ctim.tv_sec != w->holes_seen.st_ctim.tv_sec ||
	    now.st_ctim.tv_nsec != w->holes_seen.st_ctim.tv_nsec;
}

/*
 * WATCH_INTAKE_SECONDS a pass at most, and no further file once a new
 * holes file is there: the main scheduler's nodes are answered first,
 * whatever incoming/ holds, and the rest waits for the next pass
 * (w->backlog), which comes at once.
 */
static int
intake(struct watcher *w, struct diag *d)
{
	struct intake_opts io = { &w->memo, 0, intake_stop, w };
	struct intake_result r;

	w->intake_until = now_s() + WATCH_INTAKE_SECONDS;
	if (intake_run(w->sp, time(NULL), &io, &r, d) < 0) {
		w->backlog = 0;
		if (d->code != EX_TEMPFAIL)
			return -1;
		/* A full disk: what is entered stays, the rest waits. */
		log_warn("intake: %s; will retry", d->text);
		diag_clear(d);
		w->retry_at = now_s() + w->o->retry;
		w->left_undone = 1;
		return r.accepted + r.rejected > 0;
	}
	w->backlog = r.more;
	return r.accepted + r.rejected > 0;
}

static struct seen_log *
seen(struct watcher *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->nlogs; i++)
		if (strcmp(w->logs[i].name, name) == 0)
			return &w->logs[i];
	if (w->nlogs == WATCH_MAX_LOGS)
		return NULL;
	memset(&w->logs[w->nlogs], 0, sizeof w->logs[w->nlogs]);
	memcpy(w->logs[w->nlogs].name, name, strlen(name) + 1);	/* valid */
	return &w->logs[w->nlogs++];
}

/* bf-profile for the jobs whose progress logs grew since last time. */
static int
profile(struct watcher *w)
{
	char prog[PATH_MAX], **names, *argv[64], stem[JOB_NAME_MAX + 8];
	char job[JOB_NAME_MAX + 16];
	struct seen_log *s;
	struct diag d;
	struct stat st;
	size_t n, i, l;
	int argc = 3, code, rc = 0;

	if (w->o->no_profile || now_s() - w->profiled_at < WATCH_PROFILE_EVERY ||
	    find_program(w, "bf-profile", prog, sizeof prog) < 0 ||
	    spool_list(w->sp, SPOOL_PROGRESS, &names, &n, &d) < 0)
		return 0;
	argv[0] = prog, argv[1] = "-d", argv[2] = w->sp->path;
	for (i = 0; i < n && argc < 62; i++) {
		l = strlen(names[i]);
		if (l < 5 || l - 4 >= sizeof stem ||
		    strcmp(names[i] + l - 4, ".log") != 0 ||
		    fstatat(w->sp->dirs[SPOOL_PROGRESS], names[i], &st,
		    AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		memcpy(stem, names[i], l - 4);
		stem[l - 4] = '\0';
		snprintf(job, sizeof job, "%s.yaml", stem);
		if (!job_name_valid(stem) || faccessat(w->sp->dirs[SPOOL_JOBS],
		    job, F_OK, AT_SYMLINK_NOFOLLOW) < 0 ||
		    (s = seen(w, stem)) == NULL || s->size == st.st_size)
			continue;
		s->size = st.st_size;
		argv[argc++] = names[i];
		names[i][l - 4] = '\0';
	}
	argv[argc] = NULL;
	if (argc > 3) {
		code = run_child(argv, -1);
		w->profiled_at = now_s();
		if (code != 0)
			child_failed(w, "bf-profile", code);
		rc = 1;
	}
	spool_list_free(names, n);
	return rc;
}

/* What one pass read and decided: the inputs once, the plan once. */
struct decision {
	struct inputs in;
	int have_inputs;
	char *text;		/* plans/current.yaml, or NULL */
	size_t len;
	struct plan plan;	/* text, parsed */
	int parsed;
	double secs;		/* the solve's, when there was one */
};

static void
decision_free(struct decision *x)
{
	if (x->have_inputs)
		inputs_free(&x->in);
	if (x->parsed)
		plan_free(&x->plan);
	free(x->text);
	memset(x, 0, sizeof *x);
}

static void
inputs_key(const struct inputs *in, char *out, size_t outlen)
{
	snprintf(out, outlen, "%s%s%s%s%s", in->dig_holes, in->dig_jobs,
	    in->dig_state, in->dig_policy, in->dig_profiles);
}

static char *
read_plan(struct watcher *w, size_t *len)
{
	struct diag d;
	char *buf;

	if (w->sp->dirs[SPOOL_PLANS] < 0 || file_read_at(
	    w->sp->dirs[SPOOL_PLANS], "current.yaml", HISTORY_MAX_FILE,
	    FILE_NOFOLLOW, &buf, len, &d) < 0)
		return NULL;
	return buf;
}

/* The files of jobs/ that are no job, said once per solve as bf-solve did. */
static void
say_ignored(struct watcher *w)
{
	char **names;
	struct diag d;
	size_t n;

	if (job_list(w->sp, SPOOL_JOBS, JOB_LIST_WARN, &names, &n, &d) == 0)
		spool_list_free(names, n);
}

/*
 * A solve that failed: again later (75, 71, 74) or once an input changes
 * (any other code: the input is what it refused).
 */
static void
solve_failed(struct watcher *w, const struct diag *d, const char *inputs)
{
	int later = d->code == EX_TEMPFAIL || d->code == EX_OSERR ||
	    d->code == EX_IOERR;

	log_warn("solve: %s%s", d->text, later ? "; will retry" :
	    "; waiting for new input");
	if (later) {
		w->retry_at = now_s() + w->o->retry;
		w->left_undone = 1;
	}
	snprintf(w->failed_inputs, sizeof w->failed_inputs, "%s", inputs);
	w->failed_later = later;
	w->solve_retry_at = now_s() + w->o->retry;
}

/*
 * The inputs, read once for the pass, and the current plan, read and
 * parsed once; a new plan, decided here (decide.h), when an input differs
 * from the current plan's.  Inputs that cannot be read are left to the
 * apply step, which reads them again and says why.
 */
static int
solve(struct watcher *w, struct decision *x)
{
	struct solve_opts o = SOLVE_OPTS_DEFAULT;
	char key[sizeof w->failed_inputs], *text;
	struct plan p;
	struct diag d;
	size_t len;
	double t0;
	int need = 1;

	holes_now(w, &w->holes_seen);	/* the holes this solve reads */
	if ((x->text = read_plan(w, &x->len)) != NULL)
		x->parsed = plan_parse(&x->plan, "plans/current.yaml",
		    x->text, x->len, &d) == 0;
	if (inputs_read(&x->in, w->sp, 0, &d) < 0)
		return 0;	/* no holes yet: nothing to decide */
	x->have_inputs = 1;
	inputs_key(&x->in, key, sizeof key);
	if (x->parsed)
		need = inputs_stale(&x->in, &x->plan) != NULL;
	if (w->force_solve)
		need = 1, w->force_solve = 0;
	else if (need && strcmp(key, w->failed_inputs) == 0 &&
	    (!w->failed_later || now_s() < w->solve_retry_at))
		need = 0;
	if (!need)
		return 0;
	say_ignored(w);
	t0 = now_s();
	fault_point("watch-before-solve");
	if (decide_spool(w->sp, &x->in, &o, &p, &text, &len, &d) < 0) {
		solve_failed(w, &d, key);
		return 0;
	}
	x->secs = now_s() - t0;
	/* As bf-apply reads it: the hosts as sets, too (plan.h). */
	plan_free(&p);
	if (x->parsed)
		plan_free(&x->plan);
	free(x->text);
	x->text = text;
	x->len = len;
	x->parsed = plan_parse(&x->plan, "plans/current.yaml", text, len,
	    &d) == 0;
	return 1;
}

static void
log_decision(const char *trigger, const char *plan, const struct apply_result
    *r, double objective, double secs)
{
	char *line = NULL;
	size_t size = 0, i;
	FILE *fp = open_memstream(&line, &size);

	if (fp == NULL)
		return;
	fprintf(fp, "decision: trigger %s; plan %s;", trigger, plan);
	for (i = 0; i < r->n; i++) {
		const struct apply_action *a = &r->acts[i];
		fprintf(fp, "%s %s %s %ld->%ld", i ? "," : "", a->kind,
		    a->name, a->was, a->nodes);
	}
	if (r->n == 0)
		fputs(" no change", fp);
	if (strcmp(plan, "none") == 0)
		fprintf(fp, "; nodes held %ld", r->nodes);
	else
		fprintf(fp, "; nodes held %ld; objective %.6g; solve %.3f s",
		    r->nodes, objective, secs);
	if (fclose(fp) == 0)
		log_info("%s", line);
	free(line);
}

/*
 * Exit 75 from the apply step is a stale plan (an input changed since the
 * solve read them: the next pass solves again; apply_run() says which in
 * r.stale) or a failure to retry later, logged (a job that did not stop,
 * one already running, Slurm not answering).
 */
static int
apply(struct watcher *w, const char *trigger, struct decision *x,
    struct diag *d)
{
	struct apply_opts o = { .now = (long long)time(NULL),
	    .inputs = x->have_inputs ? &x->in : NULL,
	    .plan = x->parsed ? &x->plan : NULL };
	long long ptime = x->parsed ? x->plan.time : 0;
	double objective = x->parsed ? x->plan.objective : 0;
	struct apply_result r;
	char stem[64];
	size_t i;
	int rc;

	rc = apply_run(w->sp, &w->b, "plans/current.yaml", x->text, x->len, &o,
	    &r, d);
	if (rc < 0 && d->code == EX_TEMPFAIL && r.stale != NULL) {
		/*
		 * What changed without a plan (a node taken back: adopt with
		 * fewer; a job that ended) is a decision line too.
		 */
		if (r.n > (size_t)r.refused)
			log_decision(trigger, "none", &r, 0, 0);
		diag_clear(d);
		rc = 1;
	} else if (rc == 0) {
		rc = r.n > 0;
		for (i = 0; i < r.n; i++)
			if (strcmp(r.acts[i].kind, "refused") == 0 ||
			    strcmp(r.acts[i].kind, "skipped") == 0)
				log_warn("%s: %s", r.acts[i].name,
				    r.acts[i].note);
		if (r.n > (size_t)r.refused && x->text != NULL) {
			history_plan_stem(x->text, x->len, ptime, stem,
			    sizeof stem);
			log_decision(trigger, stem, &r, objective, x->secs);
		} else if (r.n > (size_t)r.refused)
			log_decision(trigger, "none", &r, 0, 0);
		/* A refusal would come back every pass: it is not news. */
		if (r.n == (size_t)r.refused)
			rc = 0;
	}
	apply_result_free(&r);
	return rc;
}

/* One pass of the chain; 1 when it did something, so another follows. */
static int
pass(struct watcher *w, const char *trigger, struct diag *d)
{
	struct decision x;
	int did = 0, k;

	if (w->sp->dirs[SPOOL_INCOMING] >= 0) {
		if ((k = intake(w, d)) < 0)
			return -1;
		did |= k;
	}
	fault_point("watch-after-intake");
	did |= profile(w);
	memset(&x, 0, sizeof x);
	did |= solve(w, &x);
	fault_point("watch-before-apply");
	k = apply(w, trigger, &x, d);
	decision_free(&x);
	if (k < 0) {
		/* The state is true after any failed action: try again. */
		log_warn("apply: %s; will retry", d->text);
		/* --once: 75 for what a retry may cure, not for bad input. */
		if (d->code == EX_TEMPFAIL || d->code == EX_OSERR ||
		    d->code == EX_IOERR)
			w->left_undone = 1;
		diag_clear(d);
		w->retry_at = now_s() + w->o->retry;
		k = 0;
	}
	did |= k;
	watch_runs(w);
	return did;
}

static int
chain(struct watcher *w, const char *trigger, struct diag *d)
{
	int i, k = 1;

	for (i = 0; i < WATCH_MAX_PASSES && k > 0 && !got_term; i++)
		k = pass(w, trigger, d);
	return k < 0 ? -1 : 0;
}

/* --holes-cmd: its standard output, when a new valid holes file. */
static void
poll_holes(struct watcher *w)
{
	char *argv[] = { "/bin/sh", "-c", (char *)w->o->holes_cmd, NULL };
	char tmpl[] = "/tmp/bf-watch-holes.XXXXXX", *buf;
	struct holes now, cur;
	struct diag d;
	size_t len;
	int fd = mkstemp(tmpl), code;

	if (fd < 0)
		return;
	unlink(tmpl);
	setenv("BF_SPOOL", w->b.spool_abs, 1);
	code = run_child(argv, fd);
	if (code != 0) {
		child_failed(w, "--holes-cmd", code);
		close(fd);
		return;
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return;
	}
	buf = NULL;
	len = 0;
	if (file_read_fd(fd, "--holes-cmd", HOLES_MAX_FILE, &buf, &len,
	    &d) == 0 && len > 0 &&
	    holes_parse(&now, "--holes-cmd", buf, len, &d) == 0) {
		holes_init(&cur);
		if (holes_load(&cur, w->sp->dirs[SPOOL_HOLES], "current.yaml",
		    "holes/current.yaml", &d) < 0 ||
		    holes_digest(&cur) != holes_digest(&now))
			if (spool_write(w->sp, SPOOL_HOLES, "current.yaml", buf,
			    len, 0644, 0, &d) < 0)
				log_warn("%s", d.text);
		holes_free(&cur);
		holes_free(&now);
	} else if (len > 0)
		log_warn("--holes-cmd: %s", d.text);
	free(buf);
	close(fd);
}

static void
reap(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/* Drain what inotify has; a holes/ event makes the pass urgent. */
static int
drain(struct watcher *w)
{
	struct inotify_event *ev;
	struct pollfd pfd = { w->ifd, POLLIN, 0 };
	const char *dir;
	int n = 0;

	while (poll(&pfd, 1, 0) > 0 && (ev = inotifytools_next_event(1)) !=
	    NULL) {
		n++;
		if (ev->mask & IN_Q_OVERFLOW)
			w->urgent = 1;
		/* A retired run/NAME/: a new run of NAME gets a new watch. */
		if (ev->mask & IN_MOVE_SELF) {
			inotifytools_remove_watch_by_wd(ev->wd);
			continue;
		}
		dir = inotifytools_filename_from_wd(ev->wd);
		if (dir != NULL && strstr(dir, "/holes") != NULL)
			w->urgent = 1;
	}
	return n;
}

/* Wait for a wake-up until deadline; its name, or NULL at the deadline. */
static const char *
wait_wake(struct watcher *w, double deadline, const sigset_t *mask)
{
	struct pollfd pfd = { w->ifd, POLLIN, 0 };
	struct timespec ts;
	double left, until;

	for (;;) {
		if (got_term)
			return "signal";
		if (got_hup) {
			got_hup = 0;
			w->force_solve = 1;
			return "SIGHUP";
		}
		if (got_chld) {
			got_chld = 0;
			reap();
			return "child";
		}
		left = deadline - now_s();
		if (left <= 0) {
			drain(w);	/* events that came meanwhile */
			return NULL;
		}
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - floor(left)) * 1e9);
		if (ppoll(&pfd, 1, &ts, mask) <= 0)
			continue;
		w->urgent = 0;
		drain(w);
		/* Gather the burst, unless a holes file needs an answer. */
		until = now_s() + w->o->debounce;
		while (!w->urgent && !got_term && (left = until - now_s()) >
		    0) {
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - floor(left)) * 1e9);
			if (ppoll(&pfd, 1, &ts, mask) > 0)
				drain(w);
		}
		return w->urgent ? "holes" : "event";
	}
}

static void
self_dir(struct watcher *w)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	w->self_dir[0] = '\0';
	if (n <= 0)
		return;
	exe[n] = '\0';
	if ((slash = strrchr(exe, '/')) != NULL) {
		*slash = '\0';
		if (strlen(exe) < sizeof w->self_dir)
			memcpy(w->self_dir, exe, strlen(exe) + 1);
	}
}

/* The administrator's retention (bf-watch(1)), said when it removed. */
static void
retain(struct watcher *w)
{
	struct diag d;
	size_t n;

	if (w->o->keep_rejected > 0) {
		if (retain_rejected(w->sp, time(NULL), w->o->keep_rejected, &n,
		    &d) < 0)
			log_warn("retention: %s", d.text);
		else if (n > 0)
			log_info("retention: removed %zu refusals older than %g "
			    "days from rejected/", n, w->o->keep_rejected /
			    WATCH_DAY);
	}
	if (w->o->keep_models > 0) {
		if (retain_models(w->sp, w->o->keep_models, &n, &d) < 0)
			log_warn("retention: %s", d.text);
		else if (n > 0)
			log_info("retention: removed %zu models beyond those of "
			    "the newest %zu plans from plans/ and history/", n,
			    w->o->keep_models);
	}
}

static int
loop(struct watcher *w, const sigset_t *mask, struct diag *d)
{
	double next_scan = now_s() + w->o->rescan, next_holes = 0, dl;
	double next_retain = 0;
	const char *why = "start";

	for (;;) {
		reap();
		if (now_s() >= next_retain) {
			retain(w);
			next_retain = now_s() + WATCH_RETAIN_EVERY;
		}
		if (w->o->holes_cmd != NULL && now_s() >= next_holes) {
			poll_holes(w);
			next_holes = now_s() + w->o->holes_interval;
		}
		if (why != NULL && chain(w, why, d) < 0)
			return -1;
		if (w->o->once && w->left_undone)
			return diag_set(d, EX_TEMPFAIL, "a step failed and is "
			    "to be retried (see above); run again");
		if (got_term || (w->o->once && !w->backlog))
			return 0;
		if (why == NULL || strcmp(why, "rescan") == 0)
			next_scan = now_s() + w->o->rescan;
		dl = next_scan;
		if (w->retry_at > 0 && w->retry_at < dl)
			dl = w->retry_at;
		if (w->o->holes_cmd != NULL && next_holes < dl)
			dl = next_holes;
		if (w->backlog)		/* more of incoming/: at once */
			dl = now_s();
		why = wait_wake(w, dl, mask);
		if (why == NULL && w->backlog) {
			why = "incoming";
		} else if (why == NULL) {
			why = "rescan";
			if (w->retry_at > 0 && now_s() >= w->retry_at) {
				why = "retry";
				w->retry_at = 0;
			}
		}
	}
}

int
watch_run(struct spool *sp, const struct watch_opts *o, struct diag *d)
{
	struct watcher *w = calloc(1, sizeof *w);
	sigset_t mask;
	int rc;

	if (w == NULL)
		return diag_errno(d, ENOMEM, "watch");
	w->sp = sp;
	w->o = o;
	w->ifd = -1;
	self_dir(w);
	/*
	 * Before the lock: once its pid is there, a SIGTERM is an exit 0,
	 * not a death, however early it comes.
	 */
	signals(&mask);
	if (spool_lock(sp, d) < 0 || backend_open(&w->b,
	    o->backend != NULL ? o->backend : "local", sp, d) < 0 ||
	    watches(w, d) < 0) {
		free(w);
		return -1;
	}
	w->b.grace = o->grace;
	w->b.allow_root = o->allow_root;
	spool_clean_tmp(sp, 36 * 3600);
	watch_runs(w);
	/* Holes found at start are not news: the first intake runs first. */
	holes_now(w, &w->holes_seen);
	rc = loop(w, &mask, d);
	inotifytools_cleanup();
	intake_memo_free(&w->memo);
	free(w);
	return rc;
}
