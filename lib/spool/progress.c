/*
 * NAME
 *	progress - the progress log a running job appends to
 * DESCRIPTION
 *	See progress.h.  Three passes: split and check each line, choose the
 *	reports in order (two longest-run selections, O(n log n)), then warn
 *	about every skipped line in file order.  A bad line is parsed again
 *	only to word its warning, so good lines cost one strtod and two
 *	strtoll.
 * DIAGNOSTICS
 *	"a.log:7: time 1612915700 goes backwards (line 6 has 1612915730),
 *	skipped", "a.log:9: not a report 'UNIXTIME NODES SAMPLES': 'oops',
 *	skipped", "a.log:12: line longer than 256 bytes, skipped".
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/ydoc.h"

#include "spool/job.h"
#include "spool/progress.h"

enum status {
	ST_OK, ST_BLANK, ST_PARTIAL, ST_LONG, ST_BAD, ST_DASH,
	ST_TIME_BACK, ST_TIME_AHEAD, ST_SAMPLES_BACK, ST_SAMPLES_AHEAD
};

struct line {
	double time;
	long long samples;
	long nodes;
	size_t off;		/* into the buffer */
	size_t ref;		/* the line an order problem is judged by */
	unsigned char st;
};

#define MAX_TIME	1099511627776.0		/* 2^40 s, as job files */
#define MAX_SAMPLES	1000000000000000000LL

static int
all_digits(const char *s, int dot_ok)
{
	int dots = 0;

	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++) {
		if (*s == '.' && dot_ok && dots++ == 0)
			continue;
		if (*s < '0' || *s > '9')
			return 0;
	}
	return 1;
}

static int
split(char *text, char *field[3])
{
	char *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(text, " \t\r", &save); tok != NULL;
	    tok = strtok_r(NULL, " \t\r", &save)) {
		if (n == 3)
			return -1;
		field[n++] = tok;
	}
	return n == 3 ? 0 : n == 0 ? 1 : -1;
}

/* Words the reason for a bad line into msg when msg is not NULL. */
static enum status
check_fields(char *field[3], struct line *l, char *msg, size_t msglen)
{
	char shown[48];
	long long x;
	int dash;

	errno = 0;
	l->time = strtod(field[0], NULL);
	if (!all_digits(field[0], 1) || errno == ERANGE || l->time > MAX_TIME) {
		if (msg != NULL) {
			ydoc_excerpt(field[0], shown, sizeof shown);
			snprintf(msg, msglen, "time '%s' is not unix seconds",
			    shown);
		}
		return ST_BAD;
	}
	dash = strcmp(field[1], "-") == 0;
	x = dash ? 0 : all_digits(field[1], 0) ? strtoll(field[1], NULL, 10) :
	    -1;
	if (!dash && (x < 1 || x > JOB_MAX_NODES)) {
		if (msg != NULL) {
			ydoc_excerpt(field[1], shown, sizeof shown);
			snprintf(msg, msglen, "nodes '%s' is not a node count "
			    "from 1 to %d", shown, JOB_MAX_NODES);
		}
		return ST_BAD;
	}
	l->nodes = (long)x;
	errno = 0;
	x = all_digits(field[2], 0) ? strtoll(field[2], NULL, 10) : -1;
	if (x < 0 || errno == ERANGE || x > MAX_SAMPLES) {
		if (msg != NULL) {
			ydoc_excerpt(field[2], shown, sizeof shown);
			snprintf(msg, msglen, "samples '%s' is not a whole "
			    "number from 0 to 10^18", shown);
		}
		return ST_BAD;
	}
	l->samples = x;
	return dash ? ST_DASH : ST_OK;
}

static enum status
check_line(const char *p, size_t n, struct line *l, char *msg, size_t msglen)
{
	char text[PROGRESS_LINE_MAX + 1], shown[48], *field[3];
	int rc;

	if (n > PROGRESS_LINE_MAX)
		return ST_LONG;
	memcpy(text, p, n);
	text[n] = '\0';
	if (memchr(p, '\0', n) != NULL) {
		if (msg != NULL)
			snprintf(msg, msglen, "a NUL byte: binary data, not a "
			    "report");
		return ST_BAD;
	}
	rc = split(text, field);
	if (rc == 1)
		return ST_BLANK;
	if (rc < 0) {
		if (msg != NULL) {
			memcpy(text, p, n);
			text[n] = '\0';
			ydoc_excerpt(text, shown, sizeof shown);
			snprintf(msg, msglen, "not a report 'UNIXTIME NODES "
			    "SAMPLES': '%s'", shown);
		}
		return ST_BAD;
	}
	return check_fields(field, l, msg, msglen);
}

static size_t
count_lines(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *nl;
	size_t n = 0;

	while (p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		n++;
		p = nl + 1;
	}
	return n + (p < end);
}

static void
scan(struct line *lines, size_t nlines, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	size_t i;

	for (i = 0; i < nlines; i++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);

		lines[i].off = (size_t)(p - buf);
		lines[i].st = nl == NULL ? ST_PARTIAL :
		    check_line(p, n, &lines[i], NULL, 0);
		p += n + 1;
	}
}

int
progress_has_dash(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *nl;
	struct line l;

	/* Whole lines only: a last one without its newline is not yet. */
	while (p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		if (check_line(p, (size_t)(nl - p), &l, NULL, 0) == ST_DASH)
			return 1;
		p = nl + 1;
	}
	return 0;
}

int
progress_last(const char *buf, size_t len, struct progress_report *out)
{
	const char *end = buf + len, *p;
	struct line l;

	/* Back from the last newline: a last line without one is not yet. */
	while (end > buf && end[-1] != '\n')
		end--;
	while (end > buf) {
		p = end - 1;		/* this line's newline */
		while (p > buf && p[-1] != '\n')
			p--;
		switch (check_line(p, (size_t)(end - 1 - p), &l, NULL, 0)) {
		case ST_OK:
		case ST_DASH:
			out->time = l.time;
			out->samples = l.samples;
			out->nodes = l.nodes;	/* 0 for NODES "-" */
			out->line = 0;	/* the caller may hold only a tail */
			return 0;
		default:
			end = p;
		}
	}
	return -1;
}

int
progress_last_at(int dirfd, const char *name, struct progress_report *out)
{
	char file[JOB_NAME_MAX + 8], buf[4 * PROGRESS_LINE_MAX], *p;
	ssize_t n;
	off_t end, from;
	int fd;

	snprintf(file, sizeof file, "%s.log", name);
	if (dirfd < 0 || (fd = openat(dirfd, file, O_RDONLY | O_NOFOLLOW |
	    O_CLOEXEC | O_NONBLOCK)) < 0)
		return -1;
	end = lseek(fd, 0, SEEK_END);
	from = end > (off_t)sizeof buf ? end - (off_t)sizeof buf : 0;
	n = end < 0 ? -1 : pread(fd, buf, sizeof buf, from);
	close(fd);
	if (n <= 0)
		return -1;
	p = buf;
	/* A tail starts inside a line: only what follows its end counts. */
	if (from > 0 && ((p = memchr(buf, '\n', (size_t)n)) == NULL ||
	    ++p == buf + n))
		return -1;
	return progress_last(p, (size_t)(buf + n - p), out);
}

/* NODES "-": the count of the last allocation at or before the report. */
static void
resolve_dashes(struct line *lines, size_t nlines,
    const struct progress_alloc *alloc)
{
	size_t i;

	if (alloc == NULL || alloc->n == 0)
		return;
	for (i = 0; i < nlines; i++) {
		size_t lo = 0, hi = alloc->n;
		if (lines[i].st != ST_DASH)
			continue;
		while (lo < hi) {	/* first allocation after the report */
			size_t mid = lo + (hi - lo) / 2;
			if (alloc->time[mid] > lines[i].time)
				hi = mid;
			else
				lo = mid + 1;
		}
		if (lo > 0 && alloc->nodes[lo - 1] > 0) {
			lines[i].nodes = alloc->nodes[lo - 1];
			lines[i].st = ST_OK;
		}
	}
}

/* First index in tails[0..n) whose value is above x. */
static size_t
upper_bound(const long double *tails, size_t n, long double x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (tails[mid] > x)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * Marks in keep[] the earliest longest run of key[] that never decreases.
 * len[i] is the longest such run starting at i, found by patience sorting
 * from the end; the run is then taken greedily from the front.
 */
static int
longest_run(const long double *key, size_t n, unsigned char *keep)
{
	long double *tails = malloc((n + 1) * sizeof *tails), last;
	size_t *len = malloc((n + 1) * sizeof *len), ntails = 0, need = 0, i;

	if (tails == NULL || len == NULL) {
		free(tails);
		free(len);
		return -1;
	}
	for (i = n; i-- > 0;) {
		size_t k = upper_bound(tails, ntails, -key[i]);
		tails[k] = -key[i];
		if (k == ntails)
			ntails++;
		len[i] = k + 1;
	}
	need = ntails;
	last = -INFINITY;
	for (i = 0; i < n; i++) {
		keep[i] = need > 0 && len[i] == need && key[i] >= last;
		if (keep[i]) {
			last = key[i];
			need--;
		}
	}
	free(tails);
	free(len);
	return 0;
}

/*
 * One ordering pass over the lines still OK: the dropped ones get status
 * back (below the kept line before them) or ahead (above the one after).
 */
static int
order_pass(struct line *lines, size_t nlines, int by_samples)
{
	size_t *idx = malloc((nlines + 1) * sizeof *idx), n = 0, i, ref;
	long double *key = malloc((nlines + 1) * sizeof *key);
	unsigned char *keep = malloc(nlines + 1);
	int rc = -1;

	if (idx == NULL || key == NULL || keep == NULL)
		goto out;
	for (i = 0; i < nlines; i++)
		if (lines[i].st == ST_OK) {
			idx[n] = i;
			key[n++] = by_samples ? (long double)lines[i].samples :
			    (long double)lines[i].time;
		}
	if (longest_run(key, n, keep) < 0)
		goto out;
	for (i = 0, ref = (size_t)-1; i < n; i++) {
		if (keep[i])
			ref = i;
		else if (ref != (size_t)-1 && key[i] < key[ref]) {
			lines[idx[i]].st = by_samples ? ST_SAMPLES_BACK :
			    ST_TIME_BACK;
			lines[idx[i]].ref = idx[ref];
		}
	}
	for (i = n, ref = (size_t)-1; i-- > 0;) {
		if (keep[i])
			ref = i;
		else if (lines[idx[i]].st == ST_OK && ref != (size_t)-1) {
			lines[idx[i]].st = by_samples ? ST_SAMPLES_AHEAD :
			    ST_TIME_AHEAD;
			lines[idx[i]].ref = idx[ref];
		}
	}
	rc = 0;
out:
	free(idx);
	free(key);
	free(keep);
	return rc;
}

static void
warn_order(const char *label, size_t i, const struct line *l,
    const struct line *ref)
{
	char a[32], b[32];

	if (l->st == ST_TIME_BACK || l->st == ST_TIME_AHEAD) {
		snprintf(a, sizeof a, "%.15g", l->time);
		snprintf(b, sizeof b, "%.15g", ref->time);
		log_warn("%s:%zu: time %s %s (line %zu has %s), skipped", label,
		    i + 1, a, l->st == ST_TIME_BACK ? "goes backwards" :
		    "is later than the next report's", l->ref + 1, b);
	} else
		log_warn("%s:%zu: samples %lld %s (line %zu has %lld), skipped",
		    label, i + 1, l->samples, l->st == ST_SAMPLES_BACK ?
		    "decrease" : "exceed the next report's", l->ref + 1,
		    ref->samples);
}

/* Warns about each skipped line in file order; returns how many. */
static size_t
warn_skipped(const char *label, struct line *lines, size_t nlines,
    const char *buf, size_t len, int have_alloc)
{
	char msg[160];
	size_t i, skipped = 0;

	for (i = 0; i < nlines; i++) {
		struct line *l = &lines[i];
		const char *p = buf + l->off, *nl;

		if (l->st == ST_OK || l->st == ST_BLANK ||
		    l->st == ST_PARTIAL)
			continue;
		if (++skipped > PROGRESS_WARN_MAX)
			continue;
		if (l->st == ST_LONG)
			log_warn("%s:%zu: line longer than %d bytes, skipped",
			    label, i + 1, PROGRESS_LINE_MAX);
		else if (l->st == ST_DASH && !have_alloc)
			log_warn("%s:%zu: NODES '-' needs the allocation "
			    "history (bf-profile -d SPOOL reads history/), "
			    "skipped", label, i + 1);
		else if (l->st == ST_DASH)
			log_warn("%s:%zu: NODES '-' at a time no enacted plan "
			    "gave the job nodes, skipped", label, i + 1);
		else if (l->st == ST_BAD) {
			nl = memchr(p, '\n', len - l->off);
			check_line(p, (size_t)(nl - p), l, msg, sizeof msg);
			log_warn("%s:%zu: %s, skipped", label, i + 1, msg);
		} else
			warn_order(label, i, l, &lines[l->ref]);
	}
	if (skipped > PROGRESS_WARN_MAX)
		log_warn("%s: %zu more lines skipped", label,
		    skipped - PROGRESS_WARN_MAX);
	return skipped;
}

static int
keep_good(struct progress *pr, const struct line *lines, size_t nlines)
{
	size_t i, n = 0;

	for (i = 0; i < nlines; i++)
		n += lines[i].st == ST_OK;
	pr->r = malloc((n + 1) * sizeof *pr->r);
	if (pr->r == NULL)
		return -1;
	for (i = 0; i < nlines; i++) {
		if (lines[i].st != ST_OK)
			continue;
		pr->r[pr->n].time = lines[i].time;
		pr->r[pr->n].samples = lines[i].samples;
		pr->r[pr->n].nodes = lines[i].nodes;
		pr->r[pr->n].line = i + 1;
		pr->n++;
	}
	return 0;
}

int
progress_parse(struct progress *pr, const char *label, const char *buf,
    size_t len, struct diag *d)
{
	return progress_parse_alloc(pr, label, buf, len, NULL, d);
}

int
progress_parse_alloc(struct progress *pr, const char *label, const char *buf,
    size_t len, const struct progress_alloc *alloc, struct diag *d)
{
	size_t nlines = count_lines(buf, len);
	struct line *lines;

	memset(pr, 0, sizeof *pr);
	if (nlines > PROGRESS_MAX_LINES)
		return diag_set(d, EX_DATAERR, "%s: more than %d lines", label,
		    PROGRESS_MAX_LINES);
	lines = calloc(nlines + 1, sizeof *lines);
	if (lines == NULL)
		return diag_errno(d, ENOMEM, "unable to read %s", label);
	scan(lines, nlines, buf, len);
	resolve_dashes(lines, nlines, alloc);
	if (order_pass(lines, nlines, 0) < 0 ||
	    order_pass(lines, nlines, 1) < 0 || keep_good(pr, lines,
	    nlines) < 0) {
		free(lines);
		progress_free(pr);
		return diag_errno(d, ENOMEM, "unable to read %s", label);
	}
	pr->skipped = warn_skipped(label, lines, nlines, buf, len,
	    alloc != NULL);
	free(lines);
	if (pr->n == 0 && pr->skipped == 0)
		log_warn("%s:1: no reports", label);
	return 0;
}

void
progress_free(struct progress *pr)
{
	free(pr->r);
	pr->r = NULL;
	pr->n = 0;
}
