/*
 * NAME
 *	profile - a job's measured scalability: from its progress log, to and
 *	from SPOOL/profiles/NAME.yaml
 * SYNOPSIS
 *	struct profile p;
 *	profile_from_log(&p, "resnet18", "progress/resnet18.log", buf, len,
 *	    &job, &d);			(job may be NULL)
 *	char *text = profile_format(&p, &textlen);
 *	profile_load(&p, profiles_fd, "resnet18.yaml", "profiles/resnet18.yaml",
 *	    &d);
 *	double r = profile_rate(&p, 12);	measured point, else fitted law
 *	profile_rescale(&p, &job, &up, &down);	measured once observed twice
 *	profile_free(&p);
 *
 *	struct profile_log *l = NULL;	(a log that grows: bf-sim's)
 *	profile_log_update(&l, &p, "resnet18", label, buf, len, &job, &d);
 *	profile_log_fit(l, &p);		(when the law is wanted)
 *	profile_advise(&p, job.min_nodes, job.max_nodes);
 *	profile_log_free(l);
 * DESCRIPTION
 *	profile_from_log() reads a progress log (progress.h) and measures:
 *
 *	Segments.  The reports are cut where the node count changes (a
 *	rescale) and where no report came for PROFILE_RESTART_GAP seconds (a
 *	stop and restart), or for more than PROFILE_PAUSE_MIN seconds and
 *	PROFILE_PAUSE_FACTOR times the longer of the two intervals before,
 *	the four reports at one count (a pause: its nodes taken back for a
 *	while; a restart too), and where the count changed after a silence
 *	longer than that change's declared cost by as much (the job stopped,
 *	all its nodes taken back, and started again at another count: a
 *	restart too, not a rescale).  Each segment drops its warm-up: its first
 *	report, and after a rescale every report earlier than the last report
 *	at the old size plus the declared rescale cost (the job's rescale_up or
 *	rescale_down, else the job file defaults), then every leading report
 *	whose step to the next advanced at less than PROFILE_STALL of the
 *	mean rate over the rest or, after a rescale or a restart, of the
 *	rate before it scaled linearly down to the new count (a restart
 *	slower than declared; the rate of the last segment measured, across
 *	segments too short to tell a stall, as rescales in quick succession
 *	leave, but not across one stalled throughout), and the report that
 *	starts the first step advancing faster (the stall ended within it);
 *	a segment stalled throughout measures nothing.  A pause cut as a
 *	restart may be the job's own (an evaluation that reports nothing):
 *	its rate is then the rate between such pauses, not over them.
 *
 *	Rate.  Per segment, a least-squares line of samples over time through
 *	the remaining reports, refitted once without the reports whose
 *	residual exceeds PROFILE_OUTLIER times the median absolute residual
 *	(a late or stale line), so a lost or late line moves the rate little.
 *	Segments of one node count are combined weighted by their duration.
 *	A point needs a segment with PROFILE_MIN_REPORTS reports after its
 *	warm-up (before the stalled ones are dropped), two of them after the
 *	stalled ones and the step that ends the stall: with two, a stall
 *	longer than the declared cost would pass for a slow rate.
 *
 *	Rescale cost.  For a rescale from the report (t_c, S_c), the last at
 *	the old size, to a measured segment with fitted line S = a + r t: the
 *	time lost is t* - t_c, where the fitted line reaches S_c at t*; that
 *	is the time between the last old report and steady progress at the
 *	new size, net of the work done meanwhile.  Growing and shrinking are
 *	measured apart, each the median of its observations, with their
 *	number.  A change is observed only when the segment before it was
 *	steady (a rate measured over reports enough to judge a stall), so
 *	that an earlier change's stall is not read as this one's; a change
 *	after a silence longer than PROFILE_RESTART_GAP is no observation.
 *
 *	Law.  r(n) = r1 n / (1 + sigma (n - 1) + kappa n (n - 1)) (Gunther's
 *	universal scalability law; kappa 0 is Amdahl's) fitted to the points
 *	by least squares of the relative error, 0 <= sigma <= 1,
 *	0 <= kappa <= 1: for fixed sigma and kappa the best r1 is closed
 *	form; sigma and kappa come from a log-spaced grid refined by golden
 *	section, so the fit is deterministic.  Two counts fit Amdahl (law
 *	amdahl, kappa 0), three or more the full law (usl); one count fits
 *	nothing.  rmse is the root mean square error in samples per second.
 *
 *	Advisor (profile_advise()), for fewer than three measured counts,
 *	within [min_nodes, max_nodes]: none measured, min_nodes; one, twice
 *	it (capped at max_nodes), or half of it when it is max_nodes; two, lo
 *	and hi, when the efficiency (r(hi)/hi) / (r(lo)/lo) is at least
 *	PROFILE_EFFICIENCY_MIN and hi is below max_nodes, twice hi (capped at
 *	max_nodes), else (lo + hi) / 2 when that lies strictly between.
 *	With three counts or more, while the largest is twice the one below
 *	it, below max_nodes, and the efficiency between them is at least
 *	PROFILE_EFFICIENCY_MIN, twice the largest (capped at max_nodes): the
 *	job is still on its doubling ladder.  Otherwise no probe (next_nodes
 *	0).
 *
 *	Bound.  The log is the user's: with a job whose file declares rates,
 *	a measured point at n nodes above PROFILE_RATE_FACTOR x n x the
 *	highest declared rate per node is clamped to that bound, with a
 *	warning naming the log (clamped counts them).  A job that declares
 *	no rate is bounded by the site (bf-solve(1), max_rate_per_node).
 *
 *	For bf-solve: profile_rate() is the measured rate at n nodes when n
 *	was measured, else the law's (profile_usl_rate()), else NAN (fewer
 *	than two counts); profile_rate(p, 0) is 0.  profile_rescale() gives
 *	the costs to plan with: a measured one once it rests on two
 *	observations or more, else the job's declared one (or the job file
 *	defaults without a job).  A job without a log has no profile; call
 *	profile_advise() on a zeroed profile for its first probe (min_nodes).
 *	profile_parse() ignores keys it does not know.
 *
 *	profile_log_update() measures a log that only grows, as
 *	profile_from_log() does without its law and advice, reading only the
 *	whole lines added since the last update (*l, allocated at the first,
 *	keeps the reports, the offset read and the segments): a segment ends
 *	for good when the next one starts, so only the open one is fitted
 *	again.  New lines are appended when none of them is skipped and they
 *	follow the last report in time and samples, which is when the whole
 *	log's reading would keep them all; otherwise the log is read whole
 *	from then on, so the measure is always profile_from_log()'s, exactly
 *	(t2015).  A buffer shorter than what was read starts it again.  No
 *	allocation timeline (NODES "-" lines are bad lines here).
 *	profile_log_fit() is profile_fit(), made again only when the points
 *	changed since the last call (the law depends on nothing else): the
 *	law's grid search is most of a fit's time.  profile_curve_law() says
 *	whether profile_curve() would use a fitted law (it extends the curve
 *	past the last measured count), so a caller that wants only the curve
 *	fits the law only then.
 *
 *	Numbers are rounded as the file prints them (6 significant digits,
 *	rescale costs to 0.01 s), so a profile read back equals the one
 *	computed.
 * DIAGNOSTICS
 *	-1 with d set: 65 bad profile file ("FILE:LINE: what"), 66 missing,
 *	71 out of memory.  Bad log lines are warned about and counted, never
 *	an error (progress.h).
 */
#ifndef BF_PROFILE_H
#define BF_PROFILE_H

#include <stddef.h>
#include <stdio.h>

#include "util/log.h"

#include "spool/job.h"
#include "spool/plan.h"

#define PROFILE_RESTART_GAP	300.0	/* seconds of silence: a restart */
#define PROFILE_PAUSE_FACTOR	5.0	/* x the interval before, and */
#define PROFILE_PAUSE_MIN	30.0	/* seconds: a pause, a restart too */
#define PROFILE_OUTLIER		10.0	/* x median absolute residual */
#define PROFILE_ANCHOR		5	/* reports placing steady progress */
#define PROFILE_STALL		0.25	/* of the mean rate: a stalled step */
#define PROFILE_MIN_REPORTS	3	/* after the warm-up, for a point */
#define PROFILE_EFFICIENCY_MIN	0.8	/* the advisor doubles at or above */
#define PROFILE_RATE_FACTOR	16.0	/* x declared peak per node x n: the
					   most a measured rate may claim */
#define PROFILE_MAX_FILE	(4 * 1024 * 1024)

struct profile {
	char name[JOB_NAME_MAX + 1];
	long long last_report;	/* unix seconds of the last report used, 0 none */
	size_t npoints;
	struct job_point *points;	/* measured, ascending nodes */
	int has_fit;		/* a law fitted on >= 2 counts */
	int fit_counts;		/* distinct node counts it rests on */
	int fit_usl;		/* 1 usl (>= 3 counts), 0 amdahl */
	double r1, sigma, kappa;
	double rmse;		/* samples per second */
	double rescale_up, rescale_down;	/* measured medians, seconds */
	int up_obs, down_obs;	/* observations behind them, 0 none */
	long next_nodes;	/* advisor's next count, 0 none */
	char reason[128];	/* why, for next_nodes */
	size_t skipped_lines;	/* bad log lines */
	size_t clamped;		/* points above PROFILE_RATE_FACTOR */
};

int profile_from_log(struct profile *p, const char *name, const char *label,
    const char *buf, size_t len, const struct job *declared, struct diag *d);
/* The same, NODES "-" taken from an allocation timeline (progress.h). */
struct progress_alloc;
struct spool;
int profile_from_log_alloc(struct profile *p, const char *name,
    const char *label, const char *buf, size_t len,
    const struct job *declared, const struct progress_alloc *alloc,
    struct diag *d);
int profile_parse(struct profile *p, const char *file, const char *buf,
    size_t len, struct diag *d);
int profile_load(struct profile *p, int dirfd, const char *name,
    const char *label, struct diag *d);
char *profile_format(const struct profile *p, size_t *len);
/* profile_spool.c */
void profile_print_advice(const struct profile *p, FILE *out);
int profile_spool(struct spool *sp, char *const *names, size_t nnames,
    FILE *advise);
void profile_fit(struct profile *p);
void profile_advise(struct profile *p, long min_nodes, long max_nodes);
double profile_usl_rate(const struct profile *p, double n);
/*
 * The curve bf-solve and bf-sim value a profiled job by: the declared
 * points at counts not measured, each times measured over declared (the
 * declared curve, curve_rate()) at the measured counts, that ratio
 * interpolated linearly in the count between two of them and held
 * beyond them, rounded to 6 significant digits; every measured point;
 * with a fitted law one point every doubling past the last known count
 * up to max_nodes, at the lower of the law and linear scaling from that
 * point (a law fitted on a few counts may promise more than the job
 * delivers).  out
 * has room for ndeclared + p->npoints + PROFILE_LAW_POINTS; returns the
 * count, ascending.  PROFILE_CURVE_JOINED is the rule of plans made before
 * 2026-11-25 (declared points taken as they are), for bf-audit to re-solve
 * them as they were made.
 */
#define PROFILE_LAW_POINTS 64
enum profile_curve_rule { PROFILE_CURVE_SCALED, PROFILE_CURVE_JOINED };
size_t profile_curve(const struct profile *p, const struct job_point *declared,
    size_t ndeclared, long max_nodes, enum profile_curve_rule rule,
    struct job_point *out);
/*
 * The rule a plan's profiles were applied by: JOINED for a plan with
 * profiles and no solver.curve (made before 2026-11-25), else SCALED.
 */
enum profile_curve_rule profile_plan_rule(const struct plan *p);
double profile_rate(const struct profile *p, long n);
void profile_rescale(const struct profile *p, const struct job *declared,
    double *up, double *down);
void profile_free(struct profile *p);
struct profile_log;
int profile_log_update(struct profile_log **l, struct profile *p,
    const char *name, const char *label, const char *buf, size_t len,
    const struct job *declared, struct diag *d);
void profile_log_fit(struct profile_log *l, struct profile *p);
void profile_log_free(struct profile_log *l);
int profile_curve_law(const struct profile *p,
    const struct job_point *declared, size_t ndeclared, long max_nodes);

#endif
