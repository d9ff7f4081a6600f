/*
 * fmt_double(): the shortest of %.15g and %.17g that reads back as the
 * number, as every file bftrainer writes prints it.  Its fast paths
 * for integers and for short decimals (no printf) must print what printf
 * would: checked against printf itself over edge cases and a million
 * seeded numbers of every kind, then two million decimals of 1 to 9
 * places and their neighbours one ulp away (which must not be taken for
 * the decimal).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fmt.h"

#include "tap.h"

/* The rule, with printf alone. */
static void
reference(double x, char *buf, size_t len)
{
	snprintf(buf, len, "%.15g", x);
	if (strtod(buf, NULL) != x)
		snprintf(buf, len, "%.17g", x);
}

static uint64_t seed = 88172645463325252ULL;

static uint64_t
next(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

static int
differs(double x, char *shown, size_t len)
{
	char num[FMT_DOUBLE_LEN], want[64];

	reference(x, want, sizeof want);
	fmt_double(x, num);
	if (strcmp(num, want) == 0)
		return 0;
	snprintf(shown, len, "%s, not %s", num, want);
	return 1;
}

int
main(void)
{
	static const double edges[] = { 0.0, -0.0, 1, -1, 9, 10, 99, 100,
	    0.5, -0.5, 1e14, 999999999999999.0, -999999999999999.0, 1e15,
	    -1e15, 1e15 + 1, 9007199254740992.0, 1e300, -1e300, 5e-324,
	    123456789012345.0, 1234567890123456.0, 4734, 10624, 65000,
	    0.1, 2.5, 1e-7, 287265078.57, 0.001, -0.001, 0.00099999999999999,
	    0.0001, 1e-4, 0.000123, 99999999999999.9, 999999999999999.9,
	    99999999.99999999, 0.30000000000000004, 1584.37, -1584.37,
	    12345678.12345678, 0.12345678901234 };
	char shown[200] = "", s[160];
	size_t i, bad = 0;
	int k;

	for (i = 0; i < sizeof edges / sizeof edges[0]; i++)
		if (differs(edges[i], s, sizeof s) && bad++ == 0)
			snprintf(shown, sizeof shown, "%s", s);
	ok(bad == 0, "edge cases as printf prints them (%zu differ%s%s)", bad,
	    bad ? ": " : "", shown);
	ok(differs(INFINITY, s, sizeof s) == 0 && differs(-INFINITY, s,
	    sizeof s) == 0 && differs(NAN, s, sizeof s) == 0,
	    "infinities and NaN as printf prints them");
	for (i = 0, bad = 0; i < 1000000; i++) {
		double x;
		switch (k = (int)(next() % 4)) {
		case 0:		/* integers up to 2^53, either sign */
			x = (double)(int64_t)(next() % (1ULL << 53));
			break;
		case 1:		/* small integers, as counts are */
			x = (double)((int64_t)(next() % 20001) - 10000);
			break;
		case 2:		/* any bit pattern */
			{
				uint64_t b = next();
				memcpy(&x, &b, sizeof x);
			}
			break;
		default:	/* values with a fraction */
			x = (double)(int64_t)(next() % 2000000001) / 1000.0 -
			    1e6;
			break;
		}
		if (i % 2 && k == 0)
			x = -x;
		if (differs(x, s, sizeof s) && bad++ == 0)
			snprintf(shown, sizeof shown, "%s", s);
	}
	ok(bad == 0, "a million seeded numbers as printf prints them (%zu "
	    "differ%s%s)", bad, bad ? ": " : "", shown);
	for (i = 0, bad = 0; i < 2000000; i++) {
		/* Y / 10^places, Y of 1 to 16 digits, then a neighbour */
		static const double p10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5,
		    1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
		    1e16 };
		int places = 1 + (int)(next() % 9), digits = 1 +
		    (int)(next() % 16);
		double x = (double)(int64_t)(next() % (uint64_t)p10[digits]) /
		    p10[places];
		if (i % 2)
			x = -x;
		if (i % 3 == 1)
			x = nextafter(x, INFINITY);
		else if (i % 3 == 2)
			x = nextafter(x, -INFINITY);
		if (differs(x, s, sizeof s) && bad++ == 0)
			snprintf(shown, sizeof shown, "%.17g: %s", x, s);
	}
	ok(bad == 0, "two million short decimals and their neighbours as "
	    "printf prints them (%zu differ%s%s)", bad, bad ? ": " : "",
	    shown);
	return tap_done();
}
