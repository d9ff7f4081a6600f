/*
 * NAME
 *	backend_local - run jobs on this machine, each under a supervisor
 * DESCRIPTION
 *	See backend.h.  start() has a supervisor forked, in a session of its
 *	own, that holds an exclusive flock(2) on run/NAME/lock for as long as
 *	it lives, or until its exit record is written: by bf-watch's launcher
 *	(launcher.h) when there is one, else by this process.  The supervisor forks the job (its own process
 *	group; the file owner's uid, gid and groups; a clean environment) and
 *	records run/NAME/pid, then waits for it, kills what is left of its
 *	process group and records run/NAME/exit.  So whoever runs bf-apply next,
 *	after any crash, learns the truth from the lock and the two files:
 *	the lock held is a job running; free, an exit record is a job that
 *	ended; neither is a job never started, which is safe to start, since
 *	the pid record is written while the lock is held.
 *
 *	start() returns once the supervisor wrote the pid record: it closes
 *	a pipe then, and bf-apply reads it to the end (start_end(); the pipe
 *	is start_begin()'s token).  The job waits, before
 *	it execs, for the supervisor to have written that record: a job whose
 *	record could not be written (a full disk) never runs, since nothing
 *	could stop it later.  Its supervisor then reports "CODE reason" on
 *	the pipe, and start() fails with that code.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/fault.h"
#include "util/file.h"
#include "util/now.h"
#include "util/ydoc.h"

#include "apply/backend.h"
#include "run/launch.h"
#include "run/launcher.h"
#include "run/rundir.h"
#include "run/supervise.h"
#include "spool/history.h"

/*
 * A log of the name that is not the job's owner's is another job's (one
 * that ended before bf-apply moved logs with their runs, or one an admin
 * removed): never the new job's, whose reports its writer could fake.  It
 * goes to history/runs/TIME-NAME-uidUID.progress.log, kept, out of the way.
 */
static int
foreign_log(struct backend *b, int pfd, const char *name,
    const struct who *w, struct diag *d)
{
	char kept[JOB_NAME_MAX + 64];
	struct stat st;
	int hfd;

	if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    (S_ISREG(st.st_mode) && st.st_uid == w->uid))
		return 0;
	if ((hfd = history_subdir(b->sp, "runs", d)) < 0)
		return -1;
	snprintf(kept, sizeof kept, "%lld-%.*s-uid%ld.progress.log",
	    (long long)time(NULL), (int)(strlen(name) - 4), name,
	    (long)st.st_uid);
	if (renameat(pfd, name, hfd, kept) < 0 && errno != ENOENT) {
		int err = errno;
		close(hfd);
		return diag_errno(d, err, "unable to move %s/progress/%s, "
		    "another owner's, aside", b->sp->path, name);
	}
	fsync(hfd);
	fsync(pfd);
	close(hfd);
	log_warn("progress/%s: owned by uid %ld, not the job's owner; kept as "
	    "history/runs/%s", name, (long)st.st_uid, kept);
	return 0;
}

static int
progress_log(struct backend *b, const struct job *j, const struct who *w,
    struct diag *d)
{
	char name[JOB_NAME_MAX + 8];
	int pfd = spool_dirfd(b->sp, SPOOL_PROGRESS, d), fd;

	if (pfd < 0)
		return -1;
	snprintf(name, sizeof name, "%s.log", j->name);
	if (foreign_log(b, pfd, name, w, d) < 0)
		return -1;
	fd = openat(pfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600);
	if (fd < 0)
		return errno == EEXIST ? 0 : diag_errno(d, errno, "unable to "
		    "create %s/progress/%s", b->sp->path, name);
	if (geteuid() == 0 && fchown(fd, w->uid, w->gid) < 0) {
		int err = errno;
		close(fd);
		unlinkat(pfd, name, 0);
		return diag_errno(d, err, "unable to give %s/progress/%s to "
		    "uid %ld", b->sp->path, name, (long)w->uid);
	}
	close(fd);
	return 0;
}

/* The supervisor forked; *pipefd is the end it closes once it wrote pid. */
static int
spawn(struct backend *b, const struct launch *l, int rfd, const char *name,
    int *pipefd, struct diag *d)
{
	int lockfd, p[2];
	struct stat st;
	pid_t pid;

	/* 0600: a user able to open it could hold it and block a start. */
	lockfd = openat(rfd, RUNDIR_LOCK, O_RDWR | O_CREAT | O_NOFOLLOW |
	    O_NONBLOCK | O_CLOEXEC, 0600);
	if (lockfd < 0)
		return diag_errno(d, errno, "unable to open %s/run/%s/lock",
		    b->sp->path, name);
	if (fstat(lockfd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(lockfd);
		return diag_set(d, EX_DATAERR, "%s/run/%s/lock: not a regular "
		    "file", b->sp->path, name);
	}
	(void)fchmod(lockfd, 0600);
	if (flock(lockfd, LOCK_EX | LOCK_NB) < 0) {
		close(lockfd);
		return diag_set(d, EX_TEMPFAIL, "job %s is already running",
		    name);
	}
	if (pipe2(p, O_CLOEXEC) < 0) {
		int err = errno;
		close(lockfd);
		return diag_errno(d, err, "unable to start job %s", name);
	}
	/* bf-watch's launcher forks it (launcher.h); else this process. */
	if (b->launcher != NULL &&
	    launcher_send(b->launcher, l, rfd, lockfd, p[1]) == 0) {
		close(lockfd);
		close(p[1]);
		*pipefd = p[0];
		return 0;
	}
	if ((pid = fork()) < 0) {
		int err = errno;
		close(lockfd);
		close(p[0]);
		close(p[1]);
		return diag_errno(d, err, "unable to start job %s", name);
	}
	if (pid == 0) {
		struct supervisor_env env;
		close(p[0]);
		backend_supervisor_env(b, &env);
		supervise(&env, l, rfd, lockfd, p[1]);
	}
	close(lockfd);
	close(p[1]);
	*pipefd = p[0];
	return 0;
}

/* What the supervisor said on the pipe (nothing: the pid record is there). */
static int
spawn_wait(struct backend *b, int pipefd, const char *name, struct diag *d)
{
	char msg[512];
	ssize_t got = 0, r;
	int rfd, rc;

	fault_point("local-after-fork");
	while ((r = read(pipefd, msg + got, sizeof msg - 1 - (size_t)got)) != 0)
		if (r > 0)
			got += r;
		else if (errno != EINTR || got >= (ssize_t)sizeof msg - 1)
			break;
	close(pipefd);
	msg[got] = '\0';
	if (got > 0) {
		char *text;
		long code = strtol(msg, &text, 10);

		if (code <= 0 || code > 255 || *text != ' ')
			code = EX_OSERR;
		else
			text++;
		/* "run/NAME/FILE: ..." is named from the spool down. */
		if (strncmp(text, "run/", 4) == 0)
			return diag_set(d, (int)code, "%s/%s", b->sp->path,
			    text);
		return diag_set(d, (int)code, "%s", text);
	}
	rfd = rundir_open(b->sp, name);
	rc = rfd >= 0 && faccessat(rfd, RUNDIR_PID, F_OK,
	    AT_SYMLINK_NOFOLLOW) == 0;
	if (rfd >= 0)
		close(rfd);
	if (!rc)
		return diag_set(d, EX_OSERR, "job %s: the supervisor failed "
		    "(see %s/run/%s/output)", name, b->sp->path, name);
	return 0;
}

/*
 * A TCP port free on this host now, for the job's coordinator (BF_COORD):
 * the kernel's choice, given up at once, so another program may take it
 * before the coordinator binds it; the coordinator then fails to start and
 * the job fails, which says so in its output.
 */
static long
free_port(struct diag *d)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) < 0) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		return diag_errno(d, err, "unable to find a free TCP port for "
		    "the job's coordinator");
	}
	close(fd);
	return ntohs(a.sin_port);
}

static int
local_start_begin(struct backend *b, const struct job *j,
    const struct hostlist *hosts, int *token, struct diag *d)
{
	struct launch_site site;
	struct launch l;
	long port;
	int rfd, rc;

	if (backend_may_run(j, b->allow_root, d) < 0 ||
	    (port = free_port(d)) < 0)
		return -1;
	backend_launch_site(b, &site);
	if (launch_init(&l, &site, j, (long)hosts->n, port) < 0)
		return diag_errno(d, ENOMEM, "job %s", j->name);
	/* run/NAME/hosts is written: by the caller (backend.h). */
	if (progress_log(b, j, &l.who, d) < 0 ||
	    (rfd = rundir_make(b->sp, j->name, d)) < 0) {
		launch_free(&l);
		return -1;
	}
	/* Left by a start that crashed before its job ran. */
	unlinkat(rfd, RUNDIR_STOPPING, 0);
	unlinkat(rfd, RUNDIR_WORKERS, 0);
	fault_point("local-before-spawn");
	rc = spawn(b, &l, rfd, j->name, token, d);
	close(rfd);
	launch_free(&l);
	return rc;
}

static int
local_start_end(struct backend *b, const char *name, int token,
    struct diag *d)
{
	return spawn_wait(b, token, name, d);
}

static int
local_start(struct backend *b, const struct job *j,
    const struct hostlist *hosts, struct diag *d)
{
	int token;

	if (backend_write_hosts(b, j->name, hosts, j->slots_per_node, d) < 0 ||
	    local_start_begin(b, j, hosts, &token, d) < 0)
		return -1;
	return local_start_end(b, j->name, token, d);
}

static int
local_resize(struct backend *b, const struct job *j,
    const struct hostlist *hosts, struct diag *d)
{
	return backend_write_hosts(b, j->name, hosts, j->slots_per_node, d);
}

/*
 * The pid record's started and supervisor (0 when missing), read once per
 * run: known again by its stat (backend.h), for bf-watch asks this of
 * every run in every pass.
 */
static void
pid_record(struct backend *b, int rfd, const char *name,
    struct backend_status *st)
{
	struct run_seen *e = backend_seen(b, name);
	struct rundir_key k;
	struct rundir_record r;

	/* No stat (no such record): k is all zero, equal to nothing. */
	(void)rundir_key(rfd, RUNDIR_PID, &k);
	if (e != NULL && rundir_key_equal(&e->pid_key, &k)) {
		st->started = e->started;
		st->id = e->supervisor;
		return;
	}
	rundir_record_open(rfd, RUNDIR_PID, &r);
	if (rundir_record_key(&r, "started", &st->started) < 0)
		st->started = 0;
	if (rundir_record_key(&r, "supervisor", &st->id) < 0)
		st->id = 0;
	rundir_record_close(&r);
	if (e == NULL)
		return;
	/*
	 * Known by the stat from before the read (a change since, read);
	 * no stat, an inode 0: never equal, read again.
	 */
	e->pid_key = k;
	e->started = st->started;
	e->supervisor = st->id;
}

static int
local_status(struct backend *b, const char *name, struct backend_status *st,
    struct diag *d)
{
	int rfd = rundir_open(b->sp, name);

	(void)d;
	memset(st, 0, sizeof *st);
	st->code = -1;
	if (rfd < 0)
		return 0;
	pid_record(b, rfd, name, st);
	rundir_stopping_read(rfd, st->stopping, sizeof st->stopping,
	    &st->cancelled_by);
	if (rundir_locked(rfd))
		st->phase = BACKEND_RUNNING;
	else if (rundir_exit_read(rfd, &st->ended, &st->signal,
	    &st->code) == 0)
		st->phase = BACKEND_EXITED;
	else if (faccessat(rfd, RUNDIR_PID, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		st->phase = BACKEND_LOST;
	close(rfd);
	return 0;
}

/* Most jobs go at once: look every millisecond, then every 10. */
static int
wait_polling(int rfd, double seconds)
{
	struct timespec fast = { 0, 1000 * 1000 }, slow = { 0, 10000000 };
	long i, n = (long)(seconds * 100) + 50;

	for (i = 0; i < n; i++) {
		if (!rundir_locked(rfd))
			return 0;
		nanosleep(i < 50 ? &fast : &slow, NULL);
	}
	return -1;
}

/*
 * The lock free within seconds: 0, else -1.  The supervisor holds it
 * while it lives and frees it once its exit record is written, so a
 * pidfd (pidfd_open(2)) says when it ended, without a polling delay, and
 * an inotify(7) watch of run/NAME (dir) says when the record came, before
 * the supervisor's own teardown (1 to 2 ms on a virtual machine): then
 * the lock is looked at every 0.1 ms, 500 times at most (a record left
 * by an earlier run is not spun on), then at the pidfd.  The pidfd is
 * opened before the lock is looked at: the lock held then, the pid is
 * the supervisor's, alive, not a reused one.  Without a pidfd (a kernel
 * before 5.3), or with the lock still held once it exited (a process it
 * left), wait_polling().
 */
#define WAIT_SPINS_MAX	500

static int
wait_free(int rfd, const char *dir, double seconds)
{
	static const struct timespec soon = { 0, 100 * 1000 };
	double until = now_mono() + seconds, left;
	struct pollfd p[2];
	struct timespec ts;
	long long pid;
	int pfd = -1, ifd = -1, exited = 0, recorded = 0, spins = 0, k;
	char events[4096];

	if (rundir_record_get(rfd, RUNDIR_PID, "supervisor", &pid) == 0 &&
	    pid > 1 && pid < INT_MAX)
		pfd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
	if (pfd < 0)
		return wait_polling(rfd, seconds);
	/* The watch first, then the record looked for: none is missed. */
	if (dir[0] != '\0' && (ifd = inotify_init1(IN_NONBLOCK |
	    IN_CLOEXEC)) >= 0 && inotify_add_watch(ifd, dir, IN_MOVED_TO) < 0) {
		close(ifd);
		ifd = -1;
	}
	recorded = ifd >= 0 && faccessat(rfd, RUNDIR_EXIT, F_OK,
	    AT_SYMLINK_NOFOLLOW) == 0;
	while (rundir_locked(rfd) && !exited &&
	    (left = until - now_mono()) > 0) {
		p[0] = (struct pollfd){ pfd, POLLIN, 0 };
		p[1] = (struct pollfd){ ifd, POLLIN, 0 };
		if (recorded && spins < WAIT_SPINS_MAX)
			ts = soon;
		else {
			if (left > 3600)
				left = 3600;
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		}
		k = ppoll(p, ifd >= 0 ? 2 : 1, &ts, NULL);
		spins += recorded && k == 0;
		exited = (k > 0 && p[0].revents != 0) ||
		    (k < 0 && errno != EINTR);
		if (k > 0 && ifd >= 0 && p[1].revents != 0) {
			while (read(ifd, events, sizeof events) > 0)
				;
			recorded = faccessat(rfd, RUNDIR_EXIT, F_OK,
			    AT_SYMLINK_NOFOLLOW) == 0;
		}
	}
	close(pfd);
	if (ifd >= 0)
		close(ifd);
	left = until - now_mono();
	return wait_polling(rfd, left > 0 ? left : 0);
}

/*
 * The job's command and, with SIGKILL, its running workers, each a
 * process group.  Their SIGTERM is the supervisor's to send: it sees the
 * stopping record (and only it knows how to signal a Slurm step).
 */
static void
signal_job(int rfd, pid_t pgid, int sig)
{
	pid_t groups[4096];
	size_t n = sig == SIGKILL ? rundir_worker_groups(rfd, groups,
	    4096) : 0, i;

	kill(-pgid, sig);
	for (i = 0; i < n; i++)
		kill(-groups[i], sig);
}

/*
 * The stopping record (why, known before the job ends, whatever happens
 * next), then SIGTERM to the command; the supervisor sees the record and
 * gives the workers theirs.  rfd is run/NAME; *pgid the group, 0 if none.
 */
static int
term(struct backend *b, int rfd, const char *why, long long *pgid,
    struct diag *d)
{
	int tmpfd = spool_dirfd(b->sp, SPOOL_TMP, d);

	*pgid = 0;
	if (tmpfd < 0)
		return -1;
	/* "cancel:UID" is a cancel, and who asked for it. */
	if (rundir_stopping_write(tmpfd, rfd, why, d) < 0)
		return -1;
	if (rundir_locked(rfd) &&
	    rundir_record_get(rfd, RUNDIR_PID, "pgid", pgid) == 0 && *pgid > 1)
		signal_job(rfd, (pid_t)*pgid, SIGTERM);
	else
		*pgid = 0;
	return 0;
}

int
backend_local_stop_begin(struct backend *b, const char *name, const char *why,
    struct diag *d)
{
	long long pgid;
	int rfd = rundir_open(b->sp, name), rc;

	if (rfd < 0)
		return 0;
	rc = term(b, rfd, why, &pgid, d);
	close(rfd);
	return rc;
}

static int
local_stop(struct backend *b, const char *name, const char *why,
    struct diag *d)
{
	double wait = b->grace;
	long long pgid;
	int rfd = rundir_open(b->sp, name), rc = 0;
	char dir[PATH_MAX + JOB_NAME_MAX + 8];

	if (rfd < 0)
		return 0;
	snprintf(dir, sizeof dir, "%s/run/%s", b->spool_abs, name);
	if (dir[0] != '/')	/* no absolute path: the pidfd alone */
		dir[0] = '\0';
	/*
	 * Stopped with others, the job had its notice
	 * (backend_local_stop_begin(): the record and SIGTERM) unless that
	 * failed: not written twice.
	 */
	if (b->stop_since > 0 && strncmp(why, "cancel:", 7) != 0 &&
	    rundir_record_get(rfd, RUNDIR_STOPPING, why, &pgid) == 0) {
		if (!rundir_locked(rfd) || rundir_record_get(rfd, RUNDIR_PID,
		    "pgid", &pgid) < 0 || pgid <= 1)
			pgid = 0;
	} else if (term(b, rfd, why, &pgid, d) < 0) {
		close(rfd);
		return -1;
	}
	/* Stopped with others: the grace runs since their common notice. */
	if (b->stop_since > 0)
		wait = b->stop_since + b->grace - now_mono();
	if (pgid > 1) {
		fault_point("local-after-term");
		if (wait_free(rfd, dir, wait > 0 ? wait : 0) < 0) {
			signal_job(rfd, (pid_t)pgid, SIGKILL);
			if (wait_free(rfd, dir, 5) < 0)
				rc = diag_set(d, EX_TEMPFAIL, "job %s did not "
				    "stop", name);
		}
	}
	close(rfd);
	return rc;
}

static int
local_retire(struct backend *b, const char *name, const char *stem,
    struct diag *d)
{
	long long pgid;
	int rfd = rundir_open(b->sp, name), hfd;

	if (rfd < 0)
		return 0;
	/* Lost: whatever of it may still run goes, since its nodes do. */
	if (!rundir_locked(rfd) && faccessat(rfd, RUNDIR_EXIT, F_OK, 0) < 0 &&
	    rundir_record_get(rfd, RUNDIR_PID, "pgid", &pgid) == 0 && pgid > 1)
		signal_job(rfd, (pid_t)pgid, SIGKILL);
	close(rfd);
	if ((hfd = history_subdir(b->sp, "runs", d)) < 0)
		return -1;
	if (renameat(b->sp->dirs[SPOOL_RUN], name, hfd, stem) < 0 &&
	    errno != ENOENT) {
		int err = errno;
		close(hfd);
		return diag_errno(d, err, "unable to move %s/run/%s to "
		    "history/runs/%s", b->sp->path, name, stem);
	}
	fsync(hfd);
	fsync(b->sp->dirs[SPOOL_RUN]);
	close(hfd);
	return 0;
}

const struct backend_ops backend_local = {
	"local", local_start, local_resize, local_stop, local_status,
	local_retire, NULL, local_start_begin, local_start_end,
};
