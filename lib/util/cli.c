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
#include <sys/stat.h>

#include "util/cli.h"
#include "util/log.h"
#include "util/site.h"
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

/*
 * The spool of cli_spool(), static: its path may be the configuration
 * file's, kept in it, and cli_spool_made() names it once made.
 */
static struct site_spool spool;
static int made_pending;

void
cli_spool_made(void)
{
	if (made_pending)
		log_warn("created spool %s (%s)", spool.path, spool.from);
	made_pending = 0;
}

const char *
cli_spool(const char *dopt, int flags, int *create)
{
	struct diag d;
	struct stat st;
	int may = (flags & CLI_SPOOL_CREATE) ||
	    ((flags & CLI_SPOOL_CREATE_D) && dopt != NULL);

	if (site_spool(&spool, dopt, &d) < 0)
		log_diag_fatal(&d);
	*create = may;
	if (stat(spool.path, &st) == 0 || errno != ENOENT)
		return spool.path;	/* spool_open() says what else */
	if (may) {
		made_pending = 1;
		return spool.path;
	}
	if (flags & CLI_SPOOL_OPTIONAL)
		return NULL;
	if (dopt != NULL)	/* named there and then: no advice needed */
		log_fatal(EX_NOINPUT, "no spool at %s (%s)", spool.path,
		    spool.from);
	log_fatal(EX_NOINPUT, "no spool at %s (%s): name the site's spool "
	    "with -d or $BF_SPOOL (bf-spool(5), SITE)", spool.path,
	    spool.from);
}

void
cli_help(const char *usage, const struct cli_opt *opts, const char *dopt,
    int flags)
{
	struct site_spool s;
	struct diag d;
	size_t i;

	fputs(usage, stdout);
	if (opts != NULL && opts[0].opt != NULL)
		fputs("options:\n", stdout);
	for (i = 0; opts != NULL && opts[i].opt != NULL; i++)
		printf("  %-22s %s\n", opts[i].opt, opts[i].what);
	if (flags & CLI_HELP_SPOOL_D)
		printf("spool: none unless -d names one\n");
	else if ((flags & CLI_HELP_SPOOL) && site_spool(&s, dopt, &d) < 0)
		printf("spool: unknown: %s\n", d.text);
	else if (flags & CLI_HELP_SPOOL)
		printf("spool: %s (%s)\n", s.path, s.from);
	cli_finish_stdout();
	exit(0);
}
