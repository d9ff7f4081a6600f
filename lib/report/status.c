/*
 * NAME
 *	status - what runs where now, and when each job may finish
 * DESCRIPTION
 *	See status.h and bf-report(1), --now.  A user who is not the
 *	spool's owner may read the state, holes and host lists but not the
 *	job files or progress logs (bf-spool(5), SECURITY): what cannot be
 *	read is shown as "-", never an error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/array.h"
#include "util/file.h"
#include "util/ydoc.h"

#include "profile/profile.h"
#include "report/report.h"
#include "report/status.h"
#include "spool/holes.h"
#include "spool/history.h"
#include "spool/job.h"
#include "spool/plan.h"
#include "spool/progress.h"
#include "spool/state.h"

struct line {
	char name[JOB_NAME_MAX + 1];
	char user[32], nodes[16], hosts[256], rate[32], from[16];
	char done[32], work[32], left[32], finish[32];
};

/* A user as people know them: the name of the uid, else the number. */
static void
user_text(long long uid, char out[32])
{
	struct passwd *pw;

	if (uid < 0)
		snprintf(out, 32, "-");
	else if (uid <= (long long)(uid_t)-1 && (pw = getpwuid((uid_t)uid)) !=
	    NULL && pw->pw_name[0] != '\0' && strlen(pw->pw_name) < 32)
		snprintf(out, 32, "%s", pw->pw_name);
	else
		snprintf(out, 32, "%lld", uid);
}

/* The owner of dirfd/name, a file its job owns; -1 none. */
static long long
owner_of(int dirfd, const char *name)
{
	struct stat st;

	return dirfd >= 0 && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) ==
	    0 && S_ISREG(st.st_mode) ? (long long)st.st_uid : -1;
}

/*
 * The rate of the job's last stretch in its own log (the reports since
 * its node count last changed or it last restarted): what a user who may
 * read her log but not her job file can be shown.  NAN when unknown.
 */
static double
log_rate(const struct spool *sp, const char *name, long nodes)
{
	char file[JOB_NAME_MAX + 8], label[JOB_NAME_MAX + 32], *buf;
	struct progress pr;
	struct diag d;
	double rate = NAN;
	size_t len, k;

	snprintf(file, sizeof file, "%s.log", name);
	snprintf(label, sizeof label, "progress/%s", file);
	if (sp->dirs[SPOOL_PROGRESS] < 0 || file_read_named(
	    sp->dirs[SPOOL_PROGRESS], file, label, PROGRESS_MAX_FILE,
	    FILE_NOFOLLOW, &buf, &len, &d) < 0)
		return NAN;
	if (progress_parse(&pr, label, buf, len, &d) < 0) {
		free(buf);
		return NAN;
	}
	free(buf);
	k = pr.n;
	while (k > 1 && pr.r[k - 2].nodes == nodes && pr.r[k - 1].time -
	    pr.r[k - 2].time <= PROFILE_RESTART_GAP)
		k--;
	if (pr.n >= 2 && k < pr.n - 1 && pr.r[pr.n - 1].nodes == nodes &&
	    pr.r[pr.n - 1].time > pr.r[k - 1].time)
		rate = (double)(pr.r[pr.n - 1].samples - pr.r[k - 1].samples) /
		    (pr.r[pr.n - 1].time - pr.r[k - 1].time);
	progress_free(&pr);
	return rate;
}

/* Unreadable for lack of permission: shown as unknown, not an error. */
static int
denied(const struct diag *d)
{
	return d->code == EX_NOINPUT && strstr(d->text, "Permission denied");
}

/* jobs/NAME.yaml: 1 read, 0 absent or not ours to read, -1 bad. */
static int
job_of(const struct spool *sp, const char *name, struct job *j,
    struct diag *d)
{
	char file[JOB_NAME_MAX + 8], label[JOB_NAME_MAX + 32];

	snprintf(file, sizeof file, "%s.yaml", name);
	snprintf(label, sizeof label, "jobs/%s", file);
	if (sp->dirs[SPOOL_JOBS] < 0)
		return 0;
	if (job_load_at(j, sp->dirs[SPOOL_JOBS], file, label, JOB_TRUSTED |
	    JOB_QUIET, d) == 0)
		return 1;
	if (d->code == EX_NOINPUT && (denied(d) || strstr(d->text,
	    "No such file") != NULL)) {
		diag_clear(d);
		return 0;
	}
	return -1;
}

/* profiles/NAME.yaml: 1 read, 0 none, -1 bad. */
static int
profile_of(const struct spool *sp, const char *name, struct profile *p,
    struct diag *d)
{
	char file[JOB_NAME_MAX + 8], label[JOB_NAME_MAX + 32];

	snprintf(file, sizeof file, "%s.yaml", name);
	snprintf(label, sizeof label, "profiles/%s", file);
	if (sp->dirs[SPOOL_PROFILES] < 0)
		return 0;
	if (profile_load(p, sp->dirs[SPOOL_PROFILES], file, label, d) == 0)
		return 1;
	if (d->code == EX_NOINPUT) {
		diag_clear(d);
		return 0;
	}
	return -1;
}

static void
duration(double s, char out[32])
{
	long long t = (long long)ceil(s);

	if (t >= 100LL * 86400)
		snprintf(out, 32, "%lldd", t / 86400);
	else if (t >= 86400)
		snprintf(out, 32, "%lldd%02lld:%02lld:%02lld", t / 86400,
		    t / 3600 % 24, t / 60 % 60, t % 60);
	else
		snprintf(out, 32, "%lld:%02lld:%02lld", t / 3600, t / 60 % 60,
		    t % 60);
}

/*
 * The public part of the jobs (history.c, the manifest's public:) of the
 * plan in plans/current.yaml: owners and targets, for a user who may not
 * read the job files.  Absent (have 0) when the plan or its manifest
 * cannot be read: the status goes on without.
 */
struct pub {
	int have;
	char *buf;
	struct ydoc doc;
	const struct ydoc_node *map;
};

static void
pub_load(const struct spool *sp, const char *plan, size_t planlen,
    long long ptime, struct pub *pb)
{
	char stem[HISTORY_STEM_MAX], name[HISTORY_STEM_MAX + 16];
	struct diag d;
	size_t len;

	memset(pb, 0, sizeof *pb);
	if (plan == NULL || sp->dirs[SPOOL_HISTORY] < 0)
		return;
	history_plan_stem(plan, planlen, ptime, stem, sizeof stem);
	snprintf(name, sizeof name, "%s.inputs.yaml", stem);
	if (file_read_named(sp->dirs[SPOOL_HISTORY], name, name,
	    HISTORY_MAX_FILE, FILE_NOFOLLOW, &pb->buf, &len, &d) < 0)
		return;
	if (ydoc_load(&pb->doc, name, pb->buf, len, &d) < 0) {
		free(pb->buf);
		pb->buf = NULL;
		return;
	}
	pb->have = 1;
	if (pb->doc.root != NULL && pb->doc.root->kind == YDOC_MAPPING)
		pb->map = ydoc_get(pb->doc.root, "public");
}

static void
pub_free(struct pub *pb)
{
	if (pb->have)
		ydoc_free(&pb->doc);
	free(pb->buf);
}

/* A job's owner and samples to train from the public part; 0 found. */
static int
pub_of(const struct pub *pb, const char *name, long long *uid,
    long long *samples)
{
	const struct ydoc_node *v, *x;
	struct diag d;

	if (pb->map == NULL || pb->map->kind != YDOC_MAPPING ||
	    (v = ydoc_get(pb->map, name)) == NULL || v->kind != YDOC_MAPPING)
		return -1;
	if ((x = ydoc_get(v, "uid")) == NULL || ydoc_long(&pb->doc, x, "uid",
	    -1, 1LL << 32, uid, &d) < 0)
		*uid = -1;
	if ((x = ydoc_get(v, "samples")) == NULL || ydoc_long(&pb->doc, x,
	    "samples", 0, 1LL << 62, samples, &d) < 0)
		*samples = 0;
	return 0;
}

/* One running job's line. */
static int
running(const struct spool *sp, const struct state_job *sj,
    const struct pub *pb, struct line *ln, struct diag *d)
{
	char *hosts, file[JOB_NAME_MAX + 8];
	struct progress_report last;
	struct profile p;
	struct job j;
	double rate = NAN;
	int have_job, have_prof = 0;
	long long puid = -1, target = 0;

	memset(ln, 0, sizeof *ln);
	snprintf(ln->name, sizeof ln->name, "%s", sj->name);
	snprintf(ln->nodes, sizeof ln->nodes, "%zu", sj->hosts.n);
	if ((hosts = hostlist_compress(&sj->hosts)) == NULL)
		return diag_errno(d, ENOMEM, "state");
	snprintf(ln->hosts, sizeof ln->hosts, "%s", hosts);
	free(hosts);
	if ((have_job = job_of(sp, sj->name, &j, d)) < 0)
		return -1;
	if ((have_prof = profile_of(sp, sj->name, &p, d)) < 0) {
		if (have_job)
			job_free(&j);
		return -1;
	}
	snprintf(ln->rate, sizeof ln->rate, "-");
	snprintf(ln->from, sizeof ln->from, "-");
	snprintf(ln->done, sizeof ln->done, "-");
	snprintf(ln->work, sizeof ln->work, "-");
	snprintf(ln->left, sizeof ln->left, "-");
	snprintf(ln->finish, sizeof ln->finish, "-");
	snprintf(file, sizeof file, "%s.log", sj->name);
	if (!have_job && pub_of(pb, sj->name, &puid, &target) == 0 &&
	    target > 0)
		snprintf(ln->work, sizeof ln->work, "%lld", target);
	if (have_job)
		target = j.samples;
	user_text(have_job ? j.owner_uid : puid >= 0 ? puid :
	    owner_of(sp->dirs[SPOOL_PROGRESS], file), ln->user);
	if (!have_job && have_prof &&
	    !isnan(rate = profile_rate(&p, (long)sj->hosts.n))) {
		/* profiles/ is public: the measured rate, without the job file */
		snprintf(ln->rate, sizeof ln->rate, "%.1f", rate);
		snprintf(ln->from, sizeof ln->from, "profile");
	} else if (!have_job && !isnan(rate = log_rate(sp, sj->name,
	    (long)sj->hosts.n))) {
		snprintf(ln->rate, sizeof ln->rate, "%.1f", rate);
		snprintf(ln->from, sizeof ln->from, "log");
	}
	if (have_job) {
		if (j.samples > 0)
			snprintf(ln->work, sizeof ln->work, "%lld", j.samples);
		rate = report_rate(j.points, j.npoints, j.min_nodes,
		    j.max_nodes, have_prof ? &p : NULL, PROFILE_CURVE_SCALED,
		    (long)sj->hosts.n);
		if (!isnan(rate)) {
			snprintf(ln->rate, sizeof ln->rate, "%.1f", rate);
			snprintf(ln->from, sizeof ln->from, "%s", have_prof ?
			    "profile" : "scaling");
		}
	}
	if (progress_last_at(sp->dirs[SPOOL_PROGRESS], sj->name, &last) == 0) {
		snprintf(ln->done, sizeof ln->done, "%lld", last.samples);
		if (target > 0 && last.samples >= target) {
			snprintf(ln->left, sizeof ln->left, "0:00:00");
			snprintf(ln->finish, sizeof ln->finish, "done");
		} else if (target > 0 && rate > 0) {
			double s = (double)(target - last.samples) / rate;
			duration(s, ln->left);
			report_time(ceil(last.time + s), ln->finish);
		}
	}
	if (have_prof)
		profile_free(&p);
	if (have_job)
		job_free(&j);
	return 0;
}

static int
read_state(const struct spool *sp, struct state *st, int *have,
    struct diag *d)
{
	char *buf;
	size_t len;
	int rc;

	state_init(st);
	*have = 0;
	if (file_read_at(sp->fd, "state.yaml", STATE_MAX_FILE, FILE_NOFOLLOW,
	    &buf, &len, d) < 0) {
		if (d->code == EX_NOINPUT && strstr(d->text, "No such file")) {
			diag_clear(d);
			return 0;
		}
		return -1;
	}
	rc = state_parse(st, "state.yaml", buf, len, d);
	free(buf);
	*have = rc == 0;
	return rc;
}

/* The head: when the state and holes were written, the nodes. */
static int
head(const struct spool *sp, const struct state *st, int have_state,
    FILE *fp, struct diag *d)
{
	char t[32];
	struct holes h;
	size_t held = 0, i;
	int have_holes = 0;

	for (i = 0; i < st->n; i++)
		held += st->jobs[i].hosts.n;
	if (sp->dirs[SPOOL_HOLES] >= 0) {
		if (holes_load(&h, sp->dirs[SPOOL_HOLES], "current.yaml",
		    "holes/current.yaml", d) == 0)
			have_holes = 1;
		else if (d->code == EX_NOINPUT)
			diag_clear(d);
		else
			return -1;
	}
	fprintf(fp, "%s: ", sp->path);
	if (have_state) {
		report_time((double)st->time, t);
		fprintf(fp, "state of %s", t);
	} else
		fprintf(fp, "no state.yaml (nothing enacted yet)");
	if (have_holes) {
		report_time((double)h.time, t);
		fprintf(fp, ", holes of %s: %zu idle nodes, %zu held by %zu "
		    "jobs, %zu free\n", t, h.n, held, st->n, held < h.n ?
		    h.n - held : 0);
		holes_free(&h);
	} else
		fprintf(fp, ", no holes file: %zu nodes held by %zu jobs\n",
		    held, st->n);
	return 0;
}

static int
width(const struct line *v, size_t n, size_t off, int min)
{
	size_t i, l;
	int w = min;

	for (i = 0; i < n; i++)
		if ((l = strlen((const char *)&v[i] + off)) > (size_t)w)
			w = (int)l;
	return w;
}

static void
table(const struct line *v, size_t n, FILE *fp)
{
	int wn = width(v, n, offsetof(struct line, name), 3);
	int wh = width(v, n, offsetof(struct line, hosts), 5);
	size_t i;

	fprintf(fp, "\n%-*s %-10s %5s %-*s %10s %-7s %14s %14s %10s %s\n", wn,
	    "job", "user", "nodes", wh, "hosts", "rate/s", "from", "samples",
	    "of", "left", "finish (estimate)");
	for (i = 0; i < n; i++)
		fprintf(fp, "%-*s %-10s %5s %-*s %10s %-7s %14s %14s %10s %s\n",
		    wn, v[i].name, v[i].user, v[i].nodes, wh, v[i].hosts,
		    v[i].rate, v[i].from, v[i].done, v[i].work, v[i].left,
		    v[i].finish);
}

/*
 * plans/current.yaml, public: why each job got what it got.  A plan that
 * cannot be read or parsed says nothing (have 0): the status goes on.
 */
static void
read_plan(const struct spool *sp, struct plan *p, struct pub *pb)
{
	struct diag d;
	char *buf;
	size_t len;

	plan_init(p);
	memset(pb, 0, sizeof *pb);
	if (sp->dirs[SPOOL_PLANS] < 0 || file_read_named(sp->dirs[SPOOL_PLANS],
	    "current.yaml", "plans/current.yaml", HISTORY_MAX_FILE,
	    FILE_NOFOLLOW, &buf, &len, &d) < 0)
		return;
	if (plan_parse(p, "plans/current.yaml", buf, len, &d) < 0)
		plan_init(p);	/* what a failed parse left is freed */
	else
		pub_load(sp, buf, len, p->time, pb);
	free(buf);
}

static const struct plan_job *
plan_find(const struct plan *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->njobs; i++)
		if (strcmp(p->jobs[i].name, name) == 0)
			return &p->jobs[i];
	return NULL;
}

/* The jobs in jobs/ that hold no node, each with why, from the plan. */
static int
waiting(const struct spool *sp, const struct state *st, const struct plan *p,
    const struct pub *pb, FILE *fp, struct diag *d)
{
	long long puid, ptarget;
	char **names, name[JOB_NAME_MAX + 1], log[JOB_NAME_MAX + 8], user[32];
	const struct plan_job *pj;
	struct progress_report last;
	size_t n, i, l, shown = 0;
	struct job j;
	int have;

	if (sp->dirs[SPOOL_JOBS] < 0)
		return 0;
	if (spool_list(sp, SPOOL_JOBS, &names, &n, d) < 0) {
		if (strstr(d->text, "Permission denied") == NULL)
			return -1;
		diag_clear(d);
		fprintf(fp, "waiting: jobs/ is not readable\n");
		return 0;
	}
	for (i = 0; i < n; i++) {
		l = strlen(names[i]);
		if (l < 6 || l - 5 > JOB_NAME_MAX ||
		    strcmp(names[i] + l - 5, ".yaml") != 0)
			continue;
		snprintf(name, sizeof name, "%.*s", (int)(l - 5), names[i]);
		if (!job_name_valid(name) || state_find(st, name) != NULL)
			continue;
		if ((have = job_of(sp, name, &j, d)) < 0) {
			spool_list_free(names, n);
			return -1;
		}
		if (!shown++)
			fprintf(fp, "\nwaiting:\n");
		snprintf(log, sizeof log, "%s.log", name);
		if (have || pub_of(pb, name, &puid, &ptarget) < 0 || puid < 0)
			puid = owner_of(sp->dirs[SPOOL_PROGRESS], log);
		user_text(have ? j.owner_uid : puid, user);
		fprintf(fp, "  %s (user %s", name, user);
		if (progress_last_at(sp->dirs[SPOOL_PROGRESS], name, &last) == 0)
			fprintf(fp, ", %lld samples done", last.samples);
		pj = plan_find(p, name);
		fprintf(fp, "): %s\n", pj == NULL ? "not in the last plan yet "
		    "(it came after)" : pj->note != NULL ? pj->note :
		    "the last plan gave it no node");
		if (have)
			job_free(&j);
	}
	spool_list_free(names, n);
	return 0;
}

#define STATUS_ENDED_MAX	20		/* runs shown, the latest */
#define STATUS_ENDED_SPAN	86400.0		/* before the latest moment */

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One run record of history/runs/: its job, outcome and where its output is. */
static int
ended_one(int runsfd, const char *file, FILE *fp, struct diag *d)
{
	const struct ydoc_node *vn, *vo;
	char label[PATH_MAX], stem[NAME_MAX + 1], when[32], user[32], *buf;
	const char *name = NULL, *out = NULL;
	struct ydoc doc;
	long long uid = -1;
	size_t len;
	int dfd;

	snprintf(label, sizeof label, "history/runs/%s", file);
	/* A record that cannot be read is the report's to name, not ours. */
	if (file_read_named(runsfd, file, label, HISTORY_MAX_FILE,
	    FILE_NOFOLLOW, &buf, &len, d) < 0) {
		diag_clear(d);
		return 0;
	}
	if (ydoc_load(&doc, label, buf, len, d) < 0) {
		diag_clear(d);
		free(buf);
		return 0;
	}
	if (doc.root != NULL && doc.root->kind == YDOC_MAPPING &&
	    (vn = ydoc_get(doc.root, "name")) != NULL &&
	    (vo = ydoc_get(doc.root, "outcome")) != NULL &&
	    (ydoc_string(&doc, vn, "name", &name, d) < 0 ||
	    ydoc_string(&doc, vo, "outcome", &out, d) < 0 ||
	    !job_name_valid(name)))
		name = NULL;
	diag_clear(d);
	snprintf(stem, sizeof stem, "%.*s", (int)(strlen(file) - 5), file);
	if (name != NULL) {
		if ((dfd = openat(runsfd, stem, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC)) >= 0) {
			if ((uid = owner_of(dfd, "output")) < 0)
				uid = owner_of(dfd, "progress.log");
			close(dfd);
		}
		user_text(uid, user);
		report_time((double)strtoll(file, NULL, 10), when);
		fprintf(fp, "  %s (user %s): %s at %s", name, user, out, when);
		if (uid >= 0)
			fprintf(fp, "; output in history/runs/%s/output", stem);
		fputc('\n', fp);
	}
	ydoc_free(&doc);
	free(buf);
	return 0;
}

/*
 * The runs that ended in the day before the latest moment the spool
 * records (the state's time, the newest record's end), the latest
 * STATUS_ENDED_MAX of them, oldest first: run records are public, their
 * names begin with the time they ended.
 */
static int
ended(const struct spool *sp, const struct state *st, FILE *fp,
    struct diag *d)
{
	struct dirent *e;
	char **v = NULL, **grown, when[32];
	size_t n = 0, cap = 0, i, first;
	double last = (double)st->time;
	int fd, rc = 0;
	DIR *dp;

	if (sp->dirs[SPOOL_HISTORY] < 0 || (fd = openat(sp->dirs[SPOOL_HISTORY],
	    "runs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return 0;
	if ((dp = fdopendir(dup(fd))) == NULL) {
		close(fd);
		return 0;
	}
	while (rc == 0 && (e = readdir(dp)) != NULL) {
		size_t l = strlen(e->d_name);
		if (l < 6 || strcmp(e->d_name + l - 5, ".yaml") != 0 ||
		    e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		if ((grown = array_grow(v, &cap, n + 1, sizeof *v, 16)) == NULL ||
		    (grown[n] = strdup(e->d_name)) == NULL) {
			if (grown != NULL)
				v = grown;
			rc = diag_errno(d, ENOMEM, "history/runs");
			break;
		}
		v = grown;
		n++;
	}
	closedir(dp);
	if (n > 1)
		qsort(v, n, sizeof *v, by_name);
	for (i = 0; i < n; i++)
		last = fmax(last, (double)strtoll(v[i], NULL, 10));
	for (first = n; first > 0 && n - first < STATUS_ENDED_MAX &&
	    (double)strtoll(v[first - 1], NULL, 10) >= last - STATUS_ENDED_SPAN;
	    first--)
		;
	report_time(last, when);
	if (rc == 0 && first < n)
		fprintf(fp, "\nended in the day before %s:\n", when);
	for (i = first; rc == 0 && i < n; i++)
		rc = ended_one(fd, v[i], fp, d);
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	close(fd);
	return rc;
}

int
status_print(const struct spool *sp, FILE *fp, struct diag *d)
{
	struct line *v;
	struct state st;
	struct plan p;
	struct pub pb;
	size_t i;
	int have, rc = 0;

	if (read_state(sp, &st, &have, d) < 0)
		return -1;
	if (head(sp, &st, have, fp, d) < 0 ||
	    (v = calloc(st.n + 1, sizeof *v)) == NULL) {
		if (d->code == 0)
			diag_errno(d, ENOMEM, "status");
		state_free(&st);
		return -1;
	}
	read_plan(sp, &p, &pb);
	for (i = 0; i < st.n && rc == 0; i++)
		rc = running(sp, &st.jobs[i], &pb, &v[i], d);
	if (rc == 0) {
		table(v, st.n, fp);
		rc = waiting(sp, &st, &p, &pb, fp, d);
	}
	plan_free(&p);
	pub_free(&pb);
	if (rc == 0)
		rc = ended(sp, &st, fp, d);
	if (rc == 0)
		fprintf(fp, "\nfinish (estimate): the last report's time plus "
		    "the samples left at the rate of the job's\nnode count "
		    "now; a rescale, a preemption or a wrong rate changes it\n");
	free(v);
	state_free(&st);
	return rc < 0 || ferror(fp) ? -1 : 0;
}
