/* libFuzzer: idle-node traces (t_s,node,idle), read to the end. */
#include "fuzz.h"
#include "sched/trace.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	const uint32_t *chg;
	struct trace tr;
	struct diag d;
	long long t;
	size_t n;

	if (trace_open(&tr, path, 0, &d) == 0) {
		while (trace_next(&tr, 1LL << 40, &t, &chg, &n, &d) > 0)
			;
		trace_close(&tr);
	}
	return 0;
}
