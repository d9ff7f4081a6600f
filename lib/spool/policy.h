/*
 * NAME
 *	policy - the administrator's policy file: caps, weights, shares
 * SYNOPSIS
 *	struct policy pol;
 *	policy_parse(&pol, "policy.yaml", buf, len, &d);
 *	double w = policy_weight(&pol, "resnet18", uid);
 *	policy_free(&pol);
 * DESCRIPTION
 *	Optional (bf-solve(1), POLICY FILE):
 *
 *		users:
 *		  alice: {max_nodes: 64, weight: 2}	(a name or a uid)
 *		  1001: {max_nodes: 16}
 *		jobs:
 *		  resnet18: {weight: 3}
 *		groups:
 *		  vision: {jobs: [resnet18, vgg16], min_nodes: 32}
 *		max_rescales: 3
 *		max_rate_per_node: 5000	(samples/s; any job's curve is capped
 *					 at this times n, declared or measured)
 *
 *	Every part is optional.  User names are resolved to uids with
 *	getpwnam(3) when the file is read.  The meaning of each part, as a
 *	constraint of the model, is in solve.c and bf-solve(1).
 * DIAGNOSTICS
 *	-1 with d set, 65 "FILE:LINE: what", e.g. "no such user 'bob'".
 */
#ifndef BF_POLICY_H
#define BF_POLICY_H

#include <stddef.h>

#include "util/log.h"

#include "spool/job.h"

#define POLICY_MAX_FILE	(1024 * 1024)

struct policy_user {
	long long uid;
	long max_nodes;		/* -1: no cap */
	double weight;
	size_t line;
};

struct policy_job {
	char name[JOB_NAME_MAX + 1];
	double weight;
};

struct policy_group {
	char name[JOB_NAME_MAX + 1];
	size_t njobs;
	char (*jobs)[JOB_NAME_MAX + 1];
	long min_nodes;
	size_t line;
};

struct policy {
	char file[256];
	size_t nusers, njobs, ngroups;
	struct policy_user *users;
	struct policy_job *jobs;
	struct policy_group *groups;
	long max_rescales;	/* -1: no cap */
	size_t max_rescales_line;
	double max_rate_per_node;	/* 0: no cap */
};

void policy_init(struct policy *pol);
void policy_free(struct policy *pol);
int policy_parse(struct policy *pol, const char *file, const char *buf,
    size_t len, struct diag *d);
double policy_weight(const struct policy *pol, const char *job,
    long long uid);
const struct policy_user *policy_user(const struct policy *pol,
    long long uid);
int policy_constrains(const struct policy *pol);

#endif
