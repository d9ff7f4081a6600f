/*
 * NAME
 *	lifetime_spool - the spool's hole lifetimes, learnt from the holes
 *	files of history/ and kept in SPOOL/lifetimes
 * DESCRIPTION
 *	See lifetime.h.  The file is lines of words, so that a damaged one
 *	is named by its line and a decision reads it without a YAML parser:
 *
 *		# bftrainer lifetimes 1
 *		index START END STEM	(allocs.idx: the last line learnt from)
 *		holes TIME xxh3:HEX	(the last holes file learnt from)
 *		hole SECONDS COUNT	(ascending)
 *		idle SINCE HOSTLIST	(first seen idle at SINCE)
 *		idle-before SINCE HOSTLIST	(idle in the first file)
 *
 *	The idle nodes are grouped by SINCE, so that a file holds a line
 *	per moment nodes became idle, not per node.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file.h"
#include "util/hostlist.h"
#include "util/ydoc.h"

#include "spool/history.h"
#include "spool/lifetime.h"

void
lifetime_table_init(struct lifetime_table *t)
{
	memset(t, 0, sizeof *t);
	lifetime_init(&t->life, LIFETIME_MIN);
}

void
lifetime_table_free(struct lifetime_table *t)
{
	size_t i;

	for (i = 0; i < t->nopen; i++)
		free(t->open[i].name);
	free(t->open);
	lifetime_free(&t->life);
	lifetime_table_init(t);
}

static int
bad(struct diag *d, const char *label, size_t line, const char *what)
{
	return diag_set(d, EX_DATAERR, "%s:%zu: %s (remove it: it is learnt "
	    "again from history/)", label, line, what);
}

/* A whole decimal number of at least min, digits only. */
static int
number(const char *s, long long min, long long *out)
{
	char *end;
	const char *p;

	if (*s == '\0' || strlen(s) > 18)
		return -1;
	for (p = s; *p; p++)
		if (*p < '0' || *p > '9')
			return -1;
	errno = 0;
	*out = strtoll(s, &end, 10);
	return errno != 0 || *end != '\0' || *out < min ? -1 : 0;
}

/* TIME-HEX: digits, a dash, 16 lower-case hex digits. */
static int
stem_ok(const char *s)
{
	const char *dash = strchr(s, '-'), *p;

	if (dash == NULL || dash == s || strlen(dash + 1) != 16 ||
	    (size_t)(dash - s) > 19)
		return 0;
	for (p = s; p < dash; p++)
		if (*p < '0' || *p > '9')
			return 0;
	for (p = dash + 1; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return 0;
	return 1;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct lifetime_open *)a)->name,
	    ((const struct lifetime_open *)b)->name);
}

struct parsed_open {
	struct lifetime_open o;
	size_t line;
};

struct parsed {
	struct parsed_open *v;
	size_t n, cap;
};

static int
add_open(struct parsed *p, const char *name, long long since, int known,
    size_t line)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		void *v = realloc(p->v, cap * sizeof *p->v);
		if (v == NULL)
			return -1;
		p->v = v;
		p->cap = cap;
	}
	if ((p->v[p->n].o.name = strdup(name)) == NULL)
		return -1;
	p->v[p->n].o.since = since;
	p->v[p->n].o.known = known;
	p->v[p->n++].line = line;
	return 0;
}

static int
by_parsed_name(const void *a, const void *b)
{
	const struct parsed_open *x = a, *y = b;
	int c = strcmp(x->o.name, y->o.name);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* One line's words, split in place; at most max. */
static size_t
words(char *s, char **w, size_t max)
{
	size_t n = 0;
	char *save = NULL, *tok;

	for (tok = strtok_r(s, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save))
		if (n < max + 1)
			w[n++] = tok;
	return n;
}

static int
parse_line(struct lifetime_table *t, struct parsed *p, const char *label,
    size_t ln, char *s, double *last, struct diag *d)
{
	char *w[5], err[256], msg[320];
	struct hostlist hl;
	long long a, b;
	size_t n = words(s, w, 4), i;
	int known;
	uint64_t h;

	if (n == 0)
		return bad(d, label, ln, "an empty line");
	if (strcmp(w[0], "index") == 0) {
		if (n != 4 || number(w[1], 0, &a) < 0 || number(w[2], 0, &b) <
		    0 || b <= a || !stem_ok(w[3]))
			return bad(d, label, ln, "index must be START END "
			    "TIME-HEX, START < END");
		if (t->stem[0] != '\0')
			return bad(d, label, ln, "a second index line");
		t->index_start = a;
		t->index_end = b;
		memcpy(t->stem, w[3], strlen(w[3]) + 1);
	} else if (strcmp(w[0], "holes") == 0) {
		if (n != 3 || number(w[1], 1, &a) < 0 ||
		    hash_parse(w[2], &h) < 0)
			return bad(d, label, ln, "holes must be TIME xxh3:HEX");
		if (t->holes[0] != '\0')
			return bad(d, label, ln, "a second holes line");
		t->time = a;
		hash_format(h, t->holes);
	} else if (strcmp(w[0], "hole") == 0) {
		if (n != 3 || number(w[1], 1, &a) < 0 ||
		    number(w[2], 1, &b) < 0)
			return bad(d, label, ln, "hole must be SECONDS COUNT, "
			    "both whole and above 0");
		if ((double)a <= *last)
			return bad(d, label, ln, "hole lengths must ascend");
		*last = (double)a;
		if (lifetime_add_n(&t->life, (double)a, (size_t)b) < 0)
			return diag_errno(d, ENOMEM, "%s", label);
	} else if (strcmp(w[0], "idle") == 0 ||
	    strcmp(w[0], "idle-before") == 0) {
		known = strcmp(w[0], "idle") == 0;
		if (n != 3 || number(w[1], 0, &a) < 0)
			return bad(d, label, ln, "idle must be SINCE HOSTLIST");
		if (t->holes[0] == '\0' || a > t->time)
			return bad(d, label, ln, "idle since after the holes "
			    "line's time, or without one before it");
		hostlist_init(&hl);
		if (hostlist_parse(&hl, w[2], err, sizeof err) < 0) {
			hostlist_free(&hl);
			snprintf(msg, sizeof msg, "idle: %s", err);
			return bad(d, label, ln, msg);
		}
		for (i = 0; i < hl.n; i++)
			if (add_open(p, hl.names[i], a, known, ln) < 0) {
				hostlist_free(&hl);
				return diag_errno(d, ENOMEM, "%s", label);
			}
		hostlist_free(&hl);
	} else
		return bad(d, label, ln, "unknown line (index, holes, hole, "
		    "idle, idle-before)");
	return 0;
}

int
lifetime_table_parse(struct lifetime_table *t, const char *label,
    const char *buf, size_t len, struct diag *d)
{
	struct parsed p = { NULL, 0, 0 };
	size_t hl = strlen(LIFETIME_HEADER), ln = 1, i;
	char *copy, *s, *nl;
	double last = 0;
	int rc = 0;

	lifetime_table_free(t);
	if (len < hl || memcmp(buf, LIFETIME_HEADER, hl) != 0)
		return bad(d, label, 1, "not a lifetimes file (its first line "
		    "is not '# bftrainer lifetimes 1')");
	if (buf[len - 1] != '\n') {
		for (i = 0; i < len; i++)
			ln += buf[i] == '\n';
		return bad(d, label, ln, "cut short: no newline at its end");
	}
	if (memchr(buf, '\0', len) != NULL)
		return bad(d, label, 1, "a NUL byte");
	if ((copy = malloc(len - hl + 1)) == NULL)
		return diag_errno(d, ENOMEM, "%s", label);
	memcpy(copy, buf + hl, len - hl);
	copy[len - hl] = '\0';
	for (s = copy; rc == 0 && *s != '\0'; s = nl + 1) {
		nl = strchr(s, '\n');
		*nl = '\0';
		ln++;
		if (*s != '#')
			rc = parse_line(t, &p, label, ln, s, &last, d);
	}
	free(copy);
	if (rc == 0 && p.n > 1)
		qsort(p.v, p.n, sizeof *p.v, by_parsed_name);
	for (i = 1; rc == 0 && i < p.n; i++)
		if (strcmp(p.v[i - 1].o.name, p.v[i].o.name) == 0) {
			char msg[HOSTLIST_MAX_NAME + 64];
			snprintf(msg, sizeof msg, "node %s is idle twice "
			    "(line %zu too)", p.v[i].o.name, p.v[i - 1].line);
			rc = bad(d, label, p.v[i].line, msg);
		}
	if (p.n > 0 && (t->open = malloc(p.n * sizeof *t->open)) == NULL) {
		for (i = 0; i < p.n; i++)
			free(p.v[i].o.name);
		p.n = 0;
		rc = diag_errno(d, ENOMEM, "%s", label);
	}
	for (i = 0; i < p.n; i++)
		t->open[i] = p.v[i].o;
	free(p.v);
	t->nopen = p.n;
	if (rc == 0 && lifetime_refresh(&t->life) < 0)
		rc = diag_errno(d, ENOMEM, "%s", label);
	if (rc < 0)
		lifetime_table_free(t);
	return rc;
}

static int
by_since(const void *a, const void *b)
{
	const struct lifetime_open *x = *(const struct lifetime_open *const *)a;
	const struct lifetime_open *y = *(const struct lifetime_open *const *)b;

	if (x->known != y->known)
		return y->known - x->known;
	return (x->since > y->since) - (x->since < y->since);
}

char *
lifetime_table_format(const struct lifetime_table *t, size_t *len)
{
	const struct lifetime_open **v = NULL;
	struct hostlist hl;
	char *buf = NULL, *list;
	size_t size = 0, i, j;
	FILE *fp;
	int failed = 0;

	if ((fp = open_memstream(&buf, &size)) == NULL)
		return NULL;
	fputs(LIFETIME_HEADER, fp);
	if (t->stem[0] != '\0')
		fprintf(fp, "index %lld %lld %s\n", t->index_start,
		    t->index_end, t->stem);
	if (t->holes[0] != '\0')
		fprintf(fp, "holes %lld %s\n", t->time, t->holes);
	for (i = 0; i < t->life.n; i++)
		fprintf(fp, "hole %.0f %zu\n", t->life.dur[i], t->life.cnt[i]);
	if (t->nopen > 0 && (v = malloc(t->nopen * sizeof *v)) == NULL)
		failed = 1;
	for (i = 0; !failed && i < t->nopen; i++)
		v[i] = &t->open[i];
	if (!failed && t->nopen > 1)
		qsort(v, t->nopen, sizeof *v, by_since);
	for (i = 0; !failed && i < t->nopen; i = j) {
		hostlist_init(&hl);
		for (j = i; j < t->nopen && v[j]->known == v[i]->known &&
		    v[j]->since == v[i]->since; j++)
			if (hostlist_add(&hl, v[j]->name) < 0)
				failed = 1;
		hostlist_sort_uniq(&hl);
		if (!failed && (list = hostlist_compress(&hl)) != NULL) {
			fprintf(fp, "%s %lld %s\n", v[i]->known ? "idle" :
			    "idle-before", v[i]->since, list);
			free(list);
		} else
			failed = 1;
		hostlist_free(&hl);
	}
	free(v);
	if ((ferror(fp) | fclose(fp)) || failed) {
		free(buf);
		return NULL;
	}
	*len = size;
	return buf;
}

static int
by_string(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
lifetime_table_learn(struct lifetime_table *t, const struct holes *h,
    const char *digest, struct diag *d)
{
	struct lifetime_open *next;
	const char **names;
	size_t i = 0, j = 0, n = 0;
	int first = t->holes[0] == '\0', c;

	if (!first && (h->time < t->time || strcmp(digest, t->holes) == 0))
		return 0;
	names = malloc((h->n + 1) * sizeof *names);
	next = malloc((t->nopen + h->n + 1) * sizeof *next);
	if (names == NULL || next == NULL) {
		free(names);
		free(next);
		return diag_errno(d, ENOMEM, "hole lifetimes");
	}
	for (i = 0; i < h->n; i++)
		names[i] = h->nodes[i].name;
	qsort(names, h->n, sizeof *names, by_string);
	for (i = 0; i < t->nopen || j < h->n;) {
		if (j < h->n && j > 0 && strcmp(names[j], names[j - 1]) == 0) {
			j++;	/* a node named twice */
			continue;
		}
		c = i == t->nopen ? 1 : j == h->n ? -1 :
		    strcmp(t->open[i].name, names[j]);
		if (c < 0) {
			/* idle before, not now: its hole ended */
			const struct lifetime_open *o = &t->open[i++];
			if (o->known && h->time > o->since &&
			    lifetime_add(&t->life, (double)(h->time -
			    o->since)) < 0) {
				free(o->name);
				goto nomem;
			}
			free(o->name);
		} else if (c == 0) {
			next[n++] = t->open[i++];
			j++;
		} else {
			if ((next[n].name = strdup(names[j++])) == NULL)
				goto nomem;
			next[n].since = h->time;
			next[n++].known = !first;
		}
	}
	free(names);
	free(t->open);
	t->open = next;
	t->nopen = n;
	t->time = h->time;
	snprintf(t->holes, sizeof t->holes, "%s", digest);
	if (lifetime_refresh(&t->life) < 0)
		return diag_errno(d, ENOMEM, "hole lifetimes");
	return 0;
nomem:
	/* the nodes not yet moved are freed with the table */
	for (; i < t->nopen; i++)
		next[n++] = t->open[i];
	free(names);
	free(t->open);
	t->open = next;
	t->nopen = n;
	return diag_errno(d, ENOMEM, "hole lifetimes");
}

double
lifetime_table_remaining(const struct lifetime_table *t, const char *node,
    long long time)
{
	struct lifetime_open key = { (char *)node, 0, 0 }, *o = NULL;
	double age = 0, r;

	if (t->nopen > 0)
		o = bsearch(&key, t->open, t->nopen, sizeof *t->open, by_name);
	if (o != NULL && time > o->since)
		age = (double)(time - o->since);
	r = lifetime_residual(&t->life, age);
	/* older than the data support: it outlived them */
	if (r < 0 && lifetime_residual(&t->life, 0) >= 0)
		return INFINITY;
	return r;
}

/* The bytes of fd from off to its end (at most max). */
static char *
read_from(int fd, off_t off, size_t max, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1), *p;
	ssize_t r;

	if (buf == NULL)
		return NULL;
	for (;;) {
		if (n == cap) {
			if (cap >= max || (p = realloc(buf, 2 * cap + 1)) ==
			    NULL) {
				free(buf);
				return NULL;
			}
			buf = p;
			cap *= 2;
		}
		r = pread(fd, buf + n, cap - n, off + (off_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* The holes digest a plan's manifest names; "" when it has none. */
static int
manifest_holes(int hfd, const char *stem, char digest[HASH_TEXT_LEN],
    struct diag *d)
{
	char name[LIFETIME_STEM_MAX + 16], label[LIFETIME_STEM_MAX + 32];
	const struct ydoc_node *v;
	struct ydoc doc;
	char *buf;
	size_t len;
	uint64_t h;
	int rc = 0;

	digest[0] = '\0';
	snprintf(name, sizeof name, "%s.inputs.yaml", stem);
	snprintf(label, sizeof label, "history/%s", name);
	if (file_read_named(hfd, name, label, HISTORY_MAX_FILE, FILE_NOFOLLOW,
	    &buf, &len, d) < 0) {
		if (d->code != EX_NOINPUT)
			return -1;
		diag_clear(d);	/* a manifest removed: nothing to learn */
		return 0;
	}
	if (ydoc_load(&doc, label, buf, len, d) < 0) {
		free(buf);
		return -1;
	}
	if (doc.root == NULL || doc.root->kind != YDOC_MAPPING ||
	    (v = ydoc_get(doc.root, "holes")) == NULL)
		rc = diag_set(d, EX_DATAERR, "%s:%zu: a manifest names its "
		    "holes", label, doc.root ? doc.root->line : (size_t)1);
	else if (v->kind != YDOC_SCALAR || hash_parse(v->value, &h) < 0)
		rc = diag_set(d, EX_DATAERR, "%s:%zu: holes must be a digest "
		    "(xxh3:HEX)", label, v->line);
	else
		hash_format(h, digest);
	ydoc_free(&doc);
	free(buf);
	return rc;
}

/* Learn from the holes object of one plan's manifest. */
static int
learn_plan(struct lifetime_table *t, int hfd, int *objfd, const char *stem,
    struct diag *d)
{
	char digest[HASH_TEXT_LEN], label[64];
	struct holes h;
	uint64_t want;
	char *buf;
	size_t len;
	int rc;

	if (manifest_holes(hfd, stem, digest, d) < 0)
		return -1;
	if (digest[0] == '\0' || strcmp(digest, t->holes) == 0)
		return 0;
	if (*objfd < 0 && (*objfd = openat(hfd, "objects", O_RDONLY |
	    O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return diag_set(d, errno == ENOENT ? EX_NOINPUT : EX_DATAERR,
		    "unable to open history/objects: %s", strerror(errno));
	snprintf(label, sizeof label, "history/objects/%s", digest + 5);
	if (file_read_named(*objfd, digest + 5, label, HOLES_MAX_FILE,
	    FILE_NOFOLLOW, &buf, &len, d) < 0)
		return -1;
	if (hash_parse(digest, &want) < 0 || hash_buf(buf, len) != want) {
		free(buf);
		return diag_set(d, EX_DATAERR, "%s:1: its bytes are not its "
		    "name's digest", label);
	}
	holes_init(&h);
	rc = holes_parse(&h, label, buf, len, d);
	free(buf);
	if (rc == 0)
		rc = lifetime_table_learn(t, &h, digest, d);
	holes_free(&h);
	return rc;
}

/* Whether the line at buf (the index from t->index_start) is t's. */
static int
same_line(const struct lifetime_table *t, const char *buf, size_t len)
{
	size_t l = (size_t)(t->index_end - t->index_start), sl;
	const char *sp;

	if (l > len || buf[l - 1] != '\n' || memchr(buf, '\n', l - 1) != NULL)
		return 0;
	if ((sp = memchr(buf, ' ', l)) == NULL)
		return 0;
	sl = strlen(t->stem);
	return (size_t)(buf + l - sp) > sl + 1 && memcmp(sp + 1, t->stem,
	    sl) == 0 && (sp[sl + 1] == ' ' || sp[sl + 1] == '\n');
}

/* Learn from the lines of buf (the index from off), after the first. */
static int
learn_lines(struct lifetime_table *t, int hfd, char *buf, size_t len,
    off_t off, int skip_first, int *changed, struct diag *d)
{
	char *p = buf, *end = buf + len, *nl, *sp, *stem;
	int objfd = -1, rc = 0;

	for (; rc == 0 && p < end && (nl = memchr(p, '\n',
	    (size_t)(end - p))) != NULL; p = nl + 1) {
		long long start = (long long)off + (p - buf);
		*nl = '\0';
		if (skip_first) {
			skip_first = 0;
			continue;
		}
		/* a tab ends a line cut short (history.c): left out */
		if (*p == '#' || strchr(p, '\t') != NULL ||
		    (sp = strchr(p, ' ')) == NULL)
			continue;
		stem = sp + 1;
		if ((sp = strchr(stem, ' ')) != NULL)
			*sp = '\0';
		if (!stem_ok(stem))
			continue;
		rc = learn_plan(t, hfd, &objfd, stem, d);
		t->index_start = start;
		t->index_end = (long long)off + (nl + 1 - buf);
		memcpy(t->stem, stem, strlen(stem) + 1);
		*changed = 1;
	}
	if (objfd >= 0)
		close(objfd);
	return rc;
}

int
lifetime_spool_update(struct spool *sp, struct lifetime_table *t,
    struct diag *d)
{
	size_t len, hl = strlen(HISTORY_INDEX_HEADER);
	int hfd, fd, changed = 0, rc, tmpfd;
	off_t off = 0;
	struct stat st;
	char *buf, *text;

	lifetime_table_free(t);
	if (file_read_named(sp->fd, LIFETIME_FILE, LIFETIME_FILE,
	    LIFETIME_MAX_FILE, FILE_NOFOLLOW, &buf, &len, d) == 0) {
		rc = lifetime_table_parse(t, LIFETIME_FILE, buf, len, d);
		free(buf);
		if (rc < 0)
			return -1;
	} else if (d->code != EX_NOINPUT)
		return -1;
	diag_clear(d);
	if ((hfd = sp->dirs[SPOOL_HISTORY]) < 0)
		return 0;
	if ((fd = openat(hfd, HISTORY_INDEX, O_RDONLY | O_NOFOLLOW |
	    O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			return 0;
		return diag_set(d, diag_code_for_errno(errno), "unable to open "
		    "history/%s: %s", HISTORY_INDEX, strerror(errno));
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return diag_set(d, EX_DATAERR, "history/%s: not a regular "
		    "file", HISTORY_INDEX);
	}
	if (t->stem[0] != '\0' && st.st_size >= t->index_end)
		off = (off_t)t->index_start;
	else if (t->stem[0] != '\0') {
		/* the index is shorter than the line learnt last: made again */
		lifetime_table_free(t);
		changed = 1;
	}
	for (;;) {
		if ((buf = read_from(fd, off, (size_t)LIFETIME_MAX_FILE * 64,
		    &len)) == NULL) {
			close(fd);
			return diag_set(d, EX_IOERR, "unable to read "
			    "history/%s", HISTORY_INDEX);
		}
		if (off == 0 || same_line(t, buf, len))
			break;
		/* not the line learnt last: the index was made again */
		free(buf);
		lifetime_table_free(t);
		off = 0;
		changed = 1;
	}
	close(fd);
	if (off == 0 && (len < hl || memcmp(buf, HISTORY_INDEX_HEADER, hl))) {
		free(buf);
		return 0;	/* no header yet, or not an index: as none */
	}
	rc = learn_lines(t, hfd, buf, len, off, 1, &changed, d);
	free(buf);
	if (rc < 0 || !changed)
		return rc;
	if ((tmpfd = spool_dirfd(sp, SPOOL_TMP, d)) < 0)
		return -1;
	if ((text = lifetime_table_format(t, &len)) == NULL)
		return diag_errno(d, ENOMEM, "%s", LIFETIME_FILE);
	rc = file_write_atomic(tmpfd, sp->fd, LIFETIME_FILE, text, len, 0644,
	    0, d);
	free(text);
	return rc;
}
