/*
 * NAME
 *	bf-solve - holes, jobs and state into a plan, by a MILP solved by CBC
 * SYNOPSIS
 *	bf-solve [-s STATE] [--mps FILE] [OPTION ...] HOLES [JOBFILE ...]
 *	bf-solve -d SPOOL [OPTION ...]
 *	bf-solve -h | -V
 *	(OPTION: -T TFWD, -t LIMIT, --horizon HORIZON, --horizon-cap S,
 *	--lifetimes FILE, --model MODEL, --policy FILE, --profiles DIR,
 *	--solver SOLVER)
 * DESCRIPTION
 *	See bf-solve(1).  Options and files here; the decision is solve.c,
 *	and with -d the spool's inputs are inputs.c's and the decision
 *	decide.c's, the daemon's own.  With --horizon learnt and -d the
 *	spool's lifetimes are brought up to date first (lifetime.h).  The
 *	model is written (MPS) once solved, as solved: with the columns the
 *	solve fixed at 0.  The plan comes last, once everything succeeded,
 *	so a failure leaves no partial file.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/cli.h"
#include "util/fault.h"
#include "util/file.h"
#include "util/hash.h"
#include "util/log.h"
#include "util/version.h"

#include "solve/decide.h"
#include "solve/solve.h"
#include "spool/inputs.h"
#include "spool/lifetime.h"
#include "spool/plan.h"
#include "spool/spool.h"

#define SOLVE_MAX_FILE	(64 * 1024 * 1024)

struct args {
	const char *spool, *state, *mps, *policy, *profiles, *lifetimes;
	int spool_mode;
	struct solve_opts o;
};

static const char usage_text[] =
    "usage: bf-solve [-s STATE] [--mps FILE] [OPTION ...] HOLES "
    "[JOBFILE ...]\n"
    "       bf-solve -d SPOOL [OPTION ...]\n"
    "       bf-solve -h | -V\n";

static const struct cli_opt help_opts[] = {
	{ "--always-cbc",
	    "run CBC even where the DP's plan is proven optimal" },
	{ "-d SPOOL", "decide on the spool's inputs, write plans/ (below)" },
	{ "-h, --help", "print this help and exit" },
	{ "--horizon NAME", "fixed (-T, default) or learnt (until, else "
	    "the lifetimes)" },
	{ "--horizon-cap S", "learnt: each look-ahead at most S seconds "
	    "(none)" },
	{ "--lifetimes FILE", "the lifetimes file, with --horizon learnt "
	    "(not -d)" },
	{ "--model NAME", "compact (default), per-node or per-node-tight" },
	{ "--mps FILE", "write the model solved as MPS to FILE" },
	{ "--policy FILE", "the policy file, instead of SPOOL/policy.yaml" },
	{ "--probe", "profiled jobs only stop, stay or go to the advisor's "
	    "count, and no prior (the default: passive, the median prior)" },
	{ "--profiles DIR", "apply the fitted profiles of DIR" },
	{ "-s STATE", "what runs where now (default: nothing runs)" },
	{ "--solver NAME", "cbc (default) or dp, the exact dynamic program" },
	{ "-T TFWD", "the look-ahead of the objective, seconds (10)" },
	{ "-t LIMIT", "the decision's time limit, seconds (10)" },
	{ "-V", "print the version and exit" },
	{ "HOLES", "the holes file; JOBFILE: the jobs (bf-spool(5))" },
	{ NULL, NULL },
};

static _Noreturn void
usage(int code)
{
	fputs(usage_text, stderr);
	exit(code);
}

/* Read a whole file, "-" the standard input; exit on failure. */
static char *
slurp(int dirfd, const char *name, const char *label, size_t *len, int opt)
{
	struct diag d;
	char *buf;
	const char *p;
	int rc;

	if (strcmp(name, "-") == 0)
		rc = file_read_fd(STDIN_FILENO, "(stdin)", SOLVE_MAX_FILE,
		    &buf, len, &d);
	else
		rc = file_read_at(dirfd, name, SOLVE_MAX_FILE, FILE_NOFOLLOW *
		    (dirfd != AT_FDCWD), &buf, len, &d);
	if (rc == 0)
		return buf;
	if (opt && d.code == EX_NOINPUT)
		return NULL;
	if (strstr(d.text, label) != NULL)
		log_diag_fatal(&d);
	/* Name a spool file by its place in the spool, not its base name. */
	if ((p = strstr(d.text, name)) != NULL)
		log_fatal(d.code, "%.*s%s%s", (int)(p - d.text), d.text, label,
		    p + strlen(name));
	log_fatal(d.code, "%s: %s", label, d.text);
}

typedef int (*loader)(struct solve *, const char *, const char *, size_t,
    struct diag *);

/* Load one input; an optional one that does not exist is skipped. */
static void
load(struct solve *s, loader fn, int dirfd, const char *name,
    const char *label, int opt)
{
	struct diag d;
	size_t len;
	char *buf = slurp(dirfd, name, label, &len, opt);

	if (buf == NULL)
		return;
	if (fn(s, label, buf, len, &d) < 0)
		log_diag_fatal(&d);
	free(buf);
}

static int
load_job(struct solve *s, const char *label, const char *buf, size_t len,
    struct diag *d)
{
	return solve_job(s, label, buf, len, JOB_TRUSTED, d);
}

/* A job's profile, DIR/NAME.yaml, is applied when it exists. */
static void
load_profiles(struct solve *s, int dirfd, const char *prefix)
{
	char name[JOB_NAME_MAX + 8], label[PATH_MAX];
	size_t i, n = s->njobs;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "%s.yaml", s->jobs[i].job.name);
		snprintf(label, sizeof label, "%s/%s", prefix, name);
		load(s, solve_profile, dirfd, name, label, 1);
	}
}

/* A lifetimes file named on the command line (bf-spool(5)). */
static void
load_lifetimes(struct args *a, struct lifetime_table *t)
{
	struct diag d;
	size_t len;
	char *buf = slurp(AT_FDCWD, a->lifetimes, a->lifetimes, &len, 0);

	if (lifetime_table_parse(t, a->lifetimes, buf, len, &d) < 0)
		log_diag_fatal(&d);
	free(buf);
	a->o.life = t;
}

static void
solve_or_die(struct solve *s, const struct args *a)
{
	struct diag d;

	if (solve_prepare(s, &a->o, &d) < 0 || solve_run(s, &a->o, &d) < 0)
		log_diag_fatal(&d);
}

static void
finish(struct solve *s, const struct args *a, const char *mps, char **text,
    size_t *len)
{
	struct plan p;
	struct diag d;

	if (solve_plan(s, &a->o, mps, &p, &d) < 0)
		log_diag_fatal(&d);
	if ((*text = plan_format(&p, len)) == NULL)
		log_fatal(EX_OSERR, "out of memory");
	plan_free(&p);
}

static int
filter(struct solve *s, struct args *a, char **files, int nfiles)
{
	struct lifetime_table life;
	struct diag d;
	char *mps, *text;
	size_t len;
	int i;

	lifetime_table_init(&life);
	if (a->lifetimes != NULL)
		load_lifetimes(a, &life);
	load(s, solve_holes, AT_FDCWD, files[0], files[0], 0);
	for (i = 1; i < nfiles; i++)
		load(s, load_job, AT_FDCWD, files[i], files[i], 0);
	if (a->state != NULL)
		load(s, solve_state, AT_FDCWD, a->state, a->state, 0);
	if (a->policy != NULL)
		load(s, solve_policy, AT_FDCWD, a->policy, a->policy, 0);
	if (a->profiles != NULL) {
		int fd = open(a->profiles, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			log_fatal(EX_NOINPUT, "unable to open directory %s: %s",
			    a->profiles, strerror(errno));
		load_profiles(s, fd, a->profiles);
		close(fd);
	}
	solve_or_die(s, a);
	if (a->mps != NULL) {
		if ((mps = solve_mps(s, &a->o, &len, &d)) == NULL ||
		    file_write_path(a->mps, mps, len, 0644, &d) < 0)
			log_diag_fatal(&d);
		free(mps);
	}
	finish(s, a, a->mps, &text, &len);
	fwrite(text, 1, len, stdout);
	cli_finish_stdout();
	free(text);
	lifetime_table_free(&life);
	return 0;
}

/* The spool's inputs (inputs.h), decided as bf-watch decides (decide.h). */
static int
spooled(struct args *a)
{
	struct lifetime_table life;
	struct inputs in;
	struct spool sp;
	struct plan p;
	struct diag d;
	char *text;
	size_t len;

	int create;
	const char *path = cli_spool(a->spool, 0, &create);

	lifetime_table_init(&life);
	if (spool_open(&sp, path, 0, &d) < 0)
		log_diag_fatal(&d);
	if (a->o.horizon == SOLVE_HORIZON_LEARNT) {
		if (lifetime_spool_update(&sp, &life, &d) < 0)
			log_diag_fatal(&d);
		a->o.life = &life;
	}
	if (inputs_read(&in, &sp, INPUTS_WARN | (a->policy != NULL ?
	    INPUTS_NO_POLICY : 0), &d) < 0 ||
	    (a->policy != NULL && inputs_set_policy(&in, a->policy, &d) < 0) ||
	    decide_spool(&sp, &in, &a->o, NULL, &p, &text, &len, &d) < 0)
		log_diag_fatal(&d);
	plan_free(&p);
	free(text);
	inputs_free(&in);
	lifetime_table_free(&life);
	spool_close(&sp);
	return 0;
}

static void
choose(const char *opt, const char *v, const char *a, const char *b,
    int *out)
{
	if (strcmp(v, a) == 0)
		*out = 0;
	else if (strcmp(v, b) == 0)
		*out = 1;
	else
		log_fatal(EX_USAGE, "%s must be %s or %s, not '%.64s'", opt, a,
		    b, v);
}

static void
options(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
		{ "always-cbc", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ "horizon", required_argument, NULL, 'H' },
		{ "horizon-cap", required_argument, NULL, 'c' },
		{ "lifetimes", required_argument, NULL, 'L' },
		{ "model", required_argument, NULL, 'M' },
		{ "mps", required_argument, NULL, 'm' },
		{ "policy", required_argument, NULL, 'P' },
		{ "probe", no_argument, NULL, 'r' },
		{ "profiles", required_argument, NULL, 'p' },
		{ "solver", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	int c, v, help = 0;

	while ((c = getopt_long(argc, argv, "d:hs:T:t:V", longopts, NULL))
	    != -1) {
		switch (c) {
		case 'C':
			a->o.known = 0;
			break;
		case 'c':
			a->o.horizon_cap = cli_number("--horizon-cap", optarg,
			    1, SOLVE_HORIZON_MAX);
			break;
		case 'd':
			a->spool = optarg;
			a->spool_mode = 1;
			break;
		case 'H':
			choose("--horizon", optarg, "fixed", "learnt", &v);
			a->o.horizon = v ? SOLVE_HORIZON_LEARNT :
			    SOLVE_HORIZON_FIXED;
			break;
		case 'h':
			help = 1;
			break;
		case 'L':
			a->lifetimes = optarg;
			break;
		case 'M':
			if (strcmp(optarg, "per-node-tight") == 0) {
				a->o.model = SOLVE_PERNODE_TIGHT;
				break;
			}
			choose("--model", optarg, "compact", "per-node", &v);
			a->o.model = v ? SOLVE_PERNODE : SOLVE_COMPACT;
			break;
		case 'm':
			a->mps = optarg;
			break;
		case 'P':
			a->policy = optarg;
			break;
		case 'r':
			a->o.probe = 1;
			a->o.prior = 0;
			break;
		case 'p':
			a->profiles = optarg;
			break;
		case 'S':
			choose("--solver", optarg, "cbc", "dp", &v);
			a->o.solver = v ? SOLVE_DP : SOLVE_CBC;
			break;
		case 's':
			a->state = optarg;
			break;
		case 'T':
			a->o.tfwd = cli_number("-T", optarg, 0, 1e6);
			break;
		case 't':
			a->o.seconds = cli_number("-t", optarg, 0.001, 1e6);
			break;
		case 'V':
			printf("bf-solve %s\n", BF_VERSION);
			exit(0);
		default:
			usage(EX_USAGE);
		}
	}
	if (help)
		cli_help(usage_text, help_opts, a->spool, CLI_HELP_SPOOL);
}

int
main(int argc, char **argv)
{
	struct args a = { .o = SOLVE_OPTS_DEFAULT };
	struct solve s;
	int rc;

	log_init(argv[0]);
	options(argc, argv, &a);
	/* CBC's server, forked while this process is small (milp.h) */
	(void)milp_server_start();
	if (optind == argc)
		a.spool_mode = 1;
	if (a.spool_mode && (optind != argc || a.state || a.mps ||
	    a.profiles || a.lifetimes))
		usage(EX_USAGE);
	if (a.lifetimes != NULL && a.o.horizon != SOLVE_HORIZON_LEARNT)
		log_fatal(EX_USAGE, "--lifetimes is read with --horizon learnt "
		    "only");
	if (a.o.horizon_cap > 0 && a.o.horizon != SOLVE_HORIZON_LEARNT)
		log_fatal(EX_USAGE, "--horizon-cap needs --horizon learnt: -T "
		    "is the fixed horizon");
	if (!a.spool_mode && argc - optind < 1)
		usage(EX_USAGE);
	if (a.mps != NULL && strlen(a.mps) >= sizeof ((struct plan *)0)->mps)
		log_fatal(EX_USAGE, "--mps: a path of at most %zu bytes, as "
		    "the plan records it", sizeof ((struct plan *)0)->mps - 1);
	if (a.o.solver == SOLVE_DP && a.o.model != SOLVE_COMPACT)
		log_fatal(EX_USAGE, "--solver dp solves the compact model only");
	if (a.spool_mode)
		return spooled(&a);
	solve_init(&s);
	rc = filter(&s, &a, argv + optind, argc - optind);
	solve_free(&s);
	return rc;
}
