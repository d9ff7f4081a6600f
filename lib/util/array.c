/*
 * NAME
 *	array - room for more elements of a growable array
 * DESCRIPTION
 *	See array.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

void *
array_grow(void *array, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t c = *cap ? *cap : (first ? first : 1);
	void *grown;

	if (need <= *cap && array != NULL)
		return array;
	while (c < need) {
		if (c > SIZE_MAX / 2) {
			c = need;
			break;
		}
		c *= 2;
	}
	if (size == 0 || c > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	if ((grown = realloc(array, c * size)) == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	*cap = c;
	return grown;
}

long
array_index(const char *const names[], size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return (long)i;
	return -1;
}

size_t
array_find_name(const void *base, size_t n, size_t size, size_t off,
    const char *name, int *found)
{
	const char *b = base;
	size_t lo = 0, hi = n;

	*found = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(b + mid * size + off, name);
		if (cmp == 0) {
			*found = 1;
			return mid;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
array_median(double *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
