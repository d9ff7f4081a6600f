/* libFuzzer: the state file parser. */
#include "fuzz.h"
#include "state.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct state st;
	struct diag d;

	if (state_parse(&st, "state.yaml", buf, size, &d) == 0)
		state_free(&st);
	free(buf);
	return 0;
}
