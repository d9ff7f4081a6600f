/*
 * NAME
 *	solve - from holes, jobs, state and policy to a plan
 * DESCRIPTION
 *	See solve.h and bf-solve(1).  Everything lives in struct solve, so
 *	that a caller may hold several at once.
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/array.h"
#include "util/fmt.h"
#include "util/now.h"

#include "profile/curve.h"
#include "solve/dp.h"
#include "solve/fix.h"
#include "solve/pernode.h"
#include "solve/solve.h"

void
solve_init(struct solve *s)
{
	memset(s, 0, sizeof *s);
	holes_init(&s->holes);
	state_init(&s->state);
	policy_init(&s->policy);
	milp_init(&s->model);
}

/* Seconds of the decision's -t left (below 0 once it is spent). */
static double
time_left(const struct solve *s, const struct solve_opts *o)
{
	return o->seconds - (now_mono() - s->started);
}

/* CBC's time limit for a solve that must find a plan: what is left of
 * -t, and at least SOLVE_LEFT_MIN. */
static double
cbc_limit(const struct solve *s, const struct solve_opts *o)
{
	return fmax(time_left(s, o), SOLVE_LEFT_MIN);
}

static void
job_release(struct solve_job *j)
{
	job_free(&j->job);
	free(j->label);
	hostlist_free(&j->held);
	free(j->k);
	free(j->grow);
	free(j->value);
}

void
solve_free(struct solve *s)
{
	size_t i;

	for (i = 0; i < s->njobs; i++)
		job_release(&s->jobs[i]);
	free(s->jobs);
	holes_free(&s->holes);
	state_free(&s->state);
	policy_free(&s->policy);
	milp_free(&s->model);
	free(s->holes_label);
	free(s->state_label);
	free(s->holder);
	free(s->colbound);
	free(s->mult);
	free(s->lpmult);
	free(s->floor_from);
	free(s->floor_how);
	solve_init(s);
}

int
solve_holes(struct solve *s, const char *label, const char *buf, size_t len,
    struct diag *d)
{
	if (holes_parse(&s->holes, label, buf, len, d) < 0)
		return -1;
	hash_format(hash_buf(buf, len), s->dig_holes);
	if ((s->holes_label = strdup(label)) == NULL)
		return diag_errno(d, ENOMEM, "%s", label);
	s->have_holes = 1;
	return 0;
}

int
solve_job_parsed(struct solve *s, const char *label, struct job *job,
    uint64_t digest, struct diag *d)
{
	struct solve_job *j = array_grow(s->jobs, &s->jobcap, s->njobs + 1,
	    sizeof *j, 16);
	char *copy = strdup(label);

	if (j != NULL)
		s->jobs = j;
	if (j == NULL || copy == NULL) {
		free(copy);
		job_free(job);
		return diag_errno(d, ENOMEM, "%s", label);
	}
	j = &s->jobs[s->njobs++];
	memset(j, 0, sizeof *j);
	hostlist_init(&j->held);
	j->job = *job;		/* taken over */
	memset(job, 0, sizeof *job);
	j->label = copy;
	j->digest = digest;
	return 0;
}

int
solve_job(struct solve *s, const char *label, const char *buf, size_t len,
    int flags, struct diag *d)
{
	struct job job;

	if (job_parse(&job, label, buf, len, flags, d) < 0)
		return -1;
	return solve_job_parsed(s, label, &job, hash_buf(buf, len), d);
}

int
solve_state(struct solve *s, const char *label, const char *buf, size_t len,
    struct diag *d)
{
	if (state_parse(&s->state, label, buf, len, d) < 0)
		return -1;
	hash_format(hash_buf(buf, len), s->dig_state);
	if ((s->state_label = strdup(label)) == NULL)
		return diag_errno(d, ENOMEM, "%s", label);
	s->have_state = 1;
	return 0;
}

int
solve_policy(struct solve *s, const char *label, const char *buf, size_t len,
    struct diag *d)
{
	if (policy_parse(&s->policy, label, buf, len, d) < 0)
		return -1;
	hash_format(hash_buf(buf, len), s->dig_policy);
	s->have_policy = 1;
	s->policy_rows = policy_constrains(&s->policy);
	return 0;
}

static int
job_cmp(const void *a, const void *b)
{
	return strcmp(((const struct solve_job *)a)->job.name,
	    ((const struct solve_job *)b)->job.name);
}

/*
 * The jobs digest: XXH3-64 of the lines "NAME xxh3:HEX\n", one per job in
 * name order, HEX the XXH3-64 of that job file's bytes.
 */
static int
digest_jobs(struct solve *s, struct diag *d)
{
	char *buf = NULL, text[HASH_TEXT_LEN];
	size_t size = 0, i;
	FILE *fp = open_memstream(&buf, &size);

	if (fp == NULL)
		return diag_errno(d, ENOMEM, "jobs digest");
	for (i = 0; i < s->njobs; i++) {
		hash_format(s->jobs[i].digest, text);
		fprintf(fp, "%s %s\n", s->jobs[i].job.name, text);
	}
	if (ferror(fp) | fclose(fp)) {
		free(buf);
		return diag_errno(d, ENOMEM, "jobs digest");
	}
	hash_format(hash_buf(buf, size), s->dig_jobs);
	free(buf);
	return 0;
}

static int
check_names(struct solve *s, struct diag *d)
{
	size_t i;

	if (s->njobs > 1)	/* qsort() wants a pointer even for nothing */
		qsort(s->jobs, s->njobs, sizeof *s->jobs, job_cmp);
	for (i = 1; i < s->njobs; i++)
		if (strcmp(s->jobs[i - 1].job.name, s->jobs[i].job.name) == 0)
			return diag_set(d, EX_DATAERR, "%s:%zu: job name '%s' "
			    "is also given by %s", s->jobs[i].label,
			    s->jobs[i].job.line, s->jobs[i].job.name,
			    s->jobs[i - 1].label);
	return 0;
}

static struct solve_job *
find_job(struct solve *s, const char *name)
{
	struct solve_job key;

	snprintf(key.job.name, sizeof key.job.name, "%s", name);
	if (s->njobs == 0)
		return NULL;
	return bsearch(&key, s->jobs, s->njobs, sizeof *s->jobs, job_cmp);
}

/* C_J: the job's state hosts that are still in the holes file. */
static int
apply_state(struct solve *s, struct diag *d)
{
	size_t i, h;

	for (i = 0; i < s->state.n; i++) {
		const struct state_job *sj = &s->state.jobs[i];
		struct solve_job *j = find_job(s, sj->name);
		if (j == NULL)
			return diag_set(d, EX_DATAERR, "%s:%zu: job %s in the "
			    "state has no job file", s->state_label, sj->line,
			    sj->name);
		if ((long)sj->hosts.n > j->job.max_nodes)
			return diag_set(d, EX_DATAERR, "%s:%zu: job %s holds "
			    "%zu nodes, above its max_nodes %ld",
			    s->state_label, sj->line, sj->name, sj->hosts.n,
			    j->job.max_nodes);
		j->state_line = sj->line;
		j->stated = (long)sj->hosts.n;
		for (h = 0; h < sj->hosts.n; h++) {
			const struct holes_node *n = holes_find(&s->holes,
			    sj->hosts.names[h]);
			if (n == NULL)
				continue;
			if (hostlist_add(&j->held, n->name) < 0)
				return diag_errno(d, ENOMEM, "state");
			s->holder[n - s->holes.nodes] = (long)(j - s->jobs);
		}
		j->was = (long)j->held.n;
	}
	return 0;
}

/*
 * Nodes a plan from these very holes could not obtain (state.yaml
 * unobtained) are not idle for this decision: planning them again would
 * fail again.  Nodes a job holds stay.  A newer holes file ends it.
 */
static int
drop_unobtained(struct solve *s, struct diag *d)
{
	const struct state *st = &s->state;
	struct hostlist drop;
	size_t i, j;

	if (!s->have_state || st->unobtained.n == 0 ||
	    strcmp(st->unobtained_holes, s->dig_holes) != 0)
		return 0;
	hostlist_init(&drop);
	for (i = 0; i < st->unobtained.n; i++) {
		for (j = 0; j < st->n; j++)
			if (hostlist_contains(&st->jobs[j].hosts,
			    st->unobtained.names[i]))
				break;
		if (j == st->n && hostlist_add(&drop,
		    st->unobtained.names[i]) < 0) {
			hostlist_free(&drop);
			return diag_errno(d, ENOMEM, "state");
		}
	}
	s->unobtained = holes_drop(&s->holes, &drop);
	hostlist_free(&drop);
	return 0;
}

/*
 * A job file's weight is its owner's word, so it counts only among her
 * own jobs: the weights of one owner's jobs are scaled to sum to their
 * number (each 1 when she wrote none), and a weight of 10^6 on all of
 * them is the same as 1 (issue 33).  Jobs of no known owner (files
 * named on the command line) keep theirs.  The policy's weights are the
 * administrator's, applied as they are.  Into own[], by job; sorting
 * keeps it O(n log n) for the largest job sets.
 */
struct owned {
	long long uid;
	size_t job;
};

static int
owned_cmp(const void *a, const void *b)
{
	const struct owned *x = a, *y = b;

	if (x->uid != y->uid)
		return (x->uid > y->uid) - (x->uid < y->uid);
	return (x->job > y->job) - (x->job < y->job);
}

static int
own_weights(const struct solve *s, double *own, struct diag *d)
{
	struct owned *v = malloc((s->njobs + 1) * sizeof *v);
	size_t i, k, end;
	double sum;

	if (v == NULL)
		return diag_errno(d, ENOMEM, "weights");
	for (i = 0; i < s->njobs; i++) {
		v[i].uid = s->jobs[i].job.owner_uid;
		v[i].job = i;
		own[i] = s->jobs[i].job.weight;
	}
	qsort(v, s->njobs, sizeof *v, owned_cmp);
	for (i = 0; i < s->njobs; i = end) {
		sum = 0;
		for (end = i; end < s->njobs && v[end].uid == v[i].uid; end++)
			sum += s->jobs[v[end].job].job.weight;
		if (v[i].uid < 0 || !(sum > 0))
			continue;
		for (k = i; k < end; k++)
			own[v[k].job] = s->jobs[v[k].job].job.weight *
			    (double)(end - i) / sum;
	}
	free(v);
	return 0;
}

static double
job_weight(const struct solve *s, const struct solve_job *j, double own)
{
	if (!s->have_policy)
		return own;
	return own * policy_weight(&s->policy, j->job.name,
	    j->job.owner_uid);
}

static double
rate(const struct solve_job *j, long k)
{
	return curve_rate(j->job.points, j->job.npoints, k);
}

/*
 * The site's bound on what a job may claim (policy max_rate_per_node):
 * every point of its curve, declared or measured, at most the bound
 * times its node count.
 */
static void
cap_rates(struct job *j, double per_node)
{
	size_t i;

	for (i = 0; i < j->npoints; i++)
		if (j->points[i].rate > per_node * (double)j->points[i].nodes)
			j->points[i].rate = per_node *
			    (double)j->points[i].nodes;
}

/*
 * The prior (bf-solve(1), Profiles): a job with no curve, neither
 * declared nor measured, is believed linear at the median rate per node
 * of the jobs of this decision that have measured one (each at its
 * smallest measured count), instead of the provisional curve, so that it
 * competes for nodes in the units of the others from its first decision.
 * None when no job has measured.  The points are j->prior_pts, owned by
 * the job, taken by job_free() in bf-solve (own) or by counts_release().
 */
static int
solve_prior(struct solve *s, int own, struct diag *d)
{
	double *v, med;
	size_t i, n = 0;

	for (i = 0; i < s->njobs; i++)
		n += s->jobs[i].measured > 0;
	if (n == 0)
		return 0;
	if ((v = malloc(n * sizeof *v)) == NULL)
		return diag_errno(d, ENOMEM, "prior");
	for (i = 0, n = 0; i < s->njobs; i++)
		if (s->jobs[i].measured > 0)
			v[n++] = s->jobs[i].measured;
	med = array_median(v, n);
	free(v);
	for (i = 0; i < s->njobs; i++) {
		struct solve_job *j = &s->jobs[i];
		struct job_point *pts;
		if (j->job.npoints > 0)
			continue;
		if ((pts = calloc(2, sizeof *pts)) == NULL)
			return diag_errno(d, ENOMEM, "%s", j->job.name);
		pts[0].nodes = 1;
		pts[0].rate = med;
		pts[1].nodes = j->job.max_nodes;
		pts[1].rate = med * (double)j->job.max_nodes;
		j->prior = med;
		j->job.npoints = j->job.max_nodes > 1 ? 2 : 1;
		if (own) {
			free(j->job.points);
			j->job.points = pts;
		} else {
			j->prior_pts = pts;
			j->job.points = pts;
		}
	}
	return 0;
}

/* Choices k in {0} and [min, reach], with growth and value. */
static int
make_choices(struct solve_job *j, long nfree, double tfwd, double weight,
    struct diag *d)
{
	long k, lo = j->job.min_nodes;
	size_t n = 0;

	j->weight = weight;
	j->rate_now = j->was >= j->job.min_nodes ? rate(j, j->was) : 0;
	j->cost_up = j->job.rescale_up * j->rate_now;
	j->cost_down = j->job.rescale_down * j->rate_now;
	j->reach = j->was + nfree < j->job.max_nodes ? j->was + nfree :
	    j->job.max_nodes;
	j->nchoice = 1 + (size_t)(j->reach >= lo ? j->reach - lo + 1 : 0);
	j->k = malloc(j->nchoice * sizeof *j->k);
	j->grow = malloc(j->nchoice * sizeof *j->grow);
	j->value = malloc(j->nchoice * sizeof *j->value);
	if (j->k == NULL || j->grow == NULL || j->value == NULL)
		return diag_errno(d, ENOMEM, "%s", j->job.name);
	for (k = 0; k <= j->reach; k = k == 0 ? lo : k + 1) {
		double cost = k > j->was ? j->cost_up :
		    k < j->was ? j->cost_down : 0;
		/* Probing: only stop, stay, or go to the count to measure. */
		if (k > 0 && j->probe >= lo && j->probe <= j->reach &&
		    k != j->probe && k != j->was)
			continue;
		/*
		 * The measurement pays for the move to the probe: charging the
		 * rescale would keep a job that runs from ever being measured
		 * at a larger count, since at a short look-ahead growing costs
		 * more than the rate it gains.
		 */
		if (j->probe > 0 && k == j->probe && j->probe != j->was)
			cost = 0;
		j->k[n] = k;
		j->grow[n] = k > j->was ? k - j->was : 0;
		j->value[n] = weight * (tfwd * rate(j, k) - cost);
		n++;
		if (lo > j->reach)
			break;
	}
	j->nchoice = n;
	return 0;
}

int
solve_prepare(struct solve *s, const struct solve_opts *o, struct diag *d)
{
	double *own;
	size_t i;
	long held = 0;

	if (!s->have_state)
		hash_format(hash_buf("", 0), s->dig_state);
	if (check_names(s, d) < 0 || digest_jobs(s, d) < 0)
		return -1;
	s->holder = malloc((s->holes.n + 1) * sizeof *s->holder);
	if (s->holder == NULL)
		return diag_errno(d, ENOMEM, "holes");
	for (i = 0; i < s->holes.n; i++)
		s->holder[i] = -1;
	if (drop_unobtained(s, d) < 0 || apply_state(s, d) < 0)
		return -1;
	for (i = 0; i < s->njobs; i++)
		held += s->jobs[i].was;
	s->nfree = (long)s->holes.n - held;
	s->tfwd = solve_horizon(s, o);
	for (i = 0; !o->probe && i < s->njobs; i++)
		s->jobs[i].probe = 0;
	if (o->prior && solve_prior(s, 1, d) < 0)
		return -1;
	if (s->have_policy && s->policy.max_rate_per_node > 0)
		for (i = 0; i < s->njobs; i++) {
			cap_rates(&s->jobs[i].job,
			    s->policy.max_rate_per_node);
			/* the note says the rate the job is valued at */
			if (s->jobs[i].prior > s->policy.max_rate_per_node)
				s->jobs[i].prior =
				    s->policy.max_rate_per_node;
		}
	if ((own = malloc((s->njobs + 1) * sizeof *own)) == NULL)
		return diag_errno(d, ENOMEM, "weights");
	if (own_weights(s, own, d) < 0) {
		free(own);
		return -1;
	}
	for (i = 0; i < s->njobs; i++)
		if (make_choices(&s->jobs[i], s->nfree, s->tfwd,
		    job_weight(s, &s->jobs[i], own[i]), d) < 0) {
			free(own);
			return -1;
		}
	free(own);
	return 0;
}

/* Sum of k y_J_K over the jobs that match, in one row. */
static void
add_counts(struct solve *s, int row, size_t j)
{
	const struct solve_job *jb = &s->jobs[j];
	size_t c;

	for (c = 0; c < jb->nchoice; c++)
		if (jb->k[c] != 0)
			milp_coef(&s->model, row, jb->col0 + (int)c,
			    (double)jb->k[c]);
}

/* user_UID: the nodes of one user's jobs <= its max_nodes. */
static void
user_rows(struct solve *s)
{
	size_t u, j;

	for (u = 0; u < s->policy.nusers; u++) {
		const struct policy_user *pu = &s->policy.users[u];
		int row = -1;
		if (pu->max_nodes < 0)
			continue;
		for (j = 0; j < s->njobs; j++) {
			if (s->jobs[j].job.owner_uid != pu->uid)
				continue;
			if (row < 0)
				row = milp_row(&s->model, 'L',
				    (double)pu->max_nodes, "user_%lld",
				    pu->uid);
			add_counts(s, row, j);
		}
	}
}

static int
in_group(const struct policy_group *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->njobs; i++)
		if (strcmp(g->jobs[i], name) == 0)
			return 1;
	return 0;
}

/*
 * group_G: the nodes of the group's jobs that are present >= its
 * min_nodes, lowered to what those jobs could reach at most, so that a
 * group asking for more than its jobs can use does not make the model
 * infeasible.
 */
static void
group_rows(struct solve *s)
{
	size_t g, j;

	for (g = 0; g < s->policy.ngroups; g++) {
		const struct policy_group *pg = &s->policy.groups[g];
		long reach = 0, want;
		int row;
		for (j = 0; j < s->njobs; j++)
			if (in_group(pg, s->jobs[j].job.name) &&
			    s->jobs[j].reach >= s->jobs[j].job.min_nodes)
				reach += s->jobs[j].reach;
		want = pg->min_nodes < reach ? pg->min_nodes : reach;
		if (want <= 0)
			continue;
		row = milp_row(&s->model, 'G', (double)want, "group_%zu", g);
		for (j = 0; j < s->njobs; j++)
			if (in_group(pg, s->jobs[j].job.name))
				add_counts(s, row, j);
	}
}

/*
 * Each job's over_cap: its owner holds more than its cap now (a cap
 * lowered), one pass over the jobs per capped user.
 */
static void
mark_over_cap(struct solve *s)
{
	size_t u, j;

	for (j = 0; j < s->njobs; j++)
		s->jobs[j].over_cap = 0;
	for (u = 0; u < s->policy.nusers; u++) {
		const struct policy_user *pu = &s->policy.users[u];
		long held = 0;
		if (pu->max_nodes < 0)
			continue;
		for (j = 0; j < s->njobs; j++)
			if (s->jobs[j].job.owner_uid == pu->uid)
				held += s->jobs[j].was;
		for (j = 0; held > pu->max_nodes && j < s->njobs; j++)
			if (s->jobs[j].job.owner_uid == pu->uid)
				s->jobs[j].over_cap = 1;
	}
}

/*
 * rescale: how many jobs change their node count <= max_rescales.  A
 * change the other rules force is not counted: a job that cannot keep
 * its count (it lost nodes and fell below min_nodes), and a shrink of a
 * job whose owner holds more than its cap now (the cap was lowered), so
 * that the limit never makes a policy impossible to meet.
 */
static void
rescale_row(struct solve *s)
{
	size_t j, c;
	int row;

	if (s->policy.max_rescales < 0)
		return;
	row = milp_row(&s->model, 'L', (double)s->policy.max_rescales,
	    "rescale");
	for (j = 0; j < s->njobs; j++) {
		const struct solve_job *jb = &s->jobs[j];
		if (jb->was > 0 && jb->was < jb->job.min_nodes)
			continue;
		for (c = 0; c < jb->nchoice; c++)
			if (jb->k[c] != jb->was && !(jb->over_cap &&
			    jb->k[c] < jb->was))
				milp_coef(&s->model, row, jb->col0 + (int)c, 1);
	}
}

static int
build_compact(struct solve *s)
{
	struct milp *m = &s->model;
	int grow = milp_row(m, 'L', (double)s->nfree, "grow");
	size_t j, c;

	for (j = 0; j < s->njobs; j++) {
		struct solve_job *jb = &s->jobs[j];
		int one = milp_row(m, 'E', 1, "one_%zu", j);
		for (c = 0; c < jb->nchoice; c++) {
			int y = milp_col(m, -jb->value[c], 0, 1, 1, "y_%zu_%ld",
			    j, jb->k[c]);
			if (c == 0)
				jb->col0 = y;
			milp_coef(m, one, y, 1);
			if (jb->grow[c] > 0)
				milp_coef(m, grow, y, (double)jb->grow[c]);
		}
	}
	if (s->have_policy) {
		mark_over_cap(s);
		user_rows(s);
		group_rows(s);
		rescale_row(s);
	}
	return m->oom ? -1 : 0;
}

static int
build_pernode(struct solve *s, const struct solve_opts *o)
{
	struct pernode_job *pj = calloc(s->njobs + 1, sizeof *pj);
	size_t j;
	int rc;

	if (pj == NULL)
		return -1;
	for (j = 0; j < s->njobs; j++) {
		const struct solve_job *jb = &s->jobs[j];
		pj[j].min = jb->job.min_nodes;
		pj[j].max = jb->job.max_nodes;
		pj[j].held = jb->was;
		pj[j].weight = jb->weight;
		pj[j].cost_up = jb->cost_up;
		pj[j].cost_down = jb->cost_down;
		pj[j].points = jb->job.points;
		pj[j].npoints = jb->job.npoints;
	}
	rc = pernode_build(&s->model, pj, s->njobs, s->holes.n, s->holder,
	    s->tfwd, o->model == SOLVE_PERNODE_TIGHT ? PERNODE_TIGHT :
	    PERNODE_BFTRAINER);
	free(pj);
	return rc;
}

static int
build(struct solve *s, const struct solve_opts *o, struct diag *d)
{
	int rc;

	if (s->built)
		return 0;
	if (o->model != SOLVE_COMPACT && s->policy_rows)
		return diag_set(d, EX_USAGE, "the per-node model does not "
		    "take a policy's caps, shares or rescale limit");
	rc = o->model != SOLVE_COMPACT ? build_pernode(s, o) :
	    build_compact(s);
	if (rc < 0)
		return diag_errno(d, ENOMEM, "unable to build the model");
	s->obj_scale = milp_scale_objective(&s->model, o->obj_max > 0 ?
	    o->obj_max : SOLVE_OBJ_MAX);
	s->built = 1;
	return 0;
}

/*
 * The fixing argument, for an auditor (bf-solve(1), Fixed columns): the
 * multipliers, L, the threshold, and why the optimum is within it.
 */
static void
fix_comment(FILE *fp, const struct solve *s)
{
	char num[FMT_DOUBLE_LEN];
	const char *sep = "";
	size_t i;

	fprintf(fp, "%zu of %zu columns fixed at 0 (UP 0) by Lagrange's "
	    "bound, bf-solve(1) Fixed columns\n", s->nfixed, s->model.ncols);
	fprintf(fp, "rows one_J and user_UID kept; multipliers:");
	for (i = 0; i < s->model.nrows; i++) {
		const char *n = s->model.rowname[i];
		if (strncmp(n, "one_", 4) == 0 || strncmp(n, "user_", 5) == 0)
			continue;
		fprintf(fp, "%s %s %s", sep, n, fmt_double(s->mult[i], num));
		sep = ",";
	}
	if (s->improved)
		fprintf(fp, " (the LP's duals raised by subgradient steps, "
		    "over the columns left by a first bound with the LP's "
		    "duals at the objective of the best plan then known, "
		    "T or above)");
	fprintf(fp, "\nL %s", fmt_double(s->lbound, num));
	fprintf(fp, ", tol %s", fmt_double(s->fixtol, num));
	fprintf(fp, ", T %s: %s\n", fmt_double(s->threshold, num), s->fixby);
	if (s->exact)
		fprintf(fp, "then of the columns left, with grow kept too and "
		    "no multiplier: exact\n");
	fprintf(fp, "each fixed column's bound exceeds T + tol, and this "
	    "model's optimum does not\n");
}

/* Who J is, in the MPS comments, for people reading the model. */
static char *
mps_comment(const struct solve *s, const struct solve_opts *o)
{
	char *buf = NULL, num[FMT_DOUBLE_LEN], num2[FMT_DOUBLE_LEN];
	size_t size = 0, j;
	FILE *fp = open_memstream(&buf, &size);

	if (fp == NULL)
		return NULL;
	fprintf(fp, "bf-solve %s model, minimise -(sum_J w_J (tfwd r_J(n_J) "
	    "- cost_J)), tfwd %s\n", SOLVE_MODEL_NAME(o->model),
	    fmt_double(s->tfwd, num));
	fprintf(fp, "holes %s jobs %s state %s\n", s->dig_holes, s->dig_jobs,
	    s->dig_state);
	fprintf(fp, "%zu nodes, %ld free\n", s->holes.n, s->nfree);
	if (s->obj_scale > 0)
		fprintf(fp, "objective divided by 2^%d, so that no coefficient "
		    "exceeds 2^30 (CBC's tolerances are absolute)\n",
		    s->obj_scale);
	if (s->nfixed > 0)
		fix_comment(fp, s);
	for (j = 0; s->floor_from != NULL && j < s->model.nrows; j++)
		if (!isnan(s->floor_from[j]))
			fprintf(fp, "%s: floor %s lowered to %s, the most its "
			    "jobs can hold under the caps, the rescale limit, "
			    "the free nodes and the groups before it%s\n",
			    s->model.rowname[j], fmt_double(s->floor_from[j],
			    num), fmt_double(s->model.rhs[j], num2),
			    s->floor_how[j] == FLOOR_STOPPED ? " (the most "
			    "found: a search stopped at the time limit)" :
			    s->floor_how[j] == FLOOR_FAILED ? " (what the "
			    "plan before held: CBC's search failed)" : "");
	for (j = 0; j < s->njobs; j++)
		fprintf(fp, "job %zu: %s, holds %ld\n", j, s->jobs[j].job.name,
		    s->jobs[j].was);
	if (ferror(fp) | fclose(fp)) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *
solve_mps(struct solve *s, const struct solve_opts *o, size_t *len,
    struct diag *d)
{
	char *comment, *text;

	if (build(s, o, d) < 0)
		return NULL;
	comment = mps_comment(s, o);
	text = comment ? milp_mps(&s->model, "bfsolve", comment, len) : NULL;
	free(comment);
	if (text == NULL)
		diag_errno(d, ENOMEM, "unable to write the model");
	return text;
}

static double
total(const struct solve *s)
{
	double sum = 0;
	size_t j;

	for (j = 0; j < s->njobs; j++)
		sum += s->jobs[j].value[s->jobs[j].pick];
	return sum;
}

static size_t
choice_of(const struct solve_job *j, long k)
{
	size_t c;

	for (c = 0; c < j->nchoice; c++)
		if (j->k[c] == k)
			return c;
	return 0;
}

/* The current allocation, as far as it is still allowed. */
static void
keep_current(struct solve *s)
{
	size_t j;

	for (j = 0; j < s->njobs; j++)
		s->jobs[j].pick = choice_of(&s->jobs[j], s->jobs[j].was);
}

static int
run_dp(struct solve *s, struct diag *d)
{
	struct dp_job *dj = calloc(s->njobs + 1, sizeof *dj);
	size_t *pick = calloc(s->njobs + 1, sizeof *pick), j;
	double best;
	int rc;

	if (dj == NULL || pick == NULL) {
		free(dj), free(pick);
		return diag_errno(d, ENOMEM, "dp");
	}
	for (j = 0; j < s->njobs; j++) {
		dj[j].n = s->jobs[j].nchoice;
		dj[j].grow = s->jobs[j].grow;
		dj[j].value = s->jobs[j].value;
	}
	rc = dp_solve(dj, s->njobs, s->nfree, pick, &best, d);
	for (j = 0; rc == 0 && j < s->njobs; j++)
		s->jobs[j].pick = pick[j];
	free(dj), free(pick);
	return rc;
}

static void
picks_from(struct solve *s, const struct solve_opts *o, const double *x)
{
	long *counts;
	size_t j, c;

	if (o->model == SOLVE_COMPACT) {
		for (j = 0; j < s->njobs; j++)
			for (c = 0; c < s->jobs[j].nchoice; c++)
				if (x[s->jobs[j].col0 + (int)c] > 0.5)
					s->jobs[j].pick = c;
		return;
	}
	if ((counts = calloc(s->njobs + 1, sizeof *counts)) == NULL)
		return;
	pernode_counts(x, s->njobs, s->holes.n, counts);
	for (j = 0; j < s->njobs; j++)
		s->jobs[j].pick = choice_of(&s->jobs[j], counts[j]);
	free(counts);
}

/* The DP's answer as a MIP start: its y columns at 1. */
static double *
dp_start(struct solve *s, const struct solve_opts *o, struct diag *d)
{
	double *start;
	size_t j;

	if (o->model != SOLVE_COMPACT || o->no_start || s->policy_rows)
		return NULL;
	if (run_dp(s, d) < 0)
		return NULL;
	if ((start = calloc(s->model.ncols + 1, sizeof *start)) == NULL)
		return NULL;
	for (j = 0; j < s->njobs; j++)
		start[s->jobs[j].col0 + (int)s->jobs[j].pick] = 1;
	return start;
}

/*
 * Rounding alone may part two sums of the same plan's values: a bound on
 * it, so that only a plan truly worth more replaces CBC's.
 */
static double
slack(const struct solve *s)
{
	double sum = 0, most;
	size_t j, c;

	for (j = 0; j < s->njobs; j++) {
		for (c = 0, most = 0; c < s->jobs[j].nchoice; c++)
			if (fabs(s->jobs[j].value[c]) > most)
				most = fabs(s->jobs[j].value[c]);
		sum += most;
	}
	return 4 * (double)(s->njobs + 1) * DBL_EPSILON * sum;
}

static void
picks_save(const struct solve *s, size_t *to)
{
	size_t j;

	for (j = 0; j < s->njobs; j++)
		to[j] = s->jobs[j].pick;
}

static void
picks_load(struct solve *s, const size_t *from)
{
	size_t j;

	for (j = 0; j < s->njobs; j++)
		s->jobs[j].pick = from[j];
}

/*
 * The DP's plan where CBC's fails (why says how), without policy rows:
 * exact, so a plan still comes out.  dp holds the DP's picks when it was
 * the start, else NULL and it is run now.
 */
static int
dp_instead(struct solve *s, const size_t *dp, const char *why,
    struct diag *d)
{
	if (dp != NULL)
		picks_load(s, dp);
	else if (run_dp(s, d) < 0)
		return -1;
	snprintf(s->status, sizeof s->status, "optimal (dynamic program: CBC "
	    "%s)", why);
	return 0;
}

/* The jobs' columns, for fix.h. */
static struct fix_job *
fix_jobs(const struct solve *s)
{
	struct fix_job *fj = calloc(s->njobs + 1, sizeof *fj);
	size_t j;

	for (j = 0; fj != NULL && j < s->njobs; j++) {
		fj[j].col0 = s->jobs[j].col0;
		fj[j].n = s->jobs[j].nchoice;
	}
	return fj;
}

/* one_J chosen, user_UID kept (with keep_grow, grow too), others priced. */
static void
roles(const struct milp *m, char *role, int keep_grow)
{
	size_t i;

	for (i = 0; i < m->nrows; i++)
		role[i] = strncmp(m->rowname[i], "one_", 4) == 0 ? FIX_ONE :
		    strncmp(m->rowname[i], "user_", 5) == 0 ||
		    (keep_grow && strcmp(m->rowname[i], "grow") == 0) ?
		    FIX_BLOCK : FIX_PRICE;
}

/*
 * The multipliers: with the row grow the only one priced (no policy
 * rows), the best one by bisection; else the duals of the linear
 * relaxation.  1: none (the relaxation has no optimum).
 */
static int
multipliers(struct solve *s, const char *role, const struct fix_job *fj,
    struct diag *d)
{
	const struct milp *m = &s->model;
	size_t i, priced = 0, kept = 0, at = 0;
	double lp;
	int rc;

	for (i = 0; i < m->nrows; i++) {
		priced += role[i] == FIX_PRICE;
		kept += role[i] == FIX_BLOCK;
		if (role[i] == FIX_PRICE)
			at = i;
	}
	memset(s->mult, 0, m->nrows * sizeof *s->mult);
	if (priced == 1 && kept == 0) {
		s->mult[at] = fix_price_one(m, fj, s->njobs, at);
		return 0;
	}
	if ((rc = milp_lp_duals(m, s->mult, &lp, d)) != 0)
		return rc;
	free(s->lpmult);
	if ((s->lpmult = malloc((m->nrows + 1) * sizeof *s->lpmult)) == NULL)
		return diag_errno(d, ENOMEM, "bounds");
	memcpy(s->lpmult, s->mult, m->nrows * sizeof *s->lpmult);
	return 0;
}

/* Fix at 0 every column whose bound passes t (none when t is infinite). */
static void
fix_at(struct solve *s, double t)
{
	size_t q;

	s->threshold = t;
	s->nfixed = 0;
	for (q = 0; q < s->model.ncols; q++) {
		int out = s->colbound[q] > t + s->fixtol;
		s->model.ub[q] = out ? 0 : 1;
		s->nfixed += (size_t)out;
	}
}

/* The model's objective at x (binary, in the model's units). */
static double
model_value(const struct solve *s, const double *x)
{
	double sum = 0;
	size_t q;

	for (q = 0; q < s->model.ncols; q++)
		if (x[q] > 0.5)
			sum += s->model.obj[q];
	return sum;
}

/*
 * Without a policy, with the DP's objective t: the bound with grow kept
 * too, over the columns still free: exact (a column left free is in a
 * plan worth t), in O(free columns x F).
 */
static int
bound_exact(struct solve *s, const struct fix_job *fj, char *role,
    double t, struct diag *d)
{
	const struct milp *m = &s->model;
	double *cb = malloc((m->ncols + 1) * sizeof *cb);
	double *zero = calloc(m->nrows + 1, sizeof *zero), L, tol;
	size_t q;

	if (cb == NULL || zero == NULL) {
		free(cb), free(zero);
		return diag_errno(d, ENOMEM, "bounds");
	}
	roles(m, role, 1);
	if (fix_bounds(m, fj, s->njobs, role, zero, cb, &L, &tol, d) < 0) {
		free(cb), free(zero);
		return -1;
	}
	for (q = 0; q < m->ncols; q++)
		if (s->model.ub[q] != 0)
			s->colbound[q] = cb[q];
	s->exact = 1;
	free(cb), free(zero);
	fix_at(s, t);
	return 0;
}

/*
 * Lagrange's bounds on the compact model (fix.h, bf-solve(1), Fixed
 * columns): colbound[q], no solution using column q has an objective
 * below it.  With a start (the DP's plan), the columns whose bound passes
 * its objective are fixed, then those the exact bound rules out.  1: no
 * bounds.
 */
static int
bound_columns(struct solve *s, const double *start, struct diag *d)
{
	const struct milp *m = &s->model;
	struct fix_job *fj = fix_jobs(s);
	char *role = malloc(m->nrows + 1);
	int rc = -1;

	free(s->colbound), free(s->mult);
	s->colbound = malloc((m->ncols + 1) * sizeof *s->colbound);
	s->mult = calloc(m->nrows + 1, sizeof *s->mult);
	s->exact = 0;
	if (fj == NULL || role == NULL || s->colbound == NULL ||
	    s->mult == NULL) {
		free(fj), free(role);
		return diag_errno(d, ENOMEM, "bounds");
	}
	roles(m, role, 0);
	if ((rc = multipliers(s, role, fj, d)) == 0)
		rc = fix_bounds(m, fj, s->njobs, role, s->mult, s->colbound,
		    &s->lbound, &s->fixtol, d);
	if (rc == 0 && start != NULL) {
		fix_at(s, model_value(s, start));
		s->fixby = "the objective of the dynamic program's plan";
		if (!s->policy_rows)
			rc = bound_exact(s, fj, role, s->threshold, d);
	}
	free(fj), free(role);
	return rc;
}


/*
 * With a plan worth z known (cbc_guess): the columns the bounds rule out
 * at z fixed, then the multipliers of the rows priced raised from the LP
 * relaxation's duals towards z by subgradient steps (fix_improve), and
 * the bounds taken again over the columns left: valid for every plan
 * worth z or less, which uses none of the columns fixed.
 */
static int
tighten(struct solve *s, const struct solve_opts *o, double z,
    struct diag *d)
{
	const struct milp *m = &s->model;
	struct fix_job *fj = fix_jobs(s);
	char *role = malloc(m->nrows + 1);
	double *cb = malloc((m->ncols + 1) * sizeof *cb), L, tol;
	double *y = malloc((m->nrows + 1) * sizeof *y);
	size_t q;
	int rc = 0;

	if (fj == NULL || role == NULL || cb == NULL || y == NULL) {
		free(fj), free(role), free(cb), free(y);
		return diag_errno(d, ENOMEM, "bounds");
	}
	fix_at(s, z);
	/* -t spent: the bounds as they are fix what they fix at z */
	if (s->lpmult != NULL && time_left(s, o) < SOLVE_LEFT_MIN) {
		free(fj), free(role), free(cb), free(y);
		return 0;
	}
	if (s->lpmult != NULL) {
		roles(m, role, 0);
		memcpy(y, s->lpmult, m->nrows * sizeof *y);
		if ((rc = fix_improve(m, fj, s->njobs, role, y, z,
		    SOLVE_IMPROVE_STEPS, time_left(s, o), &L, d)) == 0)
			rc = fix_bounds(m, fj, s->njobs, role, y, cb, &L, &tol,
			    d);
	}
	if (s->lpmult != NULL && rc == 0) {
		for (q = 0; q < m->ncols; q++)
			if (m->ub[q] != 0 && cb[q] > s->colbound[q])
				s->colbound[q] = cb[q];
		if (L > s->lbound) {
			s->lbound = L;
			memcpy(s->mult, y, m->nrows * sizeof *y);
			s->improved = 1;
		}
		s->fixtol = fmax(s->fixtol, tol);
		if (isfinite(s->fixtol))
			s->model.gap = s->fixtol;
		fix_at(s, z);
	}
	free(fj), free(role), free(cb), free(y);
	return rc;
}

/*
 * Without a start, the threshold is a guess above L that CBC's answer
 * checks: an optimum at or below it proves the fixing.  One above it is
 * a plan's objective, an upper bound, and proves that no plan is worth
 * the threshold (every such plan is in the model): the threshold then
 * rises by steps 4 times longer each time (from the guess's first
 * distance from L), the multipliers raised once towards the best plan
 * (tighten()), and stops at that plan's objective, so that CBC searches
 * the models with fewer columns first; below it CBC looks only for plans
 * better than the best (its cutoff), from the best as its start, and a
 * model the same as the one solved last (the same columns fixed, the
 * same best plan) is not solved again.  With have (a plan that meets every row:
 * lower_floors()'s), that plan is the best known from the start.  A
 * guess that leaves no plan before any was found is tried 4 times
 * looser, up to 4 times, and then nothing is fixed.  A search stopped by
 * the time limit leaves the fixing at the best plan's objective (or
 * none), so that the model stays one whose optimum is the plan's or
 * better.
 */
static int
cbc_guess(struct solve *s, const struct solve_opts *o, const double *have,
    double *x, enum milp_status *st, struct diag *d)
{
	double gap = fmax(1e-4 * fabs(s->lbound), 16 * s->fixtol), t, z;
	double *prev = NULL, best = INFINITY, step = gap;
	double last_best = INFINITY;
	size_t last_nfixed = (size_t)-1;
	int rc = 0, tries, tightened = 0;

	if (have != NULL) {
		if ((prev = malloc(s->model.ncols * sizeof *prev)) == NULL)
			return diag_errno(d, ENOMEM, "solution");
		memcpy(prev, have, s->model.ncols * sizeof *prev);
		best = model_value(s, prev);
	}
	t = fmin(s->lbound + gap, best);
	s->fixby = t < best ? "a bound above L that this model's optimum "
	    "meets" : "the objective of a plan found with more columns fixed";
	for (tries = 0;; tries++) {
		double left = cbc_limit(s, o);
		int rise;
		/* No time to search: the plan found is the answer (a review
		 * saw CBC's preprocessing crash given 1 ms and a start); with
		 * none, the first search has had its share. */
		if ((prev != NULL || tries > 0) &&
		    time_left(s, o) < SOLVE_LEFT_MIN) {
			if (prev == NULL) {
				*st = MILP_STOPPED_NONE;
				fix_at(s, INFINITY);
				break;
			}
			memcpy(x, prev, s->model.ncols * sizeof *x);
			*st = MILP_STOPPED;
			fix_at(s, best);	/* its objective: the MPS's claim */
			break;
		}
		fix_at(s, t);
		if (prev != NULL && t < best && s->nfixed == last_nfixed &&
		    best == last_best) {
			/* the model solved last, which had no better plan */
			*st = MILP_INFEASIBLE;
		} else {
			/* below the best plan, only plans better than it */
			s->model.has_cutoff = prev != NULL && t < best;
			s->model.cutoff = best;
			rc = milp_solve(&s->model, left, prev, x, st, d);
			s->model.has_cutoff = 0;
			if (rc < 0)
				break;
			last_nfixed = s->nfixed;
		}
		if (prev != NULL && (*st == MILP_STOPPED_NONE ||
		    *st == MILP_FAILED || *st == MILP_DIED)) {
			memcpy(x, prev, s->model.ncols * sizeof *x);
			*st = MILP_STOPPED;
		}
		/* No plan worth t: it rises towards the best found. */
		rise = t < best && ((*st == MILP_OPTIMAL && (z = model_value(s,
		    x)) > t + s->fixtol) || (*st == MILP_INFEASIBLE &&
		    prev != NULL));
		if (rise) {
			if (*st == MILP_OPTIMAL && z < best) {
				if (prev == NULL && (prev = malloc(
				    s->model.ncols * sizeof *prev)) == NULL) {
					rc = diag_errno(d, ENOMEM, "solution");
					break;
				}
				memcpy(prev, x, s->model.ncols * sizeof *prev);
				best = z;
			}
			last_best = best;
			if (!tightened) {
				tightened = 1;
				last_nfixed = (size_t)-1;	/* new bounds */
				if (tighten(s, o, best, d) < 0) {
					rc = -1;
					break;
				}
			}
			step *= 4;
			t = fmax(t + step, s->lbound);
			/* the last step: the best plan's objective */
			if (t >= best - s->fixtol ||
			    tries + 1 >= SOLVE_GUESS_MAX) {
				t = best;
				s->fixby = "the objective of a plan found with "
				    "more columns fixed";
			}
			continue;
		}
		if (*st == MILP_INFEASIBLE && s->nfixed > 0 && prev == NULL) {
			gap *= 4;	/* a plan was feasible: CBC erred */
			t = tries < 4 ? s->lbound + gap : INFINITY;
			continue;
		}
		/* stopped: CBC's best, or the best before if better; CBC
		 * erring with a plan in hand: that plan */
		if (prev != NULL && (*st == MILP_INFEASIBLE ||
		    (*st == MILP_STOPPED && model_value(s, x) > best))) {
			memcpy(x, prev, s->model.ncols * sizeof *x);
			*st = MILP_STOPPED;
		}
		if (*st == MILP_STOPPED && (z = model_value(s, x)) > t)
			fix_at(s, z);
		else if (*st != MILP_OPTIMAL && *st != MILP_STOPPED)
			fix_at(s, INFINITY);
		break;
	}
	free(prev);
	return rc;
}

/*
 * CBC on the compact model with the columns fixed at 0 that the bounds
 * rule out (bf-solve(1), Fixed columns), in a model of more than
 * o->fix_cols columns (by default every one): with the DP's plan as the
 * start, those whose bound passes its objective; without, by a guess
 * (cbc_guess).  The per-node models and smaller ones: the whole model.  With o->known,
 * where only the DP's plan is left it is the plan, as CBC's would be.
 */
static int
cbc_fixed(struct solve *s, const struct solve_opts *o, const double *start,
    const double *have, double *x, enum milp_status *st, int *known,
    struct diag *d)
{
	int fix = o->model == SOLVE_COMPACT && s->model.ncols > o->fix_cols;
	int rc;

	s->nfixed = 0;
	*known = 0;
	if (!fix && !(o->known && start != NULL && o->model == SOLVE_COMPACT))
		return milp_solve(&s->model, cbc_limit(s, o), start, x, st,
		    d);
	if ((rc = bound_columns(s, start, d)) < 0)
		return -1;
	/* Plans within the bounds' margin are ties (bf-solve(1), The
	 * solvers): CBC's proof to the last digit enumerated thousands of
	 * such plans for seconds. */
	if (rc == 0 && fix && isfinite(s->fixtol))
		s->model.gap = s->fixtol;
	if (rc == 0 && start != NULL && o->known &&
	    s->nfixed + s->njobs == s->model.ncols) {
		if (!fix)
			fix_at(s, INFINITY);	/* the model as it was */
		return *known = 1, 0;
	}
	if (rc > 0 || !fix) {
		if (rc == 0)
			fix_at(s, INFINITY);
		if ((rc = milp_solve(&s->model, cbc_limit(s, o), start ?
		    start : have, x, st, d)) == 0 && start == NULL &&
		    have != NULL && *st != MILP_OPTIMAL && *st != MILP_STOPPED) {
			memcpy(x, have, s->model.ncols * sizeof *x);
			*st = MILP_STOPPED;	/* the plan in hand */
		}
		return rc;
	}
	if (start == NULL)
		return cbc_guess(s, o, have, x, st, d);
	return milp_solve(&s->model, cbc_limit(s, o), start, x, st,
		    d);
}

/*
 * A plan that meets the caps, the rescale limit and the free nodes, none
 * of the groups' floors needed: every job keeps its count, but a job of
 * an owner over its cap and one below its min_nodes get 0 (changes the
 * row rescale does not count).  Into x, one column per job.
 */
static size_t
keep_choice(const struct solve_job *jb)
{
	long want = jb->was;
	size_t c;

	if (jb->was < jb->job.min_nodes || jb->over_cap)
		want = 0;
	for (c = 0; c < jb->nchoice; c++)
		if (jb->k[c] == want)
			return c;
	return 0;
}

static void
keep_plan(const struct solve *s, double *x)
{
	size_t j;

	memset(x, 0, s->model.ncols * sizeof *x);
	for (j = 0; j < s->njobs; j++)
		x[s->jobs[j].col0 + (int)keep_choice(&s->jobs[j])] = 1;
}

/*
 * A floor's search needs, of a job in none of the groups searched so far,
 * only its count kept or 0: a grow of it takes free nodes, a change and
 * its owner's cap from the group, and a shrink to 0 frees as much of the
 * cap as any shrink for the same change.  Its other columns are fixed at
 * 0 (a smaller model, the same most); in[] marks the jobs of those
 * groups.
 */
static void
floor_columns(struct solve *s, const unsigned char *in)
{
	size_t j, c;

	for (j = 0; j < s->njobs; j++) {
		const struct solve_job *jb = &s->jobs[j];
		size_t keep = keep_choice(jb);
		for (c = 0; c < jb->nchoice; c++)
			s->model.ub[jb->col0 + (int)c] = in[j] || c == keep ||
			    jb->k[c] == 0 ? 1 : 0;
	}
}

/*
 * The groups' floors when the policy's rows cannot all be met (bf-solve(1),
 * The policy file): each group, in the file's order, keeps its floor or,
 * if less, the most its jobs can hold under the caps, the rescale limit,
 * the free nodes and the floors of the groups before it, found by CBC on
 * the same columns with that objective, each in what is left of -t (the
 * file's order is their precedence; the decision's solve after them
 * starts from the last one's plan, and keeps it when no time is left).  Each search
 * starts from a plan that meets those rows (keep_plan(), then the search
 * before), so that it always has one: stopped by the time limit, it
 * lowers the floor to the most it found (s->floor_how says so per row; a
 * search CBC fails is tried once more without its start, and failing
 * again, the start's holding is the floor), and the last one's plan meets
 * every floor so lowered.
 * s->floor_from keeps each floor lowered as it was.  Returns 1 when there
 * is no group row, -1 with d set on failure (the model as it was).
 */
static int
lower_floors(struct solve *s, const struct solve_opts *o, double *x,
    struct diag *d)
{
	struct milp *m = &s->model;
	double *obj = m->obj, gap = m->gap, *aux, *orig, *start;
	unsigned char *in;
	int *job_of;
	size_t r, q, j, ngroups = 0;
	int rc = 0;

	for (r = 0; r < m->nrows; r++)
		ngroups += strncmp(m->rowname[r], "group_", 6) == 0;
	if (ngroups == 0)
		return 1;
	free(s->floor_from);
	free(s->floor_how);
	s->floor_from = NULL;
	if ((s->floor_how = calloc(m->nrows + 1, 1)) == NULL)
		return diag_errno(d, ENOMEM, "floors");
	orig = malloc((m->nrows + 1) * sizeof *orig);
	aux = calloc(m->ncols + 1, sizeof *aux);
	start = malloc((m->ncols + 1) * sizeof *start);
	in = calloc(s->njobs + 1, 1);
	job_of = malloc((m->ncols + 1) * sizeof *job_of);
	if (orig == NULL || aux == NULL || start == NULL || in == NULL ||
	    job_of == NULL) {
		free(orig), free(aux), free(start), free(in), free(job_of);
		return diag_errno(d, ENOMEM, "floors");
	}
	for (j = 0; j < s->njobs; j++)
		for (q = 0; q < s->jobs[j].nchoice; q++)
			job_of[s->jobs[j].col0 + (int)q] = (int)j;
	for (r = 0; r < m->nrows; r++) {
		orig[r] = NAN;
		if (strncmp(m->rowname[r], "group_", 6) == 0) {
			orig[r] = m->rhs[r];
			m->rhs[r] = 0;	/* met by every plan */
		}
	}
	for (q = 0; q < m->ncols; q++)
		m->ub[q] = 1;
	s->nfixed = 0;
	keep_plan(s, start);
	m->obj = aux;
	m->gap = 0;
	for (r = 0; rc == 0 && r < m->nrows; r++) {
		enum milp_status st;
		double most = 0, share;
		size_t k;
		if (isnan(orig[r]))
			continue;
		memset(aux, 0, m->ncols * sizeof *aux);
		for (k = 0; k < m->nz; k++)
			if (m->trow[k] == (int)r) {
				aux[m->tcol[k]] -= m->tval[k];
				in[job_of[m->tcol[k]]] = 1;
			}
		floor_columns(s, in);
		/* what is left of -t (the file's order is the floors'
		 * precedence); spent, the start is the most found */
		share = time_left(s, o);
		if (share < SOLVE_LEFT_MIN)
			st = MILP_STOPPED_NONE;
		else if ((rc = milp_solve(m, share, start, x, &st, d)) < 0)
			break;
		/* CBC failed (not stopped): once more, without the start */
		if ((st == MILP_FAILED || st == MILP_DIED ||
		    st == MILP_INFEASIBLE) &&
		    (share = time_left(s, o)) >= SOLVE_LEFT_MIN &&
		    (rc = milp_solve(m, share, NULL, x, &st, d)) < 0)
			break;
		s->floor_how[r] = st == MILP_OPTIMAL ? FLOOR_PROVEN :
		    st == MILP_STOPPED || st == MILP_STOPPED_NONE ?
		    FLOOR_STOPPED : FLOOR_FAILED;
		if (st != MILP_OPTIMAL && st != MILP_STOPPED) {
			/* nothing better than the start: it meets the rows */
			memcpy(x, start, m->ncols * sizeof *x);
			st = MILP_STOPPED;
		}
		for (k = 0; k < m->nz; k++)
			if (m->trow[k] == (int)r && x[m->tcol[k]] > 0.5)
				most += m->tval[k];
		m->rhs[r] = most < orig[r] ? most : orig[r];
		if (!(m->rhs[r] < orig[r]))
			orig[r] = NAN;	/* kept */
		memcpy(start, x, m->ncols * sizeof *start);
	}
	m->obj = obj;
	m->gap = gap;
	for (q = 0; q < m->ncols; q++)
		m->ub[q] = 1;
	free(in), free(job_of);
	if (rc < 0) {
		for (r = 0; r < m->nrows; r++)
			if (strncmp(m->rowname[r], "group_", 6) == 0 &&
			    !isnan(orig[r]))
				m->rhs[r] = orig[r];
		free(orig);
	} else {
		s->floor_from = orig;
	}
	free(aux), free(start);
	return rc;
}

static int
run_cbc(struct solve *s, const struct solve_opts *o, struct diag *d)
{
	enum milp_status st = MILP_FAILED;
	double *x, *start;
	size_t *dp;
	int rc, known;

	if (build(s, o, d) < 0)
		return -1;
	if (s->njobs == 0) {	/* CBC reports an empty model as failed */
		snprintf(s->status, sizeof s->status, "optimal");
		return 0;
	}
	d->code = 0;
	start = dp_start(s, o, d);
	if (d->code != 0)
		return -1;
	x = calloc(s->model.ncols + 1, sizeof *x);
	dp = calloc(s->njobs + 1, sizeof *dp);
	if (x == NULL || dp == NULL) {
		free(start), free(x), free(dp);
		return diag_errno(d, ENOMEM, "solution");
	}
	picks_save(s, dp);
	rc = cbc_fixed(s, o, start, NULL, x, &st, &known, d);
	if (rc == 0 && !known && st == MILP_INFEASIBLE && s->policy_rows &&
	    (rc = lower_floors(s, o, x, d)) == 0) {
		/* its last search's plan meets every floor so lowered */
		double *have = malloc((s->model.ncols + 1) * sizeof *have);
		if (have == NULL) {
			free(start), free(x), free(dp);
			return diag_errno(d, ENOMEM, "solution");
		}
		memcpy(have, x, s->model.ncols * sizeof *have);
		rc = cbc_fixed(s, o, start, have, x, &st, &known, d);
		free(have);
	}
	else if (rc > 0)
		rc = 0;		/* no floor to lower: infeasible as it is */
	s->cbc_not_run = rc == 0 && known;
	if (rc == 0 && known) {
		snprintf(s->status, sizeof s->status, "optimal");
		free(start), free(x), free(dp);
		return 0;
	}
	if (rc == 0)
		snprintf(s->status, sizeof s->status, "%s%s",
		    milp_status_name(st), st != MILP_STOPPED_NONE &&
		    st != MILP_FAILED && st != MILP_DIED ? "" : start ?
		    "; the start is kept" :
		    "; the current allocation is kept");
	if (rc == 0 && (st == MILP_OPTIMAL || st == MILP_STOPPED)) {
		double best;
		picks_from(s, o, x);
		best = total(s);
		/* CBC's worth less than the exact DP's: its tolerances lost. */
		if (start != NULL) {
			picks_load(s, dp);
			if (total(s) > best + slack(s))
				rc = dp_instead(s, dp, "found a plan worth less",
				    d);
			else
				picks_from(s, o, x);
		}
	} else if (rc == 0 && st == MILP_INFEASIBLE && s->policy_rows) {
		snprintf(s->status, sizeof s->status, "infeasible");
		rc = diag_set(d, EX_DATAERR, "%s: the policy's constraints "
		    "cannot all be met", s->policy.file);
	}
	else if (rc == 0 && (st == MILP_INFEASIBLE || ((st == MILP_FAILED ||
	    st == MILP_DIED) && !s->policy_rows)))
		rc = dp_instead(s, start ? dp : NULL, st == MILP_INFEASIBLE ?
		    "found the model infeasible" : st == MILP_DIED ? "died" :
		    "failed", d);
	else if (rc == 0 && start == NULL)
		keep_current(s);
	/* else: the picks are still the DP's, which was the start */
	free(start);
	free(x);
	free(dp);
	return rc;
}

int
solve_run(struct solve *s, const struct solve_opts *o, struct diag *d)
{
	int rc;

	if (o->solver == SOLVE_DP && (o->model != SOLVE_COMPACT ||
	    s->policy_rows))
		return diag_set(d, EX_USAGE, "the dynamic program solves the "
		    "compact model without a policy's caps, shares or rescale "
		    "limit");
	s->started = now_mono();
	if (o->solver == SOLVE_DP) {
		rc = run_dp(s, d);
		snprintf(s->status, sizeof s->status, "optimal");
	} else {
		rc = run_cbc(s, o, d);
	}
	s->seconds = now_mono() - s->started;
	s->objective = total(s);
	return rc;
}

/*
 * The decision from counts (bf-sim): the jobs are borrowed, so only
 * what solve_prepare() would have made is freed here, never the jobs.
 */
static void
counts_release(struct solve *s)
{
	size_t i;

	for (i = 0; i < s->njobs; i++) {
		free(s->jobs[i].k);
		free(s->jobs[i].grow);
		free(s->jobs[i].value);
		free(s->jobs[i].prior_pts);
	}
	free(s->jobs);
	free(s->holder);
	free(s->colbound);
	free(s->mult);
	free(s->lpmult);
	free(s->floor_from);
	free(s->floor_how);
	milp_free(&s->model);
}

/*
 * The policy's max_rate_per_node on the counts' jobs: their points are
 * borrowed (shared by every job of a model, and by bf-sim's truth), so
 * a job whose curve it lowers gets a copy, owned as its prior's points
 * are (a prior's points are its own already).
 */
static int
counts_cap_rates(struct solve *s, struct diag *d)
{
	double per_node = s->policy.max_rate_per_node;
	size_t i, p;

	for (i = 0; i < s->njobs; i++) {
		struct solve_job *j = &s->jobs[i];
		int over = 0;
		for (p = 0; p < j->job.npoints; p++)
			over |= j->job.points[p].rate > per_node *
			    (double)j->job.points[p].nodes;
		if (over && j->job.points != j->prior_pts) {
			struct job_point *copy = malloc(j->job.npoints *
			    sizeof *copy);
			if (copy == NULL)
				return diag_errno(d, ENOMEM, "rates");
			memcpy(copy, j->job.points, j->job.npoints *
			    sizeof *copy);
			free(j->prior_pts);
			j->prior_pts = copy;
			j->job.points = copy;
		}
		if (over)
			cap_rates(&j->job, per_node);
		if (j->prior > per_node)
			j->prior = per_node;
	}
	return 0;
}

static int
counts_load(struct solve *s, const struct solve_opts *o,
    const struct solve_count *c, size_t n, long nfree, struct diag *d)
{
	size_t i, h = 0;
	long total = nfree, k;
	double *own;

	for (i = 0; i < n; i++)
		total += c[i].was;
	s->jobs = calloc(n + 1, sizeof *s->jobs);
	s->holder = malloc(((size_t)total + 1) * sizeof *s->holder);
	if (s->jobs == NULL || s->holder == NULL)
		return diag_errno(d, ENOMEM, "solve");
	s->njobs = n;
	s->nfree = nfree;
	/* the per-node model numbers the nodes: held ones job by job */
	s->holes.n = (size_t)total;
	for (i = 0; i < n; i++) {
		s->jobs[i].job = *c[i].job;
		s->jobs[i].was = c[i].was;
		s->jobs[i].probe = c[i].probe;
		s->jobs[i].measured = c[i].measured;
		for (k = 0; k < c[i].was; k++)
			s->holder[h++] = (long)i;
	}
	if (o->policy != NULL) {
		/* borrowed: counts_release() does not free it */
		s->policy = *o->policy;
		s->have_policy = 1;
		s->policy_rows = policy_constrains(&s->policy);
	}
	if (o->prior && solve_prior(s, 0, d) < 0)
		return -1;
	if (s->have_policy && s->policy.max_rate_per_node > 0 &&
	    counts_cap_rates(s, d) < 0)
		return -1;
	if ((own = malloc((n + 1) * sizeof *own)) == NULL)
		return diag_errno(d, ENOMEM, "weights");
	if (own_weights(s, own, d) < 0) {
		free(own);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (make_choices(&s->jobs[i], nfree, o->tfwd,
		    job_weight(s, &s->jobs[i], own[i]), d) < 0) {
			free(own);
			return -1;
		}
	free(own);
	while (h < (size_t)total)
		s->holder[h++] = -1;
	return 0;
}

int
solve_counts(const struct solve_opts *o, struct solve_count *c, size_t n,
    long nfree, struct solve_result *res, struct diag *d)
{
	struct solve s;
	size_t i;
	int rc;

	memset(&s, 0, sizeof s);
	milp_init(&s.model);
	rc = counts_load(&s, o, c, n, nfree, d);
	if (rc == 0)
		rc = solve_run(&s, o, d);
	for (i = 0; rc == 0 && i < n; i++)
		c[i].nodes = s.jobs[i].k[s.jobs[i].pick];
	/* on failure too: "infeasible" tells a policy no plan meets */
	snprintf(res->status, sizeof res->status, "%s", s.status);
	if (rc == 0) {
		res->objective = s.objective;
		res->seconds = s.seconds;
	}
	counts_release(&s);
	return rc;
}
