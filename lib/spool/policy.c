/*
 * NAME
 *	policy - the administrator's policy file: caps, weights, shares
 * DESCRIPTION
 *	See policy.h.  Each section is a mapping parsed by its own function;
 *	unknown keys are refused rather than ignored, since a misspelt cap
 *	silently not applied is worse than a refused file.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ydoc.h"

#include "spool/policy.h"

void
policy_init(struct policy *pol)
{
	memset(pol, 0, sizeof *pol);
	pol->max_rescales = -1;
}

void
policy_free(struct policy *pol)
{
	size_t i;

	for (i = 0; i < pol->ngroups; i++)
		free(pol->groups[i].jobs);
	free(pol->users);
	free(pol->jobs);
	free(pol->groups);
	policy_init(pol);
}

/* A misspelt key is refused: a cap silently not applied loosens a limit. */
static int
only_keys(const struct ydoc *doc, const struct ydoc_node *map,
    const char *const *keys, struct diag *d)
{
	struct ydoc_keys k = { doc, YDOC_KEYS_REFUSE, 0 };

	return ydoc_only_keys(&k, map, keys, d);
}

static int
weight_of(const struct ydoc *doc, const struct ydoc_node *v, double *w,
    struct diag *d)
{
	const struct ydoc_node *x = ydoc_get(v, "weight");

	*w = 1;
	return x == NULL ? 0 : ydoc_double(doc, x, "weight", 1e-6, 1e6, w, d);
}

static int
user_uid(const struct ydoc *doc, const struct ydoc_node *k, long long *uid,
    struct diag *d)
{
	struct passwd *pw;
	char *end;

	errno = 0;
	*uid = strtoll(k->value, &end, 10);
	if (k->len > 0 && *end == '\0' && errno == 0 && *uid >= 0)
		return 0;
	if ((pw = getpwnam(k->value)) == NULL) {
		char shown[68];
		ydoc_excerpt(k->value, shown, sizeof shown);
		return diag_set(d, EX_DATAERR, "%s:%zu: no such user '%s'",
		    doc->file, k->line, shown);
	}
	*uid = pw->pw_uid;
	return 0;
}

static int
parse_users(struct policy *pol, const struct ydoc *doc,
    const struct ydoc_node *map, struct diag *d)
{
	static const char *const keys[] = { "max_nodes", "weight", NULL };
	size_t i;

	if (map->kind != YDOC_MAPPING)
		return diag_set(d, EX_DATAERR, "%s:%zu: users must be a "
		    "mapping of user names or uids", doc->file, map->line);
	if ((pol->users = calloc(map->n + 1, sizeof *pol->users)) == NULL)
		return diag_errno(d, ENOMEM, "%s", doc->file);
	for (i = 0; i < map->n; i++) {
		const struct ydoc_node *k = map->items[2 * i];
		const struct ydoc_node *v = map->items[2 * i + 1];
		const struct ydoc_node *cap;
		struct policy_user *u = &pol->users[i];
		long long n = -1;
		if (only_keys(doc, v, keys, d) < 0 ||
		    user_uid(doc, k, &u->uid, d) < 0 ||
		    weight_of(doc, v, &u->weight, d) < 0)
			return -1;
		if ((cap = ydoc_get(v, "max_nodes")) != NULL &&
		    ydoc_long(doc, cap, "max_nodes", 0, JOB_MAX_NODES, &n,
		    d) < 0)
			return -1;
		u->max_nodes = (long)n;
		u->line = k->line;
		pol->nusers++;
	}
	return 0;
}

static int
parse_jobs(struct policy *pol, const struct ydoc *doc,
    const struct ydoc_node *map, struct diag *d)
{
	static const char *const keys[] = { "weight", NULL };
	size_t i;

	if (map->kind != YDOC_MAPPING)
		return diag_set(d, EX_DATAERR, "%s:%zu: jobs must be a "
		    "mapping of job names", doc->file, map->line);
	if ((pol->jobs = calloc(map->n + 1, sizeof *pol->jobs)) == NULL)
		return diag_errno(d, ENOMEM, "%s", doc->file);
	for (i = 0; i < map->n; i++) {
		const struct ydoc_node *k = map->items[2 * i];
		struct policy_job *pj = &pol->jobs[i];
		if (!job_name_valid(k->value)) {
			char shown[68];
			ydoc_excerpt(k->value, shown, sizeof shown);
			return diag_set(d, EX_DATAERR, "%s:%zu: bad job name "
			    "'%s'", doc->file, k->line, shown);
		}
		snprintf(pj->name, sizeof pj->name, "%s", k->value);
		if (only_keys(doc, map->items[2 * i + 1], keys, d) < 0 ||
		    weight_of(doc, map->items[2 * i + 1], &pj->weight, d) < 0)
			return -1;
		pol->njobs++;
	}
	return 0;
}

static int
parse_group(struct policy_group *g, const struct ydoc *doc,
    const struct ydoc_node *k, const struct ydoc_node *v, struct diag *d)
{
	static const char *const keys[] = { "jobs", "min_nodes", NULL };
	const struct ydoc_node *jobs, *min;
	long long n;
	size_t i;

	if (!job_name_valid(k->value)) {
		char shown[68];
		ydoc_excerpt(k->value, shown, sizeof shown);
		return diag_set(d, EX_DATAERR, "%s:%zu: bad group name '%s'",
		    doc->file, k->line, shown);
	}
	snprintf(g->name, sizeof g->name, "%s", k->value);
	g->line = k->line;
	if (only_keys(doc, v, keys, d) < 0)
		return -1;
	jobs = ydoc_get(v, "jobs");
	min = ydoc_get(v, "min_nodes");
	if (jobs == NULL || jobs->kind != YDOC_SEQUENCE || min == NULL)
		return diag_set(d, EX_DATAERR, "%s:%zu: group %s needs jobs "
		    "(a list) and min_nodes", doc->file, k->line, g->name);
	if (ydoc_long(doc, min, "min_nodes", 0, JOB_MAX_NODES, &n, d) < 0)
		return -1;
	g->min_nodes = (long)n;
	if ((g->jobs = calloc(jobs->n + 1, sizeof *g->jobs)) == NULL)
		return diag_errno(d, ENOMEM, "%s", doc->file);
	for (i = 0; i < jobs->n; i++) {
		const struct ydoc_node *x = jobs->items[i];
		if (x->kind != YDOC_SCALAR || !job_name_valid(x->value))
			return diag_set(d, EX_DATAERR, "%s:%zu: bad job name "
			    "in group %s", doc->file, x->line, g->name);
		snprintf(g->jobs[i], sizeof g->jobs[i], "%s", x->value);
		g->njobs++;
	}
	return 0;
}

static int
parse_groups(struct policy *pol, const struct ydoc *doc,
    const struct ydoc_node *map, struct diag *d)
{
	size_t i;

	if (map->kind != YDOC_MAPPING)
		return diag_set(d, EX_DATAERR, "%s:%zu: groups must be a "
		    "mapping of group names", doc->file, map->line);
	if ((pol->groups = calloc(map->n + 1, sizeof *pol->groups)) == NULL)
		return diag_errno(d, ENOMEM, "%s", doc->file);
	for (i = 0; i < map->n; i++) {
		pol->ngroups++;
		if (parse_group(&pol->groups[i], doc, map->items[2 * i],
		    map->items[2 * i + 1], d) < 0)
			return -1;
	}
	return 0;
}

static int
parse_root(struct policy *pol, const struct ydoc *doc, struct diag *d)
{
	static const char *const keys[] = { "users", "jobs", "groups",
	    "max_rescales", "max_rate_per_node", NULL };
	const struct ydoc_node *root = doc->root, *v;
	long long n;

	if (root == NULL)
		return 0;
	if (only_keys(doc, root, keys, d) < 0)
		return -1;
	if ((v = ydoc_get(root, "users")) != NULL &&
	    parse_users(pol, doc, v, d) < 0)
		return -1;
	if ((v = ydoc_get(root, "jobs")) != NULL &&
	    parse_jobs(pol, doc, v, d) < 0)
		return -1;
	if ((v = ydoc_get(root, "groups")) != NULL &&
	    parse_groups(pol, doc, v, d) < 0)
		return -1;
	if ((v = ydoc_get(root, "max_rescales")) != NULL) {
		if (ydoc_long(doc, v, "max_rescales", 0, JOB_MAX_NODES, &n,
		    d) < 0)
			return -1;
		pol->max_rescales = (long)n;
		pol->max_rescales_line = v->line;
	}
	/* Rates are users' claims (issue 33): the site may bound them. */
	if ((v = ydoc_get(root, "max_rate_per_node")) != NULL &&
	    ydoc_double(doc, v, "max_rate_per_node", 1e-6, 1e15,
	    &pol->max_rate_per_node, d) < 0)
		return -1;
	return 0;
}

int
policy_parse(struct policy *pol, const char *file, const char *buf,
    size_t len, struct diag *d)
{
	struct ydoc doc;
	int rc;

	policy_init(pol);
	snprintf(pol->file, sizeof pol->file, "%s", file);
	if (ydoc_load(&doc, file, buf, len, d) < 0)
		return -1;
	rc = parse_root(pol, &doc, d);
	ydoc_free(&doc);
	if (rc < 0)
		policy_free(pol);
	return rc;
}

const struct policy_user *
policy_user(const struct policy *pol, long long uid)
{
	size_t i;

	for (i = 0; i < pol->nusers; i++)
		if (pol->users[i].uid == uid)
			return &pol->users[i];
	return NULL;
}

double
policy_weight(const struct policy *pol, const char *job, long long uid)
{
	const struct policy_user *u = policy_user(pol, uid);
	double w = u ? u->weight : 1;
	size_t i;

	for (i = 0; i < pol->njobs; i++)
		if (strcmp(pol->jobs[i].name, job) == 0)
			w *= pol->jobs[i].weight;
	return w;
}

/* Whether the policy adds rows to the model (weights only do not). */
int
policy_constrains(const struct policy *pol)
{
	size_t i;

	for (i = 0; i < pol->nusers; i++)
		if (pol->users[i].max_nodes >= 0)
			return 1;
	return pol->ngroups > 0 || pol->max_rescales >= 0;
}
