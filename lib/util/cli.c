/*
 * NAME
 *	cli - option values for the programs' mains
 * DESCRIPTION
 *	See cli.h.  One place for the wording, so every program says the
 *	same thing about the same mistake.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "util/cli.h"
#include "util/log.h"
#include "util/utc.h"

double
cli_number(const char *opt, const char *s, double min, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno != 0 || !isfinite(v) ||
	    v < min || v > max)
		log_fatal(EX_USAGE, "%s must be a number from %g to %g, not "
		    "'%.64s'", opt, min, max, s);
	return v;
}

size_t
cli_count(const char *opt, const char *s, double min, double max)
{
	double v = cli_number(opt, s, min, max);

	if (v != floor(v))
		log_fatal(EX_USAGE, "%s must be a whole number, not '%.64s'",
		    opt, s);
	return (size_t)v;
}

void
cli_finish_stdout(void)
{
	int err;

	if (fflush(stdout) != 0)
		err = errno;
	else if (ferror(stdout))
		/* A write that failed before left its errno, if nothing since. */
		err = errno != 0 ? errno : EIO;
	else
		return;
	log_fatal(diag_code_for_errno(err), "standard output: %s",
	    strerror(err));
}

long long
cli_time(const char *opt, const char *s)
{
	long long t;

	if (utc_parse(s, &t) < 0)
		log_fatal(EX_USAGE, "%s: '%s' is neither unix seconds nor an "
		    "ISO 8601 time like 2021-02-10T00:08:52Z", opt, s);
	return t;
}
