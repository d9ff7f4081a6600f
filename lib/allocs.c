/*
 * NAME
 *	allocs - the node counts enacted plans gave jobs, over time
 * DESCRIPTION
 *	See allocs.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/file.h"

#include "allocs.h"
#include "history.h"
#include "plan.h"

#define ALLOCS_MAX_PLAN	(64 * 1024 * 1024)

static int
job_cmp(const void *a, const void *b)
{
	return strcmp(((const struct allocs_job *)a)->name,
	    ((const struct allocs_job *)b)->name);
}

static struct allocs_job *
find(const struct allocs *a, const char *name)
{
	struct allocs_job key;

	if (a->njobs == 0 || strlen(name) > JOB_NAME_MAX)
		return NULL;
	memcpy(key.name, name, strlen(name) + 1);
	return bsearch(&key, a->jobs, a->njobs, sizeof *a->jobs, job_cmp);
}

/* One more moment, when the count changes; a job starts at 0. */
static int
note(struct allocs_job *j, double time, long nodes)
{
	if (j->n == 0 ? nodes == 0 : j->nodes[j->n - 1] == nodes)
		return 0;
	if (j->n == j->cap) {
		size_t cap = j->cap ? 2 * j->cap : 8;
		double *t = realloc(j->time, cap * sizeof *t);
		long *k;

		if (t == NULL)
			return -1;
		j->time = t;
		if ((k = realloc(j->nodes, cap * sizeof *k)) == NULL)
			return -1;
		j->nodes = k;
		j->cap = cap;
	}
	j->time[j->n] = time;
	j->nodes[j->n++] = nodes;
	return 0;
}

/* The plan history/STEM.yaml, or a warning and 0 when it is damaged. */
static int
read_plan(int hfd, const char *stem, struct plan *p)
{
	char name[HISTORY_STEM_MAX + 8], label[HISTORY_STEM_MAX + 16], *buf;
	struct diag d;
	size_t len;
	int rc;

	snprintf(name, sizeof name, "%s.yaml", stem);
	snprintf(label, sizeof label, "history/%s", name);
	if (file_read_at(hfd, name, ALLOCS_MAX_PLAN, FILE_NOFOLLOW, &buf, &len,
	    &d) < 0) {
		diag_relabel(&d, name, label);
		log_warn("%s (left out of the allocation history)", d.text);
		return 0;
	}
	plan_init(p);
	rc = plan_parse(p, label, buf, len, &d) == 0;
	if (!rc)
		log_warn("%s (left out of the allocation history)", d.text);
	free(buf);
	return rc;
}

void
allocs_init(struct allocs *a)
{
	memset(a, 0, sizeof *a);
}

/* Every job asked about: its count in this plan, or 0. */
static int
note_plan(struct allocs *a, const struct plan *p, double enacted,
    size_t stamp)
{
	struct allocs_job *j;
	size_t m, k;

	for (m = 0; m < p->njobs; m++)
		if ((j = find(a, p->jobs[m].name)) != NULL) {
			j->stamp = stamp;
			if (note(j, enacted, p->jobs[m].nodes) < 0)
				return -1;
		}
	for (k = 0; k < a->njobs; k++)
		if (a->jobs[k].stamp != stamp && note(&a->jobs[k], enacted,
		    0) < 0)
			return -1;
	return 0;
}

int
allocs_load(struct allocs *a, const struct spool *sp, char *const *names,
    size_t nnames, struct diag *d)
{
	struct history_plan *plans;
	struct plan p;
	size_t nplans, i, k = 0;
	int hfd, rc = 0;

	allocs_free(a);
	if ((a->jobs = calloc(nnames + 1, sizeof *a->jobs)) == NULL)
		return diag_errno(d, ENOMEM, "unable to read history/");
	for (i = 0; i < nnames; i++)
		if (strlen(names[i]) <= JOB_NAME_MAX)
			memcpy(a->jobs[a->njobs++].name, names[i],
			    strlen(names[i]) + 1);
	if (a->njobs > 1)
		qsort(a->jobs, a->njobs, sizeof *a->jobs, job_cmp);
	for (i = 0; i < a->njobs; i++)	/* a name given twice, once */
		if (k == 0 || strcmp(a->jobs[k - 1].name, a->jobs[i].name))
			a->jobs[k++] = a->jobs[i];
	a->njobs = k;
	if (sp->dirs[SPOOL_HISTORY] < 0 || a->njobs == 0) {
		a->loaded = 1;
		return 0;
	}
	if ((hfd = spool_dirfd(sp, SPOOL_HISTORY, d)) < 0 ||
	    history_plans(sp, &plans, &nplans, d) < 0) {
		allocs_free(a);
		return -1;
	}
	for (i = 0; i < nplans && rc == 0; i++) {
		if (!read_plan(hfd, plans[i].stem, &p))
			continue;
		if (p.time != plans[i].time)
			log_warn("history/%s.yaml: time %lld is not the time "
			    "in its name (left out of the allocation history)",
			    plans[i].stem, p.time);
		else
			rc = note_plan(a, &p, plans[i].enacted, i + 1);
		plan_free(&p);
	}
	free(plans);
	if (rc < 0) {
		allocs_free(a);
		return diag_errno(d, ENOMEM, "unable to read history/");
	}
	a->loaded = 1;
	return 0;
}

void
allocs_timeline(const struct allocs *a, const char *job,
    struct progress_alloc *t)
{
	const struct allocs_job *j = find(a, job);

	t->n = j ? j->n : 0;
	t->time = j ? j->time : NULL;
	t->nodes = j ? j->nodes : NULL;
}

void
allocs_free(struct allocs *a)
{
	size_t i;

	for (i = 0; i < a->njobs; i++) {
		free(a->jobs[i].time);
		free(a->jobs[i].nodes);
	}
	free(a->jobs);
	memset(a, 0, sizeof *a);
}
