/*
 * NAME
 *	hostlist.h - Slurm hostlist expressions: parse, sort, compress
 * SYNOPSIS
 *	#include "util/hostlist.h"
 *
 *	struct hostlist hl;
 *	char err[256], *s;
 *
 *	hostlist_init(&hl);
 *	if (hostlist_parse(&hl, "a01n[01-18],b02n03", err, sizeof err) < 0)
 *		fprintf(stderr, "%s:%d: %s\n", file, line, err);
 *	s = hostlist_compress(&hl);		("a01n[01-18],b02n03")
 *	free(s);
 *	hostlist_free(&hl);
 * DESCRIPTION
 *	A hostlist is a growable array of malloc'd host names, in the order
 *	they were added, duplicates allowed, until hostlist_sort_uniq() puts
 *	it in canonical order.
 *
 *	hostlist_init() makes an empty list; hostlist_free() releases it and
 *	leaves it empty and reusable.
 *
 *	hostlist_add() appends a copy of name.  It does not check the name;
 *	compress/parse round-trip only names the parser could produce
 *	(non-empty, characters [A-Za-z0-9._-], at most HOSTLIST_MAX_NAME).
 *
 *	hostlist_parse() appends every host of a Slurm hostlist expression,
 *	in expansion order (leftmost bracket group varies slowest):
 *	comma-separated items, each a name with zero or more bracket groups
 *	of comma-separated numbers or lo-hi ranges; a range is printed with
 *	zero padding to strlen(lo).  "" is the empty list.  The whole
 *	expression is validated and its size bounded (HOSTLIST_MAX_HOSTS)
 *	before anything is allocated, and on error the list is unchanged.
 *
 *	Canonical order (hostlist_cmp_names()): a name is split into a prefix
 *	and its trailing run of 1..HOSTLIST_MAX_DIGITS decimal digits (a
 *	longer run counts as part of the prefix, with no number).  Names
 *	compare by prefix (strcmp), no number before a number, numeric
 *	value, then digit count ("n1" < "n01").
 *
 *	hostlist_sort_uniq() sorts into canonical order and frees duplicates.
 *
 *	hostlist_compress() returns the Slurm expression of the set, without
 *	modifying hl: one item per prefix, "p[1-3,5]", "n[098-1002]", a
 *	prefix with a single numbered host printed plainly ("b02n03").
 *	hostlist_parse() of the result gives back the same set, and the
 *	result depends only on the set.
 *
 *	hostlist_contains() looks name up by bsearch(); hl must be sorted
 *	and unique (hostlist_sort_uniq()).
 *
 *	hostlist_valid_name() says whether name is one the parser could
 *	produce, so that a list of such names round-trips.
 * DIAGNOSTICS
 *	hostlist_add() returns -1 and hostlist_compress() NULL, errno ENOMEM,
 *	when memory runs out.  hostlist_parse() returns -1 with errno EINVAL
 *	(bad expression) or ENOMEM, and writes a one-line message without
 *	newline or file name into err, e.g. "bad hostlist 'a[3-1]': range
 *	3-1 runs backwards".  err may be NULL.
 */
#ifndef BF_HOSTLIST_H
#define BF_HOSTLIST_H

#include <stddef.h>

#define HOSTLIST_MAX_HOSTS	1000000	/* per parsed expression */
#define HOSTLIST_MAX_NAME	255	/* characters in a host name */
#define HOSTLIST_MAX_DIGITS	10	/* digits in a bracketed number */

struct hostlist {
	char  **names;
	size_t  n, cap;
};

void	hostlist_init(struct hostlist *hl);
void	hostlist_free(struct hostlist *hl);
int	hostlist_add(struct hostlist *hl, const char *name);
int	hostlist_parse(struct hostlist *hl, const char *expr, char *err,
	    size_t errlen);
void	hostlist_sort_uniq(struct hostlist *hl);
int	hostlist_cmp_names(const char *a, const char *b);
char   *hostlist_compress(const struct hostlist *hl);
int	hostlist_contains(const struct hostlist *hl, const char *name);
int	hostlist_valid_name(const char *name);
/* Two lists, each sorted and deduplicated, hold the same names. */
int	hostlist_equal(const struct hostlist *a, const struct hostlist *b);

#endif
