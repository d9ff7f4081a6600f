/*
 * t0011-array - tests for lib/util/array.c: the capacity array_grow()
 * gives, that the elements survive a move, and that a size beyond size_t
 * fails with ENOMEM leaving the array and its capacity as they were;
 * array_index() over a name table.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/array.h"

#include "tap.h"

int
main(void)
{
	size_t cap = 0, i, n;
	long *v = NULL, *g;
	int same = 1;

	g = array_grow(v, &cap, 1, sizeof *v, 4);
	ok(g != NULL, "the first element: room made");
	is_int(cap, 4, "the capacity starts at first");
	v = g;
	g = array_grow(v, &cap, 4, sizeof *v, 4);
	ok(g == v && cap == 4, "room for need already there: same array, "
	    "same capacity");
	for (n = 0; n < 1000; n++) {
		if ((g = array_grow(v, &cap, n + 1, sizeof *v, 4)) == NULL)
			break;
		v = g;
		v[n] = (long)n * 7;
	}
	is_int(n, 1000, "1,000 elements added one at a time");
	is_int(cap, 1024, "the capacity doubled from 4 to 1,024");
	for (i = 0; i < n; i++)
		same &= v[i] == (long)i * 7;
	ok(same, "every element kept through the moves");
	g = array_grow(v, &cap, 5000, sizeof *v, 4);
	ok(g != NULL, "need far above twice the capacity");
	v = g;
	is_int(cap, 8192, "the capacity doubles until it holds need");
	errno = 0;
	g = array_grow(v, &cap, SIZE_MAX / 2, sizeof *v, 4);
	ok(g == NULL && errno == ENOMEM, "a size beyond size_t: NULL, ENOMEM");
	is_int(cap, 8192, "the capacity unchanged after a failure");
	is_int(v[999], 999 * 7, "an element still readable after a failure");
	free(v);
	cap = 0;
	g = array_grow(NULL, &cap, 3, 1, 0);
	ok(g != NULL && cap == 4, "first 0: from 1, doubled to 4 for need 3");
	free(g);
	{
		static const char *const names[] = { "fixed", "learnt",
		    "clairvoyant" };

		is_int(array_index(names, 3, "fixed"), 0, "the first name: 0");
		is_int(array_index(names, 3, "clairvoyant"), 2,
		    "the last name: 2");
		is_int(array_index(names, 3, "learn"), -1,
		    "a prefix of a name: -1");
		is_int(array_index(names, 3, "learnt "), -1,
		    "a name with more after it: -1");
		is_int(array_index(names, 0, "fixed"), -1, "no names: -1");
	}
	{
		/* Elements with the name inside, not first; 100 in order. */
		struct named {
			long before;
			char name[8];
			int after;
		} e[100];
		size_t k, at;
		int found, right = 1;

		for (k = 0; k < 100; k++)
			snprintf(e[k].name, sizeof e[k].name, "j%03zu", 2 * k);
		for (k = 0; k < 100; k++) {
			char want[8];
			snprintf(want, sizeof want, "j%03zu", 2 * k);
			at = array_find_name(e, 100, sizeof *e,
			    offsetof(struct named, name), want, &found);
			right &= found && at == k;
			snprintf(want, sizeof want, "j%03zu", 2 * k + 1);
			at = array_find_name(e, 100, sizeof *e,
			    offsetof(struct named, name), want, &found);
			right &= !found && at == k + 1;
		}
		ok(right, "array_find_name: each of 100 names at its index, "
		    "each name between two where it would go");
		at = array_find_name(e, 100, sizeof *e,
		    offsetof(struct named, name), "a", &found);
		ok(!found && at == 0, "before the first: 0, not found");
		at = array_find_name(e, 0, sizeof *e,
		    offsetof(struct named, name), "j000", &found);
		ok(!found && at == 0, "no elements: 0, not found");
	}
	return tap_done();
}
