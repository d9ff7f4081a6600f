/* libFuzzer: the profile file parser; accepted profiles round-trip. */
#include "fuzz.h"
#include "profile/profile.h"

static char *
rewrite(const char *text, size_t len, size_t *outlen)
{
	struct profile x;
	struct diag d;
	char *out;

	if (profile_parse(&x, "f.yaml", text, len, &d) < 0)
		return NULL;
	if ((out = profile_format(&x, outlen)) == NULL)
		abort();
	profile_free(&x);
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
