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
#include "util/now.h"
#include "util/proc.h"
#include "util/version.h"

#include "apply/apply.h"
#include "apply/backend.h"
#include "run/launcher.h"
#include "run/rundir.h"
#include "solve/decide.h"
#include "solve/milp.h"
#include "spool/history.h"
#include "spool/holes.h"
#include "spool/intake.h"
#include "spool/plan.h"
#include "spool/retain.h"
#include "watch/watch.h"
#include "watch/watch_int.h"

static volatile sig_atomic_t got_term, got_hup, got_chld, term_sig;

static void
on_signal(int sig)
{
	if (sig == SIGHUP)
		got_hup = 1;
	else if (sig == SIGCHLD)
		got_chld = 1;
	else {
		got_term = 1;
		term_sig = sig;
	}
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
	code = watch_run_child(argv, fd);
	if (code != 0) {
		watch_child_failed(w, "--holes-cmd", code);
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
reap(struct watcher *w)
{
	pid_t pid;

	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0) {
		launcher_reaped(&w->launcher, pid);
		milp_server_reaped(pid);	/* died idle: solves fork */
	}
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

/*
 * The files of the next decisions made ahead (file.h's pool), a few at a
 * time while nothing is waiting (pool_resize() says how many).  Not for
 * --once, which has no next decision.
 */
#define WATCH_POOL_MIN	16
#define WATCH_POOL_STEP	8

static int
pool_short(const struct watcher *w)
{
	return !w->o->once && !w->pool_off && w->sp->dirs[SPOOL_TMP] >= 0 &&
	    file_pool_count(w->sp->dirs[SPOOL_TMP]) < w->pool_want;
}

static void
pool_step(struct watcher *w)
{
	int tmpfd = w->sp->dirs[SPOOL_TMP];
	size_t had = file_pool_count(tmpfd), n = had + WATCH_POOL_STEP;
	struct diag d;

	/*
	 * Silent: a decision's own writes say why tmp/ refuses files.  A
	 * step that made none is not tried again before the next chain.
	 */
	if (file_pool_fill(tmpfd, n < w->pool_want ? n : w->pool_want,
	    &d) < 0 || file_pool_count(tmpfd) <= had)
		w->pool_off = 1;
}

/*
 * After a chain that took taken files: twice that, or, after a busier
 * chain, a quarter less than before (a burst of starts is not kept for).
 * A pool that could not be filled is tried again.
 */
static void
pool_resize(struct watcher *w, unsigned long taken)
{
	size_t want = taken > FILE_POOL_MAX / 2 ? FILE_POOL_MAX :
	    2 * (size_t)taken;

	if (want < w->pool_want - w->pool_want / 4)
		want = w->pool_want - w->pool_want / 4;
	w->pool_want = want < WATCH_POOL_MIN ? WATCH_POOL_MIN : want;
	w->pool_off = 0;
}

/*
 * Wait for a wake-up until deadline; its name, or NULL at the deadline.
 * While the pool is short and nothing is waiting, it is filled first.
 */
static const char *
wait_wake(struct watcher *w, double deadline, const sigset_t *mask)
{
	static const struct timespec now;
	struct pollfd pfd = { w->ifd, POLLIN, 0 };
	struct timespec ts;
	double left, until;
	int filling;

	for (;;) {
		if (got_term)
			return "signal";
		if (got_hup) {
			got_hup = 0;
			w->force_solve = 1;
			log_info("reload: SIGHUP: the spool's inputs read again "
			    "and a decision made (a policy.yaml that does not "
			    "load leaves the one in force)");
			return "SIGHUP";
		}
		if (got_chld) {
			got_chld = 0;
			reap(w);
			return "child";
		}
		left = deadline - now_mono();
		if (left <= 0) {
			/* Signals sent meanwhile delivered, even at once. */
			(void)ppoll(NULL, 0, &now, mask);
			if (got_term)
				return "signal";
			drain(w);	/* events that came meanwhile */
			return NULL;
		}
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - floor(left)) * 1e9);
		filling = pool_short(w);
		if (ppoll(&pfd, 1, filling ? &now : &ts, mask) <= 0) {
			if (filling)
				pool_step(w);
			continue;
		}
		w->urgent = 0;
		drain(w);
		/* Gather the burst, unless a holes file needs an answer. */
		until = now_mono() + w->o->debounce;
		while (!w->urgent && !got_term && (left = until - now_mono()) >
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
	double next_scan = now_mono() + w->o->rescan, next_holes = 0, dl;
	double next_retain = 0;
	const char *why = "start";

	for (;;) {
		reap(w);
		if (now_mono() >= next_retain) {
			retain(w);
			next_retain = now_mono() + WATCH_RETAIN_EVERY;
		}
		if (w->o->holes_cmd != NULL && now_mono() >= next_holes) {
			poll_holes(w);
			next_holes = now_mono() + w->o->holes_interval;
		}
		if (why != NULL) {
			unsigned long taken = file_pool_taken();
			if (watch_chain(w, why, d) < 0)
				return -1;
			pool_resize(w, file_pool_taken() - taken);
		}
		if (w->o->once && w->left_undone)
			return diag_set(d, EX_TEMPFAIL, "a step failed and is "
			    "to be retried (see above); run again");
		if (got_term || (w->o->once && !w->backlog))
			return 0;
		if (why == NULL || strcmp(why, "rescan") == 0)
			next_scan = now_mono() + w->o->rescan;
		dl = next_scan;
		if (w->retry_at > 0 && w->retry_at < dl)
			dl = w->retry_at;
		if (w->o->holes_cmd != NULL && next_holes < dl)
			dl = next_holes;
		if (w->backlog)		/* more of incoming/: at once */
			dl = now_mono();
		why = wait_wake(w, dl, mask);
		if (why == NULL && w->backlog) {
			why = "incoming";
		} else if (why == NULL) {
			why = "rescan";
			if (w->retry_at > 0 && now_mono() >= w->retry_at) {
				why = "retry";
				w->retry_at = 0;
			}
		}
	}
}

/* The jobs whose supervisor runs now (run/NAME/lock held). */
static size_t
running(struct watcher *w)
{
	char **names;
	struct diag d;
	size_t n, i, k = 0;
	int rfd;

	if (spool_list(w->sp, SPOOL_RUN, &names, &n, &d) < 0)
		return 0;
	for (i = 0; i < n; i++)
		if ((rfd = rundir_open(w->sp, names[i])) >= 0) {
			k += rundir_locked(rfd) == 1;
			close(rfd);
		}
	spool_list_free(names, n);
	return k;
}

static void
say_start(const struct watcher *w)
{
	const struct watch_opts *o = w->o;

	log_info("start: bftrainer %s; spool %s; backend %s%s%s; pid %ld; "
	    "grace %g s, rescan %g s, debounce %g ms%s%s%s%s%s%s", BF_VERSION,
	    w->b.spool_abs, w->b.ops->name, o->shadow ? " of " : "",
	    o->shadow ? w->b.shadowing : "", (long)getpid(), o->grace,
	    o->rescan, o->debounce * 1000, o->holes_cmd ? "; holes-cmd " : "",
	    o->holes_cmd ? o->holes_cmd : "", o->metrics ? "; metrics " : "",
	    o->metrics ? o->metrics : "", o->once ? "; once" : "",
	    o->no_profile ? "; no profile" : "");
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
	w->got_term = &got_term;
	self_dir(w);
	/*
	 * Before the lock: once its pid is there, a SIGTERM is an exit 0,
	 * not a death, however early it comes.
	 */
	signals(&mask);
	if (spool_lock(sp, d) < 0 || backend_open(&w->b, o->shadow ?
	    "shadow" : o->backend != NULL ? o->backend : "local", sp, d) < 0 ||
	    watch_dirs_open(w, d) < 0) {
		free(w);
		return -1;
	}
	if (o->shadow)
		snprintf(w->b.shadowing, sizeof w->b.shadowing, "%s",
		    o->backend != NULL ? o->backend : "local");
	w->b.grace = o->grace;
	w->b.allow_root = o->allow_root;
	/* Forked now, while this process is small (launcher.h). */
	launcher_init(&w->launcher);
	if (!o->once && !o->shadow) {
		struct supervisor_env env;
		backend_supervisor_env(&w->b, &env);
		if (launcher_open(&w->launcher, &env, sp->path, d) < 0) {
			log_warn("%s; supervisors are forked by bf-watch",
			    d->text);
			diag_clear(d);
		} else
			w->b.launcher = &w->launcher;
	}
	/* CBC's server, forked while this process is small (milp.h) */
	if (milp_server_start() < 0)
		log_warn("no solver server (%s): each CBC solve forks",
		    strerror(errno));
	spool_clean_tmp(sp, 36 * 3600);
	if (sp->dirs[SPOOL_TMP] >= 0)	/* a pool a killed bf-watch left */
		file_pool_clean(sp->dirs[SPOOL_TMP]);
	watch_dirs_runs(w);
	/* Holes found at start are not news: the first intake runs first. */
	watch_holes_now(w, &w->holes_seen);
	w->m.started = (long long)time(NULL);
	say_start(w);
	rc = loop(w, &mask, d);
	/* A failure is said by the caller, as the program's last line. */
	if (rc == 0)
		log_info("stop: %s; %zu jobs run on under their supervisors",
		    got_term ? (term_sig == SIGINT ? "SIGINT" : "SIGTERM") :
		    "--once: nothing left to do", running(w));
	file_pool_empty();
	inotifytools_cleanup();
	backend_close(&w->b);
	launcher_close(&w->launcher);
	intake_memo_free(&w->memo);
	free(w->good_policy);
	job_cache_free(&w->jobs_parsed);
	inputs_memo_free(&w->jobs_read);
	free(w->plan_text);
	lifetime_table_free(&w->life);
	free(w);
	return rc;
}
