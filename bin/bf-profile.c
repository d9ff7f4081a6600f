/*
 * NAME
 *	bf-profile - progress logs to profiles
 * SYNOPSIS
 *	bf-profile [-hV] [--advise] [-d SPOOL] [JOB...]
 *	bf-profile [--advise] [-j JOBFILE] LOGFILE
 * DESCRIPTION
 *	See bf-profile(1).  Options, and one log to a profile on standard
 *	output; a spool's jobs are profile_spool()'s (profile_spool.c).
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/cli.h"
#include "util/file.h"
#include "util/log.h"
#include "util/version.h"
#include "util/ydoc.h"

#include "profile/profile.h"
#include "spool/job.h"
#include "spool/progress.h"
#include "spool/spool.h"

struct opts {
	const char *spool;	/* NULL: -d not given */
	const char *jobfile;
	int advise;
};

static const char usage_text[] =
    "usage: bf-profile [-hV] [--advise] [-d SPOOL] [JOB...]\n"
    "       bf-profile [--advise] [-j JOBFILE] LOGFILE\n";

static const struct cli_opt help_opts[] = {
	{ "--advise",
	    "print the advisor's proposal, NAME NEXT REASON per job" },
	{ "-d SPOOL", "profile the spool's jobs into profiles/ (below)" },
	{ "-h, --help", "print this help and exit" },
	{ "-j JOBFILE", "with LOGFILE: the job file it is the log of" },
	{ "-V", "print the version and exit" },
	{ "JOB", "only these jobs of the spool" },
	{ "LOGFILE", "a progress log: print its profile" },
	{ NULL, NULL },
};

static _Noreturn void
usage(int code)
{
	fputs(usage_text, stderr);
	exit(code);
}

/* "-", a path with a slash, or a name ending in .log: not a job name. */
static int
is_logfile(const char *arg)
{
	size_t n = strlen(arg);

	return strcmp(arg, "-") == 0 || strchr(arg, '/') != NULL ||
	    (n > 4 && strcmp(arg + n - 4, ".log") == 0);
}

/* The job's name: from its file, else the log's base name without .log. */
static void
log_name(const char *path, const struct job *j, char *name, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t n;

	if (j != NULL) {
		snprintf(name, size, "%s", j->name);
		return;
	}
	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".log") == 0)
		n -= 4;
	snprintf(name, size, "%.*s", (int)n, base);
	if (!job_name_valid(name))
		snprintf(name, size, "%s", strcmp(path, "-") == 0 ? "stdin" :
		    "log");
}

static int
run_logfile(const struct opts *o, const char *path)
{
	const char *label = strcmp(path, "-") == 0 ? "(stdin)" : path;
	char name[JOB_NAME_MAX + 1], *buf, *text;
	struct job j, *jp = NULL;
	struct profile p;
	struct diag d;
	size_t len;
	int rc;

	diag_clear(&d);
	if (o->jobfile != NULL) {
		if (file_read_at(AT_FDCWD, o->jobfile, FILE_MAX_JOB, 0, &buf,
		    &len, &d) < 0)
			log_diag_fatal(&d);
		rc = job_parse(&j, o->jobfile, buf, len,
		    JOB_TRUSTED | JOB_QUIET, &d);
		free(buf);
		if (rc < 0)
			log_diag_fatal(&d);
		jp = &j;
	}
	if (strcmp(path, "-") == 0)
		rc = file_read_fd(STDIN_FILENO, label, PROGRESS_MAX_FILE, &buf,
		    &len, &d);
	else
		rc = file_read_at(AT_FDCWD, path, PROGRESS_MAX_FILE, 0, &buf,
		    &len, &d);
	if (rc < 0)
		log_diag_fatal(&d);
	log_name(path, jp, name, sizeof name);
	if (profile_from_log(&p, name, label, buf, len, jp, &d) < 0)
		log_diag_fatal(&d);
	free(buf);
	if (jp != NULL)
		job_free(jp);
	if (o->advise)
		profile_print_advice(&p, stdout);
	else {
		if ((text = profile_format(&p, &len)) == NULL)
			log_fatal(EX_OSERR, "out of memory");
		fwrite(text, 1, len, stdout);
		free(text);
	}
	profile_free(&p);
	cli_finish_stdout();
	return 0;
}

/* Every job of the spool, or those named: profile_spool(), profile.h. */
static int
run_spool(const struct opts *o, char **names, int nnames)
{
	struct spool sp;
	struct diag d;
	int code;
	const char *path = cli_spool(o->spool, 0, &code);

	diag_clear(&d);
	if (spool_open(&sp, path, 0, &d) < 0)
		log_diag_fatal(&d);
	code = profile_spool(&sp, names, (size_t)nnames,
	    o->advise ? stdout : NULL);
	spool_close(&sp);
	if (o->advise)
		cli_finish_stdout();
	return code;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "advise", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { NULL, NULL, 0 };
	int c, i, nargs, help = 0;

	log_init(argv[0]);
	while ((c = getopt_long(argc, argv, "d:hj:V", longopts, NULL)) != -1) {
		switch (c) {
		case 'A':
			o.advise = 1;
			break;
		case 'd':
			o.spool = optarg;
			break;
		case 'h':
			help = 1;
			break;
		case 'j':
			o.jobfile = optarg;
			break;
		case 'V':
			printf("bf-profile %s\n", BF_VERSION);
			return 0;
		default:
			usage(EX_USAGE);
		}
	}
	if (help)
		cli_help(usage_text, help_opts, o.spool, CLI_HELP_SPOOL);
	nargs = argc - optind;
	if (o.jobfile != NULL || (o.spool == NULL && nargs == 1 &&
	    is_logfile(argv[optind]))) {
		if (o.spool != NULL || nargs != 1)
			usage(EX_USAGE);
		return run_logfile(&o, argv[optind]);
	}
	for (i = optind; i < argc; i++)
		if (!job_name_valid(argv[i])) {
			char shown[68];
			ydoc_excerpt(argv[i], shown, sizeof shown);
			log_warn("'%s' is not a job name", shown);
			usage(EX_USAGE);
		}
	return run_spool(&o, argv + optind, nargs);
}
