/*
 * NAME
 *	sim - replay an idle-node event stream with malleable jobs, and measure
 * SYNOPSIS
 *	struct sim_opts o = SIM_OPTS_DEFAULT;
 *	struct sim_result r;
 *	sim_run(&o, ev, &jobs, &r, &d);
 *	sim_summary(&o, &r, fp);
 *	r.steps, r.steps_len: steps.csv
 *	sim_result_free(&r);
 * DESCRIPTION
 *	The model of time (bf-sim(1)): the idle set changes only at the
 *	stream's events; between two moments of change each running job
 *	makes r(n) samples per second on its n nodes.  A grow or shrink, and
 *	a node taken back by the main scheduler (once per job and event),
 *	cost the job R_up or R_down seconds of its rate before the change:
 *	a debt in samples that its next production repays before its
 *	progress counts again.  So ideal (all production) = done + loss.
 *	With o.stall a job's rescales and take-backs at one event are one
 *	stall instead, as long as the longest of them (R_up or R_down), a
 *	debt of that many seconds of the rate at the count the event's
 *	decision leaves (nothing where that count runs nothing; a start
 *	from no nodes, not hit, costs nothing, as without it).
 *	A job finishes at the exact moment done reaches its samples; its
 *	nodes go back to the pool and that moment is an event.  Jobs are
 *	admitted in submit order, at most max_jobs at once, at their submit
 *	time (T0 + submit_s) or when a slot frees; an admission is an event.
 *	At every event (after the idle set, finishes and admissions are
 *	applied) the policy decides; counts map to nodes deterministically:
 *	a shrinking job gives back its highest-numbered nodes, growing jobs
 *	take the lowest-numbered free ones, in admission order.
 *
 *	Only nodes numbered below o.nodes take part (0: all): the events
 *	stream numbers nodes in the order the trace first names them.
 *	The replay ends at o.to, at the stream's last event when there is no
 *	o.to, or when every job has finished, whichever comes first.
 *
 *	With o.profile SIM_ONLINE the policy sees each job as simprof.h
 *	says, learning its curve from the progress it reports every
 *	o.report_every seconds with o.noise, restricted to the advisor's
 *	probe unless o.no_probe (with o.probe_contested, only at a decision
 *	where the running jobs' max_nodes add up to more than the idle
 *	nodes: uncontested, a job is measured where the allocation puts it);
 *	a fit that measures a new count or changes
 *	the probe is an event (a decision), as a new profile is to bf-watch.
 *	With o.share a job admitted starts from the measured points of the
 *	job of the same model (jobs CSV model) that has the most, the latest
 *	admitted among equals (simprof_share()).
 *	With o.voi (online, without the advisor's probe; with o.no_probe
 *	also without its own) a job starts
 *	from an honest prior: what its file declares, else the measured
 *	points of the job of its model that has the most, else a line at
 *	the median rate per node of the jobs measured so far (at each one's
 *	smallest measured count), else bf-solve's provisional curve, made
 *	again at each decision until the job measures a count; its
 *	measured points replace the prior's at the counts measured and
 *	scale it at the others (profile_curve()), so the belief moves to
 *	the measurement count by count.  It is measured where the
 *	allocation puts it.  A probe is a value-of-information test, only
 *	at a decision where nodes are contested (the plan leaves none free
 *	and some job below its max_nodes) and no probe is pending: the
 *	job whose optimistic curve (linear from its largest measured
 *	count, or at the highest rate per node measured so far when it has
 *	none) lies furthest above its belief at max_nodes, among those the
 *	plan keeps at or below that count with SIM_VOI_LEFT seconds of work
 *	left, is decided again with that curve by the dynamic program;
 *	when it would then get a count never measured, and what that plan
 *	gains under the optimistic curve over the job's work left (at most
 *	SIM_VOI_HORIZON seconds), times the odds of optimism learnt from the
 *	probes so far (confirmed + 1) / (measured + 2), a probe confirmed at
 *	SIM_VOI_CONFIRM of its optimistic rate, exceeds what it costs under
 *	the belief over SIM_VOI_MEASURE seconds, it is taken, and the job keeps
 *	its optimistic curve until that count is measured, its nodes fall
 *	below it, or SIM_VOI_WAIT seconds pass.  A count's rate is the best
 *	fitted there, and a count measured is no event (simprof.h, p.peak).
 *	With SIM_NONE it sees the curve the job file declares, or bf-solve's
 *	provisional one, and never learns.  The replay runs on the true
 *	curves and charges the true rescale costs.
 *
 *	With o.horizon other than SIMHORIZON_FIXED, each decision's
 *	look-ahead is set from the idle nodes' remaining idle times, learnt
 *	from the holes ended so far or, clairvoyant, read from o.ahead, a
 *	second stream of the same log (simhorizon.h); o.tfwd is then the
 *	fallback; with o.horizon_cap > 0 a decision's look-ahead is at most
 *	that.  With o.place_longest, growing jobs take the free idle
 *	nodes with the longest of those times first (as bf-solve's plan
 *	takes the nodes whose until is latest), instead of the lowest-
 *	numbered.
 *
 *	With o.spool, every decision is also written down as an enacted
 *	plan of a spool's history there, with the jobs' progress logs and
 *	run records (simspool.h), for bf-report.
 *
 *	Every step is checked: a node held by one job at most, only idle
 *	nodes held, each job's count its nodes, 0 or within its bounds.
 * DIAGNOSTICS
 *	-1 with d set: the stream's and solver's codes; 70 when a check
 *	fails.
 */
#ifndef BF_SIM_H
#define BF_SIM_H

#include <stddef.h>
#include <stdio.h>

#include "util/log.h"

#include "sched/events.h"
#include "sim/jobcsv.h"
#include "sim/simhorizon.h"
#include "sim/simpolicy.h"
#include "sim/simprof.h"

enum sim_profile { SIM_ORACLE, SIM_ONLINE, SIM_NONE };
#define SIM_FIT_JOBS	6	/* jobs whose fits bf-sim plots */
#define SIM_VOI_LEFT	600.0	/* seconds of work: a probe may repay */
#define SIM_VOI_WAIT	300.0	/* seconds a probe may wait for its point */
#define SIM_VOI_HORIZON	1800.0	/* seconds a probe's answer may serve */
#define SIM_VOI_MEASURE	60.0	/* seconds to measure a count */
#define SIM_VOI_CONFIRM	0.9	/* of the optimistic rate: a probe confirmed */

struct sim_opts {
	enum simpolicy policy;
	double tfwd;		/* look-ahead, seconds */
	enum simhorizon_mode horizon;	/* how tfwd is set per decision */
	double horizon_cap;	/* not fixed: at most this, 0 none */
	struct events *ahead;	/* clairvoyant: the same log once more */
	int place_longest;	/* grows take the free nodes expected to
				 * stay idle longest (not fixed horizons) */
	double limit;		/* per-node solver's time limit */
	long long epoch;	/* unix time of t=0 of the trace and jobs */
	long long from, to;
	int have_to;
	size_t nodes;		/* first N nodes, 0 all */
	size_t max_jobs;
	enum sim_profile profile;
	int no_probe;		/* online: without the advisor's probe */
	int probe_contested;	/* online: the probe only while contested */
	int share;		/* online: a job starts from a sibling's fit */
	int voi;		/* online: honest prior, passive measure,
				 * probes by value of information */
	int passive;		/* online: bf-solve's live default: no
				 * probe, the median prior, no event */
	int stall;		/* a rescale or take-back stalls R seconds
				 * at the new count (the debt is R r(new)) */
	double report_every;	/* online: seconds between reports */
	double noise;		/* online: of one interval's samples */
	void (*progress)(void *arg, double frac);
	void *progress_arg;
	const char *spool;	/* write the replay as a spool there */
	const struct policy *admin;	/* an admin's policy, borrowed, for
					 * milp's decisions; NULL none */
	const char *admin_digest;	/* its file's, for summary.yaml */
};

#define SIM_OPTS_DEFAULT { .policy = SIMPOLICY_MILP, .tfwd = 10.0, \
	.limit = 10.0, .max_jobs = 10, .profile = SIM_ORACLE, \
	.report_every = SIMPROF_EVERY, .noise = SIMPROF_NOISE }

struct sim_result {
	double end;		/* unix time the replay stopped */
	size_t nodes;		/* nodes taking part */
	double idle_ns, alloc_ns;	/* I and A, node-seconds */
	double ideal, done, loss;	/* samples */
	size_t events, rescales, admitted, finished, jobs;
	double *dsec;		/* decision seconds, one per event */
	char *steps;		/* steps.csv */
	size_t steps_len;
	char *jobs_csv;		/* jobs.csv: one row per admitted job */
	size_t jobs_len;
	char *fits_csv;		/* fits.csv: online, each fit's points */
	size_t fits_len;
	size_t probes, fits;	/* online: probe moves decided, fits */
	/* the first SIM_FIT_JOBS admitted: fits, first and last (s from from) */
	size_t fit_n[SIM_FIT_JOBS];
	double fit_first[SIM_FIT_JOBS], fit_last[SIM_FIT_JOBS];
	double *horizons;	/* not fixed: each decision's horizon */
	size_t fallbacks;	/* learnt: decisions at tfwd for want of data */
	size_t holes;		/* learnt: holes ended, learnt from */
	size_t no_plan;		/* admin policy: decisions it made none */
	size_t not_optimal;	/* decisions of the solver not proven so */
};

int sim_run(const struct sim_opts *o, struct events *ev,
    const struct jobcsv_jobs *js, struct sim_result *r, struct diag *d);
int sim_summary(const struct sim_opts *o, const struct sim_result *r,
    FILE *fp);
void sim_result_free(struct sim_result *r);
/* sim_out.c: the output directory DIR, and --compare's table. */
int sim_write_outputs(const char *dir, const struct sim_opts *o,
    const struct sim_result *r, int with_plots, struct diag *d);
int sim_compare(char *const *dirs, int n, FILE *out, struct diag *d);

#endif
