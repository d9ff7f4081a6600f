/* libFuzzer: the progress log reader and the profile built from it. */
#include "fuzz.h"
#include "profile.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct profile p;
	struct diag d;

	if (profile_from_log(&p, "f", "f.log", buf, size, NULL, &d) == 0)
		profile_free(&p);
	free(buf);
	return 0;
}
