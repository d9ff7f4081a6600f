/* libFuzzer: the policy file parser. */
#include "fuzz.h"
#include "spool/policy.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size);
	struct policy pol;
	struct diag d;

	policy_init(&pol);
	if (policy_parse(&pol, "policy.yaml", buf, size, &d) == 0)
		(void)policy_constrains(&pol);
	policy_free(&pol);
	free(buf);
	return 0;
}
