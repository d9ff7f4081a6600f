/*
 * NAME
 *	ydoc - YAML documents on libyaml, every value with its line
 * DESCRIPTION
 *	See ydoc.h.  The tree is built from events with an explicit stack, so
 *	hostile nesting costs neither C stack nor more than YDOC_MAX_DEPTH
 *	frames.  Duplicate keys are found by sorting each mapping's keys once
 *	it is complete: n log n even for a mapping of a million keys.
 * DIAGNOSTICS
 *	libyaml's own messages are passed on with their line:
 *	"job.yaml:3: YAML syntax error: mapping values are not allowed in this
 *	context".
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util/fmt.h"
#include "util/ydoc.h"

struct builder {
	struct ydoc *doc;
	struct diag *d;
	struct ydoc_node *stack[YDOC_MAX_DEPTH + 1];
	size_t count[YDOC_MAX_DEPTH + 1];	/* items so far, keys included */
	int depth;
};

const char *
ydoc_kind_name(enum ydoc_kind kind)
{
	switch (kind) {
	case YDOC_SCALAR:
		return "a scalar";
	case YDOC_SEQUENCE:
		return "a list";
	case YDOC_MAPPING:
		return "a mapping";
	}
	return "?";
}

static void
node_free(struct ydoc_node *node)
{
	size_t i;

	if (node == NULL)
		return;
	for (i = 0; i < node->nitems; i++)
		node_free(node->items[i]);
	free(node->items);
	free(node->value);
	free(node);
}

void
ydoc_free(struct ydoc *doc)
{
	node_free(doc->root);
	doc->root = NULL;
}

static int
fail(struct builder *b, const yaml_mark_t *mark, const char *what)
{
	return diag_set(b->d, EX_DATAERR, "%s:%zu: %s", b->doc->file,
	    (size_t)mark->line + 1, what);
}

static struct ydoc_node *
node_new(struct builder *b, enum ydoc_kind kind, const yaml_mark_t *mark)
{
	struct ydoc_node *node;

	if (++b->doc->nodes > YDOC_MAX_NODES) {
		fail(b, mark, "too many values in one file");
		return NULL;
	}
	node = calloc(1, sizeof *node);
	if (node == NULL) {
		diag_errno(b->d, ENOMEM, "%s: unable to load", b->doc->file);
		return NULL;
	}
	node->kind = kind;
	node->line = (size_t)mark->line + 1;
	node->column = (size_t)mark->column + 1;
	return node;
}

/*
 * The items array grows by doubling: it holds 4 items, then 8, 16, ...,
 * so it is reallocated when the count reaches 4, 8, 16, ... and n items
 * cost O(n) copying (one realloc per item was O(n^2) where realloc
 * copies, as under AddressSanitizer: minutes for a 1 MiB list).
 */
static int
append(struct builder *b, struct ydoc_node *parent, size_t *count,
    struct ydoc_node *child)
{
	struct ydoc_node **items = parent->items;
	size_t n = *count;

	if (n == 0 || (n >= 4 && (n & (n - 1)) == 0)) {
		items = realloc(items, (n == 0 ? 4 : 2 * n) * sizeof *items);
		if (items == NULL) {
			node_free(child);
			return diag_errno(b->d, ENOMEM, "%s: unable to load",
			    b->doc->file);
		}
		parent->items = items;
	}
	items[(*count)++] = child;
	parent->nitems = *count;
	/* A mapping counts complete pairs, so a dangling key is never read. */
	parent->n = parent->kind == YDOC_MAPPING ? *count / 2 : *count;
	return 0;
}

static int
attach(struct builder *b, struct ydoc_node *node, const yaml_mark_t *mark)
{
	struct ydoc_node *parent;
	size_t *count;

	if (b->depth == 0) {
		if (b->doc->root != NULL) {
			node_free(node);
			return fail(b, mark, "more than one value at the top");
		}
		b->doc->root = node;
		return 0;
	}
	parent = b->stack[b->depth - 1];
	count = &b->count[b->depth - 1];
	if (parent->kind == YDOC_MAPPING && *count % 2 == 0 &&
	    node->kind != YDOC_SCALAR) {
		node_free(node);
		return fail(b, mark,
		    "a key must be a plain value, not a list or mapping");
	}
	return append(b, parent, count, node);
}

static int
key_cmp(const void *a, const void *b)
{
	const struct ydoc_node *x = *(const struct ydoc_node *const *)a;
	const struct ydoc_node *y = *(const struct ydoc_node *const *)b;
	int c;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	c = memcmp(x->value, y->value, x->len);
	if (c != 0)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int
check_duplicate_keys(struct builder *b, struct ydoc_node *map)
{
	struct ydoc_node **keys;
	char shown[68];
	size_t i;
	int rc = 0;

	if (map->n < 2)
		return 0;
	keys = malloc(map->n * sizeof *keys);
	if (keys == NULL)
		return diag_errno(b->d, ENOMEM, "%s: unable to load",
		    b->doc->file);
	for (i = 0; i < map->n; i++)
		keys[i] = map->items[2 * i];
	if (map->n > 1)
		qsort(keys, map->n, sizeof *keys, key_cmp);
	for (i = 1; i < map->n; i++) {
		if (keys[i]->len == keys[i - 1]->len &&
		    memcmp(keys[i]->value, keys[i - 1]->value,
		    keys[i]->len) == 0) {
			ydoc_excerpt(keys[i]->value, shown, sizeof shown);
			rc = diag_set(b->d, EX_DATAERR,
			    "%s:%zu: duplicate key '%s' (first at line %zu)",
			    b->doc->file, keys[i]->line, shown,
			    keys[i - 1]->line);
			break;
		}
	}
	free(keys);
	return rc;
}

static int
open_container(struct builder *b, enum ydoc_kind kind, const yaml_mark_t *mark,
    const yaml_char_t *anchor, const yaml_char_t *tag, int implicit)
{
	struct ydoc_node *node;

	if (anchor != NULL)
		return fail(b, mark, "anchors and aliases are not supported");
	if (tag != NULL && !implicit)
		return fail(b, mark, "tags are not supported");
	if (b->depth >= YDOC_MAX_DEPTH)
		return fail(b, mark, "nested too deeply");
	node = node_new(b, kind, mark);
	if (node == NULL || attach(b, node, mark) < 0)
		return -1;
	b->count[b->depth] = 0;
	b->stack[b->depth++] = node;
	return 0;
}

static int
add_scalar(struct builder *b, const yaml_event_t *ev)
{
	struct ydoc_node *node;

	if (ev->data.scalar.anchor != NULL)
		return fail(b, &ev->start_mark,
		    "anchors and aliases are not supported");
	if (ev->data.scalar.tag != NULL && !ev->data.scalar.plain_implicit &&
	    !ev->data.scalar.quoted_implicit)
		return fail(b, &ev->start_mark, "tags are not supported");
	node = node_new(b, YDOC_SCALAR, &ev->start_mark);
	if (node == NULL)
		return -1;
	node->len = ev->data.scalar.length;
	node->value = malloc(node->len + 1);
	if (node->value == NULL) {
		node_free(node);
		return diag_errno(b->d, ENOMEM, "%s: unable to load",
		    b->doc->file);
	}
	memcpy(node->value, ev->data.scalar.value, node->len);
	node->value[node->len] = '\0';
	node->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	if (strlen(node->value) != node->len) {
		node_free(node);
		return fail(b, &ev->start_mark, "a value contains a NUL byte");
	}
	return attach(b, node, &ev->start_mark);
}

/* Returns 1 at the end of the stream, 0 to go on, -1 on error. */
static int
handle(struct builder *b, const yaml_event_t *ev, int *documents)
{
	switch (ev->type) {
	case YAML_STREAM_END_EVENT:
		return 1;
	case YAML_DOCUMENT_START_EVENT:
		if (++*documents > 1)
			return fail(b, &ev->start_mark,
			    "more than one YAML document in one file");
		return 0;
	case YAML_ALIAS_EVENT:
		return fail(b, &ev->start_mark,
		    "anchors and aliases are not supported");
	case YAML_SCALAR_EVENT:
		return add_scalar(b, ev) < 0 ? -1 : 0;
	case YAML_SEQUENCE_START_EVENT:
		return open_container(b, YDOC_SEQUENCE, &ev->start_mark,
		    ev->data.sequence_start.anchor,
		    ev->data.sequence_start.tag,
		    ev->data.sequence_start.implicit);
	case YAML_MAPPING_START_EVENT:
		return open_container(b, YDOC_MAPPING, &ev->start_mark,
		    ev->data.mapping_start.anchor,
		    ev->data.mapping_start.tag,
		    ev->data.mapping_start.implicit);
	case YAML_SEQUENCE_END_EVENT:
		b->depth--;
		return 0;
	case YAML_MAPPING_END_EVENT:
		b->depth--;
		return check_duplicate_keys(b, b->stack[b->depth]);
	default:
		return 0;
	}
}

/* The reader (encoding, control characters) gives an offset, not a mark. */
static size_t
error_line(const yaml_parser_t *parser, const char *buf, size_t len)
{
	size_t i, line = 1, end = parser->problem_offset;

	if (parser->error != YAML_READER_ERROR)
		return (size_t)parser->problem_mark.line + 1;
	for (i = 0; i < end && i < len; i++)
		if (buf[i] == '\n')
			line++;
	return line;
}

int
ydoc_load(struct ydoc *doc, const char *file, const char *buf, size_t len,
    struct diag *d)
{
	yaml_parser_t parser;
	struct builder b;
	int documents = 0, rc = 0;

	memset(doc, 0, sizeof *doc);
	doc->file = file;
	memset(&b, 0, sizeof b);
	b.doc = doc;
	b.d = d;
	if (!yaml_parser_initialize(&parser))
		return diag_errno(d, ENOMEM, "%s: unable to load", file);
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	while (rc == 0) {
		yaml_event_t ev;

		if (!yaml_parser_parse(&parser, &ev)) {
			rc = diag_set(d, EX_DATAERR,
			    "%s:%zu: YAML syntax error: %s", file,
			    error_line(&parser, buf, len),
			    parser.problem ? parser.problem : "unknown");
			break;
		}
		rc = handle(&b, &ev, &documents);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	if (rc < 0) {
		ydoc_free(doc);
		return -1;
	}
	return 0;
}

const struct ydoc_node *
ydoc_get(const struct ydoc_node *map, const char *key)
{
	size_t i, keylen = strlen(key);

	if (map == NULL || map->kind != YDOC_MAPPING)
		return NULL;
	for (i = 0; i < map->n; i++) {
		const struct ydoc_node *k = map->items[2 * i];
		if (k->len == keylen && memcmp(k->value, key, keylen) == 0)
			return map->items[2 * i + 1];
	}
	return NULL;
}

/* The length of the UTF-8 character at s, 0 if none starts there. */
static size_t
utf8_len(const unsigned char *s)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	/* No overlong forms, no surrogates, nothing above U+10FFFF. */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/*
 * Characters that would change how a line reads: the C0 and C1 controls
 * and DEL (escape sequences, line ends), the line and paragraph
 * separators U+2028 and U+2029, and the bidirectional embeddings,
 * overrides and isolates U+202A..U+202E and U+2066..U+2069.
 */
static int
unshown(const unsigned char *s, size_t n)
{
	if (n == 1)
		return s[0] < 0x20 || s[0] == 0x7f;
	if (n == 2)
		return s[0] == 0xc2 && s[1] < 0xa0;
	if (n == 3 && s[0] == 0xe2 && s[1] == 0x80)
		return s[2] >= 0xa8 && s[2] <= 0xae;
	if (n == 3 && s[0] == 0xe2 && s[1] == 0x81)
		return s[2] >= 0xa6 && s[2] <= 0xa9;
	return 0;
}

/*
 * Values go into one-line messages: bounded length, cut between
 * characters, and each byte that is not UTF-8 and each character that
 * would change how the line reads shown as '?'.  The text never grows:
 * with outlen above strlen(s) + 3 nothing is cut.
 */
void
ydoc_excerpt(const char *s, char *out, size_t outlen)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, o = 0, limit = outlen > 4 ? outlen - 4 : 0;

	while (u[i] != '\0' && o < limit) {
		size_t n = utf8_len(u + i);

		if (n == 0 || unshown(u + i, n))
			out[o++] = '?';
		else if (o + n > limit)
			break;
		else {
			memcpy(out + o, u + i, n);
			o += n;
		}
		i += n > 0 ? n : 1;
	}
	if (u[i] != '\0' && outlen >= 4) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	if (outlen > 0)
		out[o < outlen ? o : outlen - 1] = '\0';
}

static int
value_error(const struct ydoc *doc, const struct ydoc_node *v,
    const char *what, const char *expect, struct diag *d)
{
	char shown[48];

	if (v->kind != YDOC_SCALAR)
		return diag_set(d, EX_DATAERR, "%s:%zu: %s must be %s, not %s",
		    doc->file, v->line, what, expect, ydoc_kind_name(v->kind));
	ydoc_excerpt(v->value, shown, sizeof shown);
	return diag_set(d, EX_DATAERR, "%s:%zu: %s must be %s, not '%s'",
	    doc->file, v->line, what, expect, shown);
}

/*
 * A number in quotes is text, and YAML says so; the plain message ("must
 * be a number, not '1000'") would read as nonsense: say it is the quotes.
 */
static int
quoted_number(const struct ydoc *doc, const struct ydoc_node *v,
    const char *what, const char *kind, struct diag *d)
{
	char shown[48];

	ydoc_excerpt(v->value, shown, sizeof shown);
	return diag_set(d, EX_DATAERR, "%s:%zu: %s must be %s without quotes: "
	    "%s, not \"%s\" (text)", doc->file, v->line, what, kind, shown,
	    shown);
}

static int
is_decimal_integer(const char *s)
{
	if (*s == '+' || *s == '-')
		s++;
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

int
ydoc_long(const struct ydoc *doc, const struct ydoc_node *v, const char *what,
    long long min, long long max, long long *out, struct diag *d)
{
	char expect[96];
	long long x = 0;

	if (v->kind == YDOC_SCALAR && v->plain &&
	    is_decimal_integer(v->value)) {
		errno = 0;
		x = strtoll(v->value, NULL, 10);
		if (errno != ERANGE && x >= min && x <= max) {
			*out = x;
			return 0;
		}
	}
	if (v->kind == YDOC_SCALAR && !v->plain &&
	    is_decimal_integer(v->value))
		return quoted_number(doc, v, what, "a whole number", d);
	/* 1e6 is a whole number, but only digits are taken: say so. */
	if (v->kind == YDOC_SCALAR && v->plain && fmt_is_decimal(v->value)) {
		double f = strtod(v->value, NULL);
		char shown[48];

		/* Beyond 2^53 the digits shown would not be those meant. */
		if (f >= (double)min && f <= (double)max && f == floor(f) &&
		    fabs(f) <= 9007199254740992.0) {
			ydoc_excerpt(v->value, shown, sizeof shown);
			return diag_set(d, EX_DATAERR, "%s:%zu: %s must be "
			    "written in digits: %.0f, not '%s' (a whole number "
			    "from %lld to %lld)", doc->file, v->line, what, f,
			    shown, min, max);
		}
	}
	/* The message made only when it is needed: numbers are read often. */
	snprintf(expect, sizeof expect, "a whole number from %lld to %lld",
	    min, max);
	return value_error(doc, v, what, expect, d);
}

/* What a number must be, made only for a message: numbers are read often. */
static const char *
number_from(char *out, size_t size, double min, double max)
{
	snprintf(out, size, "a number from %g to %g", min, max);
	return out;
}

int
ydoc_double(const struct ydoc *doc, const struct ydoc_node *v,
    const char *what, double min, double max, double *out, struct diag *d)
{
	char expect[96];
	double x;

	if (v->kind == YDOC_SCALAR && !v->plain && fmt_is_decimal(v->value))
		return quoted_number(doc, v, what, "a number", d);
	if (v->kind != YDOC_SCALAR || !v->plain || !fmt_is_decimal(v->value))
		return value_error(doc, v, what, number_from(expect,
		    sizeof expect, min, max), d);
	errno = 0;
	x = strtod(v->value, NULL);
	/*
	 * Below DBL_MIN a double loses precision (subnormal) or becomes 0:
	 * strtod() says ERANGE, and the range alone would not say why.
	 */
	if (errno == ERANGE && x < DBL_MIN && x > -DBL_MIN && min <= 0 &&
	    max >= 0) {
		char shown[48];
		number_from(expect, sizeof expect, min, max);
		ydoc_excerpt(v->value, shown, sizeof shown);
		return diag_set(d, EX_DATAERR, "%s:%zu: %s must be %s, not "
		    "'%s', which is too close to 0 for a double (%s); the "
		    "smallest above 0 is %g", doc->file, v->line, what, expect,
		    shown, x == 0 ? "it would read as 0" : "subnormal", DBL_MIN);
	}
	if (errno == ERANGE || !(x >= min && x <= max))
		return value_error(doc, v, what, number_from(expect,
		    sizeof expect, min, max), d);
	*out = x == 0 ? 0.0 : x;	/* -0 is 0 */
	return 0;
}

int
ydoc_string(const struct ydoc *doc, const struct ydoc_node *v,
    const char *what, const char **out, struct diag *d)
{
	if (v->kind != YDOC_SCALAR)
		return value_error(doc, v, what, "text", d);
	*out = v->value;
	return 0;
}

int
ydoc_copy(const struct ydoc *doc, const struct ydoc_node *v,
    const char *what, char *out, size_t outlen, struct diag *d)
{
	char expect[64];

	if (v->kind == YDOC_SCALAR && v->len < outlen) {
		memcpy(out, v->value, v->len + 1);
		return 0;
	}
	snprintf(expect, sizeof expect, "text of at most %zu bytes",
	    outlen - 1);
	return value_error(doc, v, what, expect, d);
}

int
ydoc_unknown_key(struct ydoc_keys *k, const struct ydoc_node *key,
    struct diag *d)
{
	char shown[68];

	k->unknown++;
	if (k->mode == YDOC_KEYS_COUNT ||
	    (k->mode == YDOC_KEYS_WARN && k->unknown > YDOC_WARN_KEYS))
		return 0;
	ydoc_excerpt(key->value, shown, sizeof shown);
	if (k->mode == YDOC_KEYS_REFUSE)
		return diag_set(d, EX_DATAERR, "%s:%zu: unknown key '%s'",
		    k->doc->file, key->line, shown);
	log_warn("%s:%zu: unknown key '%s' ignored", k->doc->file, key->line,
	    shown);
	return 0;
}

void
ydoc_keys_done(struct ydoc_keys *k)
{
	if (k->mode == YDOC_KEYS_WARN && k->unknown > YDOC_WARN_KEYS)
		log_warn("%s: %zu more unknown keys ignored", k->doc->file,
		    k->unknown - YDOC_WARN_KEYS);
}

int
ydoc_only_keys(struct ydoc_keys *k, const struct ydoc_node *map,
    const char *const *known, struct diag *d)
{
	size_t i, j;

	if (map->kind != YDOC_MAPPING)
		return diag_set(d, EX_DATAERR, "%s:%zu: expected a mapping",
		    k->doc->file, map->line);
	for (i = 0; i < map->n; i++) {
		const struct ydoc_node *key = map->items[2 * i];
		for (j = 0; known[j] != NULL; j++)
			if (strcmp(key->value, known[j]) == 0)
				break;
		if (known[j] == NULL && ydoc_unknown_key(k, key, d) < 0)
			return -1;
	}
	return 0;
}
