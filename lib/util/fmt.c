/*
 * NAME
 *	fmt - the fixed number and string formats of every file bftrainer writes
 * DESCRIPTION
 *	See fmt.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/fmt.h"

/*
 * An integer below 1e15 in magnitude is what %.15g prints, its digits
 * (exact, no exponent): written here without printf and strtod, since
 * the MPS files are mostly such numbers (0, 1, counts, bounds).
 */
static int
integer(double x, char buf[FMT_DOUBLE_LEN])
{
	char digits[24];
	long long v;
	size_t n = 0, i = 0;

	if (!(fabs(x) < 1e15) || (x == 0 && signbit(x)) ||
	    (double)(v = (long long)x) != x)
		return 0;
	if (v < 0)
		buf[i++] = '-', v = -v;
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	while (n > 0)
		buf[i++] = digits[--n];
	buf[i] = '\0';
	return 1;
}

/*
 * A number with at most 8 decimals and 15 significant digits, between
 * 1e-3 and 1e15 in magnitude (most coefficients of a model: rates times
 * seconds), printed without printf and strtod.  With Y = round(x 10^k),
 * the least k that works: Y / 10^k, a division IEEE rounds correctly,
 * gives back x exactly when x is the double nearest to the decimal D =
 * Y / 10^k.  Then strtod(D) is x, and %.15g prints D: x is within half
 * an ulp of D (1.2e-16 |x|), less than half a step of 15 significant
 * digits (5e-16 |x| at least), so it rounds to D, which has at most 15
 * such digits and, above 1e-4 and below 1e15, no exponent; %g drops the
 * trailing zeros, and the least k leaves none.
 */
static int
decimal(double x, char buf[FMT_DOUBLE_LEN])
{
	static const double pow10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6,
	    1e7, 1e8 };
	char digits[24];
	double a = fabs(x);
	long long y = 0;
	size_t n = 0, i = 0, k, lead;

	if (!(a >= 1e-3 && a < 1e15))
		return 0;
	for (k = 1; k < sizeof pow10 / sizeof pow10[0]; k++) {
		double s = a * pow10[k];
		if (s >= 1e15)
			return 0;
		y = (long long)(s + 0.5);
		if ((double)y / pow10[k] == a)
			break;
	}
	if (k == sizeof pow10 / sizeof pow10[0])
		return 0;
	do
		digits[n++] = (char)('0' + y % 10);
	while ((y /= 10) > 0);
	if (x < 0)
		buf[i++] = '-';
	if (n <= k)		/* 0.000123 */
		buf[i++] = '0';
	while (n > k)
		buf[i++] = digits[--n];
	buf[i++] = '.';
	for (lead = n; lead < k; lead++)
		buf[i++] = '0';
	while (n > 0)
		buf[i++] = digits[--n];
	buf[i] = '\0';
	return 1;
}

const char *
fmt_double(double x, char buf[FMT_DOUBLE_LEN])
{
	if (integer(x, buf) || decimal(x, buf))
		return buf;
	snprintf(buf, FMT_DOUBLE_LEN, "%.15g", x);
	if (strtod(buf, NULL) != x)
		snprintf(buf, FMT_DOUBLE_LEN, "%.17g", x);
	return buf;
}

/*
 * The code point of the UTF-8 sequence at s (its length in *len), when it
 * is one a YAML reader would not give back as it is, written raw: C1
 * controls (U+0085 NEL is a line break to YAML 1.1, the others are not
 * printable), the line and paragraph separators U+2028 and U+2029 (line
 * breaks too), the byte order mark U+FEFF and the non-characters U+FFFE
 * and U+FFFF.  0 for any other sequence.
 */
static unsigned
needs_escape(const unsigned char *s, size_t *len)
{
	unsigned cp;

	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) {
		*len = 2;
		return s[1];
	}
	if (s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9)) {
		*len = 3;
		return 0x2000u | (s[2] & 0x3fu);
	}
	if (s[0] == 0xef && s[1] != '\0' && s[2] != '\0') {
		cp = (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu);
		if (cp == 0xfeff || cp == 0xfffe || cp == 0xffff) {
			*len = 3;
			return cp;
		}
	}
	return 0;
}

void
fmt_yaml_string(FILE *fp, const char *s)
{
	unsigned cp;
	size_t n;

	putc('"', fp);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x80 && (cp = needs_escape((const unsigned char *)s,
		    &n)) != 0) {
			if (cp <= 0xff)
				fprintf(fp, "\\x%02x", cp);
			else
				fprintf(fp, "\\u%04x", cp);
			s += n - 1;
			continue;
		}
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
