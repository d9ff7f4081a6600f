/*
 * NAME
 *	bf-apply - carry out a plan: start, grow, shrink and stop jobs
 * SYNOPSIS
 *	bf-apply [-hnV] [-d SPOOL] [-g GRACE] [--allow-root-jobs] [PLAN]
 *	bf-apply --backend NAME [OPTION ...] [PLAN]
 *	bf-apply --cleanup [--backend NAME] [-d SPOOL]
 * DESCRIPTION
 *	See bf-apply(1).  Options and the lock here; the work is apply.c,
 *	the jobs' processes backend_local.c (and the pilot jobs of
 *	--backend slurm and pbs, pilots.c, backend_slurm.c, backend_pbs.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/cli.h"
#include "util/file.h"
#include "util/log.h"
#include "util/version.h"

#include "apply/apply.h"
#include "apply/backend.h"
#include "apply/pilots.h"
#include "spool/history.h"
#include "spool/spool.h"

struct args {
	const char *spool, *plan, *backend;
	int dry_run, allow_root, cleanup, shadow;
	double grace;
};

static const char usage_text[] =
    "usage: bf-apply [-hnV] [-d SPOOL] [-g GRACE] [--allow-root-jobs] "
    "[PLAN]\n"
    "       bf-apply --backend NAME [--shadow] [OPTION ...] [PLAN]\n"
    "       bf-apply --cleanup [--backend NAME] [-d SPOOL]\n";

static const struct cli_opt help_opts[] = {
	{ "--allow-root-jobs",
	    "run jobs whose owner is root (refused otherwise)" },
	{ "--backend NAME", "local (default), slurm or pbs" },
	{ "--cleanup", "cancel the spool's pilot jobs, print each, and exit" },
	{ "-d SPOOL", "the spool whose plan to enact (below)" },
	{ "-g GRACE", "seconds from SIGTERM to SIGKILL stopping a job (10)" },
	{ "-h, --help", "print this help and exit" },
	{ "-n", "print the actions it would take; take none" },
	{ "--shadow", "record the plan as enacted but enact nothing" },
	{ "-V", "print the version and exit" },
	{ "PLAN", "a plan file (default SPOOL/plans/current.yaml)" },
	{ NULL, NULL },
};

static _Noreturn void
usage(int code)
{
	fputs(usage_text, stderr);
	exit(code);
}

static void
options(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
		{ "allow-root-jobs", no_argument, NULL, 'R' },
		{ "backend", required_argument, NULL, 'B' },
		{ "cleanup", no_argument, NULL, 'C' },
		{ "grace", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ "shadow", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c, help = 0;

	while ((c = getopt_long(argc, argv, "d:g:hnV", longopts, NULL))
	    != -1) {
		switch (c) {
		case 'B':
			a->backend = optarg;
			break;
		case 'C':
			a->cleanup = 1;
			break;
		case 'd':
			a->spool = optarg;
			break;
		case 'g':
			errno = 0;
			a->grace = strtod(optarg, &end);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    !isfinite(a->grace) || a->grace < 0 ||
			    a->grace > 3600)
				log_fatal(EX_USAGE, "-g must be a number of "
				    "seconds from 0 to 3600, not '%.64s'",
				    optarg);
			break;
		case 'h':
			help = 1;
			break;
		case 'n':
			a->dry_run = 1;
			break;
		case 'R':
			a->allow_root = 1;
			break;
		case 'S':
			a->shadow = 1;
			break;
		case 'V':
			printf("bf-apply %s\n", BF_VERSION);
			exit(0);
		default:
			usage(EX_USAGE);
		}
	}
	if (help)
		cli_help(usage_text, help_opts, a->spool, CLI_HELP_SPOOL);
	if (argc - optind > 1 || (a->cleanup && argc - optind > 0))
		usage(EX_USAGE);
	if (optind < argc)
		a->plan = argv[optind];
}

static char *
read_plan(struct spool *sp, const char *path, const char **label,
    size_t *len)
{
	struct diag d;
	char *buf;
	int rc;

	if (path == NULL) {
		*label = "plans/current.yaml";
		rc = spool_dirfd(sp, SPOOL_PLANS, &d) < 0 ? -1 :
		    file_read_named(sp->dirs[SPOOL_PLANS], "current.yaml",
		    *label, HISTORY_MAX_FILE, FILE_NOFOLLOW, &buf, len, &d);
		if (rc < 0 && d.code == EX_NOINPUT)
			log_fatal(EX_NOINPUT, "unable to open "
			    "plans/current.yaml: no plan yet (run bf-solve)");
	} else if (strcmp(path, "-") == 0) {
		*label = "(stdin)";
		rc = file_read_fd(STDIN_FILENO, *label, HISTORY_MAX_FILE,
		    &buf, len, &d);
	} else {
		*label = path;
		rc = file_read_at(AT_FDCWD, path, HISTORY_MAX_FILE, 0, &buf,
		    len, &d);
	}
	if (rc < 0)
		log_diag_fatal(&d);
	return buf;
}

/*
 * --cleanup: every pilot job of the spool cancelled, each one printed;
 * Slurm's when no backend is named.
 */
static _Noreturn void
cleanup(struct spool *sp, const char *backend)
{
	struct backend b;
	struct diag d;
	char *text;

	if (spool_lock(sp, &d) < 0 || backend_open(&b, backend ? backend :
	    "slurm", sp, &d) < 0 || pilots_cleanup(&b, &text, &d) < 0)
		log_diag_fatal(&d);
	fputs(text, stdout);
	free(text);
	cli_finish_stdout();
	spool_close(sp);
	exit(0);
}

int
main(int argc, char **argv)
{
	struct args a = { .grace = 10 };
	struct apply_opts o = { 0 };
	struct apply_result r;
	struct backend b;
	struct spool sp;
	struct diag d;
	const char *label;
	size_t len, i;
	char *buf;
	int rc;

	log_init(argv[0]);
	options(argc, argv, &a);
	a.spool = cli_spool(a.spool, 0, &rc);
	if (spool_open(&sp, a.spool, 0, &d) < 0)
		log_diag_fatal(&d);
	if (a.cleanup)
		cleanup(&sp, a.backend);
	if ((!a.dry_run && spool_lock(&sp, &d) < 0) ||
	    backend_open(&b, a.shadow ? "shadow" : a.backend ? a.backend :
	    "local", &sp, &d) < 0)
		log_diag_fatal(&d);
	if (a.shadow)	/* decided and recorded, nothing enacted */
		snprintf(b.shadowing, sizeof b.shadowing, "%s", a.backend ?
		    a.backend : "local");
	b.grace = a.grace;
	b.allow_root = a.allow_root;
	b.dry_run = a.dry_run;
	buf = read_plan(&sp, a.plan, &label, &len);
	o.dry_run = a.dry_run;
	o.now = (long long)time(NULL);
	rc = apply_run(&sp, &b, label, buf, len, &o, &r, &d);
	for (i = 0; i < r.n; i++) {
		apply_print(stdout, &r.acts[i]);
		if (strcmp(r.acts[i].kind, "refused") == 0)
			log_warn("%s", r.acts[i].note);
	}
	cli_finish_stdout();
	if (rc < 0)
		log_diag_fatal(&d);
	free(buf);
	rc = r.refused ? EX_CONFIG : 0;
	apply_result_free(&r);
	backend_close(&b);
	spool_close(&sp);
	return rc;
}
