/*
 * NAME
 *	pilots - nodes held from a batch scheduler by pilot jobs
 * DESCRIPTION
 *	See pilots.h.  Everything here is the scheduler's ops away from
 *	Slurm or PBS: the record of the pilots, holding exactly the nodes
 *	of a plan, the notice of a shrink, the leaves, the cleanup.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/array.h"
#include "util/cmdout.h"
#include "util/file.h"
#include "util/hash.h"
#include "util/now.h"
#include "util/proc.h"

#include "apply/backend.h"
#include "apply/pilots.h"
#include "run/rundir.h"
#include "run/who.h"


static const struct pilot_ops *
ops(struct backend *b)
{
	return b->ops->pilot;
}

/* The first 8 hex digits of the XXH3-64 of the spool's absolute path. */
void
pilots_tag(struct backend *b, char tag[9])
{
	char hex[HASH_TEXT_LEN];

	hash_format(hash_buf(b->spool_abs, strlen(b->spool_abs)), hex);
	/* "xxh3:" and 16 digits. */
	snprintf(tag, 9, "%.8s", hex + 5);
}

/* In the child: the user as, for good, in that user's environment. */
static void
become(const void *arg)
{
	const struct who *as = arg;

	if (as == NULL || geteuid() != 0)
		return;
	if (who_become(as) < 0) {
		fprintf(stderr, "bf-apply: unable to become uid %ld: %s\n",
		    (long)as->uid, strerror(errno));
		_exit(126);
	}
	setenv("HOME", as->home, 1);
	if (as->known) {
		setenv("USER", as->name, 1);
		setenv("LOGNAME", as->name, 1);
	}
	if (chdir("/") < 0)
		_exit(126);
}

/*
 * Once a command hung, the scheduler is taken as not answering for as
 * long as the bound: the commands after it fail at once, so that a step
 * that would run many (every job's poll) costs one timeout, not many.
 */
static double sched_down_until;

/* The scheduler's command argv, as the user as (NULL: as we are). */
int
pilots_exec(char *const argv[], const struct who *as, char **out,
    char **err, int *status, struct diag *d)
{
	struct proc p = { argv, NULL, NULL, 0, PROC_CAPTURE, PROC_CAPTURE,
	    become, as };
	struct proc_out o;
	double t = cmdout_timeout();

	*out = *err = NULL;
	if (sched_down_until > 0 && now_mono() < sched_down_until)
		return diag_set(d, EX_TEMPFAIL, "%s: not run: a command of "
		    "the scheduler hung less than %g s ago (BF_SCHED_TIMEOUT)",
		    argv[0], t);
	if (proc_run_bounded(&p, t, 0, status, &o, d) < 0)
		return -1;
	if (o.interrupted) {
		proc_out_free(&o);
		return diag_set(d, EX_TEMPFAIL, "%s: killed: asked to end",
		    argv[0]);
	}
	if (o.timedout) {
		proc_out_free(&o);
		sched_down_until = now_mono() + t;
		/* Said here too: a poll's failure is not reported. */
		log_warn("%s: no answer in %g s (BF_SCHED_TIMEOUT); killed; "
		    "will retry", argv[0], t);
		return diag_set(d, EX_TEMPFAIL, "%s: no answer in %g s "
		    "(BF_SCHED_TIMEOUT); killed", argv[0], t);
	}
	sched_down_until = 0;
	*out = o.out;
	*err = o.err;
	return 0;
}

/* d set for a command that did not exit 0; err its standard error. */
void
pilots_failed(const struct pilot_ops *po, const char *prog, int status,
    const char *err, struct diag *d)
{
	size_t n = err ? strcspn(err, "\n") : 0;

	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		diag_set(d, EX_UNAVAILABLE, "%s: not found on PATH; is %s "
		    "installed?", prog, po->exec->scheduler);
	else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		diag_set(d, EX_TEMPFAIL, "%s exited with status %d%s%.*s",
		    prog, WEXITSTATUS(status), n ? ": " : "",
		    (int)(n < 200 ? n : 200), err ? err : "");
	else if (WIFSIGNALED(status))
		diag_set(d, EX_TEMPFAIL, "%s was killed by signal %d", prog,
		    WTERMSIG(status));
	else
		diag_set(d, EX_OSERR, "%s: out of memory reading its output",
		    prog);
}

int
pilots_run(const struct pilot_ops *po, char *const argv[],
    const struct who *as, char **out, struct diag *d)
{
	char *text, *err;
	int status;

	if (out != NULL)
		*out = NULL;
	if (pilots_exec(argv, as, &text, &err, &status, d) < 0)
		return -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && text != NULL) {
		free(err);
		if (out != NULL)
			*out = text;
		else
			free(text);
		return 0;
	}
	free(text);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		status = -1;	/* exited 0, its output lost: no memory */
	pilots_failed(po, argv[0], status, err, d);
	free(err);
	return -1;
}

static int
pilots_save(struct backend *b, int rfd, const struct pilots *p,
    struct diag *d)
{
	int tmpfd = spool_dirfd(b->sp, SPOOL_TMP, d);

	return tmpfd < 0 ? -1 : pilot_save(tmpfd, rfd, p, d);
}

/* One event line in run/NAME/pilots.log; losing one is not an error. */
static void
pilot_log(int rfd, const char *what, const struct pilot *pl,
    const char *why)
{
	char line[768];
	int fd = openat(rfd, RUNDIR_PILOTS_LOG, O_WRONLY | O_CREAT | O_APPEND |
	    O_NOFOLLOW | O_CLOEXEC, 0644);
	int n;

	if (fd < 0)
		return;
	n = snprintf(line, sizeof line, "%lld %s %s %s%s%s\n",
	    (long long)time(NULL), what, pl->node, pl->id, why ? " " : "",
	    why ? why : "");
	if (n > 0 && (size_t)n < sizeof line &&
	    write(fd, line, (size_t)n) < 0)
		n = 0;
	close(fd);
}

static int
poll_job(struct backend *b, const char *job, struct pilots *p,
    struct diag *d)
{
	char name[PILOT_NAME_MAX];
	size_t i;

	ops(b)->name(b, job, name, sizeof name);
	for (i = 0; i < p->n; i++)
		p->v[i].state[0] = '\0';
	return ops(b)->poll(b, name, p, d);
}

static int
is_running(struct backend *b, const struct pilot *pl)
{
	return strcmp(pl->state, ops(b)->running) == 0;
}

/* Cancel pilot i, log it and drop it from the list. */
static int
drop(struct backend *b, int rfd, struct pilots *p, size_t i,
    const char *what, struct diag *d)
{
	char *id = p->v[i].id;

	if (ops(b)->cancel(b, &id, 1, d) < 0)
		return -1;
	pilot_log(rfd, what, &p->v[i], p->v[i].state[0] ? p->v[i].state :
	    "GONE");
	pilot_remove(p, i);
	return 0;
}

static int
cancel_job_pilots(struct backend *b, const char *job, struct diag *d)
{
	char name[PILOT_NAME_MAX];

	ops(b)->name(b, job, name, sizeof name);
	return ops(b)->cancel_named(b, name, d);
}

static int
submit(struct backend *b, const struct job *j, const char *node,
    char *id, size_t size, struct diag *d)
{
	char name[PILOT_NAME_MAX];

	ops(b)->name(b, j->name, name, sizeof name);
	return ops(b)->submit(b, j, node, name, id, size, d);
}

static void
sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) *
	    1e9) };

	nanosleep(&ts, NULL);
}

/*
 * The job's pilots to exactly these nodes: cancel the others, submit the
 * missing (but on a node the scheduler runs other work on), wait for the
 * new ones to run, cancel those that did not.
 */
static int
hold(struct backend *b, int rfd, const struct job *j,
    const struct hostlist *hosts, struct pilots *p, struct diag *d)
{
	const struct pilot_ops *po = ops(b);
	char prefix[PILOT_NAME_MAX], id[PILOT_ID_MAX];
	struct hostlist busy;
	size_t i, h, waiting, had;
	long k, polls = (long)(po->wait / po->tick + 0.5);

	if (pilot_load(rfd, p, d) < 0)
		return -1;
	if (p->n > 0 && poll_job(b, j->name, p, d) < 0)
		return -1;
	for (i = p->n; i-- > 0;)
		if (!is_running(b, &p->v[i]) ||
		    !hostlist_contains(hosts, p->v[i].node)) {
			if (drop(b, rfd, p, i, "cancel", d) < 0)
				return -1;
		}
	po->name(b, NULL, prefix, sizeof prefix);
	if (pilots_save(b, rfd, p, d) < 0 || po->busy(b, prefix, &busy, d) < 0)
		return -1;
	had = p->n;
	for (h = 0; h < hosts->n; h++) {
		for (i = 0; i < p->n; i++)
			if (strcmp(p->v[i].node, hosts->names[h]) == 0)
				break;
		if (i < p->n || hostlist_contains(&busy, hosts->names[h]))
			continue;
		if (submit(b, j, hosts->names[h], id, sizeof id, d) < 0) {
			hostlist_free(&busy);
			return -1;
		}
		if (pilot_add(p, hosts->names[h], id) < 0) {
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
	for (k = 0; k < polls; k++) {
		if (poll_job(b, j->name, p, d) < 0)
			return -1;
		for (i = waiting = 0; i < p->n; i++)
			waiting += !is_running(b, &p->v[i]);
		if (waiting == 0)
			break;
		sleep_s(po->tick);
	}
	for (i = p->n; i-- > 0;)
		if (!is_running(b, &p->v[i])) {
			if (drop(b, rfd, p, i, "cancel", d) < 0)
				return -1;
		} else if (i >= had)
			pilot_log(rfd, "run", &p->v[i], NULL);
	return pilots_save(b, rfd, p, d);
}

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

int
pilots_start(struct backend *b, const struct job *j,
    const struct hostlist *hosts, struct diag *d)
{
	struct pilots p;
	struct hostlist hl;
	struct diag ignored;
	int rfd, rc;

	if (backend_may_run(j, b->allow_root, d) < 0 ||
	    (rfd = rundir_make(b->sp, j->name, d)) < 0)
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
	pilot_free(&p);
	close(rfd);
	return rc;
}

/* Read run/NAME/hosts back, as a sorted hostlist ("" when missing). */
static int
hosts_now(int rfd, struct hostlist *hl)
{
	struct diag d;

	if (rundir_hosts_read(rfd, RUNDIR_HOSTS, hl, &d) < 0 &&
	    d.code != EX_NOINPUT)
		return d.code == EX_OSERR ? -1 : 0;
	return 0;
}

/*
 * A shrink gives notice: the hosts file loses the leaving nodes first, so
 * the job and the supervisor see them go; their workers get SIGTERM and
 * the grace; only then are their pilots cancelled (which ends whatever of
 * the workers is left in them).  Then the pilots of the new nodes.
 */
int
pilots_resize(struct backend *b, const struct job *j,
    const struct hostlist *hosts, struct diag *d)
{
	struct pilots p = { 0, 0, NULL };
	struct hostlist hl, now, stay, leaving;
	size_t i;
	int rfd, rc = 0;

	if ((rfd = rundir_make(b->sp, j->name, d)) < 0)
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
		if (rc == 0 && rundir_wait_workers(rfd, &leaving, b->grace +
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
	pilot_free(&p);
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
	int rfd = rundir_open(b->sp, name), rc;

	if (cancel_job_pilots(b, name, d) < 0) {
		if (rfd >= 0)
			close(rfd);
		return -1;
	}
	if (rfd < 0)
		return 0;
	if ((rc = pilot_load(rfd, &p, d)) == 0) {
		for (i = 0; i < p.n; i++)
			pilot_log(rfd, "cancel", &p.v[i], why);
		if (p.n > 0) {
			p.n = 0;
			rc = pilots_save(b, rfd, &p, d);
		}
		pilot_free(&p);
	}
	close(rfd);
	return rc;
}

int
pilots_stop(struct backend *b, const char *name, const char *why,
    struct diag *d)
{
	if (backend_local.stop(b, name, why, d) < 0)
		return -1;
	return release(b, name, why, d);
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

	if (pilot_load(rfd, &p, d) < 0)
		return -1;
	/* The scheduler not answering: nothing is known to have changed. */
	if (p.n > 0 && poll_job(b, name, &p, &quiet) < 0) {
		pilot_free(&p);
		return 0;
	}
	for (i = p.n; i-- > 0 && rc == 0;)
		if (!is_running(b, &p.v[i]))
			rc = drop(b, rfd, &p, i, "leave", d);
	if (rc == 0)
		rc = pilots_save(b, rfd, &p, d);
	if (rc == 0 && (rc = pilot_hosts(&p, &now, d)) == 0) {
		if (hosts_now(rfd, &was) < 0)
			rc = diag_errno(d, ENOMEM, "hosts");
		else if (!hostlist_equal(&was, &now) && now.n > 0)
			rc = backend_write_hosts(b, name, &now,
			    rundir_hosts_slots(rfd), d);
		else if (!hostlist_equal(&was, &now) && now.n == 0)
			rc = backend_local.stop(b, name, "plan", d);
		hostlist_free(&was);
		hostlist_free(&now);
	}
	pilot_free(&p);
	return rc;
}

int
pilots_status(struct backend *b, const char *name, struct backend_status *st,
    struct diag *d)
{
	int rfd;

	if (backend_local.status(b, name, st, d) < 0)
		return -1;
	if (st->phase != BACKEND_RUNNING || b->dry_run ||
	    (rfd = rundir_open(b->sp, name)) < 0)
		return 0;
	if (leaves(b, rfd, name, d) < 0) {
		close(rfd);
		return -1;
	}
	close(rfd);
	return backend_local.status(b, name, st, d);
}

int
pilots_retire(struct backend *b, const char *name, const char *stem,
    struct diag *d)
{
	struct diag quiet;

	/* The scheduler not answering: the pilots go with --cleanup. */
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
 * order; NULL for the local backend, no pilot, or no memory.
 */
char *
pilots_ids(struct backend *b, const char *name)
{
	struct pilots p;
	struct diag d;
	char *buf = NULL;
	size_t size = 0, i;
	FILE *fp;
	int rfd;

	if (b->ops->pilot == NULL || (rfd = rundir_open(b->sp, name)) < 0)
		return NULL;
	if (pilot_load(rfd, &p, &d) < 0 || p.n == 0) {
		close(rfd);
		pilot_free(&p);
		return NULL;
	}
	close(rfd);
	qsort(p.v, p.n, sizeof *p.v, pilot_cmp);
	if ((fp = open_memstream(&buf, &size)) != NULL) {
		for (i = 0; i < p.n; i++)
			fprintf(fp, "%s%s: %s", i ? ", " : "", p.v[i].node,
			    p.v[i].id);
		if (ferror(fp) | fclose(fp)) {
			free(buf);
			buf = NULL;
		}
	}
	pilot_free(&p);
	return buf;
}

int
pilots_cleanup(struct backend *b, char **text, struct diag *d)
{
	char prefix[PILOT_NAME_MAX], *buf = NULL, **ids = NULL;
	struct pilot_entry *v = NULL;
	size_t n = 0, size = 0, i;
	FILE *fp;
	int rc;

	*text = NULL;
	if (b->ops->pilot == NULL)
		return diag_set(d, EX_USAGE, "--cleanup: backend %s has no "
		    "pilot jobs (--backend slurm or pbs)", b->ops->name);
	ops(b)->name(b, NULL, prefix, sizeof prefix);
	if (ops(b)->list(b, prefix, &v, &n, d) < 0)
		return -1;
	if ((fp = open_memstream(&buf, &size)) == NULL ||
	    (n > 0 && (ids = calloc(n, sizeof *ids)) == NULL)) {
		if (fp != NULL)
			fclose(fp);
		free(buf);
		free(v);
		return diag_errno(d, ENOMEM, "cleanup");
	}
	for (i = 0; i < n; i++) {
		ids[i] = v[i].id;
		fprintf(fp, "cancelled %s %s %s\n", v[i].id, v[i].name,
		    v[i].node[0] ? v[i].node : "-");
	}
	if (ferror(fp) | fclose(fp)) {
		free(buf);
		free(ids);
		free(v);
		return diag_errno(d, ENOMEM, "cleanup");
	}
	rc = n > 0 ? ops(b)->cancel(b, ids, n, d) : 0;
	free(ids);
	free(v);
	if (rc < 0) {
		free(buf);
		return -1;
	}
	*text = buf;
	return 0;
}
