/*
 * NAME
 *	gz - line reader for plain or gzip-compressed files
 * DESCRIPTION
 *	See gz.h.  gzgets() fills a fixed buffer; a line longer than it is
 *	collected over several calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "gz.h"

int
gz_open(struct gz *g, const char *path, struct diag *d)
{
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
	g->file = gzdopen(fd, "rb");
	if (g->file == NULL) {
		close(fd);
		return diag_errno(d, ENOMEM, "%s", g->label);
	}
	gzbuffer(g->file, 128 * 1024);
	return 0;
}

static int
grow(struct gz *g, struct diag *d)
{
	size_t cap = g->cap ? 2 * g->cap : 4096;
	char *buf = realloc(g->buf, cap);

	if (buf == NULL)
		return diag_errno(d, ENOMEM, "%s", g->label);
	g->buf = buf;
	g->cap = cap;
	return 0;
}

int
gz_line(struct gz *g, struct diag *d)
{
	int err;

	g->len = 0;
	for (;;) {
		if (g->cap - g->len < 2 && grow(g, d) < 0)
			return -1;
		if (gzgets(g->file, g->buf + g->len, (int)(g->cap - g->len))
		    == NULL)
			break;
		g->len += strlen(g->buf + g->len);
		if (g->len > 0 && g->buf[g->len - 1] == '\n')
			break;
	}
	gzerror(g->file, &err);
	if (err != Z_OK && err != Z_STREAM_END)
		return diag_set(d, EX_DATAERR, "%s:%zu: corrupt compressed "
		    "data: %s", g->label, g->lineno + 1,
		    gzerror(g->file, &err));
	if (g->len == 0)
		return 0;
	g->lineno++;
	if (g->buf[g->len - 1] == '\n')
		g->buf[--g->len] = '\0';
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
	memset(g, 0, sizeof *g);
}
