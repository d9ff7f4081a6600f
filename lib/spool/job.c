/*
 * NAME
 *	job - the job file: model, validation and canonical form
 * DESCRIPTION
 *	See job.h.  Each key has one handler; the table below is the whole
 *	schema, so a new key is one line and one function.
 * DIAGNOSTICS
 *	"job.yaml:7: max_nodes (0) is below min_nodes (1)",
 *	"job.yaml:2: name 'a/b' is not a valid job name (letters, digits, '.',
 *	'_' and '-', starting with a letter or digit, at most 64)".
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/file.h"
#include "util/fmt.h"
#include "util/ydoc.h"

#include "spool/job.h"

struct parse {
	struct job *j;
	const struct ydoc *doc;
	struct diag *d;
	struct ydoc_keys keys;	/* warned about, or counted when quiet */
};

typedef int key_handler(struct parse *, const struct ydoc_node *);

int
job_name_valid(const char *name)
{
	size_t i;

	for (i = 0; name[i] != '\0'; i++) {
		char c = name[i];
		int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9');
		if (i >= JOB_NAME_MAX)
			return 0;
		if (!alnum && (i == 0 || (c != '.' && c != '_' && c != '-')))
			return 0;
	}
	return i > 0;
}

/* NAME of NAME + suffix, NAME a valid job name; 0 for any other name. */
static int
stem_of(const char *file, const char *suffix, char stem[JOB_NAME_MAX + 1])
{
	size_t l = strlen(file), s = strlen(suffix);

	if (l <= s || l - s > JOB_NAME_MAX || strcmp(file + l - s, suffix) != 0)
		return 0;
	memcpy(stem, file, l - s);
	stem[l - s] = '\0';
	return job_name_valid(stem);
}

int
job_file_name(const char *file, char stem[JOB_NAME_MAX + 1])
{
	return stem_of(file, ".yaml", stem);
}

int
job_list(const struct spool *sp, enum spool_dir dir, int flags,
    char ***namesp, size_t *countp, struct diag *d)
{
	return job_list_suffix(sp, dir, ".yaml", flags, namesp, countp, d);
}

int
job_list_suffix(const struct spool *sp, enum spool_dir dir,
    const char *suffix, int flags, char ***namesp, size_t *countp,
    struct diag *d)
{
	char **names, stem[JOB_NAME_MAX + 1], shown[NAME_MAX + 4];
	size_t count, i, k = 0;

	if (spool_list(sp, dir, &names, &count, d) < 0)
		return -1;
	for (i = 0; i < count; i++) {
		if (stem_of(names[i], suffix, stem)) {
			memcpy(names[i], stem, strlen(stem) + 1);
			names[k++] = names[i];
			continue;
		}
		if (flags & JOB_LIST_WARN) {
			ydoc_excerpt(names[i], shown, sizeof shown);
			log_warn("%s/%s: not a job file (NAME%s, NAME a job "
			    "name), ignored", spool_dir_name(dir), shown,
			    suffix);
		}
		free(names[i]);
	}
	*namesp = names;
	*countp = k;
	return 0;
}

int
job_check_name(const struct job *j, const char *stem, const char *label,
    struct diag *d)
{
	if (strcmp(j->name, stem) == 0)
		return 0;
	return diag_set(d, EX_DATAERR, "%s:%zu: name '%s' is not the file's "
	    "(%s.yaml holds job %s only)", label, j->line, j->name, stem, stem);
}

static int
get_name(struct parse *p, const struct ydoc_node *v)
{
	const char *s;
	char shown[48];

	if (ydoc_string(p->doc, v, "name", &s, p->d) < 0)
		return -1;
	if (!job_name_valid(s)) {
		ydoc_excerpt(s, shown, sizeof shown);
		return diag_set(p->d, EX_DATAERR, "%s:%zu: name '%s' is not a "
		    "valid job name (letters, digits, '.', '_' and '-', "
		    "starting with a letter or digit, at most %d)",
		    p->doc->file, v->line, shown, JOB_NAME_MAX);
	}
	memcpy(p->j->name, s, strlen(s) + 1);
	p->j->line = v->line;
	return 0;
}

/* command and worker: a shell command line, not blank, not huge. */
static int
get_shell(struct parse *p, const struct ydoc_node *v, const char *what,
    char **out)
{
	const char *s;

	if (ydoc_string(p->doc, v, what, &s, p->d) < 0)
		return -1;
	if (strspn(s, " \t") == strlen(s))
		return diag_set(p->d, EX_DATAERR, "%s:%zu: %s is empty",
		    p->doc->file, v->line, what);
	if (strlen(s) > JOB_MAX_COMMAND)
		return diag_set(p->d, EX_DATAERR, "%s:%zu: %s is longer "
		    "than %d bytes", p->doc->file, v->line, what,
		    JOB_MAX_COMMAND);
	free(*out);
	if ((*out = strdup(s)) == NULL)
		return diag_errno(p->d, ENOMEM, "%s: unable to load",
		    p->doc->file);
	return 0;
}

static int
get_command(struct parse *p, const struct ydoc_node *v)
{
	return get_shell(p, v, "command", &p->j->command);
}

static int
get_worker(struct parse *p, const struct ydoc_node *v)
{
	return get_shell(p, v, "worker", &p->j->worker);
}

static int
get_worker_restarts(struct parse *p, const struct ydoc_node *v)
{
	long long x;

	if (ydoc_long(p->doc, v, "worker_restarts", 0, JOB_MAX_RESTARTS, &x,
	    p->d) < 0)
		return -1;
	p->j->worker_restarts = (long)x;
	return 0;
}

static int
get_count(struct parse *p, const struct ydoc_node *v, const char *what,
    long *out)
{
	long long x;

	if (ydoc_long(p->doc, v, what, 1, JOB_MAX_NODES, &x, p->d) < 0)
		return -1;
	*out = (long)x;
	return 0;
}

static int
get_min_nodes(struct parse *p, const struct ydoc_node *v)
{
	return get_count(p, v, "min_nodes", &p->j->min_nodes);
}

static int
get_max_nodes(struct parse *p, const struct ydoc_node *v)
{
	return get_count(p, v, "max_nodes", &p->j->max_nodes);
}

static int
get_slots(struct parse *p, const struct ydoc_node *v)
{
	long long x;

	if (ydoc_long(p->doc, v, "slots_per_node", 1, 1024, &x, p->d) < 0)
		return -1;
	p->j->slots_per_node = (long)x;
	return 0;
}

static int
get_rescale_up(struct parse *p, const struct ydoc_node *v)
{
	return ydoc_double(p->doc, v, "rescale_up", 0, JOB_MAX_RESCALE,
	    &p->j->rescale_up, p->d);
}

static int
get_rescale_down(struct parse *p, const struct ydoc_node *v)
{
	return ydoc_double(p->doc, v, "rescale_down", 0, JOB_MAX_RESCALE,
	    &p->j->rescale_down, p->d);
}

static int
get_samples(struct parse *p, const struct ydoc_node *v)
{
	return ydoc_long(p->doc, v, "samples", 1, 1000000000000000000LL,
	    &p->j->samples, p->d);
}

static int
get_weight(struct parse *p, const struct ydoc_node *v)
{
	if (ydoc_double(p->doc, v, "weight", 0, 1e6, &p->j->weight, p->d) < 0)
		return -1;
	if (p->j->weight <= 0)
		return diag_set(p->d, EX_DATAERR, "%s:%zu: weight must be "
		    "above 0", p->doc->file, v->line);
	return 0;
}

static int
point_cmp(const void *a, const void *b)
{
	const struct job_point *x = a, *y = b;

	return (x->nodes > y->nodes) - (x->nodes < y->nodes);
}

static int
get_scaling(struct parse *p, const struct ydoc_node *v)
{
	struct job *j = p->j;
	size_t i, k;

	if (v->kind != YDOC_MAPPING || v->n == 0)
		return diag_set(p->d, EX_DATAERR, "%s:%zu: scaling must be a "
		    "mapping of node counts to samples per second, like "
		    "'1: 5218.8'", p->doc->file, v->line);
	if (v->n > JOB_MAX_POINTS)
		return diag_set(p->d, EX_DATAERR, "%s:%zu: scaling has more "
		    "than %d points", p->doc->file, v->line, JOB_MAX_POINTS);
	free(j->points);
	j->points = calloc(v->n, sizeof *j->points);
	if (j->points == NULL)
		return diag_errno(p->d, ENOMEM, "%s: unable to load",
		    p->doc->file);
	j->npoints = v->n;
	for (i = 0; i < v->n; i++) {
		long long nodes;
		double rate;

		if (ydoc_long(p->doc, v->items[2 * i], "a scaling node count",
		    1, JOB_MAX_NODES, &nodes, p->d) < 0)
			return -1;
		if (ydoc_double(p->doc, v->items[2 * i + 1], "a scaling rate",
		    0, 1e15, &rate, p->d) < 0)
			return -1;
		if (rate <= 0)
			return diag_set(p->d, EX_DATAERR, "%s:%zu: the rate at "
			    "%lld nodes must be above 0 samples per second",
			    p->doc->file, v->items[2 * i + 1]->line, nodes);
		j->points[i].nodes = (long)nodes;
		j->points[i].rate = rate;
		/* "4" and "04" are different keys but the same count. */
		for (k = 0; k < i; k++)
			if (j->points[k].nodes == j->points[i].nodes)
				return diag_set(p->d, EX_DATAERR, "%s:%zu: "
				    "scaling gives %lld nodes twice (first at "
				    "line %zu)", p->doc->file,
				    v->items[2 * i]->line, nodes,
				    v->items[2 * k]->line);
	}
	if (j->npoints > 1)
		qsort(j->points, j->npoints, sizeof *j->points, point_cmp);
	return 0;
}

static int
get_owner(struct parse *p, const struct ydoc_node *v)
{
	const struct ydoc_node *uid = ydoc_get(v, "uid");

	if (uid == NULL)
		return diag_set(p->d, EX_DATAERR, "%s:%zu: owner must be a "
		    "mapping with uid", p->doc->file, v->line);
	return ydoc_long(p->doc, uid, "owner uid", 0, 4294967294LL,
	    &p->j->owner_uid, p->d);
}

static int
get_submitted(struct parse *p, const struct ydoc_node *v)
{
	return ydoc_long(p->doc, v, "submitted", 0, 1LL << 40,
	    &p->j->submitted, p->d);
}

static int
get_source(struct parse *p, const struct ydoc_node *v)
{
	const struct ydoc_node *file = ydoc_get(v, "file");
	const struct ydoc_node *hash = ydoc_get(v, "xxh3");
	const char *s;

	if (file != NULL) {
		if (ydoc_copy(p->doc, file, "source file", p->j->source_file,
		    sizeof p->j->source_file, p->d) < 0)
			return -1;
	}
	if (hash != NULL) {
		uint64_t h;
		if (ydoc_string(p->doc, hash, "source xxh3", &s, p->d) < 0)
			return -1;
		if (hash_parse(s, &h) < 0)
			return diag_set(p->d, EX_DATAERR, "%s:%zu: source xxh3 "
			    "must be xxh3: and 16 hex digits", p->doc->file,
			    hash->line);
		hash_format(h, p->j->source_hash);
	}
	return 0;
}

static const struct {
	const char *key;
	key_handler *get;
	int trusted;		/* only bftrainer may set it */
} schema[] = {
	{ "command", get_command, 0 },
	{ "max_nodes", get_max_nodes, 0 },
	{ "min_nodes", get_min_nodes, 0 },
	{ "name", get_name, 0 },
	{ "owner", get_owner, 1 },
	{ "rescale_down", get_rescale_down, 0 },
	{ "rescale_up", get_rescale_up, 0 },
	{ "samples", get_samples, 0 },
	{ "scaling", get_scaling, 0 },
	{ "slots_per_node", get_slots, 0 },
	{ "source", get_source, 1 },
	{ "submitted", get_submitted, 1 },
	{ "weight", get_weight, 0 },
	{ "worker", get_worker, 0 },
	{ "worker_restarts", get_worker_restarts, 0 },
};

static void
job_defaults(struct job *j)
{
	memset(j, 0, sizeof *j);
	j->min_nodes = 1;
	j->rescale_up = JOB_DEFAULT_RESCALE_UP;
	j->rescale_down = JOB_DEFAULT_RESCALE_DOWN;
	j->weight = 1.0;
	j->slots_per_node = 1;
	j->worker_restarts = JOB_DEFAULT_RESTARTS;
	j->owner_uid = -1;
}

/*
 * The optimal string alignment distance (Damerau-Levenshtein with each
 * substring edited once): insertions, deletions, substitutions and
 * transpositions of two neighbours, each 1.  Keys longer than KEY_CMP_MAX
 * are far from every key of the schema and are not compared.
 */
#define KEY_CMP_MAX	32

static size_t
key_distance(const char *a, const char *b)
{
	size_t m = strlen(a), n = strlen(b), i, k;
	size_t dist[KEY_CMP_MAX + 1][KEY_CMP_MAX + 1];

	if (m > KEY_CMP_MAX || n > KEY_CMP_MAX)
		return (size_t)-1;
	for (i = 0; i <= m; i++)
		dist[i][0] = i;
	for (k = 0; k <= n; k++)
		dist[0][k] = k;
	for (i = 1; i <= m; i++)
		for (k = 1; k <= n; k++) {
			size_t best = dist[i - 1][k - 1] +
			    (a[i - 1] != b[k - 1]);

			if (dist[i - 1][k] + 1 < best)
				best = dist[i - 1][k] + 1;
			if (dist[i][k - 1] + 1 < best)
				best = dist[i][k - 1] + 1;
			if (i > 1 && k > 1 && a[i - 1] == b[k - 2] &&
			    a[i - 2] == b[k - 1] &&
			    dist[i - 2][k - 2] + 1 < best)
				best = dist[i - 2][k - 2] + 1;
			dist[i][k] = best;
		}
	return dist[m][n];
}

/*
 * An unknown key a slip of the fingers away from a key a user may write
 * is refused, since ignoring it would run the job otherwise than meant
 * ('smaples' runs without end): at most 2 edits from a key of 5 letters
 * or more, 1 from a shorter one, and only when the file does not give
 * that key itself ('comment' beside a 'command' is a note, not a typo).
 * Files bftrainer writes (JOB_TRUSTED) may hold keys of a newer version
 * and are not second-guessed.  Returns the key meant, or NULL.
 */
static const char *
typo_of(const struct ydoc_node *root, const char *key)
{
	const char *meant = NULL;
	size_t i, dist, best = 3;

	for (i = 0; i < sizeof schema / sizeof schema[0]; i++) {
		if (schema[i].trusted)
			continue;
		dist = key_distance(key, schema[i].key);
		if (dist > (strlen(schema[i].key) >= 5 ? 2U : 1U) ||
		    dist >= best)
			continue;
		best = dist;
		meant = schema[i].key;
	}
	return meant != NULL && ydoc_get(root, meant) == NULL ? meant : NULL;
}

static int
apply_key(struct parse *p, const struct ydoc_node *root,
    const struct ydoc_node *k, const struct ydoc_node *v, int flags)
{
	const char *meant;
	char shown[68];
	size_t i;

	for (i = 0; i < sizeof schema / sizeof schema[0]; i++) {
		if (strcmp(k->value, schema[i].key) != 0)
			continue;
		if (schema[i].trusted && !(flags & JOB_TRUSTED)) {
			if (!(flags & JOB_QUIET))
				log_warn("%s:%zu: %s is set by bftrainer, "
				    "ignored", p->doc->file, k->line, k->value);
			return 0;
		}
		return schema[i].get(p, v);
	}
	if (!(flags & JOB_TRUSTED) && (meant = typo_of(root, k->value)) !=
	    NULL) {
		ydoc_excerpt(k->value, shown, sizeof shown);
		return diag_set(p->d, EX_DATAERR, "%s:%zu: unknown key '%s' "
		    "(did you mean '%s'?)", p->doc->file, k->line, shown,
		    meant);
	}
	return ydoc_unknown_key(&p->keys, k, p->d);
}

static int
check_required(struct parse *p, const struct ydoc_node *root)
{
	static const char *const required[] = { "name", "command",
	    "max_nodes" };
	size_t i;

	for (i = 0; i < sizeof required / sizeof required[0]; i++)
		if (ydoc_get(root, required[i]) == NULL)
			return diag_set(p->d, EX_DATAERR, "%s:%zu: %s is "
			    "missing", p->doc->file, root->line, required[i]);
	if (p->j->worker == NULL && ydoc_get(root, "worker_restarts") != NULL)
		return diag_set(p->d, EX_DATAERR, "%s:%zu: worker_restarts is "
		    "set but there is no worker", p->doc->file,
		    ydoc_get(root, "worker_restarts")->line);
	if (p->j->max_nodes < p->j->min_nodes)
		return diag_set(p->d, EX_DATAERR, "%s:%zu: max_nodes (%ld) is "
		    "below min_nodes (%ld)", p->doc->file,
		    ydoc_get(root, "max_nodes")->line, p->j->max_nodes,
		    p->j->min_nodes);
	return 0;
}

int
job_parse(struct job *j, const char *file, const char *buf, size_t len,
    int flags, struct diag *d)
{
	struct ydoc doc;
	struct parse p = { j, &doc, d, { &doc, (flags & JOB_QUIET) ?
	    YDOC_KEYS_COUNT : YDOC_KEYS_WARN, 0 } };
	const struct ydoc_node *root;
	size_t i;
	int rc = 0;

	job_defaults(j);
	if (ydoc_load(&doc, file, buf, len, d) < 0)
		return -1;
	root = doc.root;
	if (root == NULL) {
		ydoc_free(&doc);
		return diag_set(d, EX_DATAERR, "%s:1: empty job file", file);
	}
	if (root->kind != YDOC_MAPPING) {
		rc = diag_set(d, EX_DATAERR, "%s:%zu: a job file must be a "
		    "mapping of keys to values, not %s", file, root->line,
		    ydoc_kind_name(root->kind));
		goto out;
	}
	for (i = 0; i < root->n && rc == 0; i++)
		rc = apply_key(&p, root, root->items[2 * i],
		    root->items[2 * i + 1], flags);
	ydoc_keys_done(&p.keys);
	if (rc == 0)
		rc = check_required(&p, root);
out:
	ydoc_free(&doc);
	if (rc < 0)
		job_free(j);
	return rc;
}

int
job_load_at(struct job *j, int dirfd, const char *name, const char *label,
    int flags, struct diag *d)
{
	char *buf;
	size_t len;
	int rc;

	if (file_read_named(dirfd, name, label, FILE_MAX_JOB, FILE_NOFOLLOW,
	    &buf, &len, d) < 0)
		return -1;
	rc = job_parse(j, label, buf, len, flags, d);
	free(buf);
	return rc;
}

char *
job_format(const struct job *j, size_t *lenp)
{
	char *text = NULL, num[FMT_DOUBLE_LEN];
	size_t len = 0, i;
	FILE *fp = open_memstream(&text, &len);

	if (fp == NULL)
		return NULL;
	fputs("command: ", fp);
	fmt_yaml_string(fp, j->command);
	fprintf(fp, "\nmax_nodes: %ld\nmin_nodes: %ld\nname: ", j->max_nodes,
	    j->min_nodes);
	fmt_yaml_word(fp, j->name);
	putc('\n', fp);
	if (j->owner_uid >= 0)
		fprintf(fp, "owner: {uid: %lld}\n", j->owner_uid);
	fprintf(fp, "rescale_down: %s\n", fmt_double(j->rescale_down, num));
	fprintf(fp, "rescale_up: %s\n", fmt_double(j->rescale_up, num));
	if (j->samples > 0)
		fprintf(fp, "samples: %lld\n", j->samples);
	if (j->npoints > 0) {
		fputs("scaling:\n", fp);
		for (i = 0; i < j->npoints; i++)
			fprintf(fp, "  %ld: %s\n", j->points[i].nodes,
			    fmt_double(j->points[i].rate, num));
	}
	fprintf(fp, "slots_per_node: %ld\n", j->slots_per_node);
	if (j->source_file[0] != '\0' || j->source_hash[0] != '\0') {
		fputs("source: {file: ", fp);
		fmt_yaml_string(fp, j->source_file);
		fprintf(fp, ", xxh3: \"%s\"}\n", j->source_hash);
	}
	if (j->submitted > 0)
		fprintf(fp, "submitted: %lld\n", j->submitted);
	fprintf(fp, "weight: %s\n", fmt_double(j->weight, num));
	/* Only a job with workers has these: older job files stay as they were. */
	if (j->worker != NULL) {
		fputs("worker: ", fp);
		fmt_yaml_string(fp, j->worker);
		fprintf(fp, "\nworker_restarts: %ld\n", j->worker_restarts);
	}
	if (fclose(fp) != 0) {
		free(text);
		return NULL;
	}
	*lenp = len;
	return text;
}

/* A deep copy; -1 (nothing to free) when out of memory. */
int
job_copy(struct job *to, const struct job *from)
{
	*to = *from;
	to->command = NULL, to->worker = NULL, to->points = NULL;
	if ((from->command != NULL &&
	    (to->command = strdup(from->command)) == NULL) ||
	    (from->worker != NULL &&
	    (to->worker = strdup(from->worker)) == NULL) ||
	    (from->npoints > 0 && (to->points = malloc(from->npoints *
	    sizeof *to->points)) == NULL)) {
		job_free(to);
		return -1;
	}
	if (from->npoints > 0)
		memcpy(to->points, from->points, from->npoints *
		    sizeof *to->points);
	return 0;
}

void
job_free(struct job *j)
{
	free(j->command);
	free(j->worker);
	free(j->points);
	j->command = NULL;
	j->worker = NULL;
	j->points = NULL;
	j->npoints = 0;
}
