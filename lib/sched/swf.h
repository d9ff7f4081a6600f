/*
 * NAME
 *	swf - Standard Workload Format job logs replayed as node usage
 * SYNOPSIS
 *	struct swf s;
 *	swf_load(&s, "theta.swf.gz", &d);
 *	swf_sweep_init(&s, &d);
 *	while ((rc = swf_sweep_next(&s, limit, &t, &chg, &n, &d)) > 0)
 *		apply chg[0..n): node = chg[i] >> 1, idle = chg[i] & 1;
 *	swf_free(&s);
 * DESCRIPTION
 *	swf_load() reads a job log of the Parallel Workloads Archive, plain
 *	or gzip-compressed, and keeps the jobs that ran: start = UnixStartTime
 *	+ submit + wait, end = start + run time.  Jobs with an unknown (-1)
 *	submit, wait, run time or size, or a run time of 0 (cancelled before
 *	they ran) are counted in skipped and left out.  The size is field 5
 *	(allocated processors), else field 8 (requested).  When the header
 *	gives MaxNodes and MaxProcs and they differ, sizes count processors
 *	and a job takes ceil(procs * MaxNodes / MaxProcs) nodes.  The machine
 *	has MaxNodes nodes (MaxProcs without MaxNodes); a larger job widens
 *	it, and widest_line names the first such job for the caller's
 *	warning.  Rows may come in any order.
 *
 *	The sweep replays the log in time order and gives each running job
 *	nodes by first fit: the lowest-numbered free nodes, jobs that start at
 *	the same second in order of job id (then line), ends before starts.
 *	Placement is thus a function of the log alone and a node keeps its
 *	name at every query time.  Logs often run more nodes at once than the
 *	machine has; a job that finds too few free nodes starts with what
 *	there is and gets the next nodes freed, before any later job, so the
 *	number of idle nodes is always max(0, nodes - demand of running jobs).
 *	overfull counts the jobs that had to wait for nodes like this.
 *
 *	swf_sweep_next() applies every start and end of the next second, if
 *	it is at most limit, and returns the nodes that changed as node * 2 +
 *	idle (a node may appear more than once; the last entry counts).
 *	Nodes are numbered from 0; node i is named nid(i + 1), zero-padded
 *	to width digits.
 * DIAGNOSTICS
 *	-1 with d set: 66 missing file, 65 "FILE:LINE: what" for a malformed
 *	line (not 18 numbers, a bad header value), an empty log.
 */
#ifndef BF_SWF_H
#define BF_SWF_H

#include <stddef.h>
#include <stdint.h>

#include "util/log.h"

struct swf_job {
	long long start, end, id;
	size_t line;
	uint32_t nodes;
	uint32_t nheld;
	uint32_t *held;		/* the nodes it runs on, while it runs */
};

struct swf_tick {
	long long time;
	uint32_t job;		/* index into jobs */
	uint32_t start;		/* 0 end, 1 start: ends sort first */
};

struct swf {
	char label[256];
	long long unix_start, max_nodes, max_procs;
	size_t nnodes;		/* machine size after widening */
	int width;		/* digits in node names */
	size_t njobs, skipped, overfull;
	size_t widest_line;	/* first job wider than the header, or 0 */
	long long widest;
	long long first, last;	/* first start, last end */
	struct swf_job *jobs;
	/* sweep state */
	struct swf_tick *ticks;
	size_t nticks, next;
	uint64_t *free;		/* bit set = node free */
	size_t *deficit;	/* jobs short of nodes, in start order */
	size_t ndeficit;
	uint32_t *chg;
	size_t nchg, chgcap;
};

int swf_load(struct swf *s, const char *path, struct diag *d);
int swf_sweep_init(struct swf *s, struct diag *d);
int swf_sweep_next(struct swf *s, long long limit, long long *t,
    const uint32_t **chg, size_t *n, struct diag *d);
void swf_node_name(const struct swf *s, size_t i, char *buf, size_t len);
void swf_free(struct swf *s);

#endif
