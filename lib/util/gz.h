/*
 * NAME
 *	gz - line reader for plain or gzip-compressed files
 * SYNOPSIS
 *	struct gz g;
 *	if (gz_open(&g, "trace.csv.gz", &d) < 0) ...
 *	while ((n = gz_line(&g, &d)) > 0)
 *		use(g.buf, g.len, g.lineno);
 *	gz_close(&g);
 * DESCRIPTION
 *	Big logs are read as a stream, one line at a time, so memory does not
 *	grow with the file.  zlib reads a file that is not gzip-compressed
 *	unchanged, so the caller never needs to know which it got.  "-" is
 *	the standard input.  gz_line() strips the newline (and a CR before
 *	it).  The logs and traces read this way are text of short lines: a
 *	line longer than GZ_LINE_MAX bytes, or with a NUL byte in it, is an
 *	error, found before more than GZ_LINE_MAX bytes of it are kept.
 * DIAGNOSTICS
 *	gz_open(): -1 with d set, 66 missing or unreadable file, or a
 *	directory.
 *	gz_line(): 1 a line, 0 end of file, -1 with d set: 65 "FILE:LINE:
 *	corrupt compressed data: ...", "FILE:LINE: line longer than 65536
 *	bytes", "FILE:LINE: a NUL byte: binary data, not text"; 74 a read
 *	error.
 */
#ifndef BF_GZ_H
#define BF_GZ_H

#include <stddef.h>

#include "util/log.h"

#define GZ_LINE_MAX	65536

struct gz {
	void *file;		/* gzFile, kept opaque so callers need no zlib.h */
	const char *label;
	char *buf;		/* the line, NUL-terminated */
	size_t len, cap;
	size_t lineno;
	char *in;		/* bytes read ahead */
	size_t inpos, inlen;
	int eof;
};

int gz_open(struct gz *g, const char *path, struct diag *d);
int gz_line(struct gz *g, struct diag *d);
void gz_close(struct gz *g);

#endif
