/*
 * NAME
 *	slurm - usable nodes from a live Slurm: sinfo and squeue output
 * DESCRIPTION
 *	See slurm.h.  Only the fixed "-h -o" formats are parsed, split on
 *	'|', which no node, partition or state name contains (a job name
 *	might: it is the third of seven fields, so the line is split from
 *	both ends).  Nodes are kept sorted by name and found by bsearch.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/array.h"
#include "util/cmdout.h"
#include "util/hostlist.h"

#include "sched/slurm.h"

#define SLURM_HINT	"is slurmctld answering?"

enum use { USE_NO, USE_IDLE, USE_PLANNED, USE_BUSY, USE_UNKNOWN };

struct node {
	char *name;
	enum use use;
	int others;		/* running jobs not ours */
	int ours;		/* running jobs of bftrainer */
	long long until;	/* earliest planned start, 0 none */
};

struct nodes {
	struct node *v;
	size_t n, cap;
};

static int
node_cmp(const void *a, const void *b)
{
	return hostlist_cmp_names(((const struct node *)a)->name,
	    ((const struct node *)b)->name);
}

static struct node *
find(struct nodes *ns, const char *name)
{
	struct node key = { (char *)name, USE_NO, 0, 0, 0 };

	return ns->n ? bsearch(&key, ns->v, ns->n, sizeof key, node_cmp) :
	    NULL;
}

/* A state word with no flag; anything unknown is not usable. */
static enum use
classify(const char *state)
{
	static const char *const flags = "*~#!%$@^-";

	/* Not yet heard from since slurmctld started: nothing is known. */
	if (strncmp(state, "unknown", 7) == 0)
		return USE_UNKNOWN;
	if (strpbrk(state, flags) != NULL || strchr(state, '+') != NULL)
		return USE_NO;
	if (strcmp(state, "idle") == 0)
		return USE_IDLE;
	if (strcmp(state, "planned") == 0)
		return USE_PLANNED;
	if (strcmp(state, "allocated") == 0 || strcmp(state, "mixed") == 0)
		return USE_BUSY;
	return USE_NO;
}

/* Splits line into exactly n '|'-fields; the middle one takes any extra. */
static int
split(char *line, char **f, int n, int loose)
{
	int i;
	char *p;

	for (i = 0, p = line; i < loose; i++) {
		f[i] = p;
		if ((p = strchr(p, '|')) == NULL)
			return -1;
		*p++ = '\0';
	}
	f[loose] = p;
	for (i = n - 1; i > loose; i--) {
		char *bar = strrchr(f[loose], '|');
		if (bar == NULL)
			return -1;
		*bar = '\0';
		f[i] = bar + 1;
	}
	return 0;
}

static int
add_node(struct nodes *ns, const char *name, enum use use, struct diag *d)
{
	struct node *v = array_grow(ns->v, &ns->cap, ns->n + 1, sizeof *v, 64);

	if (v == NULL)
		return diag_errno(d, ENOMEM, "sinfo");
	ns->v = v;
	ns->v[ns->n] = (struct node){ strdup(name), use, 0, 0, 0 };
	if (ns->v[ns->n].name == NULL)
		return diag_errno(d, ENOMEM, "sinfo");
	ns->n++;
	return 0;
}

/* One line per node and partition; a node counts as its worst line. */
static int
parse_sinfo(struct nodes *ns, char *text, struct diag *d)
{
	size_t line = 0, i, j;
	char *save = NULL, *s, *f[3];

	for (s = strtok_r(text, "\n", &save); s; s = strtok_r(NULL, "\n",
	    &save)) {
		line++;
		if (split(s, f, 3, 2) < 0)
			return diag_set(d, EX_DATAERR, "sinfo:%zu: a line has "
			    "3 fields NODE|STATE|PARTITION", line);
		if (!hostlist_valid_name(f[0]))
			return diag_set(d, EX_DATAERR, "sinfo:%zu: bad node "
			    "name '%.64s'", line, f[0]);
		if (f[1][0] == '\0')
			return diag_set(d, EX_DATAERR, "sinfo:%zu: no state "
			    "for node %s", line, f[0]);
		if (add_node(ns, f[0], classify(f[1]), d) < 0)
			return -1;
	}
	if (ns->n > 1)
		qsort(ns->v, ns->n, sizeof *ns->v, node_cmp);
	for (i = j = 0; i < ns->n; i++) {
		if (j > 0 && strcmp(ns->v[j - 1].name, ns->v[i].name) == 0) {
			if (ns->v[i].use == USE_UNKNOWN)
				ns->v[j - 1].use = USE_UNKNOWN;
			else if (ns->v[i].use != ns->v[j - 1].use &&
			    ns->v[j - 1].use != USE_UNKNOWN)
				ns->v[j - 1].use = USE_NO;
			free(ns->v[i].name);
			continue;
		}
		ns->v[j++] = ns->v[i];
	}
	ns->n = j;
	return 0;
}

/* Slurm's "2026-11-21T19:11:12", local time; 0 for N/A and the like. */
static int
parse_start(const char *s, long long *t)
{
	struct tm tm;
	int n = 0;
	time_t u;

	*t = 0;
	if (strcmp(s, "N/A") == 0 || strcmp(s, "Unknown") == 0 ||
	    strcmp(s, "(null)") == 0 || *s == '\0')
		return 0;
	memset(&tm, 0, sizeof tm);
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon,
	    &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6 ||
	    s[n] != '\0')
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	tm.tm_isdst = -1;
	if ((u = mktime(&tm)) == (time_t)-1)
		return -1;
	*t = (long long)u;
	return 0;
}

static int
is_running(const char *state)
{
	return strcmp(state, "PENDING") != 0;
}

static int
mark_nodes(struct nodes *ns, const char *expr, size_t line, int own,
    long long start, struct diag *d)
{
	struct hostlist hl;
	char err[256];
	size_t i;

	hostlist_init(&hl);
	if (hostlist_parse(&hl, expr, err, sizeof err) < 0) {
		hostlist_free(&hl);
		return diag_set(d, EX_DATAERR, "squeue:%zu: %s", line, err);
	}
	for (i = 0; i < hl.n; i++) {
		struct node *nd = find(ns, hl.names[i]);
		if (nd == NULL)
			continue;
		if (start == 0)
			*(own ? &nd->ours : &nd->others) += 1;
		else if (nd->until == 0 || start < nd->until)
			nd->until = start;
	}
	hostlist_free(&hl);
	return 0;
}

static int
parse_squeue(struct nodes *ns, const char *own, char *text, struct diag *d)
{
	size_t line = 0;
	char *save = NULL, *s, *f[7];

	for (s = strtok_r(text, "\n", &save); s; s = strtok_r(NULL, "\n",
	    &save)) {
		long long start;
		int mine;
		line++;
		if (split(s, f, 7, 2) < 0)
			return diag_set(d, EX_DATAERR, "squeue:%zu: a line has "
			    "7 fields JOBID|PARTITION|NAME|STATE|NODELIST|"
			    "START|SCHEDNODES", line);
		if (f[0][0] == '\0' || f[3][0] == '\0')
			return diag_set(d, EX_DATAERR, "squeue:%zu: no job id "
			    "or state", line);
		mine = strcmp(f[1], own) == 0 || strcmp(f[2], own) == 0;
		if (is_running(f[3])) {
			if (f[4][0] != '\0' && mark_nodes(ns, f[4], line, mine,
			    0, d) < 0)
				return -1;
			continue;
		}
		if (parse_start(f[5], &start) < 0)
			return diag_set(d, EX_DATAERR, "squeue:%zu: bad start "
			    "time '%.32s'", line, f[5]);
		if (start > 0 && strcmp(f[6], "(null)") != 0 && f[6][0] != '\0'
		    && mark_nodes(ns, f[6], line, mine, start, d) < 0)
			return -1;
	}
	return 0;
}

static int
usable(const struct node *nd)
{
	switch (nd->use) {
	case USE_IDLE:
		return 1;
	case USE_PLANNED:
		return nd->until != 0;
	case USE_BUSY:
		return nd->ours > 0 && nd->others == 0;
	default:
		return 0;
	}
}

int
slurm_parse(const struct slurm_opts *so, char *sinfo, char *squeue,
    struct holes *h, struct diag *d)
{
	struct nodes ns = { NULL, 0, 0 };
	size_t i;
	int rc = -1;

	holes_init(h);
	h->time = (long long)time(NULL);
	snprintf(h->source, sizeof h->source, "slurm");
	if (parse_sinfo(&ns, sinfo, d) < 0 ||
	    parse_squeue(&ns, so->own ? so->own : "bf", squeue, d) < 0)
		goto out;
	/*
	 * Right after slurmctld starts, every node is "unknown" until its
	 * slurmd registers again: answering "none usable" then would stop
	 * every job.  The state is not known yet: try later.
	 */
	for (i = 0; i < ns.n; i++)
		if (ns.v[i].use == USE_UNKNOWN) {
			diag_set(d, EX_TEMPFAIL, "sinfo: node %s is in state "
			    "unknown (slurmctld has not heard from it since it "
			    "started); try later", ns.v[i].name);
			goto out;
		}
	for (i = 0; i < ns.n; i++)
		if (usable(&ns.v[i]) && holes_add(h, ns.v[i].name,
		    ns.v[i].until) < 0) {
			diag_errno(d, ENOMEM, "slurm");
			goto out;
		}
	rc = holes_finish(h, "slurm", d);
out:
	for (i = 0; i < ns.n; i++)
		free(ns.v[i].name);
	free(ns.v);
	return rc;
}

int
slurm_holes(const struct slurm_opts *so, struct holes *h, struct diag *d)
{
	char *si = NULL, *sq = NULL;
	size_t len;
	int rc = -1;

	holes_init(h);
	if ((so->sinfo == NULL && !cmdout_on_path("sinfo")) ||
	    (so->squeue == NULL && !cmdout_on_path("squeue")))
		return diag_set(d, EX_UNAVAILABLE, "%s: not found on PATH; "
		    "is Slurm installed?", so->sinfo == NULL &&
		    !cmdout_on_path("sinfo") ? "sinfo" : "squeue");
	if (cmdout_run("sinfo", so->sinfo ? so->sinfo : "sinfo "
	    SLURM_SINFO_ARGS, SLURM_HINT, &si, &len, d) == 0 &&
	    cmdout_run("squeue", so->squeue ? so->squeue : "squeue "
	    SLURM_SQUEUE_ARGS, SLURM_HINT, &sq, &len, d) == 0)
		rc = slurm_parse(so, si, sq, h, d);
	free(si);
	free(sq);
	return rc;
}
