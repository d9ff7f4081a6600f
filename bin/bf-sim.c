/*
 * NAME
 *	bf-sim - replay a real idle-node trace with malleable jobs, and measure
 * SYNOPSIS
 *	bf-sim --idle-trace FILE --jobs CSV --curves CSV -o DIR [OPTION ...]
 *	bf-sim --swf FILE --jobs CSV --curves CSV -o DIR [OPTION ...]
 *	bf-sim --compare DIR ...
 *	bf-sim -h | -V
 * DESCRIPTION
 *	See bf-sim(1).  Options here; the replay is sim.c, the decisions
 *	simpolicy.c and solve.c, the output directory and --compare's
 *	table sim_out.c.
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
#include "util/file.h"
#include "util/hash.h"
#include "util/log.h"
#include "util/version.h"

#include "sched/events.h"
#include "sim/jobcsv.h"
#include "sim/sim.h"
#include "spool/policy.h"

enum {
	OPT_ADMIN_POLICY = 256, OPT_COMPARE, OPT_CURVES, OPT_CURVE_SOURCE, OPT_EPOCH, OPT_FROM,
	OPT_HORIZON, OPT_HORIZON_CAP, OPT_IDLE_TRACE, OPT_JOBS, OPT_MAX_JOBS,
	OPT_NO_PLOT,
	OPT_NO_PROBE, OPT_PROBE_CONTESTED,
	OPT_NODES, OPT_NOISE, OPT_PASSIVE, OPT_PLACE, OPT_POLICY, OPT_PROFILE,
	OPT_REPORT_INTERVAL, OPT_SHARE_FITS, OPT_SPOOL, OPT_STALL, OPT_SWF,
	OPT_TO, OPT_VOI
};

struct args {
	const char *trace, *swf, *jobs, *curves, *source, *out, *admin;
	int compare, no_plot, have_from, have_horizon;
	const char *online_opt;	/* an option that needs --profile online */
	struct sim_opts o;
};

static const char usage_text[] =
    "usage: bf-sim --idle-trace FILE --jobs CSV --curves CSV -o DIR "
    "[OPTION ...]\n"
    "       bf-sim --swf FILE --jobs CSV --curves CSV -o DIR "
    "[OPTION ...]\n"
    "       bf-sim --compare DIR ...\n"
    "       bf-sim -h | -V\n";

static const struct cli_opt help_opts[] = {
	{ "--admin-policy FILE", "decide under an admin's policy.yaml "
	    "(bf-solve(1)); owners: the jobs CSV's owner column" },
	{ "--compare DIR ...",
	    "print the measures of the replays side by side" },
	{ "--curve-source SRC",
	    "read only the curve rows whose source is SRC" },
	{ "--curves CSV", "the rate curves" },
	{ "--epoch T0", "the unix time of the trace's t=0 and of submit_s 0" },
	{ "--from T", "start there (required with --swf)" },
	{ "-h, --help", "print this help and exit" },
	{ "--horizon MODE", "the look-ahead per decision: fixed (-T, "
	    "default), learnt or clairvoyant" },
	{ "--horizon-cap S", "not fixed: each decision's look-ahead at most S "
	    "seconds" },
	{ "--idle-trace FILE", "replay an idle-node transition trace" },
	{ "--jobs CSV", "the job set" },
	{ "--max-jobs N", "at most N jobs run at once (10)" },
	{ "--no-plot", "write plot.gp but do not run gnuplot" },
	{ "--no-probe", "with --profile online: no restriction to the probe "
	    "(with --voi: no probe)" },
	{ "--nodes N", "replay only the first N nodes of the trace" },
	{ "--noise F", "with --profile online: a report's noise (0.01)" },
	{ "-o DIR", "write the results into DIR, made if missing" },
	{ "--passive", "with --profile online: bf-solve's live default (no "
	    "probe, the median prior, a measurement no event)" },
	{ "--place WHICH", "lowest (default) or longest: the free nodes "
	    "a grow takes" },
	{ "--policy P", "milp (default), dp, per-node, equal-share or greedy" },
	{ "--probe-contested", "with --profile online: probe only where "
	    "nodes are contested" },
	{ "--profile MODE", "oracle (default), online or none" },
	{ "--report-interval S", "with --profile online: seconds between "
	    "reports (10)" },
	{ "--share-fits",
	    "with --profile online: start from a like job's fit" },
	{ "--spool SPOOL", "also write the replay down as a spool, made if "
	    "missing" },
	{ "--stall", "a rescale stalls its job R seconds at the new count "
	    "(not R seconds of the old rate, repaid at the new)" },
	{ "--swf FILE", "replay an SWF job log" },
	{ "-T TFWD", "the look-ahead of the objective, seconds (10)" },
	{ "-t LIMIT", "each decision's time limit, seconds (10; bf-solve -t)" },
	{ "--to T", "end there" },
	{ "--voi", "with --profile online: an honest prior, passive "
	    "measurement, probes by value of information" },
	{ "-V, --version", "print the version and exit" },
	{ NULL, NULL },
};

static _Noreturn void
usage(int code)
{
	fputs(usage_text, stderr);
	exit(code);
}

static void
long_opt(struct args *a, int c, const char *arg)
{
	switch (c) {
	case OPT_ADMIN_POLICY: a->admin = arg; break;
	case OPT_COMPARE: a->compare = 1; break;
	case OPT_CURVES: a->curves = arg; break;
	case OPT_CURVE_SOURCE: a->source = arg; break;
	case OPT_EPOCH: a->o.epoch = cli_time("--epoch", arg); break;
	case OPT_FROM:
		a->o.from = cli_time("--from", arg);
		a->have_from = 1;
		break;
	case OPT_HORIZON:
		if (simhorizon_parse(arg, &a->o.horizon) < 0)
			log_fatal(EX_USAGE, "--horizon: '%s' is not fixed, "
			    "learnt or clairvoyant", arg);
		a->have_horizon = 1;
		break;
	case OPT_HORIZON_CAP:
		a->o.horizon_cap = cli_number("--horizon-cap", arg, 1, 1e9);
		a->have_horizon = 1;
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
	case OPT_PROBE_CONTESTED:
		a->o.probe_contested = 1;
		a->online_opt = "--probe-contested";
		break;
	case OPT_NODES: a->o.nodes = cli_count("--nodes", arg, 1, 1e7); break;
	case OPT_NOISE:
		a->o.noise = cli_number("--noise", arg, 0, 1);
		a->online_opt = "--noise";
		break;
	case OPT_PLACE:
		if (strcmp(arg, "longest") == 0)
			a->o.place_longest = 1;
		else if (strcmp(arg, "lowest") == 0)
			a->o.place_longest = 0;
		else
			log_fatal(EX_USAGE, "--place: '%s' is not lowest or "
			    "longest", arg);
		a->have_horizon = 1;
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
	case OPT_STALL: a->o.stall = 1; break;
	case OPT_PASSIVE:
		a->o.passive = 1;
		a->online_opt = "--passive";
		break;
	case OPT_VOI:
		a->o.voi = 1;
		a->online_opt = "--voi";
		break;
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
		{ "admin-policy", required_argument, NULL, OPT_ADMIN_POLICY },
		{ "compare", no_argument, NULL, OPT_COMPARE },
		{ "curve-source", required_argument, NULL, OPT_CURVE_SOURCE },
		{ "curves", required_argument, NULL, OPT_CURVES },
		{ "epoch", required_argument, NULL, OPT_EPOCH },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "help", no_argument, NULL, 'h' },
		{ "horizon", required_argument, NULL, OPT_HORIZON },
		{ "horizon-cap", required_argument, NULL, OPT_HORIZON_CAP },
		{ "idle-trace", required_argument, NULL, OPT_IDLE_TRACE },
		{ "jobs", required_argument, NULL, OPT_JOBS },
		{ "max-jobs", required_argument, NULL, OPT_MAX_JOBS },
		{ "no-plot", no_argument, NULL, OPT_NO_PLOT },
		{ "no-probe", no_argument, NULL, OPT_NO_PROBE },
		{ "probe-contested", no_argument, NULL, OPT_PROBE_CONTESTED },
		{ "nodes", required_argument, NULL, OPT_NODES },
		{ "noise", required_argument, NULL, OPT_NOISE },
		{ "place", required_argument, NULL, OPT_PLACE },
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "report-interval", required_argument, NULL,
		    OPT_REPORT_INTERVAL },
		{ "share-fits", no_argument, NULL, OPT_SHARE_FITS },
		{ "spool", required_argument, NULL, OPT_SPOOL },
		{ "stall", no_argument, NULL, OPT_STALL },
		{ "swf", required_argument, NULL, OPT_SWF },
		{ "to", required_argument, NULL, OPT_TO },
		{ "version", no_argument, NULL, 'V' },
		{ "voi", no_argument, NULL, OPT_VOI },
		{ "passive", no_argument, NULL, OPT_PASSIVE },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "ho:T:t:V", longopts, NULL))
	    != -1) {
		switch (c) {
		case 'h':
			cli_help(usage_text, help_opts, NULL, 0);
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
		    a->curves || a->out || a->o.spool || a->have_horizon ||
		    a->admin)
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
	if (a->o.place_longest && a->o.horizon == SIMHORIZON_FIXED)
		log_fatal(EX_USAGE, "--place longest needs --horizon learnt "
		    "or clairvoyant: fixed horizons know no node's time");
	if (a->o.horizon_cap > 0 && a->o.horizon == SIMHORIZON_FIXED)
		log_fatal(EX_USAGE, "--horizon-cap needs --horizon learnt or "
		    "clairvoyant: -T is the fixed horizon");
	if (a->online_opt != NULL && a->o.profile != SIM_ONLINE)
		log_fatal(EX_USAGE, "%s needs --profile online", a->online_opt);
	if (a->o.voi && (a->o.probe_contested || a->o.share))
		log_fatal(EX_USAGE, "--voi is not with --probe-contested "
		    "or --share-fits");
	if (a->o.passive && (a->o.voi || a->o.probe_contested || a->o.share))
		log_fatal(EX_USAGE, "--passive is not with --voi, "
		    "--probe-contested or --share-fits");
	/* the prior is bf-solve's: the other policies never see it */
	if (a->o.passive && (a->o.policy == SIMPOLICY_EQUAL ||
	    a->o.policy == SIMPOLICY_GREEDY))
		log_fatal(EX_USAGE, "--passive needs --policy milp, dp or "
		    "per-node: bf-solve's decision");
	/* as bf-solve: only CBC on the compact model takes a policy */
	if (a->admin != NULL && a->o.policy != SIMPOLICY_MILP)
		log_fatal(EX_USAGE, "--admin-policy needs --policy milp: the "
		    "others cannot take an admin's caps, shares or limits");
	if (a->admin != NULL && a->o.voi)
		log_fatal(EX_USAGE, "--admin-policy is not with --voi: its "
		    "estimates are the dynamic program's");
}

/* --admin-policy: read and checked as bf-solve reads --policy. */
static void
load_admin(const char *path, struct policy *pol, char *digest)
{
	struct diag d;
	char *buf;
	size_t len;

	if (file_read_at(AT_FDCWD, path, POLICY_MAX_FILE, 0, &buf, &len,
	    &d) < 0)
		log_diag_fatal(&d);
	policy_init(pol);
	if (policy_parse(pol, path, buf, len, &d) < 0) {
		free(buf);
		log_diag_fatal(&d);
	}
	hash_format(hash_buf(buf, len), digest);
	free(buf);
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
	struct policy admin;
	char digest[HASH_TEXT_LEN];
	int last = -1;

	/* CBC's server, forked while this process is small (milp.h) */
	(void)milp_server_start();
	if (a->admin != NULL) {
		load_admin(a->admin, &admin, digest);
		a->o.admin = &admin;
		a->o.admin_digest = digest;
	}

	if (jobcsv_curves_read(&cv, a->curves, a->source, &d) < 0)
		log_diag_fatal(&d);
	if (jobcsv_jobs_read(&js, a->jobs, &cv, &d) < 0) {
		jobcsv_curves_free(&cv);
		log_diag_fatal(&d);
	}
	ev = open_events(a);
	/* the true remaining idle times: the same log, read ahead */
	if (a->o.horizon == SIMHORIZON_CLAIRVOYANT)
		a->o.ahead = open_events(a);
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
	if (a->o.ahead != NULL)
		events_close(a->o.ahead);
	if (sim_write_outputs(a->out, &a->o, &r, !a->no_plot, &d) < 0)
		log_diag_fatal(&d);
	sim_result_free(&r);
	jobcsv_jobs_free(&js);
	jobcsv_curves_free(&cv);
	if (a->admin != NULL)
		policy_free(&admin);
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
	if (a.compare) {
		struct diag d;
		if (sim_compare(argv + optind, argc - optind, stdout, &d) < 0)
			log_diag_fatal(&d);
		cli_finish_stdout();
		return 0;
	}
	return simulate(&a);
}
