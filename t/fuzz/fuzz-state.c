/* libFuzzer: the state file parser; accepted states round-trip. */
#include "fuzz.h"
#include "state.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size), *text, *text2;
	struct state st, again;
	struct diag d;
	size_t len, len2;

	if (state_parse(&st, "state.yaml", buf, size, &d) == 0) {
		/* What is accepted is written, read back and written alike. */
		text = state_format(&st, &len);
		if (text == NULL ||
		    state_parse(&again, "c.yaml", text, len, &d) < 0)
			abort();
		text2 = state_format(&again, &len2);
		if (text2 == NULL || len2 != len || memcmp(text, text2, len))
			abort();
		free(text2);
		free(text);
		state_free(&again);
		state_free(&st);
	}
	free(buf);
	return 0;
}
