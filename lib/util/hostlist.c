/*
 * NAME
 *	hostlist - Slurm hostlist expressions: parse, sort, compress
 * SYNOPSIS
 *	#include "util/hostlist.h"
 * DESCRIPTION
 *	See hostlist.h for the interface.  Parsing takes two passes over the
 *	expression: the first validates it and computes how many hosts it
 *	expands to and how long the longest name is, without allocating;
 *	only then does the second pass expand it.  That bounds the memory a
 *	hostile expression such as "n[0-9999999999]" can make us use, and
 *	leaves the list untouched on any syntax error.
 *
 *	Sorting and compression split each name once into a key (prefix,
 *	trailing number) so that qsort() does not re-split on every
 *	comparison; compression then walks the sorted, deduplicated keys
 *	once, so the work is O(n log n).
 * DIAGNOSTICS
 *	hostlist_parse() reports the first error in the expression, as
 *	"bad hostlist 'EXPR': REASON", with errno EINVAL, or "out of
 *	memory" with errno ENOMEM.  Allocation failures elsewhere return -1
 *	or NULL with errno ENOMEM.
 */
#include "util/array.h"
#include "util/hostlist.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest expression echoed in a message, so the reason is not cut off. */
#define ECHO_MAX	60

struct range {
	unsigned long long lo, hi;
	int	width;			/* strlen(lo): zero padding of members */
};

/* Parser state: position, and the reason for the first error. */
struct scan {
	const char *p;
	char	why[160];
};

/* A name split into prefix and trailing number, computed once per name. */
struct key {
	const char *name;
	size_t	len;
	size_t	plen;			/* prefix length */
	size_t	ndig;			/* digits of the number, 0 if none */
	unsigned long long val;
};

/* Output cursor into a buffer sized in advance by compress_bound(). */
struct out {
	char   *p;
	size_t	items;
};

static int expand(struct hostlist *, char *, size_t, const char *);

/* Not isdigit()/isalnum(): host names must not depend on the locale. */
static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
is_name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    is_digit(c) || c == '.' || c == '_' || c == '-';
}

int
hostlist_valid_name(const char *name)
{
	size_t n;

	for (n = 0; name[n] != '\0'; n++)
		if (!is_name_char((unsigned char)name[n]) ||
		    n == HOSTLIST_MAX_NAME)
			return 0;
	return n > 0;
}

void
hostlist_init(struct hostlist *hl)
{
	hl->names = NULL;
	hl->n = hl->cap = 0;
}

void
hostlist_free(struct hostlist *hl)
{
	size_t	i;

	for (i = 0; i < hl->n; i++)
		free(hl->names[i]);
	free(hl->names);
	hostlist_init(hl);
}

static int
grow(struct hostlist *hl)
{
	char  **names = array_grow(hl->names, &hl->cap, hl->n + 1,
	    sizeof *names, 16);

	if (names == NULL)
		return -1;
	hl->names = names;
	return 0;
}

int
hostlist_add(struct hostlist *hl, const char *name)
{
	char   *copy;

	if (hl->n == hl->cap && grow(hl) < 0)
		return -1;
	if ((copy = strdup(name)) == NULL)
		return -1;
	hl->names[hl->n++] = copy;
	return 0;
}

/* Drops names appended since a failed parse, so failure changes nothing. */
static void
truncate_to(struct hostlist *hl, size_t n)
{
	while (hl->n > n)
		free(hl->names[--hl->n]);
}

/* First pass: validation and sizing. */

__attribute__((format(printf, 2, 3)))
static int
fail(struct scan *sc, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(sc->why, sizeof sc->why, fmt, ap);
	va_end(ap);
	return -1;
}

/* Quotes a character for a message; control bytes would garble the line. */
static const char *
show_char(int c, char *buf, size_t len)
{
	if (c >= ' ' && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", (unsigned)c & 0xff);
	return buf;
}

static int
too_many(struct scan *sc)
{
	return fail(sc, "expands to more than %d hosts", HOSTLIST_MAX_HOSTS);
}

/* Explains what is wrong at sc->p inside brackets. */
static int
bracket_error(struct scan *sc, int want_number)
{
	int	c = (unsigned char)*sc->p;
	char	buf[16];

	if (c == '\0')
		return fail(sc, "'[' without matching ']'");
	if (c == '[')
		return fail(sc, "nested '['");
	if (want_number && (c == ',' || c == '-' || c == ']'))
		return fail(sc, "missing number in brackets");
	return fail(sc, "unexpected %s in brackets",
	    show_char(c, buf, sizeof buf));
}

static int
scan_number(struct scan *sc, unsigned long long *val, int *ndig)
{
	const char *s = sc->p;
	unsigned long long v = 0;
	size_t	n;

	for (n = 0; is_digit(s[n]); n++)
		if (n < HOSTLIST_MAX_DIGITS)
			v = v * 10 + (unsigned)(s[n] - '0');
	if (n == 0)
		return bracket_error(sc, 1);
	if (n > HOSTLIST_MAX_DIGITS)
		return fail(sc, "number %.*s%s has more than %d digits",
		    n > 20 ? 20 : (int)n, s, n > 20 ? "..." : "",
		    HOSTLIST_MAX_DIGITS);
	sc->p = s + n;
	*val = v;
	*ndig = (int)n;
	return 0;
}

/* Also used by the second pass, which knows it cannot fail. */
static int
scan_range(struct scan *sc, struct range *r)
{
	const char *start = sc->p;
	int	nhi;

	if (scan_number(sc, &r->lo, &r->width) < 0)
		return -1;
	r->hi = r->lo;
	if (*sc->p != '-')
		return 0;
	sc->p++;
	if (scan_number(sc, &r->hi, &nhi) < 0)
		return -1;
	if (r->hi < r->lo)
		return fail(sc, "range %.*s runs backwards",
		    (int)(sc->p - start), start);
	return 0;
}

/* Longest member of a range: hi may have more digits than the padding. */
static size_t
range_width(const struct range *r)
{
	unsigned long long v = r->hi;
	size_t	n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n > (size_t)r->width ? n : (size_t)r->width;
}

/* Validates a group after its '['; counts members, with duplicates. */
static int
scan_group(struct scan *sc, unsigned long long *count, size_t *width)
{
	struct range r;
	size_t	w;

	*count = 0;
	*width = 0;
	if (*sc->p == ']')
		return fail(sc, "empty brackets");
	for (;;) {
		if (scan_range(sc, &r) < 0)
			return -1;
		/* Both terms are at most 1e10 here, so no overflow. */
		*count += r.hi - r.lo + 1;
		if (*count > HOSTLIST_MAX_HOSTS)
			return too_many(sc);
		if ((w = range_width(&r)) > *width)
			*width = w;
		if (*sc->p == ']')
			break;
		if (*sc->p != ',')
			return bracket_error(sc, 0);
		sc->p++;
	}
	sc->p++;
	return 0;
}

/* Validates one item, stopping at the ',' or NUL that ends it. */
static int
scan_item(struct scan *sc, unsigned long long *count)
{
	const char *start = sc->p;
	unsigned long long n;
	size_t	len = 0, w;
	char	buf[16];
	int	c;

	for (*count = 1; (c = (unsigned char)*sc->p) != '\0' && c != ',';) {
		if (c == '[') {
			sc->p++;
			if (scan_group(sc, &n, &w) < 0)
				return -1;
			/* Both factors are at most 1e6: no overflow. */
			if ((*count *= n) > HOSTLIST_MAX_HOSTS)
				return too_many(sc);
			len += w;
		} else if (c == ']') {
			return fail(sc, "']' without matching '['");
		} else if (!is_name_char(c)) {
			return fail(sc, "%s not allowed in a host name",
			    show_char(c, buf, sizeof buf));
		} else {
			sc->p++;
			len++;
		}
		if (len > HOSTLIST_MAX_NAME)
			return fail(sc, "host name longer than %d characters",
			    HOSTLIST_MAX_NAME);
	}
	if (sc->p == start)
		return fail(sc, "empty item");
	return 0;
}

static int
scan_expr(struct scan *sc, const char *expr)
{
	unsigned long long total = 0, n;

	sc->p = expr;
	if (*expr == '\0')
		return 0;
	for (;;) {
		if (scan_item(sc, &n) < 0)
			return -1;
		if ((total += n) > HOSTLIST_MAX_HOSTS)
			return too_many(sc);
		if (*sc->p++ == '\0')
			return 0;
	}
}

/* Second pass: expansion of a validated expression. */

/*
 * snprintf(buf, size, "%0*llu", width, v), by hand: a plan or state of
 * 10,000 nodes expands 10,000 numbers each time it is read, and glibc's
 * snprintf takes its slow path for a '*' width.
 */
static int
put_number(char *buf, size_t size, int width, unsigned long long v)
{
	unsigned long long rest = v;
	char	digits[24];
	int	n = 0, len, i;

	do
		digits[n++] = (char)('0' + rest % 10);
	while ((rest /= 10) != 0);
	len = n < width ? width : n;
	if ((size_t)len >= size)	/* truncated: as snprintf does it */
		return snprintf(buf, size, "%0*llu", width, v);
	for (i = 0; i < len - n; i++)
		buf[i] = '0';
	while (n > 0)
		buf[i++] = digits[--n];
	buf[i] = '\0';
	return len;
}

static int
expand_range(struct hostlist *hl, char *buf, size_t len,
    const struct range *r, const char *rest)
{
	unsigned long long v;
	int	n;

	for (v = r->lo;; v++) {
		n = put_number(buf + len, HOSTLIST_MAX_NAME + 1 - len,
		    r->width, v);
		if (expand(hl, buf, len + (size_t)n, rest) < 0)
			return -1;
		if (v == r->hi)
			return 0;
	}
}

/* s is just after '['; the leftmost group varies slowest, as in Slurm. */
static int
expand_group(struct hostlist *hl, char *buf, size_t len, const char *s)
{
	const char *rest = strchr(s, ']') + 1;
	struct scan sc;
	struct range r;

	for (sc.p = s;; sc.p++) {
		(void)scan_range(&sc, &r);
		if (expand_range(hl, buf, len, &r, rest) < 0)
			return -1;
		if (*sc.p == ']')
			return 0;
	}
}

/* buf holds len characters of the name so far; s is the rest of the item. */
static int
expand(struct hostlist *hl, char *buf, size_t len, const char *s)
{
	while (*s != '\0' && *s != ',' && *s != '[')
		buf[len++] = *s++;
	if (*s == '[')
		return expand_group(hl, buf, len, s + 1);
	buf[len] = '\0';
	return hostlist_add(hl, buf);
}

/* Skips one item; commas inside brackets do not end it. */
static const char *
item_end(const char *s)
{
	for (; *s != '\0' && *s != ','; s++)
		if (*s == '[')
			s = strchr(s, ']');
	return s;
}

static int
expand_expr(struct hostlist *hl, const char *expr)
{
	char	buf[HOSTLIST_MAX_NAME + 1];
	const char *s;

	for (s = expr; *s != '\0';) {
		if (expand(hl, buf, 0, s) < 0)
			return -1;
		if (*(s = item_end(s)) == ',')
			s++;
	}
	return 0;
}

/*
 * The expression is quoted in the message cut to ECHO_MAX bytes, every
 * byte that is not printable ASCII or a tab shown as '?' (a hostlist is
 * ASCII): no escape sequence, line end or bidirectional control reaches
 * a log.
 */
static int
report(char *err, size_t errlen, const char *expr, const char *why)
{
	char	shown[ECHO_MAX + 1];
	size_t	len = strlen(expr), i;

	for (i = 0; i < len && i < ECHO_MAX; i++)
		shown[i] = (expr[i] >= 0x20 && expr[i] < 0x7f) ||
		    expr[i] == '\t' ? expr[i] : '?';
	shown[i] = '\0';
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "bad hostlist '%s%s': %s", shown,
		    len > ECHO_MAX ? "..." : "", why);
	return -1;
}

int
hostlist_parse(struct hostlist *hl, const char *expr, char *err,
    size_t errlen)
{
	struct scan sc;
	size_t	n0 = hl->n;

	if (scan_expr(&sc, expr) < 0) {
		errno = EINVAL;
		return report(err, errlen, expr, sc.why);
	}
	if (expand_expr(hl, expr) < 0) {
		truncate_to(hl, n0);
		errno = ENOMEM;
		return report(err, errlen, expr, "out of memory");
	}
	return 0;
}

/* Canonical order. */

/* Too many digits cannot be bracketed, so such a name has no number. */
static void
split_name(const char *name, struct key *k)
{
	size_t	i;

	k->name = name;
	k->len = strlen(name);
	for (i = k->len; i > 0 && is_digit(name[i - 1]); i--)
		continue;
	k->ndig = k->len - i;
	if (k->ndig > HOSTLIST_MAX_DIGITS)
		k->ndig = 0;
	k->plen = k->len - k->ndig;
	for (k->val = 0, i = k->plen; i < k->len; i++)
		k->val = k->val * 10 + (unsigned)(name[i] - '0');
}

static int
sign(int c)
{
	return (c > 0) - (c < 0);
}

static int
same_prefix(const struct key *a, const struct key *b)
{
	return a->plen == b->plen && memcmp(a->name, b->name, a->plen) == 0;
}

static int
cmp_keys(const struct key *a, const struct key *b)
{
	size_t	n = a->plen < b->plen ? a->plen : b->plen;
	int	c;

	if ((c = memcmp(a->name, b->name, n)) != 0)
		return sign(c);
	if (a->plen != b->plen)
		return a->plen < b->plen ? -1 : 1;
	if ((a->ndig > 0) != (b->ndig > 0))
		return a->ndig > 0 ? 1 : -1;
	if (a->val != b->val)
		return a->val < b->val ? -1 : 1;
	return (a->ndig > b->ndig) - (a->ndig < b->ndig);
}

int
hostlist_cmp_names(const char *a, const char *b)
{
	struct key ka, kb;

	split_name(a, &ka);
	split_name(b, &kb);
	return cmp_keys(&ka, &kb);
}

static int
qsort_keys(const void *a, const void *b)
{
	return cmp_keys(a, b);
}

static int
qsort_names(const void *a, const void *b)
{
	return hostlist_cmp_names(*(char *const *)a, *(char *const *)b);
}

/* Returns hl's names as keys in canonical order, or NULL (ENOMEM). */
static struct key *
sorted_keys(const struct hostlist *hl)
{
	struct key *k;
	size_t	i;

	if (hl->n > SIZE_MAX / sizeof *k) {
		errno = ENOMEM;
		return NULL;
	}
	if ((k = malloc((hl->n ? hl->n : 1) * sizeof *k)) == NULL)
		return NULL;
	for (i = 0; i < hl->n; i++)
		split_name(hl->names[i], &k[i]);
	/* Already in order (a range expanded, a list made sorted): kept. */
	for (i = 1; i < hl->n && cmp_keys(&k[i - 1], &k[i]) <= 0; i++)
		continue;
	if (i < hl->n)
		qsort(k, hl->n, sizeof *k, qsort_keys);
	return k;
}

void
hostlist_sort_uniq(struct hostlist *hl)
{
	struct key *k;
	size_t	i, n;

	if ((k = sorted_keys(hl)) != NULL) {
		/* The keys borrowed hl's own pointers; give them back. */
		for (i = 0; i < hl->n; i++)
			hl->names[i] = (char *)k[i].name;
		free(k);
	} else {
		/* Slower, but sorting must not fail for want of memory. */
		if (hl->n > 1)
			qsort(hl->names, hl->n, sizeof *hl->names, qsort_names);
	}
	/* Equal in canonical order means equal strings. */
	for (n = 0, i = 0; i < hl->n; i++) {
		if (n > 0 && strcmp(hl->names[n - 1], hl->names[i]) == 0)
			free(hl->names[i]);
		else
			hl->names[n++] = hl->names[i];
	}
	hl->n = n;
}

static int
bsearch_name(const void *key, const void *elem)
{
	return hostlist_cmp_names(*(const char *const *)key,
	    *(char *const *)elem);
}

int
hostlist_contains(const struct hostlist *hl, const char *name)
{
	if (hl->n == 0)
		return 0;
	return bsearch(&name, hl->names, hl->n, sizeof *hl->names,
	    bsearch_name) != NULL;
}

/* Compression. */

static size_t
uniq_keys(struct key *k, size_t n)
{
	size_t	i, m;

	for (m = 0, i = 0; i < n; i++)
		if (m == 0 || cmp_keys(&k[m - 1], &k[i]) != 0)
			k[m++] = k[i];
	return m;
}

/*
 * A bracketed form is never longer than the names it replaces plus its
 * brackets: "lo-hi" is no longer than the first and last member and the
 * comma between them.  So len + 3 per name is a safe upper bound.
 */
static size_t
compress_bound(const struct key *k, size_t n)
{
	size_t	i, size = 1;

	for (i = 0; i < n; i++)
		size += k[i].len + 3;
	return size;
}

static void
put_item(struct out *o, const char *s, size_t len)
{
	if (o->items++ > 0)
		*o->p++ = ',';
	memcpy(o->p, s, len);
	o->p += len;
}

static void
put_num(struct out *o, unsigned long long v, size_t width)
{
	o->p += sprintf(o->p, "%0*llu", (int)width, v);
}

/* "01" and "00" are padded; "0" and "10" are not. */
static int
is_padded(const struct key *k)
{
	return k->ndig > 1 && k->name[k->plen] == '0';
}

/* Whether k prints as itself when a range pads its members to width. */
static int
fits_width(const struct key *k, size_t width)
{
	return is_padded(k) ? k->ndig == width : k->ndig >= width;
}

/* Emits the longest range starting at k[i]; returns the index after it. */
static size_t
put_range(struct out *o, const struct key *k, size_t i, size_t end)
{
	size_t	width = is_padded(&k[i]) ? k[i].ndig : 0, j;

	for (j = i + 1; j < end; j++)
		if (k[j].val != k[j - 1].val + 1 || !fits_width(&k[j], width))
			break;
	put_num(o, k[i].val, width);
	if (j - i > 1) {
		*o->p++ = '-';
		put_num(o, k[j - 1].val, width);
	}
	return j;
}

/* k[i..end) are the numbered names of one prefix, at least two. */
static void
put_bracket(struct out *o, const struct key *k, size_t i, size_t end)
{
	put_item(o, k[i].name, k[i].plen);
	*o->p++ = '[';
	while ((i = put_range(o, k, i, end)) < end)
		*o->p++ = ',';
	*o->p++ = ']';
}

/* Emits every name sharing k[i]'s prefix; returns the index past them. */
static size_t
put_prefix(struct out *o, const struct key *k, size_t i, size_t n)
{
	const struct key *prefix = &k[i];
	size_t	end;

	/* Sorting put the one name without a number first. */
	if (k[i].ndig == 0) {
		put_item(o, k[i].name, k[i].len);
		i++;
	}
	for (end = i; end < n && same_prefix(&k[end], prefix); end++)
		continue;
	if (end - i == 1)
		put_item(o, k[i].name, k[i].len);
	else if (end - i > 1)
		put_bracket(o, k, i, end);
	return end;
}

char *
hostlist_compress(const struct hostlist *hl)
{
	struct key *k;
	struct out o;
	size_t	i, n;
	char   *buf;

	if ((k = sorted_keys(hl)) == NULL)
		return NULL;
	n = uniq_keys(k, hl->n);
	if ((buf = malloc(compress_bound(k, n))) != NULL) {
		o.p = buf;
		o.items = 0;
		for (i = 0; i < n;)
			i = put_prefix(&o, k, i, n);
		*o.p = '\0';
	}
	free(k);
	return buf;
}

int
hostlist_equal(const struct hostlist *a, const struct hostlist *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->names[i], b->names[i]) != 0)
			return 0;
	return 1;
}
