/*
 * NAME
 *	site - the site's settings: which spool a program uses by default
 * DESCRIPTION
 *	See site.h.  The built-in values come from the Makefile as -D
 *	options on this file alone (SPOOL, SYSCONFDIR), so that a build for
 *	another path recompiles one object.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/file.h"
#include "util/site.h"
#include "util/ydoc.h"

/* Far above any real one: a spool: line and comments. */
#define SITE_MAX_CONF	(64 * 1024)

const char *
site_conf_path(void)
{
	const char *e = getenv("BF_CONF");

	if (e != NULL)
		return *e == '\0' ? NULL : e;
	return SITE_CONF;
}

static int
conf_load(struct site_spool *s, const char *path, struct diag *d)
{
	static const char *const known[] = { "spool", NULL };
	const struct ydoc_node *v;
	struct ydoc doc;
	struct ydoc_keys k;
	char *buf;
	size_t len;
	int rc = -1;

	if (file_read_at(AT_FDCWD, path, SITE_MAX_CONF, 0, &buf, &len,
	    d) < 0) {
		/* The built-in file need not exist; one named must. */
		if (d->code == EX_NOINPUT && getenv("BF_CONF") == NULL)
			return 0;
		if (getenv("BF_CONF") != NULL)
			diag_prefix(d, "$BF_CONF: ");
		d->code = EX_CONFIG;
		return -1;
	}
	if (ydoc_load(&doc, path, buf, len, d) < 0)
		goto out;
	k.doc = &doc;
	k.mode = YDOC_KEYS_REFUSE;
	k.unknown = 0;
	if (doc.root != NULL && ydoc_only_keys(&k, doc.root, known, d) < 0)
		goto done;
	if (doc.root != NULL && (v = ydoc_get(doc.root, "spool")) != NULL) {
		if (ydoc_copy(&doc, v, "spool", s->conf_spool,
		    sizeof s->conf_spool, d) < 0)
			goto done;
		if (s->conf_spool[0] != '/') {
			char shown[68];

			ydoc_excerpt(s->conf_spool, shown, sizeof shown);
			diag_set(d, EX_CONFIG, "%s:%zu: spool must be an "
			    "absolute path, not '%s'", path, v->line, shown);
			goto done;
		}
		snprintf(s->conf_at, sizeof s->conf_at, "from %s:%zu", path,
		    v->line);
		s->path = s->conf_spool;
		s->from = s->conf_at;
	}
	rc = 0;
done:
	ydoc_free(&doc);
out:
	free(buf);
	if (rc < 0)
		d->code = EX_CONFIG;
	return rc;
}

int
site_spool(struct site_spool *s, const char *dopt, struct diag *d)
{
	const char *conf = site_conf_path();
	const char *env = getenv("BF_SPOOL");

	memset(s, 0, sizeof *s);
	s->path = SITE_SPOOL;
	s->from = "built in";
	if (conf != NULL && conf_load(s, conf, d) < 0)
		return -1;
	if (env != NULL && *env != '\0') {
		s->path = env;
		s->from = "from $BF_SPOOL";
	}
	if (dopt != NULL) {
		s->path = dopt;
		s->from = "from -d";
	}
	return 0;
}
