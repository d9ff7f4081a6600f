/*
 * NAME
 *	simhorizon - bf-sim's look-ahead per decision: fixed, learnt from the
 *	holes that ended, or the trace's own
 * SYNOPSIS
 *	struct simhorizon h;
 *	simhorizon_open(&h, SIMHORIZON_LEARNT, tfwd, from, to, nodes,
 *	    ahead, &d);
 *	simhorizon_join(&h, node, t, &d);	(a node becomes idle)
 *	simhorizon_leave(&h, node, t);		(the scheduler takes it back)
 *	simhorizon_decide(&h, t, idle, own, nnodes, &horizon, &d);
 *	simhorizon_remaining(&h, node, t);	(< 0: none)
 *	simhorizon_free(&h);
 * DESCRIPTION
 *	The objective of bf-solve(1) values a job's choice at T r(k) less
 *	its rescale cost, T one look-ahead for the decision.  With
 *	SIMHORIZON_FIXED T is tfwd at every decision.  Otherwise each idle
 *	node has an expected remaining idle time, and T is their mean over
 *	the free idle nodes (idle, held by no job: those a grow would take);
 *	with none free over all idle nodes (T then weighs only stops and
 *	shrinks); with no idle node it is tfwd.  One T per decision keeps
 *	the compact model as it is: a column per job and count.
 *
 *	SIMHORIZON_LEARNT: a node's expected remaining idle time is
 *	lifetime_residual() at its idle age, from the holes that ended so
 *	far in the replay (simhorizon_leave() adds each, refreshed at every
 *	decision): nothing from the future, nothing from before `from'.  A
 *	hole open at `from' has an unknown start: its age counts from
 *	`from', and its duration, unknown, is not learnt.  A node older than
 *	the data support (fewer than LIFETIME_MIN ended holes lasted longer)
 *	has no expected time and is left out of the mean; ranked, it comes
 *	first (it outlived them).  Until LIFETIME_MIN holes have ended, and
 *	where no idle node has an expected time, T is tfwd (a fallback,
 *	counted).
 *
 *	SIMHORIZON_CLAIRVOYANT: the true remaining idle time, from `ahead',
 *	a second events stream of the same log read whole by
 *	simhorizon_open() from `from' to `to' (LLONG_MAX: to its end): the
 *	time to the node's next leave, or to the replay's end (`to', else
 *	the last event) when it does not leave before.  The ceiling of what
 *	knowing lifetimes can give this choice of T.
 *
 *	simhorizon_remaining() is one idle node's expected (learnt) or true
 *	(clairvoyant) remaining idle time at t, < 0 when there is none
 *	(fixed, or learnt before LIFETIME_MIN holes ended), INFINITY for a
 *	node older than the learnt data support; learnt, it is as of the
 *	last decision's refresh.  t never goes back between calls.
 *
 *	Nodes numbered `nodes' and above (0: none) take no part.
 * DIAGNOSTICS
 *	-1 with d set: the stream's codes; EX_OSERR when memory runs out.
 */
#ifndef BF_SIMHORIZON_H
#define BF_SIMHORIZON_H

#include <stddef.h>
#include <stdint.h>

#include "util/log.h"

#include "sched/events.h"
#include "spool/lifetime.h"

enum simhorizon_mode {
	SIMHORIZON_FIXED,
	SIMHORIZON_LEARNT,
	SIMHORIZON_CLAIRVOYANT
};

struct simhorizon {
	enum simhorizon_mode mode;
	double tfwd, from;
	double most;		/* not fixed: each horizon at most this, 0
				 * none (sim.h, o.horizon_cap) */
	double *since;		/* learnt: when a node's hole began, NAN
				 * when it was open at from */
	size_t cap;
	struct lifetime life;
	size_t holes;		/* learnt: holes ended, added */
	size_t fallbacks;	/* learnt: decisions at tfwd */
	size_t nleaving;	/* clairvoyant: nodes with leave times */
	size_t *first;		/* node i's leaves: leaves[first[i]..] */
	size_t *cursor;		/* its first leave not yet passed */
	double *leaves;
	double end;
};

int simhorizon_parse(const char *s, enum simhorizon_mode *m);
const char *simhorizon_name(enum simhorizon_mode m);
int simhorizon_open(struct simhorizon *h, enum simhorizon_mode mode,
    double tfwd, long long from, long long to, size_t nodes,
    struct events *ahead, struct diag *d);
int simhorizon_join(struct simhorizon *h, uint32_t node, double t,
    struct diag *d);
void simhorizon_leave(struct simhorizon *h, uint32_t node, double t);
int simhorizon_decide(struct simhorizon *h, double t,
    const unsigned char *idle, const long *own, size_t nnodes,
    double *horizon, struct diag *d);
double simhorizon_remaining(struct simhorizon *h, size_t node, double t);
void simhorizon_free(struct simhorizon *h);

#endif
