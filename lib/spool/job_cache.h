/*
 * NAME
 *	jobcache - job files parsed once, kept while their bytes are the same
 * SYNOPSIS
 *	struct job_cache c;  job_cache_init(&c);
 *	if (job_cache_get(&c, "a", buf, len, &job) < 0) {
 *		job_parse(&job, "jobs/a.yaml", buf, len, JOB_TRUSTED, &d);
 *		job_cache_put(&c, "a", buf, len, &job);
 *	}
 *	job_cache_sweep(&c);	(forget the names not got or put since)
 *	job_cache_free(&c);
 * DESCRIPTION
 *	bf-watch parses its 50 job files once, not at every decision (2.5
 *	ms of one) and at every action.  An entry holds a job file's bytes,
 *	compared whole (not only its hash), and a copy of the job parsed
 *	from them.  job_cache_get() gives a copy (the caller's to free) when
 *	the entry of the name holds these bytes: 0; else -1.  job_cache_put()
 *	replaces the name's entry by these bytes and a copy of the job;
 *	without memory it keeps none (the next get parses again).
 *	job_cache_sweep() drops the entries neither got nor put since the
 *	last sweep: their files are gone.  Used by decide.h and apply.h.
 */
#ifndef BF_JOB_CACHE_H
#define BF_JOB_CACHE_H

#include <stddef.h>

#include "spool/job.h"

struct job_cached {
	char name[JOB_NAME_MAX + 1];
	char *buf;		/* the file's bytes, compared whole */
	size_t len;
	struct job job;
	int seen;
};

struct job_cache {
	struct job_cached *v;
	size_t n, cap;
};

void job_cache_init(struct job_cache *c);
int job_cache_get(struct job_cache *c, const char *name, const char *buf,
    size_t len, struct job *out);
const struct job *job_cache_peek(const struct job_cache *c, const char *name,
    const char *buf, size_t len);
void job_cache_put(struct job_cache *c, const char *name, const char *buf,
    size_t len, const struct job *j);
void job_cache_sweep(struct job_cache *c);
void job_cache_free(struct job_cache *c);

#endif
