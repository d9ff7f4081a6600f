/*
 * NAME
 *	backend - what every backend shares: run/NAME/, hosts, who may run
 * DESCRIPTION
 *	See backend.h.  The security rule lives here, not in a backend, so
 *	that no backend can forget it: a job runs as the uid that owned the
 *	file it was submitted in, and never as root unless asked for.
 */
#define _XOPEN_SOURCE 700	/* realpath */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file.h"

#include "backend.h"
#include "pilots.h"

int
backend_open(struct backend *b, const char *name, struct spool *sp,
    struct diag *d)
{
	const char *host;

	memset(b, 0, sizeof *b);
	if (strcmp(name, backend_local.name) == 0)
		b->ops = &backend_local;
	else if (strcmp(name, backend_slurm.name) == 0)
		b->ops = &backend_slurm;
	else if (strcmp(name, backend_pbs.name) == 0)
		b->ops = &backend_pbs;
	else
		return diag_set(d, EX_USAGE, "no such backend '%.64s' (there "
		    "are: local, slurm, pbs)", name);
	b->sp = sp;
	b->grace = 10;
	if (realpath(sp->path, b->spool_abs) == NULL)
		return diag_errno(d, errno, "unable to resolve %s", sp->path);
	/* Where the nodes reach this host: the site may say (a fabric name). */
	if ((host = getenv("BF_COORD_HOST")) != NULL && *host != '\0') {
		if (strlen(host) >= sizeof b->coord_host ||
		    strspn(host, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		    "0123456789.-:[]") != strlen(host))
			return diag_set(d, EX_CONFIG, "BF_COORD_HOST '%.64s' is "
			    "not a host name or address", host);
		snprintf(b->coord_host, sizeof b->coord_host, "%s", host);
	} else if (gethostname(b->coord_host, sizeof b->coord_host - 1) < 0)
		snprintf(b->coord_host, sizeof b->coord_host, "localhost");
	if (b->ops->pilot != NULL && b->ops->pilot->open != NULL)
		return b->ops->pilot->open(b, d);
	return 0;
}

/* run/NAME, made when missing; the caller closes the descriptor. */
int
backend_run_dir(struct backend *b, const char *name, struct diag *d)
{
	int rfd = spool_dirfd(b->sp, SPOOL_RUN, d), fd;

	if (rfd < 0)
		return -1;
	if (mkdirat(rfd, name, 0755) < 0 && errno != EEXIST)
		return diag_errno(d, errno, "unable to create %s/run/%s",
		    b->sp->path, name);
	fd = openat(rfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd < 0)
		return diag_errno(d, errno, "unable to open %s/run/%s",
		    b->sp->path, name);
	return fd;
}

int
backend_open_run(struct backend *b, const char *name)
{
	int rfd = b->sp->dirs[SPOOL_RUN];

	return rfd < 0 ? -1 : openat(rfd, name, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC);
}

int
backend_read_hosts(int dirfd, const char *file, struct hostlist *hl,
    struct diag *d)
{
	char *buf, *line, *save, *colon;
	size_t len;

	hostlist_init(hl);
	if (file_read_at(dirfd, file, 1 << 24, FILE_NOFOLLOW, &buf, &len,
	    d) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if ((colon = strchr(line, ':')) != NULL)
			*colon = '\0';
		if (*line != '\0' && hostlist_add(hl, line) < 0) {
			free(buf);
			hostlist_free(hl);
			return diag_errno(d, ENOMEM, "%s", file);
		}
	}
	free(buf);
	hostlist_sort_uniq(hl);
	return 0;
}

/* One "host:slots" line per host: Horovod's host discovery contract. */
int
backend_write_hosts(struct backend *b, const char *name,
    const struct hostlist *hosts, long slots, struct diag *d)
{
	char *buf = NULL;
	size_t size = 0, i;
	FILE *fp = open_memstream(&buf, &size);
	int fd, rc, tmpfd;

	if (fp == NULL)
		return diag_errno(d, ENOMEM, "hosts");
	for (i = 0; i < hosts->n; i++)
		fprintf(fp, "%s:%ld\n", hosts->names[i], slots);
	if (ferror(fp) | fclose(fp)) {
		free(buf);
		return diag_errno(d, ENOMEM, "hosts");
	}
	if ((tmpfd = spool_dirfd(b->sp, SPOOL_TMP, d)) < 0 ||
	    (fd = backend_run_dir(b, name, d)) < 0) {
		free(buf);
		return -1;
	}
	rc = file_write_atomic(tmpfd, fd, "hosts", buf, size, 0644, 0, d);
	if (rc < 0)
		diag_prefix(d, "%s/run/%s/hosts: ", b->sp->path, name);
	close(fd);
	free(buf);
	return rc;
}

int
backend_may_run(const struct job *j, int allow_root, struct diag *d)
{
	uid_t me = geteuid();

	if (j->owner_uid < 0)
		return diag_set(d, EX_CONFIG, "jobs/%s.yaml: no owner recorded; "
		    "not run", j->name);
	if (me != 0 && (uid_t)j->owner_uid != me)
		return diag_set(d, EX_CONFIG, "jobs/%s.yaml: owned by uid %lld; "
		    "not run by uid %ld (run bf-apply as root or as that user)",
		    j->name, j->owner_uid, (long)me);
	if (me == 0 && j->owner_uid == 0 && !allow_root)
		return diag_set(d, EX_CONFIG, "jobs/%s.yaml: owned by root; "
		    "not run (bf-apply --allow-root-jobs)", j->name);
	return 0;
}
