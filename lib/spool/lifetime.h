/*
 * NAME
 *	lifetime - how much longer an idle node stays idle, learnt from the
 *	holes that have ended
 * SYNOPSIS
 *	struct lifetime lt;
 *	lifetime_init(&lt, LIFETIME_MIN);
 *	lifetime_add(&lt, seconds);		(each hole that ends)
 *	lifetime_add_n(&lt, seconds, count);	(count holes of one length)
 *	lifetime_refresh(&lt);			(before a round of queries)
 *	e = lifetime_residual(&lt, age);	(< 0: no estimate)
 *	lifetime_free(&lt);
 *
 *	struct lifetime_mean m = LIFETIME_MEAN_INIT;	(one decision's T)
 *	lifetime_mean_add(&m, remaining, is_free);	(each idle node)
 *	if (lifetime_mean(&m, &T, &over)) ...		(0: no node had one)
 *
 *	struct lifetime_table t;		(the spool's, lifetime_spool.c)
 *	lifetime_table_init(&t);
 *	lifetime_spool_update(&sp, &t, &d);	(read, learn, write back)
 *	r = lifetime_table_remaining(&t, "a01n03", holes.time);
 *	lifetime_table_free(&t);
 * DESCRIPTION
 *	An empirical survival estimate of hole durations, conditioned on
 *	the idle age of a node: lifetime_residual(age) is the mean remaining
 *	idle time E[D - age | D > age] over the holes added so far, the
 *	durations D longer than age, each weighing one.  Where fewer than
 *	`min' holes lasted longer than age there is no estimate: -1 (fewer
 *	than `min' holes in all, or a node that has outlived the data; no
 *	rule held at the oldest supported age says more than the data: a
 *	machine's holes end in blocks of equal durations, where such a rule
 *	gives 0).  A caller tells the two apart with age 0.
 *
 *	Only ended holes count: a hole still open says its duration is at
 *	least its age, and is left out, so that early in a history the
 *	estimate leans to short holes (bf-sim(1), Horizons).  There are no
 *	partitions: one estimate for every node given to it.
 *
 *	Holes added are kept aside until lifetime_refresh(), which merges
 *	them into the sorted distinct durations, each with its count, and
 *	their tail sums, so that a query is a binary search: a caller
 *	refreshes once per round of queries (bf-sim: once per decision).
 *	Queries see what the last refresh saw.  After a refresh, dur[0..n)
 *	are the distinct durations, ascending, cnt[i] how many holes lasted
 *	dur[i], and total their number (the spool's lifetimes file, written
 *	from them and read back with lifetime_add_n(): lifetime_spool.c).
 *
 *	The estimator is the spool's, not bf-sim's alone: bf-sim learns from
 *	the holes a replay sees end, bf-solve and bf-watch from the holes
 *	files kept in history/ (lifetime_spool.c).
 *
 *	A lifetime_table is the estimate kept for a spool (SPOOL/lifetimes,
 *	bf-spool(5)): the durations of the holes that ended, and the nodes
 *	idle in the last holes file learnt from with when each was first
 *	seen idle.  lifetime_table_learn() takes one more holes file (a
 *	later one: an older time, or the digest of the last, changes
 *	nothing): a node that was idle and is not now ended its hole at this
 *	file's time, and its duration is learnt when its start was seen; a
 *	node idle now and not before starts one at this time.  The nodes of
 *	the first file learnt from were idle since we do not know when: their
 *	age counts from that file, their duration is never learnt (as bf-sim
 *	treats the holes open at --from).  Times are those of the holes
 *	files, so a duration is known to the resolution of the files learnt
 *	from; beginning and end are both seen late by up to that resolution.
 *
 *	lifetime_spool_update() brings SPOOL/lifetimes up to date with
 *	history/: it reads the file (none: an empty table), then the lines
 *	history/allocs.idx gained since the last one it learnt from (the
 *	file records that line's place and plan), the holes object of each
 *	plan's manifest, and learns from each, then writes the file back
 *	(tmp/, fsync, rename) when it changed.  Cost: the file, and what
 *	history gained since; nothing when it gained nothing.  The file is a
 *	function of the index's lines up to the one it names, so a crash
 *	before the rename leaves the older file, from which the next update
 *	goes on; an index that no longer holds that line where the file says
 *	(made again, cut short) is read again from its first line, into an
 *	empty table.  No index (no plan enacted yet, or a spool older than
 *	it): nothing is learnt until bf-apply makes it.  Only whole lines
 *	(ended by a newline, without a tab) are read.
 *
 *	lifetime_mean() is the rule that makes one look-ahead of per-node
 *	times (bf-solve's --horizon learnt and bf-sim's, bf-solve(1), The
 *	horizon): the mean remaining idle time of the free idle nodes, those
 *	a grow takes, or of all idle nodes when none is free; a time below
 *	0 or not finite (no estimate, a node older than the data) is left
 *	out.  It returns 1 with *t the mean and *over the nodes it is over,
 *	0 when no node had a time.
 *
 *	lifetime_table_parse() reads the file's text and
 *	lifetime_table_format() writes it; lifetime_table_remaining() is a
 *	node's expected remaining idle time at time t (its age: t less when
 *	it was first seen idle, 0 for a node not idle in the last file),
 *	-1 without an estimate (fewer than LIFETIME_MIN holes), INFINITY for
 *	a node older than the data support.
 * DIAGNOSTICS
 *	lifetime_add(), lifetime_add_n() and lifetime_refresh() return -1
 *	with errno ENOMEM when memory runs out; a failed add is reported
 *	again by the next refresh.
 */
#ifndef BF_LIFETIME_H
#define BF_LIFETIME_H

#include <stddef.h>

#include "util/hash.h"
#include "util/log.h"

#include "spool/holes.h"
#include "spool/spool.h"

/* bf-sim's: fewer ended holes than this longer than an age is no data */
#define LIFETIME_MIN	20

struct lifetime_pair {
	double dur;
	size_t cnt;
};

struct lifetime {
	double *dur;		/* refreshed distinct durations, ascending */
	size_t *cnt;		/* holes of each */
	double *tail;		/* tail[i] = the sum of dur * cnt from i on */
	size_t *tailn;		/* tailn[i] = cnt[i] + ... + cnt[n - 1] */
	size_t n, cap, total;
	struct lifetime_pair *fresh;	/* added since the last refresh */
	size_t nfresh, freshcap;
	size_t min;
	int failed;		/* an add ran out of memory */
};

void lifetime_init(struct lifetime *lt, size_t min);
int lifetime_add(struct lifetime *lt, double seconds);
int lifetime_add_n(struct lifetime *lt, double seconds, size_t count);
int lifetime_refresh(struct lifetime *lt);
double lifetime_residual(const struct lifetime *lt, double age);
void lifetime_free(struct lifetime *lt);

struct lifetime_mean {
	double sum_free, sum_all;
	size_t nfree, nall;
};
#define LIFETIME_MEAN_INIT	{ 0, 0, 0, 0 }
void lifetime_mean_add(struct lifetime_mean *m, double remaining, int is_free);
int lifetime_mean(const struct lifetime_mean *m, double *t, size_t *over);

/* SPOOL/lifetimes (bf-spool(5)) */
#define LIFETIME_FILE		"lifetimes"
#define LIFETIME_HEADER		"# bftrainer lifetimes 1\n"
#define LIFETIME_MAX_FILE	(64 * 1024 * 1024)
#define LIFETIME_STEM_MAX	40	/* history.h's HISTORY_STEM_MAX */

struct lifetime_open {
	char *name;
	long long since;	/* first seen idle */
	int known;		/* 0: idle in the first file learnt from */
};

struct lifetime_table {
	struct lifetime life;
	struct lifetime_open *open;	/* by name (strcmp), unique */
	size_t nopen;
	long long time;			/* of the last holes learnt, 0 none */
	char holes[HASH_TEXT_LEN];	/* its digest, "" none */
	long long index_start, index_end;	/* allocs.idx: its line */
	char stem[LIFETIME_STEM_MAX];	/* that line's plan, "" none */
};

void lifetime_table_init(struct lifetime_table *t);
void lifetime_table_free(struct lifetime_table *t);
int lifetime_table_parse(struct lifetime_table *t, const char *label,
    const char *buf, size_t len, struct diag *d);
char *lifetime_table_format(const struct lifetime_table *t, size_t *len);
int lifetime_table_learn(struct lifetime_table *t, const struct holes *h,
    const char *digest, struct diag *d);
double lifetime_table_remaining(const struct lifetime_table *t,
    const char *node, long long time);
int lifetime_spool_update(struct spool *sp, struct lifetime_table *t,
    struct diag *d);

#endif
