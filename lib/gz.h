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
 *	it); a line may be of any length.
 * DIAGNOSTICS
 *	gz_open(): -1 with d set, 66 missing or unreadable file.
 *	gz_line(): 1 a line, 0 end of file, -1 with d set (65 corrupt data).
 */
#ifndef BF_GZ_H
#define BF_GZ_H

#include <stddef.h>

#include "log.h"

struct gz {
	void *file;		/* gzFile, kept opaque so callers need no zlib.h */
	const char *label;
	char *buf;
	size_t len, cap;
	size_t lineno;
};

int gz_open(struct gz *g, const char *path, struct diag *d);
int gz_line(struct gz *g, struct diag *d);
void gz_close(struct gz *g);

#endif
