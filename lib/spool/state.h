/*
 * NAME
 *	state - the state file: which job holds which nodes now
 * SYNOPSIS
 *	struct state st;
 *	state_parse(&st, "state.yaml", buf, len, &d);
 *	const struct state_job *sj = state_find(&st, "resnet18");
 *	char *text = state_format(&st, &len);
 *	state_free(&st);
 * DESCRIPTION
 *	The state file (bf-spool(5)), written by bf-apply, read by bf-solve:
 *
 *		time: 1612915732
 *		jobs:
 *		  resnet18: {nodes: 2, hosts: "a01n[01-02]"}
 *
 *	A job may also carry the ids of the pilot jobs that hold its nodes
 *	(bf-apply --backend slurm or pbs), one per node, a Slurm job id (a
 *	number) or a PBS one (SEQUENCE.SERVER):
 *
 *		  resnet18: {nodes: 2, hosts: "a01n[01-02]", pilots: {a01n01: 81,
 *		      a01n02: 82}}
 *
 *	(one line in the file); a state without pilots is read as before and
 *	written as before.  pilots is kept as its text, "a01n01: 81, a01n02:
 *	82", set by state_set_pilots() (NULL or "" drops it).
 *
 *	A start or grow that obtained fewer nodes than its plan gave (Slurm:
 *	a pilot that did not run, a node taken meanwhile) leaves them in
 *
 *		unobtained: {holes: "xxh3:...", hosts: "n[4-5]",
 *		    since: 1795918519}
 *
 *	with the digest of the holes file that plan was made from and the
 *	time of the last node added: while the holes file is that one,
 *	bf-solve plans nothing onto them and bf-apply does not try them
 *	again (state_is_unobtained()); a newer holes file makes them usable
 *	again, and so does the time: secs after since, bf-apply drops the
 *	record (state_unobtained_expire(); bf-apply's default is
 *	STATE_UNOBTAINED_SECS), since a holes file may be the same text
 *	again after the node was busy for a while (a main job that ran
 *	between two reads of the scheduler).  state_unobtained() adds nodes
 *	(replacing those of another holes file) and sets since to now; a
 *	record without since (older versions) reads as since 0.
 *
 *	jobs may be absent or empty (nothing runs).  nodes must equal the
 *	number of hosts; a node may be held by one job only.  Jobs are kept
 *	sorted by name, each job's hosts in canonical hostlist order, so
 *	state_format() depends only on the content.  state_add() builds a
 *	state in memory for the writer (a job it refuses is not added); state_remove() drops a job (0 when
 *	it was there, -1 when not).
 * DIAGNOSTICS
 *	-1 with d set, 65 "FILE:LINE: what": "node a01n03 is held by both
 *	a (line 3) and b", "nodes is 3 but hosts names 2 nodes",
 *	"job a is listed twice".
 */
#ifndef BF_STATE_H
#define BF_STATE_H

#include <stddef.h>

#include "util/hash.h"
#include "util/hostlist.h"
#include "util/log.h"

#include "spool/job.h"

#define STATE_MAX_FILE	(64 * 1024 * 1024)

struct state_job {
	char name[JOB_NAME_MAX + 1];
	struct hostlist hosts;	/* canonical order */
	size_t line;
	char *pilots;		/* "NODE: ID, ..." or NULL */
};

struct state {
	long long time;
	size_t n, cap;
	struct state_job *jobs;	/* by name */
	/* Nodes a plan made from these holes could not obtain; n 0: none. */
	struct hostlist unobtained;
	char unobtained_holes[HASH_TEXT_LEN];
	long long unobtained_since;	/* unix time of the last added */
};

/* How long nodes not obtained stay out of a holes file's decisions. */
#define STATE_UNOBTAINED_SECS 60

void state_init(struct state *st);
void state_free(struct state *st);
int state_parse(struct state *st, const char *file, const char *buf,
    size_t len, struct diag *d);
int state_add(struct state *st, const char *name, const char *hostlist,
    struct diag *d);
int state_remove(struct state *st, const char *name);
int state_set_pilots(struct state *st, const char *name, const char *text);
int state_unobtained(struct state *st, const char *holes,
    const struct hostlist *hosts, long long now);
int state_unobtained_expire(struct state *st, long long now, double secs);
int state_is_unobtained(const struct state *st, const char *holes,
    const char *node);
const struct state_job *state_find(const struct state *st, const char *name);
char *state_format(const struct state *st, size_t *len);

#endif
