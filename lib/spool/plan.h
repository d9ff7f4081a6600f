/*
 * NAME
 *	plan - the plan file: how many and which nodes each job gets
 * SYNOPSIS
 *	struct plan p;
 *	char *text = plan_format(&p, &len);
 *	plan_parse(&p, "plans/current.yaml", buf, len, &d);
 *	plan_free(&p);
 * DESCRIPTION
 *	The plan (bf-spool(5), bf-solve(1)):
 *
 *		time: 1612915732
 *		inputs: {holes: "xxh3:...", jobs: "xxh3:...", state: "xxh3:..."}
 *		solver: {name: cbc, model: compact, status: optimal,
 *		    objective: 123.5, seconds: 0.012, tfwd: 10, mps: "..."}
 *		jobs:
 *		  resnet18: {nodes: 4, was: 2, hosts: "a01n[01-04]"}
 *		  vgg16: {nodes: 0, was: 0, note: "..."}
 *		free: "b02n03"
 *
 *	(solver is written on one line.)  Jobs in name order; hostlists
 *	quoted, since '[' is a YAML flow indicator; numbers by fmt_double().
 *	inputs has a policy digest too when a policy was read; solver has
 *	horizon: learnt when tfwd was learnt (solve.h).  plan_parse()
 *	reads back what plan_format() writes, for bf-apply and the tests.
 * DIAGNOSTICS
 *	plan_parse(): -1 with d set, 65 "FILE:LINE: what".
 */
#ifndef BF_PLAN_H
#define BF_PLAN_H

#include <stddef.h>

#include "util/hash.h"
#include "util/hostlist.h"
#include "util/log.h"

#include "spool/job.h"

struct plan_job {
	char name[JOB_NAME_MAX + 1];
	long nodes, was;
	char *hosts;		/* compressed hostlist, NULL when none */
	struct hostlist host_set;	/* hosts, sorted; set by plan_parse */
	char *note;		/* why, when the plan has something to say */
};

struct plan {
	long long time;
	char holes[HASH_TEXT_LEN], jobs_digest[HASH_TEXT_LEN];
	char state[HASH_TEXT_LEN], policy[HASH_TEXT_LEN];	/* "" absent */
	char profiles[HASH_TEXT_LEN];	/* "" when no profile was used */
	char solver[16], model[16], status[128], mps[512];	/* "" absent */
	char curve[16];	/* "scaled" with profiles, "" before 2026-11-25 */
	char profiling[16];	/* with profiles: "probe" (the advisor's
				 * counts; "" before 2026-11-29) or "passive" */
	double objective, seconds, tfwd;
	char horizon[16];	/* how tfwd was chosen: "learnt", "" fixed */
	size_t njobs;
	struct plan_job *jobs;
	char *free;		/* compressed hostlist of unused nodes */
};

void plan_init(struct plan *p);
void plan_free(struct plan *p);
char *plan_format(const struct plan *p, size_t *len);
int plan_parse(struct plan *p, const char *file, const char *buf, size_t len,
    struct diag *d);

#endif
