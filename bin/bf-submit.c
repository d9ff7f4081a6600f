/*
 * NAME
 *	bf-submit - validate job files and enter them into the spool
 * SYNOPSIS
 *	bf-submit [-hnV] [-d SPOOL] FILE...
 *	bf-submit --intake [-d SPOOL]
 * DESCRIPTION
 *	See bf-submit(1).  Every file is checked, then written in tmp/,
 *	before any is entered, so a bad file among good ones, or a full disk,
 *	enters nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/cli.h"
#include "util/file.h"
#include "util/log.h"
#include "util/version.h"

#include "spool/intake.h"
#include "spool/job.h"
#include "spool/spool.h"

struct submission {
	const char *path;
	char *buf;
	size_t len;
	struct job job;
	struct file_staged staged;	/* its copy in tmp/ until entered */
};

static const char usage_text[] =
    "usage: bf-submit [-hnV] [-d SPOOL] FILE...\n"
    "       bf-submit --intake [-d SPOOL]\n";

static const struct cli_opt help_opts[] = {
	{ "-d SPOOL", "the spool to enter the jobs into (below)" },
	{ "-h, --help", "print this help and exit" },
	{ "--intake", "sort incoming/ into jobs/ and rejected/ (bf-watch's)" },
	{ "-n", "check the files only; enter nothing" },
	{ "-V", "print the version and exit" },
	{ "FILE", "a job file (bf-spool(5)), or - for standard input" },
	{ NULL, NULL },
};

static _Noreturn void
usage(int code)
{
	fputs(usage_text, stderr);
	exit(code);
}

static int
load(struct submission *s, struct diag *d)
{
	const char *label = strcmp(s->path, "-") == 0 ? "(stdin)" : s->path;
	int rc;

	if (strcmp(s->path, "-") == 0)
		rc = file_read_fd(STDIN_FILENO, label, FILE_MAX_JOB, &s->buf,
		    &s->len, d);
	else
		rc = file_read_at(AT_FDCWD, s->path, FILE_MAX_JOB,
		    FILE_NOFOLLOW, &s->buf, &s->len, d);
	if (rc < 0)
		return -1;
	return job_parse(&s->job, label, s->buf, s->len, 0, d);
}

/* A name already in jobs/ would be refused at intake: say so now. */
static int
check_free(const struct spool *sp, const struct submission *all, size_t i,
    struct diag *d)
{
	const struct job *j = &all[i].job;
	char file[JOB_NAME_MAX + 8];
	size_t k;

	for (k = 0; k < i; k++)
		if (strcmp(all[k].job.name, j->name) == 0)
			return diag_set(d, EX_DATAERR, "%s:%zu: job name '%s' "
			    "is also given by %s", all[i].path, j->line,
			    j->name, all[k].path);
	snprintf(file, sizeof file, "%s.yaml", j->name);
	if (sp != NULL && sp->dirs[SPOOL_JOBS] >= 0 &&
	    faccessat(sp->dirs[SPOOL_JOBS], file, F_OK, AT_EACCESS) == 0)
		return diag_set(d, EX_DATAERR, "%s:%zu: job name '%s' is taken "
		    "by %s/jobs/%s", all[i].path, j->line, j->name, sp->path,
		    file);
	return 0;
}

/* Into incoming/ under the first free of NAME.yaml, NAME.1.yaml, ... */
static int
enter(struct spool *sp, struct submission *s, struct diag *d)
{
	char name[JOB_NAME_MAX + 16];
	int n;

	for (n = 0; n < 100; n++) {
		if (n == 0)
			snprintf(name, sizeof name, "%s.yaml", s->job.name);
		else
			snprintf(name, sizeof name, "%s.%d.yaml", s->job.name,
			    n);
		if (spool_publish(sp, &s->staged, SPOOL_INCOMING, name,
		    FILE_NOREPLACE, d) == 0) {
			printf("%s/incoming/%s\n", sp->path, name);
			return 0;
		}
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

/*
 * Every file is written and synced in tmp/ before any is entered: a full
 * disk enters none of them, so that running the same command again, once
 * there is room, enters each once.
 */
static int
enter_all(struct spool *sp, struct submission *all, int n, struct diag *d)
{
	char name[JOB_NAME_MAX + 16];
	int i, rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		snprintf(name, sizeof name, "%s.yaml", all[i].job.name);
		rc = spool_stage(sp, SPOOL_INCOMING, name, all[i].buf,
		    all[i].len, 0600, &all[i].staged, d);
	}
	for (i = 0; i < n && rc == 0; i++)
		rc = enter(sp, &all[i], d);
	for (i = 0; i < n; i++)
		file_unstage(&all[i].staged);
	return rc;
}

/*
 * -n checks against the spool when there is one; entering needs one, and
 * only -d may make it (bf-spool(5), SITE): a user who forgot -d would
 * otherwise fill a spool of her own that nothing serves.
 */
static int
submit(const char *dopt, int check_only, char **paths, int npaths)
{
	struct submission *all = calloc((size_t)npaths, sizeof *all);
	const char *spool_path;
	struct spool sp;
	struct diag d;
	int i, code = 0, have_spool, create;

	if (all == NULL)
		log_fatal(EX_OSERR, "out of memory");
	spool_path = cli_spool(dopt, check_only ? CLI_SPOOL_OPTIONAL :
	    CLI_SPOOL_CREATE_D, &create);
	have_spool = spool_path != NULL && spool_open(&sp, spool_path,
	    check_only || !create ? 0 : SPOOL_CREATE, &d) == 0;
	if (!have_spool && !check_only)
		log_diag_fatal(&d);
	cli_spool_made();
	for (i = 0; i < npaths; i++) {
		all[i].path = paths[i];
		if (load(&all[i], &d) < 0 || check_free(have_spool ? &sp : NULL,
		    all, (size_t)i, &d) < 0) {
			log_warn("%s", d.text);
			if (code == 0 || d.code == EX_NOINPUT)
				code = d.code;
		}
	}
	if (code == 0 && !check_only && enter_all(&sp, all, npaths, &d) < 0) {
		log_warn("%s", d.text);
		code = d.code;
	}
	for (i = 0; i < npaths; i++) {
		free(all[i].buf);
		job_free(&all[i].job);
	}
	free(all);
	if (have_spool)
		spool_close(&sp);
	return code;
}

static int
intake(const char *dopt)
{
	struct intake_result r;
	struct spool sp;
	struct diag d;
	int create;
	const char *spool_path = cli_spool(dopt, CLI_SPOOL_CREATE_D, &create);

	if (spool_open(&sp, spool_path, create ? SPOOL_CREATE : 0, &d) < 0)
		log_diag_fatal(&d);
	cli_spool_made();
	if (spool_lock(&sp, &d) < 0)
		log_diag_fatal(&d);
	spool_clean_tmp(&sp, 36 * 3600);
	if (intake_run(&sp, time(NULL), NULL, &r, &d) < 0)
		log_diag_fatal(&d);
	spool_close(&sp);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "intake", no_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dopt = NULL;
	int c, check_only = 0, do_intake = 0, help = 0;

	log_init(argv[0]);
	while ((c = getopt_long(argc, argv, "d:hnV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dopt = optarg;
			break;
		case 'h':
			help = 1;
			break;
		case 'I':
			do_intake = 1;
			break;
		case 'n':
			check_only = 1;
			break;
		case 'V':
			printf("bf-submit %s\n", BF_VERSION);
			return 0;
		default:
			usage(EX_USAGE);
		}
	}
	if (help)
		cli_help(usage_text, help_opts, dopt, CLI_HELP_SPOOL);
	if (do_intake) {
		if (optind != argc || check_only)
			usage(EX_USAGE);
		return intake(dopt);
	}
	if (optind == argc)
		usage(EX_USAGE);
	c = submit(dopt, check_only, argv + optind, argc - optind);
	/* The list of what was entered is the user's receipt. */
	cli_finish_stdout();
	return c;
}
