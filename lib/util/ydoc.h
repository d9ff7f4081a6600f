/*
 * NAME
 *	ydoc - YAML documents on libyaml, every value with its line
 * SYNOPSIS
 *	struct ydoc doc;
 *	if (ydoc_load(&doc, "job.yaml", buf, len, &d) < 0) ...
 *	const struct ydoc_node *v = ydoc_get(doc.root, "min_nodes");
 *	printf("%s:%zu\n", doc.file, v->line);
 *	ydoc_free(&doc);
 * DESCRIPTION
 *	Builds a tree of scalars, sequences and mappings from libyaml's event
 *	parser, so that every error about a value can name its file and line.
 *	It accepts only what bftrainer's files need and refuses the rest with a
 *	line number: more than one document, anchors and aliases (an alias bomb
 *	is refused before it grows), explicit tags, non-scalar keys, duplicate
 *	keys, nesting deeper than YDOC_MAX_DEPTH and more than YDOC_MAX_NODES
 *	nodes.  An empty stream loads with root NULL.
 * DIAGNOSTICS
 *	-1 with d set to "FILE:LINE: what" and code 65.
 */
#ifndef BF_YDOC_H
#define BF_YDOC_H

#include <stddef.h>

#include "util/log.h"

#define YDOC_MAX_DEPTH	64
#define YDOC_MAX_NODES	2000000

enum ydoc_kind { YDOC_SCALAR, YDOC_SEQUENCE, YDOC_MAPPING };

struct ydoc_node {
	enum ydoc_kind kind;
	size_t line;		/* 1-based */
	size_t column;		/* 1-based */
	char *value;		/* scalar text, NUL-terminated */
	size_t len;		/* scalar length in bytes */
	int plain;		/* scalar written without quotes */
	size_t n;		/* sequence items, or mapping pairs */
	struct ydoc_node **items; /* mapping: key 2i, value 2i+1 */
	size_t nitems;		/* items held, a dangling key included */
};

struct ydoc {
	const char *file;
	struct ydoc_node *root;
	size_t nodes;
};

int ydoc_load(struct ydoc *doc, const char *file, const char *buf, size_t len,
    struct diag *d);
void ydoc_free(struct ydoc *doc);
const struct ydoc_node *ydoc_get(const struct ydoc_node *map, const char *key);
const char *ydoc_kind_name(enum ydoc_kind kind);

/*
 * Typed access to scalars.  Each checks kind, syntax and range and on
 * failure sets d to "FILE:LINE: WHAT must be ..., not 'VALUE'" (65).
 * Numbers must be plain (unquoted) decimal: no hex, no .inf or .nan.
 */
int ydoc_long(const struct ydoc *doc, const struct ydoc_node *v,
    const char *what, long long min, long long max, long long *out,
    struct diag *d);
int ydoc_double(const struct ydoc *doc, const struct ydoc_node *v,
    const char *what, double min, double max, double *out, struct diag *d);
int ydoc_string(const struct ydoc *doc, const struct ydoc_node *v,
    const char *what, const char **out, struct diag *d);
/*
 * Text copied into a fixed buffer of outlen bytes: a value that would not
 * fit whole is refused ("WHAT must be text of at most N bytes"), never cut,
 * so no value is ever changed or split inside a UTF-8 character.
 */
int ydoc_copy(const struct ydoc *doc, const struct ydoc_node *v,
    const char *what, char *out, size_t outlen, struct diag *d);
void ydoc_excerpt(const char *s, char *out, size_t outlen);

/*
 * Keys a reader does not know, one rule for every file (bf-spool(5),
 * "Unknown keys"): by mode, refused ("FILE:LINE: unknown key 'K'", 65,
 * where a key silently not applied would loosen a limit: the policy),
 * warned about ("FILE:LINE: unknown key 'K' ignored", at most
 * YDOC_WARN_KEYS of them, then "FILE: N more unknown keys ignored" from
 * ydoc_keys_done(): the files people write), or only counted (files
 * bftrainer writes, which a newer version may extend, and readers asked
 * to be quiet).  ydoc_unknown_key() takes one key found unknown, for a
 * reader that walks the keys itself; ydoc_only_keys() checks a mapping
 * against a NULL-terminated list of the keys it may hold.
 */
enum ydoc_keys_mode { YDOC_KEYS_REFUSE, YDOC_KEYS_WARN, YDOC_KEYS_COUNT };
#define YDOC_WARN_KEYS	10

struct ydoc_keys {
	const struct ydoc *doc;
	enum ydoc_keys_mode mode;
	size_t unknown;
};

int ydoc_unknown_key(struct ydoc_keys *k, const struct ydoc_node *key,
    struct diag *d);
void ydoc_keys_done(struct ydoc_keys *k);
int ydoc_only_keys(struct ydoc_keys *k, const struct ydoc_node *map,
    const char *const *known, struct diag *d);

#endif
