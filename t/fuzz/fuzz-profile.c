/* libFuzzer: the profile file parser; accepted profiles round-trip. */
#include "fuzz.h"
#include "profile.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size), *text, *text2;
	struct profile p, again;
	struct diag d;
	size_t len, len2;

	if (profile_parse(&p, "p.yaml", buf, size, &d) == 0) {
		/* What is accepted is written, read back and written alike. */
		text = profile_format(&p, &len);
		if (text == NULL ||
		    profile_parse(&again, "c.yaml", text, len, &d) < 0)
			abort();
		text2 = profile_format(&again, &len2);
		if (text2 == NULL || len2 != len || memcmp(text, text2, len))
			abort();
		free(text2);
		free(text);
		profile_free(&again);
		profile_free(&p);
	}
	free(buf);
	return 0;
}
