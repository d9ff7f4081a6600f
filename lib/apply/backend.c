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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/array.h"
#include "util/file.h"

#include "apply/backend.h"
#include "apply/pilots.h"
#include "run/rundir.h"

/* Where name is in b->seen, or would go: *found says which. */
static size_t
seen_at(const struct backend *b, const char *name, int *found)
{
	return array_find_name(b->seen, b->nseen, sizeof *b->seen,
	    offsetof(struct run_seen, name), name, found);
}

/* The run's entry, made when missing; NULL when out of memory. */
struct run_seen *
backend_seen(struct backend *b, const char *name)
{
	struct run_seen *grown, *e;
	int found;
	size_t at = seen_at(b, name, &found);

	if (found)
		return &b->seen[at];
	if ((grown = array_grow(b->seen, &b->seen_cap, b->nseen + 1,
	    sizeof *grown, 64)) == NULL)
		return NULL;
	b->seen = grown;
	memmove(&b->seen[at + 1], &b->seen[at], (b->nseen - at) *
	    sizeof *b->seen);
	b->nseen++;
	e = &b->seen[at];
	memset(e, 0, sizeof *e);
	snprintf(e->name, sizeof e->name, "%s", name);
	hostlist_init(&e->hosts);
	return e;
}

/* Its hosts file rewritten by us: read again, whatever its stat says. */
static void
hosts_stale(struct backend *b, const char *name)
{
	int found;
	size_t at = seen_at(b, name, &found);

	if (found)
		memset(&b->seen[at].hosts_key, 0, sizeof b->seen[at].hosts_key);
}

void
backend_forget_run(struct backend *b, const char *name)
{
	int found;
	size_t at = seen_at(b, name, &found);

	if (!found)
		return;
	hostlist_free(&b->seen[at].hosts);
	memmove(&b->seen[at], &b->seen[at + 1], (b->nseen - at - 1) *
	    sizeof *b->seen);
	b->nseen--;
}

void
backend_close(struct backend *b)
{
	size_t i;

	for (i = 0; i < b->nseen; i++)
		hostlist_free(&b->seen[i].hosts);
	file_group_free(&b->batch);
	free(b->seen);
	b->seen = NULL;
	b->nseen = b->seen_cap = 0;
}

/*
 * run/NAME/hosts as a sorted hostlist, b's (valid until the next call
 * for name): read again only when the file's stat changed.
 */
int
backend_run_hosts(struct backend *b, const char *name,
    const struct hostlist **hl, struct diag *d)
{
	char file[JOB_NAME_MAX + 16];
	struct run_seen *e = backend_seen(b, name);
	struct rundir_key k;
	int rfd = b->sp->dirs[SPOOL_RUN];

	if (e == NULL)
		return diag_errno(d, ENOMEM, "hosts");
	snprintf(file, sizeof file, "%s/hosts", name);
	if (rundir_key(rfd, file, &k) == 0 &&
	    rundir_key_equal(&e->hosts_key, &k)) {
		*hl = &e->hosts;
		return 0;
	}
	hostlist_free(&e->hosts);
	memset(&e->hosts_key, 0, sizeof e->hosts_key);
	if (rundir_hosts_read(rfd, file, &e->hosts, d) < 0)
		return -1;
	/* Known by the stat from before the read: a change since, read. */
	e->hosts_key = k;
	*hl = &e->hosts;
	return 0;
}

/* The batch so far synced: 0, or -1 with the file that failed said. */
static int
batch_sync(struct backend *b, struct diag *d)
{
	size_t failed;

	if (file_group_sync(&b->batch, &failed, d) < 0)
		return diag_prefix(d, "%s/run/%s/hosts: ", b->sp->path,
		    b->batch.v[failed].name);
	return 0;
}

/* From here to backend_hosts_publish(), hosts files are staged. */
void
backend_hosts_batch(struct backend *b)
{
	file_group_free(&b->batch);
	b->batching = 1;
}

/*
 * The staged hosts files synced, each renamed into its run/NAME/ (made
 * when missing), then those directories synced: 0, or -1 with the first
 * failure said and every file not published removed.
 */
int
backend_hosts_publish(struct backend *b, struct diag *d)
{
	struct file_group *g = &b->batch;
	struct diag first = { 0, "" };
	size_t i, published;
	int rc, fd;

	b->batching = 0;
	rc = batch_sync(b, d);
	/* Each run/NAME/ opened twice, never held: a plan may start 1,000. */
	for (published = 0; published < g->n && rc == 0; published++) {
		struct file_group_item *h = &g->v[published];
		hosts_stale(b, h->name);
		if ((fd = rundir_make(b->sp, h->name, d)) < 0 ||
		    file_publish(&h->st, fd, RUNDIR_HOSTS, FILE_NODIRSYNC,
		    d) < 0) {
			diag_prefix(d, "%s/run/%s/hosts: ", b->sp->path,
			    h->name);
			rc = -1;
		}
		if (fd >= 0)
			close(fd);
		if (rc < 0)
			break;
	}
	if (rc < 0)
		first = *d;
	for (i = 0; i < published; i++) {
		char dir[PATH_MAX + NAME_MAX + 8];
		snprintf(dir, sizeof dir, "%s/run/%s", b->sp->path,
		    g->v[i].name);
		if ((fd = rundir_open(b->sp, g->v[i].name)) < 0)
			diag_errno(d, errno, "unable to open %s", dir);
		if ((fd < 0 || file_sync_dir(fd, dir, d) < 0) && rc == 0) {
			rc = -1;
			first = *d;
		}
		if (fd >= 0)
			close(fd);
	}
	file_group_free(g);	/* and those not published */
	if (rc < 0)
		*d = first;
	return rc;
}

/* One "host:slots" line per host: Horovod's host discovery contract. */
int
backend_write_hosts(struct backend *b, const char *name,
    const struct hostlist *hosts, long slots, struct diag *d)
{
	char *buf;
	size_t size;
	int fd, rc, tmpfd;

	if (rundir_hosts_format(hosts, slots, &buf, &size, d) < 0)
		return -1;
	if ((tmpfd = spool_dirfd(b->sp, SPOOL_TMP, d)) < 0) {
		free(buf);
		return -1;
	}
	if (b->batching) {	/* its run/NAME/ is opened when published */
		rc = file_group_stage(&b->batch, tmpfd, -1, name, RUNDIR_HOSTS,
		    buf, size, 0644, d);
		free(buf);
		return rc < 0 ? diag_prefix(d, "%s/run/%s/hosts: ", b->sp->path,
		    name) : 0;
	}
	if ((fd = rundir_make(b->sp, name, d)) < 0) {
		free(buf);
		return -1;
	}
	hosts_stale(b, name);
	rc = file_write_atomic(tmpfd, fd, RUNDIR_HOSTS, buf, size, 0644, 0, d);
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

void
backend_supervisor_env(const struct backend *b, struct supervisor_env *env)
{
	env->tmpfd = b->sp->dirs[SPOOL_TMP];
	env->spool_lockfd = b->sp->lockfd;
	env->pilot = b->ops->pilot != NULL ? b->ops->pilot->exec : NULL;
}

void
backend_launch_site(const struct backend *b, struct launch_site *site)
{
	site->spool_abs = b->spool_abs;
	site->coord_host = b->coord_host;
	site->grace = b->grace;
	site->pilot = b->ops->pilot != NULL ? b->ops->pilot->exec : NULL;
}
