/* libFuzzer: the plan parser; accepted plans round-trip. */
#include "fuzz.h"
#include "plan.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size), *text, *text2;
	struct plan p, again;
	struct diag d;
	size_t len, len2;

	plan_init(&p);
	if (plan_parse(&p, "p.yaml", buf, size, &d) == 0) {
		text = plan_format(&p, &len);
		plan_init(&again);
		if (text == NULL ||
		    plan_parse(&again, "c.yaml", text, len, &d) < 0)
			abort();
		text2 = plan_format(&again, &len2);
		if (text2 == NULL || len2 != len || memcmp(text, text2, len))
			abort();
		free(text2);
		free(text);
		plan_free(&again);
	}
	plan_free(&p);
	free(buf);
	return 0;
}
