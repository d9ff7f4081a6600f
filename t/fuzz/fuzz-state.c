/* libFuzzer: the state file parser; accepted states round-trip. */
#include "fuzz.h"
#include "spool/state.h"

static char *
rewrite(const char *text, size_t len, size_t *outlen)
{
	struct state x;
	struct diag d;
	char *out;

	if (state_parse(&x, "f.yaml", text, len, &d) < 0)
		return NULL;
	if ((out = state_format(&x, outlen)) == NULL)
		abort();
	state_free(&x);
	return out;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);

	fuzz_fixed_point(buf, size, rewrite);
	free(buf);
	return 0;
}
