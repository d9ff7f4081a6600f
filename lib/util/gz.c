/*
 * NAME
 *	gz - line reader for plain or gzip-compressed files
 * DESCRIPTION
 *	See gz.h.  gzread() fills a buffer of GZ_CHUNK bytes, in which lines
 *	are found with memchr(); a line is copied out as it is found, and
 *	never more than GZ_LINE_MAX bytes of it, so memory is bounded
 *	whatever the file holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "util/gz.h"

#define GZ_CHUNK	(64 * 1024)

int
gz_open(struct gz *g, const char *path, struct diag *d)
{
	struct stat st;
	int fd;

	memset(g, 0, sizeof *g);
	g->label = strcmp(path, "-") == 0 ? "(stdin)" : path;
	if (strcmp(path, "-") == 0)
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		/* Missing or unreadable input is 66, whatever the errno. */
		diag_errno(d, errno, "%s", g->label);
		d->code = EX_NOINPUT;
		return -1;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return diag_set(d, EX_NOINPUT, "%s: a directory, not a file",
		    g->label);
	}
	g->in = malloc(GZ_CHUNK);
	g->file = g->in == NULL ? NULL : gzdopen(fd, "rb");
	if (g->file == NULL) {
		close(fd);
		free(g->in);
		g->in = NULL;
		return diag_errno(d, ENOMEM, "%s", g->label);
	}
	gzbuffer(g->file, 128 * 1024);
	return 0;
}

/* More bytes into g->in; 0 at the end of the file. */
static int
fill(struct gz *g, struct diag *d)
{
	int n, err;
	const char *msg;

	if (g->eof)
		return 0;
	n = gzread(g->file, g->in, GZ_CHUNK);
	if (n > 0) {
		g->inpos = 0;
		g->inlen = (size_t)n;
		return 1;
	}
	g->eof = 1;
	msg = gzerror(g->file, &err);
	if (err == Z_ERRNO)
		return diag_errno(d, errno ? errno : EIO, "%s:%zu: unable to "
		    "read", g->label, g->lineno + 1);
	if (n < 0 || (err != Z_OK && err != Z_STREAM_END))
		return diag_set(d, EX_DATAERR, "%s:%zu: corrupt compressed "
		    "data: %s", g->label, g->lineno + 1, msg);
	return 0;
}

/* Room for n more bytes and a NUL in g->buf. */
static int
room(struct gz *g, size_t n, struct diag *d)
{
	size_t cap = g->cap ? g->cap : 4096;
	char *buf;

	if (g->len + n + 1 <= g->cap)
		return 0;
	while (cap < g->len + n + 1)
		cap *= 2;
	buf = realloc(g->buf, cap);
	if (buf == NULL)
		return diag_errno(d, ENOMEM, "%s", g->label);
	g->buf = buf;
	g->cap = cap;
	return 0;
}

int
gz_line(struct gz *g, struct diag *d)
{
	int newline = 0, rc;

	g->len = 0;
	while (!newline) {
		const char *p, *nl;
		size_t take;

		if (g->inpos == g->inlen) {
			if ((rc = fill(g, d)) < 0)
				return -1;
			if (rc == 0)
				break;
		}
		p = g->in + g->inpos;
		nl = memchr(p, '\n', g->inlen - g->inpos);
		take = nl != NULL ? (size_t)(nl - p) : g->inlen - g->inpos;
		if (g->len + take > GZ_LINE_MAX)
			return diag_set(d, EX_DATAERR, "%s:%zu: line longer "
			    "than %d bytes", g->label, g->lineno + 1,
			    GZ_LINE_MAX);
		if (room(g, take, d) < 0)
			return -1;
		memcpy(g->buf + g->len, p, take);
		g->len += take;
		g->inpos += take + (nl != NULL);
		newline = nl != NULL;
	}
	if (g->len == 0 && !newline)
		return 0;
	if (room(g, 0, d) < 0)
		return -1;
	g->buf[g->len] = '\0';
	g->lineno++;
	if (memchr(g->buf, '\0', g->len) != NULL)
		return diag_set(d, EX_DATAERR, "%s:%zu: a NUL byte: binary "
		    "data, not text", g->label, g->lineno);
	if (g->len > 0 && g->buf[g->len - 1] == '\r')
		g->buf[--g->len] = '\0';
	return 1;
}

void
gz_close(struct gz *g)
{
	if (g->file != NULL)
		gzclose(g->file);
	free(g->buf);
	free(g->in);
	memset(g, 0, sizeof *g);
}
