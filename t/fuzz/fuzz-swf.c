/* libFuzzer: SWF job logs, loaded and swept to the end. */
#include "fuzz.h"
#include "sched/swf.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	const uint32_t *chg;
	struct swf s;
	struct diag d;
	long long t;
	size_t n;
	int rc;

	if (swf_load(&s, path, &d) == 0) {
		if (swf_sweep_init(&s, &d) == 0)
			while ((rc = swf_sweep_next(&s, 1LL << 40, &t, &chg,
			    &n, &d)) > 0)
				;
		swf_free(&s);
	}
	return 0;
}
