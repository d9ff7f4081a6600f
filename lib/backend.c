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

#include "util/array.h"
#include "util/file.h"

#include "backend.h"
#include "launcher.h"
#include "pilots.h"

int
backend_open(struct backend *b, const char *name, struct spool *sp,
    struct diag *d)
{
	const char *host;

	memset(b, 0, sizeof *b);
	b->launcher_fd = -1;
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

/*
 * The stat of dirfd/file, a regular file not followed through a link:
 * 0, or -1 when it is not one (then nothing is remembered of it).
 */
int
backend_file_key(int dirfd, const char *file, struct file_key *k)
{
	struct stat st;

	memset(k, 0, sizeof *k);
	if (fstatat(dirfd, file, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISREG(st.st_mode) || st.st_ino == 0)
		return -1;
	k->dev = st.st_dev;
	k->ino = st.st_ino;
	k->size = st.st_size;
	k->mtim = st.st_mtim;
	k->ctim = st.st_ctim;
	return 0;
}

/* Equal stats, a remembered (inode 0: nothing remembered). */
int
backend_file_key_equal(const struct file_key *a, const struct file_key *b)
{
	return a->ino != 0 && a->dev == b->dev && a->ino == b->ino &&
	    a->size == b->size && a->mtim.tv_sec == b->mtim.tv_sec &&
	    a->mtim.tv_nsec == b->mtim.tv_nsec &&
	    a->ctim.tv_sec == b->ctim.tv_sec &&
	    a->ctim.tv_nsec == b->ctim.tv_nsec;
}

/* Where name is in b->seen, or would go: *found says which. */
static size_t
seen_at(const struct backend *b, const char *name, int *found)
{
	size_t lo = 0, hi = b->nseen, mid;
	int cmp;

	*found = 0;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((cmp = strcmp(b->seen[mid].name, name)) == 0) {
			*found = 1;
			return mid;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
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

	launcher_close(b);
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
	struct file_key k;
	int rfd = b->sp->dirs[SPOOL_RUN];

	if (e == NULL)
		return diag_errno(d, ENOMEM, "hosts");
	snprintf(file, sizeof file, "%s/hosts", name);
	if (backend_file_key(rfd, file, &k) == 0 &&
	    backend_file_key_equal(&e->hosts_key, &k)) {
		*hl = &e->hosts;
		return 0;
	}
	hostlist_free(&e->hosts);
	memset(&e->hosts_key, 0, sizeof e->hosts_key);
	if (backend_read_hosts(rfd, file, &e->hosts, d) < 0)
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
		if ((fd = backend_run_dir(b, h->name, d)) < 0 ||
		    file_publish(&h->st, fd, "hosts", FILE_NODIRSYNC,
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
		if ((fd = backend_open_run(b, g->v[i].name)) < 0)
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
	if ((tmpfd = spool_dirfd(b->sp, SPOOL_TMP, d)) < 0) {
		free(buf);
		return -1;
	}
	if (b->batching) {	/* its run/NAME/ is opened when published */
		rc = file_group_stage(&b->batch, tmpfd, -1, name, "hosts", buf,
		    size, 0644, d);
		free(buf);
		return rc < 0 ? diag_prefix(d, "%s/run/%s/hosts: ", b->sp->path,
		    name) : 0;
	}
	if ((fd = backend_run_dir(b, name, d)) < 0) {
		free(buf);
		return -1;
	}
	hosts_stale(b, name);
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
