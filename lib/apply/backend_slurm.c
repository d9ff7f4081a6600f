/*
 * NAME
 *	backend_slurm - run jobs on nodes held from Slurm by pilot jobs
 * SYNOPSIS
 *	backend_open(&b, "slurm", &sp, &d);
 *	b.ops->start(&b, &job, &hosts, &d);	(as backend_local, and more)
 *	backend_cleanup(&b, &text, &d);
 * DESCRIPTION
 *	Slurm's side of pilots.c.  Every node a job gets is held by one
 *	pilot job in partition bf on exactly that node:
 *
 *		sbatch -p bf -w NODE -N1 -n1 --exclusive --parsable -J NAME
 *		    -o /dev/null -D / --wrap 'exec sleep infinity'
 *
 *	NAME is bf-TAG-JOB, TAG the first 8 hex digits of the XXH3-64 of the
 *	spool's absolute path, so that the pilots of a spool, and of a job,
 *	are told apart from everything else.  A pilot holds its node while
 *	squeue shows it RUNNING; polls are
 *
 *		squeue -h -t all -o '%i|%T' --name=NAME
 *
 *	cancels scancel ID... and scancel --name=NAME, the cleanup lists
 *	squeue -h -o '%i|%j|%T|%N', and the busy nodes are those of the
 *	running jobs (squeue -h -t running -o '%j|%N') that are not the
 *	spool's pilots.  A worker is a step of its node's pilot,
 *
 *		srun --jobid=ID --overlap -N1 -n1 -w NODE -J JOB-worker
 *		    --quiet /bin/sh -c CMD
 *
 *	signalled with scancel --signal=TERM|KILL ID.
 * DIAGNOSTICS
 *	As pilots.h: 69 sbatch, squeue or scancel not found; 75 one that
 *	failed (slurmctld not answering), with its first line of stderr;
 *	76 sbatch printing no job id.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply/backend.h"
#include "apply/pilots.h"
#include "run/rundir.h"
#include "run/who.h"

static void
bslurm_name(struct backend *b, const char *job, char *out, size_t size)
{
	char tag[9];

	pilots_tag(b, tag);
	snprintf(out, size, "bf-%s-%s", tag, job ? job : "");
}

/*
 * One pilot on node for the job.  As root, the pilot is the job's owner's
 * (--uid and --gid both: Slurm 22.05 refuses --uid alone with "Invalid
 * job credential"), so that squeue and sacct show the owner, the owner's
 * limits and accounts apply, and the owner's own srun --overlap (and ssh,
 * with pam_slurm_adopt) reach the node.  Not root, it is the caller's.
 */
static int
bslurm_submit(struct backend *b, const struct job *j, const char *node,
    const char *name, char *id, size_t idsize, struct diag *d)
{
	char uid[32], gid[32], *out = NULL, *end;
	char *argv[20] = { "sbatch", "-p", "bf", "-w", (char *)node, "-N1",
	    "-n1", "--exclusive", "--parsable", "-J", (char *)name, "-o",
	    "/dev/null", "-D", "/" };
	size_t n = 15;
	struct who w;
	long long num;

	(void)b;

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
	if (pilots_run(&backend_slurm_pilots, argv, NULL, &out, d) < 0)
		return -1;
	errno = 0;
	num = strtoll(out, &end, 10);
	if (errno != 0 || end == out || num <= 0 ||
	    (*end != '\0' && *end != '\n' && *end != ';')) {
		diag_set(d, EX_PROTOCOL, "sbatch printed '%.64s', not a job id",
		    out);
		free(out);
		return -1;
	}
	free(out);
	snprintf(id, idsize, "%lld", num);
	return 0;
}

/* The state of each pilot from squeue (all states); "" when not listed. */
static int
bslurm_poll(struct backend *b, const char *name, struct pilots *p,
    struct diag *d)
{
	char opt[PILOT_NAME_MAX + 8], *out, *line, *save, state[24];
	char *argv[] = { "squeue", "-h", "-t", "all", "-o", "%i|%T", opt,
	    NULL };
	long long id;
	size_t i;

	(void)b;
	snprintf(opt, sizeof opt, "--name=%s", name);
	if (pilots_run(&backend_slurm_pilots, argv, NULL, &out, d) < 0)
		return -1;
	for (line = strtok_r(out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%lld|%23[A-Z_]", &id, state) != 2)
			continue;
		for (i = 0; i < p->n; i++)
			if (strtoll(p->v[i].id, NULL, 10) == id)
				snprintf(p->v[i].state, sizeof p->v[i].state,
				    "%s", state);
	}
	free(out);
	return 0;
}

static int
bslurm_cancel(struct backend *b, char *const ids[], size_t n, struct diag *d)
{
	char **argv;
	size_t i;
	int rc;

	(void)b;
	if ((argv = calloc(n + 2, sizeof *argv)) == NULL)
		return diag_errno(d, ENOMEM, "scancel");
	argv[0] = "scancel";
	for (i = 0; i < n; i++)
		argv[i + 1] = ids[i];
	rc = pilots_run(&backend_slurm_pilots, argv, NULL, NULL, d);
	free(argv);
	return rc;
}

static int
bslurm_cancel_named(struct backend *b, const char *name, struct diag *d)
{
	char opt[PILOT_NAME_MAX + 8];
	char *argv[] = { "scancel", opt, NULL };

	(void)b;
	snprintf(opt, sizeof opt, "--name=%s", name);
	return pilots_run(&backend_slurm_pilots, argv, NULL, NULL, d);
}

static int
bslurm_list(struct backend *b, const char *prefix, struct pilot_entry **v,
    size_t *n, struct diag *d)
{
	char *out, *line, *save, jname[256], state[24],
	    node[HOSTLIST_MAX_NAME + 1];
	char *argv[] = { "squeue", "-h", "-o", "%i|%j|%T|%N", NULL };
	struct pilot_entry *grown;
	long long id;

	(void)b;
	*v = NULL;
	*n = 0;
	if (pilots_run(&backend_slurm_pilots, argv, NULL, &out, d) < 0)
		return -1;
	for (line = strtok_r(out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		node[0] = '\0';
		if (sscanf(line, "%lld|%255[^|]|%23[^|]|%255s", &id, jname,
		    state, node) < 3 ||
		    strncmp(jname, prefix, strlen(prefix)) != 0)
			continue;
		if ((grown = realloc(*v, (*n + 1) * sizeof **v)) == NULL) {
			free(out);
			free(*v);
			*v = NULL;
			return diag_errno(d, ENOMEM, "cleanup");
		}
		*v = grown;
		snprintf(grown[*n].id, sizeof grown[*n].id, "%lld", id);
		snprintf(grown[*n].name, sizeof grown[*n].name, "%s", jname);
		snprintf(grown[*n].node, sizeof grown[*n].node, "%s", node);
		(*n)++;
	}
	free(out);
	return 0;
}

/* The nodes of running jobs other than this spool's pilots, sorted. */
static int
bslurm_busy(struct backend *b, const char *prefix, struct hostlist *busy,
    struct diag *d)
{
	char *out, *line, *save, *bar, err[256];
	char *argv[] = { "squeue", "-h", "-t", "running", "-o", "%j|%N",
	    NULL };

	(void)b;
	hostlist_init(busy);
	if (pilots_run(&backend_slurm_pilots, argv, NULL, &out, d) < 0)
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

static int
bslurm_worker(struct pilot_argv *a, const char *pilot, const char *host,
    const char *job, const char *cmd)
{
	return pilot_argv_add(a, "srun") | pilot_argv_add(a, "--jobid=%s",
	    pilot) | pilot_argv_add(a, "--overlap") | pilot_argv_add(a,
	    "-N1") | pilot_argv_add(a, "-n1") | pilot_argv_add(a, "-w") |
	    pilot_argv_add(a, "%s", host) | pilot_argv_add(a, "-J") |
	    pilot_argv_add(a, "%s-worker", job) | pilot_argv_add(a,
	    "--quiet") | pilot_argv_add(a, "/bin/sh") | pilot_argv_add(a,
	    "-c") | pilot_argv_add(a, "%s", cmd);
}

/*
 * scancel --signal delivers the signal to the pilot's steps, not to its
 * batch shell: the worker gets it, the node stays held.
 */
static int
bslurm_signal(struct pilot_argv *a, const char *pilot, int sig)
{
	if ((pilot_argv_add(a, "scancel") | pilot_argv_add(a, "--signal=%s",
	    sig == SIGKILL ? "KILL" : "TERM") | pilot_argv_add(a, "%s",
	    pilot)) < 0)
		return 0;
	return 1;
}

static const struct pilot_exec bslurm_exec = {
	.scheduler = "Slurm",
	.worker = bslurm_worker,
	.signal = bslurm_signal,
};

const struct pilot_ops backend_slurm_pilots = {
	.exec = &bslurm_exec,
	.running = "RUNNING",
	.wait = 10,
	.tick = 0.2,
	.open = NULL,
	.name = bslurm_name,
	.submit = bslurm_submit,
	.poll = bslurm_poll,
	.cancel = bslurm_cancel,
	.cancel_named = bslurm_cancel_named,
	.list = bslurm_list,
	.busy = bslurm_busy,
};

const struct backend_ops backend_slurm = {
	"slurm", pilots_start, pilots_resize, pilots_stop, pilots_status,
	pilots_retire, &backend_slurm_pilots, NULL, NULL,
};
