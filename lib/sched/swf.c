/*
 * NAME
 *	swf - Standard Workload Format job logs replayed as node usage
 * DESCRIPTION
 *	See swf.h.  The whole log is read once (rows may be in any order),
 *	then replayed by one sweep over its starts and ends with the free
 *	nodes in a bit set: taking the k lowest free nodes costs k plus a
 *	word scan, so a year of Theta is a few million bit operations.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/fmt.h"
#include "util/gz.h"
#include "util/ydoc.h"

#include "sched/swf.h"

#define SWF_FIELDS	18
#define SWF_MAX_NODES	(1u << 24)	/* a machine larger is a typo */
#define SWF_MAX_JOBS	4000000		/* the largest PWA log has 2.1M */

/* Text from a log in a message: cut, and shown only where printable. */
static const char *
shown(const char *s, char *out, size_t outlen)
{
	ydoc_excerpt(s, out, outlen);
	return out;
}

static const char *const field_name[SWF_FIELDS] = {
	"job id", "submit time", "wait time", "run time", "allocated procs",
	"average CPU time", "used memory", "requested procs",
	"requested time", "requested memory", "status", "user id",
	"group id", "executable", "queue", "partition", "preceding job",
	"think time"
};

/* Fields used for placement must be whole numbers; others only numbers. */
static int
parse_fields(const struct swf *s, size_t line, char *p, long long v[],
    struct diag *d)
{
	char buf[36];
	size_t i;

	for (i = 0;; i++) {
		char *end, *tok;
		p += strspn(p, " \t");
		if (*p == '\0')
			break;
		tok = p;
		p += strcspn(p, " \t");
		if (*p != '\0')
			*p++ = '\0';
		if (i >= SWF_FIELDS)
			return diag_set(d, EX_DATAERR, "%s:%zu: more than %d "
			    "fields", s->label, line, SWF_FIELDS);
		errno = 0;
		if (i <= 4 || i == 7) {
			v[i] = strtoll(tok, &end, 10);
			if (*end != '\0' || end == tok || errno != 0 ||
			    v[i] < -1 || v[i] > (1LL << 40))
				return diag_set(d, EX_DATAERR, "%s:%zu: field "
				    "%zu (%s) must be a whole number from -1 "
				    "to %lld, not '%s'", s->label, line,
				    i + 1, field_name[i], 1LL << 40,
				    shown(tok, buf, sizeof buf));
		} else if (!fmt_is_decimal(tok))
			return diag_set(d, EX_DATAERR, "%s:%zu: field %zu (%s) "
			    "is not a number: '%s'", s->label, line, i + 1,
			    field_name[i], shown(tok, buf, sizeof buf));
	}
	if (i != SWF_FIELDS)
		return diag_set(d, EX_DATAERR, "%s:%zu: %zu fields, a job "
		    "line has %d", s->label, line, i, SWF_FIELDS);
	return 0;
}

/* "; Key: value" header comments; only three keys matter here. */
static int
parse_header(struct swf *s, size_t line, const char *p, struct diag *d)
{
	static const char *const keys[] = { "UnixStartTime", "MaxNodes",
	    "MaxProcs" };
	long long *dest[] = { &s->unix_start, &s->max_nodes, &s->max_procs };
	char buf[36];
	size_t i, n;

	p += strspn(p, "; \t");
	for (i = 0; i < 3; i++) {
		char *end;
		long long v;

		n = strlen(keys[i]);
		if (strncmp(p, keys[i], n) != 0 || p[n] != ':')
			continue;
		errno = 0;
		v = strtoll(p + n + 1, &end, 10);
		end += strspn(end, " \t");
		if (errno != 0 || *end != '\0' || end == p + n + 1 || v < 0 ||
		    v > (i == 0 ? 1LL << 40 : (long long)SWF_MAX_NODES * 1024)
		    || (i > 0 && v == 0))
			return diag_set(d, EX_DATAERR, "%s:%zu: bad %s value "
			    "'%s'", s->label, line, keys[i],
			    shown(p + n + 1, buf, sizeof buf));
		*dest[i] = v;
	}
	return 0;
}

static int
add_job(struct swf *s, size_t line, const long long v[], size_t *cap,
    struct diag *d)
{
	long long procs = v[4] > 0 ? v[4] : v[7];
	struct swf_job *j;

	if (v[1] < 0 || v[2] < 0 || v[3] <= 0 || procs <= 0) {
		s->skipped++;
		return 0;
	}
	if (procs > (long long)SWF_MAX_NODES * 1024)
		return diag_set(d, EX_DATAERR, "%s:%zu: %lld processors is "
		    "beyond any machine", s->label, line, procs);
	if (s->njobs == SWF_MAX_JOBS)
		return diag_set(d, EX_DATAERR, "%s:%zu: more than %d jobs that "
		    "ran", s->label, line, SWF_MAX_JOBS);
	if ((j = array_grow(s->jobs, cap, s->njobs + 1, sizeof *j, 1024)) ==
	    NULL)
		return diag_errno(d, ENOMEM, "%s", s->label);
	s->jobs = j;
	j = &s->jobs[s->njobs++];
	memset(j, 0, sizeof *j);
	j->id = v[0];
	j->line = line;
	j->start = v[1] + v[2];		/* relative until the header is known */
	j->end = j->start + v[3];
	j->nodes = (uint32_t)procs;	/* processors until then, too */
	return 0;
}

static int
read_log(struct swf *s, const char *path, struct diag *d)
{
	struct gz g;
	size_t cap = 0;
	long long v[SWF_FIELDS];
	int rc, any = 0;

	if (gz_open(&g, path, d) < 0)
		return -1;
	while ((rc = gz_line(&g, d)) > 0) {
		char *p = g.buf + strspn(g.buf, " \t");
		any = 1;
		if (*p == '\0')
			continue;
		if (*p == ';')
			rc = parse_header(s, g.lineno, p, d);
		else if ((rc = parse_fields(s, g.lineno, p, v, d)) == 0)
			rc = add_job(s, g.lineno, v, &cap, d);
		if (rc < 0)
			break;
	}
	gz_close(&g);
	if (rc == 0 && !any)
		return diag_set(d, EX_DATAERR, "%s: empty file, not a job log",
		    s->label);
	return rc;
}

static int
job_cmp(const void *a, const void *b)
{
	const struct swf_job *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* Processors to nodes, relative to unix times, machine size. */
static int
settle(struct swf *s, struct diag *d)
{
	long long n = s->max_nodes ? s->max_nodes : s->max_procs;
	int per_proc = s->max_nodes && s->max_procs &&
	    s->max_nodes != s->max_procs;
	size_t i;

	if (n > SWF_MAX_NODES)
		return diag_set(d, EX_DATAERR, "%s: MaxNodes %lld is beyond "
		    "%u", s->label, n, SWF_MAX_NODES);
	s->first = s->last = 0;
	for (i = 0; i < s->njobs; i++) {
		struct swf_job *j = &s->jobs[i];
		long long nodes = j->nodes;
		if (per_proc)
			nodes = (nodes * s->max_nodes + s->max_procs - 1) /
			    s->max_procs;
		if (nodes > SWF_MAX_NODES)
			return diag_set(d, EX_DATAERR, "%s:%zu: %lld nodes is "
			    "beyond %u", s->label, j->line, nodes,
			    SWF_MAX_NODES);
		j->nodes = (uint32_t)nodes;
		j->start += s->unix_start;
		j->end += s->unix_start;
		if (nodes > n) {
			if (s->widest_line == 0)
				s->widest_line = j->line;
			n = nodes;
		}
		if (i == 0 || j->start < s->first)
			s->first = j->start;
		if (j->end > s->last)
			s->last = j->end;
	}
	s->widest = n;
	s->nnodes = (size_t)n;
	for (s->width = 1; n >= 10; n /= 10)
		s->width++;
	if (s->width < 4)
		s->width = 4;
	if (s->njobs > 1)
		qsort(s->jobs, s->njobs, sizeof *s->jobs, job_cmp);
	return 0;
}

int
swf_load(struct swf *s, const char *path, struct diag *d)
{
	memset(s, 0, sizeof *s);
	snprintf(s->label, sizeof s->label, "%s",
	    strcmp(path, "-") == 0 ? "(stdin)" : path);
	if (read_log(s, path, d) < 0 || settle(s, d) < 0) {
		swf_free(s);
		return -1;
	}
	if (s->njobs > UINT32_MAX / 2) {
		swf_free(s);
		return diag_set(d, EX_DATAERR, "%s: too many jobs", path);
	}
	return 0;
}

static int
tick_cmp(const void *a, const void *b)
{
	const struct swf_tick *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

int
swf_sweep_init(struct swf *s, struct diag *d)
{
	size_t i, words = (s->nnodes + 63) / 64;

	s->ticks = malloc((2 * s->njobs + 1) * sizeof *s->ticks);
	s->free = calloc(words + 1, sizeof *s->free);
	s->deficit = malloc((s->njobs + 1) * sizeof *s->deficit);
	if (s->ticks == NULL || s->free == NULL || s->deficit == NULL)
		return diag_errno(d, ENOMEM, "%s", s->label);
	for (i = 0; i < s->njobs; i++) {
		s->ticks[2 * i] = (struct swf_tick){ s->jobs[i].start,
		    (uint32_t)i, 1 };
		s->ticks[2 * i + 1] = (struct swf_tick){ s->jobs[i].end,
		    (uint32_t)i, 0 };
	}
	s->nticks = 2 * s->njobs;
	if (s->nticks > 1)
		qsort(s->ticks, s->nticks, sizeof *s->ticks, tick_cmp);
	for (i = 0; i < s->nnodes; i++)
		s->free[i / 64] |= 1ULL << (i % 64);
	s->next = 0;
	s->ndeficit = 0;
	return 0;
}

static int
push(struct swf *s, uint32_t node, int idle, struct diag *d)
{
	uint32_t *c = array_grow(s->chg, &s->chgcap, s->nchg + 1, sizeof *c,
	    1024);

	if (c == NULL)
		return diag_errno(d, ENOMEM, "%s", s->label);
	s->chg = c;
	s->chg[s->nchg++] = node << 1 | (idle ? 1 : 0);
	return 0;
}

/* First fit: the lowest-numbered free nodes. */
static int
take(struct swf *s, struct swf_job *j, struct diag *d)
{
	size_t w, words = (s->nnodes + 63) / 64;

	for (w = 0; w < words && j->nheld < j->nodes; w++) {
		while (s->free[w] != 0 && j->nheld < j->nodes) {
			uint32_t node = (uint32_t)(w * 64 +
			    (size_t)__builtin_ctzll(s->free[w]));
			s->free[w] &= s->free[w] - 1;
			j->held[j->nheld++] = node;
			if (push(s, node, 0, d) < 0)
				return -1;
		}
	}
	return 0;
}

static int
start_job(struct swf *s, struct swf_job *j, size_t idx, struct diag *d)
{
	j->held = malloc(j->nodes * sizeof *j->held);
	if (j->held == NULL)
		return diag_errno(d, ENOMEM, "%s", s->label);
	j->nheld = 0;
	if (take(s, j, d) < 0)
		return -1;
	if (j->nheld < j->nodes) {
		s->deficit[s->ndeficit++] = idx;
		s->overfull++;
	}
	return 0;
}

static int
end_job(struct swf *s, struct swf_job *j, size_t idx, struct diag *d)
{
	uint32_t i;
	size_t k;

	for (i = 0; i < j->nheld; i++) {
		s->free[j->held[i] / 64] |= 1ULL << (j->held[i] % 64);
		if (push(s, j->held[i], 1, d) < 0)
			return -1;
	}
	if (j->nheld < j->nodes)
		for (k = 0; k < s->ndeficit; k++)
			if (s->deficit[k] == idx) {
				memmove(&s->deficit[k], &s->deficit[k + 1],
				    (s->ndeficit - k - 1) * sizeof *s->deficit);
				s->ndeficit--;
				break;
			}
	free(j->held);
	j->held = NULL;
	j->nheld = 0;
	return 0;
}

/* Nodes freed go first to running jobs still short of nodes. */
static int
refill(struct swf *s, struct diag *d)
{
	size_t k, kept = 0;

	for (k = 0; k < s->ndeficit; k++) {
		struct swf_job *j = &s->jobs[s->deficit[k]];
		if (take(s, j, d) < 0)
			return -1;
		if (j->nheld < j->nodes)
			s->deficit[kept++] = s->deficit[k];
	}
	s->ndeficit = kept;
	return 0;
}

int
swf_sweep_next(struct swf *s, long long limit, long long *t,
    const uint32_t **chg, size_t *n, struct diag *d)
{
	int ended = 0;
	long long now;

	if (s->next >= s->nticks || s->ticks[s->next].time > limit)
		return 0;
	now = s->ticks[s->next].time;
	s->nchg = 0;
	for (; s->next < s->nticks && s->ticks[s->next].time == now;
	    s->next++) {
		const struct swf_tick *k = &s->ticks[s->next];
		struct swf_job *j = &s->jobs[k->job];
		int rc;
		if (k->start && ended && s->ndeficit > 0) {
			if (refill(s, d) < 0)
				return -1;
			ended = 0;
		}
		if (k->start)
			rc = start_job(s, j, k->job, d);
		else {
			rc = end_job(s, j, k->job, d);
			ended = 1;
		}
		if (rc < 0)
			return -1;
	}
	if (ended && s->ndeficit > 0 && refill(s, d) < 0)
		return -1;
	*t = now;
	*chg = s->chg;
	*n = s->nchg;
	return 1;
}

void
swf_node_name(const struct swf *s, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "nid%0*zu", s->width, i + 1);
}

void
swf_free(struct swf *s)
{
	size_t i;

	for (i = 0; i < s->njobs; i++)
		free(s->jobs[i].held);
	free(s->jobs);
	free(s->ticks);
	free(s->free);
	free(s->deficit);
	free(s->chg);
	memset(s, 0, sizeof *s);
}
