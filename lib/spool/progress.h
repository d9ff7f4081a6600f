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
 *	(never copied), not three fields of the right form, NODES "-" with no
 *	allocation known at that time, and reports out of order.  Order is judged over the whole log, not line by
 *	line: the reports kept are the longest run whose times never go
 *	backwards, then the longest of those whose samples never decrease (the
 *	earliest such run when several are as long), so one garbage line far
 *	in the future costs that line only, never the good lines after it.
 *	Blank lines are ignored silently.  A log with no report at all is
 *	warned about as "FILE:1: no reports".  After PROGRESS_WARN_MAX
 *	warnings the other skipped lines are only counted, in one warning
 *	"FILE: N more lines skipped", so that a log of garbage is not a
 *	flood of warnings.
 *
 *	Memory is bounded by the caller's PROGRESS_MAX_FILE bytes and by
 *	PROGRESS_MAX_LINES lines, counted before anything is allocated: a
 *	log of more lines is refused as a whole.
 *
 *	NODES "-" lets a job report without knowing its node count:
 *	progress_parse_alloc() takes it from an allocation timeline (the node
 *	counts bf-apply's enacted plans gave the job, allocs.h): the count of
 *	the last allocation at or before the report's time.  Without a
 *	timeline, before the first allocation, or while it had 0 nodes, such
 *	a line is skipped like a bad one.  progress_has_dash() tells
 *	whether a log has a whole line with NODES "-" that is otherwise good,
 *	so that the timeline is built only when it is needed.
 *
 *	progress_last() gives the last whole line of buf that is a report by
 *	the same rules (NODES "-" accepted, with nodes 0), skipping bad lines
 *	back to it: what bf-apply's done check reads from the log's tail
 *	without parsing the whole log.  -1 when there is none; line is 0.
 *	progress_last_at() does it for NAME.log in dirfd (progress/),
 *	reading only its last kilobyte: bf-apply's done check and
 *	bf-report --now.
 * DIAGNOSTICS
 *	-1 with d set: "FILE: more than 2000000 lines" (65), or memory ran
 *	out (71).
 */
#ifndef BF_PROGRESS_H
#define BF_PROGRESS_H

#include <stddef.h>

#include "util/log.h"

#define PROGRESS_LINE_MAX	256
#define PROGRESS_MAX_FILE	(64UL * 1024 * 1024)
#define PROGRESS_MAX_LINES	2000000
#define PROGRESS_WARN_MAX	1000

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

/* Node counts over time, ascending time; a count holds until the next. */
struct progress_alloc {
	size_t n;
	const double *time;
	const long *nodes;
};

int progress_parse(struct progress *pr, const char *label, const char *buf,
    size_t len, struct diag *d);
int progress_parse_alloc(struct progress *pr, const char *label,
    const char *buf, size_t len, const struct progress_alloc *alloc,
    struct diag *d);
int progress_has_dash(const char *buf, size_t len);
int progress_last(const char *buf, size_t len, struct progress_report *out);
int progress_last_at(int dirfd, const char *name,
    struct progress_report *out);
void progress_free(struct progress *pr);

#endif
