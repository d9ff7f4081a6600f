/*
 * NAME
 *	utc - unix seconds or an ISO 8601 UTC time, to unix seconds
 * SYNOPSIS
 *	long long t;
 *	if (utc_parse("2021-02-10T00:08:52Z", &t) < 0) ...
 * DESCRIPTION
 *	utc_parse() reads unix seconds (digits, at most 2^40) or an ISO 8601
 *	UTC time YYYY-MM-DDTHH:MM:SS with an optional Z (1970 on, dates that
 *	exist, a leap second allowed) into *t.
 * DIAGNOSTICS
 *	-1 for anything else, *t then undefined; no message, the caller
 *	names the option or file.
 */
#ifndef BF_UTC_H
#define BF_UTC_H

int utc_parse(const char *s, long long *t);

#endif
