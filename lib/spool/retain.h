/*
 * NAME
 *	retain - how long rejected/, plans/ and history/ keep what they hold
 * SYNOPSIS
 *	size_t n;
 *	retain_rejected(&sp, time(NULL), 30 * 86400, &n, &d);
 *	retain_models(&sp, 100, &n, &d);
 * DESCRIPTION
 *	The administrator's retention (bf-watch --keep-rejected,
 *	--keep-models; bf-watch(1), bf-spool(5)).  Nothing calls these
 *	unless told to: history/ is otherwise never rewritten.
 *
 *	retain_rejected() removes each refusal of rejected/, the reason
 *	F.err and the file F beside it, once the reason's status changed
 *	more than max_age seconds before now.  The change time is the
 *	moment the reason was given to its submitter, which the submitter,
 *	who owns it, cannot set back (its modification time she could).  A
 *	refused file without its reason (an older version's crash) goes by
 *	its own change time.  A directory (an older version moved some
 *	there) is never removed: said, and its reason kept.
 *
 *	retain_models() keeps the models of the keep newest plans enacted,
 *	history/TIME-HEX.mps in the order of history_plans(), and in plans/
 *	the keep newest models by modification time and the one
 *	plans/current.yaml names; every other model goes.  Plans, manifests,
 *	objects and run records stay: bf-audit(1) rebuilds a model from the
 *	inputs the manifest names, and compares plans, not models.
 *
 *	*removed gets how many refusals, or models, went.
 * DIAGNOSTICS
 *	-1 with d set when a directory cannot be listed; a file that cannot
 *	be removed is said ("retention: unable to remove rejected/F: ...")
 *	and left.
 */
#ifndef BF_RETAIN_H
#define BF_RETAIN_H

#include <stddef.h>
#include <time.h>

#include "util/log.h"

#include "spool/spool.h"

int retain_rejected(struct spool *sp, time_t now, double max_age,
    size_t *removed, struct diag *d);
int retain_models(struct spool *sp, size_t keep, size_t *removed,
    struct diag *d);

#endif
