/*
 * NAME
 *	bf-holes - scheduler state and real traces into holes files
 * SYNOPSIS
 *	bf-holes [-hV] [-d SPOOL] --swf FILE --at T
 *	bf-holes [-hV] [-d SPOOL] --idle-trace FILE [--epoch T0] --at T
 *	bf-holes --events --from T1 --to T2 (--swf FILE | --idle-trace FILE)
 *	bf-holes [-d SPOOL] --slurm [--own PART] [--sinfo CMD] [--squeue CMD]
 *	bf-holes [-d SPOOL] --pbs [--own QUEUE] [--pbsnodes CMD] [--qstat CMD]
 *	    [--pbs-rstat CMD]
 * DESCRIPTION
 *	See bf-holes(1).  Options, then one call of events(3), slurm(3) or
 *	pbs(3);
 *	the result goes out through holes_format() or the spool.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "util/hostlist.h"
#include "util/log.h"
#include "util/version.h"

#include "sched/events.h"
#include "sched/pbs.h"
#include "sched/slurm.h"
#include "sched/swf.h"
#include "spool/holes.h"
#include "spool/spool.h"

enum {
	OPT_AT = 256, OPT_EPOCH, OPT_EVENTS, OPT_FROM, OPT_IDLE_TRACE,
	OPT_OWN, OPT_PBS, OPT_PBS_RSTAT, OPT_PBSNODES, OPT_QSTAT, OPT_SINFO,
	OPT_SLURM, OPT_SQUEUE, OPT_SWF, OPT_TO
};

struct opts {
	const char *spool, *swf, *trace, *own, *sinfo, *squeue;
	const char *pbsnodes, *qstat, *rstat;
	long long at, epoch, from, to;
	int have_at, have_epoch, have_from, have_to, have_own, events, slurm;
	int pbs;
};

static const char usage_text[] =
    "usage: bf-holes [-hV] [-d SPOOL] --swf FILE --at T\n"
    "       bf-holes [-hV] [-d SPOOL] --idle-trace FILE [--epoch T0] --at T\n"
    "       bf-holes --events --from T1 --to T2 --swf FILE\n"
    "       bf-holes --events --from T1 --to T2 --idle-trace FILE "
    "[--epoch T0]\n"
    "       bf-holes [-d SPOOL] --slurm [--own PART] [--sinfo CMD] "
    "[--squeue CMD]\n"
    "       bf-holes [-d SPOOL] --pbs [--own QUEUE] [--pbsnodes CMD] "
    "[--qstat CMD]\n"
    "                [--pbs-rstat CMD]\n";

static const struct cli_opt help_opts[] = {
	{ "--at T", "the time of the holes file (unix seconds or ISO 8601)" },
	{ "-d SPOOL", "write SPOOL/holes/current.yaml, only on change" },
	{ "--epoch T0", "the unix time of a trace's t=0" },
	{ "--events", "print the event stream from --from T1 to --to T2" },
	{ "--from T1, --to T2", "the span of --events" },
	{ "-h, --help", "print this help and exit" },
	{ "--idle-trace FILE", "read an idle-node trace (t_s,node,idle)" },
	{ "--own PART|QUEUE", "bftrainer's own Slurm partition or PBS queue "
	    "(bf)" },
	{ "--pbs", "read the state of a live PBS" },
	{ "--pbsnodes CMD", "with --pbs: run CMD instead of pbsnodes" },
	{ "--pbs-rstat CMD", "with --pbs: run CMD instead of pbs_rstat" },
	{ "--qstat CMD", "with --pbs: run CMD instead of qstat" },
	{ "--sinfo CMD", "with --slurm: run CMD instead of sinfo" },
	{ "--slurm", "read the state of a live Slurm" },
	{ "--squeue CMD", "with --slurm: run CMD instead of squeue" },
	{ "--swf FILE", "read a Standard Workload Format job log" },
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
parse_opts(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "at", required_argument, NULL, OPT_AT },
		{ "epoch", required_argument, NULL, OPT_EPOCH },
		{ "events", no_argument, NULL, OPT_EVENTS },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "help", no_argument, NULL, 'h' },
		{ "idle-trace", required_argument, NULL, OPT_IDLE_TRACE },
		{ "own", required_argument, NULL, OPT_OWN },
		{ "pbs", no_argument, NULL, OPT_PBS },
		{ "pbs-rstat", required_argument, NULL, OPT_PBS_RSTAT },
		{ "pbsnodes", required_argument, NULL, OPT_PBSNODES },
		{ "qstat", required_argument, NULL, OPT_QSTAT },
		{ "sinfo", required_argument, NULL, OPT_SINFO },
		{ "slurm", no_argument, NULL, OPT_SLURM },
		{ "squeue", required_argument, NULL, OPT_SQUEUE },
		{ "swf", required_argument, NULL, OPT_SWF },
		{ "to", required_argument, NULL, OPT_TO },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, help = 0;

	memset(o, 0, sizeof *o);
	o->own = "bf";
	while ((c = getopt_long(argc, argv, "d:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o->spool = optarg;
			break;
		case 'h':
			help = 1;
			break;
		case 'V':
			printf("bf-holes %s\n", BF_VERSION);
			exit(0);
		case OPT_AT:
			o->at = cli_time("--at", optarg);
			o->have_at = 1;
			break;
		case OPT_EPOCH:
			o->epoch = cli_time("--epoch", optarg);
			o->have_epoch = 1;
			break;
		case OPT_EVENTS:
			o->events = 1;
			break;
		case OPT_FROM:
			o->from = cli_time("--from", optarg);
			o->have_from = 1;
			break;
		case OPT_IDLE_TRACE:
			o->trace = optarg;
			break;
		case OPT_OWN:
			o->own = optarg;
			o->have_own = 1;
			break;
		case OPT_PBS:
			o->pbs = 1;
			break;
		case OPT_PBS_RSTAT:
			o->rstat = optarg;
			break;
		case OPT_PBSNODES:
			o->pbsnodes = optarg;
			break;
		case OPT_QSTAT:
			o->qstat = optarg;
			break;
		case OPT_SINFO:
			o->sinfo = optarg;
			break;
		case OPT_SLURM:
			o->slurm = 1;
			break;
		case OPT_SQUEUE:
			o->squeue = optarg;
			break;
		case OPT_SWF:
			o->swf = optarg;
			break;
		case OPT_TO:
			o->to = cli_time("--to", optarg);
			o->have_to = 1;
			break;
		default:
			usage(EX_USAGE);
		}
	}
	if (help)
		cli_help(usage_text, help_opts, NULL, CLI_HELP_SPOOL_D);
	if (optind != argc)
		usage(EX_USAGE);
}

/* Exactly one source, and the times that source needs. */
static void
check_opts(const struct opts *o)
{
	if ((o->swf != NULL) + (o->trace != NULL) + o->slurm + o->pbs != 1)
		log_fatal(EX_USAGE, "give one source: --swf, --idle-trace, "
		    "--slurm or --pbs");
	if ((o->sinfo || o->squeue) && !o->slurm)
		log_fatal(EX_USAGE, "--sinfo and --squeue go with --slurm");
	if ((o->pbsnodes || o->qstat || o->rstat) && !o->pbs)
		log_fatal(EX_USAGE, "--pbsnodes, --qstat and --pbs-rstat go "
		    "with --pbs");
	if (o->slurm || o->pbs) {
		if (o->have_at || o->have_from || o->have_to || o->events)
			log_fatal(EX_USAGE, "--%s reads the state now; "
			    "--at, --from, --to and --events are for logs",
			    o->slurm ? "slurm" : "pbs");
		return;
	}
	if (o->have_own)
		log_fatal(EX_USAGE, "--own goes with --slurm or --pbs");
	if (o->have_epoch && o->trace == NULL)
		log_fatal(EX_USAGE, "--epoch goes with --idle-trace");
	if (o->events) {
		if (!o->have_from || !o->have_to || o->have_at)
			log_fatal(EX_USAGE, "--events needs --from and --to, "
			    "not --at");
		if (o->spool != NULL)
			log_fatal(EX_USAGE, "--events writes to standard "
			    "output, not into a spool");
		if (o->to < o->from)
			log_fatal(EX_USAGE, "--to is before --from");
		return;
	}
	if (!o->have_at || o->have_from || o->have_to)
		log_fatal(EX_USAGE, "give the time with --at T (or --events "
		    "--from T1 --to T2)");
}

static void
warn_swf(const struct swf *s)
{
	if (s->max_nodes == 0 && s->max_procs == 0 && s->njobs > 0)
		log_warn("%s: no MaxNodes or MaxProcs header: the machine is "
		    "taken to be %zu nodes, the largest job", s->label,
		    s->nnodes);
	else if (s->widest_line != 0)
		log_warn("%s:%zu: a job is larger than the machine's %lld "
		    "nodes: the machine is widened to %zu", s->label,
		    s->widest_line, s->max_nodes ? s->max_nodes : s->max_procs,
		    s->nnodes);
}

static struct events *
open_source(const struct opts *o)
{
	struct events *ev;
	struct diag d;
	int rc;

	diag_clear(&d);
	if (o->swf != NULL)
		rc = events_open_swf(&ev, o->swf, &d);
	else
		rc = events_open_trace(&ev, o->trace, o->epoch, &d);
	if (rc < 0)
		log_diag_fatal(&d);
	if (events_swf(ev) != NULL)
		warn_swf(events_swf(ev));
	return ev;
}

static void
warn_overfull(const struct events *ev)
{
	const struct swf *s = events_swf(ev);

	if (s != NULL && s->overfull > 0)
		log_warn("%s: %zu jobs started while the log ran more nodes "
		    "than the machine has; they got nodes as others ended",
		    s->label, s->overfull);
}

static void
print_list(FILE *fp, int sign, struct events *ev, const uint32_t *nodes,
    size_t n)
{
	struct hostlist hl;
	char *expr;
	size_t i;

	hostlist_init(&hl);
	for (i = 0; i < n; i++)
		if (hostlist_add(&hl, events_name(ev, nodes[i])) < 0)
			log_fatal(EX_OSERR, "out of memory");
	expr = hostlist_compress(&hl);
	if (expr == NULL)
		log_fatal(EX_OSERR, "out of memory");
	fprintf(fp, " %c%s", sign, expr);
	free(expr);
	hostlist_free(&hl);
}

static void
print_event(struct events *ev, const struct event *e)
{
	printf("%lld", e->time);
	print_list(stdout, '+', ev, e->join, e->njoin);
	print_list(stdout, '-', ev, e->leave, e->nleave);
	putchar('\n');
}

static int
run_events(const struct opts *o)
{
	struct events *ev = open_source(o);
	struct event e;
	struct diag d;
	int rc;

	diag_clear(&d);
	if ((rc = events_start(ev, o->from, &e, &d)) == 0) {
		print_event(ev, &e);
		while ((rc = events_next(ev, o->to, &e, &d)) > 0)
			print_event(ev, &e);
	}
	if (rc < 0) {
		events_close(ev);
		log_diag_fatal(&d);
	}
	warn_overfull(ev);
	events_close(ev);
	cli_finish_stdout();
	return 0;
}

static void
holes_at(const struct opts *o, struct holes *h)
{
	struct events *ev = open_source(o);
	struct event e;
	struct diag d;
	size_t i;

	diag_clear(&d);
	if (events_start(ev, o->at, &e, &d) < 0) {
		events_close(ev);
		log_diag_fatal(&d);
	}
	holes_init(h);
	h->time = o->at;
	snprintf(h->source, sizeof h->source, "%s:%s",
	    o->swf ? "swf" : "idle-trace", o->swf ? o->swf : o->trace);
	for (i = 0; i < e.njoin; i++)
		if (holes_add(h, events_name(ev, e.join[i]), 0) < 0)
			log_fatal(EX_OSERR, "out of memory");
	warn_overfull(ev);
	events_close(ev);
	if (holes_finish(h, h->source, &d) < 0) {
		holes_free(h);
		log_diag_fatal(&d);
	}
}

/* The same idle nodes and sources as h, whatever its time. */
static int
same_holes(const char *old, size_t oldlen, void *arg)
{
	const struct holes *h = arg;
	struct holes was;
	struct diag d;
	int same;

	diag_clear(&d);
	if (holes_parse(&was, "holes/current.yaml", old, oldlen, &d) < 0) {
		log_warn("%s; replacing it", d.text);
		return 0;
	}
	same = holes_digest(&was) == holes_digest(h);
	holes_free(&was);
	return same;
}

/* holes/current.yaml is replaced only when its content would change. */
static void
write_spool(const char *path, const struct holes *h, const char *text,
    size_t len)
{
	struct spool sp;
	struct diag d;
	int create;

	diag_clear(&d);
	path = cli_spool(path, CLI_SPOOL_CREATE_D, &create);
	if (spool_open(&sp, path, create ? SPOOL_CREATE : 0, &d) < 0)
		log_diag_fatal(&d);
	cli_spool_made();
	if (spool_replace(&sp, SPOOL_HOLES, "current.yaml", text, len,
	    HOLES_MAX_FILE, SPOOL_REPLACE_WARN, same_holes, (void *)h, &d) < 0)
		log_diag_fatal(&d);
	spool_close(&sp);
}

static int
run_slurm(const struct opts *o, struct holes *h)
{
	struct slurm_opts so;
	struct diag d;

	diag_clear(&d);
	memset(&so, 0, sizeof so);
	so.own = o->own;
	so.sinfo = o->sinfo;
	so.squeue = o->squeue;
	if (slurm_holes(&so, h, &d) < 0) {
		holes_free(h);
		log_diag_fatal(&d);
	}
	return 0;
}

static int
run_pbs(const struct opts *o, struct holes *h)
{
	struct pbs_opts po;
	struct diag d;

	diag_clear(&d);
	memset(&po, 0, sizeof po);
	po.own = o->own;
	po.pbsnodes = o->pbsnodes;
	po.qstat = o->qstat;
	po.rstat = o->rstat;
	if (pbs_holes(&po, h, &d) < 0) {
		holes_free(h);
		log_diag_fatal(&d);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct holes h;
	char *text;
	size_t len;

	log_init(argv[0]);
	parse_opts(&o, argc, argv);
	check_opts(&o);
	if (o.events)
		return run_events(&o);
	if (o.slurm)
		run_slurm(&o, &h);
	else if (o.pbs)
		run_pbs(&o, &h);
	else
		holes_at(&o, &h);
	text = holes_format(&h, &len);
	if (text == NULL)
		log_fatal(EX_OSERR, "out of memory");
	if (o.spool != NULL)
		write_spool(o.spool, &h, text, len);
	else {
		fwrite(text, 1, len, stdout);
		cli_finish_stdout();
	}
	free(text);
	holes_free(&h);
	return 0;
}
