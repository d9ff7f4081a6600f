/*
 * NAME
 *	events - the usable-node set of a replayed log, change by change
 * DESCRIPTION
 *	See events.h.  The sources (swf.c, trace.c) hand over the node
 *	changes of one second at a time; this module keeps the current state
 *	and the state last reported, and compares only the nodes touched in
 *	between, so an event costs what changed, not the machine size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/events.h"
#include "sched/swf.h"
#include "sched/trace.h"

enum { SRC_SWF, SRC_TRACE };

struct events {
	int kind;
	struct swf swf;
	struct trace trace;
	char **swf_names;
	char *swf_namebuf;
	size_t n, cap;		/* nodes known, arrays' size */
	unsigned char *cur, *prev, *mark;
	uint32_t *touched, *join, *leave;
	size_t ntouched;
	int started;
};

static int
grow(void *pp, size_t size, size_t cap)
{
	void *p = realloc(*(void **)pp, cap * size);

	if (p == NULL)
		return -1;
	*(void **)pp = p;
	return 0;
}

/* Room for n nodes; a trace may name new nodes at any time. */
static int
ensure(struct events *ev, size_t n, struct diag *d)
{
	size_t cap = ev->cap ? ev->cap : 64;

	if (n > ev->cap) {
		while (cap < n)
			cap *= 2;
		if (grow(&ev->cur, 1, cap) < 0 || grow(&ev->prev, 1, cap) < 0
		    || grow(&ev->mark, 1, cap) < 0 ||
		    grow(&ev->touched, sizeof *ev->touched, cap) < 0 ||
		    grow(&ev->join, sizeof *ev->join, cap) < 0 ||
		    grow(&ev->leave, sizeof *ev->leave, cap) < 0)
			return diag_errno(d, ENOMEM, "events");
		memset(ev->cur + ev->cap, 0, cap - ev->cap);
		memset(ev->prev + ev->cap, 0, cap - ev->cap);
		memset(ev->mark + ev->cap, 0, cap - ev->cap);
		ev->cap = cap;
	}
	if (n > ev->n)
		ev->n = n;
	return 0;
}

static int
make_swf_names(struct events *ev, struct diag *d)
{
	size_t i, w = (size_t)ev->swf.width + 4;

	ev->swf_names = malloc((ev->swf.nnodes + 1) * sizeof *ev->swf_names);
	ev->swf_namebuf = malloc((ev->swf.nnodes + 1) * w);
	if (ev->swf_names == NULL || ev->swf_namebuf == NULL)
		return diag_errno(d, ENOMEM, "%s", ev->swf.label);
	for (i = 0; i < ev->swf.nnodes; i++) {
		ev->swf_names[i] = ev->swf_namebuf + i * w;
		swf_node_name(&ev->swf, i, ev->swf_names[i], w);
	}
	return 0;
}

int
events_open_swf(struct events **evp, const char *path, struct diag *d)
{
	struct events *ev = calloc(1, sizeof *ev);

	*evp = NULL;
	if (ev == NULL)
		return diag_errno(d, ENOMEM, "%s", path);
	ev->kind = SRC_SWF;
	if (swf_load(&ev->swf, path, d) < 0) {
		free(ev);
		return -1;
	}
	if (swf_sweep_init(&ev->swf, d) < 0 || make_swf_names(ev, d) < 0 ||
	    ensure(ev, ev->swf.nnodes, d) < 0) {
		events_close(ev);
		return -1;
	}
	/* Before the first job every node of the machine is idle. */
	memset(ev->cur, 1, ev->swf.nnodes);
	*evp = ev;
	return 0;
}

int
events_open_trace(struct events **evp, const char *path, long long epoch,
    struct diag *d)
{
	struct events *ev = calloc(1, sizeof *ev);

	*evp = NULL;
	if (ev == NULL)
		return diag_errno(d, ENOMEM, "%s", path);
	ev->kind = SRC_TRACE;
	if (trace_open(&ev->trace, path, epoch, d) < 0) {
		free(ev);
		return -1;
	}
	*evp = ev;
	return 0;
}

/* One second of changes from the source into cur, at most limit. */
static int
advance(struct events *ev, long long limit, long long *t, struct diag *d)
{
	const uint32_t *chg;
	size_t n, i;
	int rc;

	if (ev->kind == SRC_SWF)
		rc = swf_sweep_next(&ev->swf, limit, t, &chg, &n, d);
	else
		rc = trace_next(&ev->trace, limit, t, &chg, &n, d);
	if (rc <= 0)
		return rc;
	if (ev->kind == SRC_TRACE && ensure(ev, ev->trace.nnodes, d) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		uint32_t node = chg[i] >> 1;
		ev->cur[node] = (unsigned char)(chg[i] & 1);
		if (!ev->mark[node]) {
			ev->mark[node] = 1;
			ev->touched[ev->ntouched++] = node;
		}
	}
	return 1;
}

int
events_start(struct events *ev, long long from, struct event *e,
    struct diag *d)
{
	long long t;
	size_t i;
	int rc;

	while ((rc = advance(ev, from, &t, d)) > 0)
		;
	if (rc < 0)
		return -1;
	memset(e, 0, sizeof *e);
	e->time = from;
	e->join = ev->join;
	e->leave = ev->leave;
	for (i = 0; i < ev->n; i++) {
		ev->prev[i] = ev->cur[i];
		ev->mark[i] = 0;
		if (ev->cur[i])
			ev->join[e->njoin++] = (uint32_t)i;
	}
	ev->ntouched = 0;
	ev->started = 1;
	return 0;
}

static int
u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

int
events_next(struct events *ev, long long to, struct event *e,
    struct diag *d)
{
	long long t;
	size_t i;
	int rc;

	if (!ev->started)
		return diag_set(d, EX_SOFTWARE, "events_next before "
		    "events_start");
	for (;;) {
		if ((rc = advance(ev, to, &t, d)) <= 0)
			return rc;
		memset(e, 0, sizeof *e);
		e->time = t;
		e->join = ev->join;
		e->leave = ev->leave;
		if (ev->ntouched > 1)
			qsort(ev->touched, ev->ntouched, sizeof *ev->touched, u32_cmp);
		for (i = 0; i < ev->ntouched; i++) {
			uint32_t node = ev->touched[i];
			if (ev->cur[node] != ev->prev[node]) {
				if (ev->cur[node])
					ev->join[e->njoin++] = node;
				else
					ev->leave[e->nleave++] = node;
				ev->prev[node] = ev->cur[node];
			}
			ev->mark[node] = 0;
		}
		ev->ntouched = 0;
		if (e->njoin + e->nleave > 0)
			return 1;
	}
}

size_t
events_nodes(const struct events *ev)
{
	return ev->n;
}

const char *
events_name(struct events *ev, uint32_t node)
{
	if (ev->kind == SRC_SWF)
		return node < ev->swf.nnodes ? ev->swf_names[node] : NULL;
	return node < ev->trace.nnodes ? ev->trace.names[node] : NULL;
}

const struct swf *
events_swf(const struct events *ev)
{
	return ev->kind == SRC_SWF ? &ev->swf : NULL;
}

void
events_close(struct events *ev)
{
	if (ev == NULL)
		return;
	if (ev->kind == SRC_SWF)
		swf_free(&ev->swf);
	else
		trace_close(&ev->trace);
	free(ev->swf_names);
	free(ev->swf_namebuf);
	free(ev->cur);
	free(ev->prev);
	free(ev->mark);
	free(ev->touched);
	free(ev->join);
	free(ev->leave);
	free(ev);
}
