/*
 * NAME
 *	trace - idle-node transition traces (CSV t_s,node,idle)
 * SYNOPSIS
 *	struct trace tr;
 *	trace_open(&tr, "summit.transitions.csv.gz", epoch, &d);
 *	while ((rc = trace_next(&tr, limit, &t, &chg, &n, &d)) > 0)
 *		apply chg[0..n): node = chg[i] >> 1, idle = chg[i] & 1;
 *	trace_close(&tr);
 * DESCRIPTION
 *	A trace is a header line "t_s,node,idle" and one row per change of a
 *	node: seconds since the trace's t=0 (a whole number), the node name,
 *	1 idle or 0 busy.  The first rows give every node's state at t=0.
 *	Rows are in time order (any order within one second; the last row
 *	of a node counts).  The file is read as a stream, plain or gzip:
 *	trace_next() reads the rows of the next second, if epoch + t_s is at
 *	most limit, and returns their changes as node * 2 + idle.  Nodes are
 *	numbered in order of first appearance; names[] holds their names.
 * DIAGNOSTICS
 *	-1 with d set: 66 missing file; 65 "FILE:LINE: what" for a missing
 *	header, a row without three fields, a time that is not a whole
 *	number or goes backwards, a bad node name, an idle value not 0 or 1.
 */
#ifndef BF_TRACE_H
#define BF_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "util/gz.h"
#include "util/log.h"

struct trace {
	char label[256];
	struct gz gz;
	long long epoch;
	void *tree;		/* tsearch(3) root: name -> node */
	char **names;
	size_t nnodes, cap;
	/* the row read ahead */
	int have_row, eof;
	long long row_t;
	uint32_t row_node;
	int row_idle;
	uint32_t *chg;
	size_t nchg, chgcap;
};

int trace_open(struct trace *tr, const char *path, long long epoch,
    struct diag *d);
int trace_next(struct trace *tr, long long limit, long long *t,
    const uint32_t **chg, size_t *n, struct diag *d);
void trace_close(struct trace *tr);

#endif
