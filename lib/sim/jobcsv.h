/*
 * NAME
 *	jobcsv - the job-set and scaling-curve CSV files that bf-sim replays
 * SYNOPSIS
 *	struct jobcsv_curves cv;
 *	struct jobcsv_jobs js;
 *	jobcsv_curves_read(&cv, "scaling.csv", "BFTRAINER", &d);
 *	jobcsv_jobs_read(&js, "jobs.csv", &cv, &d);
 *	js.jobs[i].job, js.jobs[i].submit ...
 *	jobcsv_jobs_free(&js);
 *	jobcsv_curves_free(&cv);
 * DESCRIPTION
 *	Both files are CSV with a header line naming the columns, in any
 *	order; other columns are ignored.  Fields may be double-quoted
 *	("" inside quotes is a quote); blank lines are skipped.
 *
 *	Curves (../shared/data/scaling layout): model, nodes_or_gpus,
 *	throughput, and source when source is not NULL (only the rows of
 *	that source are read).  A model's points are sorted by node count;
 *	two rates for one model and count are an error.
 *
 *	Jobs (../shared/data/jobs layout): name, model, submit_s (seconds
 *	after the trace's t=0), min_nodes, max_nodes, samples, rescale_up_s,
 *	rescale_down_s, and optionally weight, declared and owner (a uid,
 *	0 to JOBCSV_MAX_UID: whose job it is, for an admin policy's users;
 *	empty or absent, nobody's).  A job's curve is the one
 *	named exactly as its model, else the only one named MODEL-...
 *	(AlexNet -> AlexNet-ImageNet).  declared names, by the same rule,
 *	the curve the job's file declares (its scaling: key), which may not
 *	be its own (a user who guessed wrong); empty or absent, none.
 *	Jobs come back sorted by submit_s,
 *	ties in file order; job.points are borrowed from the curves, which
 *	must outlive the jobs.
 *
 *	Bounds, so that a hostile file costs bounded memory and time: at
 *	most JOBCSV_MAX_FILE bytes, JOBCSV_MAX_JOBS job rows, and
 *	JOBCSV_MAX_CURVE_ROWS curve rows of at most JOBCSV_MAX_MODELS models
 *	of at most JOB_MAX_POINTS points each; no NUL byte.
 * DIAGNOSTICS
 *	-1 with d set: 66 missing file, 65 "FILE:LINE: what" for a missing
 *	column, a bad number, a duplicate name or point, an unknown model,
 *	a bound passed.
 */
#ifndef BF_JOBCSV_H
#define BF_JOBCSV_H

#include <stddef.h>

#include "util/log.h"

#include "spool/job.h"

#define JOBCSV_MODEL_MAX	128
#define JOBCSV_MAX_FILE		(64 * 1024 * 1024)
#define JOBCSV_MAX_JOBS		1000000
#define JOBCSV_MAX_CURVE_ROWS	100000
#define JOBCSV_MAX_MODELS	1000
#define JOBCSV_MAX_UID		4294967294LL	/* (uid_t)-1 is no uid */

struct jobcsv_curve {
	char model[JOBCSV_MODEL_MAX];
	size_t n, cap;
	struct job_point *points;
	size_t *lines;		/* each point's line, for messages */
};

struct jobcsv_curves {
	size_t n, cap;
	struct jobcsv_curve *curves;
};

struct jobcsv_job {
	struct job job;		/* points borrowed from a curve */
	char model[JOBCSV_MODEL_MAX];
	double submit;		/* seconds after t=0 */
	const struct job_point *declared;	/* borrowed, NULL none */
	size_t ndeclared;
};

struct jobcsv_jobs {
	size_t n, cap;
	struct jobcsv_job *jobs;
};

int jobcsv_curves_read(struct jobcsv_curves *cv, const char *path,
    const char *source, struct diag *d);
int jobcsv_jobs_read(struct jobcsv_jobs *js, const char *path,
    const struct jobcsv_curves *cv, struct diag *d);
const struct jobcsv_curve *jobcsv_curve_find(const struct jobcsv_curves *cv,
    const char *model);
void jobcsv_curves_free(struct jobcsv_curves *cv);
void jobcsv_jobs_free(struct jobcsv_jobs *js);

#endif
