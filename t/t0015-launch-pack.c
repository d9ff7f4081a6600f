/*
 * t0015-launch-pack - tests for launch.c's pack of a launch, the message
 * bf-watch sends its launcher: every field comes back as it was (with and
 * without a worker, with the most environment strings), the length asked
 * with a NULL buffer is the length written, a short buffer is never
 * written past, and every pack cut short, lengthened, with a string
 * damaged or a field out of range is refused (EBADMSG) and leaves nothing
 * half-read.  Then a real launcher: a supervisor it forks runs a job whose
 * pid record names the launcher's child, and a message it cannot read is
 * answered on the start pipe.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "apply/backend.h"
#include "apply/pilots.h"
#include "run/launch.h"
#include "run/launcher.h"

#include "tap.h"

#define SLURM_EXEC	(backend_slurm_pilots.exec)	/* the pilot commands of Slurm */

static void
sample(struct launch *l, int with_worker, size_t nenv)
{
	size_t i;

	memset(l, 0, sizeof *l);
	snprintf(l->name, sizeof l->name, "job-%zu", nenv);
	l->command = "python3 train.py --epochs 3 \"$BF_HOSTFILE\"";
	l->worker = with_worker ? "exec torchrun --nnodes=$BF_NODES w.py" :
	    NULL;
	l->restarts = 7;
	l->grace = 2.5;
	l->who.uid = 65534;
	l->who.gid = 65533;
	l->who.known = 1;
	snprintf(l->who.name, sizeof l->who.name, "nobody");
	snprintf(l->who.home, sizeof l->who.home, "/nonexistent");
	l->nenv = nenv;
	for (i = 0; i < nenv; i++) {
		char *e = malloc(64);
		snprintf(e, 64, "BF_VAR%zu=value %zu", i, i * 31);
		l->envp[i] = e;
	}
	l->envp[nenv] = NULL;
}

static void
sample_free(struct launch *l)
{
	size_t i;

	for (i = 0; i < l->nenv; i++)
		free(l->envp[i]);
}

static int
same(const struct launch *a, const struct launch *b)
{
	size_t i;

	if (strcmp(a->name, b->name) != 0 ||
	    strcmp(a->command, b->command) != 0 ||
	    (a->worker == NULL) != (b->worker == NULL) ||
	    (a->worker != NULL && strcmp(a->worker, b->worker) != 0) ||
	    a->restarts != b->restarts || a->grace != b->grace ||
	    a->who.uid != b->who.uid || a->who.gid != b->who.gid ||
	    a->who.known != b->who.known || a->pilot != b->pilot ||
	    strcmp(a->who.name, b->who.name) != 0 ||
	    strcmp(a->who.home, b->who.home) != 0 || a->nenv != b->nenv ||
	    b->envp[b->nenv] != NULL)
		return 0;
	for (i = 0; i < a->nenv; i++)
		if (strcmp(a->envp[i], b->envp[i]) != 0)
			return 0;
	return 1;
}

static void
round_trips(void)
{
	static const size_t envs[] = { 0, 1, 17, LAUNCH_ENV_MAX };
	struct launch l, back;
	char buf[8192], *copy;
	size_t i;
	int w;

	for (w = 0; w < 4; w++)
		for (i = 0; i < sizeof envs / sizeof *envs; i++) {
			ssize_t need, n;
			sample(&l, w & 1, envs[i]);
			l.pilot = w & 2 ? SLURM_EXEC : NULL;
			need = launch_pack(&l, NULL, 0);
			n = launch_pack(&l, buf, sizeof buf);
			ok(need > 0 && n == need, "worker %d, pilot %d, %zu "
			    "env: the length asked is the length written "
			    "(%zd)", w & 1, w >> 1, envs[i], n);
			copy = malloc((size_t)n);
			memcpy(copy, buf, (size_t)n);
			ok(launch_unpack(&back, copy, (size_t)n, SLURM_EXEC) == 0 &&
			    same(&l, &back), "worker %d, pilot %d, %zu env: "
			    "read back as it was", w & 1, w >> 1, envs[i]);
			free(copy);
			sample_free(&l);
		}
}

static void
short_buffer(void)
{
	struct launch l;
	char buf[256];
	ssize_t n;
	size_t i;

	sample(&l, 1, 3);
	memset(buf, 'x', sizeof buf);
	n = launch_pack(&l, buf, 100);
	ok(n > 100, "a short buffer: the whole length is still said (%zd)",
	    n);
	for (i = 100; i < sizeof buf && buf[i] == 'x'; i++)
		;
	ok(i == sizeof buf && buf[0] == 1, "a short buffer: what fits "
	    "written, nothing past its size");
	sample_free(&l);
}

/* Every damaged pack is refused with EBADMSG and l left empty. */
static void
refusals(void)
{
	struct launch l, back;
	char good[8192], bad[8192];
	size_t cut, fails = 0, strs;
	ssize_t n;
	uint32_t u;
	int64_t v;

	sample(&l, 1, 4);
	n = launch_pack(&l, good, sizeof good);
	for (cut = 0; cut < (size_t)n; cut++) {
		memcpy(bad, good, cut);
		errno = 0;
		if (launch_unpack(&back, bad, cut, SLURM_EXEC) == 0 || errno != EBADMSG ||
		    back.name[0] != '\0' || back.command != NULL)
			fails++;
	}
	ok(fails == 0, "every one of the %zd packs cut short is refused "
	    "(%zu accepted)", n, fails);
	memcpy(bad, good, (size_t)n);
	bad[n] = 'z';
	ok(launch_unpack(&back, bad, (size_t)n + 1, SLURM_EXEC) < 0 && errno == EBADMSG,
	    "a byte more than the pack: refused");

	memcpy(bad, good, (size_t)n);
	u = 2;
	memcpy(bad, &u, sizeof u);
	ok(launch_unpack(&back, bad, (size_t)n, SLURM_EXEC) < 0, "another version: "
	    "refused");

	memcpy(bad, good, (size_t)n);
	u = 5 + LAUNCH_ENV_MAX + 1;
	memcpy(bad + 4, &u, sizeof u);
	ok(launch_unpack(&back, bad, (size_t)n, SLURM_EXEC) < 0, "more environment "
	    "strings than a launch holds: refused");

	memcpy(bad, good, (size_t)n);
	v = -1;
	memcpy(bad + 8 + 16, &v, sizeof v);	/* uid */
	ok(launch_unpack(&back, bad, (size_t)n, SLURM_EXEC) < 0, "a negative uid: "
	    "refused");

	memcpy(bad, good, (size_t)n);
	v = 2;
	memcpy(bad + 8 + 40, &v, sizeof v);	/* has a worker */
	ok(launch_unpack(&back, bad, (size_t)n, SLURM_EXEC) < 0, "a worker flag not 0 "
	    "or 1: refused");

	memcpy(bad, good, (size_t)n);
	v = 2;
	memcpy(bad + 8 + 48, &v, sizeof v);	/* has a pilot */
	ok(launch_unpack(&back, bad, (size_t)n, SLURM_EXEC) < 0,
	    "a pilot flag not 0 or 1: refused");

	/* A NUL inside the name, and a name's terminator not a NUL. */
	strs = 8 + 56;
	memcpy(bad, good, (size_t)n);
	bad[strs + 4 + 2] = '\0';
	ok(launch_unpack(&back, bad, (size_t)n, SLURM_EXEC) < 0, "a NUL inside a "
	    "string: refused");
	memcpy(bad, good, (size_t)n);
	bad[strs + 4 + strlen(l.name)] = 'q';
	ok(launch_unpack(&back, bad, (size_t)n, SLURM_EXEC) < 0, "a string without its "
	    "NUL: refused");
	l.pilot = SLURM_EXEC;
	n = launch_pack(&l, good, sizeof good);
	ok(launch_unpack(&back, good, (size_t)n, NULL) < 0 && errno == EBADMSG,
	    "a pilot, where the launcher has none (local backend): refused");
	ok(launch_unpack(&back, good, (size_t)n, SLURM_EXEC) == 0 &&
	    back.pilot == SLURM_EXEC, "a pilot: the launcher's own given");
	sample_free(&l);
	sample(&l, 0, 0);
	l.name[0] = '\0';
	n = launch_pack(&l, good, sizeof good);
	ok(n > 0 && launch_unpack(&back, good, (size_t)n, SLURM_EXEC) < 0 &&
	    errno == EBADMSG, "an empty job name: refused");
}

/* A real launcher, with a spool of tmp/ and run/NAME/ only. */
static void
launcher_runs(void)
{
	char dir[] = "/tmp/t0015.XXXXXX", path[512], buf[512], msg[256];
	struct supervisor_env env = { -1, -1, NULL };
	struct launcher ln;
	struct launch l;
	struct diag d;
	int rfd, lockfd, p[2], fd, i, status;
	ssize_t got, len;
	long sup = 0, me, parent = 0, pgid = 0;
	FILE *fp;

	if (mkdtemp(dir) == NULL) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof path, "%s/tmp", dir);
	mkdir(path, 0700);
	env.tmpfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	snprintf(path, sizeof path, "%s/run", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/run/j", dir);
	mkdir(path, 0755);
	rfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	launcher_init(&ln);
	ok(launcher_open(&ln, &env, dir, &d) == 0 && ln.fd >= 0 &&
	    ln.pid > 0, "a launcher starts");

	sample(&l, 0, 0);
	snprintf(l.name, sizeof l.name, "j");
	l.command = "exec sleep 30";
	l.who.uid = geteuid();
	l.who.gid = getegid();
	l.envp[l.nenv++] = strdup("PATH=/usr/bin:/bin");
	l.envp[l.nenv++] = strdup("BF_COMMAND=exec sleep 30");
	lockfd = openat(rfd, "lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	flock(lockfd, LOCK_EX | LOCK_NB);
	pipe2(p, O_CLOEXEC);
	ok(launcher_send(&ln, &l, rfd, lockfd, p[1]) == 0, "a start sent");
	close(lockfd);
	close(p[1]);
	got = read(p[0], msg, sizeof msg - 1);
	close(p[0]);
	ok(got == 0, "the start pipe closes with nothing said (%zd)", got);
	snprintf(path, sizeof path, "%s/run/j/pid", dir);
	if ((fp = fopen(path, "r")) != NULL) {
		while (fgets(buf, sizeof buf, fp) != NULL)
			if (sscanf(buf, "supervisor: %ld", &sup) != 1)
				sscanf(buf, "pgid: %ld", &pgid);
		fclose(fp);
	}
	snprintf(path, sizeof path, "/proc/%ld/stat", sup);
	if ((fd = open(path, O_RDONLY)) >= 0) {
		len = read(fd, buf, sizeof buf - 1);
		buf[len > 0 ? len : 0] = '\0';
		close(fd);
		if (strrchr(buf, ')') != NULL)
			sscanf(strrchr(buf, ')') + 1, " %*c %ld", &parent);
	}
	me = (long)getpid();
	ok(sup > 0 && sup != me && parent == (long)ln.pid,
	    "the pid record names a supervisor whose parent is the "
	    "launcher (supervisor %ld, parent %ld, launcher %ld)", sup,
	    parent, (long)ln.pid);
	/* The job ended (its group sent SIGTERM): its exit is recorded. */
	if (pgid > 1)
		kill((pid_t)-pgid, SIGTERM);
	for (i = 0; i < 1000; i++) {
		snprintf(path, sizeof path, "%s/run/j/exit", dir);
		if (access(path, F_OK) == 0)
			break;
		usleep(10000);
	}
	ok(pgid > 1 && access(path, F_OK) == 0, "the job ran, ended by a "
	    "signal to its group, and its exit is recorded");

	/* A pack that is no launch: said on its pipe, not run. */
	pipe2(p, O_CLOEXEC);
	lockfd = openat(rfd, "lock", O_RDWR | O_CLOEXEC);
	{
		union {
			struct cmsghdr h;
			char space[CMSG_SPACE(sizeof(int) * 3)];
		} u;
		int fds[3] = { rfd, lockfd, p[1] };
		struct iovec iov = { "junk", 4 };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
		    .msg_control = u.space, .msg_controllen = sizeof u.space };
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);

		memset(u.space, 0, sizeof u.space);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof fds);
		memcpy(CMSG_DATA(c), fds, sizeof fds);
		ok(sendmsg(ln.fd, &m, MSG_NOSIGNAL) == 4,
		    "junk sent to the launcher");
	}
	close(lockfd);
	close(p[1]);
	got = read(p[0], msg, sizeof msg - 1);
	close(p[0]);
	msg[got > 0 ? got : 0] = '\0';
	ok(strcmp(msg, "70 the launcher could not read the start of a job: "
	    "Bad message") == 0, "junk: the launcher says so on the pipe "
	    "(%s)", msg);

	/* Its end: the socket closed, it exits, and is waited for. */
	{
		pid_t lp = ln.pid;
		launcher_close(&ln);
		ok(ln.fd == -1 && kill(lp, 0) < 0 && errno == ESRCH,
		    "closed, the launcher is gone");
	}
	l.who.uid = 0;
	errno = 0;
	ok(launcher_send(&ln, &l, rfd, -1, -1) < 0 && errno == ENOTCONN,
	    "no launcher: a send fails (ENOTCONN), the caller forks");
	free(l.envp[0]);
	free(l.envp[1]);
	close(rfd);
	close(env.tmpfd);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	status = system(path);
	(void)status;
}

int
main(void)
{
	round_trips();
	short_buffer();
	refusals();
	launcher_runs();
	return tap_done();
}
