/*
 * t0016-stop-wait - a local stop ends with the run's exit record
 *
 * The local backend's stop waits for the supervisor's lock.  A supervisor
 * frees it once its exit record is written, before its own end, and the
 * stop wakes on that record (an inotify(7) watch of run/NAME), not on the
 * supervisor's exit.  Here a stand-in supervisor, a child of the test,
 * holds run/j/lock and is named by run/j/pid as run_job() would leave
 * them; on its SIGTERM it writes the exit record, frees the lock and then
 * stays alive.  The stop must come back with the run over (its status
 * "exited", the signal recorded) and the stand-in still alive, neither
 * waited for until the grace (30 s; half of it is the bound, so that only
 * a wait for the grace fails it) nor killed.  Without an exit record
 * the stand-in's own end is what the stop waits for (the pidfd), and the
 * run is then "lost".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/file.h"
#include "util/now.h"

#include "apply/backend.h"
#include "spool/spool.h"
#include "tap.h"

static struct spool sp;
static struct backend b;

/* The stand-in supervisor: record and unlock on SIGTERM, then linger. */
static _Noreturn void
stand_in(int rfd, int ready, int record_exit)
{
	char text[256];
	struct diag d;
	sigset_t term;
	int lockfd, sig;

	setpgid(0, 0);
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, NULL);
	lockfd = openat(rfd, "lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lockfd < 0 || flock(lockfd, LOCK_EX) < 0)
		_exit(2);
	snprintf(text, sizeof text, "supervisor: %ld\npgid: %ld\nstarted: "
	    "%lld\nuid: %ld\n", (long)getpid(), (long)getpid(),
	    (long long)time(NULL), (long)getuid());
	if (file_write_atomic(sp.dirs[SPOOL_TMP], rfd, "pid", text,
	    strlen(text), 0644, 0, &d) < 0)
		_exit(3);
	(void)!write(ready, "r", 1);
	close(ready);
	if (sigwait(&term, &sig) != 0)
		_exit(4);
	if (record_exit) {
		snprintf(text, sizeof text, "signal: %d\nended: %lld\n",
		    SIGTERM, (long long)time(NULL));
		if (file_write_atomic(sp.dirs[SPOOL_TMP], rfd, "exit", text,
		    strlen(text), 0644, 0, &d) < 0)
			_exit(5);
		(void)flock(lockfd, LOCK_UN);
		/* A teardown that never ends, unless it is waited for. */
		for (;;)
			pause();
	}
	_exit(0);
}

/* A run of NAME with its stand-in started; its pid, or -1. */
static pid_t
start_stand_in(const char *name, int record_exit)
{
	struct diag d;
	int rfd = rundir_make(b.sp, name, &d), p[2];
	pid_t pid;
	char c;

	if (rfd < 0 || pipe(p) < 0)
		return -1;
	if ((pid = fork()) == 0) {
		close(p[0]);
		stand_in(rfd, p[1], record_exit);
	}
	close(p[1]);
	close(rfd);
	if (pid < 0 || read(p[0], &c, 1) != 1) {
		close(p[0]);
		return -1;
	}
	close(p[0]);
	return pid;
}

int
main(void)
{
	char dir[] = "/tmp/t0016.XXXXXX", path[sizeof dir + 8];
	struct backend_status st;
	struct diag d;
	int status, rc;
	double t0, took;
	pid_t pid;

	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof path, "%s/sp", dir);
	diag_clear(&d);
	if (spool_open(&sp, path, SPOOL_CREATE, &d) < 0 ||
	    backend_open(&b, "local", &sp, &d) < 0) {
		fprintf(stderr, "t0016: %s\n", d.text);
		return 1;
	}
	b.grace = 30;

	/* 1. The exit record written and the lock freed: that is the end. */
	pid = start_stand_in("j", 1);
	ok(pid > 0, "a stand-in supervisor holds run/j/lock");
	t0 = now_mono();
	rc = b.ops->stop(&b, "j", "plan", &d);
	took = now_mono() - t0;
	is_int(rc, 0, "the stop succeeds");
	ok(took < b.grace / 2, "woken by the exit record: not waited for to "
	    "the grace of %.0f s (%.3f s)", b.grace, took);
	ok(waitpid(pid, &status, WNOHANG) == 0,
	    "the stop came back while the supervisor still lived, not "
	    "killed");
	rc = b.ops->status(&b, "j", &st, &d);
	is_int(rc, 0, "the status of run/j is read");
	is_int(st.phase, BACKEND_EXITED, "the run is over: exited");
	is_int(st.signal, SIGTERM, "with the signal it recorded");
	is_str(st.stopping, "plan", "and the stop's reason");
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);

	/* 2. No record: the supervisor's end (its pidfd) ends the wait. */
	pid = start_stand_in("k", 0);
	ok(pid > 0, "a stand-in that ends without an exit record");
	rc = b.ops->stop(&b, "k", "plan", &d);
	is_int(rc, 0, "the stop succeeds");
	ok(waitpid(pid, &status, WNOHANG) == pid && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0,
	    "the supervisor ended by itself, not killed after the grace");
	rc = b.ops->status(&b, "k", &st, &d);
	is_int(rc, 0, "the status of run/k is read");
	is_int(st.phase, BACKEND_LOST, "the run is lost: no exit record");

	backend_close(&b);
	spool_close(&sp);
	{
		char cmd[sizeof dir + 16];
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "t0016: unable to remove %s\n", dir);
	}
	return tap_done();
}
