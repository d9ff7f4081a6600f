/*
 * NAME
 *	pilot - a pilot job's records and the argv of its commands
 * DESCRIPTION
 *	See pilot.h.
 */
#define _GNU_SOURCE		/* open_memstream */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "util/file.h"

#include "run/pilot.h"
#include "run/rundir.h"

int
pilot_argv_add(struct pilot_argv *a, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (a->n >= PILOT_ARGV_MAX || a->used >= sizeof a->buf)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(a->buf + a->used, sizeof a->buf - a->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof a->buf - a->used)
		return -1;
	a->argv[a->n++] = a->buf + a->used;
	a->argv[a->n] = NULL;
	a->used += (size_t)n + 1;
	return 0;
}

int
pilot_add(struct pilots *p, const char *node, const char *id)
{
	struct pilot *v;

	if ((v = array_grow(p->v, &p->cap, p->n + 1, sizeof *v, 16)) == NULL)
		return -1;
	p->v = v;
	memset(&p->v[p->n], 0, sizeof *p->v);
	snprintf(p->v[p->n].node, sizeof p->v[0].node, "%s", node);
	snprintf(p->v[p->n].id, sizeof p->v[0].id, "%s", id);
	p->n++;
	return 0;
}

void
pilot_remove(struct pilots *p, size_t i)
{
	p->v[i] = p->v[--p->n];
}

void
pilot_free(struct pilots *p)
{
	free(p->v);
	memset(p, 0, sizeof *p);
}

/* run/NAME/pilots: "NODE ID" lines; missing is none. */
int
pilot_load(int rfd, struct pilots *p, struct diag *d)
{
	char *buf, *line, *save, node[HOSTLIST_MAX_NAME + 1], id[PILOT_ID_MAX];
	size_t len;

	memset(p, 0, sizeof *p);
	if (file_read_at(rfd, RUNDIR_PILOTS, 1 << 20, FILE_NOFOLLOW, &buf, &len,
	    d) < 0) {
		if (d->code != EX_NOINPUT)
			return -1;
		diag_clear(d);
		return 0;
	}
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%255s %255s", node, id) == 2 &&
		    id[0] >= '1' && id[0] <= '9' &&
		    pilot_add(p, node, id) < 0) {
			free(buf);
			pilot_free(p);
			return diag_errno(d, ENOMEM, RUNDIR_PILOTS);
		}
	free(buf);
	return 0;
}

/* run/NAME/pilots written whole, through tmpfd (the spool's tmp/). */
int
pilot_save(int tmpfd, int rfd, const struct pilots *p, struct diag *d)
{
	char *buf = NULL;
	size_t size = 0, i;
	FILE *fp = open_memstream(&buf, &size);
	int rc;

	if (fp == NULL)
		return diag_errno(d, ENOMEM, RUNDIR_PILOTS);
	for (i = 0; i < p->n; i++)
		fprintf(fp, "%s %s\n", p->v[i].node, p->v[i].id);
	if (ferror(fp) | fclose(fp)) {
		free(buf);
		return diag_errno(d, ENOMEM, RUNDIR_PILOTS);
	}
	rc = file_write_atomic(tmpfd, rfd, RUNDIR_PILOTS, buf, size, 0644, 0,
	    d);
	free(buf);
	return rc;
}

/*
 * The pilot job that holds host (run/NAME/pilots "NODE ID") into id;
 * 0, or -1 when none is recorded.
 */
int
pilot_of(int rfd, const char *host, char id[PILOT_ID_MAX])
{
	struct pilots p;
	struct diag d;
	size_t i;
	int found = -1;

	if (pilot_load(rfd, &p, &d) < 0)
		return -1;
	for (i = 0; i < p.n && found < 0; i++)
		if (strcmp(p.v[i].node, host) == 0) {
			memcpy(id, p.v[i].id, PILOT_ID_MAX);
			found = 0;
		}
	pilot_free(&p);
	return found;
}
