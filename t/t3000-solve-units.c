/*
 * t3000-solve-units - the rate curve, the state file and the plan file:
 * each rule of curve.h on hand-computed values, and the writers read back
 * by the readers.
 */
#include <stdlib.h>
#include <string.h>

#include "profile/curve.h"
#include "spool/plan.h"
#include "spool/state.h"
#include "tap.h"

static void
curve(void)
{
	struct job_point up[] = { { 2, 20 }, { 4, 30 } };
	struct job_point steep[] = { { 1, 10 }, { 2, 25 } };
	struct job_point down[] = { { 1, 10 }, { 2, 8 } };
	struct job_point one[] = { { 4, 8 } };

	ok(curve_rate(up, 2, 0) == 0, "r(0) = 0");
	ok(curve_rate(up, 2, 1) == 10, "linear from (0,0) to the first point");
	ok(curve_rate(up, 2, 3) == 25, "linear between points");
	ok(curve_rate(up, 2, 4) == 30, "a measured point is exact");
	ok(curve_rate(up, 2, 6) == 40, "beyond: the last slope (5/node)");
	ok(curve_rate(steep, 2, 4) == 50,
	    "beyond: never above linear from the last point (12.5/node)");
	ok(curve_rate(down, 2, 5) == 8, "beyond: never below the last rate");
	ok(curve_rate(one, 1, 6) == 12, "one point: linear through it");
	ok(curve_rate(NULL, 0, 7) == 7 * CURVE_PROVISIONAL_RATE,
	    "no points: the provisional rate per node");
}

static void
state(void)
{
	const char *text = "time: 7\njobs:\n  b: {nodes: 2, hosts: \"n[2-3]\"}\n"
	    "  a: {nodes: 1, hosts: \"n1\"}\n";
	struct state st, again;
	struct diag d;
	char *out;
	size_t len;

	is_int(state_parse(&st, "st", text, strlen(text), &d), 0,
	    "a state parses");
	is_int(st.n, 2, "two jobs");
	is_str(st.jobs[0].name, "a", "jobs in name order");
	ok(state_find(&st, "b") != NULL && state_find(&st, "c") == NULL,
	    "state_find");
	out = state_format(&st, &len);
	is_str(out, "time: 7\njobs:\n  a: {nodes: 1, hosts: \"n1\"}\n"
	    "  b: {nodes: 2, hosts: \"n[2-3]\"}\n", "the canonical form");
	is_int(state_parse(&again, "st", out, len, &d), 0, "it reads back");
	free(out);
	state_free(&again);
	is_int(state_add(&st, "c", "n3", &d), -1,
	    "state_add refuses a node held twice");
	state_free(&st);
	state_init(&st);
	is_int(state_add(&st, "z", "m[1-2]", &d), 0, "state_add");
	out = state_format(&st, &len);
	is_str(out, "time: 0\njobs:\n  z: {nodes: 2, hosts: \"m[1-2]\"}\n",
	    "a state built in memory");
	free(out);
	state_free(&st);
	is_int(state_parse(&st, "st", "", 0, &d), 0, "an empty file: nothing runs");
	is_int(st.n, 0, "no job");
	state_free(&st);
}

static void
plan(void)
{
	struct plan p, q;
	struct plan_job jobs[2];
	struct diag d;
	char *out, *again;
	size_t len, len2;

	plan_init(&p);
	memset(jobs, 0, sizeof jobs);
	p.time = 5;
	strcpy(p.holes, "xxh3:0000000000000001");
	strcpy(p.jobs_digest, "xxh3:0000000000000002");
	strcpy(p.state, "xxh3:0000000000000003");
	strcpy(p.solver, "cbc");
	strcpy(p.model, "compact");
	strcpy(p.status, "stopped: time limit");
	p.objective = 12.5;
	p.tfwd = 10;
	strcpy(jobs[0].name, "a");
	jobs[0].nodes = 2;
	jobs[0].hosts = "n[1-2]";
	strcpy(jobs[1].name, "b");
	jobs[1].note = "why";
	p.jobs = jobs;
	p.njobs = 2;
	p.free = "n3";
	out = plan_format(&p, &len);
	is_str(out, "time: 5\ninputs: {holes: \"xxh3:0000000000000001\", "
	    "jobs: \"xxh3:0000000000000002\", state: \"xxh3:0000000000000003\"}\n"
	    "solver: {name: cbc, model: compact, status: \"stopped: time limit\", "
	    "objective: 12.5, seconds: 0.000, tfwd: 10}\njobs:\n"
	    "  a: {nodes: 2, was: 0, hosts: \"n[1-2]\"}\n"
	    "  b: {nodes: 0, was: 0, note: \"why\"}\nfree: \"n3\"\n",
	    "the plan format");
	is_int(plan_parse(&q, "plan", out, len, &d), 0, "the plan reads back");
	again = plan_format(&q, &len2);
	is_str(again, out, "and writes the same again");
	free(again);
	free(out);
	plan_free(&q);
}

int
main(void)
{
	curve();
	state();
	plan();
	return tap_done();
}
