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
#include "solve/milp.h"
#include "spool/spool.h"

static const char usage_text[] =
    "usage: bf-audit [-hV] [-d SPOOL] PLAN\n"
    "       bf-audit --log [-d SPOOL]\n";

static const struct cli_opt help_opts[] = {
	{ "-d SPOOL", "the spool whose history to audit (below)" },
	{ "-h, --help", "print this help and exit" },
	{ "--log", "list every decision of the history, one a line" },
	{ "-V", "print the version and exit" },
	{ "PLAN", "a plan of history/ to solve again and compare" },
	{ NULL, NULL },
};

static _Noreturn void
usage(int code)
{
	fputs(usage_text, stderr);
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
	const char *spool_path, *dopt = NULL;
	struct spool sp;
	struct diag d;
	int c, do_log = 0, rc, help = 0;

	log_init(argv[0]);
	while ((c = getopt_long(argc, argv, "d:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dopt = optarg;
			break;
		case 'h':
			help = 1;
			break;
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
	if (help)
		cli_help(usage_text, help_opts, dopt, CLI_HELP_SPOOL);
	if (do_log ? optind != argc : argc - optind != 1)
		usage(EX_USAGE);
	spool_path = cli_spool(dopt, 0, &c);
	/* CBC's server, forked while this process is small (milp.h) */
	(void)milp_server_start();
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
