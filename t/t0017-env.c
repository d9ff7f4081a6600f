/*
 * t0017-env - tests for lib/util/env.c: env_seconds() takes a whole
 * number of seconds in its range and the default for anything else;
 * env_path_find() finds what execvp(3) would run, in PATH's order, and
 * skips what is not an executable file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/env.h"

#include "tap.h"

static double
secs(const char *value, double max, int zero_ok)
{
	if (value == NULL)
		unsetenv("BF_T0017");
	else
		setenv("BF_T0017", value, 1);
	return env_seconds("BF_T0017", 7, max, zero_ok);
}

static void
touch(const char *path, mode_t mode)
{
	FILE *fp = fopen(path, "w");

	if (fp != NULL)
		fclose(fp);
	chmod(path, mode);
}

int
main(void)
{
	char dir[] = "/tmp/t0017.XXXXXX", a[64], b[64], c[64], path[256];
	char out[256];

	ok(secs(NULL, 100, 0) == 7, "unset: the default");
	ok(secs("", 100, 0) == 7, "empty: the default");
	ok(secs("2.5", 100, 0) == 2.5, "2.5: 2.5 s");
	ok(secs("100", 100, 0) == 100, "the maximum itself is taken");
	ok(secs("100.5", 100, 0) == 7, "above the maximum: the default");
	ok(secs("0", 100, 0) == 7, "0 where it must be above 0: the default");
	ok(secs("0", 100, 1) == 0, "0 where 0 is allowed: 0");
	ok(secs("-1", 100, 1) == 7, "negative: the default");
	ok(secs("3s", 100, 0) == 7, "a unit after the number: the default");
	ok(secs(" 3", 100, 0) == 3, "leading blanks, as strtod reads them");
	ok(secs("nan", 100, 1) == 7, "nan: the default");
	ok(secs("inf", 1e9, 1) == 7, "inf: the default");
	unsetenv("BF_T0017");

	if (mkdtemp(dir) == NULL)
		return ok(0, "mkdtemp"), tap_done();
	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(b, sizeof b, "%s/b", dir);
	snprintf(c, sizeof c, "%s/c", dir);
	mkdir(a, 0755);
	mkdir(b, 0755);
	mkdir(c, 0755);
	snprintf(path, sizeof path, "%s/prog", a);
	touch(path, 0644);		/* not executable: skipped */
	snprintf(path, sizeof path, "%s/prog", b);
	touch(path, 0755);
	snprintf(path, sizeof path, "%s/prog", c);
	touch(path, 0755);
	snprintf(path, sizeof path, "::%s:%s:%s", a, b, c);
	setenv("PATH", path, 1);
	ok(env_path_find("prog", out, sizeof out) == 0 &&
	    strcmp(out, b) > 0 && strncmp(out, b, strlen(b)) == 0,
	    "the first executable one, empty entries and a plain file "
	    "skipped: %s", out);
	ok(env_path_find("none", out, sizeof out) == -1, "none: -1");
	ok(env_path_find("prog", out, 8) == -1,
	    "no room for the path: not found, never a cut path");
	setenv("PATH", "", 1);
	ok(env_path_find("prog", out, sizeof out) == -1,
	    "an empty PATH: not found");
	unsetenv("PATH");
	ok(env_path_find("sh", out, sizeof out) == 0 &&
	    (strcmp(out, "/usr/bin/sh") == 0 || strcmp(out, "/bin/sh") == 0),
	    "PATH unset: /usr/bin then /bin: %s", out);
	snprintf(path, sizeof path, "rm -rf '%s'", dir);
	if (system(path) != 0)
		diag("could not remove %s", dir);
	return tap_done();
}
