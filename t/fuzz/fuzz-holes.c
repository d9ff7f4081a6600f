/* libFuzzer: the holes file parser; accepted files round-trip. */
#include "fuzz.h"
#include "spool/holes.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size), *text, *text2;
	struct holes h, again;
	struct diag d;
	size_t len, len2;

	if (holes_parse(&h, "h.yaml", buf, size, &d) == 0) {
		text = holes_format(&h, &len);
		if (text == NULL ||
		    holes_parse(&again, "c.yaml", text, len, &d) < 0)
			abort();
		text2 = holes_format(&again, &len2);
		/* The canonical form is a fixed point. */
		if (text2 == NULL || len2 != len || memcmp(text, text2, len))
			abort();
		if (holes_digest(&h) != holes_digest(&again))
			abort();
		free(text2);
		free(text);
		holes_free(&again);
		holes_free(&h);
	}
	free(buf);
	return 0;
}
