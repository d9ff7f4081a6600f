/*
 * NAME
 *	progress - the progress log a running job appends to
 * SYNOPSIS
 *	struct progress pr;
 *	if (progress_parse(&pr, "progress/a.log", buf, len, &d) < 0) ...
 *	for (i = 0; i < pr.n; i++) use(pr.r[i].time, pr.r[i].nodes, ...);
 *	progress_free(&pr);
 * DESCRIPTION
 *	A progress log (bf-spool(5)) has one report per line,
 *	"UNIXTIME NODES SAMPLES": unix seconds (a decimal fraction allowed),
 *	the node count the job runs on, and the samples done since the job
 *	started.  The job appends to it while we read, so a last line without
 *	its newline is not yet written and is left for the next reading.
 *
 *	progress_parse() keeps every good report and skips every bad line
 *	with one warning "FILE:LINE: what, skipped" on stderr (the one place
 *	where library code speaks: a job's bad line is never fatal), counting
 *	it in skipped.  Bad lines are: longer than PROGRESS_LINE_MAX bytes
 *	(never copied), not three fields of the right form, NODES "-" (node
 *	counts from bf-apply's allocation history are not available yet), and
 *	reports out of order.  Order is judged over the whole log, not line by
 *	line: the reports kept are the longest run whose times never go
 *	backwards, then the longest of those whose samples never decrease (the
 *	earliest such run when several are as long), so one garbage line far
 *	in the future costs that line only, never the good lines after it.
 *	Blank lines are ignored silently.  A log with no report at all is
 *	warned about as "FILE:1: no reports".
 * DIAGNOSTICS
 *	-1 with d set only when memory runs out (71).
 */
#ifndef BF_PROGRESS_H
#define BF_PROGRESS_H

#include <stddef.h>

#include "log.h"

#define PROGRESS_LINE_MAX	256
#define PROGRESS_MAX_FILE	(512UL * 1024 * 1024)

struct progress_report {
	double time;		/* unix seconds */
	long long samples;	/* cumulative */
	long nodes;
	size_t line;		/* 1-based, for messages */
};

struct progress {
	struct progress_report *r;	/* in file order, time and samples
					   non-decreasing */
	size_t n;
	size_t skipped;		/* bad lines warned about */
};

int progress_parse(struct progress *pr, const char *label, const char *buf,
    size_t len, struct diag *d);
void progress_free(struct progress *pr);

#endif
