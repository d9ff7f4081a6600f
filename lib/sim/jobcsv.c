/*
 * NAME
 *	jobcsv - the job-set and scaling-curve CSV files that bf-sim replays
 * DESCRIPTION
 *	See jobcsv.h.  The file is read whole and split in place: a field
 *	is a pointer into the buffer, so a row costs no allocation.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/file.h"
#include "util/ydoc.h"

#include "sim/jobcsv.h"

#define CSV_MAX_FIELDS	64

/* Text from the file in a message: cut, and shown only where printable. */
static const char *
shown(const char *s, char *out, size_t outlen)
{
	ydoc_excerpt(s, out, outlen);
	return out;
}

struct csv {
	const char *label;
	char *buf, *p;
	size_t line;		/* of the row last read */
	size_t next_line;
	size_t nf;
	char *f[CSV_MAX_FIELDS];
};

/*
 * One field from *pp, unquoted in place; *pp is left after its comma.
 * 1 when a comma followed (another field comes), 0 at the end of the
 * line, -1 for an unterminated quote.
 */
static int
csv_field(char **pp, char **out)
{
	char *p = *pp, *w;

	if (*p != '"') {
		*out = p;
		p += strcspn(p, ",");
		*pp = p + (*p == ',');
		if (*p == '\0')
			return 0;
		*p = '\0';
		return 1;
	}
	*out = w = ++p;
	for (;;) {
		if (*p == '\0')
			return -1;
		if (*p == '"' && p[1] == '"') {
			*w++ = '"';
			p += 2;
		} else if (*p == '"') {
			p++;
			break;
		} else {
			*w++ = *p++;
		}
	}
	if (*p != ',' && *p != '\0')
		return -1;
	*w = '\0';
	*pp = p + (*p == ',');
	return *p == ',';
}

/* The next non-blank row: 1, 0 at the end, -1 with d set. */
static int
csv_row(struct csv *c, struct diag *d)
{
	char *end, *p;
	size_t len;
	int more;

	for (;;) {
		if (c->p == NULL || *c->p == '\0')
			return 0;
		c->line = c->next_line++;
		end = strchr(c->p, '\n');
		if (end != NULL)
			*end = '\0';
		p = c->p;
		c->p = end ? end + 1 : NULL;
		len = strlen(p);
		if (len > 0 && p[len - 1] == '\r')
			p[--len] = '\0';
		if (len > 0)
			break;
	}
	c->nf = 0;
	do {
		if (c->nf == CSV_MAX_FIELDS)
			return diag_set(d, EX_DATAERR, "%s:%zu: more than %d "
			    "fields", c->label, c->line, CSV_MAX_FIELDS);
		more = csv_field(&p, &c->f[c->nf++]);
		if (more < 0)
			return diag_set(d, EX_DATAERR, "%s:%zu: unterminated "
			    "quoted field", c->label, c->line);
	} while (more);
	return 1;
}

static int
csv_open(struct csv *c, const char *path, struct diag *d)
{
	size_t len;

	memset(c, 0, sizeof *c);
	c->label = path;
	c->next_line = 1;
	if (file_read_at(AT_FDCWD, path, JOBCSV_MAX_FILE, 0, &c->buf, &len,
	    d) < 0)
		return -1;
	if (memchr(c->buf, '\0', len) != NULL) {
		free(c->buf);
		return diag_set(d, EX_DATAERR, "%s: not a text file", path);
	}
	c->p = c->buf;
	/* A UTF-8 byte-order mark, as spreadsheets write it: as for YAML. */
	if (len >= 3 && memcmp(c->p, "\xef\xbb\xbf", 3) == 0)
		c->p += 3;
	return 0;
}

/* Column numbers of names[] in the header; optional ones may be -1. */
static int
csv_header(struct csv *c, const char *const *names, int *col, size_t n,
    size_t nrequired, struct diag *d)
{
	size_t i, f;
	int rc = csv_row(c, d);

	if (rc < 0)
		return -1;
	if (rc == 0)
		return diag_set(d, EX_DATAERR, "%s:1: empty file, no header",
		    c->label);
	for (i = 0; i < n; i++) {
		col[i] = -1;
		for (f = 0; f < c->nf; f++)
			if (strcmp(c->f[f], names[i]) == 0)
				col[i] = (int)f;
		if (col[i] < 0 && i < nrequired)
			return diag_set(d, EX_DATAERR, "%s:%zu: no column '%s' "
			    "in the header", c->label, c->line, names[i]);
	}
	return 0;
}

static const char *
field(const struct csv *c, int col)
{
	return col >= 0 && (size_t)col < c->nf ? c->f[col] : NULL;
}

static int
get_long(const struct csv *c, int col, const char *name, long long min,
    long long max, long long *v, struct diag *d)
{
	const char *s = field(c, col);
	char *end, buf[36];

	if (s == NULL)
		return diag_set(d, EX_DATAERR, "%s:%zu: no field %s",
		    c->label, c->line, name);
	errno = 0;
	*v = strtoll(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || *v < min || *v > max)
		return diag_set(d, EX_DATAERR, "%s:%zu: %s '%s' is not a "
		    "whole number from %lld to %lld", c->label, c->line, name,
		    shown(s, buf, sizeof buf), min, max);
	return 0;
}

static int
get_double(const struct csv *c, int col, const char *name, double min,
    double max, double *v, struct diag *d)
{
	const char *s = field(c, col);
	char *end, buf[36];

	if (s == NULL)
		return diag_set(d, EX_DATAERR, "%s:%zu: no field %s",
		    c->label, c->line, name);
	errno = 0;
	*v = strtod(s, &end);
	/* Decimal only: strtod() would take 0x10 too. */
	if (*s == '\0' || *end != '\0' || errno != 0 || !isfinite(*v) ||
	    *v < min || *v > max || strpbrk(s, "xX") != NULL)
		return diag_set(d, EX_DATAERR, "%s:%zu: %s '%s' is not a "
		    "number from %g to %g", c->label, c->line, name,
		    shown(s, buf, sizeof buf), min, max);
	return 0;
}

static int
get_word(const struct csv *c, int col, const char *name, char *out,
    size_t size, struct diag *d)
{
	const char *s = field(c, col);
	char buf[36];

	if (s == NULL || *s == '\0')
		return diag_set(d, EX_DATAERR, "%s:%zu: no %s", c->label,
		    c->line, name);
	if (strlen(s) >= size)
		return diag_set(d, EX_DATAERR, "%s:%zu: %s '%s' is "
		    "longer than %zu characters", c->label, c->line, name,
		    shown(s, buf, sizeof buf), size - 1);
	memcpy(out, s, strlen(s) + 1);
	return 0;
}

static struct jobcsv_curve *
curve_get(struct jobcsv_curves *cv, const char *model)
{
	struct jobcsv_curve *c;
	size_t i;

	for (i = 0; i < cv->n; i++)
		if (strcmp(cv->curves[i].model, model) == 0)
			return &cv->curves[i];
	if (cv->n == JOBCSV_MAX_MODELS) {
		errno = E2BIG;
		return NULL;
	}
	if ((c = array_grow(cv->curves, &cv->cap, cv->n + 1, sizeof *c,
	    16)) == NULL)
		return NULL;
	cv->curves = c;
	c = &cv->curves[cv->n++];
	memset(c, 0, sizeof *c);
	snprintf(c->model, sizeof c->model, "%s", model);
	return c;
}

static int
curve_add(struct jobcsv_curve *c, const struct csv *csv, long long nodes,
    double rate, struct diag *d)
{
	size_t i, at;

	for (at = 0; at < c->n && c->points[at].nodes < nodes; at++)
		;
	if (at < c->n && c->points[at].nodes == nodes)
		return diag_set(d, EX_DATAERR, "%s:%zu: a second rate for %s "
		    "at %lld nodes (line %zu)", csv->label, csv->line,
		    c->model, nodes, c->lines[at]);
	if (c->n == JOB_MAX_POINTS)
		return diag_set(d, EX_DATAERR, "%s:%zu: more than %d points "
		    "for %s", csv->label, csv->line, JOB_MAX_POINTS, c->model);
	if (c->n == c->cap) {
		/* Two arrays of one capacity: the second grows to the first's. */
		size_t cap = c->cap, lcap = c->cap;
		struct job_point *p = array_grow(c->points, &cap, c->n + 1,
		    sizeof *p, 8);
		size_t *l;
		if (p != NULL)
			c->points = p;
		l = p == NULL ? NULL : array_grow(c->lines, &lcap, cap,
		    sizeof *l, cap);
		if (p == NULL || l == NULL)
			return diag_errno(d, ENOMEM, "%s", csv->label);
		c->lines = l;
		c->cap = cap;
	}
	for (i = c->n; i > at; i--) {
		c->points[i] = c->points[i - 1];
		c->lines[i] = c->lines[i - 1];
	}
	c->points[at].nodes = (long)nodes;
	c->points[at].rate = rate;
	c->lines[at] = csv->line;
	c->n++;
	return 0;
}

int
jobcsv_curves_read(struct jobcsv_curves *cv, const char *path,
    const char *source, struct diag *d)
{
	static const char *const names[] = { "model", "nodes_or_gpus",
	    "throughput", "source" };
	char model[JOBCSV_MODEL_MAX];
	struct jobcsv_curve *c;
	struct csv csv;
	int col[4], rc;
	long long nodes;
	double rate;
	size_t rows = 0;

	memset(cv, 0, sizeof *cv);
	if (csv_open(&csv, path, d) < 0)
		return -1;
	rc = csv_header(&csv, names, col, 4, source ? 4 : 3, d);
	while (rc == 0 && (rc = csv_row(&csv, d)) > 0) {
		const char *src = field(&csv, col[3]);
		rc = 0;
		if (++rows > JOBCSV_MAX_CURVE_ROWS) {
			rc = diag_set(d, EX_DATAERR, "%s:%zu: more than %d rows",
			    path, csv.line, JOBCSV_MAX_CURVE_ROWS);
			break;
		}
		if (source != NULL && (src == NULL || strcmp(src, source)))
			continue;
		if (get_word(&csv, col[0], "model", model, sizeof model, d)
		    < 0 || get_long(&csv, col[1], "nodes_or_gpus", 1,
		    JOB_MAX_NODES, &nodes, d) < 0 || get_double(&csv, col[2],
		    "throughput", 1e-300, 1e300, &rate, d) < 0)
			rc = -1;
		else if ((c = curve_get(cv, model)) == NULL && errno == E2BIG)
			rc = diag_set(d, EX_DATAERR, "%s:%zu: more than %d "
			    "models", path, csv.line, JOBCSV_MAX_MODELS);
		else if (c == NULL)
			rc = diag_errno(d, ENOMEM, "%s", path);
		else
			rc = curve_add(c, &csv, nodes, rate, d);
	}
	free(csv.buf);
	if (rc < 0)
		jobcsv_curves_free(cv);
	return rc < 0 ? -1 : 0;
}

const struct jobcsv_curve *
jobcsv_curve_find(const struct jobcsv_curves *cv, const char *model)
{
	const struct jobcsv_curve *found = NULL;
	size_t i, len = strlen(model);

	for (i = 0; i < cv->n; i++)
		if (strcmp(cv->curves[i].model, model) == 0)
			return &cv->curves[i];
	for (i = 0; i < cv->n; i++)
		if (strncmp(cv->curves[i].model, model, len) == 0 &&
		    cv->curves[i].model[len] == '-') {
			if (found != NULL)
				return NULL;
			found = &cv->curves[i];
		}
	return found;
}

enum { J_NAME, J_MODEL, J_SUBMIT, J_MIN, J_MAX, J_SAMPLES, J_UP, J_DOWN,
	J_WEIGHT, J_DECLARED, J_OWNER, J_NCOLS };
#define J_REQUIRED	J_WEIGHT	/* the columns before it */

/* The curve a job file declares (column declared), "" for none. */
static int
declared_row(struct jobcsv_job *j, const struct csv *c, int col,
    const struct jobcsv_curves *cv, struct diag *d)
{
	const struct jobcsv_curve *curve;
	const char *s = field(c, col);
	char buf[68];

	if (s == NULL || *s == '\0')
		return 0;
	if ((curve = jobcsv_curve_find(cv, s)) == NULL)
		return diag_set(d, EX_DATAERR, "%s:%zu: no single curve for "
		    "declared model '%s'", c->label, c->line,
		    shown(s, buf, sizeof buf));
	j->declared = curve->points;
	j->ndeclared = curve->n;
	return 0;
}

static int
job_row(struct jobcsv_job *j, const struct csv *c, const int *col,
    const struct jobcsv_curves *cv, struct diag *d)
{
	const struct jobcsv_curve *curve;
	long long lo, hi, samples;
	char buf[68];

	memset(j, 0, sizeof *j);
	if (get_word(c, col[J_NAME], "name", j->job.name,
	    sizeof j->job.name, d) < 0)
		return -1;
	if (!job_name_valid(j->job.name))
		return diag_set(d, EX_DATAERR, "%s:%zu: name '%s' is not a "
		    "valid job name", c->label, c->line,
		    shown(j->job.name, buf, sizeof buf));
	if (get_word(c, col[J_MODEL], "model", j->model, sizeof j->model, d)
	    < 0 || get_double(c, col[J_SUBMIT], "submit_s", 0, 1e12,
	    &j->submit, d) < 0 || get_long(c, col[J_MIN], "min_nodes", 1,
	    JOB_MAX_NODES, &lo, d) < 0 || get_long(c, col[J_MAX],
	    "max_nodes", lo, JOB_MAX_NODES, &hi, d) < 0 ||
	    get_long(c, col[J_SAMPLES], "samples", 1, LLONG_MAX / 2,
	    &samples, d) < 0 || get_double(c, col[J_UP], "rescale_up_s", 0,
	    JOB_MAX_RESCALE, &j->job.rescale_up, d) < 0 ||
	    get_double(c, col[J_DOWN], "rescale_down_s", 0, JOB_MAX_RESCALE,
	    &j->job.rescale_down, d) < 0)
		return -1;
	j->job.weight = 1;
	if (col[J_WEIGHT] >= 0 && get_double(c, col[J_WEIGHT], "weight",
	    1e-9, 1e9, &j->job.weight, d) < 0)
		return -1;
	if ((curve = jobcsv_curve_find(cv, j->model)) == NULL)
		return diag_set(d, EX_DATAERR, "%s:%zu: no single curve for "
		    "model '%s'", c->label, c->line,
		    shown(j->model, buf, sizeof buf));
	if (declared_row(j, c, col[J_DECLARED], cv, d) < 0)
		return -1;
	j->job.min_nodes = (long)lo;
	j->job.max_nodes = (long)hi;
	j->job.samples = samples;
	j->job.points = curve->points;
	j->job.npoints = curve->n;
	j->job.slots_per_node = 1;
	j->job.owner_uid = -1;
	if (col[J_OWNER] >= 0 && field(c, col[J_OWNER]) != NULL &&
	    *field(c, col[J_OWNER]) != '\0' && get_long(c, col[J_OWNER],
	    "owner", 0, JOBCSV_MAX_UID, &j->job.owner_uid, d) < 0)
		return -1;
	j->job.line = c->line;
	return 0;
}

/* Submit order; ties in file order, so the sort is deterministic. */
static int
submit_cmp(const void *a, const void *b)
{
	const struct jobcsv_job *x = a, *y = b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return (x->job.line > y->job.line) - (x->job.line < y->job.line);
}

static const struct jobcsv_jobs *by_name_jobs;

static int
by_name(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(by_name_jobs->jobs[x].job.name,
	    by_name_jobs->jobs[y].job.name);

	return c != 0 ? c : (x > y) - (x < y);
}

/*
 * Every name once, in n log n through indices sorted by name.  Of the
 * names given twice, the one whose second row comes first in the file is
 * reported, as reading the file in order would find it.
 */
static int
check_unique(const struct jobcsv_jobs *js, const char *path, struct diag *d)
{
	size_t *idx = malloc(js->n * sizeof *idx), i, first = 0,
	    best = (size_t)-1, best_first = 0;

	if (idx == NULL)
		return diag_errno(d, ENOMEM, "%s", path);
	for (i = 0; i < js->n; i++)
		idx[i] = i;
	by_name_jobs = js;
	qsort(idx, js->n, sizeof *idx, by_name);
	for (i = 1; i < js->n; i++) {
		if (strcmp(js->jobs[idx[i]].job.name,
		    js->jobs[idx[i - 1]].job.name) != 0) {
			first = i;
			continue;
		}
		if (i == first + 1 && (best == (size_t)-1 || idx[i] < best)) {
			best = idx[i];
			best_first = idx[first];
		}
	}
	free(idx);
	if (best == (size_t)-1)
		return 0;
	return diag_set(d, EX_DATAERR, "%s:%zu: job name '%s' is also on "
	    "line %zu", path, js->jobs[best].job.line,
	    js->jobs[best].job.name, js->jobs[best_first].job.line);
}

int
jobcsv_jobs_read(struct jobcsv_jobs *js, const char *path,
    const struct jobcsv_curves *cv, struct diag *d)
{
	static const char *const names[J_NCOLS] = { "name", "model",
	    "submit_s", "min_nodes", "max_nodes", "samples", "rescale_up_s",
	    "rescale_down_s", "weight", "declared", "owner" };
	void *grown;
	struct csv csv;
	int col[J_NCOLS], rc;

	memset(js, 0, sizeof *js);
	if (csv_open(&csv, path, d) < 0)
		return -1;
	rc = csv_header(&csv, names, col, J_NCOLS, J_REQUIRED, d);
	while (rc == 0 && (rc = csv_row(&csv, d)) > 0) {
		if (js->n == JOBCSV_MAX_JOBS) {
			rc = diag_set(d, EX_DATAERR, "%s:%zu: more than %d jobs",
			    path, csv.line, JOBCSV_MAX_JOBS);
			break;
		}
		if ((grown = array_grow(js->jobs, &js->cap, js->n + 1,
		    sizeof *js->jobs, 16)) == NULL) {
			rc = diag_errno(d, ENOMEM, "%s", path);
			break;
		}
		js->jobs = grown;
		if ((rc = job_row(&js->jobs[js->n], &csv, col, cv, d)) == 0)
			js->n++;
	}
	free(csv.buf);
	if (rc == 0 && js->n > 1) {
		rc = check_unique(js, path, d);
		if (js->n > 1)
			qsort(js->jobs, js->n, sizeof *js->jobs, submit_cmp);
	}
	if (rc < 0)
		jobcsv_jobs_free(js);
	return rc < 0 ? -1 : 0;
}

void
jobcsv_curves_free(struct jobcsv_curves *cv)
{
	size_t i;

	for (i = 0; i < cv->n; i++) {
		free(cv->curves[i].points);
		free(cv->curves[i].lines);
	}
	free(cv->curves);
	memset(cv, 0, sizeof *cv);
}

void
jobcsv_jobs_free(struct jobcsv_jobs *js)
{
	free(js->jobs);
	memset(js, 0, sizeof *js);
}
