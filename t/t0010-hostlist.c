/*
 * NAME
 *	t0010-hostlist - tests for lib/util/hostlist.c
 * SYNOPSIS
 *	t0010-hostlist
 *	HOSTLIST_SEED=n t0010-hostlist
 * DESCRIPTION
 *	Fixed cases for parsing, compression and every error message, then
 *	a randomised property test: expressions are generated together with
 *	their expansion, built here with snprintf and never by the module,
 *	and parse, compress, re-parse, idempotence and order independence
 *	are checked against it.  The seed is printed and can be set with
 *	HOSTLIST_SEED to replay a failure.  Output is TAP.
 * DIAGNOSTICS
 *	Exit status 0 when every check passed, 1 otherwise.
 */
#include "util/hostlist.h"

#include "tap.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RANDOM_EXPRS	2000
#define RANDOM_SETS	1000
#define SHOW_FAILURES	5

/* A string vector of our own, so expected values never use the module. */
struct vec {
	char  **v;
	size_t	n, cap;
};

static void *
xmalloc(size_t size)
{
	void   *p = malloc(size ? size : 1);

	if (p == NULL) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	return p;
}

static char *
xstrdup(const char *s)
{
	return strcpy(xmalloc(strlen(s) + 1), s);
}

static void
vec_add(struct vec *a, const char *s)
{
	char  **v;

	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 16;
		v = xmalloc(a->cap * sizeof *v);
		if (a->n)
			memcpy(v, a->v, a->n * sizeof *v);
		free(a->v);
		a->v = v;
	}
	a->v[a->n++] = xstrdup(s);
}

static void
vec_free(struct vec *a)
{
	while (a->n > 0)
		free(a->v[--a->n]);
	free(a->v);
	a->v = NULL;
	a->cap = 0;
}

/* Comma-separated, malloc'd: one string is easy to compare and show. */
static char *
join(char *const *v, size_t n)
{
	size_t	i, len = 1;
	char   *s, *p;

	for (i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	p = s = xmalloc(len);
	*p = '\0';
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s%s", i ? "," : "", v[i]);
	return s;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The set of v's strings in strcmp order, joined: an order-free value. */
static char *
set_of(char *const *v, size_t n)
{
	char  **copy = xmalloc(n * sizeof *copy);
	size_t	i, m = 0;
	char   *s;

	if (n)
		memcpy(copy, v, n * sizeof *copy);
	qsort(copy, n, sizeof *copy, cmp_str);
	for (i = 0; i < n; i++)
		if (m == 0 || strcmp(copy[m - 1], copy[i]) != 0)
			copy[m++] = copy[i];
	s = join(copy, m);
	free(copy);
	return s;
}

/* Adds the names of a comma-separated list (no brackets) one by one. */
static void
add_csv(struct hostlist *hl, const char *csv)
{
	char   *copy = xstrdup(csv), *save = NULL, *tok;

	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save))
		if (hostlist_add(hl, tok) < 0)
			ok(0, "hostlist_add %s", tok);
	free(copy);
}

/* Fixed cases. */

static const struct {
	const char *expr, *want;
} parse_cases[] = {
	{ "", "" },
	{ "n1", "n1" },
	{ "n[1-3,5]", "n1,n2,n3,n5" },
	{ "a01n[01-03]", "a01n01,a01n02,a01n03" },
	{ "a[01-02]n[01-03]",
	    "a01n01,a01n02,a01n03,a02n01,a02n02,a02n03" },
	{ "rack[1-2]-node3", "rack1-node3,rack2-node3" },
	{ "a01n[01-02],b02n03,c[1-2]", "a01n01,a01n02,b02n03,c1,c2" },
	{ "n[8-10]", "n8,n9,n10" },
	{ "n[9-010]", "n9,n10" },
	{ "n[007]", "n007" },
	{ "n[00-01]", "n00,n01" },
	{ "n[0]", "n0" },
	{ "[1-3]", "1,2,3" },
	{ "n[1][2]x", "n12x" },
	{ "x.y_z-1,X-Y", "x.y_z-1,X-Y" },
	{ "n[2-3,1-2]", "n2,n3,n1,n2" },
	{ "b,a,b", "b,a,b" },
	{ "n[9999999998-9999999999]", "n9999999998,n9999999999" },
	{ "a[1-2]b[1-2]c[1-2]",
	    "a1b1c1,a1b1c2,a1b2c1,a1b2c2,a2b1c1,a2b1c2,a2b2c1,a2b2c2" },
	{ "n[1-2],n[2-3]", "n1,n2,n2,n3" },
};

static void
test_parse_cases(void)
{
	struct hostlist hl;
	char	err[256];
	size_t	i;
	char   *got;

	for (i = 0; i < sizeof parse_cases / sizeof *parse_cases; i++) {
		hostlist_init(&hl);
		err[0] = '\0';
		is_int(hostlist_parse(&hl, parse_cases[i].expr, err,
		    sizeof err), 0, "parse '%s' succeeds %s",
		    parse_cases[i].expr, err);
		got = join(hl.names, hl.n);
		is_str(got, parse_cases[i].want, "parse '%s' expands",
		    parse_cases[i].expr);
		free(got);
		hostlist_free(&hl);
	}
}

static void
test_parse_appends(void)
{
	struct hostlist hl;
	char   *got;

	hostlist_init(&hl);
	add_csv(&hl, "first");
	hostlist_parse(&hl, "n[1-2]", NULL, 0);
	hostlist_parse(&hl, "", NULL, 0);
	got = join(hl.names, hl.n);
	is_str(got, "first,n1,n2", "parse appends to the list");
	free(got);
	hostlist_free(&hl);
	is_int(hl.n, 0, "hostlist_free leaves an empty list");
}

static void
test_width_crossing(void)
{
	struct hostlist hl;
	char   *c;

	hostlist_init(&hl);
	is_int(hostlist_parse(&hl, "n[098-1002]", NULL, 0), 0,
	    "parse n[098-1002]");
	is_int(hl.n, 905, "n[098-1002] has 905 hosts");
	if (hl.n == 905) {
		is_str(hl.names[0], "n098", "first is n098");
		is_str(hl.names[901], "n999", "n999 keeps its width");
		is_str(hl.names[902], "n1000", "then n1000");
		is_str(hl.names[904], "n1002", "last is n1002");
	}
	c = hostlist_compress(&hl);
	is_str(c, "n[098-1002]", "n[098-1002] compresses back");
	free(c);
	hostlist_free(&hl);
}

static const struct {
	const char *names, *want;
} compress_cases[] = {
	{ "", "" },
	{ "n1", "n1" },
	{ "n9,n10", "n[9-10]" },
	{ "n1,n01", "n[1,01]" },
	{ "n01,n1", "n[1,01]" },
	{ "a01n03,a02n03", "a01n03,a02n03" },
	{ "x,y3", "x,y3" },
	{ "y3,x", "x,y3" },
	{ "n5,n3,n1,n2", "n[1-3,5]" },
	{ "b02n03,a01n02,a01n01", "a01n[01-02],b02n03" },
	{ "n1,n1,n1", "n1" },
	{ "n2,n,n1", "n,n[1-2]" },
	{ "n,n7", "n,n7" },
	{ "a1,b1,a2,b2,a", "a,a[1-2],b[1-2]" },
	{ "n8,n08,n9,n09,n10", "n[8,08,9,09-10]" },
	{ "n99,n100,n0099", "n[99,0099,100]" },
	{ "n98,n099,n100", "n[98,099-100]" },
	{ "n0,n00,n000", "n[0,00,000]" },
	{ "n02,n00,n01", "n[00-02]" },
	{ "n9,n010,n11", "n[9,010,11]" },
	{ "n08,n09,n10,n100", "n[08-10,100]" },
	{ "n0,n1,n2", "n[0-2]" },
	{ "rack1-node3,rack2-node3", "rack1-node3,rack2-node3" },
	{ "rack1-node3,rack1-node4", "rack1-node[3-4]" },
	{ "124,123", "[123-124]" },
	{ "n1,n-1", "n1,n-1" },
	{ "n12345678901,n1", "n1,n12345678901" },
	{ "n12345678902,n12345678901", "n12345678901,n12345678902" },
	{ "n9999999999,n9999999998", "n[9999999998-9999999999]" },
};

static void
test_compress_cases(void)
{
	struct hostlist hl;
	size_t	i;
	char   *c;

	for (i = 0; i < sizeof compress_cases / sizeof *compress_cases; i++) {
		hostlist_init(&hl);
		add_csv(&hl, compress_cases[i].names);
		c = hostlist_compress(&hl);
		is_str(c, compress_cases[i].want, "compress {%s}",
		    compress_cases[i].names);
		free(c);
		hostlist_free(&hl);
	}
}

/* Expressions that must come back unchanged from parse + compress. */
static const char *const canonical[] = {
	"a01n[01-18]", "a01n[01-18],b02n03", "a01n[01-03],a02n[01-03]",
	"n[1-3,5]", "c[1-2],n[8-10]", "n[098-1002]", "x,y3", "n[1,01]",
	"a,a[1-2],b[1-2]", "[1-3,7]",
};

static void
test_canonical(void)
{
	struct hostlist hl;
	size_t	i;
	char   *c;

	for (i = 0; i < sizeof canonical / sizeof *canonical; i++) {
		hostlist_init(&hl);
		hostlist_parse(&hl, canonical[i], NULL, 0);
		c = hostlist_compress(&hl);
		is_str(c, canonical[i], "'%s' is canonical", canonical[i]);
		free(c);
		hostlist_free(&hl);
	}
	hostlist_init(&hl);
	hostlist_parse(&hl, "a[01-02]n[01-03]", NULL, 0);
	c = hostlist_compress(&hl);
	is_str(c, "a01n[01-03],a02n[01-03]",
	    "a[01-02]n[01-03] compresses per prefix");
	free(c);
	hostlist_free(&hl);
}

static void
test_order(void)
{
	struct hostlist hl;
	char   *got;

	ok(hostlist_cmp_names("n1", "n01") < 0, "n1 before n01");
	ok(hostlist_cmp_names("n9", "n10") < 0, "n9 before n10");
	ok(hostlist_cmp_names("n", "n0") < 0, "no number first");
	ok(hostlist_cmp_names("a9", "a-1") < 0, "prefix a before a-");
	ok(hostlist_cmp_names("b1", "a2") > 0, "prefix decides first");
	is_int(hostlist_cmp_names("a01n03", "a01n03"), 0, "equal names");

	hostlist_init(&hl);
	add_csv(&hl, "n10,n2,n01,n1,x,n2,n,n10,m5");
	hostlist_sort_uniq(&hl);
	got = join(hl.names, hl.n);
	is_str(got, "m5,n,n1,n01,n2,n10,x", "sort_uniq order");
	free(got);
	ok(hostlist_contains(&hl, "n01"), "contains n01");
	ok(hostlist_contains(&hl, "m5"), "contains first");
	ok(hostlist_contains(&hl, "x"), "contains last");
	ok(!hostlist_contains(&hl, "n001"), "does not contain n001");
	ok(!hostlist_contains(&hl, "n3"), "does not contain n3");
	hostlist_free(&hl);
	ok(!hostlist_contains(&hl, "n1"), "empty list contains nothing");
	hostlist_sort_uniq(&hl);
	is_int(hl.n, 0, "sort_uniq of an empty list");
}

/* Errors. */

#define LONG_A	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"	/* 50 */
#define LONG_250 LONG_A LONG_A LONG_A LONG_A LONG_A
#define ECHO_60	LONG_A "aaaaaaaaaa"

static const struct {
	const char *expr, *want;
} error_cases[] = {
	{ "a[3-1]", "bad hostlist 'a[3-1]': range 3-1 runs backwards" },
	{ "n[010-9]", "bad hostlist 'n[010-9]': range 010-9 runs backwards" },
	{ "a,,b", "bad hostlist 'a,,b': empty item" },
	{ "a,", "bad hostlist 'a,': empty item" },
	{ ",a", "bad hostlist ',a': empty item" },
	{ ",", "bad hostlist ',': empty item" },
	{ "n[1-3", "bad hostlist 'n[1-3': '[' without matching ']'" },
	{ "n[1-2]x[", "bad hostlist 'n[1-2]x[': '[' without matching ']'" },
	{ "n1-3]", "bad hostlist 'n1-3]': ']' without matching '['" },
	{ "]", "bad hostlist ']': ']' without matching '['" },
	{ "n[1[2]]", "bad hostlist 'n[1[2]]': nested '['" },
	{ "n[[1]]", "bad hostlist 'n[[1]]': nested '['" },
	{ "n[]", "bad hostlist 'n[]': empty brackets" },
	{ "n[1-x]", "bad hostlist 'n[1-x]': unexpected 'x' in brackets" },
	{ "n[1x]", "bad hostlist 'n[1x]': unexpected 'x' in brackets" },
	{ "n[ 1]", "bad hostlist 'n[ 1]': unexpected ' ' in brackets" },
	{ "n[1-2-3]", "bad hostlist 'n[1-2-3]': unexpected '-' in brackets" },
	{ "n[1,]", "bad hostlist 'n[1,]': missing number in brackets" },
	{ "n[-1]", "bad hostlist 'n[-1]': missing number in brackets" },
	{ "n[1-]", "bad hostlist 'n[1-]': missing number in brackets" },
	{ "a b", "bad hostlist 'a b': ' ' not allowed in a host name" },
	{ "n1;n2", "bad hostlist 'n1;n2': ';' not allowed in a host name" },
	{ "n\t1", "bad hostlist 'n\t1': byte 0x09 not allowed in a host name" },
	{ "n[12345678901]", "bad hostlist 'n[12345678901]': "
	    "number 12345678901 has more than 10 digits" },
	{ "n[1-99999999999]", "bad hostlist 'n[1-99999999999]': "
	    "number 99999999999 has more than 10 digits" },
	{ "n[0-9999999999]", "bad hostlist 'n[0-9999999999]': "
	    "expands to more than 1000000 hosts" },
	{ "a[0-999]b[0-999]c[0-999]", "bad hostlist "
	    "'a[0-999]b[0-999]c[0-999]': expands to more than 1000000 hosts" },
	{ "n[1-500000],m[1-500001]", "bad hostlist 'n[1-500000],m[1-500001]'"
	    ": expands to more than 1000000 hosts" },
	{ "n[0-999999],m", "bad hostlist 'n[0-999999],m': "
	    "expands to more than 1000000 hosts" },
	{ LONG_250 "123456", "bad hostlist '" ECHO_60 "...': "
	    "host name longer than 255 characters" },
	{ LONG_250 "[1-100000]", "bad hostlist '" ECHO_60 "...': "
	    "host name longer than 255 characters" },
};

static void
test_errors(void)
{
	struct hostlist hl;
	char	err[256];
	size_t	i;
	int	rc;

	for (i = 0; i < sizeof error_cases / sizeof *error_cases; i++) {
		hostlist_init(&hl);
		add_csv(&hl, "keep");
		strcpy(err, "unset");
		errno = 0;
		rc = hostlist_parse(&hl, error_cases[i].expr, err, sizeof err);
		ok(rc == -1 && errno == EINVAL && hl.n == 1,
		    "error %zu: -1, EINVAL, list unchanged", i);
		is_str(err, error_cases[i].want, "error %zu: message", i);
		hostlist_free(&hl);
	}
	hostlist_init(&hl);
	is_int(hostlist_parse(&hl, "a,,b", NULL, 0), -1, "err may be NULL");
	is_int(hostlist_parse(&hl, "a[1-2],,b", err, 10), -1, "short err");
	is_str(err, "bad hostl", "message truncated to errlen");
	is_int(hostlist_parse(&hl, LONG_250 "12345", err, sizeof err), 0,
	    "255-character name accepted");
	ok(hl.n == 1 && strlen(hl.names[0]) == 255, "and expanded");
	hostlist_free(&hl);
}

static void
test_hostile(void)
{
	static const char *const exprs[] = {
		"n[0-9999999999]", "a[0-999]b[0-999]c[0-999]",
		"a[0-9999999999]b[0-9999999999]c[0-9999999999]",
	};
	struct hostlist hl;
	size_t	i;
	int	rc;

	/* Speed is measured in bench/, not here: the test asserts behaviour. */
	for (i = 0; i < sizeof exprs / sizeof *exprs; i++) {
		hostlist_init(&hl);
		rc = hostlist_parse(&hl, exprs[i], NULL, 0);
		ok(rc == -1 && hl.n == 0 && hl.names == NULL,
		    "'%s' refused without allocating", exprs[i]);
		hostlist_free(&hl);
	}
	hostlist_init(&hl);
	is_int(hostlist_parse(&hl, "n[1-1000000]", NULL, 0), 0,
	    "exactly HOSTLIST_MAX_HOSTS accepted");
	ok(hl.n == 1000000 && strcmp(hl.names[hl.n - 1], "n1000000") == 0,
	    "and expanded");
	hostlist_free(&hl);
}

static void
test_summit(void)
{
	struct hostlist hl, back;
	char	name[16], *c;
	int	r, n;
	char	l;

	hostlist_init(&hl);
	hostlist_init(&back);
	/* Added back to front so the sort has work to do. */
	for (l = 'h'; l >= 'a'; l--)
		for (r = 50; r >= 1; r--)
			for (n = 18; n >= 1; n--) {
				snprintf(name, sizeof name, "%c%02dn%02d",
				    l, r, n);
				hostlist_add(&hl, name);
			}
	c = hostlist_compress(&hl);
	ok(c && strncmp(c, "a01n[01-18],a02n[01-18],", 24) == 0 &&
	    strcmp(c + strlen(c) - 12, ",h50n[01-18]") == 0,
	    "Summit compressed per node prefix");
	hostlist_parse(&back, c, NULL, 0);
	is_int(back.n, 8 * 50 * 18, "Summit round trip count");
	free(c);
	hostlist_free(&hl);
	hostlist_free(&back);
}

/* Random property tests. */

static uint64_t rng;
static unsigned long long seed;
static int failures;

static uint64_t
rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ULL;
}

static unsigned
below(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static void
seed_rng(void)
{
	const char *env = getenv("HOSTLIST_SEED");

	seed = env ? strtoull(env, NULL, 0) : 20240613;
	rng = seed ^ 0x9e3779b97f4a7c15ULL;
	if (rng == 0)
		rng = 1;
	note("seed %llu (set HOSTLIST_SEED to replay)", seed);
}

/* Counts a failed property; shows the first few with what replays them. */
static int
check(int cond, const char *what, int n, const char *expr, const char *got)
{
	if (!cond && ++failures <= SHOW_FAILURES)
		diag("FAIL %s: seed %llu case %d: '%s' gave '%s'", what, seed,
		    n, expr, got ? got : "(null)");
	return cond;
}

static const char *const prefixes[] = { "n", "a01n", "rack", "x-", "c" };

static void
gen_literal(char *buf, size_t size, int nonempty)
{
	static const char chars[] = "abnxz.-_0123456789";
	size_t	i, len = below(4);

	if (below(2)) {
		snprintf(buf, size, "%s", prefixes[below(5)]);
		return;
	}
	if (nonempty && len == 0)
		len = 1;
	for (i = 0; i < len; i++)
		buf[i] = chars[below(sizeof chars - 1)];
	buf[len] = '\0';
}

static unsigned
ndigits(unsigned v)
{
	unsigned n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Appends a bracket group to expr and its members, as strings, to vals. */
static void
gen_group(char *expr, struct vec *vals)
{
	static const unsigned starts[] = { 0, 0, 90, 990 };
	unsigned r, nr = 1 + below(3), lo, hi, v, w;
	char	num[32];

	strcat(expr, "[");
	for (r = 0; r < nr; r++) {
		lo = starts[below(4)] + below(16);
		hi = below(3) ? lo + below(8) : lo;
		w = ndigits(lo) + (below(3) ? 0 : 1 + below(2));
		sprintf(expr + strlen(expr), "%s%0*u", r ? "," : "", (int)w, lo);
		if (hi != lo)
			sprintf(expr + strlen(expr), "-%0*u",
			    below(2) ? (int)w : 0, hi);
		for (v = lo; v <= hi; v++) {
			snprintf(num, sizeof num, "%0*u", (int)w, v);
			vec_add(vals, num);
		}
	}
	strcat(expr, "]");
}

/* Cartesian product: every name in *names gets every value, then tail. */
static void
product(struct vec *names, const struct vec *vals, const char *tail)
{
	struct vec out = { 0 };
	char	buf[512];
	size_t	i, j;

	for (i = 0; i < names->n; i++)
		for (j = 0; j < vals->n; j++) {
			snprintf(buf, sizeof buf, "%s%s%s", names->v[i],
			    vals->v[j], tail);
			vec_add(&out, buf);
		}
	vec_free(names);
	*names = out;
}

/* One item into expr, its expansion appended to want, in parse order. */
static void
gen_item(char *expr, struct vec *want)
{
	struct vec names = { 0 }, vals = { 0 };
	unsigned g, ng = below(4);
	char	lit[32];
	size_t	i;

	gen_literal(lit, sizeof lit, ng == 0);
	strcat(expr, lit);
	vec_add(&names, lit);
	/* Stopping early keeps products of three groups affordable. */
	for (g = 0; g < ng && names.n < 16; g++) {
		gen_group(expr, &vals);
		gen_literal(lit, sizeof lit, 0);
		if (below(2))
			lit[0] = '\0';
		strcat(expr, lit);
		product(&names, &vals, lit);
		vec_free(&vals);
	}
	for (i = 0; i < names.n; i++)
		vec_add(want, names.v[i]);
	vec_free(&names);
}

/* Several items, fewer when the expansion is already large. */
static void
gen_expr(char *expr, struct vec *want)
{
	unsigned i, n = 1 + below(4);

	expr[0] = '\0';
	for (i = 0; i < n && want->n < 200; i++) {
		if (i)
			strcat(expr, ",");
		gen_item(expr, want);
	}
}

/* A set of names built directly, mixing padded and plain numbers. */
static void
gen_names(struct vec *want)
{
	static const char *const pre[] = { "", "n", "a01n", "x.", "r-" };
	static const unsigned starts[] = { 0, 95, 995 };
	unsigned i, n = 1 + below(40), v, w;
	const char *p;
	char	buf[64];

	for (i = 0; i < n; i++) {
		p = pre[below(5)];
		if (*p && below(10) == 0) {
			vec_add(want, p);
			continue;
		}
		v = starts[below(3)] + below(12);
		w = below(2) ? 0 : 2 + below(3);
		snprintf(buf, sizeof buf, "%s%0*u", p, (int)w, v);
		vec_add(want, buf);
	}
}

/* The order of the specification, written independently of the module. */
static int
ref_cmp(const char *a, const char *b)
{
	char	pa[300], pb[300];
	size_t	la = strlen(a), lb = strlen(b), da = 0, db = 0;
	unsigned long long va = 0, vb = 0;
	int	c;

	while (da < la && a[la - 1 - da] >= '0' && a[la - 1 - da] <= '9')
		da++;
	while (db < lb && b[lb - 1 - db] >= '0' && b[lb - 1 - db] <= '9')
		db++;
	da = da > 10 ? 0 : da;
	db = db > 10 ? 0 : db;
	snprintf(pa, sizeof pa, "%.*s", (int)(la - da), a);
	snprintf(pb, sizeof pb, "%.*s", (int)(lb - db), b);
	if ((c = strcmp(pa, pb)) != 0)
		return c < 0 ? -1 : 1;
	if (!da || !db)
		return (da > 0) - (db > 0);
	va = strtoull(a + la - da, NULL, 10);
	vb = strtoull(b + lb - db, NULL, 10);
	if (va != vb)
		return va < vb ? -1 : 1;
	return (da > db) - (da < db);
}

static void
shuffle(char **v, size_t n)
{
	size_t	i, j;
	char   *t;

	for (i = n; i > 1; i--) {
		j = below((unsigned)i);
		t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* Fails counted per property: parse, round, idem, order, sort, ref. */
static int fails[6];

static void
check_sorted(const struct hostlist *hl, const struct vec *want,
    const char *wantset, int n, const char *expr)
{
	char   *got = set_of(hl->names, hl->n);
	size_t	i;
	int	good = strcmp(got, wantset) == 0;

	for (i = 1; i < hl->n; i++)
		good &= hostlist_cmp_names(hl->names[i - 1], hl->names[i]) < 0;
	for (i = 0; i < want->n; i++)
		good &= hostlist_contains(hl, want->v[i]);
	good &= !hostlist_contains(hl, "Q");
	fails[4] += !check(good, "sort_uniq/contains", n, expr, got);
	free(got);
	for (i = 0, good = 1; i + 1 < want->n; i++) {
		const char *a = want->v[below((unsigned)want->n)];
		const char *b = want->v[i];

		good &= hostlist_cmp_names(a, b) == ref_cmp(a, b);
	}
	fails[5] += !check(good, "order matches reference", n, expr, "");
}

/* The properties for one set; parsed is the module's view of want. */
static void
check_set(const struct hostlist *parsed, struct vec *want, int n,
    const char *expr)
{
	struct hostlist back, mixed;
	char   *c, *c2, *c3, *got, *wantset = set_of(want->v, want->n);
	size_t	i;

	hostlist_init(&back);
	hostlist_init(&mixed);
	c = hostlist_compress(parsed);
	hostlist_parse(&back, c ? c : "", NULL, 0);
	got = set_of(back.names, back.n);
	fails[1] += !check(c && strcmp(got, wantset) == 0,
	    "parse(compress(S)) == S", n, expr, c);
	c2 = hostlist_compress(&back);
	fails[2] += !check(c && c2 && strcmp(c, c2) == 0, "idempotence", n,
	    expr, c2);
	/* Same set, other order, with duplicates. */
	for (i = 0; i < want->n; i++) {
		hostlist_add(&mixed, want->v[i]);
		if (below(4) == 0)
			hostlist_add(&mixed, want->v[i]);
	}
	shuffle(mixed.names, mixed.n);
	c3 = hostlist_compress(&mixed);
	fails[3] += !check(c && c3 && strcmp(c, c3) == 0,
	    "order independence", n, expr, c3);
	hostlist_sort_uniq(&mixed);
	check_sorted(&mixed, want, wantset, n, expr);
	free(c);
	free(c2);
	free(c3);
	free(got);
	free(wantset);
	hostlist_free(&back);
	hostlist_free(&mixed);
}

static void
test_random_exprs(void)
{
	static char expr[8192];
	struct vec want = { 0 };
	struct hostlist hl;
	char	err[256], *got, *exp;
	int	n;

	for (n = 0; n < RANDOM_EXPRS; n++) {
		gen_expr(expr, &want);
		hostlist_init(&hl);
		err[0] = '\0';
		hostlist_parse(&hl, expr, err, sizeof err);
		got = join(hl.names, hl.n);
		exp = join(want.v, want.n);
		fails[0] += !check(strcmp(got, exp) == 0, "parse", n, expr,
		    *err ? err : got);
		check_set(&hl, &want, n, expr);
		free(got);
		free(exp);
		hostlist_free(&hl);
		vec_free(&want);
	}
}

static void
test_random_sets(void)
{
	struct vec want = { 0 };
	struct hostlist hl;
	char   *list;
	size_t	i;
	int	n;

	for (n = 0; n < RANDOM_SETS; n++) {
		gen_names(&want);
		hostlist_init(&hl);
		for (i = 0; i < want.n; i++)
			hostlist_add(&hl, want.v[i]);
		list = join(want.v, want.n);
		check_set(&hl, &want, RANDOM_EXPRS + n, list);
		free(list);
		hostlist_free(&hl);
		vec_free(&want);
	}
}

static void
test_random(void)
{
	static const char *const what[] = {
		"parse matches the generator's expansion",
		"parse(compress(S)) == S",
		"compress(parse(compress(S))) == compress(S)",
		"compress ignores order and duplicates",
		"sort_uniq is strictly ordered, contains finds every name",
		"hostlist_cmp_names matches the reference order",
	};
	size_t	i;

	seed_rng();
	test_random_exprs();
	test_random_sets();
	for (i = 0; i < sizeof what / sizeof *what; i++)
		ok(fails[i] == 0, "random (%d expressions, %d sets, seed %llu): "
		    "%s", RANDOM_EXPRS, RANDOM_SETS, seed, what[i]);
}

int
main(void)
{
	test_parse_cases();
	test_parse_appends();
	test_width_crossing();
	test_compress_cases();
	test_canonical();
	test_order();
	test_errors();
	test_hostile();
	test_summit();
	test_random();
	return tap_done();
}
