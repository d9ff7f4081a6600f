/*
 * NAME
 *	bf-watch - the daemon that makes the spool work by itself
 * SYNOPSIS
 *	bf-watch [-hsV] [-d SPOOL] [--once] [OPTION ...]
 *	bf-watch --check [-d SPOOL] [FILE ...]
 *	(OPTION: -g GRACE, -r RESCAN, -t LIMIT, --allow-root-jobs, --backend NAME,
 *	--debounce MS, --holes-cmd CMD, --holes-interval SEC, --horizon NAME,
 *	--horizon-cap S, --keep-models N, --keep-rejected DAYS, --metrics
 *	FILE, --no-profile, --probe, --shadow, --syslog)
 * DESCRIPTION
 *	See bf-watch(1).  Options here; the loop is watch.c.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "util/log.h"
#include "util/version.h"

#include "solve/decide.h"
#include "spool/spool.h"
#include "watch/watch.h"

static const char usage_text[] =
    "usage: bf-watch [-hsV] [-d SPOOL] [--once] [--shadow] [OPTION ...]\n"
    "       bf-watch --check [-d SPOOL] [FILE ...]\n";

static const struct cli_opt help_opts[] = {
	{ "--allow-root-jobs",
	    "run jobs whose owner is root (refused otherwise)" },
	{ "--backend NAME", "local (default), slurm or pbs" },
	{ "--check [FILE ...]", "check policy, holes or job files (or the "
	    "spool's), exit" },
	{ "-d SPOOL", "the spool to serve, made when missing (below)" },
	{ "--debounce MS", "milliseconds to gather a burst of events (100)" },
	{ "-g GRACE", "seconds from SIGTERM to SIGKILL stopping a job (10)" },
	{ "-h, --help", "print this help and exit" },
	{ "--holes-cmd CMD", "run sh -c CMD every --holes-interval seconds" },
	{ "--holes-interval SEC", "see --holes-cmd (60)" },
	{ "--horizon NAME", "fixed (10 s, default) or learnt (bf-solve(1))" },
	{ "--horizon-cap S", "learnt: each look-ahead at most S seconds "
	    "(none)" },
	{ "--keep-models N", "keep the MPS models of the N newest plans only" },
	{ "--keep-rejected DAYS", "remove refusals older than DAYS (30)" },
	{ "--metrics FILE",
	    "write Prometheus metrics to FILE after each pass" },
	{ "--no-profile", "do not run bf-profile" },
	{ "--once", "make passes until one finds nothing to do, then exit" },
	{ "--probe", "the advisor's probes and no prior (bf-solve --probe)" },
	{ "-r RESCAN", "seconds between passes without a wake-up (60)" },
	{ "-s, --syslog", "log to syslog(3)" },
	{ "--shadow", "decide, log and record, but enact nothing" },
	{ "-t LIMIT", "a decision's time limit, seconds (10; bf-solve -t)" },
	{ "-V", "print the version and exit" },
	{ NULL, NULL },
};

static _Noreturn void
usage(int code)
{
	fputs(usage_text, stderr);
	exit(code);
}

/* $BF_LOG_STYLE (plain, stamped, journal), else as stderr is (log.h). */
static enum log_style
log_style_from_env(void)
{
	const char *e = getenv("BF_LOG_STYLE");

	if (e != NULL && strcmp(e, "plain") == 0)
		return LOG_STYLE_PLAIN;
	if (e != NULL && strcmp(e, "stamped") == 0)
		return LOG_STYLE_STAMPED;
	if (e != NULL && strcmp(e, "journal") == 0)
		return LOG_STYLE_JOURNAL;
	return log_style_auto();
}

/* --check: the files given, else the spool's inputs; 0 or 65. */
static int
check_inputs(const char *dopt, char *const files[], size_t n)
{
	struct spool sp;
	struct diag d;
	int create;
	const char *spool_path;

	if (n > 0) {
		if (decide_check_files(files, n, stdout, &d) < 0)
			log_diag_fatal(&d);
	} else if ((spool_path = cli_spool(dopt, 0, &create)) == NULL ||
	    spool_open(&sp, spool_path, 0, &d) < 0 ||
	    decide_check_spool(&sp, stdout, &d) < 0)
		log_diag_fatal(&d);
	else
		spool_close(&sp);
	cli_finish_stdout();
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "allow-root-jobs", no_argument, NULL, 'R' },
		{ "check", no_argument, NULL, 'C' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "shadow", no_argument, NULL, 'S' },
		{ "syslog", no_argument, NULL, 's' },
		{ "backend", required_argument, NULL, 'B' },
		{ "debounce", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ "holes-cmd", required_argument, NULL, 'H' },
		{ "holes-interval", required_argument, NULL, 'I' },
		{ "horizon", required_argument, NULL, 'T' },
		{ "horizon-cap", required_argument, NULL, 'c' },
		{ "keep-models", required_argument, NULL, 'M' },
		{ "keep-rejected", required_argument, NULL, 'K' },
		{ "no-profile", no_argument, NULL, 'P' },
		{ "once", no_argument, NULL, 'O' },
		{ "probe", no_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	struct watch_opts o = WATCH_OPTS_DEFAULT;
	const char *spool_path = NULL;
	struct spool sp;
	struct diag d;
	int c, check = 0, to_syslog = 0, help = 0;

	log_init(argv[0]);
	while ((c = getopt_long(argc, argv, "d:g:hr:st:V", longopts, NULL))
	    != -1) {
		switch (c) {
		case 'B':
			o.backend = optarg;
			break;
		case 'C':
			check = 1;
			break;
		case 'c':
			o.horizon_cap = cli_number("--horizon-cap", optarg, 1,
			    SOLVE_HORIZON_MAX);
			break;
		case 'm':
			o.metrics = optarg;
			break;
		case 'p':
			o.probe = 1;
			break;
		case 's':
			to_syslog = 1;
			break;
		case 'S':
			o.shadow = 1;
			break;
		case 'D':
			o.debounce = cli_number("--debounce", optarg, 0, 60000) /
			    1000;
			break;
		case 'd':
			spool_path = optarg;
			break;
		case 'g':
			o.grace = cli_number("-g", optarg, 0, 3600);
			break;
		case 'H':
			o.holes_cmd = optarg;
			break;
		case 'h':
			help = 1;
			break;
		case 'I':
			o.holes_interval = cli_number("--holes-interval", optarg,
			    0.1, 86400);
			break;
		case 'K':
			o.keep_rejected = cli_number("--keep-rejected", optarg,
			    0, 1e6) * WATCH_DAY;
			break;
		case 'M':
			o.keep_models = cli_count("--keep-models", optarg, 0,
			    1e9);
			break;
		case 'O':
			o.once = 1;
			break;
		case 'P':
			o.no_profile = 1;
			break;
		case 'R':
			o.allow_root = 1;
			break;
		case 'r':
			o.rescan = cli_number("-r", optarg, 0.1, 86400);
			break;
		case 't':
			o.limit = cli_number("-t", optarg, 0.001, 1e6);
			break;
		case 'T':
			if (strcmp(optarg, "fixed") != 0 &&
			    strcmp(optarg, "learnt") != 0)
				log_fatal(EX_USAGE, "--horizon must be fixed "
				    "or learnt, not '%.64s'", optarg);
			o.learnt = strcmp(optarg, "learnt") == 0;
			break;
		case 'V':
			printf("bf-watch %s\n", BF_VERSION);
			return 0;
		default:
			usage(EX_USAGE);
		}
	}
	if (help)
		cli_help(usage_text, help_opts, spool_path, CLI_HELP_SPOOL);
	if (check)
		return check_inputs(spool_path, argv + optind,
		    (size_t)(argc - optind));
	if (optind != argc)
		usage(EX_USAGE);
	if (o.horizon_cap > 0 && !o.learnt)
		log_fatal(EX_USAGE, "--horizon-cap needs --horizon learnt: the "
		    "fixed horizon is 10 s");
	log_set_style(to_syslog ? LOG_STYLE_SYSLOG : log_style_from_env());
	/* The admin's daemon makes the site's spool (bf-spool(5), SITE). */
	spool_path = cli_spool(spool_path, CLI_SPOOL_CREATE, &c);
	if (spool_open(&sp, spool_path, SPOOL_CREATE, &d) < 0)
		log_diag_fatal(&d);
	cli_spool_made();
	if (watch_run(&sp, &o, &d) < 0)
		log_diag_fatal(&d);
	spool_close(&sp);
	return 0;
}
