/*
 * NAME
 *	profile_spool - the profiles of a spool's jobs, from their progress logs
 * DESCRIPTION
 *	See profile.h.  For each job (every NAME.yaml of jobs/, or those
 *	named), progress/NAME.log is fitted (profile_from_log_alloc()) with
 *	its allocation timeline from history/ when the log has "-" lines,
 *	and profiles/NAME.yaml is replaced only when its text would change,
 *	so that its mtime says when the measurement last moved.  A log that
 *	no job file claims is warned about, never profiled.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/file.h"
#include "util/log.h"

#include "profile/allocs.h"
#include "profile/profile.h"
#include "spool/job.h"
#include "spool/progress.h"
#include "spool/spool.h"

void
profile_print_advice(const struct profile *p, FILE *out)
{
	if (p->next_nodes > 0)
		fprintf(out, "%s %ld %s\n", p->name, p->next_nodes, p->reason);
	else
		fprintf(out, "%s - %s\n", p->name, p->reason);
}

/* profiles/NAME.yaml is replaced only when its text would change. */
static int
store(struct spool *sp, const char *name, const char *text, size_t len,
    struct diag *d)
{
	char file[JOB_NAME_MAX + 8];

	snprintf(file, sizeof file, "%s.yaml", name);
	return spool_replace(sp, SPOOL_PROFILES, file, text, len,
	    PROFILE_MAX_FILE, 0, NULL, NULL, d) < 0 ? -1 : 0;
}

static int
read_log(struct spool *sp, const char *name, char **buf, size_t *len,
    struct diag *d)
{
	char file[JOB_NAME_MAX + 8], label[JOB_NAME_MAX + 24];
	int fd = spool_dirfd(sp, SPOOL_PROGRESS, d);

	if (fd < 0)
		return -1;
	snprintf(file, sizeof file, "%s.log", name);
	snprintf(label, sizeof label, "progress/%s", file);
	return file_read_named(fd, file, label, PROGRESS_MAX_FILE,
	    FILE_NOFOLLOW, buf, len, d);
}

/*
 * The jobs this run profiles, and their allocation timelines: read from
 * history/ for all of them at once, the first time a log needs one.
 */
struct run {
	struct allocs allocs;
	char *const *names;
	size_t nnames;
	struct diag failed;	/* why the history could not be read */
};

/* The timeline of a job whose log has a "-" line; -1 when unreadable. */
static int
timeline_of(struct spool *sp, struct run *r, const char *name,
    struct progress_alloc *t, struct diag *d)
{
	/* allocs_load() sets failed, and leaves nothing loaded, on error. */
	if (r->failed.code == 0 && !r->allocs.loaded)
		(void)allocs_load(&r->allocs, sp, r->names, r->nnames,
		    &r->failed);
	if (r->failed.code != 0) {	/* every such job fails alike */
		*d = r->failed;
		return -1;
	}
	allocs_timeline(&r->allocs, name, t);
	return 0;
}

/* Profiles one job of the spool; a job without a log has no profile. */
static int
profile_job(struct spool *sp, FILE *advise, struct run *r,
    const char *name, struct diag *d)
{
	struct progress_alloc t;
	char file[JOB_NAME_MAX + 8], label[JOB_NAME_MAX + 16], *buf = NULL,
	    *text;
	struct profile p;
	struct job j;
	size_t len;
	int fd, rc;

	snprintf(file, sizeof file, "%s.yaml", name);
	snprintf(label, sizeof label, "jobs/%s", file);
	if ((fd = spool_dirfd(sp, SPOOL_JOBS, d)) < 0 ||
	    job_load_at(&j, fd, file, label, JOB_TRUSTED | JOB_QUIET, d) < 0) {
		if (d->code == EX_NOINPUT)
			diag_set(d, EX_NOINPUT, "no job %s in %s/jobs", name,
			    sp->path);
		return -1;
	}
	if (read_log(sp, name, &buf, &len, d) < 0) {
		job_free(&j);
		if (d->code != EX_NOINPUT)
			return -1;
		if (advise != NULL) {
			memset(&p, 0, sizeof p);
			snprintf(p.name, sizeof p.name, "%s", name);
			profile_advise(&p, j.min_nodes, j.max_nodes);
			profile_print_advice(&p, advise);
		}
		diag_clear(d);
		return 0;
	}
	snprintf(label, sizeof label, "progress/%s.log", name);
	memset(&t, 0, sizeof t);
	if (progress_has_dash(buf, len) &&
	    timeline_of(sp, r, name, &t, d) < 0) {
		free(buf);
		job_free(&j);
		return -1;
	}
	rc = profile_from_log_alloc(&p, name, label, buf, len, &j, &t, d);
	free(buf);
	job_free(&j);
	if (rc < 0)
		return -1;
	if (advise != NULL)
		profile_print_advice(&p, advise);
	text = profile_format(&p, &len);
	profile_free(&p);
	if (text == NULL)
		return diag_errno(d, ENOMEM, "unable to format a profile");
	rc = store(sp, name, text, len, d);
	free(text);
	return rc;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A log nobody's job file claims is warned about, never profiled. */
static void
warn_orphans(const struct spool *sp, char **jobs, size_t njobs)
{
	char **logs;
	size_t nlogs, i;
	struct diag d;

	if (job_list_suffix(sp, SPOOL_PROGRESS, ".log", 0, &logs, &nlogs,
	    &d) < 0)
		return;
	for (i = 0; i < nlogs; i++)
		if (bsearch(&logs[i], jobs, njobs, sizeof *jobs,
		    name_cmp) == NULL)
			log_warn("progress/%s.log:1: no job %s in jobs/, "
			    "ignored", logs[i], logs[i]);
	spool_list_free(logs, nlogs);
}

int
profile_spool(struct spool *sp, char *const *names, size_t nnames,
    FILE *advise)
{
	char **jobs = NULL;
	size_t njobs = 0, i;
	struct diag d;
	struct run r;
	int code = 0;

	diag_clear(&d);
	if (nnames == 0) {
		if (job_list(sp, SPOOL_JOBS, JOB_LIST_WARN, &jobs, &njobs,
		    &d) < 0) {
			log_warn("%s", d.text);
			return d.code;
		}
		warn_orphans(sp, jobs, njobs);
	}
	allocs_init(&r.allocs);
	diag_clear(&r.failed);
	r.names = nnames ? names : jobs;
	r.nnames = nnames ? nnames : njobs;
	for (i = 0; i < r.nnames; i++) {
		diag_clear(&d);
		if (profile_job(sp, advise, &r, r.names[i], &d) < 0) {
			log_warn("%s", d.text);
			if (code == 0)
				code = d.code;
		}
	}
	if (jobs != NULL)
		spool_list_free(jobs, njobs);
	allocs_free(&r.allocs);
	return code;
}
