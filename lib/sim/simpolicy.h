/*
 * NAME
 *	simpolicy - how bf-sim decides at an event: the solver or a heuristic
 * SYNOPSIS
 *	enum simpolicy p;
 *	simpolicy_parse("equal-share", &p);
 *	simpolicy_decide(p, &opts, c, n, nfree, &res, &d);
 *	simpolicy_name(p);
 * DESCRIPTION
 *	Every policy sees the jobs in the order they were admitted (c[J].was
 *	nodes held now, c[J].job its bounds and curve) and nfree idle nodes
 *	nobody holds, and sets each c[J].nodes, 0 or within [min, max], with
 *	the sum of the counts at most the idle nodes.
 *
 *	milp, dp and per-node are solve_counts() with CBC on the compact
 *	model, the dynamic program, and CBC on the per-node model under the
 *	time limit opts.seconds; when that limit stops the per-node search
 *	the allocation stays as it is (a job below its min_nodes stops), as
 *	BFTrainer does.
 *
 *	With opts.policy, an admin's policy (milp only: the caller sees to
 *	it), a decision whose policy rows cannot all be met is bf-watch's
 *	give-back plan, as in bf-watch(1) FAIL-SAFE: each job keeps what it
 *	holds, one below its min_nodes stops, nothing grows or starts; its
 *	status is "no-plan".
 *
 *	equal-share is BFTrainer's baseline: with N idle nodes and J jobs
 *	each job gets min(floor(N / J), max) when that is at least its min,
 *	else nothing; the nodes left over go first come first served, each
 *	job in admission order topping up to its max (a job with nothing
 *	only when at least its min is left).  It ignores rescale costs.
 *
 *	greedy keeps every job's nodes (a job below its min gives them up)
 *	and hands out the free nodes one step at a time to the job whose
 *	step gains most per node, in the objective's terms (tfwd r(k) minus
 *	the rescale cost), a job with nothing taking its min at once; it
 *	stops when no step gains.  Ties go to the earlier job.
 * DIAGNOSTICS
 *	-1 with d set, as solve_counts() says.
 */
#ifndef BF_SIMPOLICY_H
#define BF_SIMPOLICY_H

#include <stddef.h>

#include "solve/solve.h"

enum simpolicy {
	SIMPOLICY_MILP,
	SIMPOLICY_DP,
	SIMPOLICY_PERNODE,
	SIMPOLICY_EQUAL,
	SIMPOLICY_GREEDY
};

int simpolicy_parse(const char *s, enum simpolicy *p);
const char *simpolicy_name(enum simpolicy p);
int simpolicy_decide(enum simpolicy p, const struct solve_opts *o,
    struct solve_count *c, size_t n, long nfree, struct solve_result *res,
    struct diag *d);

#endif
