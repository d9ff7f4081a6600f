/* libFuzzer: the profile file parser. */
#include "fuzz.h"
#include "profile.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct profile p;
	struct diag d;

	if (profile_parse(&p, "p.yaml", buf, size, &d) == 0)
		profile_free(&p);
	free(buf);
	return 0;
}
