/*
 * NAME
 *	solve_profile - bf-profile's measurements in bf-solve's decision
 * SYNOPSIS
 *	solve_profile(&s, "profiles/resnet18.yaml", buf, len, &d);
 *	solve_profiles_digest(&s, text);
 * DESCRIPTION
 *	A profile (bf-profile(1)) names its job.  Applying it to that job:
 *
 *	-  its measured points replace the job file's declared rates at the
 *	   same node counts and join them at the others, since a measurement
 *	   on this machine beats a number copied from elsewhere;
 *	-  with a fitted law, one more point every doubling beyond the last
 *	   measured count, up to max_nodes, at the lower of the law and
 *	   linear scaling from the last point: the law alone, fitted on a few
 *	   counts, may promise more than it will deliver (the conservative
 *	   guess of MalleTrain's advisor);
 *	-  measured rescale costs replace declared ones once they rest on two
 *	   observations (profile_rescale());
 *	-  while the advisor proposes a count to probe, the job may only stop,
 *	   stay, or go to that count (solve.c, make_choices()).
 *
 *	The profiles digest in the plan's inputs is XXH3-64 of the lines
 *	"NAME xxh3:HEX\n", one per applied profile in job name order, HEX the
 *	XXH3-64 of the profile's bytes; plans made without profiles have none.
 * DIAGNOSTICS
 *	"profiles/x.yaml:1: no job named 'x' to apply the profile to" (65),
 *	and profile_parse()'s own messages.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "solve.h"

static struct solve_job *
job_named(struct solve *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->njobs; i++)
		if (strcmp(s->jobs[i].job.name, name) == 0)
			return &s->jobs[i];
	return NULL;
}

static int
point_cmp(const void *a, const void *b)
{
	const struct job_point *x = a, *y = b;

	return (x->nodes > y->nodes) - (x->nodes < y->nodes);
}

/* Declared points at counts not measured, then every measured point. */
static size_t
merge(const struct job *j, const struct profile *p, struct job_point *out)
{
	size_t i, k, n = 0;

	for (i = 0; i < j->npoints; i++) {
		for (k = 0; k < p->npoints; k++)
			if (p->points[k].nodes == j->points[i].nodes)
				break;
		if (k == p->npoints)
			out[n++] = j->points[i];
	}
	for (k = 0; k < p->npoints; k++)
		out[n++] = p->points[k];
	if (n > 1)
		qsort(out, n, sizeof *out, point_cmp);
	return n;
}

static size_t
law_points(const struct job *j, const struct profile *p,
    const struct job_point *last, struct job_point *out)
{
	size_t n = 0;
	long c;

	if (!p->has_fit || last == NULL)
		return 0;
	for (c = 2 * last->nodes; c <= j->max_nodes && c > 0; c *= 2) {
		double law = profile_usl_rate(p, (double)c);
		double linear = last->rate * (double)c / (double)last->nodes;
		if (!isfinite(law) || law <= 0)
			break;
		out[n].nodes = c;
		out[n].rate = law < linear ? law : linear;
		n++;
	}
	return n;
}

static int
apply(struct solve_job *sj, const struct profile *p, struct diag *d)
{
	struct job *j = &sj->job;
	struct job_point *pts;
	size_t n, extra = 64;

	pts = calloc(j->npoints + p->npoints + extra, sizeof *pts);
	if (pts == NULL)
		return diag_errno(d, ENOMEM, "%s", j->name);
	n = merge(j, p, pts);
	/* Only past every known point: a declared curve beyond stays. */
	if (p->npoints > 0 && pts[n - 1].nodes ==
	    p->points[p->npoints - 1].nodes)
		n += law_points(j, p, &pts[n - 1], pts + n);
	if (n > 1)
		qsort(pts, n, sizeof *pts, point_cmp);
	free(j->points);
	j->points = pts;
	j->npoints = n;
	profile_rescale(p, j, &j->rescale_up, &j->rescale_down);
	sj->probe = p->next_nodes;
	sj->profiled = 1;
	return 0;
}

int
solve_profile(struct solve *s, const char *label, const char *buf,
    size_t len, struct diag *d)
{
	struct solve_job *sj;
	struct profile p;
	int rc;

	if (profile_parse(&p, label, buf, len, d) < 0)
		return -1;
	sj = job_named(s, p.name);
	if (sj == NULL) {
		rc = diag_set(d, EX_DATAERR, "%s:1: no job named '%s' to "
		    "apply the profile to", label, p.name);
	} else {
		rc = apply(sj, &p, d);
		sj->profile_digest = hash_buf(buf, len);
	}
	profile_free(&p);
	return rc;
}

void
solve_profiles_digest(const struct solve *s, char out[HASH_TEXT_LEN])
{
	char *buf = NULL, text[HASH_TEXT_LEN];
	size_t size = 0, i, used = 0;
	FILE *fp;

	out[0] = '\0';
	for (i = 0; i < s->njobs; i++)
		used += s->jobs[i].profiled != 0;
	if (used == 0 || (fp = open_memstream(&buf, &size)) == NULL)
		return;
	/* solve_prepare() has put the jobs in name order. */
	for (i = 0; i < s->njobs; i++) {
		if (!s->jobs[i].profiled)
			continue;
		hash_format(s->jobs[i].profile_digest, text);
		fprintf(fp, "%s %s\n", s->jobs[i].job.name, text);
	}
	if (fclose(fp) == 0)
		hash_format(hash_buf(buf, size), out);
	free(buf);
}
