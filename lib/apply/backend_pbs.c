/*
 * NAME
 *	backend_pbs - run jobs on nodes held from PBS by pilot jobs
 * SYNOPSIS
 *	backend_open(&b, "pbs", &sp, &d);
 *	b.ops->start(&b, &job, &hosts, &d);	(as backend_local, and more)
 *	backend_cleanup(&b, &text, &d);
 * DESCRIPTION
 *	PBS Professional's and OpenPBS's side of pilots.c.  Every node a
 *	job gets is held by one pilot job in queue bf on exactly that host,
 *	the whole host:
 *
 *		qsub -f -q bf -N NAME -l select=1:host=NODE -l place=exclhost
 *		    -m n -j oe -o /dev/null -- /bin/sh -c PILOT_SH
 *
 *	submitted as the job's owner: PBS has no option to submit for
 *	another user (it takes the submitter's identity from the operating
 *	system, through its authentication), so as root bf-apply forks,
 *	takes the owner's uid, gid and groups, and runs qsub.  qsub prints
 *	the job id, SEQUENCE.SERVER.  -f: without it qsub leaves a process
 *	of its own in the background, as the owner, for a minute (to reuse
 *	its connection), orphaned from bf-apply.
 *
 *	The pilot (PILOT_SH) sleeps, and ends, its sleep killed first (the
 *	MoM waits for every process of the job), at the first SIGTERM that
 *	no SIGUSR2 came before: a deletion or a preemption (the MoM's SIGTERM,
 *	then SIGKILL only at its next check, seconds later even with
 *	kill_delay 0) ends it at once, and its node goes back as fast as a
 *	plain job's would.  A shrink's notice to the worker attached to it
 *	is qsig -s USR2, then qsig -s TERM: qsig signals every process of
 *	the job, and the USR2 tells the pilot that the TERM after it is for
 *	the worker, which ignores USR2 (its shell's first command, trap ''
 *	USR2, inherited by what it runs).  A notice always comes before the
 *	pilot's deletion, after the grace; but a TERM of a deletion can
 *	take the place of a notice's that never came (seen with OpenPBS
 *	23.06: a job stopping while its pilots go; the MoM sends no second
 *	TERM for a second qdel, nor the SIGKILL), so a pilot also ends by
 *	itself the grace and 3 s after a notice, by when bf-apply deletes
 *	it anyway.

 *	NAME is bf-TAG-JOB as for Slurm (at most 76 characters: PBS 13 and
 *	later take 236, 19.2.1 and later 230).  PBS 12 and older take 15:
 *	with BF_PBS_NAME_MAX below 76, NAME is bfTTTTTJJJJJJJJ instead, the
 *	first 5 hex digits of the spool's tag and the first 8 of the XXH3-64
 *	of the job's name, 15 characters.
 *
 *	Everything is read from one listing of the queue,
 *
 *		qstat -f -F json bf
 *
 *	(a pilot holds its node while its job_state is R; a pilot the
 *	listing lacks has ended, qstat showing no finished jobs without -x).
 *	Pilots are deleted with qdel -Wsuppress_email=1 ID... (-1, which
 *	qdel(1B) documents as no mail, hangs OpenPBS 23.06's qdel for ever:
 *	it asks the server first to delete zero jobs, which is never
 *	answered), a job PBS
 *	answers "Unknown Job Id" or "Job has finished" for being gone
 *	already, which is all a delete asks.  The busy nodes are the hosts
 *	of the vnodes of pbsnodes -a -F json that list a job that is not one
 *	of the spool's pilots in the queue.  A worker is a session of its
 *	node attached to the node's pilot,
 *
 *		ssh -tt -o BatchMode=yes -o SendEnv=BF_* NODE
 *		    pbs_attach -j ID /bin/sh -c 'trap "" USR2; CMD'
 *
 *	(pbs_attach must run on the node, as the job's owner: tm_attach(3)
 *	talks to the node's MoM), signalled TERM with
 *
 *		/bin/sh -c 'qsig -s USR2 "$1" && exec qsig -s TERM "$1"' sh ID
 *
 *	a
 *	SIGKILL goes to ssh alone, whose pseudo-terminal hangs the session
 *	up, and the pilot's deletion ends what is left.
 * DIAGNOSTICS
 *	As pilots.h: 69 qsub, qstat, qdel or pbsnodes not found; 75 one that
 *	failed (the server not answering), with its first line of stderr;
 *	76 qsub printing no job id, qstat or pbsnodes printing what is not
 *	their JSON; 78 BF_PBS_NAME_MAX not a number from 15.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/hash.h"

#include "apply/backend.h"
#include "apply/pilots.h"
#include "run/rundir.h"
#include "run/who.h"
#include "sched/pbs.h"

#define PBS_QUEUE	"bf"
#define PBS_LONG_NAME	(3 + 8 + 1 + JOB_NAME_MAX)	/* bf-TAG-JOB */
#define PBS_SHORT_NAME	15	/* PBS 12 and older */

/* The pilot: a TERM with no USR2 just before it ends it; one after a USR2
 * (a notice) ends it %d seconds later (see above). */
#define PILOT_SH	"n=0; trap n=1 USR2; " \
	"trap 'if [ $n = 1 ]; then n=0; (sleep %d; kill $$) & " \
	"else kill $!; exit 0; fi' TERM; while :; do sleep 86400 & wait; done"
/* A shrink's notice: the USR2 the worker ignores, then its TERM. */
#define NOTICE_SH	"qsig -s USR2 \"$1\" && exec qsig -s TERM \"$1\""

static int
bpbs_open(struct backend *b, struct diag *d)
{
	const char *s = getenv("BF_PBS_NAME_MAX");
	char *end;
	long n;

	b->pilot_name_max = 230;
	if (s == NULL || *s == '\0')
		return 0;
	errno = 0;
	n = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || n < PBS_SHORT_NAME || n > 100000)
		return diag_set(d, EX_CONFIG, "BF_PBS_NAME_MAX '%.32s' is not "
		    "a number of characters from %d (PBS's job name limit: 15 "
		    "up to PBS 12, 236 or 230 later)", s, PBS_SHORT_NAME);
	b->pilot_name_max = (size_t)n;
	return 0;
}

static void
bpbs_name(struct backend *b, const char *job, char *out, size_t size)
{
	char tag[9], hex[HASH_TEXT_LEN];

	pilots_tag(b, tag);
	if (b->pilot_name_max >= PBS_LONG_NAME) {
		snprintf(out, size, "bf-%s-%s", tag, job ? job : "");
		return;
	}
	if (job == NULL) {
		snprintf(out, size, "bf%.5s", tag);
		return;
	}
	hash_format(hash_buf(job, strlen(job)), hex);
	snprintf(out, size, "bf%.5s%.8s", tag, hex + 5);
}

/* SEQUENCE[.SERVER]: digits, then a host name; what qsub prints. */
static int
job_id_ok(const char *s, size_t len)
{
	size_t i = 0;

	if (len == 0 || len >= PILOT_ID_MAX || s[0] < '1' || s[0] > '9')
		return 0;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == len)
		return 1;
	if (s[i] != '.' || i + 1 == len)
		return 0;
	for (i++; i < len; i++)
		if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		    "0123456789.-_", s[i]) == NULL)
			return 0;
	return 1;
}

/* The same job: the same sequence number (the server part may differ in
 * how much of the host name it gives). */
static int
same_job(const char *a, const char *b)
{
	size_t na = strcspn(a, "."), nb = strcspn(b, ".");

	return na == nb && strncmp(a, b, na) == 0;
}

static int
bpbs_submit(struct backend *b, const struct job *j, const char *node,
    const char *name, char *id, size_t idsize, struct diag *d)
{
	char select[HOSTLIST_MAX_NAME + 32], sh[sizeof PILOT_SH + 16];
	char *out = NULL;
	char *argv[] = { "qsub", "-f", "-q", PBS_QUEUE, "-N", (char *)name,
	    "-l", select, "-l", "place=exclhost", "-m", "n", "-j", "oe", "-o",
	    "/dev/null", "--", "/bin/sh", "-c", sh, NULL };
	struct who w;
	size_t len;

	if (strlen(name) > b->pilot_name_max)
		return diag_set(d, EX_CONFIG, "job %s: pilot name %s is longer "
		    "than BF_PBS_NAME_MAX (%zu)", j->name, name,
		    b->pilot_name_max);
	if (j->owner_uid < 0)
		return diag_set(d, EX_CONFIG, "job %s: no owner known; no "
		    "pilot submitted", j->name);
	who_of((uid_t)j->owner_uid, &w);
	snprintf(select, sizeof select, "select=1:host=%s", node);
	snprintf(sh, sizeof sh, PILOT_SH, (int)(b->grace + 3.5));
	/* As root, the owner's: PBS knows the submitter from the system. */
	if (pilots_run(&backend_pbs_pilots, argv, geteuid() == 0 ? &w : NULL, &out,
	    d) < 0)
		return -1;
	len = strcspn(out, "\n");
	if (!job_id_ok(out, len)) {
		diag_set(d, EX_PROTOCOL, "qsub printed '%.64s', not a job id",
		    out);
		free(out);
		return -1;
	}
	snprintf(id, idsize, "%.*s", (int)len, out);
	free(out);
	return 0;
}

/* The queue's jobs, as qstat lists them: ids, names, states, hosts. */
struct qjob {
	char id[PILOT_ID_MAX];
	char name[256];
	char state[24];
	char node[HOSTLIST_MAX_NAME + 1];
};

/* The host of a pilot: its exec_host, else the host= of its select. */
static void
job_node(json_t *o, char *out, size_t size)
{
	json_t *v = json_object_get(o, "exec_host"), *rl;
	const char *s, *h;

	out[0] = '\0';
	if (json_is_string(v)) {
		s = json_string_value(v);
		snprintf(out, size, "%.*s", (int)strcspn(s, "/+"), s);
		return;
	}
	rl = json_object_get(o, "Resource_List");
	v = json_is_object(rl) ? json_object_get(rl, "select") : NULL;
	if (json_is_string(v) && (h = strstr(json_string_value(v),
	    "host=")) != NULL)
		snprintf(out, size, "%.*s", (int)strcspn(h + 5, ":+"), h + 5);
}

static int
queue_jobs(struct qjob **v, size_t *n, struct diag *d)
{
	char *argv[] = { "qstat", "-f", "-F", "json", PBS_QUEUE, NULL };
	char *out;
	json_t *doc, *jobs, *o, *f;
	json_error_t e;
	const char *id;
	size_t i = 0;

	*v = NULL;
	*n = 0;
	if (pilots_run(&backend_pbs_pilots, argv, NULL, &out, d) < 0)
		return -1;
	if (out[strspn(out, " \t\r\n")] == '\0') {	/* no jobs */
		free(out);
		return 0;
	}
	doc = json_loads(out, JSON_DECODE_INT_AS_REAL, &e);
	free(out);
	if (doc == NULL || !json_is_object(doc)) {
		diag_set(d, EX_PROTOCOL, "qstat:%d: %s", doc ? 1 : e.line,
		    doc ? "not a JSON object" : e.text);
		json_decref(doc);
		return -1;
	}
	jobs = json_object_get(doc, "Jobs");
	if (jobs != NULL && !json_is_object(jobs)) {
		json_decref(doc);
		return diag_set(d, EX_PROTOCOL, "qstat: \"Jobs\" is not an "
		    "object");
	}
	if (jobs == NULL || json_object_size(jobs) == 0) {
		json_decref(doc);
		return 0;
	}
	if ((*v = calloc(json_object_size(jobs), sizeof **v)) == NULL) {
		json_decref(doc);
		return diag_errno(d, ENOMEM, "qstat");
	}
	json_object_foreach(jobs, id, o) {
		struct qjob *q = &(*v)[i];
		if (!json_is_object(o) || !job_id_ok(id, strlen(id)))
			continue;
		snprintf(q->id, sizeof q->id, "%s", id);
		/* A name that reads as a number is printed as one: not ours. */
		if (json_is_string(f = json_object_get(o, "Job_Name")))
			snprintf(q->name, sizeof q->name, "%s",
			    json_string_value(f));
		if (json_is_string(f = json_object_get(o, "job_state")))
			snprintf(q->state, sizeof q->state, "%s",
			    json_string_value(f));
		job_node(o, q->node, sizeof q->node);
		i++;
	}
	*n = i;
	json_decref(doc);
	return 0;
}

static int
bpbs_poll(struct backend *b, const char *name, struct pilots *p,
    struct diag *d)
{
	struct qjob *v;
	size_t n, i, k;

	(void)b;
	if (queue_jobs(&v, &n, d) < 0)
		return -1;
	for (k = 0; k < n; k++) {
		if (strcmp(v[k].name, name) != 0)
			continue;
		for (i = 0; i < p->n; i++)
			if (same_job(p->v[i].id, v[k].id))
				snprintf(p->v[i].state, sizeof p->v[i].state,
				    "%s", v[k].state);
	}
	free(v);
	return 0;
}

/* Every line of qdel's standard error says the job is gone already. */
static int
all_gone(const char *err)
{
	const char *line = err, *nl;

	if (err == NULL)
		return 0;
	for (; *line != '\0'; line = nl ? nl + 1 : line + strlen(line)) {
		nl = strchr(line, '\n');
		if ((size_t)(nl ? nl - line : (long)strlen(line)) == 0)
			continue;
		if (strncmp(line, "qdel: Unknown Job Id ", 21) != 0 &&
		    strncmp(line, "qdel: Job has finished ", 23) != 0)
			return 0;
	}
	return 1;
}

static int
bpbs_cancel(struct backend *b, char *const ids[], size_t n, struct diag *d)
{
	char **argv, *out, *err;
	size_t i;
	int status, rc = 0;

	(void)b;
	if ((argv = calloc(n + 3, sizeof *argv)) == NULL)
		return diag_errno(d, ENOMEM, "qdel");
	argv[0] = "qdel";
	argv[1] = "-Wsuppress_email=1";	/* -1 hangs: see above */
	for (i = 0; i < n; i++)
		argv[i + 2] = ids[i];
	if (pilots_exec(argv, NULL, &out, &err, &status, d) < 0)
		rc = -1;
	else if (!(WIFEXITED(status) && (WEXITSTATUS(status) == 0 ||
	    (WEXITSTATUS(status) != 127 && all_gone(err))))) {
		pilots_failed(&backend_pbs_pilots, "qdel", status, err, d);
		rc = -1;
	}
	free(out);
	free(err);
	free(argv);
	return rc;
}

static int
bpbs_cancel_named(struct backend *b, const char *name, struct diag *d)
{
	struct qjob *v;
	char **ids;
	size_t n, i, k = 0;
	int rc;

	if (queue_jobs(&v, &n, d) < 0)
		return -1;
	if (n == 0)
		return 0;
	if ((ids = calloc(n, sizeof *ids)) == NULL) {
		free(v);
		return diag_errno(d, ENOMEM, "qdel");
	}
	for (i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			ids[k++] = v[i].id;
	rc = k > 0 ? bpbs_cancel(b, ids, k, d) : 0;
	free(ids);
	free(v);
	return rc;
}

static int
bpbs_list(struct backend *b, const char *prefix, struct pilot_entry **v,
    size_t *n, struct diag *d)
{
	struct qjob *q;
	size_t nq, i;

	(void)b;
	*v = NULL;
	*n = 0;
	if (queue_jobs(&q, &nq, d) < 0)
		return -1;
	if (nq > 0 && (*v = calloc(nq, sizeof **v)) == NULL) {
		free(q);
		return diag_errno(d, ENOMEM, "cleanup");
	}
	for (i = 0; i < nq; i++) {
		if (strncmp(q[i].name, prefix, strlen(prefix)) != 0)
			continue;
		snprintf((*v)[*n].id, sizeof (*v)[*n].id, "%s", q[i].id);
		snprintf((*v)[*n].name, sizeof (*v)[*n].name, "%s", q[i].name);
		snprintf((*v)[*n].node, sizeof (*v)[*n].node, "%s", q[i].node);
		(*n)++;
	}
	free(q);
	return 0;
}

/* A job of the spool's: in the queue with the spool's name prefix. */
static int
ours(const struct qjob *q, size_t n, const char *prefix, const char *id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (same_job(q[i].id, id))
			return strncmp(q[i].name, prefix, strlen(prefix)) == 0;
	return 0;
}

/* The hosts of vnodes running any job but the spool's pilots, sorted. */
static int
bpbs_busy(struct backend *b, const char *prefix, struct hostlist *busy,
    struct diag *d)
{
	char *argv[] = { "pbsnodes", "-a", "-F", "json", NULL };
	char *out, *host;
	struct qjob *q;
	size_t nq, i;
	json_t *doc, *nodes, *o, *jobs, *avail, *h;
	json_error_t e;
	const char *vname;
	int rc = 0;

	(void)b;
	hostlist_init(busy);
	if (queue_jobs(&q, &nq, d) < 0)
		return -1;
	if (pilots_run(&backend_pbs_pilots, argv, NULL, &out, d) < 0) {
		free(q);
		return -1;
	}
	doc = json_loads(out, JSON_DECODE_INT_AS_REAL, &e);
	free(out);
	if (doc == NULL || !json_is_object(doc) ||
	    !json_is_object(nodes = json_object_get(doc, "nodes"))) {
		rc = diag_set(d, EX_PROTOCOL, "pbsnodes:%d: %s", doc ? 1 :
		    e.line, doc ? "no \"nodes\" object" : e.text);
		json_decref(doc);
		free(q);
		return rc;
	}
	json_object_foreach(nodes, vname, o) {
		if (!json_is_object(o) ||
		    !json_is_array(jobs = json_object_get(o, "jobs")))
			continue;
		for (i = 0; i < json_array_size(jobs); i++)
			if (!json_is_string(json_array_get(jobs, i)) ||
			    !ours(q, nq, prefix,
			    json_string_value(json_array_get(jobs, i))))
				break;
		if (i == json_array_size(jobs))
			continue;
		avail = json_object_get(o, "resources_available");
		h = json_is_object(avail) ? json_object_get(avail, "host") :
		    NULL;
		if ((host = pbs_vnode_host(vname, json_is_string(h) ?
		    json_string_value(h) : NULL)) == NULL ||
		    hostlist_add(busy, host) < 0) {
			free(host);
			rc = diag_errno(d, ENOMEM, "pbsnodes");
			break;
		}
		free(host);
	}
	json_decref(doc);
	free(q);
	if (rc < 0) {
		hostlist_free(busy);
		return -1;
	}
	hostlist_sort_uniq(busy);
	return 0;
}

/*
 * The worker's environment travels in ssh's protocol (SendEnv), not on a
 * command line, where every user of the node could read it.
 */
static int
bpbs_worker(struct pilot_argv *a, const char *pilot, const char *host,
    const char *job, const char *cmd)
{
	(void)job;
	if (strchr(cmd, '\'') != NULL)
		return -1;
	return pilot_argv_add(a, "ssh") | pilot_argv_add(a, "-tt") |
	    pilot_argv_add(a, "-o") | pilot_argv_add(a, "BatchMode=yes") |
	    pilot_argv_add(a, "-o") | pilot_argv_add(a, "SendEnv=BF_*") |
	    pilot_argv_add(a, "%s", host) | pilot_argv_add(a, "pbs_attach") |
	    pilot_argv_add(a, "-j") | pilot_argv_add(a, "%s", pilot) |
	    pilot_argv_add(a, "/bin/sh") | pilot_argv_add(a, "-c") |
	    pilot_argv_add(a, "'trap \"\" USR2; %s'", cmd);
}

/*
 * qsig signals every process of the pilot job: the USR2 first tells the
 * pilot's shell that the TERM after it is its worker's notice, not its
 * end; the worker ignores the USR2.  No SIGKILL that way: it would end
 * the pilot.
 */
static int
bpbs_signal(struct pilot_argv *a, const char *pilot, int sig)
{
	if (sig != SIGTERM)
		return 0;
	if ((pilot_argv_add(a, "/bin/sh") | pilot_argv_add(a, "-c") |
	    pilot_argv_add(a, "%s", NOTICE_SH) | pilot_argv_add(a, "sh") |
	    pilot_argv_add(a, "%s", pilot)) < 0)
		return 0;
	return 1;
}

static const struct pilot_exec bpbs_exec = {
	.scheduler = "PBS",
	.worker = bpbs_worker,
	.signal = bpbs_signal,
};

const struct pilot_ops backend_pbs_pilots = {
	.exec = &bpbs_exec,
	.running = "R",
	.wait = 10,
	.tick = 0.5,
	.open = bpbs_open,
	.name = bpbs_name,
	.submit = bpbs_submit,
	.poll = bpbs_poll,
	.cancel = bpbs_cancel,
	.cancel_named = bpbs_cancel_named,
	.list = bpbs_list,
	.busy = bpbs_busy,
};

const struct backend_ops backend_pbs = {
	"pbs", pilots_start, pilots_resize, pilots_stop, pilots_status,
	pilots_retire, &backend_pbs_pilots, NULL, NULL,
};
