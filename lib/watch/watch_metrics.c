/*
 * NAME
 *	watch_metrics - bf-watch's figures for Prometheus, in a text file
 * DESCRIPTION
 *	See watch_int.h and bf-watch(1), METRICS.  The file is Prometheus's
 *	text exposition format (version 0.0.4), for node_exporter's textfile
 *	collector: written whole after each chain of passes to PATH.XXXXXX
 *	beside it (a name the collector does not read, *.prom only) and
 *	renamed over PATH, so that a scrape never sees half of it.  Metric
 *	names follow Prometheus's conventions: a bftrainer_ prefix, base
 *	units (seconds), _total for counters; the lines are in a fixed
 *	order, so that two files diff.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/version.h"

#include "solve/milp.h"

#include "watch/watch_int.h"

/* The upper bounds of the decision-time histogram, in seconds. */
static const double bounds[WATCH_METRICS_BUCKETS] = {
	0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10
};

static const char *const error_kinds[WATCH_ERROR_KINDS] = {
	"intake", "profile", "solve", "apply", "holes_cmd"
};

/* status: the plan's solver.status; not "optimal...": not proven so. */
void
watch_metrics_decision(struct watch_metrics *m, double seconds,
    const char *status)
{
	size_t i;

	if (strncmp(status, "optimal", 7) != 0)
		m->not_optimal++;
	for (i = 0; i < WATCH_METRICS_BUCKETS; i++)
		if (seconds <= bounds[i])
			m->bucket[i]++;
	m->decisions++;
	m->decision_sum += seconds;
}

static void
gauge(FILE *fp, const char *name, const char *help, double v)
{
	fprintf(fp, "# HELP %s %s\n# TYPE %s gauge\n%s %.17g\n", name, help,
	    name, name, v);
}

static void
write_all(FILE *fp, const struct watch_metrics *m)
{
	size_t i;

	fprintf(fp, "# HELP bftrainer_build_info bftrainer's version.\n"
	    "# TYPE bftrainer_build_info gauge\n"
	    "bftrainer_build_info{version=\"%s\"} 1\n", BF_VERSION);
	gauge(fp, "bftrainer_start_time_seconds", "When bf-watch started, "
	    "unix seconds.", (double)m->started);
	gauge(fp, "bftrainer_last_pass_timestamp_seconds", "When bf-watch "
	    "last ended a pass, unix seconds.", (double)m->last_pass);
	gauge(fp, "bftrainer_nodes_idle", "Idle nodes the holes file offers.",
	    (double)m->nodes_idle);
	gauge(fp, "bftrainer_nodes_held", "Nodes held by bftrainer's jobs.",
	    (double)m->nodes_held);
	gauge(fp, "bftrainer_nodes_free", "Idle nodes no job holds.",
	    (double)(m->nodes_idle > m->nodes_held ? m->nodes_idle -
	    m->nodes_held : 0));
	fprintf(fp, "# HELP bftrainer_jobs Jobs in the spool, by state.\n"
	    "# TYPE bftrainer_jobs gauge\n"
	    "bftrainer_jobs{state=\"running\"} %ld\n"
	    "bftrainer_jobs{state=\"waiting\"} %ld\n", m->jobs_running,
	    m->jobs_waiting);
	gauge(fp, "bftrainer_give_back", "1 while the plan in force is the "
	    "give-back plan: no plan can be made.", m->giving_back);
	fprintf(fp, "# HELP bftrainer_decision_seconds Time to make a "
	    "decision (inputs to plan).\n"
	    "# TYPE bftrainer_decision_seconds histogram\n");
	for (i = 0; i < WATCH_METRICS_BUCKETS; i++)
		fprintf(fp, "bftrainer_decision_seconds_bucket{le=\"%g\"} "
		    "%llu\n", bounds[i], m->bucket[i]);
	fprintf(fp, "bftrainer_decision_seconds_bucket{le=\"+Inf\"} %llu\n"
	    "bftrainer_decision_seconds_sum %.9f\n"
	    "bftrainer_decision_seconds_count %llu\n", m->decisions,
	    m->decision_sum, m->decisions);
	fprintf(fp, "# HELP bftrainer_decisions_total Decisions made, by "
	    "whether the plan is proven optimal.\n"
	    "# TYPE bftrainer_decisions_total counter\n"
	    "bftrainer_decisions_total{proof=\"optimal\"} %llu\n"
	    "bftrainer_decisions_total{proof=\"none\"} %llu\n",
	    m->decisions - m->not_optimal, m->not_optimal);
	fprintf(fp, "# HELP bftrainer_solver_kills_total CBC's processes "
	    "killed for running past their time limit.\n"
	    "# TYPE bftrainer_solver_kills_total counter\n"
	    "bftrainer_solver_kills_total %lu\n", milp_solver_kills());
	fprintf(fp, "# HELP bftrainer_actions_total Actions enacted.\n"
	    "# TYPE bftrainer_actions_total counter\n"
	    "bftrainer_actions_total %llu\n", m->actions);
	fprintf(fp, "# HELP bftrainer_errors_total Steps that failed, by "
	    "kind.\n# TYPE bftrainer_errors_total counter\n");
	for (i = 0; i < WATCH_ERROR_KINDS; i++)
		fprintf(fp, "bftrainer_errors_total{kind=\"%s\"} %llu\n",
		    error_kinds[i], m->errors[i]);
}

int
watch_metrics_write(const struct watch_metrics *m, const char *path,
    struct diag *d)
{
	char *tmp;
	FILE *fp;
	int fd, err;

	if (asprintf(&tmp, "%s.XXXXXX", path) < 0)
		return diag_errno(d, ENOMEM, "metrics");
	if ((fd = mkstemp(tmp)) < 0 || (fp = fdopen(fd, "w")) == NULL) {
		err = errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return diag_errno(d, err, "unable to write the metrics %s",
		    path);
	}
	write_all(fp, m);
	if (fchmod(fd, 0644) < 0 || ferror(fp) | fclose(fp) ||
	    rename(tmp, path) < 0) {
		err = errno ? errno : EIO;
		unlink(tmp);
		free(tmp);
		return diag_errno(d, err, "unable to write the metrics %s",
		    path);
	}
	free(tmp);
	return 0;
}
