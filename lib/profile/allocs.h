/*
 * NAME
 *	allocs - the node counts enacted plans gave jobs, over time
 * SYNOPSIS
 *	struct allocs a;
 *	allocs_init(&a);
 *	allocs_load(&a, &sp, names, nnames, &d);
 *	struct progress_alloc t;
 *	allocs_timeline(&a, "resnet18", &t);
 *	allocs_free(&a);
 * DESCRIPTION
 *	bf-apply copies every plan it enacts to history/TIME-HEX.yaml, with
 *	the time it enacted it in the manifest beside it (bf-spool(5)).
 *	allocs_load() reads those plans once, in the order they were enacted
 *	(history_plans(), history.h), and keeps for each job named in
 *	names[0..nnames) only the moments its node count changed: the
 *	enacted time and the count (0 in a plan that does not name it).
 *	allocs_timeline() gives one job's as the timeline with which
 *	progress_parse_alloc() resolves progress lines whose NODES is "-": a
 *	view into a, valid until allocs_free(); a job that was not named has
 *	an empty one.  Memory is the number of changes, not of plans.
 *
 *	allocs_load() reads history/allocs.idx, the line bf-apply appended
 *	per plan enacted (history.h, bf-spool(5)), rather than the plans:
 *	a line whose plan is not in history/ (a crash before its copy) or
 *	that repeats one (a retry) is left out.  When the index is missing,
 *	lacks its header, or lacks plans/current.yaml although that plan was
 *	enacted (cut short), it reads every plan instead, with the same
 *	result.  bf-profile calls it only for a log with a "-" line, once per
 *	run.  A damaged plan in history/ is warned about and left out:
 *	history is evidence, not input.
 * DIAGNOSTICS
 *	-1 with d set when the history cannot be listed (74) or memory runs
 *	out (71); a is then empty and not loaded.  No history/ directory is
 *	an empty history.
 */
#ifndef BF_ALLOCS_H
#define BF_ALLOCS_H

#include <stddef.h>

#include "util/log.h"

#include "spool/job.h"
#include "spool/progress.h"
#include "spool/spool.h"

struct allocs_job {
	char name[JOB_NAME_MAX + 1];
	size_t n, cap;
	double *time;		/* ascending */
	long *nodes;		/* each differs from the one before */
	size_t stamp;		/* the last plan that named it */
	long next;		/* its count in that plan (the index) */
};

struct allocs {
	int loaded;
	size_t njobs;
	struct allocs_job *jobs;	/* by name */
};

void allocs_init(struct allocs *a);
int allocs_load(struct allocs *a, const struct spool *sp, char *const *names,
    size_t nnames, struct diag *d);
void allocs_timeline(const struct allocs *a, const char *job,
    struct progress_alloc *t);
void allocs_free(struct allocs *a);

#endif
