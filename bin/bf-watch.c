/*
 * NAME
 *	bf-watch - the daemon that makes the spool work by itself
 * SYNOPSIS
 *	bf-watch [-hV] [-d SPOOL] [--once] [OPTION ...]
 *	(OPTION: -g GRACE, -r RESCAN, --allow-root-jobs, --backend NAME,
 *	--debounce MS, --holes-cmd CMD, --holes-interval SEC, --keep-models N,
 *	--keep-rejected DAYS, --no-profile)
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

#include "spool/spool.h"
#include "watch/watch.h"

static _Noreturn void
usage(int code)
{
	fprintf(code ? stderr : stdout,
	    "usage: bf-watch [-hV] [-d SPOOL] [--once] [OPTION ...]\n");
	exit(code);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "allow-root-jobs", no_argument, NULL, 'R' },
		{ "backend", required_argument, NULL, 'B' },
		{ "debounce", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ "holes-cmd", required_argument, NULL, 'H' },
		{ "holes-interval", required_argument, NULL, 'I' },
		{ "keep-models", required_argument, NULL, 'M' },
		{ "keep-rejected", required_argument, NULL, 'K' },
		{ "no-profile", no_argument, NULL, 'P' },
		{ "once", no_argument, NULL, 'O' },
		{ NULL, 0, NULL, 0 },
	};
	struct watch_opts o = WATCH_OPTS_DEFAULT;
	const char *spool_path;
	struct spool sp;
	struct diag d;
	int c;

	log_init(argv[0]);
	spool_path = spool_default();
	while ((c = getopt_long(argc, argv, "d:g:hr:V", longopts, NULL))
	    != -1) {
		switch (c) {
		case 'B':
			o.backend = optarg;
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
			usage(0);
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
		case 'V':
			printf("bf-watch %s\n", BF_VERSION);
			return 0;
		default:
			usage(EX_USAGE);
		}
	}
	if (optind != argc)
		usage(EX_USAGE);
	if (spool_open(&sp, spool_path, SPOOL_CREATE, &d) < 0 ||
	    watch_run(&sp, &o, &d) < 0)
		log_diag_fatal(&d);
	spool_close(&sp);
	return 0;
}
