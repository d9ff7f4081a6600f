/* libFuzzer: the plan parser; accepted plans round-trip. */
#include "fuzz.h"
#include "spool/plan.h"

static char *
rewrite(const char *text, size_t len, size_t *outlen)
{
	struct plan x;
	struct diag d;
	char *out;

	plan_init(&x);
	if (plan_parse(&x, "f.yaml", text, len, &d) < 0)
		return NULL;
	if ((out = plan_format(&x, outlen)) == NULL)
		abort();
	plan_free(&x);
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
