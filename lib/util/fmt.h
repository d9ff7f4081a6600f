/*
 * NAME
 *	fmt - the fixed number and string formats of every file bftrainer writes
 * SYNOPSIS
 *	char num[FMT_DOUBLE_LEN];
 *	fprintf(fp, "rate: %s\n", fmt_double(5218.8, num));
 *	fmt_yaml_string(fp, command);
 * DESCRIPTION
 *	fmt_double() prints the shortest of %.15g and %.17g that reads back as
 *	the same double, so files are both exact and diffable.
 *	fmt_yaml_string() writes a YAML double-quoted scalar, escaping quotes,
 *	backslashes, control characters (C1 too, U+0085 NEL a line break to
 *	YAML 1.1) and U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF, so any text
 *	reads back unchanged.
 *	fmt_yaml_key_safe() says whether a word can stand unquoted (it would
 *	not read back as a number, boolean or null).
 */
#ifndef BF_FMT_H
#define BF_FMT_H

#include <stdio.h>

#define FMT_DOUBLE_LEN 32

const char *fmt_double(double x, char buf[FMT_DOUBLE_LEN]);
void fmt_yaml_string(FILE *fp, const char *s);
void fmt_yaml_word(FILE *fp, const char *s);
/* A number written in decimal ("12", "-0.5", "1e6"), as strtod() would
 * read it, but not hexadecimal, inf or nan, which it would take too. */
int fmt_is_decimal(const char *s);

#endif
