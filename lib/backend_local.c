/*
 * NAME
 *	backend_local - run jobs on this machine, each under a supervisor
 * DESCRIPTION
 *	See backend.h.  start() forks a supervisor, in a session of its own,
 *	that holds an exclusive flock(2) on run/NAME/lock for as long as it
 *	lives.  The supervisor forks the job (its own process group; the
 *	file owner's uid, gid and groups; a clean environment) and records
 *	run/NAME/pid, then waits for it, kills what is left of its process
 *	group and records run/NAME/exit.  So whoever runs bf-apply next,
 *	after any crash, learns the truth from the lock and the two files:
 *	the lock held is a job running; free, an exit record is a job that
 *	ended; neither is a job never started, which is safe to start, since
 *	the pid record is written while the lock is held.
 *
 *	start() returns once the supervisor wrote the pid record: it closes
 *	a pipe then, and bf-apply reads it to the end.  The job waits, before
 *	it execs, for the supervisor to have written that record: a job whose
 *	record could not be written (a full disk) never runs, since nothing
 *	could stop it later.  Its supervisor then reports "CODE reason" on
 *	the pipe, and start() fails with that code.
 */
#define _GNU_SOURCE		/* close_range, initgroups, setgroups */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "fault.h"
#include "file.h"
#include "history.h"
#include "ydoc.h"

#define ENV_MAX	16

struct who {
	uid_t uid;
	gid_t gid;
	char name[256], home[PATH_MAX];
	int known;		/* in the password database */
};

struct launch {
	const char *name;
	char *argv[4];
	char *envp[ENV_MAX];
	char env[ENV_MAX][2 * PATH_MAX];
	struct who who;
};

static void
who_of(uid_t uid, struct who *w)
{
	struct passwd *pw = getpwuid(uid);

	memset(w, 0, sizeof *w);
	w->uid = uid;
	/* A uid without a passwd entry: its own gid, no groups, home /. */
	w->gid = pw ? pw->pw_gid : (gid_t)uid;
	w->known = pw != NULL;
	snprintf(w->name, sizeof w->name, "%s", pw ? pw->pw_name : "");
	snprintf(w->home, sizeof w->home, "%s", pw && pw->pw_dir[0] ?
	    pw->pw_dir : "/");
}

static void __attribute__((format(printf, 3, 4)))
env_add(struct launch *l, size_t *n, const char *fmt, ...)
{
	va_list ap;

	if (*n >= ENV_MAX - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(l->env[*n], sizeof l->env[*n], fmt, ap);
	va_end(ap);
	l->envp[*n] = l->env[*n];
	l->envp[++*n] = NULL;
}

static void
launch_init(struct launch *l, struct backend *b, const struct job *j,
    long nodes)
{
	size_t n = 0;

	memset(l, 0, sizeof *l);
	l->name = j->name;
	who_of((uid_t)j->owner_uid, &l->who);
	l->argv[0] = "sh";
	l->argv[1] = "-c";
	l->argv[2] = j->command;
	env_add(l, &n, "PATH=/usr/local/bin:/usr/bin:/bin");
	env_add(l, &n, "HOME=%s", l->who.home);
	env_add(l, &n, "SHELL=/bin/sh");
	if (l->who.known) {
		env_add(l, &n, "USER=%s", l->who.name);
		env_add(l, &n, "LOGNAME=%s", l->who.name);
	}
	env_add(l, &n, "BF_JOB=%s", j->name);
	env_add(l, &n, "BF_NODES=%ld", nodes);
	env_add(l, &n, "BF_SLOTS=%ld", j->slots_per_node);
	env_add(l, &n, "BF_SPOOL=%s", b->spool_abs);
	env_add(l, &n, "BF_HOSTFILE=%s/run/%s/hosts", b->spool_abs, j->name);
	env_add(l, &n, "BF_PROGRESS=%s/progress/%s.log", b->spool_abs,
	    j->name);
}

/* Become the job's user for good; as that user already, nothing to do. */
static int
drop_privileges(const struct who *w)
{
	if (geteuid() != 0)
		return geteuid() == w->uid ? 0 : -1;
	if (w->known ? initgroups(w->name, w->gid) : setgroups(0, NULL))
		return -1;
	if (setgid(w->gid) < 0 || setuid(w->uid) < 0)
		return -1;
	if (w->uid != 0 && setuid(0) == 0)
		return -1;
	return 0;
}

static void
reset_signals(void)
{
	sigset_t all;
	int s;

	for (s = 1; s < NSIG; s++)
		signal(s, SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
}

static _Noreturn void
job_child(const struct launch *l, int go)
{
	char c = 0;
	ssize_t r;

	setpgid(0, 0);
	/* Not before the supervisor recorded us: end of file is "never". */
	do
		r = read(go, &c, 1);
	while (r < 0 && errno == EINTR);
	if (r != 1 || c != 'g')
		_exit(125);
	close(go);
	reset_signals();
	if (drop_privileges(&l->who) < 0) {
		fprintf(stderr, "bf-apply: unable to become uid %ld: %s\n",
		    (long)l->who.uid, strerror(errno));
		_exit(126);
	}
	if (chdir(l->who.home) < 0 && chdir("/") < 0)
		_exit(126);
	execve("/bin/sh", l->argv, l->envp);
	fprintf(stderr, "bf-apply: unable to run /bin/sh: %s\n",
	    strerror(errno));
	_exit(127);
}

/* Keep only the descriptors the supervisor needs (sorted ascending). */
static void
close_others(const int *keep, size_t n)
{
	unsigned lo = 3;
	size_t i;

	for (i = 0; i < n; i++) {
		if ((unsigned)keep[i] > lo)
			close_range(lo, (unsigned)keep[i] - 1, 0);
		if ((unsigned)keep[i] + 1 > lo)
			lo = (unsigned)keep[i] + 1;
	}
	close_range(lo, ~0U, 0);
}

static int
int_cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int
record(int tmpfd, int rfd, const char *job, const char *name,
    const char *text, struct diag *d)
{
	if (file_write_atomic(tmpfd, rfd, name, text, strlen(text), 0644, 0,
	    d) < 0)
		return diag_prefix(d, "run/%s/%s: ", job, name);
	return 0;
}

/* The supervisor's failure, as "CODE reason" on the pipe to start(). */
static _Noreturn void
supervisor_fail(int pw, const struct diag *d)
{
	char msg[DIAG_MAX + 16];
	int n = snprintf(msg, sizeof msg, "%d %s", d->code, d->text);

	if (n > 0)
		(void)!write(pw, msg, (size_t)n < sizeof msg ? (size_t)n :
		    sizeof msg - 1);
	_exit(1);
}

/* Standard input /dev/null; output and error run/NAME/output, the job's. */
static int
std_fds(int rfd, const struct launch *l, const char *job, struct diag *d)
{
	int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	/* O_NONBLOCK: a FIFO planted there must not hold us. */
	int out = openat(rfd, "output", O_WRONLY | O_CREAT | O_APPEND |
	    O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	struct stat st;

	/* Never bf-apply's own output: a job that cannot keep it waits. */
	if (in < 0)
		return diag_errno(d, errno, "unable to open /dev/null");
	if (out < 0 && errno == ELOOP)
		return diag_set(d, EX_DATAERR, "run/%s/output: is a symbolic "
		    "link, not followed", job);
	if (out < 0)
		return diag_errno(d, errno, "unable to open run/%s/output",
		    job);
	if (fstat(out, &st) < 0 || !S_ISREG(st.st_mode))
		return diag_set(d, EX_DATAERR, "run/%s/output: not a regular "
		    "file", job);
	(void)fcntl(out, F_SETFL, O_APPEND);
	dup2(in, 0);
	dup2(out, 1);
	dup2(out, 2);
	/* Failing, it is still the job's output, only less readable. */
	if (geteuid() == 0 && fchown(out, l->who.uid, l->who.gid) < 0)
		fprintf(stderr, "bf-apply: unable to give the output to uid "
		    "%ld: %s\n", (long)l->who.uid, strerror(errno));
	if (in > 2)
		close(in);
	if (out > 2)
		close(out);
	return 0;
}

static _Noreturn void
supervise(struct backend *b, const struct launch *l, int rfd, int lockfd,
    int pw)
{
	int keep[4] = { rfd, lockfd, pw, b->sp->dirs[SPOOL_TMP] }, status;
	int tmpfd = b->sp->dirs[SPOOL_TMP], go[2];
	char text[256];
	struct diag d;
	pid_t job;

	/* First the spool's lock, shared with the parent since fork(2). */
	if (b->sp->lockfd >= 0)
		close(b->sp->lockfd);
	setsid();
	signal(SIGHUP, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	qsort(keep, 4, sizeof *keep, int_cmp);
	close_others(keep, 4);
	diag_clear(&d);
	if (std_fds(rfd, l, l->name, &d) < 0)
		supervisor_fail(pw, &d);
	if (pipe2(go, O_CLOEXEC) < 0 || (job = fork()) < 0) {
		diag_errno(&d, errno, "unable to start job %s", l->name);
		supervisor_fail(pw, &d);
	}
	if (job == 0) {
		close(go[1]);
		job_child(l, go[0]);
	}
	close(go[0]);
	setpgid(job, job);
	snprintf(text, sizeof text, "supervisor: %ld\npgid: %ld\nstarted: "
	    "%lld\nuid: %ld\n", (long)getpid(), (long)job,
	    (long long)time(NULL), (long)l->who.uid);
	if (record(tmpfd, rfd, l->name, "pid", text, &d) < 0) {
		/*
		 * Unrecorded, it could never be stopped: it does not run.  A
		 * record in place whose directory sync failed goes too: the
		 * job it names never ran.
		 */
		(void)unlinkat(rfd, "pid", 0);
		close(go[1]);
		while (waitpid(job, &status, 0) < 0 && errno == EINTR)
			;
		supervisor_fail(pw, &d);
	}
	(void)!write(go[1], "g", 1);
	close(go[1]);
	close(pw);
	while (waitpid(job, &status, 0) < 0 && errno == EINTR)
		;
	/* The job is over when its leader is: nothing of it may stay. */
	kill(-job, SIGKILL);
	if (WIFSIGNALED(status))
		snprintf(text, sizeof text, "signal: %d\nended: %lld\n",
		    WTERMSIG(status), (long long)time(NULL));
	else
		snprintf(text, sizeof text, "code: %d\nended: %lld\n",
		    WEXITSTATUS(status), (long long)time(NULL));
	/* Unwritten, the run is found "lost" and its job file kept. */
	if (record(tmpfd, rfd, l->name, "exit", text, &d) < 0)
		fprintf(stderr, "bf-apply: %s\n", d.text);
	_exit(0);
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

static int
spawn(struct backend *b, const struct launch *l, int rfd, const char *name,
    struct diag *d)
{
	char msg[512];
	int lockfd, p[2];
	ssize_t got = 0, r;
	struct stat st;
	pid_t pid;

	/* 0600: a user able to open it could hold it and block a start. */
	lockfd = openat(rfd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW |
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
	if (pipe2(p, O_CLOEXEC) < 0 || (pid = fork()) < 0) {
		int err = errno;
		close(lockfd);
		return diag_errno(d, err, "unable to start job %s", name);
	}
	if (pid == 0) {
		close(p[0]);
		supervise(b, l, rfd, lockfd, p[1]);
	}
	close(lockfd);
	close(p[1]);
	fault_point("local-after-fork");
	while ((r = read(p[0], msg + got, sizeof msg - 1 - (size_t)got)) != 0)
		if (r > 0)
			got += r;
		else if (errno != EINTR || got >= (ssize_t)sizeof msg - 1)
			break;
	close(p[0]);
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
	if (faccessat(rfd, "pid", F_OK, AT_SYMLINK_NOFOLLOW) < 0)
		return diag_set(d, EX_OSERR, "job %s: the supervisor failed "
		    "(see %s/run/%s/output)", name, b->sp->path, name);
	return 0;
}

static int
local_start(struct backend *b, const struct job *j,
    const struct hostlist *hosts, struct diag *d)
{
	struct launch l;
	int rfd, rc;

	if (backend_may_run(j, b->allow_root, d) < 0)
		return -1;
	launch_init(&l, b, j, (long)hosts->n);
	if (backend_write_hosts(b, j->name, hosts, j->slots_per_node, d) < 0 ||
	    progress_log(b, j, &l.who, d) < 0 ||
	    (rfd = backend_run_dir(b, j->name, d)) < 0)
		return -1;
	/* Left by a start that crashed before its job ran. */
	unlinkat(rfd, "stopping", 0);
	fault_point("local-before-spawn");
	rc = spawn(b, &l, rfd, j->name, d);
	close(rfd);
	return rc;
}

static int
local_resize(struct backend *b, const struct job *j,
    const struct hostlist *hosts, struct diag *d)
{
	return backend_write_hosts(b, j->name, hosts, j->slots_per_node, d);
}

/* The lock held by a live supervisor: 1; free: 0. */
static int
lock_held(int rfd)
{
	int fd = openat(rfd, "lock", O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC), held;

	if (fd < 0)
		return 0;
	held = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

/* key: number, from one of the small records in run/NAME/. */
static int
record_get(int rfd, const char *file, const char *key, long long *out)
{
	const struct ydoc_node *v;
	struct ydoc doc;
	struct diag d;
	char *buf;
	size_t len;
	int rc = -1;

	if (file_read_at(rfd, file, 4096, FILE_NOFOLLOW, &buf, &len, &d) < 0)
		return -1;
	if (ydoc_load(&doc, file, buf, len, &d) == 0) {
		if (doc.root != NULL && doc.root->kind == YDOC_MAPPING &&
		    (v = ydoc_get(doc.root, key)) != NULL &&
		    ydoc_long(&doc, v, key, -(1LL << 40), 1LL << 40, out,
		    &d) == 0)
			rc = 0;
		ydoc_free(&doc);
	}
	free(buf);
	return rc;
}

static int
local_status(struct backend *b, const char *name, struct backend_status *st,
    struct diag *d)
{
	long long v;
	int rfd = backend_open_run(b, name);

	(void)d;
	memset(st, 0, sizeof *st);
	st->code = -1;
	if (rfd < 0)
		return 0;
	if (record_get(rfd, "pid", "started", &st->started) < 0)
		st->started = 0;
	if (record_get(rfd, "pid", "supervisor", &st->id) < 0)
		st->id = 0;
	if (record_get(rfd, "stopping", "plan", &v) == 0)
		snprintf(st->stopping, sizeof st->stopping, "plan");
	else if (record_get(rfd, "stopping", "done", &v) == 0)
		snprintf(st->stopping, sizeof st->stopping, "done");
	if (lock_held(rfd))
		st->phase = BACKEND_RUNNING;
	else if (record_get(rfd, "exit", "ended", &st->ended) == 0) {
		st->phase = BACKEND_EXITED;
		if (record_get(rfd, "exit", "signal", &v) == 0)
			st->signal = (int)v;
		else if (record_get(rfd, "exit", "code", &v) == 0)
			st->code = (int)v;
	} else if (faccessat(rfd, "pid", F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		st->phase = BACKEND_LOST;
	close(rfd);
	return 0;
}

/* Most jobs go at once: look every millisecond, then every 10. */
static int
wait_free(int rfd, double seconds)
{
	struct timespec fast = { 0, 1000 * 1000 }, slow = { 0, 10000000 };
	long i, n = (long)(seconds * 100) + 50;

	for (i = 0; i < n; i++) {
		if (!lock_held(rfd))
			return 0;
		nanosleep(i < 50 ? &fast : &slow, NULL);
	}
	return -1;
}

static int
local_stop(struct backend *b, const char *name, const char *why,
    struct diag *d)
{
	char text[64];
	long long pgid;
	int rfd = backend_open_run(b, name), tmpfd, rc = 0;

	if (rfd < 0 || (tmpfd = spool_dirfd(b->sp, SPOOL_TMP, d)) < 0) {
		if (rfd >= 0)
			close(rfd);
		return rfd < 0 ? 0 : -1;
	}
	/* Why it stops is known before it does, whatever happens next. */
	snprintf(text, sizeof text, "%s: 1\n", why);
	if (file_write_atomic(tmpfd, rfd, "stopping", text, strlen(text),
	    0644, 0, d) < 0) {
		close(rfd);
		return -1;
	}
	if (lock_held(rfd) && record_get(rfd, "pid", "pgid", &pgid) == 0 &&
	    pgid > 1) {
		kill(-(pid_t)pgid, SIGTERM);
		fault_point("local-after-term");
		if (wait_free(rfd, b->grace) < 0) {
			kill(-(pid_t)pgid, SIGKILL);
			if (wait_free(rfd, 5) < 0)
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
	int rfd = backend_open_run(b, name), hfd;

	if (rfd < 0)
		return 0;
	/* Lost: whatever of it may still run goes, since its nodes do. */
	if (!lock_held(rfd) && faccessat(rfd, "exit", F_OK, 0) < 0 &&
	    record_get(rfd, "pid", "pgid", &pgid) == 0 && pgid > 1)
		kill(-(pid_t)pgid, SIGKILL);
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
	local_retire,
};
