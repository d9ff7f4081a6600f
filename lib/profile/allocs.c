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
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "util/array.h"
#include "util/file.h"

#include "profile/allocs.h"
#include "spool/history.h"
#include "spool/plan.h"

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
		/* Two arrays of one capacity: the second grows to the first's. */
		size_t cap = j->cap, kcap = j->cap;
		double *t = array_grow(j->time, &cap, j->n + 1, sizeof *t, 8);
		long *k;

		if (t == NULL)
			return -1;
		j->time = t;
		if ((k = array_grow(j->nodes, &kcap, cap, sizeof *k, cap)) ==
		    NULL)
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
	if (file_read_named(hfd, name, label, ALLOCS_MAX_PLAN, FILE_NOFOLLOW,
	    &buf, &len, &d) < 0) {
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

/* One line of history/allocs.idx, located; stem and tokens in buf. */
struct index_entry {
	double enacted;
	const char *stem;	/* HISTORY_STEM_MAX at most, NUL-ended */
	char *jobs;		/* " NAME=N ..." up to the line's NUL */
};

static int
by_enactment(const void *a, const void *b)
{
	const struct index_entry *x = a, *y = b;

	if (x->enacted != y->enacted)
		return x->enacted < y->enacted ? -1 : 1;
	return strcmp(x->stem, y->stem);
}

/*
 * history/NAME is a plan's copy: a regular file.  Anything else planted
 * there is left out as the full reading leaves it out, and said alike.
 */
static int
plan_there(int hfd, const char *name)
{
	struct stat st;

	if (fstatat(hfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;	/* a crash before the copy */
	if (S_ISREG(st.st_mode))
		return 1;
	log_warn("history/%s: %s (left out of the allocation history)", name,
	    S_ISLNK(st.st_mode) ? "is a symbolic link, not followed" :
	    "not a regular file");
	return 0;
}

/*
 * The counts of one line for the jobs asked about, others 0.  Only a line
 * that changes one is looked up in history/ (a line whose plan was never
 * copied, a crash's, is left out): one that changes none counts the same
 * whether it is left out or not.
 */
static int
note_line(struct allocs *a, int hfd, const struct index_entry *e,
    size_t stamp)
{
	char name[HISTORY_STEM_MAX + 8], *tok, *eq, *save = NULL;
	struct allocs_job *j;
	size_t k;
	long now, next;
	int changes = 0;

	for (tok = strtok_r(e->jobs, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save)) {
		if ((eq = strrchr(tok, '=')) == NULL)
			continue;
		*eq = '\0';
		if ((j = find(a, tok)) != NULL) {
			j->stamp = stamp;
			j->next = strtol(eq + 1, NULL, 10);
		}
	}
	for (k = 0; k < a->njobs && !changes; k++) {
		j = &a->jobs[k];
		now = j->n ? j->nodes[j->n - 1] : 0;
		next = j->stamp == stamp ? j->next : 0;
		changes = now != next;
	}
	snprintf(name, sizeof name, "%s.yaml", e->stem);
	if (!changes || !plan_there(hfd, name))
		return 0;
	for (k = 0; k < a->njobs; k++) {
		j = &a->jobs[k];
		if (note(j, e->enacted, j->stamp == stamp ? j->next : 0) < 0)
			return -1;
	}
	return 0;
}

/* Split the index into lines; the torn last one and bad ones left out. */
static struct index_entry *
index_lines(char *buf, size_t len, size_t *n)
{
	struct index_entry *e;
	char *p = buf, *end = buf + len, *nl, *sp;
	size_t cap = 1024;

	*n = 0;
	if ((e = malloc(cap * sizeof *e)) == NULL)
		return NULL;
	for (; p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL;
	    p = nl + 1) {
		*nl = '\0';
		/* A tab ends a line cut short (history.c): left out. */
		if (*p == '#' || strchr(p, '\t') != NULL ||
		    (sp = strchr(p, ' ')) == NULL)
			continue;
		if (*n == cap) {
			struct index_entry *m = realloc(e, 2 * cap * sizeof *e);
			if (m == NULL) {
				free(e);
				return NULL;
			}
			e = m;
			cap *= 2;
		}
		e[*n].enacted = strtod(p, NULL);
		e[*n].stem = sp + 1;
		if ((sp = strchr(sp + 1, ' ')) != NULL)
			*sp = '\0';
		e[*n].jobs = sp ? sp + 1 : nl;
		if (strlen(e[*n].stem) < HISTORY_STEM_MAX)
			(*n)++;
	}
	return e;
}

/*
 * Whether the index holds the current plan when that plan was enacted:
 * an index cut short (by hand, by a disk) lacks the newest plans.
 */
static int
index_current(const struct spool *sp, struct index_entry *e, size_t n)
{
	char stem[HISTORY_STEM_MAX], *buf;
	struct plan p;
	struct diag d;
	size_t len, i;
	int ok = 1;

	if (sp->dirs[SPOOL_PLANS] < 0 || file_read_at(sp->dirs[SPOOL_PLANS],
	    "current.yaml", ALLOCS_MAX_PLAN, FILE_NOFOLLOW, &buf, &len,
	    &d) < 0)
		return 1;
	plan_init(&p);
	if (plan_parse(&p, "plans/current.yaml", buf, len, &d) == 0 &&
	    history_enacted((struct spool *)sp, buf, len, p.time)) {
		history_plan_stem(buf, len, p.time, stem, sizeof stem);
		for (ok = 0, i = n; i > 0 && !ok; i--)
			ok = strcmp(e[i - 1].stem, stem) == 0;
	}
	plan_free(&p);
	free(buf);
	return ok;
}

/*
 * history/allocs.idx instead of every plan: 1 when it was used, 0 when it
 * is missing, has not its header, or misses the current plan (the caller
 * reads history/ instead).  A line whose plan is not in history/ (a crash
 * before its copy) or repeats one (a retry) is left out.
 */
static int
load_index(struct allocs *a, const struct spool *sp, int hfd)
{
	struct index_entry *e;
	char *buf;
	size_t len, n, i, stamp = 0;
	struct diag d;
	int rc = 1;

	if (file_read_at(hfd, HISTORY_INDEX, ALLOCS_MAX_PLAN * 16,
	    FILE_NOFOLLOW, &buf, &len, &d) < 0)
		return 0;
	if (len < strlen(HISTORY_INDEX_HEADER) || memcmp(buf,
	    HISTORY_INDEX_HEADER, strlen(HISTORY_INDEX_HEADER)) != 0 ||
	    (e = index_lines(buf, len, &n)) == NULL) {
		free(buf);
		return 0;
	}
	if (!index_current(sp, e, n))
		rc = 0;
	if (n > 1)
		qsort(e, n, sizeof *e, by_enactment);
	for (i = 0; i < n && rc == 1; i++) {
		if (i > 0 && strcmp(e[i].stem, e[i - 1].stem) == 0)
			continue;
		if (note_line(a, hfd, &e[i], ++stamp) < 0)
			rc = -1;
	}
	free(e);
	free(buf);
	return rc;
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
	if ((hfd = spool_dirfd(sp, SPOOL_HISTORY, d)) < 0) {
		allocs_free(a);
		return -1;
	}
	if ((rc = load_index(a, sp, hfd)) != 0) {
		if (rc < 0) {
			allocs_free(a);
			return diag_errno(d, ENOMEM, "unable to read history/");
		}
		a->loaded = 1;
		return 0;
	}
	for (i = 0; i < a->njobs; i++) {	/* what the index noted, undone */
		a->jobs[i].n = 0;
		a->jobs[i].stamp = 0;
	}
	if (history_plans(sp, &plans, &nplans, d) < 0) {
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
