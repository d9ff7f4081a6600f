/*
 * NAME
 *	cli - option values for the programs' mains
 * SYNOPSIS
 *	o.tfwd = cli_number("-T", optarg, 0, 1e6);
 *	o.max_jobs = cli_count("--max-jobs", optarg, 1, 100000);
 *	o.from = cli_time("--from", optarg);
 * DESCRIPTION
 *	Unlike the rest of lib/, these are for main() only: a bad option
 *	value is a usage error, reported as "prog: -T must be a number from
 *	0 to 1e+06, not 'x'", and the program exits 64.  Times are unix
 *	seconds or ISO 8601 UTC (utc_parse()).
 */
#ifndef BF_CLI_H
#define BF_CLI_H

#include <stddef.h>

double cli_number(const char *opt, const char *s, double min, double max);
size_t cli_count(const char *opt, const char *s, double min, double max);
long long cli_time(const char *opt, const char *s);
/*
 * Flush standard output and check that everything written to it arrived;
 * if not, exit with the code of the error (75 for a full disk, 74 for
 * another I/O error) and "PROG: standard output: REASON".
 */
void cli_finish_stdout(void);

#endif
