/*
 * NAME
 *	audit - re-solve a plan from history, or list the decisions
 * SYNOPSIS
 *	rc = audit_plan(&sp, "1612915700-0123456789abcdef", stdout, &d);
 *	audit_log(&sp, stdout, &d);
 * DESCRIPTION
 *	audit_plan() makes the plan history/STEM.yaml names (STEM, STEM.yaml
 *	or a path ending in it) again from the inputs its manifest names,
 *	with its own options, and writes "history/STEM.yaml: identical", or
 *	"...: differs; the plan made again:" and that plan, to out.
 *
 *	audit_log() writes one line per enacted plan, in the order enacted
 *	(history_plans()): "STEM objective X: JOB WAS->NODES, ..." for the
 *	jobs whose count changed against the state the plan was made from,
 *	or " hosts only".
 * DIAGNOSTICS
 *	audit_plan(): 0 identical, 1 differs; -1 with d set: 64 not a plan's
 *	name, 65 a damaged history (history/objects a link, an object that
 *	is not what its name says), 66 a plan or input missing.  audit_log()
 *	0, or -1 with d set the same way.
 */
#ifndef BF_AUDIT_H
#define BF_AUDIT_H

#include <stdio.h>

#include "util/log.h"

struct spool;

int audit_plan(struct spool *sp, const char *arg, FILE *out, struct diag *d);
int audit_log(struct spool *sp, FILE *out, struct diag *d);

#endif
