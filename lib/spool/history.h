/*
 * NAME
 *	history - the spool's inputs, their digests, and the record of
 *	every plan enacted and every job run
 * SYNOPSIS
 *	struct inputs in;  inputs_read(&in, &sp, 0, &d);     (inputs.h)
 *	history_enact(&sp, &in, &parsed, plantext, planlen, &plan, &d);
 *	history_enacted(&sp, plantext, planlen);
 *	history_record_run(&sp, &run, &d);
 *	struct history_plan *plans; size_t n;
 *	history_plans(&sp, &plans, &n, &d);  ...  free(plans);
 * DESCRIPTION
 *	The inputs of a decision are inputs.h's; this module records them.
 *
 *	history_enact() records a plan before its first action: every input
 *	is stored once under history/objects/HEX (HEX its XXH3-64), the plan's
 *	model is copied to history/TIME-HEX.mps, a manifest naming the
 *	objects to history/TIME-HEX.inputs.yaml, and the plan itself, last, to
 *	history/TIME-HEX.yaml (TIME the plan's time, HEX the XXH3-64 of the
 *	plan's text).  The plan copy is the mark that the plan was enacted.
 *	The manifest also says when: "enacted: SECONDS.MICROSECONDS", the
 *	clock when the plan was recorded, a moment before its first action.
 *	Nothing is ever replaced: a file already there is the same content,
 *	or the manifest of an attempt that crashed, kept with its time; the
 *	actions of a plan whose attempt crashed come when bf-apply runs
 *	again, later than its enacted time.
 *
 *	history_plans() lists the plans in history/ in the order they were
 *	enacted: by their manifests' enacted times, then by name.  A plan's
 *	time is that of the holes it was made from, which stays the same
 *	while the idle nodes do, so many plans may share it; a manifest
 *	without an enacted time (written by an older version) counts as
 *	enacted at the plan's time, one that cannot be read likewise, with a
 *	warning.  history_is_plan_name() tells a plan's name, DIGITS-16HEX.yaml,
 *	from the models, manifests, objects and runs beside it.
 *
 *	Before the plan copy, history_enact() appends to history/allocs.idx
 *	the plan's line, "ENACTED STEM NAME=NODES ...", the jobs it gives
 *	nodes (the manifest's enacted time, so a retry after a crash writes
 *	the same line), and syncs it; a missing index is first made from the
 *	plans in history/ (history_plans(), the ones a full reading takes).
 *	bf-profile reads it instead of every plan (allocs.h).
 *
 *	parsed (NULL: none) is the caller's cache of the job files parsed
 *	(job_cache.h): the public part of the manifest (each job's owner and
 *	samples) takes a job from it when it holds the same bytes, instead
 *	of parsing the file again.
 *
 *	history_enact_at() is history_enact() with the enacted time given,
 *	for a writer of a history that replays time (bf-sim --spool).
 *
 *	history_record_run() writes history/runs/STEM.yaml (STEM is
 *	ENDED-NAME-ID, ID the run's supervisor pid, 0 for a record with no
 *	run), the end of one run of a job, with the job file stored as an
 *	object; the run's directory is moved beside it as history/runs/STEM/.
 *	A record is never replaced.  One already at a run's STEM is that
 *	run's, written by an attempt that crashed, and stays as it is.  A
 *	record with no run (ID 0) may be another job's: when STEM.yaml holds
 *	other bytes (two jobs of one name, neither of which ran, ended in
 *	the same second), the record takes the ID HISTORY_RUN_ID_SPARE + k,
 *	k from 1, which no pid reaches, with the first k whose record and
 *	directory are free; r->written says the name taken, for the run's
 *	directory.  The same bytes already there are the record of an
 *	attempt that crashed, and are kept, unless r->fresh says the record
 *	is another job's whatever it holds (two cancelled waiting jobs with
 *	the same file, in the same second, write the same bytes).
 *	history_record_runs() writes several such records (the jobs one plan
 *	stopped), synced as a group, then put in place with one fsync of
 *	history/runs/.
 * DIAGNOSTICS
 *	-1 with d set: 66 missing holes, 65 unreadable input, 73/74/75 write.
 */
#ifndef BF_HISTORY_H
#define BF_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "util/hash.h"
#include "util/log.h"

#include "spool/inputs.h"
#include "spool/job.h"
#include "spool/job_cache.h"
#include "spool/plan.h"
#include "spool/spool.h"

#define HISTORY_MAX_FILE	INPUTS_MAX_FILE

/* ENDED-NAME-ID: 19 digits, a name, 20 digits, two dashes, the NUL. */
#define HISTORY_RUN_STEM_MAX	(JOB_NAME_MAX + 48)
/* PID_MAX_LIMIT: record IDs above it are no run's pid. */
#define HISTORY_RUN_ID_SPARE	4194304LL

struct history_run {
	const char *name;
	const char *stem;	/* TIME-NAME-ID: the record's and run's name */
	char written[HISTORY_RUN_STEM_MAX];	/* the name it took */
	int fresh;		/* another record's, whatever it holds */
	const char *outcome;	/* finished, failed, preempted, lost,
				   cancelled */
	const char *job_buf;	/* the job file, NULL when gone */
	size_t job_len;
	int code, signal;	/* exit status, or the killing signal */
	long long started, ended;
	const char *hosts;	/* its last hostlist */
	long nodes;
	long long cancelled_by;	/* outcome cancelled: the uid who asked */
};

int history_store_object(struct spool *sp, const void *buf, size_t len,
    char hex[HASH_TEXT_LEN], struct diag *d);
int history_subdir(struct spool *sp, const char *name, struct diag *d);
void history_plan_stem(const char *text, size_t len, long long time,
    char *stem, size_t stemlen);
int history_enacted(struct spool *sp, const char *text, size_t len,
    long long time);
/* history/allocs.idx: the allocations of the plans enacted (bf-spool(5)) */
#define HISTORY_INDEX		"allocs.idx"
#define HISTORY_INDEX_HEADER	"# bftrainer allocation index 1\n"
/* TIME (at most 19 digits) "-" 16 hex digits, and the NUL. */
#define HISTORY_STEM_MAX	40

struct history_plan {
	char stem[HISTORY_STEM_MAX];	/* TIME-HEX: history/STEM.yaml */
	long long time;			/* the plan's time, from its name */
	double enacted;			/* unix seconds */
};

int history_is_plan_name(const char *name);
int history_plans(const struct spool *sp, struct history_plan **out, size_t *n,
    struct diag *d);
int history_enact(struct spool *sp, const struct inputs *in,
    const struct job_cache *parsed, const char *text, size_t len,
    const struct plan *p, struct diag *d);
int history_enact_at(struct spool *sp, const struct inputs *in,
    const struct job_cache *parsed, const char *text, size_t len,
    const struct plan *p, const struct timespec *when, struct diag *d);
int history_record_run(struct spool *sp, struct history_run *r,
    struct diag *d);
int history_record_runs(struct spool *sp, struct history_run *r,
    size_t n, struct diag *d);

#endif
