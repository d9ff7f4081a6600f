/*
 * NAME
 *	simout - what bf-sim writes: the output directory and the comparison
 * DESCRIPTION
 *	See sim.h.  summary.yaml (sim_summary(), here), steps.csv, jobs.csv,
 *	fits.csv, the gnuplot script plot.gp and, when gnuplot is there, its
 *	SVG plots; and --compare's table of the summaries of several runs,
 *	whose rows are the keys sim_summary() writes.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "util/file.h"
#include "util/log.h"
#include "util/proc.h"
#include "util/ydoc.h"

#include "sim/sim.h"
#include "sim/simpolicy.h"

static int
dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
ratio(double a, double b)
{
	return b > 0 ? a / b : 0;
}

/*
 * Not fixed: the mode, the mean and median of the decisions' horizons,
 * and for learnt the holes learnt from and the decisions at -T.
 */
static int
horizons(const struct sim_opts *o, const struct sim_result *r, FILE *fp)
{
	double *v = malloc((r->events + 1) * sizeof *v), sum = 0, med = 0;
	size_t n = r->events, i;

	if (v == NULL)
		return -1;
	for (i = 0; i < n; i++)
		sum += v[i] = r->horizons[i];
	if (n > 1)
		qsort(v, n, sizeof *v, dbl_cmp);
	if (n > 0)
		med = (v[(n - 1) / 2] + v[n / 2]) / 2;
	free(v);
	fprintf(fp, "horizon: %s\n", simhorizon_name(o->horizon));
	if (o->horizon_cap > 0)
		fprintf(fp, "horizon_cap: %.6g\n", o->horizon_cap);
	if (o->horizon == SIMHORIZON_LEARNT) {
		fprintf(fp, "horizon_fallbacks: %zu\n", r->fallbacks);
		fprintf(fp, "horizon_holes: %zu\n", r->holes);
	}
	fprintf(fp, "horizon_seconds:\n  mean: %.3f\n  median: %.3f\n",
	    n > 0 ? sum / (double)n : 0, med);
	return 0;
}

int
sim_summary(const struct sim_opts *o, const struct sim_result *r,
    FILE *fp)
{
	double *v = malloc((r->events + 1) * sizeof *v);
	double med = 0, p99 = 0, max = 0;
	size_t n = r->events;

	if (v == NULL)
		return -1;
	if (n > 0) {
		memcpy(v, r->dsec, n * sizeof *v);
		if (n > 1)
			qsort(v, n, sizeof *v, dbl_cmp);
		med = (v[(n - 1) / 2] + v[n / 2]) / 2;
		p99 = v[(size_t)ceil(0.99 * (double)n) - 1];
		max = v[n - 1];
	}
	free(v);
	if (o->admin != NULL)
		fprintf(fp, "admin_policy: \"%s\"\n", o->admin_digest ?
		    o->admin_digest : "");
	fprintf(fp, "allocated_node_hours: %.3f\n", r->alloc_ns / 3600);
	fprintf(fp, "decision_seconds:\n  max: %.6f\n  median: %.6f\n"
	    "  p99: %.6f\n", max, med, p99);
	if (o->admin != NULL)
		fprintf(fp, "decisions_no_plan: %zu\ndecisions_not_optimal: "
		    "%zu\n", r->no_plan, r->not_optimal);
	fprintf(fp, "efficiency: %.6f\n", ratio(r->done, r->ideal));
	fprintf(fp, "end: %.3f\n", r->end);
	fprintf(fp, "events: %zu\n", r->events);
	fprintf(fp, "from: %lld\n", o->from);
	if (o->horizon != SIMHORIZON_FIXED && horizons(o, r, fp) < 0)
		return -1;
	fprintf(fp, "idle_node_hours: %.3f\n", r->idle_ns / 3600);
	fprintf(fp, "jobs: %zu\n", r->jobs);
	fprintf(fp, "jobs_admitted: %zu\n", r->admitted);
	fprintf(fp, "jobs_finished: %zu\n", r->finished);
	fprintf(fp, "max_jobs: %zu\n", o->max_jobs);
	fprintf(fp, "nodes: %zu\n", r->nodes);
	if (o->place_longest)
		fprintf(fp, "place: longest\n");
	fprintf(fp, "policy: %s\n", simpolicy_name(o->policy));
	fprintf(fp, "profile: %s%s\n", o->profile == SIM_ORACLE ? "oracle" :
	    o->profile == SIM_NONE ? "none" : o->voi ? (o->no_probe ?
	    "online-voi-no-probe" : "online-voi") :
	    o->passive ? "online-passive" : o->no_probe ?
	    "online-no-probe" : o->probe_contested ?
	    "online-probe-contested" : "online", o->profile == SIM_ONLINE &&
	    o->share ? "-shared" : "");
	if (o->profile == SIM_ONLINE) {
		fprintf(fp, "profile_fits: %zu\n", r->fits);
		fprintf(fp, "profile_noise: %.6g\n", o->noise);
		fprintf(fp, "profile_probes: %zu\n", r->probes);
		fprintf(fp, "profile_report_interval: %.6g\n",
		    o->report_every);
	}
	fprintf(fp, "replay_hours: %.3f\n", (r->end - (double)o->from) /
	    3600);
	if (o->stall)
		fprintf(fp, "rescale_cost: stall\n");
	fprintf(fp, "rescale_loss_samples: %.0f\n", r->loss);
	fprintf(fp, "rescales: %zu\n", r->rescales);
	fprintf(fp, "samples_done: %.0f\n", r->done);
	fprintf(fp, "samples_ideal: %.0f\n", r->ideal);
	fprintf(fp, "samples_per_idle_node_hour: %.3f\n", ratio(r->done,
	    r->idle_ns / 3600));
	fprintf(fp, "tfwd: %.6g\n", o->tfwd);
	fprintf(fp, "utilisation: %.6f\n", ratio(r->alloc_ns, r->idle_ns));
	return ferror(fp) ? -1 : 0;
}

static int
put(const char *dir, const char *name, const char *buf, size_t len,
    struct diag *d)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >=
	    sizeof path)
		return diag_set(d, EX_CANTCREAT, "%s/%s: name too long", dir,
		    name);
	return file_write_path(path, buf, len, 0644, d);
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
	static char *const argv[] = { "gnuplot", "plot.gp", NULL };
	struct proc p = { argv, dir, NULL, 0, PROC_NULL, PROC_INHERIT, NULL,
	    NULL };
	struct diag d;
	int st;

	if (proc_run(&p, &st, NULL, &d) < 0)
		log_warn("%s", d.text);
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		log_warn("gnuplot not found: no plots (cd %s && gnuplot "
		    "plot.gp makes them)", dir);
	else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		log_warn("gnuplot failed on %s/plot.gp", dir);
}

int
sim_write_outputs(const char *dir, const struct sim_opts *o,
    const struct sim_result *r, int with_plots, struct diag *d)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp;
	int rc;

	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		diag_errno(d, errno, "%s", dir);
		if (d->code != EX_TEMPFAIL)
			d->code = EX_CANTCREAT;
		return -1;
	}
	fp = open_memstream(&buf, &size);
	if (fp == NULL || sim_summary(o, r, fp) < 0 || fclose(fp) != 0) {
		free(buf);
		return diag_set(d, EX_OSERR, "out of memory");
	}
	rc = put(dir, "summary.yaml", buf, size, d);
	free(buf);
	if (rc < 0 || put(dir, "steps.csv", r->steps, r->steps_len, d) < 0 ||
	    put(dir, "jobs.csv", r->jobs_csv, r->jobs_len, d) < 0 ||
	    (r->fits_csv != NULL &&
	    put(dir, "fits.csv", r->fits_csv, r->fits_len, d) < 0))
		return -1;
	if ((buf = plot_script(o, r, &size)) == NULL)
		return diag_set(d, EX_OSERR, "out of memory");
	rc = put(dir, "plot.gp", buf, size, d);
	free(buf);
	if (rc == 0 && with_plots)
		plot(dir);
	return rc;
}

/*
 * --compare: the measures of several runs side by side; an optional one
 * only when a run has it (rescale_cost: --stall; admin_policy and the
 * decisions' counts: --admin-policy), so that a table of runs
 * without stays as it was.
 */
static const struct {
	const char *key, *sub;
	int optional;
} rows[] = {
	{ "policy", NULL, 0 }, { "admin_policy", NULL, 1 },
	{ "profile", NULL, 0 },
	{ "rescale_cost", NULL, 1 }, { "nodes", NULL, 0 },
	{ "replay_hours", NULL, 0 }, { "jobs_admitted", NULL, 0 },
	{ "jobs_finished", NULL, 0 }, { "idle_node_hours", NULL, 0 },
	{ "allocated_node_hours", NULL, 0 }, { "utilisation", NULL, 0 },
	{ "efficiency", NULL, 0 }, { "samples_per_idle_node_hour", NULL, 0 },
	{ "samples_done", NULL, 0 }, { "rescale_loss_samples", NULL, 0 },
	{ "rescales", NULL, 0 }, { "events", NULL, 0 },
	{ "decision_seconds", "median", 0 }, { "decision_seconds", "p99", 0 },
	{ "decision_seconds", "max", 0 },
	{ "decisions_not_optimal", NULL, 1 }, { "decisions_no_plan", NULL, 1 },
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

int
sim_compare(char *const *dirs, int n, FILE *out, struct diag *d)
{
	struct ydoc *docs = calloc((size_t)n, sizeof *docs);
	char **bufs = calloc((size_t)n, sizeof *bufs), path[PATH_MAX];
	size_t r, len;
	int i, loaded = 0, rc = 0;

	if (docs == NULL || bufs == NULL) {
		free(docs);
		free(bufs);
		return diag_set(d, EX_OSERR, "out of memory");
	}
	for (i = 0; i < n && rc == 0; i++) {
		snprintf(path, sizeof path, "%s/summary.yaml", dirs[i]);
		if (file_read_at(AT_FDCWD, path, 1 << 20, 0, &bufs[i], &len,
		    d) < 0 || ydoc_load(&docs[i], path, bufs[i], len, d) < 0)
			rc = -1;
		else if (loaded++, docs[i].root == NULL ||
		    docs[i].root->kind != YDOC_MAPPING)
			rc = diag_set(d, EX_DATAERR, "%s:1: not a bf-sim "
			    "summary", path);
	}
	if (rc < 0)
		goto out;
	fprintf(out, "| measure |");
	for (i = 0; i < n; i++)
		fprintf(out, " %s |", dirs[i]);
	fprintf(out, "\n| --- |");
	for (i = 0; i < n; i++)
		fprintf(out, " ---: |");
	putc('\n', out);
	for (r = 0; r < sizeof rows / sizeof rows[0]; r++) {
		for (i = 0; rows[r].optional && i < n &&
		    strcmp(lookup(&docs[i], rows[r].key, rows[r].sub), "-") ==
		    0; i++)
			;
		if (rows[r].optional && i == n)
			continue;	/* no run has it */
		fprintf(out, "| %s%s%s |", rows[r].key, rows[r].sub ? " " : "",
		    rows[r].sub ? rows[r].sub : "");
		for (i = 0; i < n; i++)
			fprintf(out, " %s |", lookup(&docs[i], rows[r].key,
			    rows[r].sub));
		putc('\n', out);
	}
out:
	for (i = 0; i < loaded; i++)
		ydoc_free(&docs[i]);
	for (i = 0; i < n; i++)
		free(bufs[i]);
	free(docs);
	free(bufs);
	return rc;
}
