/*
 * NAME
 *	inputs - the inputs of a decision: which files, their bytes, their
 *	digests, and whether a plan was made from them
 * SYNOPSIS
 *	struct inputs in;
 *	inputs_read(&in, &sp, 0, &d);             (from a spool)
 *	inputs_read_memo(&in, &sp, 0, &memo, &d); (the same, a daemon's)
 *	inputs_read_manifest(&in, hfd, objfd, "TIME-HEX", &d);  (history/)
 *	const char *what = inputs_stale(&in, &plan);    (NULL: it matches)
 *	inputs_free(&in);
 * DESCRIPTION
 *	A decision is made from five inputs: holes/current.yaml, the job
 *	files of jobs/, state.yaml, policy.yaml and the profiles of
 *	profiles/.  This module is the one place that says which files
 *	those are and how each is digested; bf-solve, bf-apply, bf-watch,
 *	bf-audit and the history record all go through it.
 *
 *	Which files: holes/current.yaml (required); state.yaml and
 *	policy.yaml when they exist; in jobs/ every NAME.yaml with NAME a
 *	valid job name (job_list(), job.h; any other name is not an input,
 *	and with INPUTS_WARN it is said); in profiles/ NAME.yaml by the same
 *	rule, and only for a NAME that has a job file (bf-solve applies no
 *	other).  Nothing else is ever an input: not cancel/, not incoming/,
 *	not a dot file.  A job file that goes between the listing and the
 *	read is not an input; one that cannot be read is an error.
 *
 *	Digests, as a plan's inputs: key records them (bf-spool(5)): XXH3-64
 *	of each file's bytes; a missing state.yaml is the empty file; a
 *	missing policy.yaml has no digest; the jobs digest is the XXH3-64 of
 *	the lines "NAME xxh3:HEX\n" in name order (inputs_digest_list()),
 *	the profiles digest likewise, none when there are no profiles.
 *
 *	inputs_read_manifest() reads the same inputs from history/: the
 *	manifest STEM.inputs.yaml names each by its object under
 *	history/objects/ (objfd, -1 when that directory does not exist).
 *	Every object is checked against its name.  A manifest is taken as
 *	written, by any version: jobs and profiles as it lists them.
 *	inputs_read_stored() is its reader of history/NAME and of objects:
 *	a regular file, never through a link, named LABEL in messages; dirfd
 *	-1 is a directory that does not exist.
 *
 *	inputs_read_memo() is inputs_read() for a process that reads the
 *	same spool again and again (bf-watch): memo, kept between calls
 *	(inputs_memo_init(), inputs_memo_free()), holds the bytes last read
 *	of each job file with the file's device, inode, size, modification
 *	and change times.  A job file whose fstatat(2) still says all of
 *	these is taken from the memo, not read again, but only when its
 *	change time lies more than a second before the memo's read of it:
 *	a file written in place after that read has a later change time,
 *	whatever the granularity of the file system's timestamps (the rule
 *	of git's racy index).  The inputs, digests included, are the same as
 *	inputs_read()'s; a job file costs one fstatat(2) instead of five
 *	calls (500 jobs: a quarter of bf-watch's calls in a pass).
 *
 *	inputs_replace_policy() puts a copy of buf in place of the policy
 *	(NULL: no policy), its digest with it: the last good policy that
 *	bf-watch keeps in force of a policy.yaml that does not load.
 *
 *	inputs_stale() compares the digests with the ones a plan records
 *	and names the first input that differs: "holes", "jobs",
 *	"state.yaml", "policy.yaml" or "profiles"; NULL when all match.
 * DIAGNOSTICS
 *	-1 with d set: 66 no holes file (or a missing object), 65 an
 *	unreadable or damaged input or manifest, 71 out of memory.
 */
#ifndef BF_INPUTS_H
#define BF_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#include "util/hash.h"
#include "util/log.h"

#include "spool/job.h"
#include "spool/plan.h"
#include "spool/spool.h"

#define INPUTS_MAX_FILE	(64 * 1024 * 1024)
#define INPUTS_WARN	0x1	/* say which names in jobs/ are not inputs */
#define INPUTS_NO_POLICY 0x2	/* policy.yaml not read: inputs_set_policy() */

struct input_file {
	char name[JOB_NAME_MAX + 1];	/* job name; "" for single files */
	char *buf;
	size_t len;
	uint64_t hash;
};

struct inputs {
	struct input_file holes, state, policy;
	int have_state, have_policy;
	const char *policy_label;	/* inputs_set_policy()'s path, or NULL */
	size_t njobs, nprofiles;
	struct input_file *jobs, *profiles;	/* by name */
	char dig_holes[HASH_TEXT_LEN], dig_jobs[HASH_TEXT_LEN];
	char dig_state[HASH_TEXT_LEN], dig_policy[HASH_TEXT_LEN];
	char dig_profiles[HASH_TEXT_LEN];	/* "" when none */
};

struct inputs_memo_entry;
struct inputs_memo {
	struct inputs_memo_entry *v;	/* by name */
	size_t n, cap;
	unsigned long hits;	/* job files taken from it, not read */
};

int inputs_read(struct inputs *in, struct spool *sp, int flags,
    struct diag *d);
int inputs_read_memo(struct inputs *in, struct spool *sp, int flags,
    struct inputs_memo *memo, struct diag *d);
void inputs_memo_init(struct inputs_memo *m);
void inputs_memo_free(struct inputs_memo *m);
int inputs_read_manifest(struct inputs *in, int hfd, int objfd,
    const char *stem, struct diag *d);
int inputs_read_stored(int dirfd, const char *name, const char *label,
    char **buf, size_t *len, struct diag *d);
int inputs_set_policy(struct inputs *in, const char *path, struct diag *d);
int inputs_replace_policy(struct inputs *in, const char *buf, size_t len,
    struct diag *d);
const char *inputs_stale(const struct inputs *in, const struct plan *p);
int inputs_digest_list(const struct input_file *f, size_t n,
    char out[HASH_TEXT_LEN], struct diag *d);
void inputs_free(struct inputs *in);

#endif
