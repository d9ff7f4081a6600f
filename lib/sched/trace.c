/*
 * NAME
 *	trace - idle-node transition traces (CSV t_s,node,idle)
 * DESCRIPTION
 *	See trace.h.  One row is read ahead so that a second's rows are
 *	known complete before they are returned.  Node names are looked up
 *	with tsearch(3): a few thousand nodes, a dozen comparisons a row.
 */
#include <errno.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/hostlist.h"
#include "util/ydoc.h"

#include "sched/trace.h"

/* As many as a hostlist may hold (bf-spool(5)). */
#define TRACE_MAX_NODES	1000000u

/* Text from a trace in a message: cut, and shown only where printable. */
static const char *
shown(const char *s, char *out, size_t outlen)
{
	ydoc_excerpt(s, out, outlen);
	return out;
}

/* The tree holds pointers to names[i]; the index follows from the slot. */
struct key {
	const char *name;
	uint32_t node;
};

static int
key_cmp(const void *a, const void *b)
{
	return strcmp(((const struct key *)a)->name,
	    ((const struct key *)b)->name);
}

static int
valid_name(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > HOSTLIST_MAX_NAME)
		return 0;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '.' || s[i] == '_' || s[i] == '-'))
			return 0;
	return 1;
}

static int
lookup(struct trace *tr, const char *name, uint32_t *node, struct diag *d)
{
	struct key probe = { name, 0 }, *k;
	void *found = tfind(&probe, &tr->tree, key_cmp);
	char **names;

	if (found != NULL) {
		*node = (*(struct key **)found)->node;
		return 0;
	}
	if (tr->nnodes >= TRACE_MAX_NODES)
		return diag_set(d, EX_DATAERR, "%s:%zu: more than %u nodes",
		    tr->label, tr->gz.lineno, TRACE_MAX_NODES);
	if ((names = array_grow(tr->names, &tr->cap, tr->nnodes + 1,
	    sizeof *names, 1024)) == NULL)
		return diag_errno(d, ENOMEM, "%s", tr->label);
	tr->names = names;
	k = malloc(sizeof *k);
	if (k == NULL || (tr->names[tr->nnodes] = strdup(name)) == NULL) {
		free(k);
		return diag_errno(d, ENOMEM, "%s", tr->label);
	}
	k->name = tr->names[tr->nnodes];
	k->node = (uint32_t)tr->nnodes;
	if (tsearch(k, &tr->tree, key_cmp) == NULL) {
		free(tr->names[tr->nnodes]);
		free(k);
		return diag_errno(d, ENOMEM, "%s", tr->label);
	}
	*node = (uint32_t)tr->nnodes++;
	return 0;
}

static int
bad(struct trace *tr, const char *what, struct diag *d)
{
	return diag_set(d, EX_DATAERR, "%s:%zu: %s", tr->label, tr->gz.lineno,
	    what);
}

/* One row into row_*; 0 at end of file. */
static int
read_row(struct trace *tr, struct diag *d)
{
	char *p, *c1, *c2, *end, buf[68];
	long long t;
	int rc;

	do {
		if ((rc = gz_line(&tr->gz, d)) <= 0)
			return rc;
	} while (tr->gz.len == 0);
	p = tr->gz.buf;
	c1 = strchr(p, ',');
	c2 = c1 ? strchr(c1 + 1, ',') : NULL;
	if (c2 == NULL || strchr(c2 + 1, ',') != NULL)
		return bad(tr, "a row has three fields: t_s,node,idle", d);
	*c1 = *c2 = '\0';
	errno = 0;
	t = strtoll(p, &end, 10);
	if (end == p || *end != '\0' || errno != 0 || t < 0 || t > 1LL << 40)
		return diag_set(d, EX_DATAERR, "%s:%zu: t_s must be a whole "
		    "number of seconds from 0 to %lld, not '%s'", tr->label,
		    tr->gz.lineno, 1LL << 40, shown(p, buf, 36));
	if (tr->have_row && t < tr->row_t)
		return diag_set(d, EX_DATAERR, "%s:%zu: time %lld is before "
		    "the previous row's %lld; rows must be in time order",
		    tr->label, tr->gz.lineno, t, tr->row_t);
	if (!valid_name(c1 + 1, strlen(c1 + 1)))
		return diag_set(d, EX_DATAERR, "%s:%zu: bad node name "
		    "'%s'", tr->label, tr->gz.lineno,
		    shown(c1 + 1, buf, sizeof buf));
	if (strcmp(c2 + 1, "0") != 0 && strcmp(c2 + 1, "1") != 0)
		return diag_set(d, EX_DATAERR, "%s:%zu: idle must be 0 or 1, "
		    "not '%s'", tr->label, tr->gz.lineno,
		    shown(c2 + 1, buf, 36));
	if (lookup(tr, c1 + 1, &tr->row_node, d) < 0)
		return -1;
	tr->row_t = t;
	tr->row_idle = c2[1] == '1';
	tr->have_row = 1;
	return 1;
}

int
trace_open(struct trace *tr, const char *path, long long epoch,
    struct diag *d)
{
	int rc;

	memset(tr, 0, sizeof *tr);
	snprintf(tr->label, sizeof tr->label, "%s",
	    strcmp(path, "-") == 0 ? "(stdin)" : path);
	tr->epoch = epoch;
	if (gz_open(&tr->gz, path, d) < 0)
		return -1;
	rc = gz_line(&tr->gz, d);
	/* A UTF-8 byte-order mark before the header is skipped, as in YAML. */
	if (rc == 0)
		rc = diag_set(d, EX_DATAERR, "%s: empty file, not a trace",
		    tr->label);
	else if (rc > 0 && strcmp(tr->gz.buf + (strncmp(tr->gz.buf,
	    "\xef\xbb\xbf", 3) == 0 ? 3 : 0), "t_s,node,idle") != 0)
		rc = bad(tr, "the first line must be the header "
		    "t_s,node,idle", d);
	else if (rc > 0 && (rc = read_row(tr, d)) == 0)
		tr->eof = 1;
	if (rc < 0) {
		trace_close(tr);
		return -1;
	}
	return 0;
}

static int
push(struct trace *tr, struct diag *d)
{
	uint32_t *c = array_grow(tr->chg, &tr->chgcap, tr->nchg + 1,
	    sizeof *c, 1024);

	if (c == NULL)
		return diag_errno(d, ENOMEM, "%s", tr->label);
	tr->chg = c;
	tr->chg[tr->nchg++] = tr->row_node << 1 | (uint32_t)tr->row_idle;
	return 0;
}

int
trace_next(struct trace *tr, long long limit, long long *t,
    const uint32_t **chg, size_t *n, struct diag *d)
{
	long long now;
	int rc;

	if (tr->eof || !tr->have_row || tr->epoch + tr->row_t > limit)
		return 0;
	now = tr->row_t;
	tr->nchg = 0;
	do {
		if (push(tr, d) < 0)
			return -1;
		if ((rc = read_row(tr, d)) < 0)
			return -1;
		if (rc == 0)
			tr->eof = 1;
	} while (!tr->eof && tr->row_t == now);
	*t = tr->epoch + now;
	*chg = tr->chg;
	*n = tr->nchg;
	return 1;
}

void
trace_close(struct trace *tr)
{
	size_t i;

	/* POSIX has no tdestroy(): delete the root until the tree is empty. */
	while (tr->tree != NULL) {
		struct key *k = *(struct key **)tr->tree;
		tdelete(k, &tr->tree, key_cmp);
		free(k);
	}
	for (i = 0; i < tr->nnodes; i++)
		free(tr->names[i]);
	free(tr->names);
	free(tr->chg);
	gz_close(&tr->gz);
	memset(tr, 0, sizeof *tr);
}
