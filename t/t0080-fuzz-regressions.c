/*
 * Inputs the fuzzers of t/fuzz (make fuzz) found, kept as regression tests:
 * each once crashed, broke a round trip, or was undefined behaviour.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/profile.h"
#include "sched/pbs.h"
#include "sched/swf.h"
#include "spool/holes.h"
#include "spool/job.h"
#include "spool/plan.h"
#include "spool/policy.h"
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

/*
 * A value holding U+0085 (NEL, from the escape "\N") was written back raw;
 * YAML 1.1 reads that as a line break, so the plan read back differed.
 * Every code point a reader would not give back as it is, written raw, is
 * written as an escape: the C1 controls, U+2028, U+2029, U+FEFF, U+FFFE
 * and U+FFFF.
 */
static void
escapes_round_trip(void)
{
	const char *in = "name: e\ncommand: \"a\\Nb\\x80c\\x9fd\\Le\\Pf"
	    "\\uFEFFg\\uFFFEh\\uFFFFi\\xA0j\\u00e9k\\u2027l\"\nmax_nodes: 1\n";
	const char *want = "command: \"a\\x85b\\x80c\\x9fd\\u2028e\\u2029f"
	    "\\ufeffg\\ufffeh\\uffffi\xc2\xa0j\xc3\xa9k\xe2\x80\xa7l\"\n";
	const char *plan_in = "time: 100\ninputs: {holes: "
	    "\"xxh3:f5fe323dd5e4ade8\", jobs: \"xxh3:a199825cdb20aa19\", "
	    "state: \"xxh3:db112517f97897d2\"}\nsolver: {name: cbc}\njobs:\n"
	    "  a: {nodes: 1, was: 1, hosts: \"n1\", note: \"x\\Ny\"}\n"
	    "free: \"\"\n";
	struct job j, again;
	struct plan p, p2;
	struct diag d;
	char *text, *text2;
	size_t len, len2;
	int reread;

	ok(job_parse(&j, "e.yaml", in, strlen(in), 0, &d) == 0, "job parsed");
	text = job_format(&j, &len);
	ok(text != NULL && strstr(text, want) != NULL,
	    "each such code point is written as an escape, others as they are");
	reread = text != NULL &&
	    job_parse(&again, "c.yaml", text, len, 0, &d) == 0;
	ok(reread && strcmp(again.command, j.command) == 0,
	    "and the command reads back the same");
	text2 = reread ? job_format(&again, &len2) : NULL;
	ok(text2 != NULL && len2 == len && memcmp(text, text2, len) == 0,
	    "format(parse(format(job))) == format(job)");
	free(text), free(text2);
	job_free(&j);
	if (reread)
		job_free(&again);

	plan_init(&p), plan_init(&p2);
	ok(plan_parse(&p, "p.yaml", plan_in, strlen(plan_in), &d) == 0,
	    "a plan whose note holds a NEL is read");
	text = plan_format(&p, &len);
	ok(text != NULL && strstr(text, "note: \"x\\x85y\"") != NULL &&
	    plan_parse(&p2, "c.yaml", text, len, &d) == 0 &&
	    strcmp(p2.jobs[0].note, p.jobs[0].note) == 0,
	    "and written back with it escaped, reading back the same");
	free(text);
	plan_free(&p), plan_free(&p2);
}

/*
 * The same fuzz input had "hosts" that are no hostlist; bf-apply started
 * such a job on what it could make of them.  A plan job's hosts must be a
 * hostlist of exactly its nodes.
 */
static void
plan_bad_hosts(void)
{
	static const struct {
		const char *hosts, *msg;
		long nodes;
	} cases[] = {
		{ "n[2-4bc, model: x]", "p.yaml:6: hosts of job b: bad hostlist "
		    "'n[2-4bc, model: x]': unexpected 'b' in brackets", 3 },
		{ "n[1-2]", "p.yaml:6: hosts of job b name 2 different nodes, "
		    "not 3", 3 },
		{ "n1,n1", "p.yaml:6: hosts of job b name 1 different nodes, "
		    "not 2", 2 },
		{ "n[1-3]", "", 3 },
	};
	char in[512];
	struct plan p;
	struct diag d;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(in, sizeof in, "time: 100\ninputs: {holes: "
		    "\"xxh3:f5fe323dd5e4ade8\", jobs: \"xxh3:a199825cdb20aa19\", "
		    "state: \"xxh3:db112517f97897d2\"}\nsolver: {name: cbc}\n"
		    "jobs:\n  a: {nodes: 0, was: 0}\n"
		    "  b: {nodes: %ld, was: 0, hosts: \"%s\"}\nfree: \"\"\n",
		    cases[i].nodes, cases[i].hosts);
		plan_init(&p);
		d.code = 0, d.text[0] = '\0';
		if (*cases[i].msg == '\0')
			ok(plan_parse(&p, "p.yaml", in, strlen(in), &d) == 0,
			    "hosts '%s' for %ld nodes: read", cases[i].hosts,
			    cases[i].nodes);
		else {
			ok(plan_parse(&p, "p.yaml", in, strlen(in), &d) < 0 &&
			    d.code == EX_DATAERR, "hosts '%s' for %ld nodes: "
			    "refused", cases[i].hosts, cases[i].nodes);
			is_str(d.text, cases[i].msg, "saying why");
		}
		plan_free(&p);
	}
}

/*
 * Text longer than its fixed field was cut to fit: a solver name of 14
 * letters and an e-acute lost the accent's second byte, and the plan was
 * written back as invalid UTF-8 that no parser reads.  A digest with text
 * after it was cut to a valid one.  Every such field now refuses what
 * does not fit whole, and takes what does.
 */
static char *
repeat(char c, size_t n)
{
	char *s = malloc(n + 1);

	if (s == NULL)
		abort();
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

static void
plan_with(const char *solver, const char *holes, const char *msg)
{
	char in[1024], *text;
	struct plan p, again;
	struct diag d = { 0, "" };
	size_t len;

	snprintf(in, sizeof in, "time: 100\ninputs: {holes: \"%s\", "
	    "jobs: \"xxh3:a199825cdb20aa19\", state: \"xxh3:db112517f97897d2\"}"
	    "\nsolver: {name: \"%s\", status: optimal}\njobs: {}\nfree: \"\"\n",
	    holes, solver);
	plan_init(&p);
	if (*msg != '\0') {
		ok(plan_parse(&p, "p.yaml", in, strlen(in), &d) < 0 &&
		    d.code == EX_DATAERR, "plan solver '%s', holes '%s': "
		    "refused", solver, holes);
		is_str(d.text, msg, "saying why");
		return;
	}
	ok(plan_parse(&p, "p.yaml", in, strlen(in), &d) == 0 &&
	    strcmp(p.solver, solver) == 0, "plan solver '%s': read whole",
	    solver);
	text = plan_format(&p, &len);
	plan_init(&again);
	ok(text != NULL && plan_parse(&again, "c.yaml", text, len, &d) == 0 &&
	    strcmp(again.solver, solver) == 0, "and reads back the same");
	free(text);
	plan_free(&again);
	plan_free(&p);
}

static void
long_text_refused(void)
{
	char in[1024], *big;
	struct holes h;
	struct profile pr;
	struct job j;
	struct diag d = { 0, "" };
	int rc;

	plan_with("abcdefghijklmn\xc3\xa9", "xxh3:f5fe323dd5e4ade8",
	    "p.yaml:3: name must be text of at most 15 bytes, not "
	    "'abcdefghijklmn\xc3\xa9'");
	plan_with("abcdefghijklm\xc3\xa9", "xxh3:f5fe323dd5e4ade8", "");
	plan_with("cbc", "xxh3:f5fe323dd5e4ade8ff",
	    "p.yaml:2: holes must be text of at most 21 bytes, not "
	    "'xxh3:f5fe323dd5e4ade8ff'");

	big = repeat('s', 512);
	snprintf(in, sizeof in, "time: 10\nsource: %s\nidle: []\n", big);
	rc = holes_parse(&h, "h.yaml", in, strlen(in), &d);
	ok(rc < 0 && d.code == EX_DATAERR, "a holes source of 512 bytes is "
	    "refused");
	is_str(d.text, "h.yaml:2: source must be text of at most 511 bytes, "
	    "not 'ssssssssssssssssssssssssssssssssssssssssssss...'", "saying why");
	if (rc == 0)
		holes_free(&h);
	big[511] = '\0';
	snprintf(in, sizeof in, "time: 10\nsource: %s\nidle: []\n", big);
	ok(holes_parse(&h, "h.yaml", in, strlen(in), &d) == 0 &&
	    strcmp(h.source, big) == 0, "one of 511 bytes is read whole");
	holes_free(&h);
	free(big);

	big = repeat('r', 128);
	snprintf(in, sizeof in, "name: u\npoints: {1: 100}\nadvise: "
	    "{next_nodes: 2, reason: %s}\n", big);
	rc = profile_parse(&pr, "u.yaml", in, strlen(in), &d);
	ok(rc < 0 && d.code == EX_DATAERR, "an advice reason of 128 bytes is "
	    "refused");
	is_str(d.text, "u.yaml:3: advise reason must be text of at most 127 "
	    "bytes, not 'rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr...'",
	    "saying why");
	if (rc == 0)
		profile_free(&pr);
	free(big);

	big = repeat('f', 256);
	snprintf(in, sizeof in, "name: a\ncommand: x\nsource: {file: %s}\n",
	    big);
	rc = job_parse(&j, "j.yaml", in, strlen(in), JOB_TRUSTED, &d);
	ok(rc < 0 && d.code == EX_DATAERR, "a job source file of 256 bytes "
	    "is refused");
	is_str(d.text, "j.yaml:3: source file must be text of at most 255 "
	    "bytes, not 'ffffffffffffffffffffffffffffffffffffffffffff...'",
	    "saying why");
	if (rc == 0)
		job_free(&j);
	free(big);
}

/* Group names were copied unchecked, cut to 64 bytes and shown raw. */
static void
policy_bad_group_name(void)
{
	const char *in = "groups:\n  \"v\\eis\": {jobs: [a], min_nodes: 1}\n";
	struct policy pol;
	struct diag d = { 0, "" };
	int rc;

	rc = policy_parse(&pol, "pol.yaml", in, strlen(in), &d);
	ok(rc < 0 && d.code == EX_DATAERR, "a group name with an escape is "
	    "refused");
	is_str(d.text, "pol.yaml:2: bad group name 'v?is'", "shown "
	    "harmless");
	if (rc == 0)
		policy_free(&pol);
}

/*
 * fuzz-pbs: a pbsnodes timestamp of 13 digits (1699630830815, the Polaris
 * capture's with digits repeated) was taken as the holes time, which a
 * holes file cannot hold (at most 2^40): written, it did not read back.
 */
static void
pbs_timestamp_too_large(void)
{
	const char *nodes = "{\"timestamp\":1699630830815,\"nodes\":{}}";
	struct pbs_opts po = { "bf", NULL, NULL, NULL };
	struct holes h;
	struct diag d = { 0, "" };

	ok(pbs_parse(&po, nodes, strlen(nodes), "", 0, "", 0, &h, &d) < 0 &&
	    d.code == EX_DATAERR, "a pbsnodes timestamp past 2^40 is refused");
	is_str(d.text, "pbsnodes: no \"timestamp\" of unix seconds",
	    "with the reason");
	holes_free(&h);
}

int
main(void)
{
	holes_leading_bracket();
	plan_bad_digest();
	plan_missing_digest();
	swf_no_jobs();
	escapes_round_trip();
	plan_bad_hosts();
	long_text_refused();
	policy_bad_group_name();
	pbs_timestamp_too_large();
	return tap_done();
}
