/*
 * NAME
 *	lifetime - how much longer an idle node stays idle, learnt from the
 *	holes that have ended
 * DESCRIPTION
 *	See lifetime.h.  A refresh sorts what was added since the last one
 *	and merges it from the top down into the sorted distinct durations,
 *	equal ones into one count, then rebuilds the tail sums: linear in
 *	the distinct durations kept, once per round.  Durations are whole
 *	seconds in a replay and in a spool, so the sums are exact.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spool/lifetime.h"

void
lifetime_init(struct lifetime *lt, size_t min)
{
	memset(lt, 0, sizeof *lt);
	lt->min = min > 0 ? min : 1;
}

int
lifetime_add_n(struct lifetime *lt, double seconds, size_t count)
{
	if (count == 0)
		return 0;
	if (lt->nfresh == lt->freshcap) {
		size_t cap = lt->freshcap ? 2 * lt->freshcap : 256;
		struct lifetime_pair *p = realloc(lt->fresh, cap * sizeof *p);
		if (p == NULL) {
			lt->failed = 1;
			errno = ENOMEM;
			return -1;
		}
		lt->fresh = p;
		lt->freshcap = cap;
	}
	lt->fresh[lt->nfresh].dur = seconds;
	lt->fresh[lt->nfresh++].cnt = count;
	return 0;
}

int
lifetime_add(struct lifetime *lt, double seconds)
{
	return lifetime_add_n(lt, seconds, 1);
}

static int
ascending(const void *a, const void *b)
{
	double x = ((const struct lifetime_pair *)a)->dur;
	double y = ((const struct lifetime_pair *)b)->dur;

	return (x > y) - (x < y);
}

static int
room(struct lifetime *lt, size_t n)
{
	size_t cap = lt->cap ? lt->cap : 256;
	void *p;

	if (n <= lt->cap)
		return 0;
	while (cap < n)
		cap *= 2;
	if ((p = realloc(lt->dur, cap * sizeof *lt->dur)) == NULL)
		return -1;
	lt->dur = p;
	if ((p = realloc(lt->cnt, cap * sizeof *lt->cnt)) == NULL)
		return -1;
	lt->cnt = p;
	if ((p = realloc(lt->tail, (cap + 1) * sizeof *lt->tail)) == NULL)
		return -1;
	lt->tail = p;
	if ((p = realloc(lt->tailn, (cap + 1) * sizeof *lt->tailn)) == NULL)
		return -1;
	lt->tailn = p;
	lt->cap = cap;
	return 0;
}

int
lifetime_refresh(struct lifetime *lt)
{
	size_t i, j, k, m;

	if (lt->failed) {
		lt->failed = 0;
		errno = ENOMEM;
		return -1;
	}
	if (lt->nfresh == 0)
		return 0;
	qsort(lt->fresh, lt->nfresh, sizeof *lt->fresh, ascending);
	/* equal fresh durations into one */
	for (i = 1, m = 0; i < lt->nfresh; i++)
		if (lt->fresh[i].dur == lt->fresh[m].dur)
			lt->fresh[m].cnt += lt->fresh[i].cnt;
		else
			lt->fresh[++m] = lt->fresh[i];
	m++;
	if (room(lt, lt->n + m) < 0) {
		errno = ENOMEM;
		return -1;
	}
	/* merge from the top: no element is overwritten before it moves */
	i = lt->n;
	j = m;
	k = lt->n + m;
	while (j > 0) {
		if (i > 0 && lt->dur[i - 1] > lt->fresh[j - 1].dur) {
			--k, --i;
			lt->dur[k] = lt->dur[i];
			lt->cnt[k] = lt->cnt[i];
		} else if (i > 0 && lt->dur[i - 1] == lt->fresh[j - 1].dur) {
			--k, --i, --j;
			lt->dur[k] = lt->dur[i];
			lt->cnt[k] = lt->cnt[i] + lt->fresh[j].cnt;
		} else {
			--k, --j;
			lt->dur[k] = lt->fresh[j].dur;
			lt->cnt[k] = lt->fresh[j].cnt;
		}
	}
	/* equal durations merged left a gap above the ones not moved */
	if (k > i) {
		memmove(lt->dur + i, lt->dur + k,
		    (lt->n + m - k) * sizeof *lt->dur);
		memmove(lt->cnt + i, lt->cnt + k,
		    (lt->n + m - k) * sizeof *lt->cnt);
	}
	lt->n = i + lt->n + m - k;
	lt->nfresh = 0;
	lt->tail[lt->n] = 0;
	lt->tailn[lt->n] = 0;
	for (i = lt->n; i-- > 0;) {
		lt->tail[i] = lt->tail[i + 1] + lt->dur[i] * (double)lt->cnt[i];
		lt->tailn[i] = lt->tailn[i + 1] + lt->cnt[i];
	}
	lt->total = lt->tailn[0];
	return 0;
}

/* The number of distinct durations at most age. */
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

	if (lt->total < lt->min)
		return -1;
	k = upper(lt, age);
	longer = lt->tailn[k];
	if (longer < lt->min)
		return -1;
	return lt->tail[k] / (double)longer - age;
}

void
lifetime_free(struct lifetime *lt)
{
	free(lt->dur);
	free(lt->cnt);
	free(lt->tail);
	free(lt->tailn);
	free(lt->fresh);
	memset(lt, 0, sizeof *lt);
}

void
lifetime_mean_add(struct lifetime_mean *m, double remaining, int is_free)
{
	if (remaining < 0 || !isfinite(remaining))
		return;
	m->sum_all += remaining;
	m->nall++;
	if (is_free) {
		m->sum_free += remaining;
		m->nfree++;
	}
}

int
lifetime_mean(const struct lifetime_mean *m, double *t, size_t *over)
{
	if (m->nfree > 0) {
		*t = m->sum_free / (double)m->nfree;
		*over = m->nfree;
	} else if (m->nall > 0) {
		*t = m->sum_all / (double)m->nall;
		*over = m->nall;
	} else
		return 0;
	return 1;
}
