/*
 * NAME
 *	holes - the holes file: which nodes bftrainer may use, until when
 * DESCRIPTION
 *	See holes.h.  Nodes are collected unsorted and put in order once by
 *	holes_finish(), which also finds duplicates: n log n for a whole
 *	machine.  The grouping by until sorts an index, never the nodes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/file.h"
#include "util/fmt.h"
#include "util/hash.h"
#include "util/hostlist.h"
#include "util/ydoc.h"

#include "spool/holes.h"

void
holes_init(struct holes *h)
{
	memset(h, 0, sizeof *h);
	h->sorted = 1;
}

void
holes_free(struct holes *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		free(h->nodes[i].name);
	free(h->nodes);
	free(h->index);
	holes_init(h);
}

/*
 * holes_find()'s index: an open-addressed table of node positions by the
 * XXH3 of their names (slot value position + 1, 0 empty), so that finding
 * each of 10,000 held nodes costs a hash, not a binary search whose every
 * step splits two names (the natural order).  Without memory, none: then
 * the binary search.
 */
static void
index_build(struct holes *h)
{
	size_t size = 16, i, k;

	free(h->index);
	h->index = NULL;
	if (!h->sorted || h->n < 64)
		return;
	while (size < 2 * h->n)
		size *= 2;
	if ((h->index = calloc(size, sizeof *h->index)) == NULL)
		return;
	h->index_mask = size - 1;
	for (i = 0; i < h->n; i++) {
		const char *name = h->nodes[i].name;
		k = hash_buf(name, strlen(name)) & h->index_mask;
		while (h->index[k] != 0)
			k = (k + 1) & h->index_mask;
		h->index[k] = i + 1;
	}
}

int
holes_add(struct holes *h, const char *name, long long until)
{
	struct holes_node *nodes = array_grow(h->nodes, &h->cap, h->n + 1,
	    sizeof *nodes, 64);

	if (nodes == NULL)
		return -1;
	h->nodes = nodes;
	h->nodes[h->n].name = strdup(name);
	if (h->nodes[h->n].name == NULL)
		return -1;
	h->nodes[h->n].until = until;
	h->n++;
	h->sorted = 0;
	free(h->index);
	h->index = NULL;
	return 0;
}

static int
node_cmp(const void *a, const void *b)
{
	const struct holes_node *x = a, *y = b;

	return hostlist_cmp_names(x->name, y->name);
}

/* Sorts and refuses duplicates; file names the source in the message. */
int
holes_finish(struct holes *h, const char *file, struct diag *d)
{
	size_t i;

	/* Already in order (bf-holes writes them so): not sorted again. */
	for (i = 1; i < h->n && node_cmp(&h->nodes[i - 1], &h->nodes[i]) <= 0;
	    i++)
		continue;
	if (i < h->n)
		qsort(h->nodes, h->n, sizeof *h->nodes, node_cmp);
	for (i = 1; i < h->n; i++)
		if (strcmp(h->nodes[i].name, h->nodes[i - 1].name) == 0)
			return diag_set(d, EX_DATAERR, "%s: node %s is listed "
			    "twice", file, h->nodes[i].name);
	h->sorted = 1;
	index_build(h);
	return 0;
}

size_t
holes_drop(struct holes *h, const struct hostlist *drop)
{
	size_t i, n = 0, dropped = 0;

	for (i = 0; i < h->n; i++)
		if (hostlist_contains(drop, h->nodes[i].name)) {
			free(h->nodes[i].name);
			dropped++;
		} else
			h->nodes[n++] = h->nodes[i];
	h->n = n;
	if (dropped > 0)
		index_build(h);
	return dropped;
}

const struct holes_node *
holes_find(const struct holes *h, const char *name)
{
	struct holes_node key = { (char *)name, 0 };
	size_t k;

	if (!h->sorted || h->n == 0)
		return NULL;
	if (h->index != NULL) {
		for (k = hash_buf(name, strlen(name)) & h->index_mask;
		    h->index[k] != 0; k = (k + 1) & h->index_mask)
			if (strcmp(h->nodes[h->index[k] - 1].name, name) == 0)
				return &h->nodes[h->index[k] - 1];
		return NULL;
	}
	return bsearch(&key, h->nodes, h->n, sizeof *h->nodes, node_cmp);
}

static int
parse_entry(struct holes *h, const struct ydoc *doc,
    const struct ydoc_node *e, struct ydoc_keys *keys, struct diag *d)
{
	static const char *const known[] = { "nodes", "until", NULL };
	const struct ydoc_node *nodes = ydoc_get(e, "nodes");
	const struct ydoc_node *until = ydoc_get(e, "until");
	struct hostlist hl;
	long long u = 0;
	char err[512];
	const char *expr;
	size_t i;

	if (e->kind != YDOC_MAPPING || nodes == NULL)
		return diag_set(d, EX_DATAERR, "%s:%zu: each idle entry must "
		    "be a mapping with nodes (and until)", doc->file, e->line);
	if (ydoc_only_keys(keys, e, known, d) < 0)
		return -1;
	if (ydoc_string(doc, nodes, "nodes", &expr, d) < 0)
		return -1;
	if (until != NULL && ydoc_long(doc, until, "until", 1, 1LL << 40, &u,
	    d) < 0)
		return -1;
	hostlist_init(&hl);
	if (hostlist_parse(&hl, expr, err, sizeof err) < 0) {
		hostlist_free(&hl);
		return diag_set(d, EX_DATAERR, "%s:%zu: %s", doc->file,
		    nodes->line, err);
	}
	for (i = 0; i < hl.n; i++) {
		if (holes_add(h, hl.names[i], u) < 0) {
			hostlist_free(&hl);
			return diag_errno(d, ENOMEM, "%s: unable to load",
			    doc->file);
		}
	}
	hostlist_free(&hl);
	return 0;
}

/* Duplicates are reported with the line of each listing. */
static int
check_duplicates(const struct ydoc *doc, const struct ydoc_node *idle,
    struct holes *h, struct diag *d)
{
	struct ydoc_keys quiet = { doc, YDOC_KEYS_COUNT, 0 };
	struct diag ignored;
	size_t i, j;

	if (holes_finish(h, doc->file, &ignored) == 0)
		return 0;
	/* Rare: find the two entries for the message. */
	for (i = 0; i < idle->n; i++) {
		struct holes seen;
		holes_init(&seen);
		for (j = 0; j <= i; j++)
			parse_entry(&seen, doc, idle->items[j], &quiet,
			    &ignored);
		if (holes_finish(&seen, doc->file, &ignored) < 0) {
			const char *dup = strstr(ignored.text, "node ");
			holes_free(&seen);
			return diag_set(d, EX_DATAERR, "%s:%zu: %s",
			    doc->file, idle->items[i]->line,
			    dup ? dup : "a node is listed twice");
		}
		holes_free(&seen);
	}
	return diag_set(d, EX_DATAERR, "%s: a node is listed twice",
	    doc->file);
}

int
holes_parse(struct holes *h, const char *file, const char *buf, size_t len,
    struct diag *d)
{
	const struct ydoc_node *root, *time, *source, *idle;
	struct ydoc_keys keys = { NULL, YDOC_KEYS_WARN, 0 };
	struct ydoc doc;
	size_t i;
	int rc = -1;

	holes_init(h);
	if (ydoc_load(&doc, file, buf, len, d) < 0)
		return -1;
	root = doc.root;
	if (root == NULL || root->kind != YDOC_MAPPING) {
		diag_set(d, EX_DATAERR, "%s:%zu: a holes file must be a "
		    "mapping with time, source and idle", file,
		    root ? root->line : 1);
		goto out;
	}
	time = ydoc_get(root, "time");
	source = ydoc_get(root, "source");
	idle = ydoc_get(root, "idle");
	if (time == NULL) {
		diag_set(d, EX_DATAERR, "%s:%zu: time is missing", file,
		    root->line);
		goto out;
	}
	if (ydoc_long(&doc, time, "time", 0, 1LL << 40, &h->time, d) < 0)
		goto out;
	if (source != NULL) {
		if (ydoc_copy(&doc, source, "source", h->source,
		    sizeof h->source, d) < 0)
			goto out;
	}
	if (idle != NULL && !(idle->kind == YDOC_SCALAR && idle->len == 0)) {
		if (idle->kind != YDOC_SEQUENCE) {
			diag_set(d, EX_DATAERR, "%s:%zu: idle must be a list "
			    "of entries with nodes", file, idle->line);
			goto out;
		}
		keys.doc = &doc;
		for (i = 0; i < idle->n; i++)
			if (parse_entry(h, &doc, idle->items[i], &keys, d) < 0)
				goto out;
		ydoc_keys_done(&keys);
		if (check_duplicates(&doc, idle, h, d) < 0)
			goto out;
	}
	h->sorted = 1;
	index_build(h);
	rc = 0;
out:
	ydoc_free(&doc);
	if (rc < 0)
		holes_free(h);
	return rc;
}

int
holes_load(struct holes *h, int dirfd, const char *name, const char *label,
    struct diag *d)
{
	char *buf;
	size_t len;
	int rc;

	holes_init(h);
	if (file_read_named(dirfd, name, label, HOLES_MAX_FILE, FILE_NOFOLLOW,
	    &buf, &len, d) < 0)
		return -1;
	rc = holes_parse(h, label, buf, len, d);
	free(buf);
	return rc;
}

/* Index order for output: unknown until first, then ascending until. */
static const struct holes *order_holes;

static int
until_cmp(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	long long x = order_holes->nodes[i].until;
	long long y = order_holes->nodes[j].until;

	if (x != y)
		return x < y ? -1 : 1;
	return (i > j) - (i < j);
}

static int
write_idle(FILE *fp, const struct holes *h)
{
	size_t *idx, i, start;

	if (h->n == 0) {
		fputs("idle: []\n", fp);
		return 0;
	}
	idx = malloc(h->n * sizeof *idx);
	if (idx == NULL)
		return -1;
	for (i = 0; i < h->n; i++)
		idx[i] = i;
	order_holes = h;
	if (h->n > 1)
		qsort(idx, h->n, sizeof *idx, until_cmp);
	fputs("idle:\n", fp);
	for (start = 0; start < h->n; start = i) {
		struct hostlist hl;
		char *expr;
		long long u = h->nodes[idx[start]].until;

		hostlist_init(&hl);
		for (i = start; i < h->n && h->nodes[idx[i]].until == u; i++)
			if (hostlist_add(&hl, h->nodes[idx[i]].name) < 0)
				break;
		expr = hostlist_compress(&hl);
		hostlist_free(&hl);
		if (expr == NULL) {
			free(idx);
			return -1;
		}
		/* "[0-2],n" would read back as a YAML list: quote it. */
		fputs("  - nodes: ", fp);
		if ((expr[0] >= 'a' && expr[0] <= 'z') ||
		    (expr[0] >= 'A' && expr[0] <= 'Z') ||
		    (expr[0] >= '0' && expr[0] <= '9'))
			fputs(expr, fp);
		else
			fmt_yaml_string(fp, expr);
		putc('\n', fp);
		if (u > 0)
			fprintf(fp, "    until: %lld\n", u);
		free(expr);
	}
	free(idx);
	return 0;
}

static char *
format(const struct holes *h, int with_time, size_t *lenp)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	int rc;

	if (fp == NULL)
		return NULL;
	if (with_time)
		fprintf(fp, "time: %lld\n", h->time);
	fputs("source: ", fp);
	fmt_yaml_word(fp, h->source);
	putc('\n', fp);
	rc = write_idle(fp, h);
	if (fclose(fp) != 0 || rc < 0) {
		free(text);
		return NULL;
	}
	*lenp = len;
	return text;
}

char *
holes_format(const struct holes *h, size_t *lenp)
{
	return format(h, 1, lenp);
}

uint64_t
holes_digest(const struct holes *h)
{
	size_t len;
	char *text = format(h, 0, &len);
	uint64_t digest;

	if (text == NULL)
		return 0;
	digest = hash_buf(text, len);
	free(text);
	return digest;
}
