/*
 * NAME
 *	solve_place - which nodes each job gets, and the plan that says so
 * DESCRIPTION
 *	See solve.h.  The solver chose counts (solve.c); here they become
 *	hosts: a shrinking job gives back first the nodes the main scheduler
 *	takes back soonest, growers take the nodes that last longest, those
 *	whose rescale costs most first, so that a plan moves as few nodes as
 *	its counts allow; then the plan file's head, jobs and notes.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fmt.h"

#include "profile/curve.h"
#include "solve/solve.h"

/* Unknown until (0) means no reclaim is expected: it lasts longest. */
static long long
lasts(const struct holes *h, size_t i)
{
	return h->nodes[i].until == 0 ? LLONG_MAX : h->nodes[i].until;
}

struct keyed {
	long long key;
	size_t idx;
};

static int
keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Soonest reclaimed first, or with late_first the longest lasting
 * first; node indices are in canonical name order, so ties go by name.
 */
static void
sort_nodes(const struct holes *h, size_t *idx, size_t n, int late_first)
{
	struct keyed *k = malloc((n + 1) * sizeof *k);
	size_t i;

	if (k == NULL)
		return;		/* index order: still deterministic */
	for (i = 0; i < n; i++) {
		long long l = lasts(h, idx[i]);
		k[i].key = late_first ? (l == LLONG_MAX ? LLONG_MIN : -l) : l;
		k[i].idx = idx[i];
	}
	if (n > 1)
		qsort(k, n, sizeof *k, keyed_cmp);
	for (i = 0; i < n; i++)
		idx[i] = k[i].idx;
	free(k);
}

/* A shrinking job gives back its soonest-reclaimed nodes. */
static int
release(const struct solve *s, long *own, size_t j, size_t *idx)
{
	long keep = s->jobs[j].k[s->jobs[j].pick];
	size_t i, n = 0;

	for (i = 0; i < s->holes.n; i++)
		if (s->holder[i] == (long)j)
			idx[n++] = i;
	sort_nodes(&s->holes, idx, n, 0);
	for (i = 0; i + (size_t)keep < n; i++)
		own[idx[i]] = -1;
	return 0;
}

static double
grow_cost(const struct solve_job *j)
{
	return j->weight * j->cost_up;
}

/* Growing jobs, highest rescale cost first, then by name. */
static void
sort_growers(const struct solve *s, size_t *g, size_t n)
{
	size_t a, b;

	for (a = 1; a < n; a++) {
		size_t v = g[a];
		for (b = a; b > 0; b--) {
			double cb = grow_cost(&s->jobs[g[b - 1]]);
			double cv = grow_cost(&s->jobs[v]);
			if (cb > cv || (cb == cv && g[b - 1] < v))
				break;
			g[b] = g[b - 1];
		}
		g[b] = v;
	}
}

static void
hand_out(const struct solve *s, long *own, size_t *idx, size_t *g)
{
	size_t i, n = 0, ng = 0, next = 0;

	for (i = 0; i < s->holes.n; i++)
		if (s->holder[i] < 0)
			idx[n++] = i;
	sort_nodes(&s->holes, idx, n, 1);
	for (i = 0; i < s->njobs; i++)
		if (s->jobs[i].k[s->jobs[i].pick] > s->jobs[i].was)
			g[ng++] = i;
	sort_growers(s, g, ng);
	for (i = 0; i < ng; i++) {
		const struct solve_job *j = &s->jobs[g[i]];
		long more = j->k[j->pick] - j->was;
		while (more-- > 0 && next < n)
			own[idx[next++]] = (long)g[i];
	}
}

/*
 * The compressed hostlist of the nodes at order[from..to) (holes order),
 * or "" when none.
 */
static char *
hosts_at(const struct solve *s, const size_t *order, size_t from, size_t to)
{
	struct hostlist hl;
	char *text;
	size_t i;

	hostlist_init(&hl);
	for (i = from; i < to; i++)
		if (hostlist_add(&hl, s->holes.nodes[order[i]].name) < 0) {
			hostlist_free(&hl);
			return NULL;
		}
	text = hostlist_compress(&hl);
	hostlist_free(&hl);
	return text;
}

/*
 * The changes the model's row rescale counts in the plan (bf-solve(1),
 * The policy file: forced ones are not counted), or -1 without the row.
 */
static long
rescales_counted(const struct solve *s)
{
	const struct milp *m = &s->model;
	unsigned char *picked;
	size_t r, k, j;
	long n = 0;

	for (r = 0; r < m->nrows; r++)
		if (strcmp(m->rowname[r], "rescale") == 0)
			break;
	if (r == m->nrows || (picked = calloc(m->ncols + 1, 1)) == NULL)
		return -1;
	for (j = 0; j < s->njobs; j++)
		if (s->jobs[j].col0 >= 0 && (size_t)s->jobs[j].col0 +
		    s->jobs[j].pick < m->ncols)
			picked[(size_t)s->jobs[j].col0 + s->jobs[j].pick] = 1;
	for (k = 0; k < m->nz; k++)
		if (m->trow[k] == (int)r && picked[m->tcol[k]])
			n += (long)m->tval[k];
	free(picked);
	return n;
}

/*
 * Why a job gets no node, in the words bf-report --now shows its owner:
 * the first that holds of no idle node at all, a policy cap its user's
 * other jobs fill, the policy's rescale limit used up by other jobs
 * (changes: rescales_counted()), and the nodes being worth more to other
 * jobs (the objective's choice).  A min_nodes above its reach, with idle
 * nodes, is said by note_of().
 */
static size_t
why_waits(const struct solve *s, const struct solve_job *j, long changes,
    char *buf, size_t len, size_t size)
{
	const struct policy_user *pu = NULL;
	long held = 0;
	size_t u, k;

	if (j->k[j->pick] > 0 || len >= size || (s->holes.n > 0 &&
	    j->job.min_nodes > j->reach))
		return len;
	for (u = 0; s->have_policy && u < s->policy.nusers; u++)
		if (s->policy.users[u].uid == j->job.owner_uid &&
		    s->policy.users[u].max_nodes >= 0)
			pu = &s->policy.users[u];
	for (k = 0; pu != NULL && k < s->njobs; k++)
		if (s->jobs[k].job.owner_uid == j->job.owner_uid)
			held += s->jobs[k].k[s->jobs[k].pick];
	if (s->holes.n == 0)
		len += (size_t)snprintf(buf + len, size - len, "%swaits: no "
		    "idle node", len ? "; " : "");
	else if (pu != NULL && held + j->job.min_nodes > pu->max_nodes)
		len += (size_t)snprintf(buf + len, size - len, "%swaits: held "
		    "by policy cap: user %lld may hold %ld nodes, its jobs "
		    "hold %ld", len ? "; " : "", pu->uid, pu->max_nodes, held);
	else if (changes >= 0 && j->was == 0 &&
	    changes >= s->policy.max_rescales)
		len += (size_t)snprintf(buf + len, size - len, "%swaits: the "
		    "policy's rescale limit: at most %ld jobs change count at "
		    "a decision, %ld do", len ? "; " : "",
		    s->policy.max_rescales, changes);
	else
		len += (size_t)snprintf(buf + len, size - len, "%swaits: the "
		    "nodes are worth more to other jobs", len ? "; " : "");
	return len;
}

static char *
note_of(const struct solve *s, const struct solve_job *j, long changes)
{
	char buf[512] = "";
	size_t len = 0;

	if (j->probe > 0)
		len += (size_t)snprintf(buf + len, sizeof buf - len,
		    "%sprofiling: may only stop, stay or probe %ld nodes",
		    len ? "; " : "", j->probe);
	if (j->prior > 0 && len < sizeof buf)
		len += (size_t)snprintf(buf + len, sizeof buf - len,
		    "%sno scaling: the prior, the median rate per node "
		    "measured, %.6g samples/s per node, until bf-profile "
		    "measures it", len ? "; " : "", j->prior);
	else if (j->job.npoints == 0 && len < sizeof buf)
		len += (size_t)snprintf(buf + len, sizeof buf - len,
		    "%sno scaling: provisional rate of %g sample/s per node "
		    "until bf-profile measures it", len ? "; " : "",
		    CURVE_PROVISIONAL_RATE);
	if (j->stated > j->was && len < sizeof buf)
		len += (size_t)snprintf(buf + len, sizeof buf - len,
		    "%snodes taken back: %ld of %ld", len ? "; " : "",
		    j->stated - j->was, j->stated);
	if (j->job.min_nodes > j->reach && s->holes.n > 0 && len < sizeof buf)
		len += (size_t)snprintf(buf + len, sizeof buf - len,
		    "%smin_nodes %ld is above the most it could get, %ld",
		    len ? "; " : "", j->job.min_nodes, j->reach);
	len = why_waits(s, j, changes, buf, len, sizeof buf);
	return len ? strdup(buf) : NULL;
}

static void
plan_head(const struct solve *s, const struct solve_opts *o,
    const char *mps, struct plan *p)
{
	p->time = s->holes.time;
	memcpy(p->holes, s->dig_holes, sizeof p->holes);
	memcpy(p->jobs_digest, s->dig_jobs, sizeof p->jobs_digest);
	memcpy(p->state, s->dig_state, sizeof p->state);
	if (s->have_policy)
		memcpy(p->policy, s->dig_policy, sizeof p->policy);
	solve_profiles_digest(s, p->profiles);
	snprintf(p->curve, sizeof p->curve, "%s", p->profiles[0] != '\0' &&
	    s->curve_rule == PROFILE_CURVE_SCALED ? "scaled" : "");
	snprintf(p->profiling, sizeof p->profiling, "%s",
	    p->profiles[0] == '\0' ? "" : o->probe ? "probe" : "passive");
	snprintf(p->solver, sizeof p->solver, "%s",
	    o->solver == SOLVE_DP ? "dp" : "cbc");
	snprintf(p->model, sizeof p->model, "%s", SOLVE_MODEL_NAME(o->model));
	snprintf(p->status, sizeof p->status, "%s", s->status);
	snprintf(p->mps, sizeof p->mps, "%s", mps ? mps : "");
	p->objective = s->objective;
	p->seconds = s->seconds;
	p->tfwd = s->tfwd;
	snprintf(p->horizon, sizeof p->horizon, "%s",
	    o->horizon == SOLVE_HORIZON_LEARNT ? "learnt" : "");
}

/*
 * Each job's hosts: the nodes grouped by owner in one counting pass
 * (start[w + 1] is where owner w's run begins; owner -1, free, first),
 * in holes order within each, not a scan of every node per job (500 jobs
 * of 10,000 nodes: 5 million steps).
 */
static int
plan_jobs(const struct solve *s, const long *own, struct plan *p)
{
	size_t j, i, n = s->holes.n;
	size_t *start = calloc(s->njobs + 2, sizeof *start);
	size_t *fill = calloc(s->njobs + 2, sizeof *fill);
	size_t *order = malloc((n ? n : 1) * sizeof *order);
	long changes = rescales_counted(s);
	int rc = -1;

	if (start == NULL || fill == NULL || order == NULL ||
	    (p->jobs = calloc(s->njobs + 1, sizeof *p->jobs)) == NULL)
		goto out;
	for (i = 0; i < n; i++)
		start[(size_t)(own[i] + 1) + 1]++;
	for (j = 1; j < s->njobs + 2; j++)
		start[j] += start[j - 1];
	memcpy(fill, start, (s->njobs + 2) * sizeof *fill);
	for (i = 0; i < n; i++)
		order[fill[(size_t)(own[i] + 1)]++] = i;
	for (j = 0; j < s->njobs; j++) {
		const struct solve_job *sj = &s->jobs[j];
		struct plan_job *pj = &p->jobs[j];
		p->njobs++;
		snprintf(pj->name, sizeof pj->name, "%s", sj->job.name);
		pj->nodes = sj->k[sj->pick];
		pj->was = sj->was;
		pj->note = note_of(s, sj, changes);
		if (pj->nodes > 0 && (pj->hosts = hosts_at(s, order,
		    start[j + 1], start[j + 2])) == NULL)
			goto out;
	}
	if ((p->free = hosts_at(s, order, start[0], start[1])) != NULL)
		rc = 0;
out:
	free(start), free(fill), free(order);
	return rc;
}

int
solve_plan(const struct solve *s, const struct solve_opts *o,
    const char *mps, struct plan *p, struct diag *d)
{
	size_t n = s->holes.n + 1, j;
	long *own = malloc(n * sizeof *own);
	size_t *idx = malloc(n * sizeof *idx);
	size_t *g = malloc((s->njobs + 1) * sizeof *g);
	int rc = -1;

	plan_init(p);
	if (own != NULL && idx != NULL && g != NULL) {
		if (s->holes.n > 0)
			memcpy(own, s->holder, s->holes.n * sizeof *own);
		for (j = 0; j < s->njobs; j++)
			if (s->jobs[j].k[s->jobs[j].pick] < s->jobs[j].was)
				release(s, own, j, idx);
		hand_out(s, own, idx, g);
		plan_head(s, o, mps, p);
		rc = plan_jobs(s, own, p);
	}
	free(own), free(idx), free(g);
	if (rc < 0) {
		plan_free(p);
		return diag_errno(d, ENOMEM, "unable to make the plan");
	}
	return 0;
}

