/*
 * NAME
 *	backend_open - a backend by its name
 * DESCRIPTION
 *	See backend.h.  Apart from backend.c, which every backend calls,
 *	since it is the one function that names them all.
 */
#define _XOPEN_SOURCE 700	/* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply/backend.h"
#include "apply/pilots.h"

int
backend_open(struct backend *b, const char *name, struct spool *sp,
    struct diag *d)
{
	const char *host;

	memset(b, 0, sizeof *b);
	if (strcmp(name, backend_local.name) == 0)
		b->ops = &backend_local;
	else if (strcmp(name, backend_slurm.name) == 0)
		b->ops = &backend_slurm;
	else if (strcmp(name, backend_pbs.name) == 0)
		b->ops = &backend_pbs;
	else if (strcmp(name, backend_shadow.name) == 0)
		b->ops = &backend_shadow;
	else
		return diag_set(d, EX_USAGE, "no such backend '%.64s' (there "
		    "are: local, slurm, pbs, shadow)", name);
	b->sp = sp;
	b->grace = 10;
	if (realpath(sp->path, b->spool_abs) == NULL)
		return diag_errno(d, errno, "unable to resolve %s", sp->path);
	/* Where the nodes reach this host: the site may say (a fabric name). */
	if ((host = getenv("BF_COORD_HOST")) != NULL && *host != '\0') {
		if (strlen(host) >= sizeof b->coord_host ||
		    strspn(host, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		    "0123456789.-:[]") != strlen(host))
			return diag_set(d, EX_CONFIG, "BF_COORD_HOST '%.64s' is "
			    "not a host name or address", host);
		snprintf(b->coord_host, sizeof b->coord_host, "%s", host);
	} else if (gethostname(b->coord_host, sizeof b->coord_host - 1) < 0)
		snprintf(b->coord_host, sizeof b->coord_host, "localhost");
	if (b->ops->pilot != NULL && b->ops->pilot->open != NULL)
		return b->ops->pilot->open(b, d);
	return 0;
}
