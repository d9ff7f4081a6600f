/*
 * NAME
 *	fuzz.h - what every libFuzzer target of t/fuzz shares
 * DESCRIPTION
 *	Each target feeds one parser the fuzzer's bytes and checks what a
 *	parser must never do: crash, read or write out of bounds, leak, hang,
 *	or accept something it then cannot write back.  scripts/fuzz runs
 *	them with -close_fd_mask=2, so the lenient readers' per-line warnings
 *	do not slow them (libFuzzer keeps its own reports).  Readers that take
 *	a path get the bytes in a file.
 */
#ifndef BF_FUZZ_H
#define BF_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated copy, as the programs read files. */
__attribute__((unused)) static char *
fuzz_text(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);

	if (buf == NULL)
		abort();
	memcpy(buf, data, size);
	buf[size] = '\0';
	return buf;
}

/*
 * The canonical form is a fixed point.  rewrite(text) parses text and
 * writes what it read (NULL when it refuses it); what is accepted must be
 * written as text that is accepted and written again byte for byte.
 */
typedef char *fuzz_rewrite(const char *text, size_t len, size_t *outlen);

__attribute__((unused)) static void
fuzz_fixed_point(const char *buf, size_t size, fuzz_rewrite *rewrite)
{
	char *text, *text2;
	size_t len, len2;

	if ((text = rewrite(buf, size, &len)) == NULL)
		return;
	text2 = rewrite(text, len, &len2);
	if (text2 == NULL || len2 != len || memcmp(text, text2, len) != 0)
		abort();
	free(text2);
	free(text);
}

/* The input in a file of its own, for readers that take a path. */
__attribute__((unused)) static const char *
fuzz_file(const uint8_t *data, size_t size)
{
	static char path[64];
	FILE *fp;

	if (path[0] == '\0')
		snprintf(path, sizeof path, "/tmp/bf-fuzz.%ld", (long)getpid());
	fp = fopen(path, "wb");
	if (fp == NULL || fwrite(data, 1, size, fp) != size || fclose(fp) != 0)
		abort();
	return path;
}

#endif
