/*
 * NAME
 *	simhorizon - bf-sim's look-ahead per decision: fixed, learnt from the
 *	holes that ended, or the trace's own
 * DESCRIPTION
 *	See simhorizon.h.  The clairvoyant leave times are kept node by
 *	node (a count, then a placement, as a counting sort does), each
 *	node's in time order, with a cursor that only moves forward, since
 *	the replay's time does.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

#include "sim/simhorizon.h"

static const char *const names[] = { "fixed", "learnt", "clairvoyant" };

int
simhorizon_parse(const char *s, enum simhorizon_mode *m)
{
	long i = array_index(names, sizeof names / sizeof names[0], s);

	if (i < 0)
		return -1;
	*m = (enum simhorizon_mode)i;
	return 0;
}

const char *
simhorizon_name(enum simhorizon_mode m)
{
	return names[m];
}

struct leave {
	uint32_t node;
	double t;
};

/* Every leave from `from' to `to', as (node, time) in time order. */
static int
read_ahead(struct simhorizon *h, struct events *ev, long long from,
    long long to, size_t nodes, struct leave **out, size_t *n,
    struct diag *d)
{
	struct leave *v = NULL, *p;
	struct event e;
	size_t cap = 0, i;
	int rc;

	*n = 0;
	h->end = (double)from;
	if (events_start(ev, from, &e, d) < 0)
		return -1;
	while ((rc = events_next(ev, to, &e, d)) > 0) {
		h->end = (double)e.time;
		for (i = 0; i < e.nleave; i++) {
			if (nodes && e.leave[i] >= nodes)
				continue;
			p = array_grow(v, &cap, *n + 1, sizeof *p, 4096);
			if (p == NULL) {
				free(v);
				return diag_errno(d, ENOMEM, "clairvoyant "
				    "horizon");
			}
			v = p;
			v[*n].node = e.leave[i];
			v[(*n)++].t = (double)e.time;
		}
	}
	if (rc < 0) {
		free(v);
		return -1;
	}
	if (to != LLONG_MAX)
		h->end = (double)to;
	*out = v;
	return 0;
}

static int
clairvoyant(struct simhorizon *h, struct events *ev, long long from,
    long long to, size_t nodes, struct diag *d)
{
	struct leave *v = NULL;
	size_t n, i, top = 0;

	if (read_ahead(h, ev, from, to, nodes, &v, &n, d) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (v[i].node + (size_t)1 > top)
			top = v[i].node + (size_t)1;
	h->nleaving = top;
	h->first = calloc(top + 1, sizeof *h->first);
	h->cursor = calloc(top + 1, sizeof *h->cursor);
	h->leaves = malloc((n + 1) * sizeof *h->leaves);
	if (h->first == NULL || h->cursor == NULL || h->leaves == NULL) {
		free(v);
		return diag_errno(d, ENOMEM, "clairvoyant horizon");
	}
	for (i = 0; i < n; i++)
		h->first[v[i].node + 1]++;
	for (i = 0; i < top; i++)
		h->first[i + 1] += h->first[i];
	memcpy(h->cursor, h->first, (top + 1) * sizeof *h->cursor);
	for (i = 0; i < n; i++)	/* stable: each node's in time order */
		h->leaves[h->cursor[v[i].node]++] = v[i].t;
	memcpy(h->cursor, h->first, (top + 1) * sizeof *h->cursor);
	free(v);
	return 0;
}

int
simhorizon_open(struct simhorizon *h, enum simhorizon_mode mode,
    double tfwd, long long from, long long to, size_t nodes,
    struct events *ahead, struct diag *d)
{
	memset(h, 0, sizeof *h);
	h->mode = mode;
	h->tfwd = tfwd;
	h->from = (double)from;
	lifetime_init(&h->life, LIFETIME_MIN);
	if (mode != SIMHORIZON_CLAIRVOYANT)
		return 0;
	if (ahead == NULL)
		return diag_set(d, EX_SOFTWARE, "internal error: a "
		    "clairvoyant horizon without the log read ahead");
	return clairvoyant(h, ahead, from, to, nodes, d);
}

int
simhorizon_join(struct simhorizon *h, uint32_t node, double t,
    struct diag *d)
{
	double *p;

	if (h->mode != SIMHORIZON_LEARNT)
		return 0;
	if (node >= h->cap) {
		size_t cap = h->cap, i;
		p = array_grow(h->since, &cap, (size_t)node + 1, sizeof *p,
		    1024);
		if (p == NULL)
			return diag_errno(d, ENOMEM, "learnt horizon");
		for (i = h->cap; i < cap; i++)
			p[i] = NAN;
		h->since = p;
		h->cap = cap;
	}
	/* a hole open at from began we do not know when */
	h->since[node] = t > h->from ? t : NAN;
	return 0;
}

void
simhorizon_leave(struct simhorizon *h, uint32_t node, double t)
{
	if (h->mode != SIMHORIZON_LEARNT || node >= h->cap ||
	    isnan(h->since[node]))
		return;
	/* out of memory is kept by the estimate and said at the refresh */
	if (lifetime_add(&h->life, t - h->since[node]) == 0)
		h->holes++;
	h->since[node] = NAN;
}

double
simhorizon_remaining(struct simhorizon *h, size_t node, double t)
{
	double age;
	size_t *c;

	if (h->mode == SIMHORIZON_FIXED)
		return -1;
	if (h->mode == SIMHORIZON_LEARNT) {
		double r;
		age = node < h->cap && !isnan(h->since[node]) ?
		    t - h->since[node] : t - h->from;
		r = lifetime_residual(&h->life, age);
		/* older than the data support: it outlived them */
		if (r < 0 && lifetime_residual(&h->life, 0) >= 0)
			return INFINITY;
		return r;
	}
	if (node >= h->nleaving)
		return h->end > t ? h->end - t : 0;
	c = &h->cursor[node];
	while (*c < h->first[node + 1] && h->leaves[*c] <= t)
		(*c)++;
	if (*c < h->first[node + 1])
		return h->leaves[*c] - t;
	return h->end > t ? h->end - t : 0;
}

static int
anyidle(const unsigned char *idle, size_t nnodes)
{
	size_t i;

	for (i = 0; i < nnodes; i++)
		if (idle[i])
			return 1;
	return 0;
}

/* The free (else all) idle nodes' mean remaining time, else tfwd. */
static int
mean_horizon(struct simhorizon *h, double t, const unsigned char *idle,
    const long *own, size_t nnodes, double *horizon, struct diag *d)
{
	struct lifetime_mean mean = LIFETIME_MEAN_INIT;
	size_t i, over;

	*horizon = h->tfwd;
	if (h->mode == SIMHORIZON_FIXED)
		return 0;
	if (h->mode == SIMHORIZON_LEARNT) {
		if (lifetime_refresh(&h->life) < 0)
			return diag_errno(d, ENOMEM, "learnt horizon");
		if (lifetime_residual(&h->life, 0) < 0) {
			h->fallbacks++;
			return 0;
		}
	}
	for (i = 0; i < nnodes; i++)
		if (idle[i])
			lifetime_mean_add(&mean, simhorizon_remaining(h, i, t),
			    own[i] < 0);
	if (!lifetime_mean(&mean, horizon, &over) &&
	    h->mode == SIMHORIZON_LEARNT)
		h->fallbacks += anyidle(idle, nnodes);
	return 0;
}

int
simhorizon_decide(struct simhorizon *h, double t,
    const unsigned char *idle, const long *own, size_t nnodes,
    double *horizon, struct diag *d)
{
	if (mean_horizon(h, t, idle, own, nnodes, horizon, d) < 0)
		return -1;
	if (h->mode != SIMHORIZON_FIXED && h->most > 0 && *horizon > h->most)
		*horizon = h->most;
	return 0;
}

void
simhorizon_free(struct simhorizon *h)
{
	lifetime_free(&h->life);
	free(h->since);
	free(h->first);
	free(h->cursor);
	free(h->leaves);
	memset(h, 0, sizeof *h);
}
