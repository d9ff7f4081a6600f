/*
 * NAME
 *	pbs - usable nodes from PBS Professional or OpenPBS: pbsnodes, qstat
 *	and pbs_rstat output
 * DESCRIPTION
 *	See pbs.h.  The JSON is read by jansson, integers as doubles: PBS
 *	prints any value strtod() reads as a bare number (a job named
 *	12345678901234567890 too), which must not fail as "too big".  Values
 *	bftrainer uses point into the parsed documents, which live until the
 *	end.  Vnodes are kept sorted by name and found by bsearch; hosts are
 *	their vnodes grouped by host name.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/array.h"
#include "util/cmdout.h"
#include "util/ydoc.h"

#include "sched/pbs.h"

#define PBS_HINT	"is the PBS server answering?"
#define SHOWN		72	/* bytes of a quoted value in a message */

struct vnode {
	const char *name;	/* a key of "nodes" */
	char *host;
	const char *resv;	/* its "resv", or NULL */
	int ok;			/* usable as far as known yet */
	long long until;	/* earliest claim after now, 0 none */
};

struct job {
	const char *id, *queue, *state;
	json_t *obj;
};

struct resv {
	char *id;
	long long start;
};

struct pbs {
	const char *own;
	long long now;
	struct vnode *v;
	size_t nv;
	struct job *j;
	size_t nj;
	struct resv *r;
	size_t nr, rcap;
};

static const char *
shown(const char *s, char buf[SHOWN])
{
	ydoc_excerpt(s, buf, SHOWN);
	return buf;
}

static int
nomem(struct diag *d)
{
	return diag_errno(d, ENOMEM, "pbs");
}

/* "Thu Nov  9 13:04:14 2023" or "Wed Aug 06 10:00:00 2025", local time. */
int
pbs_time(const char *s, long long *t)
{
	static const char days[] = "SunMonTueWedThuFriSat";
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	char wd[4], mon[4];
	const char *w, *m;
	struct tm tm;
	int mday, n = 0;
	time_t u;

	*t = 0;
	if (strcmp(s, "UNKNOWN") == 0)
		return 0;
	memset(&tm, 0, sizeof tm);
	if (sscanf(s, "%3[A-Za-z] %3[A-Za-z] %2d %2d:%2d:%2d %4d%n", wd, mon,
	    &mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &tm.tm_year,
	    &n) != 7 || s[n] != '\0' || strlen(wd) != 3 || strlen(mon) != 3)
		return -1;
	if ((w = strstr(days, wd)) == NULL || (w - days) % 3 != 0 ||
	    (m = strstr(months, mon)) == NULL || (m - months) % 3 != 0)
		return -1;
	if (mday < 1 || mday > 31 || tm.tm_hour < 0 || tm.tm_hour > 23 ||
	    tm.tm_min < 0 || tm.tm_min > 59 || tm.tm_sec < 0 ||
	    tm.tm_sec > 60 || tm.tm_year < 1970)
		return -1;
	tm.tm_mday = mday;
	tm.tm_mon = (int)(m - months) / 3;
	tm.tm_year -= 1900;
	tm.tm_isdst = -1;
	if ((u = mktime(&tm)) == (time_t)-1)
		return -1;
	/* No 31 Feb, and the weekday the date has. */
	if (tm.tm_mday != mday || tm.tm_wday != (int)(w - days) / 3)
		return -1;
	*t = (long long)u;
	return 0;
}

/* (vnodeA:ncpus=N:mem=X)+(vnodeB:ncpus=P+vnodeC:mem=Z) */
int
pbs_vnodes(const char *spec, struct hostlist *out)
{
	const char *p = spec;
	char *name;
	size_t n;

	while (*p != '\0') {
		if (*p++ != '(')
			return -1;
		for (;;) {
			if ((n = strcspn(p, ":+()")) == 0)
				return -1;
			if ((name = strndup(p, n)) == NULL)
				return -1;
			if (hostlist_add(out, name) < 0) {
				free(name);
				return -1;
			}
			free(name);
			p += n;
			if (*p == ':')
				p += strcspn(p, "+()");
			if (*p == '+') {
				p++;
				continue;
			}
			if (*p++ != ')')
				return -1;
			break;
		}
		if (*p == '+' && p[1] != '\0')
			p++;
		else if (*p != '\0')
			return -1;
	}
	return 0;
}

static int
vnode_cmp(const void *a, const void *b)
{
	return strcmp(((const struct vnode *)a)->name,
	    ((const struct vnode *)b)->name);
}

static struct vnode *
find_vnode(struct pbs *p, const char *name)
{
	struct vnode key;

	memset(&key, 0, sizeof key);
	key.name = name;
	return p->nv ? bsearch(&key, p->v, p->nv, sizeof key, vnode_cmp) :
	    NULL;
}

static int
job_cmp(const void *a, const void *b)
{
	return strcmp(((const struct job *)a)->id,
	    ((const struct job *)b)->id);
}

static struct job *
find_job(struct pbs *p, const char *id)
{
	struct job key = { id, NULL, NULL, NULL };

	return p->nj ? bsearch(&key, p->j, p->nj, sizeof key, job_cmp) : NULL;
}

static int
resv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct resv *)a)->id,
	    ((const struct resv *)b)->id);
}

static void
claim(struct vnode *vn, long long t)
{
	if (vn->until == 0 || t < vn->until)
		vn->until = t;
}

/* The document, or NULL with "LABEL:LINE: jansson's message". */
static json_t *
load(const char *label, const char *text, size_t len, struct diag *d)
{
	json_error_t e;
	json_t *doc = json_loadb(text, len, JSON_DECODE_INT_AS_REAL, &e);
	char buf[SHOWN];

	if (doc == NULL) {
		diag_set(d, EX_DATAERR, "%s:%d: %s", label, e.line > 0 ?
		    e.line : 1, shown(e.text, buf));
		return NULL;
	}
	if (!json_is_object(doc)) {
		json_decref(doc);
		diag_set(d, EX_DATAERR, "%s:1: not a JSON object", label);
		return NULL;
	}
	return doc;
}

/* A member that must be an object when it is there; NULL when absent. */
static int
member(json_t *o, const char *key, int (*is)(const json_t *), json_t **v)
{
	*v = json_object_get(o, key);
	return *v == NULL || is(*v) ? 0 : -1;
}

static int
is_object(const json_t *v)
{
	return json_is_object(v);
}

static int
is_string(const json_t *v)
{
	return json_is_string(v);
}

static int
is_array(const json_t *v)
{
	return json_is_array(v);
}

static int
read_jobs(struct pbs *p, json_t *doc, struct diag *d)
{
	json_t *jobs, *job, *st, *q;
	const char *id;
	char buf[SHOWN];

	if (member(doc, "Jobs", is_object, &jobs) < 0)
		return diag_set(d, EX_DATAERR, "qstat: \"Jobs\" is not an "
		    "object");
	if (jobs == NULL || json_object_size(jobs) == 0)
		return 0;
	if ((p->j = calloc(json_object_size(jobs), sizeof *p->j)) == NULL)
		return nomem(d);
	json_object_foreach(jobs, id, job) {
		if (!json_is_object(job) ||
		    !json_is_string(st = json_object_get(job, "job_state")) ||
		    !json_is_string(q = json_object_get(job, "queue")))
			return diag_set(d, EX_DATAERR, "qstat: job %s: no "
			    "job_state or queue string", shown(id, buf));
		p->j[p->nj++] = (struct job){ id, json_string_value(q),
		    json_string_value(st), job };
	}
	qsort(p->j, p->nj, sizeof *p->j, job_cmp);
	return 0;
}

/* Zero entries are usually left out; "0kb" and 0 are zero too. */
static int
is_zero(const json_t *v)
{
	const char *s;
	size_t n;

	if (json_is_number(v))
		return json_number_value(v) == 0;
	if (!json_is_string(v))
		return 0;
	s = json_string_value(v);
	if ((n = strspn(s, "0")) == 0)
		return 0;
	s += n;
	if (*s != '\0' && strchr("kmgtp", *s) != NULL)
		s++;
	if (*s == 'b' || *s == 'w')
		s++;
	return *s == '\0';
}

static int
assigned(json_t *ra)
{
	const char *key;
	json_t *v;

	json_object_foreach(ra, key, v)
		if (!is_zero(v))
			return 1;
	return 0;
}

/* Every comma-separated word of state is in set (NULL-terminated). */
static int
state_in(const char *state, const char *const *set)
{
	const char *w = state;
	size_t n, i;

	for (;;) {
		n = strcspn(w, ",");
		for (i = 0; set[i] != NULL; i++)
			if (strlen(set[i]) == n && strncmp(w, set[i], n) == 0)
				break;
		if (set[i] == NULL)
			return 0;
		if (w[n] == '\0')
			return 1;
		w += n + 1;
	}
}

/* Every job of the vnode is ours: qstat shows it in our queue. */
static int
all_ours(struct pbs *p, json_t *jobs)
{
	struct job *jb;
	size_t i;

	for (i = 0; i < json_array_size(jobs); i++) {
		jb = find_job(p, json_string_value(json_array_get(jobs, i)));
		if (jb == NULL || strcmp(jb->queue, p->own) != 0)
			return 0;
	}
	return 1;
}

static char *
host_of(const char *vnode, json_t *avail)
{
	json_t *host = avail ? json_object_get(avail, "host") : NULL;

	return pbs_vnode_host(vnode, json_is_string(host) ?
	    json_string_value(host) : NULL);
}

char *
pbs_vnode_host(const char *vnode, const char *host)
{
	size_t n = strlen(vnode);

	if (host != NULL)
		return strdup(host);
	if (n > 0 && vnode[n - 1] == ']' && strchr(vnode, '[') != NULL)
		n = (size_t)(strrchr(vnode, '[') - vnode);
	return strndup(vnode, n);
}

static int
read_vnode(struct pbs *p, const char *name, json_t *o, struct vnode *vn,
    struct diag *d)
{
	static const char *const idle[] = { "free", NULL };
	static const char *const pilot[] = { "free", "job-busy",
	    "job-exclusive", "job-sharing", NULL };
	json_t *state, *jobs, *ra, *avail, *resv, *host;
	const char *st;
	char buf[SHOWN], hbuf[SHOWN];
	size_t i;

	vn->name = name;
	if (!json_is_object(o))
		return diag_set(d, EX_DATAERR, "pbsnodes: node %s: not an "
		    "object", shown(name, buf));
	if (!json_is_string(state = json_object_get(o, "state")) ||
	    *(st = json_string_value(state)) == '\0')
		return diag_set(d, EX_DATAERR, "pbsnodes: node %s: no state",
		    shown(name, buf));
	if (member(o, "jobs", is_array, &jobs) < 0 ||
	    member(o, "resources_assigned", is_object, &ra) < 0 ||
	    member(o, "resources_available", is_object, &avail) < 0 ||
	    member(o, "resv", is_string, &resv) < 0 ||
	    (avail && member(avail, "host", is_string, &host) < 0))
		return diag_set(d, EX_DATAERR, "pbsnodes: node %s: jobs, "
		    "resources_assigned, resources_available, host or resv of "
		    "another kind than PBS prints", shown(name, buf));
	for (i = 0; jobs && i < json_array_size(jobs); i++)
		if (!json_is_string(json_array_get(jobs, i)))
			return diag_set(d, EX_DATAERR, "pbsnodes: node %s: a "
			    "job id that is not a string", shown(name, buf));
	if ((vn->host = host_of(name, avail)) == NULL)
		return nomem(d);
	if (!hostlist_valid_name(vn->host))
		return diag_set(d, EX_DATAERR, "pbsnodes: node %s: host name "
		    "'%s' is not letters, digits, '.', '_' and '-'",
		    shown(name, buf), shown(vn->host, hbuf));
	vn->resv = resv ? json_string_value(resv) : NULL;
	if (jobs == NULL || json_array_size(jobs) == 0)
		vn->ok = state_in(st, idle) && (ra == NULL || !assigned(ra));
	else
		vn->ok = state_in(st, pilot) && all_ours(p, jobs);
	return 0;
}

static int
read_nodes(struct pbs *p, json_t *doc, struct diag *d)
{
	json_t *ts, *nodes, *o;
	const char *name;

	ts = json_object_get(doc, "timestamp");
	/* The bounds of a holes file's time. */
	if (!json_is_number(ts) || json_number_value(ts) < 0 ||
	    json_number_value(ts) > (double)(1LL << 40))
		return diag_set(d, EX_DATAERR, "pbsnodes: no \"timestamp\" of "
		    "unix seconds");
	p->now = (long long)json_number_value(ts);
	if (member(doc, "nodes", is_object, &nodes) < 0)
		return diag_set(d, EX_DATAERR, "pbsnodes: \"nodes\" is not an "
		    "object");
	if (nodes == NULL || json_object_size(nodes) == 0)
		return 0;
	if ((p->v = calloc(json_object_size(nodes), sizeof *p->v)) == NULL)
		return nomem(d);
	json_object_foreach(nodes, name, o)
		if (read_vnode(p, name, o, &p->v[p->nv++], d) < 0)
			return -1;
	qsort(p->v, p->nv, sizeof *p->v, vnode_cmp);
	return 0;
}

/* Each job in state Q with an estimate after now claims its vnodes. */
static int
read_estimates(struct pbs *p, struct diag *d)
{
	json_t *est, *ev, *st;
	struct hostlist hl;
	struct vnode *vn;
	char buf[SHOWN], vbuf[SHOWN];
	long long t;
	size_t i, k;

	for (i = 0; i < p->nj; i++) {
		struct job *jb = &p->j[i];
		if (strcmp(jb->state, "Q") != 0)
			continue;
		if (member(jb->obj, "estimated", is_object, &est) < 0 ||
		    (est && (member(est, "exec_vnode", is_string, &ev) < 0 ||
		    member(est, "start_time", is_string, &st) < 0)))
			return diag_set(d, EX_DATAERR, "qstat: job %s: "
			    "estimated is not an object of strings",
			    shown(jb->id, buf));
		if (est == NULL || ev == NULL || st == NULL)
			continue;
		if (pbs_time(json_string_value(st), &t) < 0)
			return diag_set(d, EX_DATAERR, "qstat: job %s: "
			    "estimated.start_time '%s' is not a time like "
			    "'Thu Nov  9 13:04:14 2023'", shown(jb->id, buf),
			    shown(json_string_value(st), vbuf));
		if (t <= p->now)
			continue;
		hostlist_init(&hl);
		if (pbs_vnodes(json_string_value(ev), &hl) < 0) {
			hostlist_free(&hl);
			return diag_set(d, EX_DATAERR, "qstat: job %s: bad "
			    "estimated.exec_vnode '%s'", shown(jb->id, buf),
			    shown(json_string_value(ev), vbuf));
		}
		for (k = 0; k < hl.n; k++)
			if ((vn = find_vnode(p, hl.names[k])) != NULL)
				claim(vn, t);
		hostlist_free(&hl);
	}
	return 0;
}

static int
add_resv(struct pbs *p, const char *id, long long start)
{
	struct resv *r = array_grow(p->r, &p->rcap, p->nr + 1, sizeof *r, 16);

	if (r == NULL)
		return -1;
	p->r = r;
	if ((p->r[p->nr].id = strdup(id)) == NULL)
		return -1;
	p->r[p->nr++].start = start;
	return 0;
}

/* One reservation read: a running one takes its vnodes, a later one
 * claims them from its start. */
static int
end_resv(struct pbs *p, const char *id, size_t line, long long start,
    long long end, const char *nodes, struct diag *d)
{
	struct hostlist hl;
	struct vnode *vn;
	char buf[SHOWN];
	size_t k;

	if (start == 0)
		return diag_set(d, EX_DATAERR, "pbs_rstat:%zu: reservation %s "
		    "has no reserve_start", line, shown(id, buf));
	if (add_resv(p, id, start) < 0)
		return nomem(d);
	if (nodes == NULL || (end != 0 && end <= p->now))
		return 0;
	hostlist_init(&hl);
	if (pbs_vnodes(nodes, &hl) < 0) {
		hostlist_free(&hl);
		return nomem(d);
	}
	for (k = 0; k < hl.n; k++)
		if ((vn = find_vnode(p, hl.names[k])) != NULL) {
			if (start <= p->now)
				vn->ok = 0;
			else
				claim(vn, start);
		}
	hostlist_free(&hl);
	return 0;
}

/* One line of pbs_rstat -f: "Resv ID: ID", "NAME = VALUE" or blank. */
struct rstat {
	char *id, *nodes;
	size_t line;
	long long start, end;
};

static int
rstat_line(struct pbs *p, struct rstat *rs, char *s, size_t line,
    struct diag *d)
{
	struct hostlist hl;
	char *eq, buf[SHOWN];
	long long *t = NULL;
	int bad;

	if (*s == '\0')
		return 0;
	if (strncmp(s, "Resv ID: ", 9) == 0 && s[9] != '\0') {
		if (rs->id != NULL && end_resv(p, rs->id, rs->line, rs->start,
		    rs->end, rs->nodes, d) < 0)
			return -1;
		free(rs->id);
		free(rs->nodes);
		*rs = (struct rstat){ strdup(s + 9), NULL, line, 0, 0 };
		return rs->id ? 0 : nomem(d);
	}
	if ((eq = strstr(s, " = ")) == NULL || eq == s)
		return diag_set(d, EX_DATAERR, "pbs_rstat:%zu: not 'Resv ID: "
		    "ID' or 'NAME = VALUE'", line);
	if (rs->id == NULL)
		return diag_set(d, EX_DATAERR, "pbs_rstat:%zu: NAME = VALUE "
		    "before any 'Resv ID:'", line);
	*eq = '\0';
	eq += 3;
	if (strcmp(s, "reserve_start") == 0)
		t = &rs->start;
	else if (strcmp(s, "reserve_end") == 0)
		t = &rs->end;
	if (t != NULL) {
		if (pbs_time(eq, t) < 0 || *t == 0)
			return diag_set(d, EX_DATAERR, "pbs_rstat:%zu: %s '%s' "
			    "is not a time like 'Wed Aug 06 10:00:00 2025'",
			    line, s, shown(eq, buf));
		return 0;
	}
	if (strcmp(s, "resv_nodes") != 0)
		return 0;
	hostlist_init(&hl);
	bad = pbs_vnodes(eq, &hl);
	hostlist_free(&hl);
	if (bad)
		return diag_set(d, EX_DATAERR, "pbs_rstat:%zu: bad resv_nodes "
		    "'%s'", line, shown(eq, buf));
	free(rs->nodes);
	return (rs->nodes = strdup(eq)) ? 0 : nomem(d);
}

static int
read_rstat(struct pbs *p, const char *text, size_t len, struct diag *d)
{
	struct rstat rs = { NULL, NULL, 0, 0, 0 };
	const char *s = text, *end = text + len, *nl;
	size_t line = 0;
	char *copy;
	int rc = 0;

	while (rc == 0 && s < end) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if ((copy = strndup(s, nl ? (size_t)(nl - s) :
		    (size_t)(end - s))) == NULL) {
			rc = nomem(d);
			break;
		}
		rc = rstat_line(p, &rs, copy, ++line, d);
		free(copy);
		s = nl ? nl + 1 : end;
	}
	if (rc == 0 && rs.id != NULL)
		rc = end_resv(p, rs.id, rs.line, rs.start, rs.end, rs.nodes, d);
	free(rs.id);
	free(rs.nodes);
	if (rc == 0 && p->nr > 1)
		qsort(p->r, p->nr, sizeof *p->r, resv_cmp);
	return rc;
}

/* A vnode's own "resv": each must be known and start after now. */
static void
check_resv(struct pbs *p, struct vnode *vn)
{
	const char *s = vn->resv;
	struct resv key, *r;
	char id[512];
	size_t n;

	while (vn->ok && s != NULL && *s != '\0') {
		s += strspn(s, ", ");
		if ((n = strcspn(s, ", ")) == 0)
			break;
		if (n >= sizeof id) {
			vn->ok = 0;
			break;
		}
		memcpy(id, s, n);
		id[n] = '\0';
		s += n;
		key.id = id;
		r = p->nr ? bsearch(&key, p->r, p->nr, sizeof key, resv_cmp) :
		    NULL;
		if (r == NULL || r->start <= p->now)
			vn->ok = 0;
		else
			claim(vn, r->start);
	}
}

static int
host_cmp(const void *a, const void *b)
{
	const struct vnode *x = *(const struct vnode *const *)a;
	const struct vnode *y = *(const struct vnode *const *)b;

	return strcmp(x->host, y->host);
}

/* A host is usable when all its vnodes are, until the earliest claim. */
static int
add_hosts(struct pbs *p, struct holes *h, struct diag *d)
{
	struct vnode **ix;
	size_t i, k;

	if (p->nv == 0)
		return 0;
	if ((ix = malloc(p->nv * sizeof *ix)) == NULL)
		return nomem(d);
	for (i = 0; i < p->nv; i++)
		ix[i] = &p->v[i];
	qsort(ix, p->nv, sizeof *ix, host_cmp);
	for (i = 0; i < p->nv; i = k) {
		int ok = 1;
		long long until = 0;
		for (k = i; k < p->nv && strcmp(ix[k]->host, ix[i]->host) == 0;
		    k++) {
			ok &= ix[k]->ok;
			if (ix[k]->until != 0 && (until == 0 ||
			    ix[k]->until < until))
				until = ix[k]->until;
		}
		if (ok && holes_add(h, ix[i]->host, until) < 0) {
			free(ix);
			return nomem(d);
		}
	}
	free(ix);
	return 0;
}

static void
pbs_free(struct pbs *p)
{
	size_t i;

	for (i = 0; i < p->nv; i++)
		free(p->v[i].host);
	free(p->v);
	free(p->j);
	for (i = 0; i < p->nr; i++)
		free(p->r[i].id);
	free(p->r);
}

static int
blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return 0;
	return 1;
}

int
pbs_parse(const struct pbs_opts *po, const char *nodes, size_t nlen,
    const char *jobs, size_t jlen, const char *resvs, size_t rlen,
    struct holes *h, struct diag *d)
{
	struct pbs p;
	json_t *ndoc = NULL, *jdoc = NULL;
	size_t i;
	int rc = -1;

	memset(&p, 0, sizeof p);
	p.own = po->own && *po->own ? po->own : "bf";
	holes_init(h);
	snprintf(h->source, sizeof h->source, "pbs");
	if ((ndoc = load("pbsnodes", nodes, nlen, d)) == NULL ||
	    (!blank(jobs, jlen) && (jdoc = load("qstat", jobs, jlen,
	    d)) == NULL))
		goto out;
	if ((jdoc && read_jobs(&p, jdoc, d) < 0) ||
	    read_nodes(&p, ndoc, d) < 0 || read_estimates(&p, d) < 0 ||
	    read_rstat(&p, resvs, rlen, d) < 0)
		goto out;
	h->time = p.now;
	for (i = 0; i < p.nv; i++)
		check_resv(&p, &p.v[i]);
	if (add_hosts(&p, h, d) == 0)
		rc = holes_finish(h, "pbs", d);
out:
	pbs_free(&p);
	json_decref(ndoc);
	json_decref(jdoc);
	return rc;
}

int
pbs_holes(const struct pbs_opts *po, struct holes *h, struct diag *d)
{
	static const char *const progs[] = { "pbsnodes", "qstat",
	    "pbs_rstat" };
	const char *cmds[3] = { po->pbsnodes, po->qstat, po->rstat };
	const char *args[3] = { "pbsnodes " PBS_PBSNODES_ARGS,
	    "qstat " PBS_QSTAT_ARGS, "pbs_rstat " PBS_RSTAT_ARGS };
	char *out[3] = { NULL, NULL, NULL };
	size_t len[3] = { 0, 0, 0 };
	int i, rc = -1;

	holes_init(h);
	for (i = 0; i < 3; i++)
		if (cmds[i] == NULL && !cmdout_on_path(progs[i]))
			return diag_set(d, EX_UNAVAILABLE, "%s: not found on "
			    "PATH; is PBS installed?", progs[i]);
	for (i = 0; i < 3; i++)
		if (cmdout_run(progs[i], cmds[i] ? cmds[i] : args[i], PBS_HINT,
		    &out[i], &len[i], d) < 0)
			break;
	if (i == 3)
		rc = pbs_parse(po, out[0], len[0], out[1], len[1], out[2],
		    len[2], h, d);
	for (i = 0; i < 3; i++)
		free(out[i]);
	return rc;
}
