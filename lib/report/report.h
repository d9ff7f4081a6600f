/*
 * NAME
 *	report - what bftrainer harvested, from history/: node-hours offered
 *	and held, samples, rescales and preemptions, per day, user and job
 * SYNOPSIS
 *	struct report r;
 *	struct report_window w = { ... };
 *	report_init(&r);
 *	report_load(&r, hfd, "history", spool_or_NULL, &d);
 *	report_compute(&r, &w, &d);
 *	report_text(&r, stdout);  report_csv(&r, stdout);
 *	report_gnuplot(&r, fp, "out.svg");
 *	report_free(&r);
 * DESCRIPTION
 *	report_load() reads every enacted plan of a history directory (hfd,
 *	named LABEL in messages), with the holes, state, job and profile
 *	objects its manifest names, every run record in runs/ and the
 *	progress log kept with it (runs/STEM/progress.log); with a spool,
 *	also the progress/NAME.log of each job in jobs/ and the time of
 *	state.yaml.  Nothing is written.
 *
 *	Intervals.  The plans are taken in the order they were enacted
 *	(the manifests' enacted times, then names, as history_plans()).  The
 *	holes and allocations of plan i hold from its enactment e[i] to
 *	e[i+1]; those of the last plan up to the end of the history: the
 *	latest of its last enactment, the runs' ended times and the reports
 *	of the logs read (and state.yaml's time with a spool).  The window
 *	[since, until) cuts these intervals; without an until it ends at the
 *	end of the history, that moment included.  Intervals are further cut
 *	at UTC midnights, into days.
 *
 *	Figures, per job (its name and owner uid, from the job object of
 *	the plan's manifest or of the run record; -1 unknown) and day:
 *	offered, node-seconds of the idle nodes in the holes (per day only);
 *	held, the nodes the plan gives the job times the interval, an
 *	interval that ends early when a run of the job ended inside it (at
 *	the end of the whole second its ended names);
 *	ideal, the rate r(n) at those nodes times the interval, where r is
 *	the job file's scaling calibrated by the profile the manifest names
 *	by the plan's rule (profile_curve(): scaled, or joined for a plan
 *	with no solver.curve, made before 2026-11-25; 0 below min_nodes),
 *	unknown without either;
 *	samples, from the progress logs: the increase between two reports
 *	spread evenly between them when they are at most
 *	PROFILE_RESTART_GAP apart, else counted at the later report (the
 *	first report counts whole at its time); grows, shrinks, moves and
 *	preemptions at each plan, against the state of its manifest: lost
 *	are the job's nodes in the state missing from the plan's holes
 *	(taken back: a preemption), kept the others; the plan's count above
 *	kept is a grow, below a shrink, the same count on other hosts a
 *	move (a start is a grow, a stop a shrink; a job absent from the plan
 *	has left it, no rescale); runs, by outcome at their ended time.
 *
 *	report_compute() accumulates them in the window; report_text()
 *	prints the tables by day, user and job, report_csv() the same rows
 *	and one per job and day, report_gnuplot() a gnuplot script that
 *	plots the node-hours offered and held per day into an SVG file.
 *
 *	Trust (bf-report(1), TRUST): a log's reports dated after its limit
 *	(the time of reading for progress/, its run's end for history/runs/)
 *	by more than REPORT_CLOCK_SLACK are dropped and the history never
 *	ends past that limit; a log too large, too long or not regular, and
 *	files this user may not read, are skipped.  Each is kept in notes
 *	(unreadable counted), which report_text() prints last and
 *	report_notes() prints anywhere; report_text() flags an efficiency
 *	above 1 beside its row.
 * DIAGNOSTICS
 *	-1 with d set: 65 a bad file of the history ("FILE:LINE: what"),
 *	66 a file it names that is missing, 71 out of memory.  Bad lines of
 *	a progress log are warned about and skipped (progress.h); a bad log
 *	is never an error.
 */
#ifndef BF_REPORT_H
#define BF_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "util/log.h"

#include "profile/profile.h"
#include "spool/spool.h"

struct report_fig {
	double offered, held;		/* node-seconds */
	double samples, ideal;		/* samples */
	double samples_known;		/* samples of job-days with r known */
	int unknown;			/* a held interval of unknown r */
	long grows, shrinks, moves, preempt, lost;
	long finished, failed, stopped, runs_lost, cancelled;
};

struct report_cell {
	long long day;			/* unix day (UTC) */
	const char *name;		/* NULL: the day's offered nodes */
	long long uid;
	struct report_fig f;
};

struct report_window {
	double since, until;
	int have_since, have_until;
};

struct report_plan;
struct report_run;
struct report_log;

struct report {
	const char *label;		/* how messages name history/ */
	size_t nplans, nruns, nlogs;
	struct report_plan *plans;
	struct report_run *runs;
	struct report_log *logs;
	double first, last;		/* the times the history covers */
	int empty;
	void *names;			/* tsearch(3) root of interned names */
	char **strs;
	size_t nstrs;
	/* What was not counted, and why (report_load): said in the output */
	char **notes;
	size_t nnotes;
	size_t unreadable;		/* files this user may not read */
	int numeric;			/* report_text(): uids, not names */
	/* report_compute(): */
	struct report_window w;		/* since, until as used */
	size_t ncells, cap;
	struct report_cell *cells;
	size_t plans_in, runs_in;
};

void report_init(struct report *r);
int report_load(struct report *r, int hfd, const char *label,
    const struct spool *sp, struct diag *d);
int report_compute(struct report *r, const struct report_window *w,
    struct diag *d);
int report_text(const struct report *r, FILE *fp);
int report_csv(const struct report *r, FILE *fp);
int report_notes(const struct report *r, FILE *fp, const char *prefix);
int report_gnuplot(const struct report *r, FILE *fp, const char *svg);
void report_free(struct report *r);

/*
 * r(n) as bf-solve values a job: its declared curve joined with its
 * profile's by rule (profile_curve(); p may be NULL), 0 below min_nodes,
 * NAN when there is no point at all (no scaling, nothing measured).
 */
double report_rate(const struct job_point *points, size_t npoints, long min,
    long max, const struct profile *p, enum profile_curve_rule rule, long n);

/* YYYY-MM-DD and YYYY-MM-DDTHH:MM:SSZ of unix seconds (floored). */
void report_day(long long day, char out[16]);
void report_time(double t, char out[32]);

#endif
