/*
 * NAME
 *	profile_file - a profile as a file: profiles/NAME.yaml
 * DESCRIPTION
 *	See profile.h.  profile_format() writes the canonical text (sorted
 *	keys, fixed number formats); profile_parse() and profile_load() read
 *	it back, every value checked and named by file and line.  The
 *	measurement itself (segments, fits, the advice) is profile.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/file.h"
#include "util/fmt.h"
#include "util/ydoc.h"

#include "profile/profile.h"

char *
profile_format(const struct profile *p, size_t *lenp)
{
	char *text = NULL, a[FMT_DOUBLE_LEN], b[FMT_DOUBLE_LEN],
	    c[FMT_DOUBLE_LEN], e[FMT_DOUBLE_LEN];
	size_t len = 0, i;
	FILE *fp = open_memstream(&text, &len);

	if (fp == NULL)
		return NULL;
	if (p->next_nodes > 0) {
		fprintf(fp, "advise: {next_nodes: %ld, reason: ", p->next_nodes);
		fmt_yaml_string(fp, p->reason);
		fputs("}\n", fp);
	}
	if (p->has_fit)
		fprintf(fp, "fit: {counts: %d, kappa: %s, law: %s, r1: %s, "
		    "rmse: %s, sigma: %s}\n", p->fit_counts,
		    fmt_double(p->kappa, a), p->fit_usl ? "usl" : "amdahl",
		    fmt_double(p->r1, b), fmt_double(p->rmse, c),
		    fmt_double(p->sigma, e));
	fprintf(fp, "last_report: %lld\nname: ", p->last_report);
	fmt_yaml_word(fp, p->name);
	fputs(p->npoints ? "\npoints:\n" : "\npoints: {}\n", fp);
	for (i = 0; i < p->npoints; i++)
		fprintf(fp, "  %ld: %s\n", p->points[i].nodes,
		    fmt_double(p->points[i].rate, a));
	fputs("rescale: {", fp);
	if (p->down_obs > 0)
		fprintf(fp, "down: %s, ", fmt_double(p->rescale_down, a));
	fprintf(fp, "down_observations: %d, ", p->down_obs);
	if (p->up_obs > 0)
		fprintf(fp, "up: %s, ", fmt_double(p->rescale_up, a));
	fprintf(fp, "up_observations: %d}\nskipped_lines: %zu\n", p->up_obs,
	    p->skipped_lines);
	if (fclose(fp) != 0) {
		free(text);
		return NULL;
	}
	*lenp = len;
	return text;
}

struct parse {
	struct profile *p;
	const struct ydoc *doc;
	struct diag *d;
};

static int
get_count(struct parse *ps, const struct ydoc_node *v, const char *what,
    long long min, long long max, long long *out)
{
	if (v == NULL)
		return 0;
	return ydoc_long(ps->doc, v, what, min, max, out, ps->d);
}

static int
get_number(struct parse *ps, const struct ydoc_node *v, const char *what,
    double min, double max, double *out)
{
	if (v == NULL)
		return 0;
	return ydoc_double(ps->doc, v, what, min, max, out, ps->d);
}

static int
need_mapping(struct parse *ps, const struct ydoc_node *v, const char *what,
    const char *keys)
{
	if (v->kind == YDOC_MAPPING)
		return 0;
	return diag_set(ps->d, EX_DATAERR, "%s:%zu: %s must be a mapping "
	    "with %s", ps->doc->file, v->line, what, keys);
}

static int
get_advise(struct parse *ps, const struct ydoc_node *v)
{
	const struct ydoc_node *next = ydoc_get(v, "next_nodes");
	const struct ydoc_node *why = ydoc_get(v, "reason");
	long long n = 0;

	if (need_mapping(ps, v, "advise", "next_nodes and reason") < 0 ||
	    get_count(ps, next, "advise next_nodes", 1, JOB_MAX_NODES, &n) < 0)
		return -1;
	ps->p->next_nodes = (long)n;
	if (why != NULL) {
		if (ydoc_copy(ps->doc, why, "advise reason", ps->p->reason,
		    sizeof ps->p->reason, ps->d) < 0)
			return -1;
	}
	return 0;
}

static int
get_fit(struct parse *ps, const struct ydoc_node *v)
{
	struct profile *p = ps->p;
	const struct ydoc_node *lawv;
	long long counts = 0;
	const char *s;

	if (need_mapping(ps, v, "fit", "counts, kappa, law, r1, rmse and "
	    "sigma") < 0 ||
	    get_count(ps, ydoc_get(v, "counts"), "fit counts", 2,
	    JOB_MAX_POINTS, &counts) < 0 ||
	    get_number(ps, ydoc_get(v, "kappa"), "fit kappa", 0, 1,
	    &p->kappa) < 0 ||
	    get_number(ps, ydoc_get(v, "r1"), "fit r1", 0, 1e15, &p->r1) < 0 ||
	    get_number(ps, ydoc_get(v, "rmse"), "fit rmse", 0, 1e15,
	    &p->rmse) < 0 ||
	    get_number(ps, ydoc_get(v, "sigma"), "fit sigma", 0, 1,
	    &p->sigma) < 0)
		return -1;
	lawv = ydoc_get(v, "law");
	p->fit_usl = 1;
	if (lawv != NULL) {
		if (ydoc_string(ps->doc, lawv, "fit law", &s, ps->d) < 0)
			return -1;
		if (strcmp(s, "usl") != 0 && strcmp(s, "amdahl") != 0)
			return diag_set(ps->d, EX_DATAERR, "%s:%zu: fit law "
			    "must be usl or amdahl", ps->doc->file,
			    lawv->line);
		p->fit_usl = strcmp(s, "usl") == 0;
	}
	if (lawv == NULL || ydoc_get(v, "counts") == NULL ||
	    ydoc_get(v, "kappa") == NULL || ydoc_get(v, "r1") == NULL ||
	    ydoc_get(v, "rmse") == NULL || ydoc_get(v, "sigma") == NULL)
		return diag_set(ps->d, EX_DATAERR, "%s:%zu: fit needs counts, "
		    "kappa, law, r1, rmse and sigma", ps->doc->file, v->line);
	if (p->r1 <= 0)
		return diag_set(ps->d, EX_DATAERR, "%s:%zu: fit r1 must be "
		    "above 0", ps->doc->file, v->line);
	p->fit_counts = (int)counts;
	p->has_fit = 1;
	return 0;
}

static int
get_last_report(struct parse *ps, const struct ydoc_node *v)
{
	return get_count(ps, v, "last_report", 0, 1LL << 40,
	    &ps->p->last_report);
}

static int
get_name(struct parse *ps, const struct ydoc_node *v)
{
	const char *s;

	if (ydoc_string(ps->doc, v, "name", &s, ps->d) < 0)
		return -1;
	if (!job_name_valid(s))
		return diag_set(ps->d, EX_DATAERR, "%s:%zu: name is not a "
		    "valid job name", ps->doc->file, v->line);
	snprintf(ps->p->name, sizeof ps->p->name, "%s", s);
	return 0;
}

static int
get_points(struct parse *ps, const struct ydoc_node *v)
{
	struct profile *p = ps->p;
	size_t i;

	if (need_mapping(ps, v, "points", "node counts to samples per "
	    "second") < 0)
		return -1;
	if (v->n > JOB_MAX_POINTS)
		return diag_set(ps->d, EX_DATAERR, "%s:%zu: points has more "
		    "than %d entries", ps->doc->file, v->line, JOB_MAX_POINTS);
	free(p->points);
	p->npoints = 0;
	p->points = calloc(v->n + 1, sizeof *p->points);
	if (p->points == NULL)
		return diag_errno(ps->d, ENOMEM, "%s: unable to load",
		    ps->doc->file);
	for (i = 0; i < v->n; i++) {
		long long n;
		double r;
		if (ydoc_long(ps->doc, v->items[2 * i], "a point's node count",
		    1, JOB_MAX_NODES, &n, ps->d) < 0 ||
		    ydoc_double(ps->doc, v->items[2 * i + 1], "a point's rate",
		    0, 1e15, &r, ps->d) < 0)
			return -1;
		if (r <= 0 || (i > 0 && n <= p->points[i - 1].nodes))
			return diag_set(ps->d, EX_DATAERR, "%s:%zu: points must "
			    "ascend by node count, with rates above 0",
			    ps->doc->file, v->items[2 * i]->line);
		p->points[i].nodes = (long)n;
		p->points[i].rate = r;
		p->npoints++;
	}
	return 0;
}

static int
get_rescale(struct parse *ps, const struct ydoc_node *v)
{
	struct profile *p = ps->p;
	long long up = 0, down = 0;

	if (need_mapping(ps, v, "rescale", "down, down_observations, up and "
	    "up_observations") < 0 ||
	    get_number(ps, ydoc_get(v, "down"), "rescale down", 0,
	    JOB_MAX_RESCALE, &p->rescale_down) < 0 ||
	    get_number(ps, ydoc_get(v, "up"), "rescale up", 0,
	    JOB_MAX_RESCALE, &p->rescale_up) < 0 ||
	    get_count(ps, ydoc_get(v, "down_observations"),
	    "rescale down_observations", 0, 1000000000, &down) < 0 ||
	    get_count(ps, ydoc_get(v, "up_observations"),
	    "rescale up_observations", 0, 1000000000, &up) < 0)
		return -1;
	p->down_obs = (int)down;
	p->up_obs = (int)up;
	return 0;
}

static int
get_skipped(struct parse *ps, const struct ydoc_node *v)
{
	long long n;

	if (ydoc_long(ps->doc, v, "skipped_lines", 0, 1LL << 50, &n,
	    ps->d) < 0)
		return -1;
	ps->p->skipped_lines = (size_t)n;
	return 0;
}

typedef int key_handler(struct parse *, const struct ydoc_node *);

static const struct {
	const char *key;
	key_handler *get;
} schema[] = {
	{ "advise", get_advise },
	{ "fit", get_fit },
	{ "last_report", get_last_report },
	{ "name", get_name },
	{ "points", get_points },
	{ "rescale", get_rescale },
	{ "skipped_lines", get_skipped },
};

static int
apply_keys(struct parse *ps, const struct ydoc_node *root)
{
	size_t i, k;

	for (i = 0; i < root->n; i++)
		for (k = 0; k < sizeof schema / sizeof schema[0]; k++)
			if (strcmp(root->items[2 * i]->value,
			    schema[k].key) == 0 &&
			    schema[k].get(ps, root->items[2 * i + 1]) < 0)
				return -1;
	if (ydoc_get(root, "name") == NULL)
		return diag_set(ps->d, EX_DATAERR, "%s:%zu: name is missing",
		    ps->doc->file, root->line);
	return 0;
}

int
profile_parse(struct profile *p, const char *file, const char *buf,
    size_t len, struct diag *d)
{
	struct ydoc doc;
	struct parse ps = { p, &doc, d };
	int rc;

	memset(p, 0, sizeof *p);
	if (ydoc_load(&doc, file, buf, len, d) < 0)
		return -1;
	if (doc.root == NULL || doc.root->kind != YDOC_MAPPING)
		rc = diag_set(d, EX_DATAERR, "%s:%zu: a profile must be a "
		    "mapping with name and points", file,
		    doc.root ? doc.root->line : 1);
	else
		rc = apply_keys(&ps, doc.root);
	ydoc_free(&doc);
	if (rc < 0)
		profile_free(p);
	return rc;
}

int
profile_load(struct profile *p, int dirfd, const char *name,
    const char *label, struct diag *d)
{
	char *buf;
	size_t len;
	int rc;

	if (file_read_named(dirfd, name, label, PROFILE_MAX_FILE,
	    FILE_NOFOLLOW, &buf, &len, d) < 0)
		return -1;
	rc = profile_parse(p, label, buf, len, d);
	free(buf);
	return rc;
}

