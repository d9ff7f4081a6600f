/*
 * Inputs the fuzzers of t/fuzz (make fuzz) found, kept as regression tests:
 * each once crashed, broke a round trip, or was undefined behaviour.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "holes.h"
#include "plan.h"
#include "swf.h"
#include "tap.h"

/* A hostlist of bare numbers compresses to "[0-2],n": YAML's list syntax. */
static void
holes_leading_bracket(void)
{
	const char *in = "time: 10\nsource: test\nidle:\n  - nodes: n,[0-2]\n";
	struct holes h, again;
	struct diag d;
	char *text;
	size_t len;

	ok(holes_parse(&h, "h.yaml", in, strlen(in), &d) == 0, "parsed");
	text = holes_format(&h, &len);
	is_str(text, "time: 10\nsource: test\nidle:\n  - nodes: \"[0-2],n\"\n",
	    "a hostlist starting with a bracket is quoted");
	ok(holes_parse(&again, "c.yaml", text, len, &d) == 0 &&
	    again.n == 4 && holes_digest(&again) == holes_digest(&h),
	    "and reads back the same");
	free(text);
	holes_free(&h);
	holes_free(&again);
}

/* A digest with a quote in it was written back unescaped. */
static void
plan_bad_digest(void)
{
	const char *in = "time: 100\ninputs: {holes: 24d99bb70fb\", jobs: "
	    "\"xxh3:a199825cdb20aa19\", state: "
	    "\"xxh3:102c3bf0d7a2e2ac\"}\nsolver: {name: cbc, model: compact, "
	    "status: optimal}\njobs: {}\nfree: \"\"\n";
	struct plan p;
	struct diag d = { 0, "" };

	plan_init(&p);
	ok(plan_parse(&p, "p.yaml", in, strlen(in), &d) < 0 &&
	    d.code == EX_DATAERR, "a plan whose digest is not one is refused");
	is_str(d.text, "p.yaml:2: inputs holes must be xxh3: and 16 hex digits",
	    "with its line");
	plan_free(&p);
}

/* A plan without a holes digest was accepted, then written as "". */
static void
plan_missing_digest(void)
{
	const char *in = "time: 100\ninputs: {jobs: \"xxh3:a199825cdb20aa19\", "
	    "state: \"xxh3:db112517f97897d2\"}\nsolver: {name: cbc}\n"
	    "jobs: {}\nfree: \"\"\n";
	struct plan p;
	struct diag d = { 0, "" };

	plan_init(&p);
	ok(plan_parse(&p, "p.yaml", in, strlen(in), &d) < 0,
	    "a plan without the holes digest is refused");
	is_str(d.text, "p.yaml:2: inputs must give the holes, jobs and state "
	    "digests", "saying which");
	plan_free(&p);
}

/* A log with a header and no job sorted an empty, NULL array. */
static void
swf_no_jobs(void)
{
	const char text[] = "; UnixStartTime: 0\n; MaxNodes: 4\n";
	char path[64];
	struct swf s;
	struct diag d;
	FILE *fp;
	int rc;

	snprintf(path, sizeof path, "/tmp/bf-t0080.%ld.swf", (long)getpid());
	fp = fopen(path, "w");
	fputs(text, fp);
	fclose(fp);
	rc = swf_load(&s, path, &d);
	ok(rc == 0 || d.code == EX_DATAERR, "a log without jobs loads or is "
	    "refused cleanly (%s)", rc == 0 ? "loaded" : d.text);
	if (rc == 0)
		swf_free(&s);
	unlink(path);
}

int
main(void)
{
	holes_leading_bracket();
	plan_bad_digest();
	plan_missing_digest();
	swf_no_jobs();
	return tap_done();
}
