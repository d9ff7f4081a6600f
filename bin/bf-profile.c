/*
 * NAME
 *	bf-profile - progress logs to profiles
 * SYNOPSIS
 *	bf-profile [-hV] [--advise] [-d SPOOL] [JOB...]
 *	bf-profile [--advise] [-j JOBFILE] LOGFILE
 * DESCRIPTION
 *	See bf-profile(1).  In the spool, a profile is replaced only when its
 *	text would change, so its mtime says when the measurement last moved.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/cli.h"
#include "util/file.h"
#include "util/log.h"
#include "util/version.h"
#include "util/ydoc.h"

#include "allocs.h"
#include "job.h"
#include "profile.h"
#include "progress.h"
#include "spool.h"

struct opts {
	const char *spool;	/* NULL: -d not given */
	const char *jobfile;
	int advise;
};

static _Noreturn void
usage(int code)
{
	fprintf(code ? stderr : stdout,
	    "usage: bf-profile [-hV] [--advise] [-d SPOOL] [JOB...]\n"
	    "       bf-profile [--advise] [-j JOBFILE] LOGFILE\n");
	exit(code);
}

static void
print_advice(const struct profile *p)
{
	if (p->next_nodes > 0)
		printf("%s %ld %s\n", p->name, p->next_nodes, p->reason);
	else
		printf("%s - %s\n", p->name, p->reason);
}

/* "-", a path with a slash, or a name ending in .log: not a job name. */
static int
is_logfile(const char *arg)
{
	size_t n = strlen(arg);

	return strcmp(arg, "-") == 0 || strchr(arg, '/') != NULL ||
	    (n > 4 && strcmp(arg + n - 4, ".log") == 0);
}

/* The job's name: from its file, else the log's base name without .log. */
static void
log_name(const char *path, const struct job *j, char *name, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t n;

	if (j != NULL) {
		snprintf(name, size, "%s", j->name);
		return;
	}
	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".log") == 0)
		n -= 4;
	snprintf(name, size, "%.*s", (int)n, base);
	if (!job_name_valid(name))
		snprintf(name, size, "%s", strcmp(path, "-") == 0 ? "stdin" :
		    "log");
}

static int
run_logfile(const struct opts *o, const char *path)
{
	const char *label = strcmp(path, "-") == 0 ? "(stdin)" : path;
	char name[JOB_NAME_MAX + 1], *buf, *text;
	struct job j, *jp = NULL;
	struct profile p;
	struct diag d;
	size_t len;
	int rc;

	diag_clear(&d);
	if (o->jobfile != NULL) {
		if (file_read_at(AT_FDCWD, o->jobfile, FILE_MAX_JOB, 0, &buf,
		    &len, &d) < 0)
			log_diag_fatal(&d);
		rc = job_parse(&j, o->jobfile, buf, len,
		    JOB_TRUSTED | JOB_QUIET, &d);
		free(buf);
		if (rc < 0)
			log_diag_fatal(&d);
		jp = &j;
	}
	if (strcmp(path, "-") == 0)
		rc = file_read_fd(STDIN_FILENO, label, PROGRESS_MAX_FILE, &buf,
		    &len, &d);
	else
		rc = file_read_at(AT_FDCWD, path, PROGRESS_MAX_FILE, 0, &buf,
		    &len, &d);
	if (rc < 0)
		log_diag_fatal(&d);
	log_name(path, jp, name, sizeof name);
	if (profile_from_log(&p, name, label, buf, len, jp, &d) < 0)
		log_diag_fatal(&d);
	free(buf);
	if (jp != NULL)
		job_free(jp);
	if (o->advise)
		print_advice(&p);
	else {
		if ((text = profile_format(&p, &len)) == NULL)
			log_fatal(EX_OSERR, "out of memory");
		fwrite(text, 1, len, stdout);
		free(text);
	}
	profile_free(&p);
	cli_finish_stdout();
	return 0;
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
	char file[JOB_NAME_MAX + 8];
	int fd = spool_dirfd(sp, SPOOL_PROGRESS, d);

	if (fd < 0)
		return -1;
	snprintf(file, sizeof file, "%s.log", name);
	if (file_read_at(fd, file, PROGRESS_MAX_FILE, FILE_NOFOLLOW, buf, len,
	    d) == 0)
		return 0;
	if (strncmp(d->text, file, strlen(file)) == 0)
		diag_prefix(d, "progress/");
	return -1;
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
profile_job(struct spool *sp, const struct opts *o, struct run *r,
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
		if (o->advise) {
			memset(&p, 0, sizeof p);
			snprintf(p.name, sizeof p.name, "%s", name);
			profile_advise(&p, j.min_nodes, j.max_nodes);
			print_advice(&p);
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
	if (o->advise)
		print_advice(&p);
	text = profile_format(&p, &len);
	profile_free(&p);
	if (text == NULL)
		return diag_errno(d, ENOMEM, "unable to format a profile");
	rc = store(sp, name, text, len, d);
	free(text);
	return rc;
}

/* Job names from a directory listing: NAME + suffix, NAME valid. */
static size_t
strip_suffix(char **names, size_t n, const char *suffix)
{
	size_t i, k = 0, s = strlen(suffix);

	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		int match = len > s && strcmp(names[i] + len - s, suffix) == 0;
		if (match)
			names[i][len - s] = '\0';
		if (match && job_name_valid(names[i]))
			names[k++] = names[i];
		else
			free(names[i]);
	}
	return k;
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

	if (spool_list(sp, SPOOL_PROGRESS, &logs, &nlogs, &d) < 0)
		return;
	nlogs = strip_suffix(logs, nlogs, ".log");
	for (i = 0; i < nlogs; i++)
		if (bsearch(&logs[i], jobs, njobs, sizeof *jobs,
		    name_cmp) == NULL)
			log_warn("progress/%s.log:1: no job %s in jobs/, "
			    "ignored", logs[i], logs[i]);
	spool_list_free(logs, nlogs);
}

static int
run_spool(const struct opts *o, char **names, int nnames)
{
	const char *path = o->spool ? o->spool : spool_default();
	char **jobs = NULL;
	size_t njobs = 0, i;
	struct spool sp;
	struct diag d;
	struct run r;
	int code = 0;

	diag_clear(&d);
	if (spool_open(&sp, path, 0, &d) < 0)
		log_diag_fatal(&d);
	if (nnames == 0) {
		if (job_list(&sp, SPOOL_JOBS, JOB_LIST_WARN, &jobs, &njobs,
		    &d) < 0)
			log_diag_fatal(&d);
		warn_orphans(&sp, jobs, njobs);
	}
	allocs_init(&r.allocs);
	diag_clear(&r.failed);
	r.names = nnames ? names : jobs;
	r.nnames = nnames ? (size_t)nnames : njobs;
	for (i = 0; i < r.nnames; i++) {
		diag_clear(&d);
		if (profile_job(&sp, o, &r, r.names[i], &d) < 0) {
			log_warn("%s", d.text);
			if (code == 0)
				code = d.code;
		}
	}
	if (jobs != NULL)
		spool_list_free(jobs, njobs);
	allocs_free(&r.allocs);
	spool_close(&sp);
	if (o->advise)
		cli_finish_stdout();
	return code;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "advise", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { NULL, NULL, 0 };
	int c, i, nargs;

	log_init(argv[0]);
	while ((c = getopt_long(argc, argv, "d:hj:V", longopts, NULL)) != -1) {
		switch (c) {
		case 'A':
			o.advise = 1;
			break;
		case 'd':
			o.spool = optarg;
			break;
		case 'h':
			usage(0);
		case 'j':
			o.jobfile = optarg;
			break;
		case 'V':
			printf("bf-profile %s\n", BF_VERSION);
			return 0;
		default:
			usage(EX_USAGE);
		}
	}
	nargs = argc - optind;
	if (o.jobfile != NULL || (o.spool == NULL && nargs == 1 &&
	    is_logfile(argv[optind]))) {
		if (o.spool != NULL || nargs != 1)
			usage(EX_USAGE);
		return run_logfile(&o, argv[optind]);
	}
	for (i = optind; i < argc; i++)
		if (!job_name_valid(argv[i])) {
			char shown[68];
			ydoc_excerpt(argv[i], shown, sizeof shown);
			log_warn("'%s' is not a job name", shown);
			usage(EX_USAGE);
		}
	return run_spool(&o, argv + optind, nargs);
}
