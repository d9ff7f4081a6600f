/*
 * NAME
 *	bf-cancel - cancel one's own jobs
 * SYNOPSIS
 *	bf-cancel [-hV] [-d SPOOL] [-w SECONDS] NAME ...
 * DESCRIPTION
 *	See bf-cancel(1).  Delivers a request per job into SPOOL/cancel/ and
 *	waits for the daemon's answer (lib/cancel.c): cancelled, refused
 *	(another user's job) or no such job.  Prints one line per job.
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
#include "util/ydoc.h"

#include "spool/cancel.h"
#include "spool/spool.h"

static const char usage_text[] =
    "usage: bf-cancel [-hV] [-d SPOOL] [-w SECONDS] NAME ...\n";

static const struct cli_opt help_opts[] = {
	{ "-d SPOOL", "the spool the jobs were submitted to (below)" },
	{ "-h, --help", "print this help and exit" },
	{ "-V", "print the version and exit" },
	{ "-w SECONDS", "wait at most this long for the answers (60)" },
	{ "NAME", "a job of yours, by the name its job file gives" },
	{ NULL, NULL },
};

static _Noreturn void
usage(int code)
{
	fputs(usage_text, stderr);
	exit(code);
}

/* The exit code of several answers: the worst, refusal before absence. */
static int
worse(int a, int b)
{
	static const int order[] = { 0, EX_NOINPUT, EX_NOPERM, EX_TEMPFAIL };
	int ia = 0, ib = 0, i;

	for (i = 0; i < 4; i++) {
		if (order[i] == a)
			ia = i;
		if (order[i] == b)
			ib = i;
	}
	return ia >= ib ? a : b;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char tokens[64][CANCEL_TOKEN_LEN + 1], answer[512], shown[68], *end;
	const char *spool_path, *dopt = NULL;
	double wait = 60;
	struct spool sp;
	struct diag d;
	int c, i, n, code, rc = 0, help = 0;

	log_init(argv[0]);
	while ((c = getopt_long(argc, argv, "d:hVw:", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dopt = optarg;
			break;
		case 'h':
			help = 1;
			break;
		case 'V':
			printf("bf-cancel %s\n", BF_VERSION);
			return 0;
		case 'w':
			errno = 0;
			wait = strtod(optarg, &end);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    !isfinite(wait) || wait < 0 || wait > 86400)
				log_fatal(EX_USAGE, "-w must be a number of "
				    "seconds from 0 to 86400, not '%.64s'",
				    optarg);
			break;
		default:
			usage(EX_USAGE);
		}
	}
	if (help)
		cli_help(usage_text, help_opts, dopt, CLI_HELP_SPOOL);
	n = argc - optind;
	if (n < 1)
		usage(EX_USAGE);
	if (n > 64)
		log_fatal(EX_USAGE, "at most 64 jobs at once");
	for (i = 0; i < n; i++)
		if (!job_name_valid(argv[optind + i])) {
			ydoc_excerpt(argv[optind + i], shown, sizeof shown);
			log_fatal(EX_USAGE, "bad job name '%s'", shown);
		}
	spool_path = cli_spool(dopt, 0, &c);
	if (spool_open(&sp, spool_path, 0, &d) < 0)
		log_diag_fatal(&d);
	/* Every request first, then the answers: one wait for them all. */
	for (i = 0; i < n; i++)
		if (cancel_ask(&sp, argv[optind + i], tokens[i], &d) < 0)
			log_diag_fatal(&d);
	for (i = 0; i < n; i++) {
		code = cancel_wait(&sp, argv[optind + i], tokens[i], wait,
		    answer, sizeof answer, &d);
		if (code < 0) {
			log_warn("%s", d.text);
			rc = worse(rc, d.code);
			continue;
		}
		if (code == CANCEL_DONE)
			printf("%s\n", answer);
		else
			log_warn("%s", answer);
		rc = worse(rc, code);
	}
	cli_finish_stdout();
	spool_close(&sp);
	return rc;
}
