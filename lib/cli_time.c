/*
 * NAME
 *	cli_time - a time option for the programs' mains
 * DESCRIPTION
 *	See cli.h.  Apart from cli.c because events_parse_time() lives in
 *	the event reader, which brings zlib.
 */
#include "cli.h"
#include "events.h"
#include "log.h"

long long
cli_time(const char *opt, const char *s)
{
	long long t;

	if (events_parse_time(s, &t) < 0)
		log_fatal(EX_USAGE, "%s: '%s' is neither unix seconds nor an "
		    "ISO 8601 time like 2021-02-10T00:08:52Z", opt, s);
	return t;
}
