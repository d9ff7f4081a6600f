/* libFuzzer: hostlists; whatever parses compresses and parses back equal. */
#include "util/hostlist.h"

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_text(data, size), *c1, *c2, err[256];
	struct hostlist a, b;
	size_t i;

	hostlist_init(&a);
	hostlist_init(&b);
	if (hostlist_parse(&a, buf, err, sizeof err) == 0) {
		hostlist_sort_uniq(&a);
		c1 = hostlist_compress(&a);
		if (c1 == NULL || hostlist_parse(&b, c1, err, sizeof err) < 0)
			abort();
		hostlist_sort_uniq(&b);
		if (a.n != b.n)
			abort();
		for (i = 0; i < a.n; i++)
			if (strcmp(a.names[i], b.names[i]) != 0)
				abort();
		c2 = hostlist_compress(&b);
		if (c2 == NULL || strcmp(c1, c2) != 0)
			abort();
		free(c1);
		free(c2);
	}
	hostlist_free(&a);
	hostlist_free(&b);
	free(buf);
	return 0;
}
