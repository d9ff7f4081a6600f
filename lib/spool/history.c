/*
 * NAME
 *	history - the spool's inputs and the record of what was enacted
 * DESCRIPTION
 *	See history.h.  Objects are named by content, so storing one twice
 *	is a no-op (EEXIST) and a crash half-way through history_enact()
 *	is finished by simply calling it again.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/fault.h"
#include "util/file.h"
#include "util/fmt.h"
#include "util/ydoc.h"

#include "spool/history.h"
#include "spool/job.h"

static int
gone(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno == ENOENT;
}

/* history/NAME, made when missing; the caller closes the descriptor. */
int
history_subdir(struct spool *sp, const char *name, struct diag *d)
{
	char label[PATH_MAX + 32];
	int hfd = spool_dirfd(sp, SPOOL_HISTORY, d), fd;

	if (hfd < 0)
		return -1;
	if (mkdirat(hfd, name, 0755) < 0 && errno != EEXIST)
		return diag_errno(d, errno, "unable to create %s/history/%s",
		    sp->path, name);
	fd = openat(hfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd < 0)
		return diag_errno(d, errno, "unable to open %s/history/%s",
		    sp->path, name);
	snprintf(label, sizeof label, "%s/history/%s", sp->path, name);
	if (spool_check_dir(fd, label, 0, d) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Deliver into a directory, never replacing: EEXIST is the same bytes. */
static int
put(struct spool *sp, int dirfd, const char *label, const char *name,
    const void *buf, size_t len, struct diag *d)
{
	int tmpfd = spool_dirfd(sp, SPOOL_TMP, d);
	/* Objects hold copies of job files, commands and all: like jobs/,
	 * the spool's owner's only.  Plans and run records are public. */
	mode_t mode = strcmp(label, "history/objects") == 0 ? 0600 : 0644;

	if (tmpfd < 0)
		return -1;
	if (file_write_atomic(tmpfd, dirfd, name, buf, len, mode,
	    FILE_NOREPLACE, d) == 0)
		return 0;
	if (errno == EEXIST) {
		diag_clear(d);
		return 0;
	}
	return diag_prefix(d, "%s/%s/%s: ", sp->path, label, name);
}

int
history_store_object(struct spool *sp, const void *buf, size_t len,
    char hex[HASH_TEXT_LEN], struct diag *d)
{
	int fd = history_subdir(sp, "objects", d), rc;

	if (fd < 0)
		return -1;
	hash_format(hash_buf(buf, len), hex);
	/* Named by content: one already there is this one, unwritten. */
	if (faccessat(fd, hex + 5, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		rc = 0;
	else
		rc = put(sp, fd, "history/objects", hex + 5, buf, len, d);
	close(fd);
	return rc;
}

void
history_plan_stem(const char *text, size_t len, long long time, char *stem,
    size_t stemlen)
{
	char hex[HASH_TEXT_LEN];

	hash_format(hash_buf(text, len), hex);
	snprintf(stem, stemlen, "%lld-%s", time, hex + 5);
}

int
history_enacted(struct spool *sp, const char *text, size_t len,
    long long time)
{
	char stem[64], name[80];

	history_plan_stem(text, len, time, stem, sizeof stem);
	snprintf(name, sizeof name, "%s.yaml", stem);
	return sp->dirs[SPOOL_HISTORY] >= 0 && faccessat(
	    sp->dirs[SPOOL_HISTORY], name, F_OK, AT_SYMLINK_NOFOLLOW) == 0;
}

/*
 * The files of one plan's record, staged unsynced and synced together
 * (one journal commit for all), then published in the order bf-spool(5)
 * gives, with one directory fsync for each group.
 */
struct record {
	struct spool *sp;
	int objfd;		/* history/objects/, ours to close */
	struct file_group g;	/* into history/ or history/objects/ */
	const char *label;	/* the other files' directory, in messages */
};

/* Every file staged so far synced (and closed). */
static int
record_sync(struct record *r, struct diag *d)
{
	size_t failed;

	if (file_group_sync(&r->g, &failed, d) < 0)
		return diag_prefix(d, "%s/%s: ", r->sp->path, r->label);
	return 0;
}

/*
 * Job objects hold copies of job files, commands and all: like jobs/, the
 * spool's owner's only.  The holes, state, policy and profile objects,
 * plans and run records are public, as the files they copy are (a user's
 * bf-report reads them).
 */
static int
record_stage_mode(struct record *r, int dirfd, const char *name,
    const void *buf, size_t len, mode_t mode, struct diag *d)
{
	int tmpfd = spool_dirfd(r->sp, SPOOL_TMP, d);

	if (tmpfd < 0)
		return -1;
	if (file_group_stage(&r->g, tmpfd, dirfd, name, name, buf, len, mode,
	    d) < 0)
		return diag_prefix(d, "%s/%s/%s: ", r->sp->path, dirfd ==
		    r->objfd ? "history/objects" : r->label, name);
	return 0;
}

static int
record_stage(struct record *r, int dirfd, const char *name, const void *buf,
    size_t len, struct diag *d)
{
	return record_stage_mode(r, dirfd, name, buf, len, dirfd == r->objfd ?
	    0600 : 0644, d);
}

/* Files [from, to) into place, never replacing: EEXIST is the same bytes. */
static int
record_publish(struct record *r, size_t from, size_t to, struct diag *d)
{
	size_t i;

	for (i = from; i < to; i++) {
		struct file_group_item *f = &r->g.v[i];
		if (f->st.tmpname[0] == '\0')
			continue;
		if (file_publish(&f->st, f->dirfd, f->name, FILE_NOREPLACE |
		    FILE_NODIRSYNC, d) == 0)
			continue;
		if (errno != EEXIST)
			return diag_prefix(d, "%s/%s/%s: ", r->sp->path,
			    f->dirfd == r->objfd ? "history/objects" :
			    r->label, f->name);
		diag_clear(d);
		file_unstage(&f->st);
	}
	return 0;
}

/* The names published so far, on the disk: objects/, then history/. */
static int
record_sync_dirs(struct record *r, int objects, struct diag *d)
{
	char label[PATH_MAX + 32];

	snprintf(label, sizeof label, "%s/history/objects", r->sp->path);
	if (objects && file_sync_dir(r->objfd, label, d) < 0)
		return -1;
	snprintf(label, sizeof label, "%s/history", r->sp->path);
	return file_sync_dir(r->sp->dirs[SPOOL_HISTORY], label, d);
}

static void
record_free(struct record *r)
{
	file_group_free(&r->g);
	if (r->objfd >= 0)
		close(r->objfd);
}

/* An input's object staged, unless it is in objects/ or staged already. */
static int
record_object(struct record *r, FILE *fp, const char *indent,
    const char *key, const struct input_file *f, mode_t mode, struct diag *d)
{
	const char *buf = f->buf ? f->buf : "";
	char hex[HASH_TEXT_LEN];
	size_t i;

	hash_format(hash_buf(buf, f->len), hex);
	fprintf(fp, "%s%s: \"%s\"\n", indent, key, hex);
	if (faccessat(r->objfd, hex + 5, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		return 0;
	for (i = 0; i < r->g.n; i++)
		if (r->g.v[i].dirfd == r->objfd &&
		    strcmp(r->g.v[i].name, hex + 5) == 0)
			return 0;
	return record_stage_mode(r, r->objfd, hex + 5, buf, f->len, mode, d);
}

/*
 * What a user may know of every job, though its job object is the spool's
 * (bf-spool(5), SECURITY): its owner and the samples it must train, so
 * that bf-report --now shows an owner her job's target and finish.
 */
static void
public_part(FILE *fp, const struct inputs *in, const struct job_cache *parsed)
{
	struct diag d;
	struct job j;
	const struct job *pj;
	const char *buf;
	size_t i, n = 0;

	for (i = 0; i < in->njobs; i++) {
		buf = in->jobs[i].buf ? in->jobs[i].buf : "";
		/* The decision's parse of these very bytes, when there is one. */
		pj = job_cache_peek(parsed, in->jobs[i].name, buf,
		    in->jobs[i].len);
		if (pj == NULL && job_parse(&j, in->jobs[i].name, buf,
		    in->jobs[i].len, JOB_TRUSTED | JOB_QUIET, &d) < 0)
			continue;	/* the decision named it already */
		if (n++ == 0)
			fputs("public:\n", fp);
		fprintf(fp, "  %s: {uid: %lld, samples: %lld}\n",
		    in->jobs[i].name, pj ? pj->owner_uid : j.owner_uid,
		    pj ? pj->samples : j.samples);
		if (pj == NULL)
			job_free(&j);
	}
	if (n == 0)
		fputs("public: {}\n", fp);
}

/* The manifest: which object was which input; the objects staged. */
static int
manifest(struct record *r, const struct inputs *in,
    const struct job_cache *parsed, const char *plan,
    const struct timespec *when, char **buf, size_t *size, struct diag *d)
{
	FILE *fp = open_memstream(buf, size);
	size_t i;
	int rc;

	if (fp == NULL)
		return diag_errno(d, ENOMEM, "manifest");
	fprintf(fp, "plan: \"%s\"\nenacted: %lld.%06ld\n", plan,
	    (long long)when->tv_sec, when->tv_nsec / 1000);
	rc = record_object(r, fp, "", "holes", &in->holes, 0644, d);
	if (rc == 0 && in->have_policy)
		rc = record_object(r, fp, "", "policy", &in->policy, 0644,
		    d);
	if (rc == 0)
		rc = record_object(r, fp, "", "state", &in->state, 0644, d);
	fprintf(fp, in->njobs ? "jobs:\n" : "jobs: {}\n");
	for (i = 0; rc == 0 && i < in->njobs; i++)
		rc = record_object(r, fp, "  ", in->jobs[i].name,
		    &in->jobs[i], 0600, d);
	fprintf(fp, in->nprofiles ? "profiles:\n" : "profiles: {}\n");
	for (i = 0; rc == 0 && i < in->nprofiles; i++)
		rc = record_object(r, fp, "  ", in->profiles[i].name,
		    &in->profiles[i], 0644, d);
	if (rc == 0)
		public_part(fp, in, parsed);
	if ((ferror(fp) | fclose(fp)) && rc == 0)
		rc = diag_errno(d, ENOMEM, "manifest");
	if (rc < 0) {
		free(*buf);
		*buf = NULL;
	}
	return rc;
}

/* plans/X.mps copied beside the plan; a model already gone is noted. */
static int
copy_mps(struct record *r, const struct plan *p, const char *stem,
    struct diag *d)
{
	struct spool *sp = r->sp;
	char name[80], *buf;
	size_t len;
	int rc;

	int pfd;

	/*
	 * Only bf-solve's own model, plans/NAME, read without following a
	 * link: the copy is world-readable, and a link planted there would
	 * publish whatever it points to.  A plan made elsewhere names its
	 * model by a path of its own: not copied.
	 */
	if (strncmp(p->mps, "plans/", 6) != 0 || p->mps[6] == '\0' ||
	    strchr(p->mps + 6, '/') != NULL || p->mps[6] == '.')
		return 0;
	if ((pfd = spool_dirfd(sp, SPOOL_PLANS, d)) < 0)
		return -1;
	if (file_read_at(pfd, p->mps + 6, HISTORY_MAX_FILE, FILE_NOFOLLOW,
	    &buf, &len, d) < 0) {
		if (d->code != EX_NOINPUT || !gone(pfd, p->mps + 6))
			return diag_prefix(d, "%s: ", p->mps);
		diag_clear(d);
		return 0;
	}
	snprintf(name, sizeof name, "%s.mps", stem);
	rc = record_stage(r, sp->dirs[SPOOL_HISTORY], name, buf, len, d);
	free(buf);
	return rc;
}

/* One line of the index: when, which plan, the jobs it gives nodes. */
static int
index_line(FILE *fp, double enacted, const char *stem, const struct plan *p)
{
	size_t i;

	fprintf(fp, "%.6f %s", enacted, stem);
	for (i = 0; i < p->njobs; i++)
		if (p->jobs[i].nodes > 0)
			fprintf(fp, " %s=%ld", p->jobs[i].name, p->jobs[i].nodes);
	return fputc('\n', fp) == EOF ? -1 : 0;
}

static double enacted_at(int hfd, const struct history_plan *p);

/*
 * The index of every plan recorded so far, made from history/ itself: for
 * a spool whose history began before the index did, or lost its index.
 */
static int
index_build(struct spool *sp, int hfd, struct diag *d)
{
	char name[HISTORY_STEM_MAX + 8], label[HISTORY_STEM_MAX + 16], *buf;
	char *text = NULL;
	size_t size = 0, n, i, len;
	struct history_plan *plans;
	struct plan p;
	struct diag w;
	FILE *fp;
	int rc;

	if (history_plans(sp, &plans, &n, d) < 0)
		return -1;
	if ((fp = open_memstream(&text, &size)) == NULL) {
		free(plans);
		return diag_errno(d, ENOMEM, "history/%s", HISTORY_INDEX);
	}
	fputs(HISTORY_INDEX_HEADER, fp);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof name, "%s.yaml", plans[i].stem);
		snprintf(label, sizeof label, "history/%s", name);
		if (file_read_at(hfd, name, HISTORY_MAX_FILE, FILE_NOFOLLOW, &buf,
		    &len, &w) < 0)
			continue;	/* left out, as the full reading does */
		plan_init(&p);
		if (plan_parse(&p, label, buf, len, &w) == 0 &&
		    p.time == plans[i].time)
			index_line(fp, plans[i].enacted, plans[i].stem, &p);
		plan_free(&p);
		free(buf);
	}
	free(plans);
	if (ferror(fp) | fclose(fp)) {
		free(text);
		return diag_errno(d, ENOMEM, "history/%s", HISTORY_INDEX);
	}
	rc = put(sp, hfd, "history", HISTORY_INDEX, text, size, d);
	free(text);
	return rc;
}

/*
 * The plan's line, appended and synced before the plan copy marks it
 * enacted (bf-spool(5)): a crash in between leaves a line whose plan is
 * not in history/, which readers skip, and a retry a second line, the
 * same but for nothing, which readers skip too.  A line a crash or a
 * full disk cut short is ended first with a tab, which no line has, so
 * that readers leave it out.
 */
static int
index_append(struct spool *sp, const char *stem, const struct plan *p,
    struct diag *d)
{
	int hfd = sp->dirs[SPOOL_HISTORY], fd, rc = 0;
	struct history_plan hp;
	char *line = NULL, last;
	size_t size = 0;
	struct stat st;
	FILE *fp;

	fd = openat(hfd, HISTORY_INDEX, O_RDWR | O_APPEND | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		if (index_build(sp, hfd, d) < 0)
			return -1;
		fd = openat(hfd, HISTORY_INDEX, O_RDWR | O_APPEND |
		    O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0)
		return diag_errno(d, errno, "unable to open %s/history/%s",
		    sp->path, HISTORY_INDEX);
	/* The manifest's time, the first attempt's after a crash. */
	snprintf(hp.stem, sizeof hp.stem, "%.*s", HISTORY_STEM_MAX - 1, stem);
	hp.time = p->time;
	hp.enacted = enacted_at(hfd, &hp);
	if ((fp = open_memstream(&line, &size)) == NULL ||
	    (fstat(fd, &st) == 0 && st.st_size > 0 && pread(fd, &last, 1,
	    st.st_size - 1) == 1 && last != '\n' && fputs("\t\n", fp) == EOF) ||
	    index_line(fp, hp.enacted, stem, p) < 0 ||
	    (ferror(fp) | fclose(fp)))
		rc = diag_errno(d, ENOMEM, "history/%s", HISTORY_INDEX);
	else if (file_write_all(fd, line, size) < 0 || fsync(fd) < 0)
		rc = diag_errno(d, errno, "%s/history/%s", sp->path,
		    HISTORY_INDEX);
	free(line);
	close(fd);
	return rc;
}

int
history_enact(struct spool *sp, const struct inputs *in,
    const struct job_cache *parsed, const char *text, size_t len,
    const struct plan *p, struct diag *d)
{
	struct timespec now;

	if (clock_gettime(CLOCK_REALTIME, &now) < 0) {
		now.tv_sec = time(NULL);
		now.tv_nsec = 0;
	}
	return history_enact_at(sp, in, parsed, text, len, p, &now, d);
}

int
history_enact_at(struct spool *sp, const struct inputs *in,
    const struct job_cache *parsed, const char *text, size_t len,
    const struct plan *p, const struct timespec *when, struct diag *d)
{
	char stem[64], name[96], hex[HASH_TEXT_LEN], *man = NULL;
	struct record r = { sp, -1, { NULL, 0, 0, 0 }, "history" };
	size_t manlen = 0, objects, manifest_at;
	int hfd, rc = -1;

	if ((hfd = spool_dirfd(sp, SPOOL_HISTORY, d)) < 0 ||
	    (r.objfd = history_subdir(sp, "objects", d)) < 0)
		return -1;
	history_plan_stem(text, len, p->time, stem, sizeof stem);
	hash_format(hash_buf(text, len), hex);
	/*
	 * Every file written first and synced together; then the objects
	 * and the model, the manifest and the index line, each group's
	 * directory synced; the plan copy, the mark of enactment, last.
	 */
	if (manifest(&r, in, parsed, hex, when, &man, &manlen, d) < 0 ||
	    copy_mps(&r, p, stem, d) < 0)
		goto out;
	objects = r.g.n;
	/* A retry after a crash keeps the first manifest and its time. */
	snprintf(name, sizeof name, "%s.inputs.yaml", stem);
	manifest_at = r.g.n;
	if (record_stage(&r, hfd, name, man, manlen, d) < 0)
		goto out;
	snprintf(name, sizeof name, "%s.yaml", stem);
	if (record_stage(&r, hfd, name, text, len, d) < 0 ||
	    record_sync(&r, d) < 0)
		goto out;
	if (record_publish(&r, 0, objects, d) < 0)
		goto out;
	fault_point("history-after-objects");
	if (record_publish(&r, manifest_at, manifest_at + 1, d) < 0 ||
	    index_append(sp, stem, p, d) < 0 ||
	    record_sync_dirs(&r, 1, d) < 0)
		goto out;
	fault_point("history-after-index");
	if (record_publish(&r, manifest_at + 1, r.g.n, d) == 0 &&
	    record_sync_dirs(&r, 0, d) == 0)
		rc = 0;
out:
	free(man);
	record_free(&r);
	return rc;
}

/* A run's record under STEM, its job file stored first as an object. */
static int
run_text(struct spool *sp, const struct history_run *r, const char *stem,
    char **bufp, size_t *sizep, struct diag *d)
{
	char *buf = NULL, hex[HASH_TEXT_LEN];
	size_t size = 0;
	FILE *fp;

	*bufp = NULL;
	if (r->job_buf != NULL &&
	    history_store_object(sp, r->job_buf, r->job_len, hex, d) < 0)
		return -1;
	if ((fp = open_memstream(&buf, &size)) == NULL)
		return diag_errno(d, ENOMEM, "history");
	fprintf(fp, "name: %s\noutcome: %s\n", r->name, r->outcome);
	if (strcmp(r->outcome, "cancelled") == 0)
		fprintf(fp, "cancelled_by: %lld\n", r->cancelled_by);
	if (r->signal)
		fprintf(fp, "signal: %d\n", r->signal);
	else if (r->code >= 0)
		fprintf(fp, "exit: %d\n", r->code);
	if (r->started > 0)	/* none for a run never started */
		fprintf(fp, "started: %lld\n", r->started);
	fprintf(fp, "ended: %lld\nnodes: %ld\nhosts: ", r->ended, r->nodes);
	fmt_yaml_string(fp, r->hosts ? r->hosts : "");
	fputc('\n', fp);
	if (r->job_buf != NULL)
		fprintf(fp, "job: \"%s\"\n", hex);
	fprintf(fp, "run: \"history/runs/%s\"\n", stem);
	if (ferror(fp) | fclose(fp)) {
		free(buf);
		return diag_errno(d, ENOMEM, "history");
	}
	*bufp = buf;
	*sizep = size;
	return 0;
}

int
history_record_run(struct spool *sp, struct history_run *r, struct diag *d)
{
	return history_record_runs(sp, r, 1, d);
}

/*
 * The name r's record takes in history/runs/ (fd), into r->written, and
 * its text: r->stem when that is free, or is a run's (ID its pid: the
 * record of an attempt that crashed, kept as it is), or already holds
 * these very bytes (a retry after a crash), else TIME-NAME-ID with the
 * first ID above HISTORY_RUN_ID_SPARE whose record and directory are
 * both free.
 * 1 when the record is there already, 0 when it is to be written, -1.
 */
static int
run_name(struct spool *sp, int fd, struct history_run *r, char **bufp,
    size_t *sizep, struct diag *d)
{
	char name[HISTORY_RUN_STEM_MAX + 8], *old;
	size_t oldlen, cut = strlen(r->stem);
	long k;
	int same, norun;

	while (cut > 0 && r->stem[cut - 1] != '-')
		cut--;
	norun = strcmp(r->stem + cut, "0") == 0;
	for (k = 0; k < 1000; k++) {
		if (k == 0)
			snprintf(r->written, sizeof r->written, "%s", r->stem);
		else
			snprintf(r->written, sizeof r->written, "%.*s%lld",
			    (int)cut, r->stem, HISTORY_RUN_ID_SPARE + k);
		snprintf(name, sizeof name, "%s.yaml", r->written);
		if (run_text(sp, r, r->written, bufp, sizep, d) < 0)
			return -1;
		if (gone(fd, name) && (k == 0 || gone(fd, r->written)))
			return 0;
		if (!norun)	/* a run's own name: its record, retried */
			return 1;
		if (file_read_at(fd, name, HISTORY_MAX_FILE, 0, &old, &oldlen,
		    d) < 0)
			return diag_prefix(d, "%s/history/runs/%s: ", sp->path,
			    name);
		same = oldlen == *sizep && memcmp(old, *bufp, oldlen) == 0;
		free(old);
		if (same && !r->fresh)
			return 1;
		free(*bufp);
		*bufp = NULL;
	}
	return diag_errno(d, EEXIST, "%s/history/runs/%s: 1000 records of "
	    "the name in one second", sp->path, r->stem);
}

/*
 * The records of several runs (the jobs one plan stopped), written and
 * synced as a group, then put in place with one fsync of history/runs/:
 * on return every one is on the disk, or none was put in place.  None
 * replaces another record (run_name()).
 */
int
history_record_runs(struct spool *sp, struct history_run *r, size_t n,
    struct diag *d)
{
	struct record rec = { sp, -1, { NULL, 0, 0, 0 }, "history/runs" };
	char name[HISTORY_RUN_STEM_MAX + 8], label[PATH_MAX + 32], *buf;
	size_t size = 0, i;
	int fd, rc = -1, there;

	if ((fd = history_subdir(sp, "runs", d)) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if ((there = run_name(sp, fd, &r[i], &buf, &size, d)) < 0)
			goto out;
		snprintf(name, sizeof name, "%s.yaml", r[i].written);
		rc = there ? 0 : record_stage(&rec, fd, name, buf, size, d);
		free(buf);
		if (rc < 0)
			goto out;
		rc = -1;
	}
	snprintf(label, sizeof label, "%s/history/runs", sp->path);
	if (record_sync(&rec, d) == 0 && record_publish(&rec, 0, rec.g.n,
	    d) == 0 && file_sync_dir(fd, label, d) == 0)
		rc = 0;
out:
	record_free(&rec);
	close(fd);
	return rc;
}

int
history_is_plan_name(const char *name)
{
	size_t digits = strspn(name, "0123456789"), hex;

	if (digits == 0 || digits > 18 || name[digits] != '-')
		return 0;
	hex = strspn(name + digits + 1, "0123456789abcdef");
	return hex == 16 && strcmp(name + digits + 1 + hex, ".yaml") == 0;
}

/* The manifest's enacted time; the plan's own time when it has none. */
static double
enacted_at(int hfd, const struct history_plan *p)
{
	char name[HISTORY_STEM_MAX + 16], label[HISTORY_STEM_MAX + 32], *buf;
	const struct ydoc_node *v;
	struct ydoc doc;
	struct diag d;
	double t = (double)p->time;
	size_t len;

	snprintf(name, sizeof name, "%s.inputs.yaml", p->stem);
	snprintf(label, sizeof label, "history/%s", name);
	if (file_read_named(hfd, name, label, HISTORY_MAX_FILE, FILE_NOFOLLOW,
	    &buf, &len, &d) < 0) {
		if (!gone(hfd, name)) {	/* older versions wrote none */
			log_warn("%s (the plan's own time used)", d.text);
		}
		return t;
	}
	if (ydoc_load(&doc, label, buf, len, &d) < 0) {
		log_warn("%s (the plan's own time used)", d.text);
		free(buf);
		return t;
	}
	if (doc.root == NULL || doc.root->kind != YDOC_MAPPING)
		log_warn("%s:1: not a manifest (the plan's own time used)",
		    label);
	else if ((v = ydoc_get(doc.root, "enacted")) != NULL &&
	    ydoc_double(&doc, v, "enacted", 0, 1e12, &t, &d) < 0) {
		log_warn("%s (the plan's own time used)", d.text);
		t = (double)p->time;
	}
	ydoc_free(&doc);
	free(buf);
	return t;
}

static int
by_enactment(const void *a, const void *b)
{
	const struct history_plan *x = a, *y = b;

	if (x->enacted != y->enacted)
		return x->enacted < y->enacted ? -1 : 1;
	return strcmp(x->stem, y->stem);
}

int
history_plans(const struct spool *sp, struct history_plan **out, size_t *n,
    struct diag *d)
{
	char **names;
	size_t count, i;
	int hfd;

	*out = NULL;
	*n = 0;
	if (sp->dirs[SPOOL_HISTORY] < 0)
		return 0;
	if ((hfd = spool_dirfd(sp, SPOOL_HISTORY, d)) < 0 ||
	    spool_list(sp, SPOOL_HISTORY, &names, &count, d) < 0)
		return -1;
	if ((*out = calloc(count + 1, sizeof **out)) == NULL) {
		spool_list_free(names, count);
		return diag_errno(d, ENOMEM, "unable to read %s/history",
		    sp->path);
	}
	for (i = 0; i < count; i++) {
		struct history_plan *p = &(*out)[*n];
		if (!history_is_plan_name(names[i]))
			continue;
		/* At most 18 digits, "-", 16 hex: the stem fits. */
		snprintf(p->stem, sizeof p->stem, "%.*s",
		    (int)(strlen(names[i]) - 5), names[i]);
		p->time = strtoll(names[i], NULL, 10);
		p->enacted = enacted_at(hfd, p);
		(*n)++;
	}
	spool_list_free(names, count);
	if (*n > 1)
		qsort(*out, *n, sizeof **out, by_enactment);
	return 0;
}
