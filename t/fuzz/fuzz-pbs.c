/*
 * libFuzzer: PBS output for bf-holes --pbs.  The input is pbsnodes' JSON,
 * qstat's JSON and pbs_rstat's text, separated by NUL bytes (a missing
 * part is empty output).  What pbs_parse() accepts must be a holes file
 * that reads back the same: host names it lets through are hostlist names.
 */
#include "fuzz.h"
#include "sched/pbs.h"
#include "spool/holes.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *part[3] = { "", "", "" }, *p = (const char *)data;
	const char *end = p + size, *nul;
	size_t len[3] = { 0, 0, 0 }, tlen;
	struct pbs_opts po = { "bf", NULL, NULL, NULL };
	struct holes h, again;
	struct diag d;
	char *text;
	int i;

	setenv("TZ", "UTC", 1);
	for (i = 0; i < 3 && p <= end; i++) {
		nul = memchr(p, '\0', (size_t)(end - p));
		part[i] = p;
		len[i] = (size_t)((nul ? nul : end) - p);
		p += len[i] + 1;
	}
	if (pbs_parse(&po, part[0], len[0], part[1], len[1], part[2], len[2],
	    &h, &d) == 0) {
		if ((text = holes_format(&h, &tlen)) == NULL ||
		    holes_parse(&again, "pbs.yaml", text, tlen, &d) < 0 ||
		    holes_digest(&again) != holes_digest(&h))
			abort();
		free(text);
		holes_free(&again);
	}
	holes_free(&h);
	return 0;
}
