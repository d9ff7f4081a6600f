/*
 * NAME
 *	cli - option values for the programs' mains
 * SYNOPSIS
 *	o.tfwd = cli_number("-T", optarg, 0, 1e6);
 *	o.max_jobs = cli_count("--max-jobs", optarg, 1, 100000);
 *	o.from = cli_time("--from", optarg);
 *	path = cli_spool(dopt, CLI_SPOOL_CREATE_D, &create);
 *	cli_help(usage_text, opts, dopt, CLI_HELP_SPOOL);
 * DESCRIPTION
 *	Unlike the rest of lib/, these are for main() only: a bad option
 *	value is a usage error, reported as "prog: -T must be a number from
 *	0 to 1e+06, not 'x'", and the program exits 64.  Times are unix
 *	seconds or ISO 8601 UTC (utc_parse()).
 */
#ifndef BF_CLI_H
#define BF_CLI_H

#include <stddef.h>

#define CLI_SPOOL_CREATE	0x1	/* the daemon's: a missing spool is made */
#define CLI_SPOOL_CREATE_D	0x2	/* made when -d names it */
#define CLI_SPOOL_OPTIONAL	0x4	/* missing: NULL, not an error */
#define CLI_HELP_SPOOL		0x1	/* cli_help(): the spool it would use */
#define CLI_HELP_SPOOL_D	0x2	/* ... with -d only */

/* One line of -h: "  -d SPOOL            the spool to deliver into". */
struct cli_opt {
	const char *opt;
	const char *what;
};

double cli_number(const char *opt, const char *s, double min, double max);
size_t cli_count(const char *opt, const char *s, double min, double max);
long long cli_time(const char *opt, const char *s);
/*
 * Flush standard output and check that everything written to it arrived;
 * if not, exit with the code of the error (75 for a full disk, 74 for
 * another I/O error) and "PROG: standard output: REASON".
 */
void cli_finish_stdout(void);
/*
 * The spool a program works on (site.h: -d's value dopt, $BF_SPOOL, the
 * configuration file's, the built-in one); a configuration file that does
 * not load exits 78.  A spool that does not exist is made only by the
 * daemon (CLI_SPOOL_CREATE) or when -d named it (CLI_SPOOL_CREATE_D), and
 * once spool_open() made it, cli_spool_made() says "created spool DIR
 * (from -d)" on stderr (and nothing when it existed); otherwise
 * "no spool at DIR (built in): ..." ("no spool at DIR (from -d)") and
 * exit 66, or NULL with
 * CLI_SPOOL_OPTIONAL.  *create is 1 where the caller may pass
 * SPOOL_CREATE (it may make the spool's missing directories), else 0.
 */
const char *cli_spool(const char *dopt, int flags, int *create);
void cli_spool_made(void);
/*
 * -h: usage (as the man page's SYNOPSIS), then each option on a line of
 * its own (opts ends with a NULL opt), then, with CLI_HELP_SPOOL, the
 * spool the program would use and where that comes from; exit 0.
 */
_Noreturn void cli_help(const char *usage, const struct cli_opt *opts,
    const char *dopt, int flags);

#endif
