/*
 * NAME
 *	status - what runs where now, and when each job may finish
 * SYNOPSIS
 *	status_print(&sp, stdout, &d);
 * DESCRIPTION
 *	One screen from a spool (bf-report --now): the time of state.yaml
 *	and of holes/current.yaml, how many idle nodes there are and how
 *	many the jobs hold; for each job in the state its owner, nodes and
 *	hosts, its rate at that count (report_rate(): its profile joined with
 *	its job file's scaling, else the scaling alone; "-" without either),
 *	the samples of the last report in progress/NAME.log, its work, and
 *	an estimate of when it finishes: the last report's time plus the
 *	samples left over that rate.  Then the jobs of jobs/ that wait,
 *	each with the note of plans/current.yaml (why), and the runs of
 *	history/runs/ that ended in the day before the latest moment the
 *	spool records, with where their output is.  Owners are shown by
 *	name; a user who may not read a job file sees its owner from the
 *	owner of its progress log, the rate of profiles/NAME.yaml (public),
 *	else of her own log's last stretch.
 *	It reads only; the text depends only on the spool's files.
 * DIAGNOSTICS
 *	-1 with d set: 65 a bad state, holes, job or profile file
 *	("FILE:LINE: what"), 66 no spool, 71 out of memory.
 */
#ifndef BF_STATUS_H
#define BF_STATUS_H

#include <stdio.h>

#include "util/log.h"

#include "spool/spool.h"

int status_print(const struct spool *sp, FILE *fp, struct diag *d);

#endif
