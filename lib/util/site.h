/*
 * NAME
 *	site - the site's settings: which spool a program uses by default
 * SYNOPSIS
 *	struct site_spool s;
 *	if (site_spool(&s, dopt, &d) < 0) ...	(a bad configuration file)
 *	printf("%s (%s)\n", s.path, s.from);
 * DESCRIPTION
 *	A program's spool is, first to last: -d's value (dopt, NULL when
 *	not given); $BF_SPOOL when set and not empty; the spool: of the
 *	site's configuration file; the one built in (make SPOOL=DIR,
 *	SITE_SPOOL, /var/spool/bftrainer unless the build said otherwise).
 *	s->from says which, for messages: "from -d", "from $BF_SPOOL",
 *	"from FILE:LINE" of the configuration, or "built in".
 *
 *	The configuration file is $BF_CONF when set (set empty: none), else
 *	SITE_CONF (make SYSCONFDIR=DIR, /etc/bftrainer.yaml), which may be
 *	missing.  It is a YAML mapping of the keys below, each on
 *	bf-spool(5), SITE; an unknown key is refused, as in a policy, since
 *	a typo there would silently send every program elsewhere:
 *	    spool: /var/spool/bftrainer	(an absolute path)
 *	The file is read whenever a spool is resolved, -d given or not, so
 *	that a bad one is noticed at once by whoever runs any program.
 * DIAGNOSTICS
 *	-1 with d set, code 78: "/etc/bftrainer.yaml:2: unknown key 'spol'",
 *	"/etc/bftrainer.yaml:1: spool must be an absolute path, not 'sp'",
 *	"$BF_CONF: unable to open x.yaml: No such file or directory".
 */
#ifndef BF_SITE_H
#define BF_SITE_H

#include <limits.h>

#include "util/log.h"

#ifndef SITE_SPOOL
#define SITE_SPOOL	"/var/spool/bftrainer"
#endif
#ifndef SITE_CONF
#define SITE_CONF	"/etc/bftrainer.yaml"
#endif

struct site_spool {
	const char *path;	/* dopt, getenv()'s, or one of the buffers */
	const char *from;	/* "from -d", ..., conf_at, "built in" */
	char conf_spool[PATH_MAX];
	char conf_at[PATH_MAX + 32];	/* "from FILE:LINE" of spool: */
};

const char *site_conf_path(void);
int site_spool(struct site_spool *s, const char *dopt, struct diag *d);

#endif
