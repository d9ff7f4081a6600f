/*
 * NAME
 *	simprof - bf-sim's online profiling: progress reports and their fit
 * SYNOPSIS
 *	struct simprof p;
 *	simprof_start(&p, &declared, t, seed);
 *	simprof_report(&p, t, nodes, samples, rate, &d);   (each report due)
 *	simprof_update(&p, t, &d);	(before a decision)
 *	p.belief, p.probe		(what the policy sees)
 *	simprof_free(&p);
 * DESCRIPTION
 *	With --profile online a job starts without its curve: the policy
 *	sees p.belief, the declared job without points (bf-solve's
 *	provisional rate) until its reports measure it.  While the job runs it reports every
 *	SIMPROF_EVERY seconds, as a real job appends to its progress log,
 *	"UNIXTIME NODES SAMPLES", its true cumulative samples plus noise:
 *	uniform within SIMPROF_NOISE of one report interval's work at its
 *	rate, from a generator seeded per job, so runs are reproducible;
 *	never below the last report (a counter does not go back).
 *	simprof_update() fits the log with profile_from_log() when it grew,
 *	with every report while the count's segment is young (at most
 *	SIMPROF_YOUNG reports), then at most every SIMPROF_REFIT seconds,
 *	since a fit reads the whole log and more reports on a settled count
 *	change little; and makes the belief as bf-solve applies a profile: the measured
 *	points, then one point every doubling up to max_nodes at the lower
 *	of the fitted law and linear scaling from the last point; measured
 *	rescale costs once observed twice.  With one point the curve is
 *	linear through it (curve.h), an optimist's guess.
 *
 *	p.probe keeps the advisor's next count, but bf-sim does not restrict
 *	the choices to it: with T_fwd = 10 s a doubling from C gains about
 *	10 s of r(C) and costs R_up (about 18 s) of it, so a job held to
 *	doublings never grows past its first count (measured on the Summit
 *	replay: a third of the oracle's samples).  Without it the optimist's
 *	curve lets a job jump, and the jump is the next measurement.
 * DIAGNOSTICS
 *	-1 with d set: 71 out of memory; profile_from_log()'s codes.
 */
#ifndef BF_SIMPROF_H
#define BF_SIMPROF_H

#include <stddef.h>
#include <stdint.h>

#include "util/log.h"

#include "job.h"

#define SIMPROF_EVERY	10.0	/* seconds between progress reports */
#define SIMPROF_NOISE	0.01	/* of one interval's samples */
#define SIMPROF_YOUNG	6	/* reports: a new count's point settles */
#define SIMPROF_REFIT	300.0	/* seconds between fits of a settled one */

struct simprof {
	const struct job *declared;
	struct job belief;
	struct job_point *points;	/* the belief's, owned */
	char *log;
	size_t len, cap;
	double next;		/* when the next report is due */
	uint64_t rng;
	double last;		/* samples last reported */
	long last_nodes;	/* nodes of the last report */
	size_t seg;		/* reports at that count since it changed */
	double fitted;		/* time of the last fit */
	int dirty;
	long probe;
};

void simprof_start(struct simprof *p, const struct job *declared, double t,
    uint64_t seed);
int simprof_report(struct simprof *p, double t, long nodes, double samples,
    double rate, struct diag *d);
int simprof_update(struct simprof *p, double t, struct diag *d);
void simprof_free(struct simprof *p);

#endif
