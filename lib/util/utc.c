/*
 * NAME
 *	utc - unix seconds or an ISO 8601 UTC time, to unix seconds
 * DESCRIPTION
 *	See utc.h.  No time zone and no locale: the C library's mktime()
 *	and strptime() depend on both.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/utc.h"

/* Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's method). */
static long long
days_from_civil(long long y, unsigned m, unsigned dd)
{
	long long era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + dd - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

int
utc_parse(const char *s, long long *t)
{
	static const unsigned mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30,
	    31, 30, 31 };
	unsigned y, mo, dd, h, mi, se;
	char *end;
	int n = 0;

	if (*s >= '0' && *s <= '9' && strchr(s, '-') == NULL) {
		errno = 0;
		*t = strtoll(s, &end, 10);
		return *end == '\0' && errno == 0 && *t <= 1LL << 40 ? 0 : -1;
	}
	if (strlen(s) < 19 || sscanf(s, "%4u-%2u-%2uT%2u:%2u:%2u%n", &y, &mo,
	    &dd, &h, &mi, &se, &n) != 6 || n != 19 || (s[19] != '\0' &&
	    strcmp(s + 19, "Z") != 0))
		return -1;
	if (mo < 1 || mo > 12 || dd < 1 || dd > mdays[mo - 1] || h > 23 ||
	    mi > 59 || se > 60 || y < 1970 ||
	    (mo == 2 && dd == 29 && (y % 4 != 0 || (y % 100 == 0 &&
	    y % 400 != 0))))
		return -1;
	*t = days_from_civil(y, mo, dd) * 86400 + h * 3600LL + mi * 60LL + se;
	return 0;
}
