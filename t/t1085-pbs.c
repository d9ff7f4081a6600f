/*
 * pbs(3): the time and exec_vnode forms PBS prints, on values from the
 * captures of t/data/pbs and ../shared/data/schedulers/pbs and on the
 * grammar its SOURCES.md gives (chunks, vnodes joined inside one, a
 * vnode[N]), and pbs_parse() on the captured pbsnodes and qstat JSON
 * (diagnostics and the result).
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sched/pbs.h"
#include "tap.h"

static char dir[4096];

/* A file of t/data/pbs, whole; NULL when it cannot be read. */
static char *
slurp(const char *name, size_t *len)
{
	char path[8192], *buf;
	FILE *fp;
	long n;

	snprintf(path, sizeof path, "%s/data/pbs/%s", dir, name);
	if ((fp = fopen(path, "rb")) == NULL)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	if (buf == NULL || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		free(buf);
		fclose(fp);
		return NULL;
	}
	fclose(fp);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

static void
zone(const char *tz)
{
	setenv("TZ", tz, 1);
	tzset();
}

static void
test_time(void)
{
	static const struct {
		const char *tz, *s;
		long long t;	/* -1: refused */
	} cases[] = {
		/* qstat's ctime(): Polaris (Chicago) and CX3 (London). */
		{ "America/Chicago", "Thu Nov  9 13:04:14 2023", 1699556654 },
		{ "Europe/London", "Tue Feb 14 02:10:01 2023", 1676340601 },
		/* pbs_rstat's zero-padded day; Chicago's epoch. */
		{ "America/Chicago", "Wed Aug 06 10:00:00 2025", 1754492400 },
		{ "America/Chicago", "Wed Dec 31 18:00:00 1969", -1 },
		{ "UTC", "UNKNOWN", 0 },
		{ "UTC", "Thu Nov  9 13:04:14 2023 ", -1 },
		{ "UTC", "Fri Nov  9 13:04:14 2023", -1 },	/* a Thursday */
		{ "UTC", "Wed Feb 29 00:00:00 2023", -1 },
		{ "UTC", "Thu Nov 9 13:04 2023", -1 },
		{ "UTC", "2023-11-09T13:04:14", -1 },
		{ "UTC", "Thu Nix  9 13:04:14 2023", -1 },
		{ "UTC", "", -1 },
	};
	size_t i;
	long long t;
	int rc;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		zone(cases[i].tz);
		rc = pbs_time(cases[i].s, &t);
		if (cases[i].t < 0)
			ok(rc < 0, "time '%s' refused", cases[i].s);
		else
			ok(rc == 0 && t == cases[i].t, "time '%s' in %s is %lld "
			    "(got %lld)", cases[i].s, cases[i].tz, cases[i].t,
			    rc == 0 ? t : -1);
	}
}

static void
test_vnodes(void)
{
	static const struct {
		const char *spec, *names;	/* names comma-joined; NULL: refused */
	} cases[] = {
		{ "(cx3-10-8.cx3.hpc.ic.ac.uk:ncpus=4:mem=8388608kb:ngpus=1)",
		    "cx3-10-8.cx3.hpc.ic.ac.uk" },
		{ "(x3006c0s31b1n0:ncpus=1)+(x3006c0s37b0n0:ncpus=1)",
		    "x3006c0s31b1n0,x3006c0s37b0n0" },
		{ "(x4102c5s2b0n0:ncpus=208:ngpus=6)+(<truncated-this-list>)",
		    "x4102c5s2b0n0,<truncated-this-list>" },
		{ "(a:ncpus=2+b:mem=1gb)+(c[0])", "a,b,c[0]" },
		{ "", "" },
		{ "(a:ncpus=1", NULL },
		{ "a:ncpus=1", NULL },
		{ "(a)+", NULL },
		{ "()", NULL },
		{ "(a)(b)", NULL },
	};
	struct hostlist hl;
	char got[512];
	size_t i, k;
	int rc;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		hostlist_init(&hl);
		rc = pbs_vnodes(cases[i].spec, &hl);
		got[0] = '\0';
		for (k = 0; k < hl.n; k++)
			snprintf(got + strlen(got), sizeof got - strlen(got),
			    "%s%s", k ? "," : "", hl.names[k]);
		if (cases[i].names == NULL)
			ok(rc < 0, "exec_vnode '%s' refused", cases[i].spec);
		else
			ok(rc == 0 && strcmp(got, cases[i].names) == 0,
			    "exec_vnode '%s' names %s (got %s)", cases[i].spec,
			    cases[i].names, got);
		hostlist_free(&hl);
	}
}

static void
test_parse(void)
{
	struct pbs_opts po = { "bf", NULL, NULL, NULL };
	struct holes h;
	struct diag d = { 0, "" };
	size_t nlen = 0, qlen = 0, xlen = 0, len;
	char *nodes = slurp("pbsnodes-polaris.json", &nlen);
	char *jobs = slurp("qstat-imperial.json", &qlen);
	char *excerpt = slurp("pbsnodes-polaris.excerpt.txt", &xlen);
	const char *resv = "Resv ID: R1.x\nreserve_start = soon\n";
	char *text;

	ok(nodes && jobs && excerpt, "t/data/pbs read");
	if (!nodes || !jobs || !excerpt)
		goto out;
	zone("America/Chicago");
	ok(pbs_parse(&po, nodes, nlen, jobs, qlen, "", 0, &h, &d) == 0,
	    "the Polaris vnodes with the CX3 jobs");
	text = holes_format(&h, &len);
	is_str(text, "time: 1699630815\nsource: pbs\nidle: []\n",
	    "every vnode in an unknown reservation: none usable");
	free(text);
	holes_free(&h);

	ok(pbs_parse(&po, excerpt, xlen, "", 0, "", 0, &h, &d) < 0 &&
	    d.code == EX_DATAERR, "the excerpt with its \"...\" is refused");
	ok(strncmp(d.text, "pbsnodes:96: ", 13) == 0,
	    "at its line 96 (%s)", d.text);
	ok(pbs_parse(&po, nodes, nlen, jobs, qlen / 2, "", 0, &h, &d) < 0 &&
	    d.code == EX_DATAERR && strncmp(d.text, "qstat:", 6) == 0,
	    "half the qstat output is refused (%s)", d.text);
	ok(pbs_parse(&po, nodes, nlen, "", 0, resv, strlen(resv), &h,
	    &d) < 0 && strcmp(d.text, "pbs_rstat:2: "
	    "reserve_start 'soon' is not a time like 'Wed Aug 06 10:00:00 "
	    "2025'") == 0, "a pbs_rstat time that is not one (%s)", d.text);
out:
	free(nodes);
	free(jobs);
	free(excerpt);
}

int
main(int argc, char **argv)
{
	char self[4096];

	(void)argc;
	snprintf(self, sizeof self, "%s", argv[0]);
	snprintf(dir, sizeof dir, "%s", dirname(self));
	test_time();
	test_vnodes();
	test_parse();
	return tap_done();
}
