#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

#include "util/env.h"

double
env_seconds(const char *name, double dflt, double max, int zero_ok)
{
	const char *s = getenv(name);
	char *end;
	double t;

	if (s == NULL || *s == '\0')
		return dflt;
	t = strtod(s, &end);
	if (*end != '\0' || !(zero_ok ? t >= 0 : t > 0) || !(t <= max))
		return dflt;
	return t;
}

int
env_path_find(const char *prog, char *out, size_t outlen)
{
	const char *path = getenv("PATH"), *p, *colon;
	size_t l;
	int n;

	for (p = path != NULL ? path : "/usr/bin:/bin"; *p != '\0';
	    p = colon + 1) {
		colon = strchr(p, ':');
		l = colon != NULL ? (size_t)(colon - p) : strlen(p);
		n = snprintf(out, outlen, "%.*s/%s", (int)l, p, prog);
		if (l > 0 && n > 0 && (size_t)n < outlen &&
		    access(out, X_OK) == 0)
			return 0;
		if (colon == NULL)
			break;
	}
	return -1;
}
