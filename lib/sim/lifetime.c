/*
 * NAME
 *	lifetime - how much longer an idle node stays idle, learnt from the
 *	holes that have ended
 * DESCRIPTION
 *	See lifetime.h.  A refresh sorts what was added since the last one
 *	and merges it from the top down into the sorted durations, then
 *	rebuilds the tail sums: linear in the holes kept, once per round.
 *	Durations are whole seconds in a replay, so the sums are exact.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/lifetime.h"

void
lifetime_init(struct lifetime *lt, size_t min)
{
	memset(lt, 0, sizeof *lt);
	lt->min = min > 0 ? min : 1;
}

int
lifetime_add(struct lifetime *lt, double seconds)
{
	if (lt->nfresh == lt->freshcap) {
		size_t cap = lt->freshcap ? 2 * lt->freshcap : 256;
		double *p = realloc(lt->fresh, cap * sizeof *p);
		if (p == NULL) {
			lt->failed = 1;
			errno = ENOMEM;
			return -1;
		}
		lt->fresh = p;
		lt->freshcap = cap;
	}
	lt->fresh[lt->nfresh++] = seconds;
	return 0;
}

static int
ascending(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int
room(struct lifetime *lt, size_t n)
{
	double *dur, *tail;
	size_t cap = lt->cap ? lt->cap : 256;

	if (n <= lt->cap)
		return 0;
	while (cap < n)
		cap *= 2;
	if ((dur = realloc(lt->dur, cap * sizeof *dur)) == NULL)
		return -1;
	lt->dur = dur;
	if ((tail = realloc(lt->tail, (cap + 1) * sizeof *tail)) == NULL)
		return -1;
	lt->tail = tail;
	lt->cap = cap;
	return 0;
}

int
lifetime_refresh(struct lifetime *lt)
{
	size_t i, j, k;

	if (lt->failed) {
		lt->failed = 0;
		errno = ENOMEM;
		return -1;
	}
	if (lt->nfresh == 0)
		return 0;
	if (room(lt, lt->n + lt->nfresh) < 0) {
		errno = ENOMEM;
		return -1;
	}
	qsort(lt->fresh, lt->nfresh, sizeof *lt->fresh, ascending);
	/* merge from the top: no element is overwritten before it moves */
	i = lt->n;
	j = lt->nfresh;
	k = lt->n + lt->nfresh;
	while (j > 0) {
		if (i > 0 && lt->dur[i - 1] > lt->fresh[j - 1])
			lt->dur[--k] = lt->dur[--i];
		else
			lt->dur[--k] = lt->fresh[--j];
	}
	lt->n += lt->nfresh;
	lt->nfresh = 0;
	lt->tail[lt->n] = 0;
	for (i = lt->n; i-- > 0;)
		lt->tail[i] = lt->tail[i + 1] + lt->dur[i];
	return 0;
}

/* The number of durations at most age: the first index of one above. */
static size_t
upper(const struct lifetime *lt, double age)
{
	size_t lo = 0, hi = lt->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (lt->dur[mid] <= age)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

double
lifetime_residual(const struct lifetime *lt, double age)
{
	size_t k, longer;

	if (lt->n < lt->min)
		return -1;
	k = upper(lt, age);
	longer = lt->n - k;
	if (longer < lt->min)
		return -1;
	return lt->tail[k] / (double)longer - age;
}

void
lifetime_free(struct lifetime *lt)
{
	free(lt->dur);
	free(lt->tail);
	free(lt->fresh);
	memset(lt, 0, sizeof *lt);
}
