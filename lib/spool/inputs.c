/*
 * NAME
 *	inputs - the inputs of a decision, read and digested in one place
 * DESCRIPTION
 *	See inputs.h.  The rule for jobs/ and profiles/ is job_list()'s, so
 *	a name bf-submit would refuse, a dot file or anything in cancel/ is
 *	never read, whoever reads the spool.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/array.h"
#include "util/file.h"
#include "util/ydoc.h"

#include "spool/inputs.h"

static void
file_clear(struct input_file *f)
{
	free(f->buf);
	memset(f, 0, sizeof *f);
}

void
inputs_free(struct inputs *in)
{
	size_t i;

	file_clear(&in->holes);
	file_clear(&in->state);
	file_clear(&in->policy);
	for (i = 0; i < in->njobs; i++)
		free(in->jobs[i].buf);
	for (i = 0; i < in->nprofiles; i++)
		free(in->profiles[i].buf);
	free(in->jobs);
	free(in->profiles);
	memset(in, 0, sizeof *in);
}

static int
gone(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno == ENOENT;
}

/* Read one file; a missing optional one leaves f empty and returns 0. */
static int
read_one(int dirfd, const char *name, const char *label, int optional,
    struct input_file *f, int *have, struct diag *d)
{
	if (file_read_named(dirfd, name, label, INPUTS_MAX_FILE,
	    FILE_NOFOLLOW, &f->buf, &f->len, d) < 0) {
		if (optional && d->code == EX_NOINPUT && gone(dirfd, name)) {
			diag_clear(d);
			return 0;
		}
		return -1;
	}
	f->hash = hash_buf(f->buf, f->len);
	if (have != NULL)
		*have = 1;
	return 0;
}

/*
 * The memo: the last bytes read of each job file, with what fstatat(2)
 * said of the file.  An entry is trusted only while the file's change
 * time lies more than INPUTS_MEMO_SETTLE seconds before the entry was
 * read: a file changed in place later gets a later change time (which no
 * user can set), whatever the file system's timestamp granularity; one
 * read within a second of its change is read again at the next pass.
 */
#define INPUTS_MEMO_SETTLE	1

struct inputs_memo_entry {
	char name[JOB_NAME_MAX + 1];
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
	struct timespec read_at;
	char *buf;
	size_t len;
	uint64_t hash;
	int seen;
};

void
inputs_memo_init(struct inputs_memo *m)
{
	memset(m, 0, sizeof *m);
}

void
inputs_memo_free(struct inputs_memo *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->v[i].buf);
	free(m->v);
	inputs_memo_init(m);
}

static size_t
memo_lower(const struct inputs_memo *m, const char *name, int *found)
{
	return array_find_name(m->v, m->n, sizeof *m->v,
	    offsetof(struct inputs_memo_entry, name), name, found);
}

static int
same_time(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/* The entry's bytes into f when the file is the one they were read from. */
static int
memo_take(struct inputs_memo *m, int fd, const char *file, const char *name,
    struct input_file *f)
{
	struct inputs_memo_entry *e;
	struct stat st;
	int found;
	size_t i = memo_lower(m, name, &found);

	if (!found)
		return -1;
	e = &m->v[i];
	if (e->buf == NULL ||
	    fstatat(fd, file, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISREG(st.st_mode) || st.st_dev != e->dev ||
	    st.st_ino != e->ino || st.st_size != e->size ||
	    !same_time(&st.st_mtim, &e->mtime) ||
	    !same_time(&st.st_ctim, &e->ctime) ||
	    st.st_ctim.tv_sec + INPUTS_MEMO_SETTLE >= e->read_at.tv_sec)
		return -1;
	if ((f->buf = malloc(e->len + 1)) == NULL)
		return -1;
	memcpy(f->buf, e->buf, e->len + 1);
	f->len = e->len;
	f->hash = e->hash;
	e->seen = 1;
	m->hits++;
	return 0;
}

/*
 * Remember what was just read of file, begun at *began: its stat taken
 * after the read, so a change during or after the read shows as a change
 * time too recent (against began) to trust.
 */
static void
memo_put(struct inputs_memo *m, int fd, const char *file,
    const struct input_file *f, const struct timespec *began)
{
	struct inputs_memo_entry *e, *grown;
	struct stat st;
	int found;
	size_t i = memo_lower(m, f->name, &found);

	if (fstatat(fd, file, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	if (!found) {
		if ((grown = array_grow(m->v, &m->cap, m->n + 1, sizeof *grown,
		    64)) == NULL)
			return;
		m->v = grown;
		memmove(&m->v[i + 1], &m->v[i], (m->n - i) * sizeof *grown);
		m->n++;
		memset(&m->v[i], 0, sizeof m->v[i]);
		memcpy(m->v[i].name, f->name, sizeof m->v[i].name);
	}
	e = &m->v[i];
	free(e->buf);
	e->seen = 1;
	if ((e->buf = malloc(f->len + 1)) == NULL)
		return;
	memcpy(e->buf, f->buf, f->len);
	e->buf[f->len] = '\0';
	e->len = f->len;
	e->hash = f->hash;
	e->dev = st.st_dev;
	e->ino = st.st_ino;
	e->size = st.st_size;
	e->mtime = st.st_mtim;
	e->ctime = st.st_ctim;
	e->read_at = *began;
}

/* The entries of files no longer listed are dropped. */
static void
memo_sweep(struct inputs_memo *m)
{
	size_t i, k = 0;

	for (i = 0; i < m->n; i++) {
		if (m->v[i].seen) {
			m->v[i].seen = 0;
			m->v[k++] = m->v[i];
		} else
			free(m->v[i].buf);
	}
	m->n = k;
}

/* Every NAME.yaml of a spool directory that is a job's (job_list()). */
static int
read_dir(struct spool *sp, enum spool_dir dir, int optional, int flags,
    struct inputs_memo *memo, struct input_file **out, size_t *n,
    struct diag *d)
{
	char **names, file[JOB_NAME_MAX + 8], label[JOB_NAME_MAX + 32];
	struct timespec began = { 0, 0 };
	size_t count, i;
	int fd, rc = 0;

	*out = NULL;
	*n = 0;
	if (sp->dirs[dir] < 0 && optional)
		return 0;
	if ((fd = spool_dirfd(sp, dir, d)) < 0 ||
	    job_list(sp, dir, flags & INPUTS_WARN ? JOB_LIST_WARN : 0, &names,
	    &count, d) < 0)
		return -1;
	if ((*out = calloc(count + 1, sizeof **out)) == NULL) {
		spool_list_free(names, count);
		return diag_errno(d, ENOMEM, "inputs");
	}
	for (i = 0; i < count && rc == 0; i++) {
		struct input_file *f = &(*out)[*n];
		memcpy(f->name, names[i], strlen(names[i]) + 1); /* valid */
		snprintf(file, sizeof file, "%s.yaml", names[i]);
		snprintf(label, sizeof label, "%s/%s", spool_dir_name(dir),
		    file);
		if (memo != NULL && memo_take(memo, fd, file, f->name, f) == 0)
			rc = 0;
		else {
			int timed = memo != NULL &&
			    clock_gettime(CLOCK_REALTIME, &began) == 0;
			rc = read_one(fd, file, label, 0, f, NULL, d);
			if (rc == 0 && timed)
				memo_put(memo, fd, file, f, &began);
		}
		if (rc == 0)
			(*n)++;
		else if (d->code == EX_NOINPUT && gone(fd, file)) {
			/*
			 * Gone between the listing and the read: not an input.
			 * One we may not read is still there: an error, or a
			 * user's dry run would take it for another input.
			 */
			diag_clear(d);
			rc = 0;
		}
	}
	spool_list_free(names, count);
	if (memo != NULL && rc == 0)
		memo_sweep(memo);
	return rc;
}

int
inputs_digest_list(const struct input_file *f, size_t n,
    char out[HASH_TEXT_LEN], struct diag *d)
{
	char *buf = NULL, text[HASH_TEXT_LEN];
	size_t size = 0, i;
	FILE *fp = open_memstream(&buf, &size);

	if (fp == NULL)
		return diag_errno(d, ENOMEM, "digest");
	for (i = 0; i < n; i++) {
		hash_format(f[i].hash, text);
		fprintf(fp, "%s %s\n", f[i].name, text);
	}
	if (ferror(fp) | fclose(fp)) {
		free(buf);
		return diag_errno(d, ENOMEM, "digest");
	}
	hash_format(hash_buf(buf, size), out);
	free(buf);
	return 0;
}

/* bf-solve applies the profiles of the jobs it has, and only those. */
static void
keep_applied(struct inputs *in)
{
	size_t i, j = 0, k = 0;

	for (i = 0; i < in->nprofiles; i++) {
		while (j < in->njobs && strcmp(in->jobs[j].name,
		    in->profiles[i].name) < 0)
			j++;
		if (j < in->njobs && strcmp(in->jobs[j].name,
		    in->profiles[i].name) == 0)
			in->profiles[k++] = in->profiles[i];
		else
			free(in->profiles[i].buf);
	}
	in->nprofiles = k;
}

/* The digests of what was read, as a plan records them. */
static int
digest(struct inputs *in, struct diag *d)
{
	if (inputs_digest_list(in->jobs, in->njobs, in->dig_jobs, d) < 0 ||
	    (in->nprofiles > 0 && inputs_digest_list(in->profiles,
	    in->nprofiles, in->dig_profiles, d) < 0))
		return -1;
	hash_format(in->holes.hash, in->dig_holes);
	/* A missing state is digested as the empty file. */
	hash_format(in->have_state ? in->state.hash : hash_buf("", 0),
	    in->dig_state);
	in->dig_policy[0] = '\0';
	if (in->have_policy)
		hash_format(in->policy.hash, in->dig_policy);
	return 0;
}

int
inputs_read(struct inputs *in, struct spool *sp, int flags, struct diag *d)
{
	return inputs_read_memo(in, sp, flags, NULL, d);
}

int
inputs_read_memo(struct inputs *in, struct spool *sp, int flags,
    struct inputs_memo *memo, struct diag *d)
{
	int hfd;

	memset(in, 0, sizeof *in);
	if ((hfd = spool_dirfd(sp, SPOOL_HOLES, d)) < 0 ||
	    read_one(hfd, "current.yaml", "holes/current.yaml", 0, &in->holes,
	    NULL, d) < 0 ||
	    read_dir(sp, SPOOL_JOBS, 0, flags, memo, &in->jobs, &in->njobs,
	    d) < 0 ||
	    read_dir(sp, SPOOL_PROFILES, 1, 0, NULL, &in->profiles,
	    &in->nprofiles, d) < 0 ||
	    read_one(sp->fd, "state.yaml", "state.yaml", 1, &in->state,
	    &in->have_state, d) < 0 ||
	    (!(flags & INPUTS_NO_POLICY) && read_one(sp->fd, "policy.yaml",
	    "policy.yaml", 1, &in->policy, &in->have_policy, d) < 0) ||
	    (keep_applied(in), digest(in, d) < 0)) {
		inputs_free(in);
		return -1;
	}
	return 0;
}

/*
 * The policy replaced by buf (a copy; NULL: none), its digest with it:
 * bf-watch's last good policy in force of a bad policy.yaml.
 */
int
inputs_replace_policy(struct inputs *in, const char *buf, size_t len,
    struct diag *d)
{
	struct input_file f;

	memset(&f, 0, sizeof f);
	if (buf != NULL && (f.buf = malloc(len + 1)) == NULL)
		return diag_errno(d, ENOMEM, "policy.yaml");
	if (buf != NULL) {
		memcpy(f.buf, buf, len);
		f.buf[len] = '\0';
		f.len = len;
		f.hash = hash_buf(f.buf, f.len);
	}
	file_clear(&in->policy);
	in->policy = f;
	in->have_policy = buf != NULL;
	return digest(in, d);
}

/* bf-solve --policy FILE: that file instead of the spool's policy.yaml. */
int
inputs_set_policy(struct inputs *in, const char *path, struct diag *d)
{
	struct input_file f;

	memset(&f, 0, sizeof f);
	if (file_read_at(AT_FDCWD, path, INPUTS_MAX_FILE, 0, &f.buf, &f.len,
	    d) < 0)
		return -1;
	f.hash = hash_buf(f.buf, f.len);
	file_clear(&in->policy);
	in->policy = f;
	in->have_policy = 1;
	in->policy_label = path;
	return digest(in, d);
}

const char *
inputs_stale(const struct inputs *in, const struct plan *p)
{
	if (strcmp(in->dig_holes, p->holes) != 0)
		return "holes";
	if (strcmp(in->dig_jobs, p->jobs_digest) != 0)
		return "jobs";
	if (strcmp(in->dig_state, p->state) != 0)
		return "state.yaml";
	if (strcmp(in->dig_policy, p->policy) != 0)
		return "policy.yaml";
	if (strcmp(in->dig_profiles, p->profiles) != 0)
		return "profiles";
	return NULL;
}

/*
 * history/NAME or history/objects/NAME, never through a link nor from
 * anything but a regular file; messages name it LABEL, its place in the
 * spool.
 */
int
inputs_read_stored(int dirfd, const char *name, const char *label, char **buf,
    size_t *len, struct diag *d)
{
	size_t n = strlen(name);
	char rest[DIAG_MAX];

	if (dirfd < 0)		/* history/objects/ does not exist */
		return diag_set(d, EX_NOINPUT, "unable to open %s: No such "
		    "file or directory", label);
	if (file_read_at(dirfd, name, INPUTS_MAX_FILE, FILE_NOFOLLOW, buf, len,
	    d) == 0)
		return 0;
	if (strncmp(d->text, name, n) == 0 && d->text[n] == ':') {
		snprintf(rest, sizeof rest, "%s", d->text + n);
		diag_set(d, d->code, "%s%s", label, rest);
	} else if (strncmp(d->text, "unable to open ", 15) == 0 &&
	    strncmp(d->text + 15, name, n) == 0) {
		snprintf(rest, sizeof rest, "%s", d->text + 15 + n);
		diag_set(d, d->code, "unable to open %s%s", label, rest);
	}
	return -1;
}

/* One input from the object the manifest names for it. */
static int
read_object(int objfd, const struct ydoc *doc, const struct ydoc_node *v,
    const char *name, const char *label, struct input_file *f,
    struct diag *d)
{
	char olabel[64];
	const char *hex;

	memset(f, 0, sizeof *f);
	snprintf(f->name, sizeof f->name, "%.64s", name);
	if (ydoc_string(doc, v, label, &hex, d) < 0)
		return -1;
	if (hash_parse(hex, &f->hash) < 0) {
		ydoc_excerpt(hex, olabel, sizeof olabel);
		return diag_set(d, EX_DATAERR, "%s:%zu: bad digest '%s'",
		    doc->file, v->line, olabel);
	}
	snprintf(olabel, sizeof olabel, "history/objects/%s", hex + 5);
	if (inputs_read_stored(objfd, hex + 5, olabel, &f->buf, &f->len, d) < 0)
		return -1;
	if (hash_buf(f->buf, f->len) != f->hash)
		return diag_set(d, EX_DATAERR, "history/objects/%s: content "
		    "does not match its name", hex + 5);
	return 0;
}

static int
read_objects(int objfd, const struct ydoc *doc, const char *key,
    struct input_file **out, size_t *n, struct diag *d)
{
	const struct ydoc_node *m = ydoc_get(doc->root, key);
	char label[JOB_NAME_MAX + 32];
	const char *name;
	size_t i;

	*out = NULL;
	*n = 0;
	if (m == NULL || m->kind != YDOC_MAPPING)
		return 0;
	if ((*out = calloc(m->n + 1, sizeof **out)) == NULL)
		return diag_errno(d, ENOMEM, "inputs");
	for (i = 0; i < m->n; i++) {
		name = m->items[2 * i]->value;
		snprintf(label, sizeof label, "%s/%.64s.yaml", key, name);
		*n = i + 1;	/* even when it fails: inputs_free() frees it */
		if (read_object(objfd, doc, m->items[2 * i + 1], name, label,
		    &(*out)[i], d) < 0)
			return -1;
	}
	return 0;
}

static int
manifest(struct inputs *in, int objfd, const struct ydoc *doc,
    const char *label, struct diag *d)
{
	const struct ydoc_node *v;

	if (doc->root == NULL || doc->root->kind != YDOC_MAPPING ||
	    (v = ydoc_get(doc->root, "holes")) == NULL)
		return diag_set(d, EX_DATAERR, "%s: no holes", label);
	if (read_object(objfd, doc, v, "", "holes/current.yaml",
	    &in->holes, d) < 0 ||
	    read_objects(objfd, doc, "jobs", &in->jobs, &in->njobs, d) < 0 ||
	    read_objects(objfd, doc, "profiles", &in->profiles,
	    &in->nprofiles, d) < 0)
		return -1;
	if ((v = ydoc_get(doc->root, "state")) != NULL) {
		if (read_object(objfd, doc, v, "", "state.yaml", &in->state,
		    d) < 0)
			return -1;
		in->have_state = 1;
	}
	if ((v = ydoc_get(doc->root, "policy")) != NULL) {
		if (read_object(objfd, doc, v, "", "policy.yaml", &in->policy,
		    d) < 0)
			return -1;
		in->have_policy = 1;
	}
	return digest(in, d);
}

int
inputs_read_manifest(struct inputs *in, int hfd, int objfd, const char *stem,
    struct diag *d)
{
	char name[128], label[160], *buf;
	struct ydoc doc;
	size_t len;
	int rc;

	memset(in, 0, sizeof *in);
	snprintf(name, sizeof name, "%.100s.inputs.yaml", stem);
	snprintf(label, sizeof label, "history/%s", name);
	if (inputs_read_stored(hfd, name, label, &buf, &len, d) < 0)
		return -1;
	if (ydoc_load(&doc, label, buf, len, d) < 0) {
		free(buf);
		return -1;
	}
	rc = manifest(in, objfd, &doc, label, d);
	ydoc_free(&doc);
	free(buf);
	if (rc < 0)
		inputs_free(in);
	return rc;
}
