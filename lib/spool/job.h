/*
 * NAME
 *	job - the job file: model, validation and canonical form
 * SYNOPSIS
 *	struct job j;
 *	if (job_parse(&j, "job.yaml", buf, len, 0, &d) < 0) ...
 *	char *text = job_format(&j, &textlen);
 *	job_free(&j);
 * DESCRIPTION
 *	A job file (bf-spool(5)) names a malleable training job: its command,
 *	node range, rescale costs, work, weight and measured scaling, and
 *	optionally a worker command run once per node it holds.
 *	job_parse() checks every field's type and range and reports the first
 *	problem as "FILE:LINE: what"; unknown keys are warned about and ignored.
 *	The keys owner, submitted and source are bftrainer's own: read from
 *	files in jobs/ (JOB_TRUSTED), warned about and ignored in a user's file,
 *	since a job's owner comes from the file's owner, never from its text.
 *
 *	job_format() writes the canonical form that intake stores in jobs/:
 *	keys sorted, every default made explicit, numbers in fixed formats.
 *
 *	Which files of jobs/ (and profiles/) are jobs is decided here, once,
 *	for every program (bf-solve, bf-profile, history.c, and through it
 *	bf-apply and bf-watch): job_file_name() says whether a file name is
 *	NAME.yaml with NAME a valid job name, and gives NAME; job_list()
 *	lists a spool directory's NAMEs by that rule, in name order, and
 *	with JOB_LIST_WARN says of every other name (not starting with '.')
 *	"jobs/F: not a job file (NAME.yaml, NAME a job name), ignored";
 *	job_list_suffix() does the same for NAME + another suffix (the
 *	progress logs, NAME.log).
 *	A job file's name key must then be its NAME (job_check_name()).
 * DIAGNOSTICS
 *	-1 with d set, code 65 for bad content.
 */
#ifndef BF_JOB_H
#define BF_JOB_H

#include <stddef.h>
#include <sys/types.h>

#include "util/hash.h"
#include "util/log.h"

#include "spool/spool.h"

#define JOB_NAME_MAX		64
#define JOB_MAX_NODES		1000000
#define JOB_MAX_POINTS		256	/* scaling points: a bound on a decision's cost */
#define JOB_MAX_COMMAND		65536
#define JOB_MAX_RESCALE		86400.0
#define JOB_DEFAULT_RESCALE_UP	20.0
#define JOB_DEFAULT_RESCALE_DOWN 10.0
#define JOB_MAX_RESTARTS	1000
#define JOB_DEFAULT_RESTARTS	3

#define JOB_TRUSTED	0x1	/* written by bftrainer: read owner keys */
#define JOB_QUIET	0x2	/* do not warn about unknown keys */

#define JOB_LIST_WARN	0x1	/* job_list(): say which names are not */

struct job_point {
	long nodes;
	double rate;		/* samples per second */
};

struct job {
	char name[JOB_NAME_MAX + 1];
	char *command;		/* once per job, on the bftrainer host */
	char *worker;		/* once per node held, NULL when none */
	long worker_restarts;	/* per node, of a worker that failed */
	long min_nodes;
	long max_nodes;
	double rescale_up;	/* seconds of progress lost growing */
	double rescale_down;	/* ... shrinking */
	long long samples;	/* work to finish; 0 = until stopped */
	double weight;
	long slots_per_node;
	size_t npoints;
	struct job_point *points;	/* ascending nodes; none = profile */
	long long owner_uid;	/* -1 unknown */
	long long submitted;	/* unix seconds of intake, 0 unknown */
	char source_file[256];	/* the incoming file's name */
	char source_hash[HASH_TEXT_LEN];
	size_t line;		/* line of the name, for messages */
};

int job_name_valid(const char *name);
int job_file_name(const char *file, char stem[JOB_NAME_MAX + 1]);
int job_list_suffix(const struct spool *sp, enum spool_dir dir,
    const char *suffix, int flags, char ***names, size_t *count,
    struct diag *d);
int job_list(const struct spool *sp, enum spool_dir dir, int flags,
    char ***names, size_t *count, struct diag *d);
int job_check_name(const struct job *j, const char *stem, const char *label,
    struct diag *d);
int job_parse(struct job *j, const char *file, const char *buf, size_t len,
    int flags, struct diag *d);
int job_load_at(struct job *j, int dirfd, const char *name, const char *label,
    int flags, struct diag *d);
char *job_format(const struct job *j, size_t *len);
int job_copy(struct job *to, const struct job *from);
void job_free(struct job *j);

#endif
