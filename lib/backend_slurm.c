/*
 * NAME
 *	backend_slurm - run jobs on nodes held from Slurm by pilot jobs
 * SYNOPSIS
 *	backend_open(&b, "slurm", &sp, &d);
 *	b.ops->start(&b, &job, &hosts, &d);	(as backend_local, and more)
 *	backend_slurm_cleanup(&b, &text, &d);
 * DESCRIPTION
 *	Every node a job gets is held by one pilot job in partition bf on
 *	exactly that node:
 *
 *		sbatch -p bf -w NODE -N1 -n1 --exclusive --parsable -J NAME
 *		    -o /dev/null -D / --wrap 'exec sleep infinity'
 *
 *	NAME is bf-TAG-JOB, TAG the first 8 hex digits of the XXH3-64 of the
 *	spool's absolute path, so that the pilots of a spool, and of a job,
 *	are told apart from everything else.  The job's command runs through
 *	the local backend (backend_local.c: supervisor, owner's uid, run/
 *	files) with BF_HOSTFILE listing the nodes whose pilots are RUNNING.
 *	One pilot per node, because Slurm preempts whole jobs: a main job
 *	that needs a node cancels that node's pilot and no other.
 *
 *	run/NAME/pilots records "NODE ID" per line, written after every
 *	sbatch and scancel, and run/NAME/pilots.log one line per event,
 *	"TIME submit|run|cancel|leave NODE ID [WHY]"; both move to
 *	history/runs/STEM/ with the run.
 *
 *	start() and resize() submit the pilots of the nodes the job lacks,
 *	cancel those of the nodes it no longer gets, and wait up to
 *	SLURM_PILOT_WAIT seconds for the new ones to run; one still pending
 *	then is cancelled, its node not obtained: run/NAME/hosts lists only
 *	the nodes held.  start() fails (65, the plan's step skipped) when no
 *	pilot ran.  status() polls squeue for the job's pilots: a pilot that
 *	ended, was preempted or is no longer RUNNING is cancelled, logged as
 *	a leave and its node taken out of run/NAME/hosts, so that bf-apply
 *	adopts the smaller job; a job left with no node is stopped ("plan":
 *	preempted, its job file kept, waiting for nodes).  When squeue does
 *	not answer, or with b->dry_run, status() says what the local backend
 *	says and changes nothing.  stop() and retire() cancel every pilot of the job, by name.
 *
 *	backend_slurm_cleanup() cancels every pilot of the spool (squeue,
 *	by the name prefix bf-TAG-) and returns one "cancelled ID NAME NODE"
 *	line per pilot.
 * DIAGNOSTICS
 *	-1 with d set: 69 sbatch, squeue or scancel not found; 75 one that
 *	failed (slurmctld not answering), with its first line of stderr;
 *	65 a job no pilot could be started for.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "file.h"
#include "hash.h"
#include "supervise.h"

#define SLURM_PILOT_WAIT	10	/* seconds for a pilot to run */
#define PILOT_NAME_MAX	(JOB_NAME_MAX + 16)
#define CMD_MAX_OUTPUT	(16 * 1024 * 1024)

struct pilot {
	char node[HOSTLIST_MAX_NAME + 1];
	long long id;
	char state[24];		/* from squeue; "" when not asked */
};

struct pilots {
	size_t n, cap;
	struct pilot *v;
};

static void
pilot_name(struct backend *b, const char *job, char *out, size_t size)
{
	char hex[HASH_TEXT_LEN];

	hash_format(hash_buf(b->spool_abs, strlen(b->spool_abs)), hex);
	/* "xxh3:" and 16 digits: the first 8 digits are the tag. */
	snprintf(out, size, "bf-%.8s-%s", hex + 5, job ? job : "");
}

/* Read all of fd; NULL when out of memory or too large. */
static char *
slurp(int fd, size_t *lenp)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap), *nb;
	ssize_t r;

	if (buf == NULL)
		return NULL;
	for (;;) {
		if (cap - len < 2) {
			if (cap >= CMD_MAX_OUTPUT ||
			    (nb = realloc(buf, 2 * cap)) == NULL) {
				free(buf);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	if (lenp != NULL)
		*lenp = len;
	return buf;
}

/*
 * Run argv (argv[0] found on PATH) with no shell; its standard output in
 * *out (may be NULL: thrown away).  Exit 0: 0; else -1 with d set.
 */
static int
cmd_run(char *const argv[], char **out, struct diag *d)
{
	int po[2], pe[2], status, err;
	char *text, *errtext, *nl;
	pid_t pid;

	if (out != NULL)
		*out = NULL;
	if (pipe2(po, O_CLOEXEC) < 0)
		return diag_errno(d, errno, "%s: cannot run", argv[0]);
	if (pipe2(pe, O_CLOEXEC) < 0) {
		err = errno;
		close(po[0]);
		close(po[1]);
		return diag_errno(d, err, "%s: cannot run", argv[0]);
	}
	if ((pid = fork()) < 0) {
		err = errno;
		close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
		return diag_errno(d, err, "%s: cannot run", argv[0]);
	}
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		if (in >= 0)
			dup2(in, 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		execvp(argv[0], argv);
		_exit(errno == ENOENT ? 127 : 126);
	}
	close(po[1]);
	close(pe[1]);
	text = slurp(po[0], NULL);
	errtext = slurp(pe[0], NULL);
	close(po[0]);
	close(pe[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (errtext != NULL && (nl = strchr(errtext, '\n')) != NULL)
		*nl = '\0';
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && text != NULL) {
		free(errtext);
		if (out != NULL)
			*out = text;
		else
			free(text);
		return 0;
	}
	free(text);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		diag_set(d, EX_UNAVAILABLE, "%s: not found on PATH; is Slurm "
		    "installed?", argv[0]);
	else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		diag_set(d, EX_TEMPFAIL, "%s exited with status %d%s%.200s",
		    argv[0], WEXITSTATUS(status), errtext && *errtext ? ": " :
		    "", errtext ? errtext : "");
	else if (WIFSIGNALED(status))
		diag_set(d, EX_TEMPFAIL, "%s was killed by signal %d",
		    argv[0], WTERMSIG(status));
	else
		diag_set(d, EX_OSERR, "%s: out of memory reading its output",
		    argv[0]);
	free(errtext);
	return -1;
}

static int
pilots_add(struct pilots *p, const char *node, long long id)
{
	struct pilot *v;

	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		if ((v = realloc(p->v, cap * sizeof *v)) == NULL)
			return -1;
		p->v = v;
		p->cap = cap;
	}
	memset(&p->v[p->n], 0, sizeof *p->v);
	snprintf(p->v[p->n].node, sizeof p->v[0].node, "%s", node);
	p->v[p->n++].id = id;
	return 0;
}

static void
pilots_del(struct pilots *p, size_t i)
{
	p->v[i] = p->v[--p->n];
}

static void
pilots_free(struct pilots *p)
{
	free(p->v);
	memset(p, 0, sizeof *p);
}

/* run/NAME/pilots: "NODE ID" lines; missing is none. */
static int
pilots_load(int rfd, struct pilots *p, struct diag *d)
{
	char *buf, *line, *save, node[HOSTLIST_MAX_NAME + 1];
	long long id;
	size_t len;

	memset(p, 0, sizeof *p);
	if (file_read_at(rfd, "pilots", 1 << 20, FILE_NOFOLLOW, &buf, &len,
	    d) < 0) {
		if (d->code != EX_NOINPUT)
			return -1;
		diag_clear(d);
		return 0;
	}
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%255s %lld", node, &id) == 2 && id > 0 &&
		    pilots_add(p, node, id) < 0) {
			free(buf);
			pilots_free(p);
			return diag_errno(d, ENOMEM, "pilots");
		}
	free(buf);
	return 0;
}

static int
pilots_save(struct backend *b, int rfd, const struct pilots *p,
    struct diag *d)
{
	char *buf = NULL;
	size_t size = 0, i;
	FILE *fp = open_memstream(&buf, &size);
	int tmpfd, rc;

	if (fp == NULL)
		return diag_errno(d, ENOMEM, "pilots");
	for (i = 0; i < p->n; i++)
		fprintf(fp, "%s %lld\n", p->v[i].node, p->v[i].id);
	if (ferror(fp) | fclose(fp)) {
		free(buf);
		return diag_errno(d, ENOMEM, "pilots");
	}
	if ((tmpfd = spool_dirfd(b->sp, SPOOL_TMP, d)) < 0) {
		free(buf);
		return -1;
	}
	rc = file_write_atomic(tmpfd, rfd, "pilots", buf, size, 0644, 0, d);
	free(buf);
	return rc;
}

/* One event line in run/NAME/pilots.log; losing one is not an error. */
static void
pilot_log(int rfd, const char *what, const struct pilot *pl,
    const char *why)
{
	char line[512];
	int fd = openat(rfd, "pilots.log", O_WRONLY | O_CREAT | O_APPEND |
	    O_NOFOLLOW | O_CLOEXEC, 0644);
	int n;

	if (fd < 0)
		return;
	n = snprintf(line, sizeof line, "%lld %s %s %lld%s%s\n",
	    (long long)time(NULL), what, pl->node, pl->id, why ? " " : "",
	    why ? why : "");
	if (n > 0 && write(fd, line, (size_t)n) < 0)
		n = 0;
	close(fd);
}

/* The state of each pilot from squeue (all states); "" when not listed. */
static int
pilots_poll(struct backend *b, const char *job, struct pilots *p,
    struct diag *d)
{
	char name[PILOT_NAME_MAX], opt[PILOT_NAME_MAX + 8], *out, *line,
	    *save, state[24];
	char *argv[] = { "squeue", "-h", "-t", "all", "-o", "%i|%T", opt,
	    NULL };
	long long id;
	size_t i;

	pilot_name(b, job, name, sizeof name);
	snprintf(opt, sizeof opt, "--name=%s", name);
	if (cmd_run(argv, &out, d) < 0)
		return -1;
	for (i = 0; i < p->n; i++)
		p->v[i].state[0] = '\0';
	for (line = strtok_r(out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%lld|%23[A-Z_]", &id, state) != 2)
			continue;
		for (i = 0; i < p->n; i++)
			if (p->v[i].id == id)
				snprintf(p->v[i].state, sizeof p->v[i].state,
				    "%s", state);
	}
	free(out);
	return 0;
}

static int
cancel_ids(const long long *ids, size_t n, struct diag *d)
{
	char **argv, (*num)[24];
	size_t i;
	int rc;

	if (n == 0)
		return 0;
	argv = calloc(n + 2, sizeof *argv);
	num = calloc(n, sizeof *num);
	if (argv == NULL || num == NULL) {
		free(argv);
		free(num);
		return diag_errno(d, ENOMEM, "scancel");
	}
	argv[0] = "scancel";
	for (i = 0; i < n; i++) {
		snprintf(num[i], sizeof num[i], "%lld", ids[i]);
		argv[i + 1] = num[i];
	}
	rc = cmd_run(argv, NULL, d);
	free(argv);
	free(num);
	return rc;
}

/* Cancel pilot i, log it and drop it from the list. */
static int
drop(int rfd, struct pilots *p, size_t i, const char *what, const char *why,
    struct diag *d)
{
	if (cancel_ids(&p->v[i].id, 1, d) < 0)
		return -1;
	pilot_log(rfd, what, &p->v[i], why);
	pilots_del(p, i);
	return 0;
}

/* Every pilot named for the job, recorded or not. */
static int
cancel_job_pilots(struct backend *b, const char *job, struct diag *d)
{
	char name[PILOT_NAME_MAX], opt[PILOT_NAME_MAX + 8];
	char *argv[] = { "scancel", opt, NULL };

	pilot_name(b, job, name, sizeof name);
	snprintf(opt, sizeof opt, "--name=%s", name);
	return cmd_run(argv, NULL, d);
}

/*
 * One pilot on node for the job.  As root, the pilot is the job's owner's
 * (--uid and --gid both: Slurm 22.05 refuses --uid alone with "Invalid
 * job credential"), so that squeue and sacct show the owner, the owner's
 * limits and accounts apply, and the owner's own srun --overlap (and ssh,
 * with pam_slurm_adopt) reach the node.  Not root, it is the caller's.
 */
static int
submit(struct backend *b, const struct job *j, const char *node,
    long long *id, struct diag *d)
{
	char name[PILOT_NAME_MAX], uid[32], gid[32], *out = NULL, *end;
	char *argv[20] = { "sbatch", "-p", "bf", "-w", (char *)node, "-N1",
	    "-n1", "--exclusive", "--parsable", "-J", name, "-o", "/dev/null",
	    "-D", "/" };
	size_t n = 15;
	struct who w;

	if (geteuid() == 0) {
		if (j->owner_uid < 0)
			return diag_set(d, EX_CONFIG, "job %s: no owner known; "
			    "no pilot submitted", j->name);
		who_of((uid_t)j->owner_uid, &w);
		snprintf(uid, sizeof uid, "--uid=%lld", j->owner_uid);
		snprintf(gid, sizeof gid, "--gid=%ld", (long)w.gid);
		argv[n++] = uid;
		argv[n++] = gid;
	}
	argv[n++] = "--wrap";
	argv[n++] = "exec sleep infinity";
	argv[n] = NULL;
	pilot_name(b, j->name, name, sizeof name);
	if (cmd_run(argv, &out, d) < 0)
		return -1;
	errno = 0;
	*id = strtoll(out, &end, 10);
	if (errno != 0 || end == out || *id <= 0 ||
	    (*end != '\0' && *end != '\n' && *end != ';')) {
		diag_set(d, EX_PROTOCOL, "sbatch printed '%.64s', not a job id",
		    out);
		free(out);
		return -1;
	}
	free(out);
	return 0;
}

/* The nodes of running jobs other than this spool's pilots, sorted. */
static int
busy_nodes(struct backend *b, struct hostlist *busy, struct diag *d)
{
	char prefix[PILOT_NAME_MAX], *out, *line, *save, *bar, err[256];
	char *argv[] = { "squeue", "-h", "-t", "running", "-o", "%j|%N",
	    NULL };

	hostlist_init(busy);
	pilot_name(b, NULL, prefix, sizeof prefix);
	if (cmd_run(argv, &out, d) < 0)
		return -1;
	for (line = strtok_r(out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if ((bar = strrchr(line, '|')) == NULL ||
		    strncmp(line, prefix, strlen(prefix)) == 0)
			continue;
		/* A list it cannot read is no node known busy. */
		hostlist_parse(busy, bar + 1, err, sizeof err);
	}
	free(out);
	hostlist_sort_uniq(busy);
	return 0;
}

/*
 * The job's pilots to exactly these nodes: cancel the others, submit the
 * missing (but on a node Slurm runs another job on), wait for the new ones to run, cancel those that did not.
 */
static int
hold(struct backend *b, int rfd, const struct job *j,
    const struct hostlist *hosts, struct pilots *p, struct diag *d)
{
	const char *job = j->name;
	struct timespec tick = { 0, 200 * 1000 * 1000 };
	struct hostlist busy;
	size_t i, h, waiting, had;
	long long id;
	int k;

	if (pilots_load(rfd, p, d) < 0)
		return -1;
	if (p->n > 0 && pilots_poll(b, job, p, d) < 0)
		return -1;
	for (i = p->n; i-- > 0;)
		if (strcmp(p->v[i].state, "RUNNING") != 0 ||
		    !hostlist_contains(hosts, p->v[i].node)) {
			if (drop(rfd, p, i, "cancel", p->v[i].state[0] ?
			    p->v[i].state : "GONE", d) < 0)
				return -1;
		}
	if (pilots_save(b, rfd, p, d) < 0 || busy_nodes(b, &busy, d) < 0)
		return -1;
	had = p->n;
	for (h = 0; h < hosts->n; h++) {
		for (i = 0; i < p->n; i++)
			if (strcmp(p->v[i].node, hosts->names[h]) == 0)
				break;
		if (i < p->n || hostlist_contains(&busy, hosts->names[h]))
			continue;
		if (submit(b, j, hosts->names[h], &id, d) < 0) {
			hostlist_free(&busy);
			return -1;
		}
		if (pilots_add(p, hosts->names[h], id) < 0) {
			hostlist_free(&busy);
			return diag_errno(d, ENOMEM, "pilots");
		}
		pilot_log(rfd, "submit", &p->v[p->n - 1], NULL);
		/* Recorded at once: a crash leaves no pilot unknown. */
		if (pilots_save(b, rfd, p, d) < 0) {
			hostlist_free(&busy);
			return -1;
		}
	}
	hostlist_free(&busy);
	for (k = 0; k < SLURM_PILOT_WAIT * 5; k++) {
		if (pilots_poll(b, job, p, d) < 0)
			return -1;
		for (i = waiting = 0; i < p->n; i++)
			waiting += strcmp(p->v[i].state, "RUNNING") != 0;
		if (waiting == 0)
			break;
		nanosleep(&tick, NULL);
	}
	for (i = p->n; i-- > 0;)
		if (strcmp(p->v[i].state, "RUNNING") != 0) {
			if (drop(rfd, p, i, "cancel", p->v[i].state[0] ?
			    p->v[i].state : "GONE", d) < 0)
				return -1;
		} else if (i >= had)
			pilot_log(rfd, "run", &p->v[i], NULL);
	return pilots_save(b, rfd, p, d);
}

static int hosts_now(int rfd, struct hostlist *hl);

/* The nodes of the pilots, as a sorted hostlist. */
static int
pilot_hosts(const struct pilots *p, struct hostlist *hl, struct diag *d)
{
	size_t i;

	hostlist_init(hl);
	for (i = 0; i < p->n; i++)
		if (hostlist_add(hl, p->v[i].node) < 0) {
			hostlist_free(hl);
			return diag_errno(d, ENOMEM, "pilots");
		}
	hostlist_sort_uniq(hl);
	return 0;
}

static int
slurm_start(struct backend *b, const struct job *j,
    const struct hostlist *hosts, struct diag *d)
{
	struct pilots p;
	struct hostlist hl;
	struct diag ignored;
	int rfd, rc;

	if (backend_may_run(j, b->allow_root, d) < 0 ||
	    (rfd = backend_run_dir(b, j->name, d)) < 0)
		return -1;
	rc = hold(b, rfd, j, hosts, &p, d);
	if (rc == 0 && p.n == 0)
		rc = diag_set(d, EX_DATAERR, "job %s: none of its %zu nodes "
		    "could be held (no pilot job ran)", j->name, hosts->n);
	if (rc == 0 && (rc = pilot_hosts(&p, &hl, d)) == 0) {
		rc = backend_local.start(b, j, &hl, d);
		hostlist_free(&hl);
	}
	if (rc < 0 && cancel_job_pilots(b, j->name, &ignored) == 0) {
		p.n = 0;
		pilots_save(b, rfd, &p, &ignored);
	}
	pilots_free(&p);
	close(rfd);
	return rc;
}

/*
 * A shrink gives notice: the hosts file loses the leaving nodes first, so
 * the job and the supervisor see them go; their workers get SIGTERM and
 * the grace; only then are their pilots cancelled (which ends whatever of
 * the workers is left in them).  Then the pilots of the new nodes.
 */
static int
slurm_resize(struct backend *b, const struct job *j,
    const struct hostlist *hosts, struct diag *d)
{
	struct pilots p = { 0, 0, NULL };
	struct hostlist hl, now, stay, leaving;
	size_t i;
	int rfd, rc = 0;

	if ((rfd = backend_run_dir(b, j->name, d)) < 0)
		return -1;
	hostlist_init(&stay);
	hostlist_init(&leaving);
	if (hosts_now(rfd, &now) < 0) {
		close(rfd);
		return diag_errno(d, ENOMEM, "hosts");
	}
	for (i = 0; i < now.n && rc == 0; i++)
		if (hostlist_add(hostlist_contains(hosts, now.names[i]) ? &stay :
		    &leaving, now.names[i]) < 0)
			rc = diag_errno(d, ENOMEM, "hosts");
	if (rc == 0 && leaving.n > 0) {
		rc = backend_write_hosts(b, j->name, &stay, j->slots_per_node,
		    d);
		/* A tick for the supervisor to see it, then the grace. */
		if (rc == 0 && supervise_wait_workers(rfd, &leaving, b->grace +
		    2 * SUPERVISE_TICK + 1) < 0)
			fprintf(stderr, "bf-apply: job %s: workers of %zu "
			    "leaving nodes still run after the grace; their "
			    "pilots are cancelled\n", j->name, leaving.n);
	}
	hostlist_free(&now);
	hostlist_free(&stay);
	hostlist_free(&leaving);
	if (rc == 0)
		rc = hold(b, rfd, j, hosts, &p, d);
	if (rc == 0 && (rc = pilot_hosts(&p, &hl, d)) == 0) {
		rc = backend_write_hosts(b, j->name, &hl, j->slots_per_node, d);
		hostlist_free(&hl);
	}
	pilots_free(&p);
	close(rfd);
	return rc;
}

/* Every pilot of the job cancelled, the record emptied. */
static int
release(struct backend *b, const char *name, const char *why,
    struct diag *d)
{
	struct pilots p;
	size_t i;
	int rfd = backend_open_run(b, name), rc;

	if (cancel_job_pilots(b, name, d) < 0)
		return -1;
	if (rfd < 0)
		return 0;
	if ((rc = pilots_load(rfd, &p, d)) == 0) {
		for (i = 0; i < p.n; i++)
			pilot_log(rfd, "cancel", &p.v[i], why);
		if (p.n > 0) {
			p.n = 0;
			rc = pilots_save(b, rfd, &p, d);
		}
		pilots_free(&p);
	}
	close(rfd);
	return rc;
}

static int
slurm_stop(struct backend *b, const char *name, const char *why,
    struct diag *d)
{
	if (backend_local.stop(b, name, why, d) < 0)
		return -1;
	return release(b, name, why, d);
}

/* Read run/NAME/hosts back, as a sorted hostlist ("" when missing). */
static int
hosts_now(int rfd, struct hostlist *hl)
{
	struct diag d;

	if (backend_read_hosts(rfd, "hosts", hl, &d) < 0 &&
	    d.code != EX_NOINPUT)
		return d.code == EX_OSERR ? -1 : 0;
	return 0;
}

static long
slots_of(int rfd)
{
	char *buf, *colon;
	struct diag d;
	size_t len;
	long s = 1;

	if (file_read_at(rfd, "hosts", 1 << 24, FILE_NOFOLLOW, &buf, &len,
	    &d) < 0)
		return 1;
	if ((colon = strchr(buf, ':')) != NULL)
		s = strtol(colon + 1, NULL, 10);
	free(buf);
	return s > 0 ? s : 1;
}

/*
 * A running job's pilots that left (ended, preempted, requeued) are
 * node-leaves: out of run/NAME/hosts; none left, the job is stopped.
 */
static int
leaves(struct backend *b, int rfd, const char *name, struct diag *d)
{
	struct hostlist was, now;
	struct pilots p;
	struct diag quiet;
	size_t i;
	int rc = 0;

	if (pilots_load(rfd, &p, d) < 0)
		return -1;
	/* Slurm not answering: nothing is known to have changed. */
	if (p.n > 0 && pilots_poll(b, name, &p, &quiet) < 0) {
		pilots_free(&p);
		return 0;
	}
	for (i = p.n; i-- > 0 && rc == 0;)
		if (strcmp(p.v[i].state, "RUNNING") != 0)
			rc = drop(rfd, &p, i, "leave", p.v[i].state[0] ?
			    p.v[i].state : "GONE", d);
	if (rc == 0)
		rc = pilots_save(b, rfd, &p, d);
	if (rc == 0 && (rc = pilot_hosts(&p, &now, d)) == 0) {
		if (hosts_now(rfd, &was) < 0)
			rc = diag_errno(d, ENOMEM, "hosts");
		else if (!hostlist_equal(&was, &now) && now.n > 0)
			rc = backend_write_hosts(b, name, &now, slots_of(rfd),
			    d);
		else if (!hostlist_equal(&was, &now) && now.n == 0)
			rc = backend_local.stop(b, name, "plan", d);
		hostlist_free(&was);
		hostlist_free(&now);
	}
	pilots_free(&p);
	return rc;
}

static int
slurm_status(struct backend *b, const char *name, struct backend_status *st,
    struct diag *d)
{
	int rfd;

	if (backend_local.status(b, name, st, d) < 0)
		return -1;
	if (st->phase != BACKEND_RUNNING || b->dry_run ||
	    (rfd = backend_open_run(b, name)) < 0)
		return 0;
	if (leaves(b, rfd, name, d) < 0) {
		close(rfd);
		return -1;
	}
	close(rfd);
	return backend_local.status(b, name, st, d);
}

static int
slurm_retire(struct backend *b, const char *name, const char *stem,
    struct diag *d)
{
	struct diag quiet;

	/* Slurm not answering: the pilots go with bf-apply --cleanup. */
	(void)release(b, name, "retired", &quiet);
	return backend_local.retire(b, name, stem, d);
}

static int
pilot_cmp(const void *a, const void *b)
{
	return hostlist_cmp_names(((const struct pilot *)a)->node,
	    ((const struct pilot *)b)->node);
}

/*
 * The job's pilots as state.yaml records them, "NODE: ID, ..." in node
 * order; NULL for another backend, no pilot, or no memory.
 */
char *
backend_pilots(struct backend *b, const char *name)
{
	struct pilots p;
	struct diag d;
	char *buf = NULL;
	size_t size = 0, i;
	FILE *fp;
	int rfd;

	if (b->ops != &backend_slurm || (rfd = backend_open_run(b, name)) < 0)
		return NULL;
	if (pilots_load(rfd, &p, &d) < 0 || p.n == 0) {
		close(rfd);
		pilots_free(&p);
		return NULL;
	}
	close(rfd);
	qsort(p.v, p.n, sizeof *p.v, pilot_cmp);
	if ((fp = open_memstream(&buf, &size)) != NULL) {
		for (i = 0; i < p.n; i++)
			fprintf(fp, "%s%s: %lld", i ? ", " : "", p.v[i].node,
			    p.v[i].id);
		if (ferror(fp) | fclose(fp)) {
			free(buf);
			buf = NULL;
		}
	}
	pilots_free(&p);
	return buf;
}

int
backend_slurm_cleanup(struct backend *b, char **text, struct diag *d)
{
	char prefix[PILOT_NAME_MAX], *out, *line, *save, *buf = NULL;
	char *argv[] = { "squeue", "-h", "-o", "%i|%j|%T|%N", NULL };
	char jname[256], state[24], node[HOSTLIST_MAX_NAME + 1];
	long long id, *ids = NULL, *grown;
	size_t n = 0, size = 0;
	FILE *fp;
	int rc;

	*text = NULL;
	pilot_name(b, NULL, prefix, sizeof prefix);
	if (cmd_run(argv, &out, d) < 0)
		return -1;
	if ((fp = open_memstream(&buf, &size)) == NULL) {
		free(out);
		return diag_errno(d, ENOMEM, "cleanup");
	}
	for (line = strtok_r(out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		node[0] = '\0';
		if (sscanf(line, "%lld|%255[^|]|%23[^|]|%255s", &id, jname,
		    state, node) < 3 ||
		    strncmp(jname, prefix, strlen(prefix)) != 0)
			continue;
		if ((grown = realloc(ids, (n + 1) * sizeof *ids)) == NULL)
			break;
		ids = grown;
		ids[n++] = id;
		fprintf(fp, "cancelled %lld %s %s\n", id, jname,
		    node[0] ? node : "-");
	}
	free(out);
	if (ferror(fp) | fclose(fp) || line != NULL) {
		free(buf);
		free(ids);
		return diag_errno(d, ENOMEM, "cleanup");
	}
	rc = cancel_ids(ids, n, d);
	free(ids);
	if (rc < 0) {
		free(buf);
		return -1;
	}
	*text = buf;
	return 0;
}

const struct backend_ops backend_slurm = {
	"slurm", slurm_start, slurm_resize, slurm_stop, slurm_status,
	slurm_retire,
};
