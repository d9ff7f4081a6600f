/*
 * NAME
 *	holes - the holes file: which nodes bftrainer may use, until when
 * SYNOPSIS
 *	struct holes h;
 *	holes_parse(&h, "holes/current.yaml", buf, len, &d);
 *	holes_add(&h, "a01n01", 1612919332);
 *	char *text = holes_format(&h, &len);
 *	uint64_t same = holes_digest(&h);	-- ignores time
 *	holes_free(&h);
 * DESCRIPTION
 *	A holes file (bf-spool(5)) lists every node bftrainer may use at one
 *	time, its own jobs' nodes included, each with the time it is expected
 *	back (until, 0 when unknown).  In memory it is one array of nodes in
 *	canonical hostlist order, unique.  holes_format() groups the nodes by
 *	until into compressed Slurm hostlists: the group without until first,
 *	then by until ascending, so the text depends only on the content.
 *	holes_digest() is the XXH3 of that text without the time: bf-holes
 *	rewrites holes/current.yaml only when it changes.  holes_drop()
 *	takes nodes out (order kept) and says how many.
 * DIAGNOSTICS
 *	"holes.yaml:7: node a01n03 is listed twice (first at line 4)",
 *	"holes.yaml:5: bad hostlist 'a[3-1]': range 3-1 runs backwards".
 */
#ifndef BF_HOLES_H
#define BF_HOLES_H

#include <stddef.h>
#include <stdint.h>

#include "util/hostlist.h"
#include "util/log.h"

#define HOLES_MAX_FILE	(64 * 1024 * 1024)

struct holes_node {
	char *name;
	long long until;	/* unix seconds, 0 = unknown */
};

struct holes {
	long long time;
	char source[512];
	size_t n, cap;
	struct holes_node *nodes;
	int sorted;		/* nodes in canonical order, unique */
	size_t *index;		/* holes_find()'s hash of the names, or NULL */
	size_t index_mask;
};

void holes_init(struct holes *h);
void holes_free(struct holes *h);
int holes_add(struct holes *h, const char *name, long long until);
int holes_finish(struct holes *h, const char *file, struct diag *d);
int holes_parse(struct holes *h, const char *file, const char *buf,
    size_t len, struct diag *d);
int holes_load(struct holes *h, int dirfd, const char *name,
    const char *label, struct diag *d);
char *holes_format(const struct holes *h, size_t *len);
uint64_t holes_digest(const struct holes *h);
const struct holes_node *holes_find(const struct holes *h, const char *name);
size_t holes_drop(struct holes *h, const struct hostlist *drop);

#endif
