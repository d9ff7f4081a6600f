/*
 * NAME
 *	env - settings a program takes from its environment, and PATH
 * SYNOPSIS
 *	double t = env_seconds("BF_SCHED_TIMEOUT", 30, 86400, 0);
 *	if (env_path_find("sinfo", path, sizeof path) == 0) ...
 * DESCRIPTION
 *	env_seconds() reads the variable name as a number of seconds (what
 *	strtod(3) reads, the whole value): from 0 (when zero_ok) or above 0
 *	(when not) up to max.  Unset, empty or anything else is dflt: these
 *	variables are knobs for tests and sites, whose documented default
 *	stands when one is mistyped.
 *
 *	env_path_find() writes to out the first DIR/prog, DIR taken in the
 *	order of PATH ("/usr/bin:/bin" when unset), that is an executable
 *	file, as execvp(3) would run it; 0 when found, -1 when not (an
 *	empty entry of PATH is skipped, not the current directory).
 */
#ifndef BF_ENV_H
#define BF_ENV_H

#include <stddef.h>

double env_seconds(const char *name, double dflt, double max, int zero_ok);
int env_path_find(const char *prog, char *out, size_t outlen);

#endif
