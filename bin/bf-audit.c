/*
 * NAME
 *	bf-audit - re-solve a plan from history, or list the decisions
 * SYNOPSIS
 *	bf-audit [-hV] [-d SPOOL] PLAN
 *	bf-audit --log [-d SPOOL]
 * DESCRIPTION
 *	See bf-audit(1).  Options; the audit is audit.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/cli.h"
#include "util/log.h"
#include "util/version.h"

#include "report/audit.h"
#include "spool/spool.h"


static _Noreturn void
usage(int code)
{
	fprintf(code ? stderr : stdout,
	    "usage: bf-audit [-hV] [-d SPOOL] PLAN\n"
	    "       bf-audit --log [-d SPOOL]\n");
	exit(code);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "log", no_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	const char *spool_path;
	struct spool sp;
	struct diag d;
	int c, do_log = 0, rc;

	log_init(argv[0]);
	spool_path = spool_default();
	while ((c = getopt_long(argc, argv, "d:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			spool_path = optarg;
			break;
		case 'h':
			usage(0);
		case 'L':
			do_log = 1;
			break;
		case 'V':
			printf("bf-audit %s\n", BF_VERSION);
			return 0;
		default:
			usage(EX_USAGE);
		}
	}
	if (do_log ? optind != argc : argc - optind != 1)
		usage(EX_USAGE);
	if (spool_open(&sp, spool_path, 0, &d) < 0)
		log_diag_fatal(&d);
	rc = do_log ? audit_log(&sp, stdout, &d) :
	    audit_plan(&sp, argv[optind], stdout, &d);
	if (rc < 0)
		log_diag_fatal(&d);
	spool_close(&sp);
	cli_finish_stdout();
	return rc;
}
