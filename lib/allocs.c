/*
 * NAME
 *	allocs - the node counts enacted plans gave each job, over time
 * DESCRIPTION
 *	See allocs.h.  Only names of the form DIGITS-16HEX.yaml are plans;
 *	the inputs manifests, models, objects and runs beside them are not.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocs.h"
#include "file.h"

#define ALLOCS_MAX_PLAN	(64 * 1024 * 1024)

static int
is_plan_name(const char *s)
{
	size_t digits = strspn(s, "0123456789"), hex;

	if (digits == 0 || s[digits] != '-')
		return 0;
	hex = strspn(s + digits + 1, "0123456789abcdef");
	return hex == 16 && strcmp(s + digits + 1 + hex, ".yaml") == 0;
}

static int
plan_cmp(const void *a, const void *b)
{
	const struct plan *x = a, *y = b;

	return (x->time > y->time) - (x->time < y->time);
}

static void
load_one(struct allocs *a, int fd, const char *name)
{
	char label[300], *buf;
	struct diag d;
	size_t len;

	snprintf(label, sizeof label, "history/%s", name);
	if (file_read_at(fd, name, ALLOCS_MAX_PLAN, FILE_NOFOLLOW, &buf, &len,
	    &d) < 0) {
		/* "NAME: not a regular file" names it by its place. */
		size_t n = strlen(name);
		int named = strncmp(d.text, name, n) == 0 && d.text[n] == ':';

		log_warn("%s%s (left out of the allocation history)",
		    named ? label : "", named ? d.text + n : d.text);
		return;
	}
	plan_init(&a->plans[a->n]);
	if (plan_parse(&a->plans[a->n], label, buf, len, &d) < 0)
		log_warn("%s (left out of the allocation history)", d.text);
	else
		a->n++;
	free(buf);
}

int
allocs_load(struct allocs *a, const struct spool *sp, struct diag *d)
{
	char **names;
	size_t count, i;

	memset(a, 0, sizeof *a);
	if (sp->dirs[SPOOL_HISTORY] < 0)
		return 0;
	if (spool_list(sp, SPOOL_HISTORY, &names, &count, d) < 0)
		return -1;
	a->plans = calloc(count + 1, sizeof *a->plans);
	if (a->plans == NULL) {
		spool_list_free(names, count);
		return diag_errno(d, ENOMEM, "unable to read history/");
	}
	for (i = 0; i < count; i++)
		if (is_plan_name(names[i]))
			load_one(a, sp->dirs[SPOOL_HISTORY], names[i]);
	spool_list_free(names, count);
	/* Names sort by time already; a stable order for equal times. */
	if (a->n > 1)
		qsort(a->plans, a->n, sizeof *a->plans, plan_cmp);
	return 0;
}

int
allocs_timeline(const struct allocs *a, const char *job,
    struct progress_alloc *t, struct diag *d)
{
	double *time = malloc((a->n + 1) * sizeof *time);
	long *nodes = malloc((a->n + 1) * sizeof *nodes);
	size_t i, k;

	if (time == NULL || nodes == NULL) {
		free(time);
		free(nodes);
		return diag_errno(d, ENOMEM, "unable to read history/");
	}
	for (i = 0; i < a->n; i++) {
		time[i] = (double)a->plans[i].time;
		nodes[i] = 0;
		for (k = 0; k < a->plans[i].njobs; k++)
			if (strcmp(a->plans[i].jobs[k].name, job) == 0)
				nodes[i] = a->plans[i].jobs[k].nodes;
	}
	t->n = a->n;
	t->time = time;
	t->nodes = nodes;
	return 0;
}

void
allocs_timeline_free(struct progress_alloc *t)
{
	free((void *)t->time);
	free((void *)t->nodes);
	t->time = NULL;
	t->nodes = NULL;
	t->n = 0;
}

void
allocs_free(struct allocs *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		plan_free(&a->plans[i]);
	free(a->plans);
	memset(a, 0, sizeof *a);
}
