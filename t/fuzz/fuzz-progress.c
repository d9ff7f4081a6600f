/* libFuzzer: the progress log reader and the profile built from it. */
#include "fuzz.h"
#include "profile/profile.h"
#include "spool/progress.h"

/*
 * progress_has_dash() says no "-" line only if none is there: a timeline
 * that gives every moment a count no line can state (above the 10^6 of a
 * NODES field) then resolves no report.
 */
static void
check_has_dash(const char *buf, size_t size)
{
	static const double time[1] = { -1e300 };
	static const long nodes[1] = { 1234567890L };
	struct progress_alloc t = { 1, time, nodes };
	struct progress pr;
	struct diag d;
	size_t i;

	if (progress_has_dash(buf, size) ||
	    progress_parse_alloc(&pr, "f.log", buf, size, &t, &d) < 0)
		return;
	for (i = 0; i < pr.n; i++)
		if (pr.r[i].nodes == nodes[0])
			abort();
	progress_free(&pr);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct profile p;
	struct diag d;

	if (profile_from_log(&p, "f", "f.log", buf, size, NULL, &d) == 0)
		profile_free(&p);
	check_has_dash(buf, size);
	free(buf);
	return 0;
}
