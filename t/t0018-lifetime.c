/*
 * lifetime_residual(), the mean remaining idle time at an age learnt from
 * ended holes, against a brute-force empirical conditional mean over the
 * raw durations (a loop over every hole, no sorting, no tail sums): a set
 * worked out by hand, then seeded random histories of whole-second,
 * heavy-tailed holes with ties, added in batches with a refresh between,
 * queried at random ages, at every duration itself (D > age is strict)
 * and beyond the longest (no estimate where fewer than min holes were
 * longer).  Queries between an add and its refresh see the last
 * refresh.  Some holes are added three at a time (lifetime_add_n(), as
 * the spool's lifetimes file is read back), and the distinct durations
 * with their counts are checked against the raw ones.  A seeded
 * splitmix64 makes every run the same.  (t6000 until the estimator moved
 * from lib/sim to lib/spool, for bf-solve.)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "spool/lifetime.h"
#include "tap.h"

static uint64_t seed = 35;

static double
uniform(void)
{
	uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

/* E[D - age | D > age] over d[0..n) by its definition; -1 below min. */
static double
brute(const double *d, size_t n, size_t min, double age)
{
	double sum = 0;
	size_t i, longer = 0;

	for (i = 0; i < n; i++)
		if (d[i] > age) {
			sum += d[i];
			longer++;
		}
	return longer < min ? -1 : sum / (double)longer - age;
}

static int
close_to(double got, double want)
{
	return fabs(got - want) <= 1e-9 * (1 + fabs(want));
}

static void
by_hand(void)
{
	static const double d[] = { 300, 100, 600, 200 };
	struct lifetime lt;
	size_t i;

	lifetime_init(&lt, 2);
	ok(lifetime_residual(&lt, 0) < 0, "no holes: no estimate");
	lifetime_add(&lt, d[0]);
	ok(lifetime_refresh(&lt) == 0 && lifetime_residual(&lt, 0) < 0,
	    "one hole, min 2: no estimate");
	for (i = 1; i < 4; i++)
		lifetime_add(&lt, d[i]);
	ok(lifetime_residual(&lt, 0) < 0, "before the refresh: as before");
	ok(lifetime_refresh(&lt) == 0, "refresh");
	/* (100 + 200 + 300 + 600) / 4 */
	ok(close_to(lifetime_residual(&lt, 0), 300), "age 0: the mean, 300");
	/* (200 + 300 + 600) / 3 - 150 */
	ok(close_to(lifetime_residual(&lt, 150), 1100.0 / 3 - 150),
	    "age 150: 216.667");
	/* 300 and 600 longer than 200, not 200 itself: 450 - 200 */
	ok(close_to(lifetime_residual(&lt, 200), 250), "age 200: 250");
	/* one longer than 350, fewer than min: the node outlived the data */
	ok(lifetime_residual(&lt, 350) < 0, "age 350: no estimate");
	ok(lifetime_residual(&lt, 1e6) < 0, "age 1e6: no estimate");
	ok(close_to(lifetime_residual(&lt, 299), 151), "age 299: 450 - 299");
	lifetime_add_n(&lt, 200, 2);
	lifetime_add(&lt, 600);
	ok(lifetime_refresh(&lt) == 0 && lt.n == 4 && lt.total == 7 &&
	    lt.cnt[1] == 3 && lt.cnt[3] == 2 && lt.dur[3] == 600,
	    "ties merged: 100, 200 x 3, 300, 600 x 2");
	/* (300 + 600 + 600) / 3 - 200 */
	ok(close_to(lifetime_residual(&lt, 200), 300), "age 200: 300");
	lifetime_free(&lt);
}

static void
random_histories(void)
{
	size_t h, bad = 0, queries = 0;

	for (h = 0; h < 40; h++) {
		size_t min = 1 + (size_t)(uniform() * 30), n = 0, b, q, i;
		size_t cap = 3000;
		double *d = malloc(cap * sizeof *d);
		struct lifetime lt;

		if (d == NULL)
			abort();
		lifetime_init(&lt, min);
		for (b = 0; b < 12 && n < cap; b++) {
			size_t add = (size_t)(uniform() * 250);
			for (i = 0; i < add && n < cap; i++) {
				/* whole seconds, 1 s to 45 h, log-uniform */
				d[n] = floor(exp(uniform() * 12));
				/* a few as a count, as the spool's file */
				if (uniform() < 0.1 && n + 3 < cap) {
					d[n + 1] = d[n + 2] = d[n];
					if (lifetime_add_n(&lt, d[n], 3) < 0)
						abort();
					n += 3;
				} else if (lifetime_add(&lt, d[n++]) < 0)
					abort();
			}
			if (lifetime_refresh(&lt) < 0)
				abort();
			for (i = 0, q = 0; i < lt.n; i++) {
				q += lt.cnt[i];
				if (i > 0 && !(lt.dur[i - 1] < lt.dur[i]))
					bad++;
			}
			if (q != n || lt.total != n)
				bad++;
			for (q = 0; q < 60; q++) {
				double age = q < 20 || n == 0 ?
				    floor(uniform() * 2e5) : q < 40 ?
				    d[(size_t)(uniform() * (double)n)] :
				    uniform() * 3e5;
				double got = lifetime_residual(&lt, age);
				double want = brute(d, n, min, age);
				queries++;
				if ((want < 0) != (got < 0) || (want >= 0 &&
				    !close_to(got, want))) {
					if (bad++ < 5)
						diag("history %zu, %zu holes, "
						    "min %zu, age %.3f: %.9g, "
						    "brute force %.9g", h, n,
						    min, age, got, want);
				}
			}
		}
		lifetime_free(&lt);
		free(d);
	}
	ok(bad == 0, "%zu random queries agree with the brute-force mean",
	    queries);
}

/* One look-ahead from per-node times: the free nodes' mean, else all. */
static void
mean_rule(void)
{
	struct lifetime_mean m = LIFETIME_MEAN_INIT;
	double t = -1;
	size_t over = 99;

	ok(lifetime_mean(&m, &t, &over) == 0 && t == -1 && over == 99,
	    "no node: no mean, nothing written");
	lifetime_mean_add(&m, 100, 0);
	lifetime_mean_add(&m, 300, 0);
	lifetime_mean_add(&m, -1, 1);
	lifetime_mean_add(&m, INFINITY, 1);
	lifetime_mean_add(&m, NAN, 0);
	ok(lifetime_mean(&m, &t, &over) == 1 && t == 200 && over == 2,
	    "none free: the mean of all idle nodes with a time, 200 over 2");
	lifetime_mean_add(&m, 40, 1);
	lifetime_mean_add(&m, 0, 1);
	ok(lifetime_mean(&m, &t, &over) == 1 && t == 20 && over == 2,
	    "free nodes: their mean alone, 20 over 2 (0 counts, -1 and "
	    "infinity do not)");
}

int
main(void)
{
	by_hand();
	mean_rule();
	random_histories();
	return tap_done();
}
