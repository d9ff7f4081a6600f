/* The holes file model: parse, canonical format, digest, errors. */
#include <stdlib.h>
#include <string.h>

#include "spool/holes.h"
#include "tap.h"

static char *
roundtrip(const char *in, struct diag *d)
{
	struct holes h;
	size_t len;
	char *out;

	if (holes_parse(&h, "h.yaml", in, strlen(in), d) < 0)
		return NULL;
	out = holes_format(&h, &len);
	holes_free(&h);
	return out;
}

static void
test_format(void)
{
	struct diag d;
	char *out = roundtrip("time: 1612915732\nsource: slurm\nidle:\n"
	    "  - nodes: c03n02,a01n[02-03]\n    until: 1612919332\n"
	    "  - nodes: b02n03,a01n01\n  - nodes: a01n04\n    until: 1612919000\n",
	    &d);

	is_str(out, "time: 1612915732\nsource: slurm\nidle:\n"
	    "  - nodes: a01n01,b02n03\n"
	    "  - nodes: a01n04\n    until: 1612919000\n"
	    "  - nodes: a01n[02-03],c03n02\n    until: 1612919332\n",
	    "grouped by until, unknown first, hostlists compressed");
	free(out);
	out = roundtrip("time: 5\nsource: \"swf:theta.swf\"\nidle: []\n", &d);
	is_str(out, "time: 5\nsource: \"swf:theta.swf\"\nidle: []\n",
	    "no idle nodes; a source with a colon is quoted");
	free(out);
	out = roundtrip("time: 5\nsource: slurm\n", &d);
	is_str(out, "time: 5\nsource: slurm\nidle: []\n", "idle absent");
	free(out);
}

static void
test_digest(void)
{
	const char *a = "time: 1\nsource: slurm\nidle:\n  - nodes: n[1-4]\n";
	const char *b = "time: 2\nsource: slurm\nidle:\n  - nodes: n4,n[1-3]\n";
	const char *c = "time: 1\nsource: slurm\nidle:\n  - nodes: n[1-4]\n"
	    "    until: 9\n";
	struct holes ha, hb, hc;
	struct diag d;

	holes_parse(&ha, "a", a, strlen(a), &d);
	holes_parse(&hb, "b", b, strlen(b), &d);
	holes_parse(&hc, "c", c, strlen(c), &d);
	ok(holes_digest(&ha) == holes_digest(&hb),
	    "digest ignores time and spelling");
	ok(holes_digest(&ha) != holes_digest(&hc), "digest sees until");
	ok(holes_find(&ha, "n3") != NULL && holes_find(&ha, "n5") == NULL,
	    "holes_find");
	holes_free(&ha);
	holes_free(&hb);
	holes_free(&hc);
}

static void
test_errors(void)
{
	static const struct {
		const char *in, *msg;
	} cases[] = {
		{ "idle: []\n", "h.yaml:1: time is missing" },
		{ "- 1\n", "h.yaml:1: a holes file must be a mapping with time, "
		    "source and idle" },
		{ "time: x\n", "h.yaml:1: time must be a whole number from 0 to "
		    "1099511627776, not 'x'" },
		{ "time: 1\nidle: n1\n", "h.yaml:2: idle must be a list of "
		    "entries with nodes" },
		{ "time: 1\nidle:\n  - until: 5\n", "h.yaml:3: each idle entry "
		    "must be a mapping with nodes (and until)" },
		{ "time: 1\nidle:\n  - nodes: a[3-1]\n", "h.yaml:3: bad "
		    "hostlist 'a[3-1]': range 3-1 runs backwards" },
		{ "time: 1\nidle:\n  - nodes: n[1-3]\n  - nodes: n2\n",
		    "h.yaml:4: node n2 is listed twice" },
		{ "time: 1\nidle:\n  - nodes: n1\n    until: -4\n",
		    "h.yaml:4: until must be a whole number from 1 to "
		    "1099511627776, not '-4'" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct holes h;
		struct diag d = { 0, "" };
		int rc = holes_parse(&h, "h.yaml", cases[i].in,
		    strlen(cases[i].in), &d);
		ok(rc == -1 && d.code == EX_DATAERR, "refused: %s",
		    cases[i].msg);
		is_str(d.text, cases[i].msg, "message");
	}
}

int
main(void)
{
	test_format();
	test_digest();
	test_errors();
	return tap_done();
}
