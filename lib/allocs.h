/*
 * NAME
 *	allocs - the node counts enacted plans gave each job, over time
 * SYNOPSIS
 *	struct allocs a;
 *	allocs_load(&a, &sp, &d);
 *	struct progress_alloc t;
 *	allocs_timeline(&a, "resnet18", &t, &d);  ...  allocs_timeline_free(&t);
 *	allocs_free(&a);
 * DESCRIPTION
 *	bf-apply copies every plan it enacts to history/TIME-HEX.yaml
 *	(bf-spool(5)).  allocs_load() reads them all, in order of their time
 *	(then name); allocs_timeline() gives one job's node count after each
 *	of them (0 in a plan that does not name it), the timeline with which
 *	progress_parse_alloc() resolves the progress lines whose NODES is "-".
 *	A plan's time is the time of the holes it was made from, a moment
 *	before it was enacted.  A damaged plan in history/ is warned about
 *	and left out: history is evidence, not input.
 * DIAGNOSTICS
 *	-1 with d set when the history cannot be listed (74) or memory runs
 *	out (71).  No history/ directory is an empty history.
 */
#ifndef BF_ALLOCS_H
#define BF_ALLOCS_H

#include <stddef.h>

#include "log.h"
#include "plan.h"
#include "progress.h"
#include "spool.h"

struct allocs {
	size_t n;
	struct plan *plans;	/* ascending time */
};

int allocs_load(struct allocs *a, const struct spool *sp, struct diag *d);
int allocs_timeline(const struct allocs *a, const char *job,
    struct progress_alloc *t, struct diag *d);
void allocs_timeline_free(struct progress_alloc *t);
void allocs_free(struct allocs *a);

#endif
