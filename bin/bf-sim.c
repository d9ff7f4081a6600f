/*
 * NAME
 *	bf-sim - replay a real idle-node trace with malleable jobs, and measure
 * SYNOPSIS
 *	bf-sim --idle-trace FILE --jobs CSV --curves CSV -o DIR [OPTION ...]
 *	bf-sim --swf FILE --jobs CSV --curves CSV -o DIR [OPTION ...]
 *	bf-sim --compare DIR ...
 *	bf-sim -h | -V
 * DESCRIPTION
 *	See bf-sim(1).  Options, files and the table here; the replay is
 *	sim.c, the decisions simpolicy.c and solve.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/cli.h"
#include "util/file.h"
#include "util/log.h"
#include "util/version.h"
#include "util/ydoc.h"

#include "events.h"
#include "jobcsv.h"
#include "sim.h"

enum {
	OPT_COMPARE = 256, OPT_CURVES, OPT_CURVE_SOURCE, OPT_EPOCH, OPT_FROM,
	OPT_IDLE_TRACE, OPT_JOBS, OPT_MAX_JOBS, OPT_NO_PLOT, OPT_NO_PROBE,
	OPT_NODES, OPT_NOISE, OPT_POLICY, OPT_PROFILE, OPT_REPORT_INTERVAL,
	OPT_SHARE_FITS, OPT_SPOOL, OPT_SWF, OPT_TO
};

struct args {
	const char *trace, *swf, *jobs, *curves, *source, *out;
	int compare, no_plot, have_from;
	const char *online_opt;	/* an option that needs --profile online */
	struct sim_opts o;
};

static _Noreturn void
usage(int code)
{
	fprintf(code ? stderr : stdout,
	    "usage: bf-sim --idle-trace FILE --jobs CSV --curves CSV -o DIR "
	    "[OPTION ...]\n"
	    "       bf-sim --swf FILE --jobs CSV --curves CSV -o DIR "
	    "[OPTION ...]\n"
	    "       bf-sim --compare DIR ...\n"
	    "       bf-sim -h | -V\n");
	exit(code);
}

static void
long_opt(struct args *a, int c, const char *arg)
{
	switch (c) {
	case OPT_COMPARE: a->compare = 1; break;
	case OPT_CURVES: a->curves = arg; break;
	case OPT_CURVE_SOURCE: a->source = arg; break;
	case OPT_EPOCH: a->o.epoch = cli_time("--epoch", arg); break;
	case OPT_FROM:
		a->o.from = cli_time("--from", arg);
		a->have_from = 1;
		break;
	case OPT_IDLE_TRACE: a->trace = arg; break;
	case OPT_JOBS: a->jobs = arg; break;
	case OPT_MAX_JOBS:
		a->o.max_jobs = cli_count("--max-jobs", arg, 1, 100000);
		break;
	case OPT_NO_PLOT: a->no_plot = 1; break;
	case OPT_NO_PROBE:
		a->o.no_probe = 1;
		a->online_opt = "--no-probe";
		break;
	case OPT_NODES: a->o.nodes = cli_count("--nodes", arg, 1, 1e7); break;
	case OPT_NOISE:
		a->o.noise = cli_number("--noise", arg, 0, 1);
		a->online_opt = "--noise";
		break;
	case OPT_POLICY:
		if (simpolicy_parse(arg, &a->o.policy) < 0)
			log_fatal(EX_USAGE, "--policy: '%s' is not milp, dp, "
			    "per-node, equal-share or greedy", arg);
		break;
	case OPT_PROFILE:
		if (strcmp(arg, "oracle") == 0)
			a->o.profile = SIM_ORACLE;
		else if (strcmp(arg, "online") == 0)
			a->o.profile = SIM_ONLINE;
		else if (strcmp(arg, "none") == 0)
			a->o.profile = SIM_NONE;
		else
			log_fatal(EX_USAGE, "--profile: '%s' is not oracle, "
			    "online or none", arg);
		break;
	case OPT_REPORT_INTERVAL:
		a->o.report_every = cli_number("--report-interval", arg, 0.1,
		    3600);
		a->online_opt = "--report-interval";
		break;
	case OPT_SHARE_FITS:
		a->o.share = 1;
		a->online_opt = "--share-fits";
		break;
	case OPT_SPOOL: a->o.spool = arg; break;
	case OPT_SWF: a->swf = arg; break;
	case OPT_TO:
		a->o.to = cli_time("--to", arg);
		a->o.have_to = 1;
		break;
	default:
		usage(EX_USAGE);
	}
}

static void
options(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
		{ "compare", no_argument, NULL, OPT_COMPARE },
		{ "curve-source", required_argument, NULL, OPT_CURVE_SOURCE },
		{ "curves", required_argument, NULL, OPT_CURVES },
		{ "epoch", required_argument, NULL, OPT_EPOCH },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "help", no_argument, NULL, 'h' },
		{ "idle-trace", required_argument, NULL, OPT_IDLE_TRACE },
		{ "jobs", required_argument, NULL, OPT_JOBS },
		{ "max-jobs", required_argument, NULL, OPT_MAX_JOBS },
		{ "no-plot", no_argument, NULL, OPT_NO_PLOT },
		{ "no-probe", no_argument, NULL, OPT_NO_PROBE },
		{ "nodes", required_argument, NULL, OPT_NODES },
		{ "noise", required_argument, NULL, OPT_NOISE },
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "report-interval", required_argument, NULL,
		    OPT_REPORT_INTERVAL },
		{ "share-fits", no_argument, NULL, OPT_SHARE_FITS },
		{ "spool", required_argument, NULL, OPT_SPOOL },
		{ "swf", required_argument, NULL, OPT_SWF },
		{ "to", required_argument, NULL, OPT_TO },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "ho:T:t:V", longopts, NULL))
	    != -1) {
		switch (c) {
		case 'h':
			usage(0);
		case 'o':
			a->out = optarg;
			break;
		case 'T':
			a->o.tfwd = cli_number("-T", optarg, 0, 1e6);
			break;
		case 't':
			a->o.limit = cli_number("-t", optarg, 0.001, 1e6);
			break;
		case 'V':
			printf("bf-sim %s\n", BF_VERSION);
			exit(0);
		case '?':
			usage(EX_USAGE);
		default:
			long_opt(a, c, optarg);
		}
	}
}

static void
check_args(struct args *a, int argc)
{
	if (a->compare) {
		if (optind == argc || a->trace || a->swf || a->jobs ||
		    a->curves || a->out || a->o.spool)
			usage(EX_USAGE);
		return;
	}
	if (optind != argc || (a->trace != NULL) + (a->swf != NULL) != 1 ||
	    a->jobs == NULL || a->curves == NULL || a->out == NULL)
		usage(EX_USAGE);
	if (a->swf != NULL && !a->have_from)
		log_fatal(EX_USAGE, "--swf needs --from: an SWF log has no t=0");
	if (!a->have_from)
		a->o.from = a->o.epoch;
	if (a->o.have_to && a->o.to <= a->o.from)
		log_fatal(EX_USAGE, "--to is not after --from");
	if (a->online_opt != NULL && a->o.profile != SIM_ONLINE)
		log_fatal(EX_USAGE, "%s needs --profile online", a->online_opt);
}

/* The progress bar, on a terminal only. */
static void
bar(void *arg, double f)
{
	int *last = arg, pct = (int)(f * 100), i;

	if (pct > 100)
		pct = 100;
	if (pct == *last)
		return;
	*last = pct;
	fprintf(stderr, "\rbf-sim: [");
	for (i = 0; i < 40; i++)
		fputc(i < pct * 40 / 100 ? '#' : ' ', stderr);
	fprintf(stderr, "] %3d%%", pct);
}

static void
put(const char *dir, const char *name, const char *buf, size_t len)
{
	char path[PATH_MAX];
	struct diag d;

	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >=
	    sizeof path)
		log_fatal(EX_CANTCREAT, "%s/%s: name too long", dir, name);
	if (file_write_path(path, buf, len, 0644, &d) < 0)
		log_diag_fatal(&d);
}

/*
 * fits.svg: for the first SIM_FIT_JOBS jobs admitted that were fitted,
 * each measured rate over the true one against time, coloured by node
 * count, over the job's own span of fits: the curve learnt.
 */
static void
fits_plot(FILE *fp, const struct sim_result *r)
{
	size_t k, n = 0;

	for (k = 0; k < SIM_FIT_JOBS; k++)
		n += r->fit_n[k] > 0;
	fprintf(fp, "set output 'fits.svg'\n"
	    "set terminal svg size 900,%zu dynamic font 'sans,10'\n"
	    "unset logscale\nset autoscale\nset format y '%%g'\nset key off\n"
	    "set yrange [0:1.5]\nset cbrange [0:7]\n"
	    "set cblabel 'log2 nodes'\n"
	    "set xlabel 'hours since --from'\n"
	    "set ylabel 'measured / true'\n"
	    "set multiplot layout %zu,1\n", 220 * n, n);
	for (k = 0; k < SIM_FIT_JOBS; k++) {
		double a = r->fit_first[k] / 3600, b = r->fit_last[k] / 3600;
		if (r->fit_n[k] == 0)
			continue;
		fprintf(fp, "set xrange [%.6f:%.6f]\n"
		    "set title 'job %zu (admission order): each fit, the "
		    "measured rate over the true one at each count'\n"
		    "plot 'fits.csv' skip 1 using ($3 == %zu ? $1 / 3600 : "
		    "1/0):($5 / $6):(log($4) / log(2)) with points pt 7 "
		    "ps 0.5 lc palette, 1 lc rgb '#808080'\n", a,
		    b > a ? b : a + 0.01, k + 1, k + 1);
	}
	fprintf(fp, "unset multiplot\n");
}

/*
 * The gnuplot script, with names relative to DIR so that it can be run
 * again there by hand.  Columns: see steps.csv in bf-sim(1).
 */
static char *
plot_script(const struct sim_opts *o, const struct sim_result *r,
    size_t *len)
{
	char *buf = NULL;
	size_t size = 0, k;
	FILE *fp = open_memstream(&buf, &size);

	if (fp == NULL)
		return NULL;
	fprintf(fp, "# bf-sim plots: cd DIR && gnuplot plot.gp\n"
	    "set datafile separator ','\n"
	    "set terminal svg size 900,420 dynamic font 'sans,11'\n"
	    "set key outside right top\nset grid\n"
	    "set xlabel 'hours since --from'\n"
	    "set output 'nodes.svg'\n"
	    "set title 'idle nodes and nodes allocated to jobs (%s)'\n"
	    "set ylabel 'nodes'\n"
	    "plot 'steps.csv' skip 1 using ($1/3600):3 with fillsteps "
	    "fs solid 0.3 lc rgb '#808080' title 'idle', "
	    "'' skip 1 using ($1/3600):4 with steps lw 1.5 lc rgb '#0060c0' "
	    "title 'allocated'\n", simpolicy_name(o->policy));
	fprintf(fp, "set output 'jobs.svg'\n"
	    "set title 'nodes per running job, by slot (%s)'\n"
	    "plot ", simpolicy_name(o->policy));
	for (k = o->max_jobs; k > 0; k--) {
		size_t c;
		fprintf(fp, "'steps.csv' skip 1 using ($1/3600):(0");
		for (c = 1; c <= k; c++)
			fprintf(fp, "+$%zu", 8 + c);
		fprintf(fp, ") with fillsteps fs solid 0.8 title 'slot %zu'%s", k,
		    k > 1 ? ", \\\n    " : "\n");
	}
	fprintf(fp, "set output 'decisions.svg'\n"
	    "set title 'decision time per event (%s), sorted'\n"
	    "set xlabel 'fraction of events'\nset ylabel 'seconds'\n"
	    "set logscale y\nset format y '%%g'\nset key off\n"
	    "stats 'steps.csv' skip 1 using 8 nooutput\n"
	    "set yrange [1e-6:(STATS_max > 1e-5 ? STATS_max * 2 : 1e-4)]\n"
	    "plot '< tail -n +2 steps.csv | cut -d, -f8 | sort -g' "
	    "using ($0/STATS_records):($1 > 1e-6 ? $1 : 1e-6) with lines "
	    "lw 1.5\n", simpolicy_name(o->policy));
	if (o->profile == SIM_ONLINE && r->fits > 0)
		fits_plot(fp, r);
	if (ferror(fp) | fclose(fp)) {
		free(buf);
		return NULL;
	}
	*len = size;
	return buf;
}

/* gnuplot plot.gp in DIR, when gnuplot is there. */
static void
plot(const char *dir)
{
	pid_t pid;
	int st;

	if ((pid = fork()) < 0) {
		log_warn("unable to run gnuplot: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		if (chdir(dir) == 0)
			execlp("gnuplot", "gnuplot", "plot.gp", (char *)NULL);
		_exit(errno == ENOENT ? 127 : 126);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		log_warn("gnuplot not found: no plots (cd %s && gnuplot "
		    "plot.gp makes them)", dir);
	else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		log_warn("gnuplot failed on %s/plot.gp", dir);
}

static void
outputs(const struct args *a, const struct sim_result *r)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp;

	if (mkdir(a->out, 0777) < 0 && errno != EEXIST)
		log_fatal(diag_code_for_errno(errno) == EX_TEMPFAIL ?
		    EX_TEMPFAIL : EX_CANTCREAT, "%s: %s", a->out,
		    strerror(errno));
	fp = open_memstream(&buf, &size);
	if (fp == NULL || sim_summary(&a->o, r, fp) < 0 || fclose(fp) != 0)
		log_fatal(EX_OSERR, "out of memory");
	put(a->out, "summary.yaml", buf, size);
	free(buf);
	put(a->out, "steps.csv", r->steps, r->steps_len);
	put(a->out, "jobs.csv", r->jobs_csv, r->jobs_len);
	if (r->fits_csv != NULL)
		put(a->out, "fits.csv", r->fits_csv, r->fits_len);
	if ((buf = plot_script(&a->o, r, &size)) == NULL)
		log_fatal(EX_OSERR, "out of memory");
	put(a->out, "plot.gp", buf, size);
	free(buf);
	if (!a->no_plot)
		plot(a->out);
}

static struct events *
open_events(const struct args *a)
{
	struct events *ev;
	struct diag d;
	int rc = a->trace ? events_open_trace(&ev, a->trace, a->o.epoch, &d) :
	    events_open_swf(&ev, a->swf, &d);

	if (rc < 0)
		log_diag_fatal(&d);
	return ev;
}

static int
simulate(struct args *a)
{
	struct jobcsv_curves cv;
	struct jobcsv_jobs js;
	struct sim_result r;
	struct events *ev;
	struct diag d;
	int last = -1;

	if (jobcsv_curves_read(&cv, a->curves, a->source, &d) < 0)
		log_diag_fatal(&d);
	if (jobcsv_jobs_read(&js, a->jobs, &cv, &d) < 0) {
		jobcsv_curves_free(&cv);
		log_diag_fatal(&d);
	}
	ev = open_events(a);
	if (isatty(STDERR_FILENO)) {
		a->o.progress = bar;
		a->o.progress_arg = &last;
	}
	if (sim_run(&a->o, ev, &js, &r, &d) < 0) {
		if (last >= 0)
			fputc('\n', stderr);
		log_diag_fatal(&d);
	}
	if (last >= 0)
		fputc('\n', stderr);
	events_close(ev);
	outputs(a, &r);
	sim_result_free(&r);
	jobcsv_jobs_free(&js);
	jobcsv_curves_free(&cv);
	return 0;
}

/* --compare: the measures of several runs side by side. */
static const char *const rows[][2] = {
	{ "policy", NULL }, { "profile", NULL }, { "nodes", NULL },
	{ "replay_hours", NULL },
	{ "jobs_admitted", NULL },
	{ "jobs_finished", NULL }, { "idle_node_hours", NULL },
	{ "allocated_node_hours", NULL }, { "utilisation", NULL },
	{ "efficiency", NULL }, { "samples_per_idle_node_hour", NULL },
	{ "samples_done", NULL }, { "rescale_loss_samples", NULL },
	{ "rescales", NULL }, { "events", NULL },
	{ "decision_seconds", "median" }, { "decision_seconds", "p99" },
	{ "decision_seconds", "max" },
};

static const char *
lookup(const struct ydoc *doc, const char *key, const char *sub)
{
	const struct ydoc_node *v = doc->root ? ydoc_get(doc->root, key) :
	    NULL;

	if (v != NULL && sub != NULL)
		v = v->kind == YDOC_MAPPING ? ydoc_get(v, sub) : NULL;
	return v != NULL && v->kind == YDOC_SCALAR ? v->value : "-";
}

static int
compare(char **dirs, int n)
{
	struct ydoc *docs = calloc((size_t)n, sizeof *docs);
	char **bufs = calloc((size_t)n, sizeof *bufs), path[PATH_MAX];
	size_t r, len;
	struct diag d;
	int i;

	if (docs == NULL || bufs == NULL)
		log_fatal(EX_OSERR, "out of memory");
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/summary.yaml", dirs[i]);
		if (file_read_at(AT_FDCWD, path, 1 << 20, 0, &bufs[i], &len,
		    &d) < 0 || ydoc_load(&docs[i], path, bufs[i], len, &d) < 0)
			log_diag_fatal(&d);
		if (docs[i].root == NULL || docs[i].root->kind != YDOC_MAPPING)
			log_fatal(EX_DATAERR, "%s:1: not a bf-sim summary",
			    path);
	}
	printf("| measure |");
	for (i = 0; i < n; i++)
		printf(" %s |", dirs[i]);
	printf("\n| --- |");
	for (i = 0; i < n; i++)
		printf(" ---: |");
	putchar('\n');
	for (r = 0; r < sizeof rows / sizeof rows[0]; r++) {
		printf("| %s%s%s |", rows[r][0], rows[r][1] ? " " : "",
		    rows[r][1] ? rows[r][1] : "");
		for (i = 0; i < n; i++)
			printf(" %s |", lookup(&docs[i], rows[r][0],
			    rows[r][1]));
		putchar('\n');
	}
	for (i = 0; i < n; i++) {
		ydoc_free(&docs[i]);
		free(bufs[i]);
	}
	free(docs);
	free(bufs);
	cli_finish_stdout();
	return 0;
}

int
main(int argc, char **argv)
{
	struct args a;

	memset(&a, 0, sizeof a);
	a.o = (struct sim_opts)SIM_OPTS_DEFAULT;
	log_init(argv[0]);
	options(argc, argv, &a);
	check_args(&a, argc);
	if (a.compare)
		return compare(argv + optind, argc - optind);
	return simulate(&a);
}
