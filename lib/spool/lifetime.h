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
 * DIAGNOSTICS
 *	lifetime_add(), lifetime_add_n() and lifetime_refresh() return -1
 *	with errno ENOMEM when memory runs out; a failed add is reported
 *	again by the next refresh.
 */
#ifndef BF_LIFETIME_H
#define BF_LIFETIME_H

#include <stddef.h>

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

#endif
