/* The events(3) API: a replay gives the same sets as starting afresh at
 * each time; arrays ascending; times parsed; errors as diag codes. */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/utc.h"

#include "sched/events.h"
#include "tap.h"

static char dir[4096];

static const char *
data(const char *name)
{
	static char path[8192];

	snprintf(path, sizeof path, "%s/data/holes/%s", dir, name);
	return path;
}

static void
test_times(void)
{
	static const struct {
		const char *s;
		long long t;	/* -1: refused */
	} cases[] = {
		{ "2021-02-10T00:08:52Z", 1612915732 },
		{ "2021-02-10T00:08:52", 1612915732 },
		{ "1612915732", 1612915732 },
		{ "0", 0 },
		{ "1970-01-01T00:00:00Z", 0 },
		{ "2024-02-29T12:00:00Z", 1709208000 },
		{ "2022-12-31T23:59:59Z", 1672531199 },
		{ "2023-02-29T00:00:00Z", -1 },
		{ "2021-02-10 00:08:52", -1 },
		{ "2021-02-10T00:08:52+01:00", -1 },
		{ "2021-13-10T00:08:52Z", -1 },
		{ "yesterday", -1 },
		{ "", -1 },
		{ "12x", -1 },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		long long t = -1;
		int rc = utc_parse(cases[i].s, &t);
		if (cases[i].t < 0)
			ok(rc < 0, "time '%s' refused", cases[i].s);
		else
			is_int(rc == 0 ? t : -2, cases[i].t, "time '%s'",
			    cases[i].s);
	}
}

static int
open_src(struct events **ev, int swf, struct diag *d)
{
	if (swf)
		return events_open_swf(ev, data("theta-2022-head300.swf"), d);
	return events_open_trace(ev, data("summit-c37-b29.csv"), 100, d);
}

/* Replays from..to, checking each event against the running set, then
 * compares the set at every checkpoint with a fresh events_start(). */
static void
test_replay(int swf, long long from, long long to)
{
	struct events *ev, *fresh;
	struct event e, f;
	struct diag d;
	unsigned char *set = NULL;
	size_t cap = 0, nev = 0, bad = 0, mism = 0, i;
	long long last = from;
	int rc;

	if (open_src(&ev, swf, &d) < 0) {
		ok(0, "open: %s", d.text);
		return;
	}
	rc = events_start(ev, from, &e, &d);
	ok(rc == 0 && e.time == from && e.nleave == 0, "%s: start at %lld",
	    swf ? "swf" : "trace", from);
	do {
		size_t need = events_nodes(ev);
		if (need > cap) {
			set = realloc(set, need);
			memset(set + cap, 0, need - cap);
			cap = need;
		}
		for (i = 0; i < e.njoin; i++) {
			bad += set[e.join[i]] || (i && e.join[i] <= e.join[i - 1]);
			set[e.join[i]] = 1;
		}
		for (i = 0; i < e.nleave; i++) {
			bad += !set[e.leave[i]] ||
			    (i && e.leave[i] <= e.leave[i - 1]);
			set[e.leave[i]] = 0;
		}
		bad += nev > 0 && (e.time <= last || e.njoin + e.nleave == 0);
		last = e.time;
		if (nev++ % 17 == 5) {
			/* A fresh stream started here must agree. */
			size_t n = 0;
			if (open_src(&fresh, swf, &d) < 0 ||
			    events_start(fresh, e.time, &f, &d) < 0) {
				mism++;
				continue;
			}
			for (i = 0; i < cap; i++)
				n += set[i];
			mism += n != f.njoin;
			for (i = 0; i < f.njoin; i++)
				mism += f.join[i] >= cap || !set[f.join[i]] ||
				    strcmp(events_name(fresh, f.join[i]),
				    events_name(ev, f.join[i])) != 0;
			events_close(fresh);
		}
	} while ((rc = events_next(ev, to, &e, &d)) > 0);
	is_int(rc, 0, "%s: the stream ends cleanly", swf ? "swf" : "trace");
	is_int(bad, 0, "%s: joins were not idle, leaves were, ascending, "
	    "times rising, no empty events", swf ? "swf" : "trace");
	is_int(mism, 0, "%s: the running set equals a fresh start",
	    swf ? "swf" : "trace");
	ok(nev > 20, "%s: %zu events", swf ? "swf" : "trace", nev);
	ok(last <= to, "%s: no event after to", swf ? "swf" : "trace");
	free(set);
	events_close(ev);
}

static void
test_names(void)
{
	struct events *ev;
	struct event e;
	struct diag d;

	if (open_src(&ev, 1, &d) < 0) {
		ok(0, "open: %s", d.text);
		return;
	}
	is_int(events_nodes(ev), 4360, "swf: the header's machine size");
	is_str(events_name(ev, 0), "nid0001", "swf: first node name");
	is_str(events_name(ev, 4359), "nid4360", "swf: last node name");
	ok(events_name(ev, 4360) == NULL, "swf: no node beyond the machine");
	events_start(ev, 0, &e, &d);
	is_int(e.njoin, 4360, "swf: before the log every node is idle");
	events_close(ev);
}

static void
test_errors(void)
{
	struct events *ev;
	struct diag d;

	diag_clear(&d);
	is_int(events_open_trace(&ev, "/nonexistent/t.csv", 0, &d), -1,
	    "missing trace");
	is_int(d.code, 66, "missing trace is EX_NOINPUT");
	ok(ev == NULL, "no stream on failure");
	diag_clear(&d);
	is_int(events_open_swf(&ev, "/dev/null", &d), -1, "empty log");
	is_int(d.code, 65, "empty log is EX_DATAERR");
	is_str(d.text, "/dev/null: empty file, not a job log", "its message");
}

int
main(int argc, char **argv)
{
	char self[4096];

	(void)argc;
	snprintf(self, sizeof self, "%s", argv[0]);
	snprintf(dir, sizeof dir, "%s", dirname(self));
	test_times();
	test_names();
	test_replay(0, 0, 99999999);
	test_replay(0, 700000, 900000);
	test_replay(1, 1641000000, 1642000000);
	test_replay(1, 1641300000, 1641400000);
	test_errors();
	return tap_done();
}
