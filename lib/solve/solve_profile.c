/*
 * NAME
 *	solve_profile - bf-profile's measurements in bf-solve's decision
 * SYNOPSIS
 *	solve_profile(&s, "profiles/resnet18.yaml", buf, len, &d);
 *	solve_profiles_digest(&s, text);
 * DESCRIPTION
 *	A profile (bf-profile(1)) names its job.  Applying it to that job:
 *
 *	-  its curve (profile_curve()): measured points replace the job
 *	   file's declared rates at the same node counts, since a measurement
 *	   on this machine beats a number copied from elsewhere, and scale
 *	   the declared rates at the others (a declared curve is a shape
 *	   measured elsewhere: mixed unscaled with faster measurements it
 *	   would value more nodes below fewer and no probe would be made);
 *	   past the last known count the fitted law, capped by
 *	   linear scaling (the conservative guess of MalleTrain's advisor);
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile.h"
#include "solve/solve.h"

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
apply(struct solve_job *sj, const struct profile *p,
    enum profile_curve_rule rule, struct diag *d)
{
	struct job *j = &sj->job;
	struct job_point *pts;

	pts = calloc(j->npoints + p->npoints + PROFILE_LAW_POINTS,
	    sizeof *pts);
	if (pts == NULL)
		return diag_errno(d, ENOMEM, "%s", j->name);
	j->npoints = profile_curve(p, j->points, j->npoints, j->max_nodes,
	    rule, pts);
	free(j->points);
	j->points = pts;
	profile_rescale(p, j, &j->rescale_up, &j->rescale_down);
	sj->probe = p->next_nodes;
	sj->profiled = 1;
	/* the points are in ascending node counts (profile_parse()) */
	sj->measured = p->npoints > 0 && p->points[0].nodes > 0 ?
	    p->points[0].rate / (double)p->points[0].nodes : 0;
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
		rc = apply(sj, &p, s->curve_rule, d);
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
