/*
 * NAME
 *	supervise - the process that runs one job: its command, its workers
 * DESCRIPTION
 *	See supervise.h.  The supervisor is single-threaded and waits with
 *	sigtimedwait(2) on SIGCHLD (blocked), so a child's end is seen at
 *	once and the hosts file at least every SUPERVISE_TICK.  Every
 *	worker is the leader of its own process group: a signal to the group
 *	reaches the shell, srun, ssh or the runtime and all they started, and no
 *	other worker's.
 * DIAGNOSTICS
 *	The supervisor's own failures before the job runs go to start() as
 *	"CODE reason" on its pipe; later ones are lines in run/NAME/output.
 */
#define _GNU_SOURCE		/* close_range, initgroups, execvpe */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <math.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/array.h"
#include "util/cmdout.h"
#include "util/fault.h"
#include "util/file.h"
#include "util/now.h"
#include "util/proc.h"

#include "run/launch.h"
#include "run/pilot.h"
#include "run/rundir.h"
#include "run/supervise.h"
#include "run/who.h"

#define RESTART_DELAY_MAX	30.0	/* seconds */

/*
 * What the shell runs: the command itself is in the environment.  dash
 * forks a command line's last command instead of replacing itself, so a
 * command written without exec runs under this shell.  On SIGTERM the
 * shell waits for that command to end (a trapped signal is acted on once
 * the foreground command is over), then ends by SIGTERM all the same:
 * ended at once, it would leave the command an orphan, out of a Slurm
 * step's process tree (proctrack/linuxproc), and its end would be the
 * job's, whose group the supervisor then kills before the command saved
 * its work.  No single quote: a PBS worker's command is quoted in them.
 */
static char eval_command[] = "trap \"trap - TERM; kill -TERM \\$\\$\" TERM; "
    "eval \"$BF_COMMAND\"";

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

/* In a new child: its own group, the owner's uid, HOME, then argv. */
static _Noreturn void
become_and_exec(const struct launch *l, char *const argv[], char **envp)
{
	reset_signals();
	if (who_become(&l->who) < 0) {
		fprintf(stderr, "bf-apply: unable to become uid %ld: %s\n",
		    (long)l->who.uid, strerror(errno));
		_exit(126);
	}
	if (chdir(l->who.home) < 0 && chdir("/") < 0)
		_exit(126);
	execvpe(argv[0], argv, envp);
	fprintf(stderr, "bf-apply: unable to run %s: %s\n", argv[0],
	    strerror(errno));
	_exit(127);
}

/* The job's command: the shell, as the job's owner. */
static _Noreturn void
job_exec(const struct launch *l)
{
	char *argv[] = { "/bin/sh", "-c", eval_command, NULL };

	become_and_exec(l, argv, (char **)l->envp);
}

static _Noreturn void
job_child(const struct launch *l, int go)
{
	ssize_t r;
	char c = 0;

	setpgid(0, 0);
	/* Not before the supervisor recorded us: end of file is "never". */
	do
		r = read(go, &c, 1);
	while (r < 0 && errno == EINTR);
	if (r != 1 || c != 'g')
		_exit(125);
	close(go);
	job_exec(l);
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
	int out = openat(rfd, RUNDIR_OUTPUT, O_WRONLY | O_CREAT | O_APPEND |
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

/* The workers' side of the supervisor. */

enum wstate { W_RUNNING, W_STOPPING, W_WAITING, W_DONE, W_FAILED };

static const char *const wstate_name[] = { "running", "stopping", "waiting",
	"done", "failed" };

struct worker {
	char host[HOSTLIST_MAX_NAME + 1];
	pid_t pid;		/* 0: none runs */
	int held;		/* in run/NAME/hosts */
	enum wstate st;
	long restarts;		/* used in this stay of the host */
	double start_at;	/* W_WAITING: when */
	double kill_at;		/* W_STOPPING: SIGKILL then */
	char pilot[PILOT_ID_MAX];	/* the pilot job it runs in, or "" */
};

struct sup {
	const struct launch *l;
	int rfd, tmpfd;
	size_t n, cap;
	struct worker *w;
	size_t nheld;
	ino_t hosts_ino;	/* of the hosts file last read */
	struct timespec hosts_mtime;
	int changed;		/* the workers file is to be written */
	int ending;		/* the command ended: workers go */
	int stopping;		/* run/NAME/stopping seen: workers go */
};

static void
wlog(struct sup *s, const char *what, const struct worker *w, long long pid,
    const char *why)
{
	char line[512];
	int fd = openat(s->rfd, RUNDIR_WORKERS_LOG, O_WRONLY | O_CREAT |
	    O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644), n;

	if (fd < 0)
		return;
	n = snprintf(line, sizeof line, "%lld %s %s %lld%s%s\n",
	    (long long)time(NULL), what, w->host, pid, why ? " " : "",
	    why ? why : "");
	if (n > 0 && write(fd, line, (size_t)n) < 0)
		n = 0;
	close(fd);
}

static int
worker_cmp(const void *a, const void *b)
{
	return hostlist_cmp_names(((const struct worker *)a)->host,
	    ((const struct worker *)b)->host);
}

static void
save_workers(struct sup *s)
{
	char *buf = NULL;
	size_t size = 0, i;
	FILE *fp;
	struct diag d;

	if (!s->changed)
		return;
	s->changed = 0;
	if (s->n > 1)
		qsort(s->w, s->n, sizeof *s->w, worker_cmp);
	if ((fp = open_memstream(&buf, &size)) == NULL)
		return;
	for (i = 0; i < s->n; i++)
		fprintf(fp, "%s %ld %ld %s\n", s->w[i].host, (long)s->w[i].pid,
		    s->w[i].restarts, wstate_name[s->w[i].st]);
	if (ferror(fp) | fclose(fp)) {
		free(buf);
		return;
	}
	if (file_write_atomic(s->tmpfd, s->rfd, RUNDIR_WORKERS, buf, size,
	    0644, 0, &d) < 0)
		fprintf(stderr, "bf-apply: run/%s/workers: %s\n", s->l->name,
		    d.text);
	free(buf);
}

static struct worker *
find_worker(struct sup *s, const char *host)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->w[i].host, host) == 0)
			return &s->w[i];
	return NULL;
}

static struct worker *
add_worker(struct sup *s, const char *host)
{
	struct worker *w;

	if ((w = array_grow(s->w, &s->cap, s->n + 1, sizeof *w, 16)) == NULL)
		return NULL;
	s->w = w;
	w = &s->w[s->n++];
	memset(w, 0, sizeof *w);
	snprintf(w->host, sizeof w->host, "%s", host);
	return w;
}

static void
worker_start(struct sup *s, struct worker *w)
{
	const struct launch *l = s->l;
	char *sh[] = { "/bin/sh", "-c", eval_command, NULL };
	char pilot[PILOT_ID_MAX] = "";
	struct pilot_argv a = { .n = 0 };
	pid_t pid;

	if (l->pilot != NULL && (pilot_of(s->rfd, w->host, pilot) < 0 ||
	    l->pilot->worker(&a, pilot, w->host, l->name, eval_command) < 0)) {
		/* Its pilot is not recorded yet: the backend writes it first. */
		w->st = W_WAITING;
		w->start_at = now_mono() + 1;
		return;
	}
	if ((pid = fork()) < 0) {
		w->st = W_WAITING;
		w->start_at = now_mono() + 1;
		return;
	}
	if (pid == 0) {
		char **envp = calloc(LAUNCH_ENV_MAX + 2, sizeof *envp);
		size_t n = l->nenv, i;

		setpgid(0, 0);
		if (envp == NULL)
			_exit(127);
		for (i = 0; i < n; i++)
			envp[i] = strdup(l->envp[i]);
		if (launch_env_set(envp, &n, "BF_COMMAND=%s", l->worker) < 0 ||
		    launch_env_set(envp, &n, "BF_HOST=%s", w->host) < 0 ||
		    launch_env_set(envp, &n, "BF_NODES=%zu", s->nheld) < 0)
			_exit(127);
		become_and_exec(l, l->pilot != NULL ? a.argv : sh, envp);
	}
	setpgid(pid, pid);
	w->pid = pid;
	snprintf(w->pilot, sizeof w->pilot, "%s", pilot);
	w->st = W_RUNNING;
	w->kill_at = w->start_at = 0;
	s->changed = 1;
	wlog(s, "start", w, pid, l->pilot != NULL ? pilot : NULL);
}

/*
 * A signal to the worker.  Inside a pilot, the worker's process here is
 * the scheduler's client (srun, ssh), which would answer SIGTERM by
 * ending the worker at once (srun kills the step's tasks with SIGKILL,
 * ssh drops the session): so its notice comes from the scheduler (scancel
 * --signal, qsig), which delivers it inside the pilot and spares the
 * pilot itself, the node staying held until bf-apply cancels the pilot;
 * SIGKILL goes to the client as well.  The signalling command is reaped
 * with the other children; it runs under a child of its own that gives it
 * cmdout_timeout() seconds (BF_SCHED_TIMEOUT, as every scheduler command),
 * then kills its process group and says so, so that a server that does
 * not answer leaves no command behind.
 */
static _Noreturn void
signal_command(char *const argv[])
{
	struct proc p = { argv, NULL, NULL, 0, PROC_INHERIT, PROC_INHERIT,
	    NULL, NULL };
	struct proc_out o;
	struct diag d;
	double t = cmdout_timeout();
	const char *what = argv[0];
	int status, late;
	size_t n;

	/* A shell's script (PBS's notice): named by its first word. */
	if (argv[1] != NULL && strcmp(argv[1], "-c") == 0 && argv[2] != NULL) {
		what = argv[2];
		n = strcspn(what, " ");
	} else
		n = strlen(what);
	reset_signals();
	if (proc_run_bounded(&p, t, 0, &status, &o, &d) < 0) {
		fprintf(stderr, "bf-apply: %s\n", d.text);
		_exit(127);
	}
	late = o.timedout;
	proc_out_free(&o);
	if (late) {
		fprintf(stderr, "bf-apply: %.*s: no answer in %g s "
		    "(BF_SCHED_TIMEOUT); killed\n", (int)n, what, t);
		_exit(124);
	}
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128);
}

static void
worker_signal(struct worker *w, const struct pilot_exec *pilot, int sig)
{
	struct pilot_argv a = { .n = 0 };

	if (pilot != NULL && w->pilot[0] != '\0' &&
	    pilot->signal(&a, w->pilot, sig) > 0 && fork() == 0)
		signal_command(a.argv);
	if (pilot == NULL || sig == SIGKILL)
		kill(-w->pid, sig);
	if (pilot == NULL && sig == SIGTERM)
		kill(-w->pid, SIGCONT);
}

static void
worker_term(struct sup *s, struct worker *w, double grace)
{
	if (w->pid <= 0 || w->st == W_STOPPING)
		return;
	worker_signal(w, s->l->pilot, SIGTERM);
	w->st = W_STOPPING;
	w->kill_at = now_mono() + grace;
	s->changed = 1;
	wlog(s, "term", w, w->pid, NULL);
}

/* Drop the records of hosts not held and without a worker. */
static void
forget_gone(struct sup *s)
{
	size_t i;

	for (i = s->n; i-- > 0;)
		if (!s->w[i].held && s->w[i].pid == 0) {
			s->w[i] = s->w[--s->n];
			s->changed = 1;
		}
}

/* Reads run/NAME/hosts when it was replaced; adds and ends workers. */
static void
read_hosts(struct sup *s)
{
	struct hostlist hl;
	struct stat st;
	struct diag d;
	struct worker *w;
	size_t i;

	if (fstatat(s->rfd, RUNDIR_HOSTS, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    (st.st_ino == s->hosts_ino && st.st_mtim.tv_sec ==
	    s->hosts_mtime.tv_sec && st.st_mtim.tv_nsec ==
	    s->hosts_mtime.tv_nsec))
		return;
	if (rundir_hosts_read(s->rfd, RUNDIR_HOSTS, &hl, &d) < 0)
		return;
	s->hosts_ino = st.st_ino;
	s->hosts_mtime = st.st_mtim;
	for (i = 0; i < s->n; i++)
		s->w[i].held = hostlist_contains(&hl, s->w[i].host);
	for (i = 0; i < hl.n; i++) {
		if ((w = find_worker(s, hl.names[i])) == NULL) {
			if ((w = add_worker(s, hl.names[i])) == NULL)
				continue;
			w->held = 1;
			w->st = W_WAITING;	/* started below, now */
			s->changed = 1;
		}
	}
	s->nheld = hl.n;
	hostlist_free(&hl);
	for (i = 0; i < s->n; i++) {
		w = &s->w[i];
		if (!w->held && w->pid > 0)
			worker_term(s, w, s->l->grace);
		else if (!w->held && w->st == W_WAITING) {
			w->st = W_DONE;
			s->changed = 1;
		}
	}
	forget_gone(s);
}

static void
describe(int status, char *buf, size_t size)
{
	if (WIFSIGNALED(status))
		snprintf(buf, size, "signal %d", WTERMSIG(status));
	else
		snprintf(buf, size, "exit %d", WEXITSTATUS(status));
}

/* A worker's leader ended: what is left of its group goes too. */
static void
worker_ended(struct sup *s, struct worker *w, int status)
{
	char why[32];
	double delay;

	describe(status, why, sizeof why);
	wlog(s, "exit", w, w->pid, why);
	kill(-w->pid, SIGKILL);
	w->pid = 0;
	w->kill_at = 0;
	s->changed = 1;
	if (s->ending || s->stopping || !w->held) {
		w->st = W_DONE;
		forget_gone(s);
		return;
	}
	if (w->st == W_STOPPING) {	/* left and came back: a new stay */
		w->st = W_WAITING;
		w->start_at = 0;
		w->restarts = 0;
		return;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		w->st = W_DONE;
		return;
	}
	if (w->restarts >= s->l->restarts) {
		w->st = W_FAILED;
		return;
	}
	delay = ldexp(1.0, (int)(w->restarts < 5 ? w->restarts : 5));
	w->restarts++;
	w->st = W_WAITING;
	w->start_at = now_mono() + (delay < RESTART_DELAY_MAX ? delay :
	    RESTART_DELAY_MAX);
}

/* Reaps every child that ended; 1 when it was the job's command. */
static int
reap(struct sup *s, pid_t job, int *job_status)
{
	int status, ended = 0;
	pid_t pid;
	size_t i;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (pid == job) {
			*job_status = status;
			ended = 1;
			continue;
		}
		for (i = 0; i < s->n; i++)
			if (s->w[i].pid == pid) {
				worker_ended(s, &s->w[i], status);
				break;
			}
	}
	return ended;
}

/* Signals and starts what is due; the time of the next thing due. */
static double
due(struct sup *s)
{
	double now = now_mono(), next = now + SUPERVISE_TICK;
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct worker *w = &s->w[i];
		if (w->st == W_STOPPING && w->pid > 0 && now >= w->kill_at) {
			worker_signal(w, s->l->pilot, SIGKILL);
			wlog(s, "kill", w, w->pid, NULL);
			w->kill_at = now + 3600;	/* once */
		} else if (w->st == W_WAITING && w->held && !s->ending &&
		    !s->stopping && now >= w->start_at)
			worker_start(s, w);
		if (w->st == W_WAITING && w->start_at < next &&
		    w->start_at > now)
			next = w->start_at;
		if (w->st == W_STOPPING && w->kill_at < next)
			next = w->kill_at;
	}
	return next;
}

static void
sleep_until(const sigset_t *chld, double until)
{
	double left = until - now_mono();
	struct timespec ts;

	if (left <= 0)
		return;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - floor(left)) * 1e9);
	(void)sigtimedwait(chld, NULL, &ts);
}

static int
any_running(const struct sup *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->w[i].pid > 0)
			return 1;
	return 0;
}

/*
 * The job's command runs: keep a worker on every held host until it ends,
 * then give every worker its notice and its grace.  The command's status.
 */
static int
run_job(struct sup *s, pid_t job, const sigset_t *chld)
{
	int status = 0;
	size_t i;

	for (;;) {
		if (reap(s, job, &status))
			break;
		if (s->l->worker != NULL)
			read_hosts(s);
		/* A stop: the workers' notice starts with the command's. */
		if (s->l->worker != NULL && !s->stopping && faccessat(s->rfd,
		    RUNDIR_STOPPING, F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
			s->stopping = 1;
			for (i = 0; i < s->n; i++)
				worker_term(s, &s->w[i], s->l->grace);
		}
		save_workers(s);
		sleep_until(chld, s->l->worker != NULL ? due(s) :
		    now_mono() + 3600);
	}
	/* The job is over when its command is: nothing of it may stay. */
	kill(-job, SIGKILL);
	s->ending = 1;
	for (i = 0; i < s->n; i++)
		worker_term(s, &s->w[i], s->l->grace);
	save_workers(s);
	while (any_running(s)) {
		double next = due(s);
		reap(s, job, &status);
		save_workers(s);
		if (any_running(s))
			sleep_until(chld, next);
	}
	save_workers(s);
	return status;
}

/* The parent of pid, from /proc/PID/stat; 0 when unknown. */
static pid_t
parent_of(const char *pid)
{
	char path[PATH_MAX], buf[512], *p;
	ssize_t n;
	int fd;
	long pp;

	snprintf(path, sizeof path, "/proc/%s/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* "PID (COMM) STATE PPID ...": COMM may hold anything but ends at
	 * the last ')'. */
	if ((p = strrchr(buf, ')')) == NULL || sscanf(p + 1, " %*c %ld",
	    &pp) != 1)
		return 0;
	return (pid_t)pp;
}

/*
 * Every process below this one, SIGKILLed until none is left.  The
 * supervisor is a child subreaper (PR_SET_CHILD_SUBREAPER), so what the job
 * started and left behind (setsid, a double fork, daemon(3)) is re-parented
 * to it, not to init: nothing started under the job gets out of its tree.
 * Called when the job is over, after its grace.
 */
struct swept {
	pid_t pid, ppid;
	int mine;		/* a child of the supervisor */
};

/* Every process of the machine with its parent; 0 when none could be read. */
static size_t
procs(struct swept **v, size_t *cap)
{
	struct swept *grown;
	struct dirent *e;
	size_t n = 0;
	DIR *dp;

	if ((dp = opendir("/proc")) == NULL)
		return 0;
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		if ((grown = array_grow(*v, cap, n + 1, sizeof **v, 256)) ==
		    NULL)
			break;
		*v = grown;
		(*v)[n].pid = (pid_t)atol(e->d_name);
		(*v)[n].ppid = parent_of(e->d_name);
		(*v)[n++].mine = 0;
	}
	closedir(dp);
	return n;
}

/*
 * Mark in v the processes below me by parent links (the children, theirs,
 * ...): 1 when there is one.  v is small and its parent links form a
 * forest, so a few passes mark every generation.
 */
static int
mark_below(struct swept *v, size_t n, pid_t me)
{
	size_t i, j;
	int more = 1, any = 0;

	for (i = 0; i < n; i++)
		v[i].mine = v[i].ppid == me;
	while (more) {
		more = 0;
		for (i = 0; i < n; i++) {
			if (v[i].mine)
				continue;
			for (j = 0; j < n && !v[i].mine; j++)
				if (v[j].mine && v[j].pid == v[i].ppid)
					v[i].mine = more = 1;
		}
	}
	for (i = 0; i < n; i++)
		any |= v[i].mine;
	return any;
}

/*
 * Everything the job left, ended: a process chain that forks a successor
 * whenever its parent dies would outrun a kill of one generation at a
 * time.  So every process below the supervisor (a subreaper: whatever
 * leaves the job's tree by a double fork or a new session is re-parented
 * to it, never to init) is stopped first (SIGSTOP cannot be caught or
 * ignored, and a stopped process forks nothing), the tree listed again
 * until a listing finds none not yet stopped, then all of it killed at
 * once and reaped.  Bounded: 200 rounds of 5 ms at most.
 */
static void
sweep(void)
{
	struct timespec tick = { 0, 5 * 1000 * 1000 };
	struct swept *v = NULL;
	pid_t me = getpid(), r;
	size_t n = 0, cap = 0, i, stopped = 0, seen;
	int round;

	while ((r = waitpid(-1, NULL, WNOHANG)) > 0)
		;
	/*
	 * No child at all: every descendant that lost its parent came to us
	 * before that parent's end was reaped, so none is left, and reading
	 * /proc (1 to 2 ms) is not needed.
	 */
	if (r < 0 && errno == ECHILD)
		return;
	for (round = 0; round < 200; round++) {
		n = procs(&v, &cap);
		if (!mark_below(v, n, me))
			break;
		for (i = seen = 0; i < n; i++)
			if (v[i].mine) {
				kill(v[i].pid, SIGSTOP);
				seen++;
			}
		/* The same tree twice, all stopped: nothing can fork now. */
		if (seen == stopped)
			break;
		stopped = seen;
		nanosleep(&tick, NULL);
	}
	for (i = 0; i < n; i++)
		if (v[i].mine)
			kill(v[i].pid, SIGKILL);
	for (round = 0; round < 200; round++) {
		while ((r = waitpid(-1, NULL, WNOHANG)) > 0)
			;
		if (r < 0 && errno == ECHILD)
			break;
		/* Those killed whose children came to us: killed too. */
		n = procs(&v, &cap);
		if (!mark_below(v, n, me))
			break;
		for (i = 0; i < n; i++)
			if (v[i].mine)
				kill(v[i].pid, SIGKILL);
		nanosleep(&tick, NULL);
	}
	free(v);
}

/*
 * The supervisor's own set-up, before any job: a session of its own, the
 * orphans of its job, the signals it takes, and only keep's descriptors.
 */
static void
supervisor_setup(const struct supervisor_env *env, const int *keep,
    size_t nkeep)
{
	sigset_t chld, stop;

	/* First the spool's lock, shared with the parent since fork(2). */
	if (env->spool_lockfd >= 0)
		close(env->spool_lockfd);
	setsid();
	/* What the job leaves behind comes back to us, not to init. */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	signal(SIGHUP, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	/*
	 * Blocked as well as ignored: a child forked from here (the job, a
	 * worker) inherits them pending, not discarded, until it resets its
	 * signals before its exec.  A stop's SIGTERM that comes between the
	 * job's fork and that reset so still ends it, whatever mask the
	 * process that forked the supervisor had.
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	proc_close_others(keep, nkeep);	/* only what the supervisor needs */
}

/* What lets the job's process, waiting on gate, go on to its exec. */
typedef int release_fn(int gate, void *arg);

/*
 * The job's process is forked and waits on gate: record it, let it go,
 * supervise it to its end and write the exit record.
 */
static _Noreturn void
supervise_job(const struct launch *l, int rfd, int lockfd, int pw,
    int tmpfd, pid_t job, int gate, release_fn *release, void *arg)
{
	struct sup s = { .l = l, .rfd = rfd, .tmpfd = tmpfd };
	sigset_t chld;
	struct rundir_pid rec = { (long)getpid(), (long)job, (long)l->who.uid,
	    (long long)time(NULL) };
	struct diag d;
	int status;

	diag_clear(&d);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	setpgid(job, job);
	if (rundir_pid_write(tmpfd, rfd, l->name, &rec, &d) < 0 ||
	    release(gate, arg) < 0) {
		/*
		 * Unrecorded, it could never be stopped: it does not run.  A
		 * record in place whose directory sync failed goes too: the
		 * job it names never ran.  So does one whose process could
		 * not be let go (it died waiting, or the send failed).
		 */
		if (d.code == 0)
			diag_errno(&d, errno, "unable to start job %s",
			    l->name);
		(void)unlinkat(rfd, RUNDIR_PID, 0);
		close(gate);
		kill(job, SIGKILL);
		while (waitpid(job, &status, 0) < 0 && errno == EINTR)
			;
		supervisor_fail(pw, &d);
	}
	close(gate);
	close(pw);
	status = run_job(&s, job, &chld);
	free(s.w);
	sweep();
	/* Unwritten, the run is found "lost" and its job file kept. */
	if (rundir_exit_write(tmpfd, rfd, l->name, status, &d) < 0)
		fprintf(stderr, "bf-apply: %s\n", d.text);
	/*
	 * The run is over once its exit record is on the disk: the lock is
	 * freed now, not by this process's own end, whose teardown (1 to 2
	 * ms on a virtual machine) a stop would otherwise wait for too
	 * (backend_local.c, wait_free()).
	 */
	(void)flock(lockfd, LOCK_UN);
	_exit(0);
}

/* The go-ahead on the pipe job_child() reads. */
static int
release_go(int gate, void *arg)
{
	(void)arg;
	return write(gate, "g", 1) == 1 ? 0 : -1;
}

_Noreturn void
supervise(const struct supervisor_env *env, const struct launch *l, int rfd,
    int lockfd, int pw)
{
	int keep[4] = { rfd, lockfd, pw, env->tmpfd }, go[2];
	struct diag d;
	pid_t job;

	supervisor_setup(env, keep, 4);
	diag_clear(&d);
	if (std_fds(rfd, l, l->name, &d) < 0)
		supervisor_fail(pw, &d);
	if (pipe2(go, O_CLOEXEC) < 0 || (job = fork()) < 0) {
		diag_errno(&d, errno, "unable to start job %s", l->name);
		supervisor_fail(pw, &d);
	}
	if (job == 0) {
		/*
		 * Not the pipe to start(): its end of file says the pid record
		 * is written, and must not wait for the command's exec.
		 */
		close(pw);
		close(go[1]);
		job_child(l, go[0]);
	}
	close(go[0]);
	supervise_job(l, rfd, lockfd, pw, env->tmpfd, job, go[1], release_go,
	    NULL);
}

/* A warm supervisor (supervise_warm()). */

/* The launch as it came, sent on with the job's standard streams. */
struct warm_pack {
	const char *buf;
	size_t len;
};

static int
release_warm(int gate, void *arg)
{
	const struct warm_pack *p = arg;
	const int fds[3] = { 0, 1, 2 };

	return launch_send(gate, p->buf, p->len, fds);
}

/*
 * The job's process of a warm supervisor: its own group, then, once the
 * supervisor recorded it, the launch and the job's three standard streams
 * on gate; at its end of file (the supervisor gone unused), nothing.
 */
static _Noreturn void
warm_job(const struct supervisor_env *env, int gate, char *buf)
{
	struct launch l;
	ssize_t got;
	int fds[3], i;

	setpgid(0, 0);
	got = launch_receive(gate, buf, LAUNCH_MAX_PACK, fds);
	if (got <= 0 || fds[0] < 0 || fds[1] < 0 || fds[2] < 0 ||
	    launch_unpack(&l, buf, (size_t)got, env->pilot) < 0)
		_exit(125);
	for (i = 0; i < 3; i++)
		if (dup2(fds[i], i) < 0)
			_exit(125);
	for (i = 0; i < 3; i++)
		if (fds[i] > 2)
			close(fds[i]);
	close(gate);
	job_exec(&l);
}

static void
socket_room(int fd)
{
	int size = LAUNCH_MAX_PACK * 2;

	(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
}

static _Noreturn void
warm_main(const struct supervisor_env *env, int sock)
{
	int tmpfd = env->tmpfd, keep[2] = { sock, tmpfd }, gate[2];
	int fds[3], null;
	struct pollfd ready[2];
	char *buf = malloc(LAUNCH_MAX_PACK), *jbuf = malloc(LAUNCH_MAX_PACK);
	struct warm_pack pack;
	struct launch l;
	struct diag d;
	ssize_t got;
	pid_t job;

	supervisor_setup(env, keep, 2);
	/* Idle for hours maybe: not holding bf-watch's terminal or pipe. */
	if ((null = open("/dev/null", O_RDWR)) >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		if (null > 2)
			close(null);
	}
	if (buf == NULL || jbuf == NULL || socketpair(AF_UNIX, SOCK_SEQPACKET |
	    SOCK_CLOEXEC, 0, gate) < 0)
		_exit(0);	/* unusable: the launcher finds it gone */
	socket_room(gate[0]);
	socket_room(gate[1]);
	if ((job = fork()) < 0)
		_exit(0);
	if (job == 0) {
		close(sock);
		close(gate[0]);
		free(buf);
		warm_job(env, gate[1], jbuf);
	}
	free(jbuf);
	close(gate[1]);
	setpgid(job, job);
	/* Ready: the launcher hands it starts from now on. */
	if (write(sock, "r", 1) != 1)
		_exit(0);
	/* A job's process that died waiting (killed): none to start. */
	ready[0].fd = sock;
	ready[0].events = POLLIN;
	ready[1].fd = gate[0];
	ready[1].events = 0;
	for (;;) {
		ready[0].revents = ready[1].revents = 0;
		if (poll(ready, 2, -1) < 0 && errno != EINTR)
			break;
		if (ready[1].revents != 0)
			_exit(0);
		if (ready[0].revents != 0)
			break;
	}
	got = launch_receive(sock, buf, LAUNCH_MAX_PACK, fds);
	if (got == 0 || got == -1 || fds[2] < 0)
		_exit(0);	/* not used: its job's process ends with it */
	close(sock);
	diag_clear(&d);
	if (got < 0 || fds[0] < 0 || fds[1] < 0 ||
	    launch_unpack(&l, buf, (size_t)got, env->pilot) < 0) {
		diag_set(&d, EX_SOFTWARE, "the supervisor could not read the "
		    "start of a job: %s", strerror(got < 0 ? EMSGSIZE :
		    EBADMSG));
		supervisor_fail(fds[2], &d);
	}
	if (std_fds(fds[0], &l, l.name, &d) < 0)
		supervisor_fail(fds[2], &d);
	pack.buf = buf;
	pack.len = (size_t)got;
	supervise_job(&l, fds[0], fds[1], fds[2], tmpfd, job, gate[0],
	    release_warm, &pack);
}

pid_t
supervise_warm(const struct supervisor_env *env, int *sockp)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	socket_room(sv[0]);
	socket_room(sv[1]);
	if ((pid = fork()) < 0) {
		int err = errno;
		close(sv[0]);
		close(sv[1]);
		errno = err;
		return -1;
	}
	if (pid == 0) {
		close(sv[0]);
		warm_main(env, sv[1]);
	}
	close(sv[1]);
	*sockp = sv[0];
	return pid;
}

