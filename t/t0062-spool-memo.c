/*
 * The caches bf-watch keeps between passes, against what they stand for:
 * the job cache in name order (binary search) gives each name its own
 * job, by its bytes only; inputs_read_memo() gives the same inputs as
 * inputs_read() and takes a job file from the memo only while the file
 * is the one read, changed in place (same size, modification time put
 * back) or replaced; state_add() refuses a node another job holds, and
 * state_find() finds every job whatever the order of the adds.
 */
#define _GNU_SOURCE		/* utimensat's AT_SYMLINK_NOFOLLOW */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spool/inputs.h"
#include "spool/job_cache.h"
#include "spool/state.h"
#include "tap.h"

static void
write_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((fp = fopen(path, "w")) == NULL || fputs(text, fp) < 0 ||
	    fclose(fp) != 0) {
		perror(path);
		exit(1);
	}
}

static int
same_inputs(const struct inputs *a, const struct inputs *b)
{
	size_t i;

	if (a->njobs != b->njobs || strcmp(a->dig_jobs, b->dig_jobs) != 0 ||
	    strcmp(a->dig_holes, b->dig_holes) != 0)
		return 0;
	for (i = 0; i < a->njobs; i++)
		if (strcmp(a->jobs[i].name, b->jobs[i].name) != 0 ||
		    a->jobs[i].len != b->jobs[i].len ||
		    memcmp(a->jobs[i].buf, b->jobs[i].buf, a->jobs[i].len) != 0)
			return 0;
	return 1;
}

static const char *
job_text(const char *name, int max)
{
	static char buf[256];

	snprintf(buf, sizeof buf, "name: %s\ncommand: x\nmax_nodes: %d\n"
	    "scaling:\n  1: 100\n", name, max);
	return buf;
}

static void
test_job_cache(void)
{
	struct job_cache c;
	struct diag d;
	char name[16], *texts[200];
	size_t i, k, sorted = 1;
	int right = 1;

	job_cache_init(&c);
	/* Put in a scrambled order: 37 is prime to 200. */
	for (k = 0; k < 200; k++) {
		struct job j;
		i = (k * 37) % 200;
		snprintf(name, sizeof name, "j%03zu", i);
		texts[i] = strdup(job_text(name, (int)i + 1));
		if (job_parse(&j, name, texts[i], strlen(texts[i]),
		    JOB_TRUSTED, &d) < 0) {
			ok(0, "job %s parses: %s", name, d.text);
			return;
		}
		job_cache_put(&c, name, texts[i], strlen(texts[i]), &j);
		job_free(&j);
	}
	for (i = 1; i < c.n; i++)
		sorted &= strcmp(c.v[i - 1].name, c.v[i].name) < 0;
	ok(c.n == 200 && sorted, "200 jobs put in a scrambled order are "
	    "kept in name order");
	for (i = 0; i < 200; i++) {
		const struct job *j;
		snprintf(name, sizeof name, "j%03zu", i);
		j = job_cache_peek(&c, name, texts[i], strlen(texts[i]));
		right &= j != NULL && strcmp(j->name, name) == 0 &&
		    j->max_nodes == (long)i + 1;
	}
	ok(right, "each name peeks its own job");
	ok(job_cache_peek(&c, "j005", texts[6], strlen(texts[6])) == NULL,
	    "another job's bytes under a name: not that name's job");
	ok(job_cache_peek(&c, "j999", texts[6], strlen(texts[6])) == NULL,
	    "a name never put: none");
	ok(job_cache_peek(NULL, "j005", texts[5], strlen(texts[5])) == NULL,
	    "no cache: none");
	/* A sweep keeps the names got since, in order. */
	job_cache_sweep(&c);	/* every one put since: all kept */
	for (i = 0; i < 200; i += 2) {
		struct job j;
		snprintf(name, sizeof name, "j%03zu", i);
		if (job_cache_get(&c, name, texts[i], strlen(texts[i]), &j) ==
		    0)
			job_free(&j);
	}
	job_cache_sweep(&c);
	for (i = 1, sorted = 1; i < c.n; i++)
		sorted &= strcmp(c.v[i - 1].name, c.v[i].name) < 0;
	ok(c.n == 100 && sorted && job_cache_peek(&c, "j198", texts[198],
	    strlen(texts[198])) != NULL && job_cache_peek(&c, "j199",
	    texts[199], strlen(texts[199])) == NULL, "a sweep keeps the 100 "
	    "names got, in order, and drops the others");
	for (i = 0; i < 200; i++)
		free(texts[i]);
	job_cache_free(&c);
}

static void
test_memo(const char *dir)
{
	struct inputs_memo m;
	struct inputs fresh, memo;
	struct spool sp;
	struct diag d;
	char jobs[4096], path[4200], final[4200];
	struct stat st;
	struct timespec keep[2];
	int fd;

	if (spool_open(&sp, dir, SPOOL_CREATE, &d) < 0) {
		ok(0, "spool: %s", d.text);
		return;
	}
	snprintf(jobs, sizeof jobs, "%s/jobs", dir);
	write_file(dir, "holes/current.yaml",
	    "time: 1\nsource: test\nidle:\n  - nodes: \"n[1-4]\"\n");
	write_file(jobs, "a.yaml", job_text("a", 2));
	write_file(jobs, "b.yaml", job_text("b", 3));
	inputs_memo_init(&m);
	/* Files changed a moment ago: read again, however the stat says. */
	if (inputs_read_memo(&memo, &sp, 0, &m, &d) < 0 ||
	    inputs_read(&fresh, &sp, 0, &d) < 0) {
		ok(0, "inputs: %s", d.text);
		return;
	}
	ok(same_inputs(&memo, &fresh) && m.hits == 0, "first read: the "
	    "inputs of inputs_read(), nothing from the memo");
	inputs_free(&memo);
	if (inputs_read_memo(&memo, &sp, 0, &m, &d) < 0)
		return;
	ok(same_inputs(&memo, &fresh) && m.hits == 0, "files changed within "
	    "a second of their read are read again");
	inputs_free(&memo);
	inputs_free(&fresh);
	sleep(2);
	/* Read once more, now settled: the next read takes them from it. */
	if (inputs_read_memo(&memo, &sp, 0, &m, &d) < 0)
		return;
	inputs_free(&memo);
	if (inputs_read_memo(&memo, &sp, 0, &m, &d) < 0 ||
	    inputs_read(&fresh, &sp, 0, &d) < 0)
		return;
	ok(same_inputs(&memo, &fresh) && m.hits == 2, "settled files come "
	    "from the memo (hits %lu), the same inputs", m.hits);
	inputs_free(&memo);
	inputs_free(&fresh);
	/* Changed in place, same size, the modification time put back. */
	snprintf(path, sizeof path, "%s/a.yaml", jobs);
	if (stat(path, &st) < 0 || (fd = open(path, O_WRONLY)) < 0 ||
	    pwrite(fd, "9", 1, strlen(job_text("a", 2)) - strlen(
	    "\nscaling:\n  1: 100\n") - 1) != 1 || close(fd) < 0)
		return;
	keep[0] = st.st_atim;
	keep[1] = st.st_mtim;
	utimensat(AT_FDCWD, path, keep, AT_SYMLINK_NOFOLLOW);
	m.hits = 0;
	if (inputs_read_memo(&memo, &sp, 0, &m, &d) < 0 ||
	    inputs_read(&fresh, &sp, 0, &d) < 0)
		return;
	ok(same_inputs(&memo, &fresh) && m.hits == 1 &&
	    strstr(memo.jobs[0].buf, "max_nodes: 9") != NULL, "a file "
	    "written in place (same size, mtime put back) is read again; the "
	    "other comes from the memo");
	inputs_free(&memo);
	inputs_free(&fresh);
	/* Replaced by rename and removed: the listing rules. */
	write_file(jobs, "b.tmp", job_text("b", 5));
	snprintf(path, sizeof path, "%s/b.tmp", jobs);
	snprintf(final, sizeof final, "%s/b.yaml", jobs);
	if (rename(path, final) < 0)
		return;
	m.hits = 0;
	if (inputs_read_memo(&memo, &sp, 0, &m, &d) < 0)
		return;
	ok(memo.njobs == 2 && strstr(memo.jobs[1].buf, "max_nodes: 5") &&
	    m.hits == 0, "a file replaced by rename is read again");
	inputs_free(&memo);
	unlink(final);
	if (inputs_read_memo(&memo, &sp, 0, &m, &d) < 0)
		return;
	ok(memo.njobs == 1 && m.n == 1, "a file gone is no input, and leaves "
	    "the memo");
	inputs_free(&memo);
	inputs_memo_free(&m);
	spool_close(&sp);
}

static void
test_state(void)
{
	struct state st;
	struct diag d;
	char name[16], hosts[32];
	size_t k, i;
	int found = 1;

	state_init(&st);
	for (k = 0; k < 50; k++) {
		i = (k * 13) % 50;
		snprintf(name, sizeof name, "s%02zu", i);
		snprintf(hosts, sizeof hosts, "n[%zu-%zu]", 2 * i + 1,
		    2 * i + 2);
		if (state_add(&st, name, hosts, &d) < 0) {
			ok(0, "state_add %s: %s", name, d.text);
			return;
		}
	}
	for (i = 0; i < 50; i++) {
		const struct state_job *sj;
		snprintf(name, sizeof name, "s%02zu", i);
		sj = state_find(&st, name);
		found &= sj != NULL && strcmp(sj->name, name) == 0 &&
		    sj->hosts.n == 2;
	}
	ok(found && state_find(&st, "s50") == NULL && state_find(&st, "a") ==
	    NULL, "state_find finds each of 50 jobs added out of order, and "
	    "no other");
	ok(state_add(&st, "t", "n[100-101]", &d) < 0 &&
	    strcmp(d.text, "state: node n100 is held by both s49 and t") == 0,
	    "a node another job holds is refused: %s", d.text);
	ok(state_find(&st, "t") == NULL && st.n == 50, "and the job is not "
	    "added");
	ok(state_add(&st, "t", "n[101-102]", &d) == 0, "free nodes are");
	state_free(&st);
}

int
main(void)
{
	char dir[] = "/tmp/t0062.XXXXXX", cmd[64];

	test_job_cache();
	test_state();
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_memo(dir);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		note("could not remove %s", dir);
	return tap_done();
}
