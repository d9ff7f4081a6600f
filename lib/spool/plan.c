/*
 * NAME
 *	plan - the plan file: how many and which nodes each job gets
 * DESCRIPTION
 *	See plan.h.  The order of keys follows bf-spool(5) so that plans
 *	read the same to a person and diff cleanly.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fmt.h"
#include "util/hostlist.h"
#include "util/ydoc.h"

#include "spool/plan.h"

void
plan_init(struct plan *p)
{
	memset(p, 0, sizeof *p);
}

void
plan_free(struct plan *p)
{
	size_t i;

	for (i = 0; i < p->njobs; i++) {
		free(p->jobs[i].hosts);
		free(p->jobs[i].note);
		hostlist_free(&p->jobs[i].host_set);
	}
	free(p->jobs);
	free(p->free);
	plan_init(p);
}

static void
format_head(FILE *fp, const struct plan *p)
{
	char num[FMT_DOUBLE_LEN];

	fprintf(fp, "time: %lld\n", p->time);
	fprintf(fp, "inputs: {holes: \"%s\", jobs: \"%s\"", p->holes,
	    p->jobs_digest);
	if (p->policy[0] != '\0')
		fprintf(fp, ", policy: \"%s\"", p->policy);
	if (p->profiles[0] != '\0')
		fprintf(fp, ", profiles: \"%s\"", p->profiles);
	fprintf(fp, ", state: \"%s\"}\n", p->state);
	fputs("solver: {name: ", fp);
	fmt_yaml_word(fp, p->solver);
	fputs(", model: ", fp);
	fmt_yaml_word(fp, p->model);
	fputs(", status: ", fp);
	fmt_yaml_word(fp, p->status);
	fprintf(fp, ", objective: %s", fmt_double(p->objective, num));
	fprintf(fp, ", seconds: %.3f", p->seconds);
	fprintf(fp, ", tfwd: %s", fmt_double(p->tfwd, num));
	if (p->horizon[0] != '\0')
		fprintf(fp, ", horizon: %s", p->horizon);
	if (p->curve[0] != '\0')
		fprintf(fp, ", curve: %s", p->curve);
	if (p->profiling[0] != '\0')
		fprintf(fp, ", profiling: %s", p->profiling);
	if (p->mps[0] != '\0') {
		fputs(", mps: ", fp);
		fmt_yaml_word(fp, p->mps);
	}
	fputs("}\n", fp);
}

char *
plan_format(const struct plan *p, size_t *len)
{
	char *buf = NULL;
	size_t size = 0, i;
	FILE *fp = open_memstream(&buf, &size);

	if (fp == NULL)
		return NULL;
	format_head(fp, p);
	fputs(p->njobs ? "jobs:\n" : "jobs: {}\n", fp);
	for (i = 0; i < p->njobs; i++) {
		const struct plan_job *j = &p->jobs[i];
		fprintf(fp, "  %s: {nodes: %ld, was: %ld", j->name, j->nodes,
		    j->was);
		if (j->hosts != NULL) {
			fputs(", hosts: ", fp);
			fmt_yaml_string(fp, j->hosts);
		}
		if (j->note != NULL) {
			fputs(", note: ", fp);
			fmt_yaml_string(fp, j->note);
		}
		fputs("}\n", fp);
	}
	fputs("free: ", fp);
	fmt_yaml_string(fp, p->free ? p->free : "");
	fputc('\n', fp);
	if (ferror(fp) | fclose(fp)) {
		free(buf);
		return NULL;
	}
	*len = size;
	return buf;
}

static int
copy_string(const struct ydoc *doc, const struct ydoc_node *map,
    const char *key, char *out, size_t outlen, struct diag *d)
{
	const struct ydoc_node *v = ydoc_get(map, key);

	if (v == NULL)
		return 0;
	return ydoc_copy(doc, v, key, out, outlen, d);
}

/* An input digest is "xxh3:" and 16 hex digits, or absent. */
static int
copy_digest(const struct ydoc *doc, const struct ydoc_node *map,
    const char *key, char *out, size_t outlen, struct diag *d)
{
	const struct ydoc_node *v = ydoc_get(map, key);
	uint64_t h;

	if (copy_string(doc, map, key, out, outlen, d) < 0)
		return -1;
	if (v != NULL && hash_parse(out, &h) < 0)
		return diag_set(d, EX_DATAERR, "%s:%zu: inputs %s must be "
		    "xxh3: and 16 hex digits", doc->file, v->line, key);
	return 0;
}

static int
dup_string(const struct ydoc *doc, const struct ydoc_node *map,
    const char *key, char **out, struct diag *d)
{
	const struct ydoc_node *v = ydoc_get(map, key);
	const char *s;

	if (v == NULL)
		return 0;
	if (ydoc_string(doc, v, key, &s, d) < 0)
		return -1;
	if ((*out = strdup(s)) == NULL)
		return diag_errno(d, ENOMEM, "%s", doc->file);
	return 0;
}

/*
 * A job's hosts: a hostlist of exactly its nodes, all different, kept
 * sorted in host_set for whoever enacts the plan.
 */
static int
parse_hosts(struct plan_job *j, const struct ydoc *doc,
    const struct ydoc_node *h, struct diag *d)
{
	char err[256], shown[200];
	int nomem;

	if (j->hosts == NULL)
		return 0;
	if (hostlist_parse(&j->host_set, j->hosts, err, sizeof err) < 0) {
		nomem = errno == ENOMEM;
		hostlist_free(&j->host_set);
		ydoc_excerpt(err, shown, sizeof shown);
		return diag_set(d, nomem ? EX_OSERR : EX_DATAERR,
		    "%s:%zu: hosts of job %s: %s", doc->file, h->line,
		    j->name, shown);
	}
	hostlist_sort_uniq(&j->host_set);
	if (j->host_set.n != (size_t)j->nodes)
		return diag_set(d, EX_DATAERR, "%s:%zu: hosts of job %s name "
		    "%zu different nodes, not %ld", doc->file, h->line,
		    j->name, j->host_set.n, j->nodes);
	return 0;
}

static int
parse_job(struct plan_job *j, const struct ydoc *doc,
    const struct ydoc_node *k, const struct ydoc_node *v, struct diag *d)
{
	const struct ydoc_node *n = ydoc_get(v, "nodes");
	const struct ydoc_node *w = ydoc_get(v, "was");
	long long x;

	snprintf(j->name, sizeof j->name, "%s", k->value);
	if (!job_name_valid(k->value) || v->kind != YDOC_MAPPING ||
	    n == NULL || w == NULL)
		return diag_set(d, EX_DATAERR, "%s:%zu: a plan job needs a "
		    "name, nodes and was", doc->file, k->line);
	if (ydoc_long(doc, n, "nodes", 0, JOB_MAX_NODES, &x, d) < 0)
		return -1;
	j->nodes = (long)x;
	if (ydoc_long(doc, w, "was", 0, JOB_MAX_NODES, &x, d) < 0)
		return -1;
	j->was = (long)x;
	if (dup_string(doc, v, "hosts", &j->hosts, d) < 0 ||
	    dup_string(doc, v, "note", &j->note, d) < 0)
		return -1;
	return parse_hosts(j, doc, ydoc_get(v, "hosts"), d);
}

static int
parse_head(struct plan *p, const struct ydoc *doc, struct diag *d)
{
	const struct ydoc_node *root = doc->root, *v, *in, *sv;

	if ((v = ydoc_get(root, "time")) == NULL ||
	    (in = ydoc_get(root, "inputs")) == NULL ||
	    (sv = ydoc_get(root, "solver")) == NULL)
		return diag_set(d, EX_DATAERR, "%s:%zu: a plan needs time, "
		    "inputs and solver", doc->file, root->line);
	if (ydoc_get(in, "holes") == NULL || ydoc_get(in, "jobs") == NULL ||
	    ydoc_get(in, "state") == NULL)
		return diag_set(d, EX_DATAERR, "%s:%zu: inputs must give the "
		    "holes, jobs and state digests", doc->file, in->line);
	if (ydoc_long(doc, v, "time", 0, 1LL << 40, &p->time, d) < 0 ||
	    copy_digest(doc, in, "holes", p->holes, sizeof p->holes, d) < 0 ||
	    copy_digest(doc, in, "jobs", p->jobs_digest,
	    sizeof p->jobs_digest, d) < 0 ||
	    copy_digest(doc, in, "state", p->state, sizeof p->state, d) < 0 ||
	    copy_digest(doc, in, "policy", p->policy, sizeof p->policy, d) < 0 ||
	    copy_digest(doc, in, "profiles", p->profiles, sizeof p->profiles,
	    d) < 0 ||
	    copy_string(doc, sv, "name", p->solver, sizeof p->solver, d) < 0 ||
	    copy_string(doc, sv, "model", p->model, sizeof p->model, d) < 0 ||
	    copy_string(doc, sv, "status", p->status, sizeof p->status, d) < 0 ||
	    copy_string(doc, sv, "mps", p->mps, sizeof p->mps, d) < 0 ||
	    copy_string(doc, sv, "curve", p->curve, sizeof p->curve, d) < 0 ||
	    copy_string(doc, sv, "horizon", p->horizon, sizeof p->horizon,
	    d) < 0 || copy_string(doc, sv, "profiling", p->profiling,
	    sizeof p->profiling, d) < 0)
		return -1;
	if ((v = ydoc_get(sv, "curve")) != NULL &&
	    strcmp(p->curve, "scaled") != 0)
		return diag_set(d, EX_DATAERR, "%s:%zu: solver curve must be "
		    "scaled, not '%s'", doc->file, v->line, p->curve);
	if ((v = ydoc_get(sv, "profiling")) != NULL &&
	    strcmp(p->profiling, "probe") != 0 &&
	    strcmp(p->profiling, "passive") != 0)
		return diag_set(d, EX_DATAERR, "%s:%zu: solver profiling must "
		    "be probe or passive, not '%s'", doc->file, v->line,
		    p->profiling);
	if ((v = ydoc_get(sv, "objective")) != NULL && ydoc_double(doc, v,
	    "objective", -1e300, 1e300, &p->objective, d) < 0)
		return -1;
	if ((v = ydoc_get(sv, "seconds")) != NULL && ydoc_double(doc, v,
	    "seconds", 0, 1e9, &p->seconds, d) < 0)
		return -1;
	if ((v = ydoc_get(sv, "tfwd")) != NULL && ydoc_double(doc, v,
	    "tfwd", 0, 1e9, &p->tfwd, d) < 0)
		return -1;
	return 0;
}

static int
parse_root(struct plan *p, const struct ydoc *doc, struct diag *d)
{
	const struct ydoc_node *root = doc->root, *jobs;
	size_t i;

	if (root == NULL || root->kind != YDOC_MAPPING)
		return diag_set(d, EX_DATAERR, "%s:%zu: a plan must be a "
		    "mapping", doc->file, root ? root->line : 1);
	if (parse_head(p, doc, d) < 0 || dup_string(doc, root, "free",
	    &p->free, d) < 0)
		return -1;
	jobs = ydoc_get(root, "jobs");
	if (jobs == NULL || jobs->kind != YDOC_MAPPING)
		return diag_set(d, EX_DATAERR, "%s:%zu: jobs must be a "
		    "mapping", doc->file, jobs ? jobs->line : root->line);
	if ((p->jobs = calloc(jobs->n + 1, sizeof *p->jobs)) == NULL)
		return diag_errno(d, ENOMEM, "%s", doc->file);
	for (i = 0; i < jobs->n; i++) {
		p->njobs++;
		if (parse_job(&p->jobs[i], doc, jobs->items[2 * i],
		    jobs->items[2 * i + 1], d) < 0)
			return -1;
	}
	return 0;
}

int
plan_parse(struct plan *p, const char *file, const char *buf, size_t len,
    struct diag *d)
{
	struct ydoc doc;
	int rc;

	plan_init(p);
	if (ydoc_load(&doc, file, buf, len, d) < 0)
		return -1;
	rc = parse_root(p, &doc, d);
	ydoc_free(&doc);
	if (rc < 0)
		plan_free(p);
	return rc;
}
