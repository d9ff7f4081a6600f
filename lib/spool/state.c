/*
 * NAME
 *	state - the state file: which job holds which nodes now
 * DESCRIPTION
 *	See state.h.  A node held twice is found by sorting all held names
 *	once, with their jobs, so a whole machine costs n log n.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/fmt.h"
#include "util/hash.h"
#include "util/ydoc.h"

#include "spool/state.h"

void
state_init(struct state *st)
{
	memset(st, 0, sizeof *st);
}

void
state_free(struct state *st)
{
	size_t i;

	for (i = 0; i < st->n; i++) {
		hostlist_free(&st->jobs[i].hosts);
		free(st->jobs[i].pilots);
	}
	free(st->jobs);
	hostlist_free(&st->unobtained);
	state_init(st);
}

static struct state_job *
push(struct state *st, const char *name, size_t line)
{
	struct state_job *sj;

	if ((sj = array_grow(st->jobs, &st->cap, st->n + 1, sizeof *sj,
	    16)) == NULL)
		return NULL;
	st->jobs = sj;
	sj = &st->jobs[st->n++];
	memset(sj, 0, sizeof *sj);
	snprintf(sj->name, sizeof sj->name, "%s", name);
	hostlist_init(&sj->hosts);
	sj->line = line;
	return sj;
}

static int
job_cmp(const void *a, const void *b)
{
	return strcmp(((const struct state_job *)a)->name,
	    ((const struct state_job *)b)->name);
}

/*
 * No node is held by two jobs.  The held nodes go, in the file's order,
 * into an open-addressed table of their XXH3 digests: a node found there
 * already is said with both jobs, the earlier (by line) first.  One pass,
 * not a sort of every held node (10,000 at 10,000 x 500, parsed twice a
 * pass by bf-watch).
 */
static int
check_twice(const struct state *st, const char *file, struct diag *d)
{
	struct slot {
		const char *node;
		const struct state_job *job;
		uint64_t dig;
	} *tab;
	size_t size = 16, mask, n = 0, i, j, k;
	int rc = 0;

	for (i = 0; i < st->n; i++)
		n += st->jobs[i].hosts.n;
	if (n < 2)
		return 0;
	while (size < 2 * n)
		size *= 2;
	mask = size - 1;
	if ((tab = calloc(size, sizeof *tab)) == NULL)
		return diag_errno(d, ENOMEM, "%s: unable to load", file);
	for (i = 0; i < st->n && rc == 0; i++)
		for (j = 0; j < st->jobs[i].hosts.n && rc == 0; j++) {
			const char *h = st->jobs[i].hosts.names[j];
			uint64_t x = hash_buf(h, strlen(h));
			for (k = x & mask; tab[k].node != NULL;
			    k = (k + 1) & mask)
				if (tab[k].dig == x && strcmp(tab[k].node, h) ==
				    0)
					break;
			if (tab[k].node == NULL) {
				tab[k].node = h;
				tab[k].job = &st->jobs[i];
				tab[k].dig = x;
			} else
				rc = diag_set(d, EX_DATAERR, "%s:%zu: node %s "
				    "is held by both %s (line %zu) and %s",
				    file, st->jobs[i].line, h,
				    tab[k].job->name, tab[k].job->line,
				    st->jobs[i].name);
		}
	free(tab);
	return rc;
}

/*
 * The hosts of job nj, just added, are held by no other job: the others
 * were checked before.  Its hosts go in a small open-addressed table of
 * their XXH3 digests, and every host held by another job is looked up in
 * it, so an action costs one pass over the held hosts, not a sort of
 * them all (10,000 hosts: a sort with the natural order's comparison was
 * 4 % of bf-watch's time).
 */
static int
check_added(const struct state *st, const struct state_job *nj,
    struct diag *d)
{
	size_t size = 16, mask, i, j, k;
	const char **slot;
	uint64_t *dig;
	int rc = 0;

	if (nj->hosts.n == 0)
		return 0;
	while (size < 2 * nj->hosts.n)
		size *= 2;
	mask = size - 1;
	slot = calloc(size, sizeof *slot);
	dig = calloc(size, sizeof *dig);
	if (slot == NULL || dig == NULL) {
		free(slot), free(dig);
		return diag_errno(d, ENOMEM, "state");
	}
	for (i = 0; i < nj->hosts.n; i++) {
		const char *h = nj->hosts.names[i];
		uint64_t x = hash_buf(h, strlen(h));
		for (k = x & mask; slot[k] != NULL; k = (k + 1) & mask)
			;
		slot[k] = h;
		dig[k] = x;
	}
	for (i = 0; i < st->n && rc == 0; i++) {
		const struct state_job *o = &st->jobs[i];
		if (o == nj)
			continue;
		for (j = 0; j < o->hosts.n && rc == 0; j++) {
			const char *h = o->hosts.names[j];
			uint64_t x = hash_buf(h, strlen(h));
			for (k = x & mask; slot[k] != NULL; k = (k + 1) & mask)
				if (dig[k] == x && strcmp(slot[k], h) == 0) {
					rc = diag_set(d, EX_DATAERR, "state: node "
					    "%s is held by both %s and %s", h,
					    o->name, nj->name);
					break;
				}
		}
	}
	free(slot);
	free(dig);
	return rc;
}

/*
 * A PBS job id, SEQUENCE.SERVER (the server a host name), as qsub prints
 * it; a Slurm id is a number, read by ydoc_long().
 */
static int
pbs_job_id(const struct ydoc_node *v)
{
	size_t i = 0;

	if (v->kind != YDOC_SCALAR || !v->plain || v->len >= 256 ||
	    v->value[0] < '1' || v->value[0] > '9')
		return 0;
	while (v->value[i] >= '0' && v->value[i] <= '9')
		i++;
	if (i > 12 || v->value[i] != '.' || v->value[i + 1] == '\0')
		return 0;
	return strspn(v->value + i + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij"
	    "klmnopqrstuvwxyz0123456789._-") == v->len - i - 1;
}

/* pilots: {NODE: ID, ...} into its text, "NODE: ID, ...". */
static int
parse_pilots(struct state_job *sj, const struct ydoc *doc,
    const struct ydoc_node *v, struct diag *d)
{
	char *buf = NULL;
	size_t size = 0, i;
	long long id;
	FILE *fp;

	if (v->kind == YDOC_SCALAR && v->len == 0)
		return 0;
	if (v->kind != YDOC_MAPPING)
		return diag_set(d, EX_DATAERR, "%s:%zu: pilots of job %s must "
		    "be a mapping of node names to job ids", doc->file,
		    v->line, sj->name);
	if ((fp = open_memstream(&buf, &size)) == NULL)
		return diag_errno(d, ENOMEM, "%s: unable to load", doc->file);
	for (i = 0; i < v->n; i++) {
		const struct ydoc_node *key = v->items[2 * i];
		if (key->len == 0 || strspn(key->value, "ABCDEFGHIJKLMNOPQRST"
		    "UVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") !=
		    key->len) {
			fclose(fp);
			free(buf);
			char shown[72];

			ydoc_excerpt(key->value, shown, sizeof shown);
			return diag_set(d, EX_DATAERR, "%s:%zu: bad node name "
			    "'%s' in pilots", doc->file, key->line, shown);
		}
		if (pbs_job_id(v->items[2 * i + 1])) {
			fprintf(fp, "%s%s: %s", i ? ", " : "", key->value,
			    v->items[2 * i + 1]->value);
			continue;
		}
		if (ydoc_long(doc, v->items[2 * i + 1], "pilot id", 1,
		    1LL << 40, &id, d) < 0) {
			fclose(fp);
			free(buf);
			return -1;
		}
		fprintf(fp, "%s%s: %lld", i ? ", " : "", key->value, id);
	}
	if (ferror(fp) | fclose(fp)) {
		free(buf);
		return diag_errno(d, ENOMEM, "%s: unable to load", doc->file);
	}
	sj->pilots = buf;
	return 0;
}

static int
parse_job(struct state *st, const struct ydoc *doc, const struct ydoc_node *k,
    const struct ydoc_node *v, struct diag *d)
{
	const struct ydoc_node *nodes, *hosts, *pilots;
	struct state_job *sj;
	const char *expr = "";
	long long count;
	char err[512];

	if (!job_name_valid(k->value)) {
		ydoc_excerpt(k->value, err, sizeof err);
		return diag_set(d, EX_DATAERR, "%s:%zu: bad job name '%s'",
		    doc->file, k->line, err);
	}
	if (v->kind != YDOC_MAPPING || (nodes = ydoc_get(v, "nodes")) == NULL)
		return diag_set(d, EX_DATAERR, "%s:%zu: job %s must be a "
		    "mapping with nodes and hosts", doc->file, v->line,
		    k->value);
	hosts = ydoc_get(v, "hosts");
	if (ydoc_long(doc, nodes, "nodes", 0, JOB_MAX_NODES, &count, d) < 0)
		return -1;
	if (hosts != NULL && ydoc_string(doc, hosts, "hosts", &expr, d) < 0)
		return -1;
	if ((sj = push(st, k->value, k->line)) == NULL)
		return diag_errno(d, ENOMEM, "%s: unable to load", doc->file);
	if (hostlist_parse(&sj->hosts, expr, err, sizeof err) < 0)
		return diag_set(d, EX_DATAERR, "%s:%zu: %s", doc->file,
		    hosts->line, err);
	hostlist_sort_uniq(&sj->hosts);
	if ((long long)sj->hosts.n != count)
		return diag_set(d, EX_DATAERR, "%s:%zu: nodes is %lld but "
		    "hosts names %zu distinct nodes", doc->file, nodes->line,
		    count, sj->hosts.n);
	if ((pilots = ydoc_get(v, "pilots")) != NULL)
		return parse_pilots(sj, doc, pilots, d);
	return 0;
}

/* unobtained: {holes: DIGEST, hosts: HOSTLIST, since: TIME} */
static int
parse_unobtained(struct state *st, const struct ydoc *doc,
    const struct ydoc_node *v, struct diag *d)
{
	const struct ydoc_node *holes, *hosts, *since;
	const char *text;
	char err[512];
	uint64_t h;

	if (v->kind != YDOC_MAPPING || (holes = ydoc_get(v, "holes")) == NULL ||
	    (hosts = ydoc_get(v, "hosts")) == NULL)
		return diag_set(d, EX_DATAERR, "%s:%zu: unobtained must be a "
		    "mapping with holes and hosts", doc->file, v->line);
	if (ydoc_string(doc, holes, "holes", &text, d) < 0)
		return -1;
	if (hash_parse(text, &h) < 0)
		return diag_set(d, EX_DATAERR, "%s:%zu: holes must be xxh3: and "
		    "16 hex digits", doc->file, holes->line);
	hash_format(h, st->unobtained_holes);
	if (ydoc_string(doc, hosts, "hosts", &text, d) < 0)
		return -1;
	if (hostlist_parse(&st->unobtained, text, err, sizeof err) < 0)
		return diag_set(d, EX_DATAERR, "%s:%zu: %s", doc->file,
		    hosts->line, err);
	hostlist_sort_uniq(&st->unobtained);
	st->unobtained_since = 0;
	if ((since = ydoc_get(v, "since")) != NULL &&
	    ydoc_long(doc, since, "since", 0, 1LL << 40,
	    &st->unobtained_since, d) < 0)
		return -1;
	return 0;
}

static int
parse_root(struct state *st, const struct ydoc *doc, struct diag *d)
{
	const struct ydoc_node *root = doc->root, *time, *jobs, *un;
	size_t i;

	if (root == NULL || root->kind != YDOC_MAPPING)
		return diag_set(d, EX_DATAERR, "%s:%zu: a state file must be a "
		    "mapping with time and jobs", doc->file,
		    root ? root->line : 1);
	if ((time = ydoc_get(root, "time")) != NULL &&
	    ydoc_long(doc, time, "time", 0, 1LL << 40, &st->time, d) < 0)
		return -1;
	if ((un = ydoc_get(root, "unobtained")) != NULL &&
	    parse_unobtained(st, doc, un, d) < 0)
		return -1;
	jobs = ydoc_get(root, "jobs");
	if (jobs == NULL || (jobs->kind == YDOC_SCALAR && jobs->len == 0))
		return 0;
	if (jobs->kind != YDOC_MAPPING)
		return diag_set(d, EX_DATAERR, "%s:%zu: jobs must be a mapping "
		    "of job names", doc->file, jobs->line);
	for (i = 0; i < jobs->n; i++)
		if (parse_job(st, doc, jobs->items[2 * i],
		    jobs->items[2 * i + 1], d) < 0)
			return -1;
	return 0;
}

int
state_parse(struct state *st, const char *file, const char *buf, size_t len,
    struct diag *d)
{
	struct ydoc doc;
	int rc;

	state_init(st);
	if (ydoc_load(&doc, file, buf, len, d) < 0)
		return -1;
	/* An empty file is an empty state: nothing runs. */
	rc = doc.root == NULL ? 0 : parse_root(st, &doc, d);
	ydoc_free(&doc);
	if (rc == 0)
		rc = check_twice(st, file, d);
	if (rc == 0 && st->n > 1)
		qsort(st->jobs, st->n, sizeof *st->jobs, job_cmp);
	if (rc < 0)
		state_free(st);
	return rc;
}

int
state_add(struct state *st, const char *name, const char *hostlist,
    struct diag *d)
{
	struct state_job *sj;
	char err[512];

	if (!job_name_valid(name)) {
		ydoc_excerpt(name, err, sizeof err);
		return diag_set(d, EX_DATAERR, "bad job name '%s'", err);
	}
	if (state_find(st, name) != NULL)
		return diag_set(d, EX_DATAERR, "job %s is listed twice", name);
	if ((sj = push(st, name, 0)) == NULL)
		return diag_errno(d, ENOMEM, "state");
	if (hostlist_parse(&sj->hosts, hostlist, err, sizeof err) < 0) {
		st->n--;
		return diag_set(d, EX_DATAERR, "%s", err);
	}
	hostlist_sort_uniq(&sj->hosts);
	if (st->n > 1)
		qsort(st->jobs, st->n, sizeof *st->jobs, job_cmp);
	if (check_added(st, state_find(st, name), d) < 0) {
		state_remove(st, name);
		return -1;
	}
	return 0;
}

int
state_remove(struct state *st, const char *name)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		if (strcmp(st->jobs[i].name, name) == 0) {
			hostlist_free(&st->jobs[i].hosts);
			free(st->jobs[i].pilots);
			memmove(&st->jobs[i], &st->jobs[i + 1],
			    (st->n - i - 1) * sizeof *st->jobs);
			st->n--;
			return 0;
		}
	return -1;
}

int
state_set_pilots(struct state *st, const char *name, const char *text)
{
	char *copy = NULL;
	size_t i;

	for (i = 0; i < st->n; i++)
		if (strcmp(st->jobs[i].name, name) == 0) {
			if (text != NULL && *text != '\0' &&
			    (copy = strdup(text)) == NULL)
				return -1;
			free(st->jobs[i].pilots);
			st->jobs[i].pilots = copy;
			return 0;
		}
	return -1;
}

int
state_unobtained(struct state *st, const char *holes,
    const struct hostlist *hosts, long long now)
{
	size_t i;

	if (strcmp(st->unobtained_holes, holes) != 0) {
		hostlist_free(&st->unobtained);
		snprintf(st->unobtained_holes, sizeof st->unobtained_holes,
		    "%s", holes);
	}
	for (i = 0; i < hosts->n; i++)
		if (hostlist_add(&st->unobtained, hosts->names[i]) < 0)
			return -1;
	hostlist_sort_uniq(&st->unobtained);
	st->unobtained_since = now;
	return 0;
}

/* Drop a record secs old or older; 1 when one was dropped. */
int
state_unobtained_expire(struct state *st, long long now, double secs)
{
	if (st->unobtained.n == 0 ||
	    (double)(now - st->unobtained_since) < secs)
		return 0;
	hostlist_free(&st->unobtained);
	st->unobtained_holes[0] = '\0';
	st->unobtained_since = 0;
	return 1;
}

int
state_is_unobtained(const struct state *st, const char *holes,
    const char *node)
{
	return st->unobtained.n > 0 && strcmp(st->unobtained_holes, holes) ==
	    0 && hostlist_contains(&st->unobtained, node);
}

const struct state_job *
state_find(const struct state *st, const char *name)
{
	int found;
	size_t i = array_find_name(st->jobs, st->n, sizeof *st->jobs,
	    offsetof(struct state_job, name), name, &found);

	/* The jobs are kept by name (state_parse(), state_add()). */
	return found ? &st->jobs[i] : NULL;
}

char *
state_format(const struct state *st, size_t *len)
{
	char *buf = NULL, *hl;
	size_t size = 0, i;
	FILE *fp = open_memstream(&buf, &size);
	int bad = 0;

	if (fp == NULL)
		return NULL;
	fprintf(fp, "time: %lld\n", st->time);
	fputs(st->n ? "jobs:\n" : "jobs: {}\n", fp);
	for (i = 0; i < st->n; i++) {
		if ((hl = hostlist_compress(&st->jobs[i].hosts)) == NULL)
			break;
		fprintf(fp, "  %s: {nodes: %zu, hosts: ", st->jobs[i].name,
		    st->jobs[i].hosts.n);
		fmt_yaml_string(fp, hl);
		if (st->jobs[i].pilots != NULL)
			fprintf(fp, ", pilots: {%s}", st->jobs[i].pilots);
		fputs("}\n", fp);
		free(hl);
	}
	if (i == st->n && st->unobtained.n > 0) {
		if ((hl = hostlist_compress(&st->unobtained)) == NULL)
			bad = 1;
		else {
			fprintf(fp, "unobtained: {holes: \"%s\", hosts: ",
			    st->unobtained_holes);
			fmt_yaml_string(fp, hl);
			fprintf(fp, ", since: %lld}\n",
			    st->unobtained_since);
			free(hl);
		}
	}
	if (i < st->n || bad || ferror(fp) | fclose(fp)) {
		if (i < st->n || bad)
			fclose(fp);
		free(buf);
		return NULL;
	}
	*len = size;
	return buf;
}
