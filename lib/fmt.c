/*
 * NAME
 *	fmt - the fixed number and string formats of every file bftrainer writes
 * DESCRIPTION
 *	See fmt.h.
 */
#include <stdlib.h>
#include <string.h>

#include "fmt.h"

const char *
fmt_double(double x, char buf[FMT_DOUBLE_LEN])
{
	snprintf(buf, FMT_DOUBLE_LEN, "%.15g", x);
	if (strtod(buf, NULL) != x)
		snprintf(buf, FMT_DOUBLE_LEN, "%.17g", x);
	return buf;
}

void
fmt_yaml_string(FILE *fp, const char *s)
{
	putc('"', fp);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(fp, "\\x%02x", c);
			else
				putc(c, fp);
		}
	}
	putc('"', fp);
}

/* Words that YAML 1.1 readers would turn into something else than text. */
static int
needs_quotes(const char *s)
{
	static const char *const special[] = { "y", "Y", "yes", "Yes", "YES",
	    "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
	    "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null",
	    "Null", "NULL", NULL };
	const char *p;
	int i;

	if (*s == '\0' || *s == '-' || *s == '.' || *s == '+')
		return 1;
	for (i = 0; special[i] != NULL; i++)
		if (strcmp(s, special[i]) == 0)
			return 1;
	for (p = s; *p != '\0'; p++)
		if (!((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' ||
		    *p == 'E' || *p == '_' || *p == '-' || *p == '+' ||
		    *p == ':'))
			break;
	if (*p == '\0')
		return 1;	/* looks like a number, a date or a time */
	for (p = s; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
		    *p == '-' || *p == '/'))
			return 1;
	return 0;
}

void
fmt_yaml_word(FILE *fp, const char *s)
{
	if (needs_quotes(s))
		fmt_yaml_string(fp, s);
	else
		fputs(s, fp);
}

/* Decimal notation only: digits, one point, an exponent; no hex, inf, nan. */
int
fmt_is_decimal(const char *s)
{
	int digits = 0;

	if (*s == '+' || *s == '-')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
		digits++;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits++;
	if (digits == 0)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}
