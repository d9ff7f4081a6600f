/*
 * NAME
 *	simspool - a replay written down as a spool: bf-sim --spool
 * SYNOPSIS
 *	struct simspool *w;
 *	simspool_open(&w, "replay", ev, "milp", 10.0, &d);
 *	simspool_decision(w, t, idle, own, nnodes, jobs, njobs, &d);
 *	...
 *	simspool_close(w, end, jobs, njobs, &d);
 *	simspool_free(w);
 * DESCRIPTION
 *	Every decision of a replay (sim.h) becomes an enacted plan in
 *	DIR/history/ as bf-apply records one (bf-spool(5), History; through
 *	history_enact_at()): the plan, with the replay's time as its enacted
 *	time (made to grow by a microsecond where two decisions share one),
 *	and as its objects the holes file of the idle nodes then (with the
 *	trace's node names), the state (the nodes each job held after the
 *	decision before) and the job files of the jobs admitted and not
 *	finished, in canonical form, owned by the uid that runs bf-sim.
 *	Unlike bf-apply, which records only a plan that changes something,
 *	every decision is recorded, so that each change of the idle nodes
 *	is in the history.
 *
 *	Each job reports progress at every decision while it holds nodes,
 *	and when it gets nodes: "TIME NODES SAMPLES", NODES those it held
 *	since the decision before.  A job that finishes gets its run record
 *	(history/runs/ENDED-NAME-0.yaml, outcome finished, ENDED the second
 *	it finished in, as bf-apply's are) with its log as progress.log beside it.
 *	simspool_close() reports once more at the replay's end, and leaves
 *	the jobs still admitted as a live spool would: jobs/NAME.yaml and
 *	progress/NAME.log, with state.yaml and holes/current.yaml of the
 *	last decision.
 *
 *	DIR is made when missing; a DIR with a history already is refused.
 * DIAGNOSTICS
 *	-1 with d set: 73 DIR exists with a history or cannot be made,
 *	73/74/75 a write failed (history.h), 71 out of memory.
 */
#ifndef BF_SIMSPOOL_H
#define BF_SIMSPOOL_H

#include <stddef.h>

#include "util/log.h"

#include "sched/events.h"
#include "spool/job.h"

enum simspool_state { SIMSPOOL_WAITING, SIMSPOOL_RUNNING, SIMSPOOL_DONE };

/* One job of the replay, as it stands after a decision. */
struct simspool_job {
	const struct job *job;
	enum simspool_state state;
	double done;		/* samples done by now */
	double finish;		/* unix time it finished, when DONE */
	double submit;		/* unix time it was submitted */
};

struct simspool;

int simspool_open(struct simspool **wp, const char *dir, struct events *ev,
    const char *policy, double tfwd, size_t njobs, struct diag *d);
/* own[node]: the job's index in jobs, or -1; idle[node] 0 or 1. */
int simspool_decision(struct simspool *w, double t,
    const unsigned char *idle, const long *own, size_t nnodes,
    const struct simspool_job *jobs, size_t njobs, struct diag *d);
int simspool_close(struct simspool *w, double end,
    const struct simspool_job *jobs, size_t njobs, struct diag *d);
void simspool_free(struct simspool *w);

#endif
