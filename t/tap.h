/*
 * NAME
 *	tap.h - Test Anything Protocol output for the C unit tests
 * SYNOPSIS
 *	#include "tap.h"
 *	ok(cond, "what");  is_int(got, want, "what");  is_str(got, want, "what");
 *	return tap_done();
 * DESCRIPTION
 *	Each check prints "ok N - what" or "not ok N - what"; a failed one
 *	adds the values that differed as "#" comments on stderr (diag), so
 *	that prove shows them without -v.  note() adds a comment on stdout.
 *	tap_done() prints the plan at the end (never hard-coded) and returns
 *	the exit status for main: 0 when every check passed, 1 otherwise.
 *	Header-only so each test is one file.
 */
#ifndef BF_TAP_H
#define BF_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_count;
static int tap_failed;

__attribute__((format(printf, 2, 3), unused))
static int
ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

/* A comment for the record (a seed): stdout, shown by prove -v. */
__attribute__((format(printf, 1, 2), unused))
static void
note(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Why a check failed: stderr, so that prove shows it without -v. */
__attribute__((format(printf, 1, 2), unused))
static void
diag(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("# ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

#define is_int(got, want, ...) do {					\
	long long tap_g_ = (long long)(got), tap_w_ = (long long)(want);\
	if (!ok(tap_g_ == tap_w_, __VA_ARGS__))				\
		diag("got %lld, want %lld", tap_g_, tap_w_);		\
} while (0)

#define is_str(got, want, ...) do {					\
	const char *tap_g_ = (got), *tap_w_ = (want);			\
	int tap_same_ = tap_g_ && tap_w_ ? strcmp(tap_g_, tap_w_) == 0	\
	    : tap_g_ == tap_w_;						\
	if (!ok(tap_same_, __VA_ARGS__))				\
		diag("got '%s', want '%s'", tap_g_ ? tap_g_ : "(null)",	\
		    tap_w_ ? tap_w_ : "(null)");			\
} while (0)

__attribute__((unused))
static int
tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
