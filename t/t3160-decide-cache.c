/*
 * decide_load() with a cache (bf-watch): a job file whose bytes are those
 * of the last call is not parsed again, one whose bytes changed is, one
 * gone is forgotten, a refused one leaves the cache as it was, and the
 * plan made from cached jobs is byte for byte the plan made from jobs
 * parsed afresh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"

#include "solve/decide.h"
#include "tap.h"

static void
set_file(struct input_file *f, const char *name, const char *text)
{
	free(f->buf);
	snprintf(f->name, sizeof f->name, "%s", name);
	f->buf = strdup(text);
	f->len = strlen(text);
	f->hash = hash_buf(f->buf, f->len);
}

static const char *job_a = "name: a\ncommand: x\nmax_nodes: 4\n"
    "scaling:\n  1: 100\n  2: 190\n  4: 350\n";
static const char *job_a2 = "name: a\ncommand: x\nmax_nodes: 2\n"
    "scaling:\n  1: 100\n  2: 190\n  4: 350\n";
/* Same length as job_a2, other bytes: only a whole compare tells. */
static const char *job_a3 = "name: a\ncommand: y\nmax_nodes: 2\n"
    "scaling:\n  1: 100\n  2: 190\n  4: 350\n";
static const char *job_b = "name: b\ncommand: x\nmax_nodes: 8\n"
    "scaling:\n  1: 50\n  8: 390\n";

static struct job_cached *
entry(struct job_cache *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->v[i].name, name) == 0)
			return &c->v[i];
	return NULL;
}

/* The plan text from these inputs, with the cache or without (NULL). */
static char *
plan_text(const struct inputs *in, struct job_cache *c, struct diag *d)
{
	struct solve_opts o = SOLVE_OPTS_DEFAULT;
	struct solve s;
	struct plan p;
	char *text = NULL;
	size_t len;

	solve_init(&s);
	if (decide_load(&s, in, DECIDE_CHECK_NAMES, c, d) == 0 &&
	    solve_prepare(&s, &o, d) == 0 && solve_run(&s, &o, d) == 0 &&
	    solve_plan(&s, &o, NULL, &p, d) == 0) {
		p.seconds = 0;
		text = plan_format(&p, &len);
		plan_free(&p);
	}
	solve_free(&s);
	return text;
}

static long
max_nodes(const struct inputs *in, struct job_cache *c, const char *name)
{
	struct solve s;
	struct diag d;
	long v = -1;
	size_t i;

	solve_init(&s);
	if (decide_load(&s, in, DECIDE_CHECK_NAMES, c, &d) == 0)
		for (i = 0; i < s.njobs; i++)
			if (strcmp(s.jobs[i].job.name, name) == 0)
				v = s.jobs[i].job.max_nodes;
	solve_free(&s);
	return v;
}

int
main(void)
{
	struct input_file jobs[2];
	struct job_cache c;
	struct inputs in;
	struct job_cached *e;
	struct diag d;
	struct solve s;
	char *with, *without, *keep_b;
	int rc;

	memset(&in, 0, sizeof in);
	memset(jobs, 0, sizeof jobs);
	set_file(&in.holes, "", "time: 100\nidle:\n  - nodes: n[1-8]\n");
	set_file(&jobs[0], "a", job_a);
	set_file(&jobs[1], "b", job_b);
	in.jobs = jobs;
	in.njobs = 2;
	job_cache_init(&c);

	is_int(max_nodes(&in, &c, "a"), 4, "the first call parses a");
	ok(c.n == 2 && entry(&c, "a") && entry(&c, "b"),
	    "both jobs are cached (%zu)", c.n);
	keep_b = entry(&c, "b")->buf;

	set_file(&jobs[0], "a", job_a2);
	is_int(max_nodes(&in, &c, "a"), 2, "a changed: parsed again");
	ok(entry(&c, "b") && entry(&c, "b")->buf == keep_b,
	    "b unchanged: its cached parse kept, not made again");
	e = entry(&c, "a");
	ok(e && e->len == strlen(job_a2) && memcmp(e->buf, job_a2,
	    e->len) == 0, "a's entry holds its new bytes");

	set_file(&jobs[0], "a", job_a3);
	solve_init(&s);
	rc = decide_load(&s, &in, DECIDE_CHECK_NAMES, &c, &d);
	ok(rc == 0 && s.njobs == 2 && strcmp(s.jobs[0].job.command, "y") == 0,
	    "same length, other bytes: parsed again (command %s)",
	    rc == 0 ? s.jobs[0].job.command : "?");
	solve_free(&s);

	in.njobs = 1;		/* b is gone */
	is_int(max_nodes(&in, &c, "a"), 2, "a alone");
	ok(c.n == 1 && entry(&c, "b") == NULL, "b gone: forgotten (%zu left)",
	    c.n);

	in.njobs = 2;		/* b again: both cached */
	is_int(max_nodes(&in, &c, "b"), 8, "b back");
	set_file(&jobs[0], "a", "name: a\ncommand: x\nmax_nodes: [\n");
	solve_init(&s);
	rc = decide_load(&s, &in, DECIDE_CHECK_NAMES, &c, &d);
	ok(rc < 0 && strstr(d.text, "jobs/a.yaml:4:") != NULL,
	    "a bad job file is refused, named: %s", rc < 0 ? d.text : "");
	solve_free(&s);
	ok(c.n == 2 && entry(&c, "b") != NULL && entry(&c, "a") != NULL,
	    "a refused load forgets nothing, not even what it did not reach "
	    "(%zu)", c.n);

	set_file(&jobs[0], "a", job_a);
	with = plan_text(&in, &c, &d);		/* a and b parsed, cached */
	free(with);
	with = plan_text(&in, &c, &d);		/* both from the cache */
	without = plan_text(&in, NULL, &d);
	ok(with != NULL && without != NULL && strcmp(with, without) == 0,
	    "the plan from cached jobs is the plan from jobs parsed afresh");
	free(with);
	free(without);

	job_cache_free(&c);
	ok(c.n == 0 && c.v == NULL, "the cache freed is empty");
	free(in.holes.buf);
	free(jobs[0].buf);
	free(jobs[1].buf);
	return tap_done();
}
