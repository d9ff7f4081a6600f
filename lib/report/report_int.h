/*
 * NAME
 *	report_int - what report_load() keeps of a history, for report.c
 * DESCRIPTION
 *	Private to report.c and report_load.c: each plan as the accounting
 *	needs it, the runs that ended and the progress logs.  See report.h.
 */
#ifndef BF_REPORT_INT_H
#define BF_REPORT_INT_H

#include <stddef.h>

#include "report/report.h"
#include "spool/history.h"

enum outcome { RUN_FINISHED, RUN_FAILED, RUN_STOPPED, RUN_LOST,
	RUN_CANCELLED, RUN_OTHER };

/* One job's allocation in one plan. */
struct report_seg {
	const char *name;
	long long uid;
	long nodes;
	double rate;		/* samples/s at nodes; NAN unknown */
};

/* What one plan changed for one job. */
struct report_change {
	const char *name;
	long long uid;
	long grows, shrinks, moves, preempt, lost;
};

struct report_plan {
	char stem[HISTORY_STEM_MAX];
	double enacted;
	size_t offered;		/* idle nodes in its holes */
	size_t nseg, nchg;
	struct report_seg *seg;
	struct report_change *chg;
};

struct report_run {
	const char *name;
	long long uid;
	double ended;
	enum outcome outcome;
};

struct report_log {
	const char *name;
	long long uid;
	size_t n;
	double *t, *s;		/* report times, cumulative samples */
	double end;		/* the last report's time, at most its limit */
};

/*
 * How far after the moment a log is trusted to (its run's end, the time
 * of reading) a report may be dated and still count: clocks of other
 * hosts; the horizon never goes past the moment itself.
 */
#define REPORT_CLOCK_SLACK	60.0

/* report_load.c: a line for the output's notes; -1 out of memory. */
int report_note(struct report *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
