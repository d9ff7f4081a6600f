/*
 * NAME
 *	simprof - bf-sim's online profiling: progress reports and their fit
 * SYNOPSIS
 *	struct simprof p;
 *	simprof_start(&p, &job, decl, ndecl, t, seed, every, noise);
 *	simprof_report(&p, t, nodes, samples, rate, &d);   (each report due)
 *	simprof_update(&p, t, &d);	(at a report, before a decision)
 *	simprof_belief(&p, &d);	(before a decision)
 *	p.belief, p.probe		(what the policy sees)
 *	simprof_share(&p, pts, n);	(after start: a sibling's points)
 *	simprof_prior(&p, pts, n);	(before the first fit: another prior)
 *	simprof_free(&p);
 * DESCRIPTION
 *	With --profile online a job starts without its true curve: the
 *	policy sees p.belief, the job with the points its job file declares
 *	(decl, ndecl: none, bf-solve's provisional rate, or a wrong guess)
 *	until its reports measure it.  While the job runs it reports every
 *	`every' seconds, as a real job appends to its progress log,
 *	"UNIXTIME NODES SAMPLES", its true cumulative samples plus noise:
 *	uniform within `noise' of one report interval's work at its
 *	rate, from a generator seeded per job, so runs are reproducible;
 *	never below the last report (a counter does not go back); bf-sim
 *	also reports the commit a decision's rescale makes, at that time
 *	(sim.c, commit_report()), as examples/torch does.
 *	simprof_update() fits the log as profile_from_log() does when it
 *	grew, with every report while the count's segment is young (at most
 *	SIMPROF_YOUNG reports), then at most every SIMPROF_REFIT seconds,
 *	since more reports on a settled count change little (a rule from
 *	when each fit read the whole log, kept so that replays compare with
 *	earlier ones); each fit reads only the reports added since the last
 *	(profile_log_update(), the same measure exactly).
 *	simprof_belief() makes the belief from the last fit, fitting its law
 *	only then (a fit between two decisions is never seen by the policy),
 *	only when the belief uses it (profile_curve_law()) and only when the
 *	points moved since the law was last fitted; the belief is made as
 *	bf-solve applies a profile
 *	(profile_curve(), the function bf-solve's solve_profile() calls):
 *	the measured points, the declared ones at counts not measured scaled
 *	to them, then one point every doubling up to max_nodes at the lower
 *	of the fitted law and linear scaling from the last point; measured
 *	rescale costs once observed twice.  With one point the curve is
 *	linear through it (curve.h), an optimist's guess.
 *
 *	p.probe is the advisor's next count (profile_advise(), as bf-profile
 *	writes it into the profile), min_nodes before the first fit, as
 *	bf-profile -a advises a job without a log; bf-sim hands it to the
 *	decision as bf-solve does (solve_count.probe: stop, stay or the probe,
 *	the move to the probe not charged in the objective) unless told not
 *	to.  p.fits counts the fits, p.changed says the last one changed the
 *	probe or measured a new count (a new decision is due, as bf-watch
 *	makes one when bf-profile writes a profile).
 *
 *	simprof_share() starts the job from the points another job of the
 *	same model measured (pts, borrowed, outliving p) instead of what its
 *	file declares: the belief starts from them, and the advisor counts
 *	them as measured (its own measurements replace them at the counts it
 *	runs on), so a job whose sibling climbed the ladder probes no more.
 *	simprof_prior() only puts pts (borrowed, outliving p) in place of
 *	what the file declares, as the prior the belief starts from and the
 *	fits scale; the advisor is not told (bf-sim --voi does not use it).
 *	With p.peak set (bf-sim --voi) a count's measured rate is the
 *	highest any fit of the job has given it: in the replay, as in a
 *	real job, what slows a fit (a stall after a rescale, a restart
 *	slower than declared, read as a slow rate) only lowers it, and the
 *	noise of the reports is small, so the best fit is the closest; the
 *	belief, p.meas and fits.csv see those rates; and the belief has
 *	no law: past the last count measured it follows the prior's shape,
 *	scaled (profile_curve()), else curve_rate()'s extension of the last
 *	two points, never a law fitted on a few counts.
 * DIAGNOSTICS
 *	-1 with d set: 71 out of memory; profile_from_log()'s codes.
 */
#ifndef BF_SIMPROF_H
#define BF_SIMPROF_H

#include <stddef.h>
#include <stdint.h>

#include "util/log.h"

#include "profile/profile.h"
#include "spool/job.h"

#define SIMPROF_EVERY	10.0	/* default seconds between reports */
#define SIMPROF_NOISE	0.01	/* default, of one interval's samples */
#define SIMPROF_YOUNG	6	/* reports: a new count's point settles */
#define SIMPROF_REFIT	300.0	/* seconds between fits of a settled one */

struct simprof {
	const struct job *declared;
	const struct job_point *decl;	/* the job file's points, borrowed */
	size_t ndecl;
	double every, noise;
	struct job belief;
	struct job_point *points;	/* the belief's, owned */
	char *log;
	size_t len, cap;
	double next;		/* when the next report is due */
	uint64_t rng;
	double last;		/* samples last reported */
	double last_t;		/* when, 0 before the first report */
	long last_nodes;	/* nodes of the last report */
	size_t seg;		/* reports at that count since it changed */
	double fitted;		/* time of the last fit */
	int dirty;
	long probe;
	size_t measured;	/* counts measured by the last fit */
	struct job_point *meas;	/* those points, owned */
	int changed;		/* the last fit changed probe or measured */
	size_t fits;
	int shared;		/* decl are a sibling's measurements */
	struct profile_log *fitlog;	/* the fit, kept up to date */
	struct profile cur;	/* the last fit */
	int stale;		/* the belief is not yet cur's */
	int peak;		/* a count's rate: the best fitted there */
	struct job_point *top;	/* those best rates, owned */
	size_t ntop;
};

void simprof_start(struct simprof *p, const struct job *job,
    const struct job_point *decl, size_t ndecl, double t, uint64_t seed,
    double every, double noise);
int simprof_report(struct simprof *p, double t, long nodes, double samples,
    double rate, struct diag *d);
int simprof_update(struct simprof *p, double t, struct diag *d);
int simprof_belief(struct simprof *p, struct diag *d);
int simprof_share(struct simprof *p, const struct job_point *pts, size_t n,
    struct diag *d);
void simprof_prior(struct simprof *p, const struct job_point *pts, size_t n);
void simprof_free(struct simprof *p);

#endif
