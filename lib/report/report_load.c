/*
 * NAME
 *	report_load - a history read for the report
 * DESCRIPTION
 *	See report.h.  Loading turns each plan into what the accounting
 *	needs (its enacted time, the number of idle nodes, each job's nodes
 *	and rate, the rescales and preemptions it made) and forgets the
 *	rest, so memory follows the number of plans and jobs, not the size
 *	of the holes files.  Job and profile objects are read once each,
 *	however many plans name them.
 */
#define _DEFAULT_SOURCE		/* tsearch(3) and its kin are XSI: glibc wants this */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <search.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/array.h"
#include "util/file.h"
#include "util/hash.h"
#include "util/ydoc.h"

#include "profile/curve.h"
#include "profile/profile.h"
#include "report/report.h"
#include "report/report_int.h"
#include "spool/history.h"
#include "spool/holes.h"
#include "spool/job.h"
#include "spool/plan.h"
#include "spool/progress.h"
#include "spool/state.h"

/* A job object, read once however many plans name it. */
struct jinfo {
	uint64_t hash;
	int hidden;		/* not ours to read: owner and curve unknown */
	long long uid;
	long min, max;
	size_t npoints;
	struct job_point *points;
};

struct pinfo {
	uint64_t hash;
	struct profile p;
};

/* A job's latest profile in the plans, for its plans made before it. */
struct latest {
	const char *name;	/* interned: compared as a pointer */
	double enacted;
	struct jinfo *ji;
	struct pinfo *pi;
	int said;		/* its note made */
};

/* What loading needs besides the report. */
struct lctx {
	struct report *r;
	int hfd, objfd, runsfd;
	void *jobs, *profiles;	/* tsearch(3) roots: jinfo, pinfo */
	void *latest;		/* tsearch(3) root: struct latest by name */
	struct jinfo **jv;
	struct pinfo **pv;
	size_t njv, npv;
	double state_time;	/* state.yaml's, with a spool; 0 none */
	double now;		/* the time of reading, with a spool */
};

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

static int
cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
cmp_name_ptr(const void *a, const void *b)
{
	const char *x = ((const struct latest *)a)->name;
	const char *y = ((const struct latest *)b)->name;

	return (x > y) - (x < y);
}

/* Remember the job's profile of this plan if it is its latest so far. */
static int
note_latest(struct lctx *c, const char *name, double enacted,
    struct jinfo *ji, struct pinfo *pi)
{
	struct latest key, *l, **found;

	key.name = name;
	if ((found = tfind(&key, &c->latest, cmp_name_ptr)) != NULL) {
		l = *found;
		if (enacted >= l->enacted) {
			l->enacted = enacted;
			l->ji = ji;
			l->pi = pi;
		}
		return 0;
	}
	if ((l = malloc(sizeof *l)) == NULL)
		return -1;
	l->name = name;
	l->enacted = enacted;
	l->ji = ji;
	l->pi = pi;
	l->said = 0;
	if (tsearch(l, &c->latest, cmp_name_ptr) == NULL) {
		free(l);
		return -1;
	}
	return 0;
}

static int
cmp_hash(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* One copy of each name, however many plans and logs name it. */
static const char *
intern(struct report *r, const char *name)
{
	void **found = tfind(name, &r->names, cmp_str);
	char *s, **strs;

	if (found != NULL)
		return *found;
	if ((s = strdup(name)) == NULL ||
	    (strs = realloc(r->strs, (r->nstrs + 1) * sizeof *strs)) == NULL) {
		free(s);
		return NULL;
	}
	r->strs = strs;
	if (tsearch(s, &r->names, cmp_str) == NULL) {
		free(s);
		return NULL;
	}
	r->strs[r->nstrs++] = s;
	return s;
}

void
report_init(struct report *r)
{
	memset(r, 0, sizeof *r);
	r->empty = 1;
}

void
report_free(struct report *r)
{
	size_t i;

	for (i = 0; i < r->nplans; i++) {
		free(r->plans[i].seg);
		free(r->plans[i].chg);
	}
	for (i = 0; i < r->nlogs; i++) {
		free(r->logs[i].t);
		free(r->logs[i].s);
	}
	for (i = 0; i < r->nstrs; i++) {
		tdelete(r->strs[i], &r->names, cmp_str);
		free(r->strs[i]);
	}
	free(r->strs);
	for (i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->notes);
	free(r->plans);
	free(r->runs);
	free(r->logs);
	free(r->cells);
	memset(r, 0, sizeof *r);
}

int
report_note(struct report *r, const char *fmt, ...)
{
	char buf[DIAG_MAX + 256], **grown;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if ((grown = realloc(r->notes, (r->nnotes + 1) * sizeof *grown)) ==
	    NULL)
		return -1;
	r->notes = grown;
	if ((r->notes[r->nnotes] = strdup(buf)) == NULL)
		return -1;
	r->nnotes++;
	return 0;
}

/* A reader's failure for lack of permission (a file private to another). */
static int
denied(const struct diag *d)
{
	return strstr(d->text, "Permission denied") != NULL;
}

/*
 * A progress log the report will not count: one it may not read (another
 * user's), counted; one too large, of too many lines or not a regular
 * file, said in a note.  Anything else (memory, I/O) ends the report.
 */
static int
log_untrusted(struct report *r, struct diag *d)
{
	if (denied(d))
		r->unreadable++;
	else if (d->code == EX_DATAERR) {
		if (report_note(r, "%s: not read, its samples are not counted",
		    d->text) < 0)
			return diag_errno(d, ENOMEM, "report");
	} else
		return -1;
	diag_clear(d);
	return 0;
}

/* Every name in a directory not starting with '.', sorted. */
static int
list_dir(int fd, const char *label, char ***names, size_t *n,
    struct diag *d)
{
	struct dirent *e;
	size_t cap = 0;
	char **grown;
	DIR *dp;
	int dfd = dup(fd);

	*names = NULL;
	*n = 0;
	if (dfd < 0 || (dp = fdopendir(dfd)) == NULL) {
		if (dfd >= 0)
			close(dfd);
		return diag_errno(d, errno, "unable to list %s", label);
	}
	rewinddir(dp);
	while ((errno = 0, e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if ((grown = array_grow(*names, &cap, *n + 1,
		    sizeof *grown, 16)) != NULL)
			*names = grown;
		if (grown == NULL ||
		    ((*names)[*n] = strdup(e->d_name)) == NULL) {
			closedir(dp);
			return diag_errno(d, ENOMEM, "%s", label);
		}
		(*n)++;
	}
	if (errno != 0) {
		int err = errno;
		closedir(dp);
		return diag_errno(d, err, "unable to list %s", label);
	}
	closedir(dp);
	if (*n > 1)
		qsort(*names, *n, sizeof **names, cmp_strp);
	return 0;
}

static void
free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* "xxh3:HEX" of a manifest value. */
static int
digest(const struct ydoc *doc, const struct ydoc_node *v, const char *what,
    const char **hex, uint64_t *h, struct diag *d)
{
	char shown[64];

	if (ydoc_string(doc, v, what, hex, d) < 0)
		return -1;
	if (hash_parse(*hex, h) < 0) {
		ydoc_excerpt(*hex, shown, sizeof shown);
		return diag_set(d, EX_DATAERR, "%s:%zu: %s: bad digest '%s'",
		    doc->file, v->line, what, shown);
	}
	return 0;
}

/*
 * The object a manifest names, checked against its name.  A message
 * names the manifest's line, then the object: "history/X.inputs.yaml:4:
 * holes: unable to open history/objects/HEX: No such file or directory".
 */
static int
object(struct lctx *c, const struct ydoc *doc, const struct ydoc_node *v,
    const char *what, const char *hex, uint64_t h, char **buf, size_t *len,
    char label[PATH_MAX], struct diag *d)
{
	snprintf(label, PATH_MAX, "%s/objects/%s", c->r->label, hex + 5);
	if (c->objfd < 0)
		return diag_set(d, EX_NOINPUT, "%s:%zu: %s: unable to open %s: "
		    "No such file or directory", doc->file, v->line, what,
		    label);
	if (file_read_named(c->objfd, hex + 5, label, HISTORY_MAX_FILE,
	    FILE_NOFOLLOW, buf, len, d) < 0)
		return diag_prefix(d, "%s:%zu: %s: ", doc->file, v->line, what);
	if (hash_buf(*buf, *len) != h) {
		free(*buf);
		return diag_set(d, EX_DATAERR, "%s: content does not match its "
		    "name", label);
	}
	return 0;
}

/* A job object: its owner, bounds and declared curve, read once. */
static int
job_info(struct lctx *c, const struct ydoc *doc, const struct ydoc_node *v,
    const char *what, struct jinfo **out, struct diag *d)
{
	char label[PATH_MAX], *buf;
	struct jinfo *ji, **vec;
	const char *hex;
	struct job j;
	uint64_t h;
	void **found;
	size_t len;
	int rc;

	if (digest(doc, v, what, &hex, &h, d) < 0)
		return -1;
	if ((found = tfind(&h, &c->jobs, cmp_hash)) != NULL) {
		*out = *found;
		return 0;
	}
	memset(&j, 0, sizeof j);
	if (object(c, doc, v, what, hex, h, &buf, &len, label, d) < 0) {
		/* Another user's job file (mode 0600): counted, not fatal. */
		if (!denied(d))
			return -1;
		diag_clear(d);
		c->r->unreadable++;
		j.owner_uid = -1;
	} else {
		rc = job_parse(&j, label, buf, len, JOB_TRUSTED | JOB_QUIET,
		    d);
		free(buf);
		if (rc < 0)
			return -1;
	}
	ji = calloc(1, sizeof *ji);
	vec = realloc(c->jv, (c->njv + 1) * sizeof *vec);
	if (vec != NULL)
		c->jv = vec;
	if (ji == NULL || vec == NULL) {
		free(ji);
		job_free(&j);
		return diag_errno(d, ENOMEM, "%s", label);
	}
	ji->hash = h;
	ji->hidden = j.name[0] == '\0';
	ji->uid = j.owner_uid;
	ji->min = j.min_nodes;
	ji->max = j.max_nodes;
	ji->npoints = j.npoints;
	ji->points = j.points;		/* taken over from j */
	j.points = NULL;
	j.npoints = 0;
	job_free(&j);
	c->jv[c->njv++] = ji;
	if (tsearch(ji, &c->jobs, cmp_hash) == NULL)
		return diag_errno(d, ENOMEM, "%s", label);
	*out = ji;
	return 0;
}

static int
profile_info(struct lctx *c, const struct ydoc *doc,
    const struct ydoc_node *v, struct pinfo **out, struct diag *d)
{
	char label[PATH_MAX], *buf;
	struct pinfo *pi, **vec;
	const char *hex;
	uint64_t h;
	void **found;
	size_t len;
	int rc;

	if (digest(doc, v, "profile", &hex, &h, d) < 0)
		return -1;
	if ((found = tfind(&h, &c->profiles, cmp_hash)) != NULL) {
		*out = *found;
		return 0;
	}
	if (object(c, doc, v, "profile", hex, h, &buf, &len, label, d) < 0)
		return -1;
	if ((pi = calloc(1, sizeof *pi)) == NULL) {
		free(buf);
		return diag_errno(d, ENOMEM, "%s", label);
	}
	rc = profile_parse(&pi->p, label, buf, len, d);
	free(buf);
	vec = rc == 0 ? realloc(c->pv, (c->npv + 1) * sizeof *vec) : NULL;
	if (vec == NULL) {
		if (rc == 0)
			profile_free(&pi->p);
		free(pi);
		return rc < 0 ? -1 : diag_errno(d, ENOMEM, "%s", label);
	}
	c->pv = vec;
	pi->hash = h;
	c->pv[c->npv++] = pi;
	if (tsearch(pi, &c->profiles, cmp_hash) == NULL)
		return diag_errno(d, ENOMEM, "%s", label);
	*out = pi;
	return 0;
}

double
report_rate(const struct job_point *points, size_t npoints, long min,
    long max, const struct profile *p, enum profile_curve_rule rule, long n)
{
	struct job_point *pts;
	size_t k;
	double r;

	if (n < min)
		return 0;
	if (p == NULL)
		return npoints ? curve_rate(points, npoints, n) : NAN;
	pts = calloc(npoints + p->npoints + PROFILE_LAW_POINTS, sizeof *pts);
	if (pts == NULL)
		return NAN;
	k = profile_curve(p, points, npoints, max, rule, pts);
	r = k ? curve_rate(pts, k, n) : NAN;
	free(pts);
	return r;
}

static double
rate_of(const struct jinfo *ji, const struct pinfo *pi,
    enum profile_curve_rule rule, long n)
{
	if (ji == NULL || ji->hidden)
		return n > 0 ? NAN : 0;
	return report_rate(ji->points, ji->npoints, ji->min, ji->max,
	    pi ? &pi->p : NULL, rule, n);
}

/* A file of history/ read whole; messages name it by label. */
static int
read_file(int dirfd, const char *name, const char *label, size_t max,
    char **buf, size_t *len, struct diag *d)
{
	return file_read_named(dirfd, name, label, max, FILE_NOFOLLOW, buf, len,
	    d);
}

static const struct ydoc_node *
map_get(const struct ydoc_node *map, const char *key)
{
	return map != NULL && map->kind == YDOC_MAPPING ? ydoc_get(map, key) :
	    NULL;
}

/* What one plan did to one job, against the state it was made from. */
static void
change_of(const struct state_job *sj, const struct holes *h,
    const struct plan_job *pj, struct report_change *ch)
{
	size_t i, lost = 0, kept;

	for (i = 0; sj != NULL && i < sj->hosts.n; i++)
		if (holes_find(h, sj->hosts.names[i]) == NULL)
			lost++;
	kept = sj != NULL ? sj->hosts.n - lost : 0;
	ch->preempt = lost > 0;
	ch->lost = (long)lost;
	if (pj == NULL)
		return;
	if ((size_t)pj->nodes > kept)
		ch->grows = 1;
	else if ((size_t)pj->nodes < kept)
		ch->shrinks = 1;
	else if (pj->nodes > 0 && pj->hosts != NULL && sj != NULL) {
		for (i = 0; i < sj->hosts.n; i++)
			if (holes_find(h, sj->hosts.names[i]) != NULL &&
			    !hostlist_contains(&pj->host_set,
			    sj->hosts.names[i])) {
				ch->moves = 1;
				break;
			}
	}
}

/* The manifest's inputs, as parsed from it. */
struct manifest {
	struct ydoc doc;
	char label[PATH_MAX];	/* doc.file */
	char *buf;
	double enacted;
	const struct ydoc_node *holes, *state, *jobs, *profiles;
};

static int
manifest_read(struct lctx *c, const char *stem, long long ptime,
    struct manifest *m, struct diag *d)
{
	char name[HISTORY_STEM_MAX + 16];
	const struct ydoc_node *root, *v;
	size_t len;

	memset(m, 0, sizeof *m);
	snprintf(name, sizeof name, "%s.inputs.yaml", stem);
	snprintf(m->label, sizeof m->label, "%s/%s", c->r->label, name);
	if (read_file(c->hfd, name, m->label, HISTORY_MAX_FILE, &m->buf, &len,
	    d) < 0)
		return -1;
	if (ydoc_load(&m->doc, m->label, m->buf, len, d) < 0) {
		free(m->buf);
		return -1;
	}
	root = m->doc.root;
	if (root == NULL || root->kind != YDOC_MAPPING ||
	    (m->holes = ydoc_get(root, "holes")) == NULL) {
		diag_set(d, EX_DATAERR, "%s:%zu: a manifest needs the holes it "
		    "was made from", m->doc.file, root ? root->line : 1);
		goto fail;
	}
	m->enacted = (double)ptime;
	if ((v = ydoc_get(root, "enacted")) != NULL && ydoc_double(&m->doc,
	    v, "enacted", 0, 1e12, &m->enacted, d) < 0)
		goto fail;
	m->state = ydoc_get(root, "state");
	m->jobs = ydoc_get(root, "jobs");
	m->profiles = ydoc_get(root, "profiles");
	if ((m->jobs && m->jobs->kind != YDOC_MAPPING) ||
	    (m->profiles && m->profiles->kind != YDOC_MAPPING)) {
		v = m->jobs && m->jobs->kind != YDOC_MAPPING ? m->jobs :
		    m->profiles;
		diag_set(d, EX_DATAERR, "%s:%zu: %s must be a mapping of job "
		    "names to digests", m->doc.file, v->line, v == m->jobs ?
		    "jobs" : "profiles");
		goto fail;
	}
	return 0;
fail:
	ydoc_free(&m->doc);
	free(m->buf);
	return -1;
}

static void
manifest_free(struct manifest *m)
{
	ydoc_free(&m->doc);
	free(m->buf);
}

/* The holes and state objects of a manifest, parsed. */
static int
inputs(struct lctx *c, struct manifest *m, struct holes *h,
    struct state *st, struct diag *d)
{
	char label[PATH_MAX], *buf;
	const char *hex;
	uint64_t hash;
	size_t len;
	int rc;

	holes_init(h);
	state_init(st);
	if (digest(&m->doc, m->holes, "holes", &hex, &hash, d) < 0 ||
	    object(c, &m->doc, m->holes, "holes", hex, hash, &buf, &len,
	    label, d) < 0)
		return -1;
	rc = holes_parse(h, label, buf, len, d);
	free(buf);
	if (rc < 0 || m->state == NULL)
		return rc;
	if (digest(&m->doc, m->state, "state", &hex, &hash, d) < 0 ||
	    object(c, &m->doc, m->state, "state", hex, hash, &buf, &len,
	    label, d) < 0) {
		holes_free(h);
		return -1;
	}
	rc = state_parse(st, label, buf, len, d);
	free(buf);
	if (rc < 0)
		holes_free(h);
	return rc;
}

static int
add_change(struct report_plan *rp, size_t *cap, const struct report_change *ch)
{
	struct report_change *grown;

	if (ch->grows + ch->shrinks + ch->moves + ch->preempt == 0)
		return 0;
	if ((grown = array_grow(rp->chg, cap, rp->nchg + 1, sizeof *grown,
	    16)) == NULL)
		return -1;
	rp->chg = grown;
	rp->chg[rp->nchg++] = *ch;
	return 0;
}

/* The owner of a job the manifest names; -1 when it does not. */
static int
owner(struct lctx *c, struct manifest *m, const char *name,
    struct jinfo **ji, struct diag *d)
{
	const struct ydoc_node *v = map_get(m->jobs, name);

	*ji = NULL;
	return v == NULL ? 0 : job_info(c, &m->doc, v, "jobs", ji, d);
}

/* Each job of the plan: its segment and its change. */
static int
plan_jobs(struct lctx *c, struct manifest *m, const struct plan *p,
    const struct holes *h, const struct state *st, struct report_plan *rp,
    struct diag *d)
{
	struct report_change ch;
	const struct ydoc_node *v;
	struct jinfo *ji;
	struct pinfo *pi;
	size_t i, cap = 0;
	enum profile_curve_rule rule = profile_plan_rule(p);

	if ((rp->seg = calloc(p->njobs + 1, sizeof *rp->seg)) == NULL)
		return diag_errno(d, ENOMEM, "plans");
	for (i = 0; i < p->njobs; i++) {
		const struct plan_job *pj = &p->jobs[i];
		const char *name = intern(c->r, pj->name);
		pi = NULL;
		if (name == NULL)
			return diag_errno(d, ENOMEM, "plans");
		if (owner(c, m, pj->name, &ji, d) < 0)
			return -1;
		/*
		 * A profile that does not parse (a give-back plan records the
		 * inputs that made no plan, a bad profile among them): the
		 * job's declared curve, said, not the end of the report.
		 */
		if ((v = map_get(m->profiles, pj->name)) != NULL &&
		    profile_info(c, &m->doc, v, &pi, d) < 0) {
			if (denied(d))
				c->r->unreadable++;
			else if (d->code != EX_DATAERR)
				return -1;
			else
				log_warn("%s; the declared curve of %s used "
				    "instead", d->text, pj->name);
			diag_clear(d);
			pi = NULL;
		}
		if (pi != NULL && note_latest(c, name, rp->enacted, ji, pi) < 0)
			return diag_errno(d, ENOMEM, "plans");
		memset(&ch, 0, sizeof ch);
		ch.name = name;
		ch.uid = ji ? ji->uid : -1;
		change_of(state_find(st, pj->name), h, pj, &ch);
		if (add_change(rp, &cap, &ch) < 0)
			return diag_errno(d, ENOMEM, "plans");
		if (pj->nodes == 0)
			continue;
		rp->seg[rp->nseg].name = name;
		rp->seg[rp->nseg].uid = ch.uid;
		rp->seg[rp->nseg].nodes = pj->nodes;
		rp->seg[rp->nseg].rate = rate_of(ji, pi, rule, pj->nodes);
		rp->nseg++;
	}
	/* Jobs that held nodes and left the plan: taken back, maybe. */
	for (i = 0; i < st->n; i++) {
		int listed = 0;
		size_t k;
		for (k = 0; k < p->njobs && !listed; k++)
			listed = strcmp(p->jobs[k].name, st->jobs[i].name) == 0;
		if (listed)
			continue;
		memset(&ch, 0, sizeof ch);
		if ((ch.name = intern(c->r, st->jobs[i].name)) == NULL)
			return diag_errno(d, ENOMEM, "plans");
		if (owner(c, m, st->jobs[i].name, &ji, d) < 0)
			return -1;
		ch.uid = ji ? ji->uid : -1;
		change_of(&st->jobs[i], h, NULL, &ch);
		if (add_change(rp, &cap, &ch) < 0)
			return diag_errno(d, ENOMEM, "plans");
	}
	return 0;
}

static int
load_plan(struct lctx *c, const char *file, struct diag *d)
{
	struct report *r = c->r;
	char stem[HISTORY_STEM_MAX], label[PATH_MAX], *buf;
	struct report_plan *rp;
	struct manifest m;
	struct holes h;
	struct state st;
	struct plan p;
	size_t len;
	int rc;

	snprintf(stem, sizeof stem, "%.*s", (int)(strlen(file) - 5), file);
	snprintf(label, sizeof label, "%s/%s", r->label, file);
	if (read_file(c->hfd, file, label, HISTORY_MAX_FILE, &buf, &len,
	    d) < 0)
		return -1;
	rc = plan_parse(&p, label, buf, len, d);
	free(buf);
	if (rc < 0)
		return -1;
	if (manifest_read(c, stem, p.time, &m, d) < 0) {
		plan_free(&p);
		return -1;
	}
	if (inputs(c, &m, &h, &st, d) < 0) {
		manifest_free(&m);
		plan_free(&p);
		/* Objects an older version narrowed to the spool's owner. */
		if (!denied(d))
			return -1;
		diag_clear(d);
		r->unreadable++;
		return 0;
	}
	rp = &r->plans[r->nplans];
	memset(rp, 0, sizeof *rp);
	memcpy(rp->stem, stem, sizeof stem);
	rp->enacted = m.enacted;
	rp->offered = h.n;
	rc = plan_jobs(c, &m, &p, &h, &st, rp, d);
	r->nplans++;		/* freed with the report, even half made */
	holes_free(&h);
	state_free(&st);
	manifest_free(&m);
	plan_free(&p);
	return rc;
}

static int
by_enactment(const void *a, const void *b)
{
	const struct report_plan *x = a, *y = b;

	if (x->enacted != y->enacted)
		return x->enacted < y->enacted ? -1 : 1;
	return strcmp(x->stem, y->stem);
}

/*
 * The owner of a job named where no job file says it (a job that left
 * the plans as its nodes were taken, a run recorded without its job
 * file): the one the last plan up to t that gave it nodes names; -1.
 */
static long long
owner_at(const struct report *r, const char *name, double t)
{
	size_t i = r->nplans, s;

	while (i-- > 0) {
		if (r->plans[i].enacted > t)
			continue;
		for (s = 0; s < r->plans[i].nseg; s++)
			if (r->plans[i].seg[s].name == name &&
			    r->plans[i].seg[s].uid >= 0)
				return r->plans[i].seg[s].uid;
	}
	return -1;
}

static void
fill_owners(struct report *r)
{
	size_t i, k;

	for (i = 0; i < r->nplans; i++)
		for (k = 0; k < r->plans[i].nchg; k++) {
			struct report_change *ch = &r->plans[i].chg[k];
			if (ch->uid < 0)
				ch->uid = owner_at(r, ch->name,
				    r->plans[i].enacted);
		}
}

/*
 * A job profiled online has no rate in the plans made before bf-profile
 * first measured it: those are valued by its latest profile, and said.
 */
static int
fill_profiled(struct lctx *c, struct diag *d)
{
	struct report *r = c->r;
	struct latest key, **found;
	char when[32];
	size_t i, s;

	for (i = 0; i < r->nplans; i++)
		for (s = 0; s < r->plans[i].nseg; s++) {
			struct report_seg *g = &r->plans[i].seg[s];
			if (!isnan(g->rate))
				continue;
			key.name = g->name;
			if ((found = tfind(&key, &c->latest, cmp_name_ptr)) ==
			    NULL || (*found)->ji == NULL || (*found)->ji->hidden)
				continue;
			g->rate = rate_of((*found)->ji, (*found)->pi,
			    PROFILE_CURVE_SCALED, g->nodes);
			if (isnan(g->rate))
				continue;
			report_time((*found)->enacted, when);
			if (!(*found)->said && report_note(r, "%s: no rate "
			    "before its first profile: valued by its profile of "
			    "the plan of %s", g->name, when) < 0)
				return diag_errno(d, ENOMEM, "plans");
			(*found)->said = 1;
		}
	return 0;
}

static int
load_plans(struct lctx *c, struct diag *d)
{
	struct report *r = c->r;
	char **names;
	size_t n, i;
	int rc = 0;

	if (list_dir(c->hfd, r->label, &names, &n, d) < 0)
		return -1;
	if ((r->plans = calloc(n + 1, sizeof *r->plans)) == NULL) {
		free_names(names, n);
		return diag_errno(d, ENOMEM, "%s", r->label);
	}
	for (i = 0; i < n && rc == 0; i++)
		if (history_is_plan_name(names[i]))
			rc = load_plan(c, names[i], d);
	free_names(names, n);
	if (rc < 0)
		return -1;
	if (r->nplans > 1)
		qsort(r->plans, r->nplans, sizeof *r->plans, by_enactment);
	fill_owners(r);
	return fill_profiled(c, d);
}

/* A job's node count at each enactment that changed it, for NODES "-". */
static int
timeline(const struct report *r, const char *name, double **t, long **n,
    size_t *cnt)
{
	size_t i, s, k = 0;
	long last = -1, c;

	*t = malloc((r->nplans + 1) * sizeof **t);
	*n = malloc((r->nplans + 1) * sizeof **n);
	if (*t == NULL || *n == NULL)
		return -1;
	for (i = 0; i < r->nplans; i++) {
		for (c = 0, s = 0; s < r->plans[i].nseg; s++)
			if (strcmp(r->plans[i].seg[s].name, name) == 0)
				c = r->plans[i].seg[s].nodes;
		if (c != last) {
			(*t)[k] = r->plans[i].enacted;
			(*n)[k++] = c;
			last = c;
		}
	}
	*cnt = k;
	return 0;
}

/*
 * A log whose reports are trusted up to limit (its run's end, or the time
 * of reading): a report dated later than that and the clock slack is not
 * counted, and said; the log's end is never past limit.
 */
static int
load_log(struct lctx *c, int dirfd, const char *file, const char *label,
    const char *name, long long uid, double limit, const char *limit_what,
    struct diag *d)
{
	struct report *r = c->r;
	struct progress_alloc al = { 0, NULL, NULL };
	struct report_log *lg, *logs;
	struct progress pr;
	double *at = NULL;
	long *an = NULL;
	char *buf;
	size_t len, i, late = 0;
	int rc = 0;

	if (read_file(dirfd, file, label, PROGRESS_MAX_FILE, &buf, &len,
	    d) < 0) {
		if (!denied(d) || uid < 0)
			return log_untrusted(r, d);
		/* Another user's: no samples, but whose job it is. */
		memset(&pr, 0, sizeof pr);
		(void)log_untrusted(r, d);
		goto keep;
	}
	if (progress_has_dash(buf, len)) {
		rc = timeline(r, name, &at, &an, &al.n);
		al.time = at;
		al.nodes = an;
	}
	if (rc < 0)
		rc = diag_errno(d, ENOMEM, "%s", label);
	else
		rc = progress_parse_alloc(&pr, label, buf, len, &al, d);
	free(buf);
	free(at);
	free(an);
	if (rc < 0)
		return log_untrusted(r, d);
keep:
	logs = realloc(r->logs, (r->nlogs + 1) * sizeof *logs);
	if (logs == NULL) {
		progress_free(&pr);
		return diag_errno(d, ENOMEM, "%s", label);
	}
	r->logs = logs;
	lg = &r->logs[r->nlogs];
	memset(lg, 0, sizeof *lg);
	lg->name = intern(r, name);
	lg->uid = uid;
	lg->t = malloc((pr.n + 1) * sizeof *lg->t);
	lg->s = malloc((pr.n + 1) * sizeof *lg->s);
	r->nlogs++;
	if (lg->name == NULL || lg->t == NULL || lg->s == NULL) {
		progress_free(&pr);
		return diag_errno(d, ENOMEM, "%s", label);
	}
	for (i = 0; i < pr.n; i++) {
		/* The limit itself is not in the note when it is the time
		 * of reading: the same files give the same text. */
		if (pr.r[i].time > limit + REPORT_CLOCK_SLACK) {
			late = pr.n - i;	/* reports are in time order */
			break;
		}
		lg->t[i] = pr.r[i].time;
		lg->s[i] = (double)pr.r[i].samples;
	}
	lg->n = i;
	lg->end = i > 0 ? fmin(lg->t[i - 1], limit) : 0;
	progress_free(&pr);
	if (late > 0 && report_note(r, "%s: %zu report%s dated after %s not "
	    "counted", label, late, late > 1 ? "s" : "", limit_what) < 0)
		return diag_errno(d, ENOMEM, "%s", label);
	return 0;
}

/*
 * The owner of a file a job owns (its progress log: bf-spool(5)), for a
 * job whose file this user may not read; -1 when it cannot be seen.
 */
static long long
file_owner(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode) ? (long long)st.st_uid : -1;
}

/* dirfd/name, a file that may be absent: 0 absent, 1 there. */
static int
present(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ||
	    errno != ENOENT;
}

static enum outcome
outcome_of(const char *s)
{
	static const char *const names[] = { "finished", "failed",
	    "preempted", "lost", "cancelled" };
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(s, names[i]) == 0)
			return (enum outcome)i;
	return RUN_OTHER;
}

/* runs/STEM/progress.log, the whole log of a job that ended for good. */
static int
run_log(struct lctx *c, const char *stem, const char *name, long long uid,
    double ended, struct diag *d)
{
	char label[PATH_MAX], when[32], what[64];
	int dfd, rc = 0;

	snprintf(label, sizeof label, "%s/runs/%s", c->r->label, stem);
	dfd = openat(c->runsfd, stem, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (dfd < 0)
		return errno == ENOENT ? 0 : diag_errno(d, errno, "unable to "
		    "open %s", label);
	if (present(dfd, "progress.log")) {
		snprintf(label, sizeof label, "%s/runs/%s/progress.log",
		    c->r->label, stem);
		report_time(ended, when);
		snprintf(what, sizeof what, "its run ended (%s)", when);
		rc = load_log(c, dfd, "progress.log", label, name, uid,
		    ended + 1, what, d);
	}
	close(dfd);
	return rc;
}

/* The owner of runs/STEM/progress.log, the job's own file; -1 none. */
static long long
run_log_owner(struct lctx *c, const char *stem)
{
	long long uid;
	int dfd = openat(c->runsfd, stem, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC);

	if (dfd < 0)
		return -1;
	uid = file_owner(dfd, "progress.log");
	close(dfd);
	return uid;
}

static int
load_run(struct lctx *c, const char *file, struct diag *d)
{
	struct report *r = c->r;
	const struct ydoc_node *root, *vn, *vo, *ve, *vj;
	char label[PATH_MAX], stem[NAME_MAX + 1], shown[80], *buf;
	const char *name, *out;
	struct report_run *runs;
	struct jinfo *ji = NULL;
	struct ydoc doc;
	long long ended;
	size_t len;
	int rc = -1;

	snprintf(label, sizeof label, "%s/runs/%s", r->label, file);
	if (read_file(c->runsfd, file, label, HISTORY_MAX_FILE, &buf, &len,
	    d) < 0)
		return -1;
	if (ydoc_load(&doc, label, buf, len, d) < 0) {
		free(buf);
		return -1;
	}
	root = doc.root;
	if (root == NULL || root->kind != YDOC_MAPPING ||
	    (vn = ydoc_get(root, "name")) == NULL ||
	    (vo = ydoc_get(root, "outcome")) == NULL ||
	    (ve = ydoc_get(root, "ended")) == NULL) {
		diag_set(d, EX_DATAERR, "%s:%zu: a run record needs name, "
		    "outcome and ended", label, root ? root->line : 1);
		goto out;
	}
	if (ydoc_string(&doc, vn, "name", &name, d) < 0 ||
	    ydoc_string(&doc, vo, "outcome", &out, d) < 0 ||
	    ydoc_long(&doc, ve, "ended", 0, 1LL << 40, &ended, d) < 0)
		goto out;
	if (!job_name_valid(name)) {
		ydoc_excerpt(name, shown, sizeof shown);
		diag_set(d, EX_DATAERR, "%s:%zu: '%s' is not a job name",
		    label, vn->line, shown);
		goto out;
	}
	if ((vj = ydoc_get(root, "job")) != NULL &&
	    job_info(c, &doc, vj, "job", &ji, d) < 0)
		goto out;
	if ((runs = realloc(r->runs, (r->nruns + 1) * sizeof *runs)) == NULL ||
	    (runs[r->nruns].name = intern(r, name)) == NULL) {
		if (runs != NULL)
			r->runs = runs;
		diag_errno(d, ENOMEM, "%s", label);
		goto out;
	}
	r->runs = runs;
	runs[r->nruns].uid = ji && !ji->hidden ? ji->uid : owner_at(r,
	    runs[r->nruns].name, (double)ended);
	snprintf(stem, sizeof stem, "%.*s", (int)(strlen(file) - 5), file);
	if (runs[r->nruns].uid < 0)
		runs[r->nruns].uid = run_log_owner(c, stem);
	runs[r->nruns].ended = (double)ended;
	runs[r->nruns].outcome = outcome_of(out);
	r->nruns++;
	rc = run_log(c, stem, name, runs[r->nruns - 1].uid, (double)ended, d);
out:
	ydoc_free(&doc);
	free(buf);
	return rc;
}

static int
load_runs(struct lctx *c, struct diag *d)
{
	char label[PATH_MAX], **names;
	size_t n, i, l;
	int rc = 0;

	if (c->runsfd < 0)
		return 0;
	snprintf(label, sizeof label, "%s/runs", c->r->label);
	if (list_dir(c->runsfd, label, &names, &n, d) < 0)
		return -1;
	for (i = 0; i < n && rc == 0; i++) {
		l = strlen(names[i]);
		/* ENDED-NAME-ID.yaml; beside them their directories and
		 * logs moved out of the way (TIME-NAME-uidUID.progress.log) */
		if (l > 5 && strcmp(names[i] + l - 5, ".yaml") == 0 &&
		    names[i][0] >= '0' && names[i][0] <= '9')
			rc = load_run(c, names[i], d);
	}
	free_names(names, n);
	return rc;
}

/* The logs of the jobs in jobs/: those still running or waiting. */
static int
load_spool(struct lctx *c, const struct spool *sp, struct diag *d)
{
	char **names, file[JOB_NAME_MAX + 8], log[JOB_NAME_MAX + 8], *buf;
	char label[PATH_MAX];
	struct state st;
	struct job j;
	size_t n, i, len;
	int rc = 0;

	if (sp->dirs[SPOOL_JOBS] >= 0) {
		if (job_list(sp, SPOOL_JOBS, 0, &names, &n, d) < 0)
			return -1;
		for (i = 0; i < n && rc == 0; i++) {
			snprintf(file, sizeof file, "%s.yaml", names[i]);
			snprintf(label, sizeof label, "jobs/%s", file);
			memset(&j, 0, sizeof j);
			if (job_load_at(&j, sp->dirs[SPOOL_JOBS], file,
			    label, JOB_TRUSTED | JOB_QUIET, d) < 0) {
				if (!denied(d)) {
					rc = -1;
					break;
				}
				/* Not ours: its log says whose it is. */
				diag_clear(d);
				c->r->unreadable++;
				j.owner_uid = -1;
			}
			snprintf(log, sizeof log, "%s.log", names[i]);
			snprintf(label, sizeof label, "progress/%s", log);
			if (sp->dirs[SPOOL_PROGRESS] >= 0 &&
			    present(sp->dirs[SPOOL_PROGRESS], log))
				rc = load_log(c, sp->dirs[SPOOL_PROGRESS],
				    log, label, names[i], j.owner_uid >= 0 ?
				    j.owner_uid : file_owner(
				    sp->dirs[SPOOL_PROGRESS], log), c->now,
				    "the time of reading", d);
			job_free(&j);
		}
		spool_list_free(names, n);
		if (rc < 0)
			return -1;
	}
	if (!present(sp->fd, "state.yaml"))
		return 0;
	if (read_file(sp->fd, "state.yaml", "state.yaml", STATE_MAX_FILE,
	    &buf, &len, d) < 0)
		return -1;
	rc = state_parse(&st, "state.yaml", buf, len, d);
	free(buf);
	if (rc < 0)
		return -1;
	if (st.time > 0)
		c->state_time = (double)st.time;
	state_free(&st);
	return 0;
}

/* history/NAME into *fd, a directory that may be absent (*fd -1). */
static int
open_sub(int hfd, const char *label, const char *name, int *fd,
    struct diag *d)
{
	*fd = openat(hfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (*fd >= 0 || errno == ENOENT)
		return 0;
	if (errno == ELOOP || errno == ENOTDIR)
		return diag_set(d, EX_DATAERR, "%s/%s: not a directory (a "
		    "symbolic link is not followed)", label, name);
	return diag_errno(d, errno, "unable to open %s/%s", label, name);
}

/*
 * The owners of jobs whose files this user may not read (-1 so far):
 * from a run of the job that ended at or after the plan, else from its
 * log in progress/, each named by the owner of the job's own log.
 */
static void
fill_hidden_owners(struct report *r)
{
	size_t i, s, k;

	for (i = 0; i < r->nplans; i++)
		for (s = 0; s < r->plans[i].nseg; s++) {
			struct report_seg *g = &r->plans[i].seg[s];
			double best = INFINITY;
			if (g->uid >= 0)
				continue;
			for (k = 0; k < r->nruns; k++)
				if (r->runs[k].name == g->name &&
				    r->runs[k].uid >= 0 &&
				    r->runs[k].ended >= r->plans[i].enacted &&
				    r->runs[k].ended < best) {
					best = r->runs[k].ended;
					g->uid = r->runs[k].uid;
				}
			for (k = 0; k < r->nlogs && g->uid < 0; k++)
				if (r->logs[k].name == g->name)
					g->uid = r->logs[k].uid;
		}
	for (i = 0; i < r->nplans; i++)
		for (k = 0; k < r->plans[i].nchg; k++)
			if (r->plans[i].chg[k].uid < 0)
				r->plans[i].chg[k].uid = owner_at(r,
				    r->plans[i].chg[k].name,
				    r->plans[i].enacted);
}

/* What the history covers: its first and last recorded moments. */
static void
span(struct report *r, double state_time)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t i;

	for (i = 0; i < r->nplans; i++) {
		lo = fmin(lo, r->plans[i].enacted);
		hi = fmax(hi, r->plans[i].enacted);
	}
	for (i = 0; i < r->nruns; i++) {
		lo = fmin(lo, r->runs[i].ended);
		hi = fmax(hi, r->runs[i].ended);
	}
	for (i = 0; i < r->nlogs; i++)
		if (r->logs[i].n > 0) {
			lo = fmin(lo, r->logs[i].t[0]);
			hi = fmax(hi, r->logs[i].end);
		}
	r->empty = lo > hi;
	if (!r->empty && state_time > hi)
		hi = state_time;
	r->first = r->empty ? 0 : lo;
	r->last = r->empty ? 0 : hi;
}

static void
lctx_free(struct lctx *c)
{
	size_t i;

	for (i = 0; i < c->njv; i++) {
		tdelete(c->jv[i], &c->jobs, cmp_hash);
		free(c->jv[i]->points);
		free(c->jv[i]);
	}
	for (i = 0; i < c->npv; i++) {
		tdelete(c->pv[i], &c->profiles, cmp_hash);
		profile_free(&c->pv[i]->p);
		free(c->pv[i]);
	}
	while (c->latest != NULL) {
		struct latest *l = *(struct latest **)c->latest;
		tdelete(l, &c->latest, cmp_name_ptr);
		free(l);
	}
	free(c->jv);
	free(c->pv);
	if (c->objfd >= 0)
		close(c->objfd);
	if (c->runsfd >= 0)
		close(c->runsfd);
}

int
report_load(struct report *r, int hfd, const char *label,
    const struct spool *sp, struct diag *d)
{
	struct lctx c;
	int rc = 0;

	memset(&c, 0, sizeof c);
	c.r = r;
	c.hfd = hfd;
	c.objfd = c.runsfd = -1;
	c.now = (double)time(NULL);
	r->label = label;
	if (hfd >= 0) {
		rc = open_sub(hfd, label, "objects", &c.objfd, d);
		if (rc == 0)
			rc = open_sub(hfd, label, "runs", &c.runsfd, d);
		if (rc == 0)
			rc = load_plans(&c, d);
		if (rc == 0)
			rc = load_runs(&c, d);
	}
	if (rc == 0 && sp != NULL)
		rc = load_spool(&c, sp, d);
	if (rc == 0 && r->unreadable > 0)
		fill_hidden_owners(r);
	if (rc == 0)
		span(r, c.state_time);
	lctx_free(&c);
	return rc;
}
