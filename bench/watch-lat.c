/*
 * NAME
 *	watch-lat - latency of bf-watch from a holes file to plan and state
 * SYNOPSIS
 *	bench/watch-lat SPOOL NODES ROUNDS [TIMEOUT [FIRST]]
 * DESCRIPTION
 *	For bench/watch.sh, with a bf-watch running on SPOOL.  Each round
 *	delivers a new holes file into SPOOL/holes (tmp, fsync, rename, as
 *	bf-holes does): all NODES nodes n0001.., or, every other round, all
 *	but 25 nodes in a row from the first node of one job, as when a job
 *	of the main queue starts there, so that every round changes the plan.
 *	Rounds are 0.3 s apart, so that each is measured on its own.
 *	The clock starts when the rename is done and stops when
 *	plans/current.yaml has the new holes' time and state.yaml holds
 *	exactly the plan's node counts, i.e. every action was taken and the
 *	state written.  Both are looked at when inotify(7) says a file was
 *	renamed into SPOOL or SPOOL/plans (and every 10 ms besides), so that
 *	the measuring takes no core from bf-watch: until 2026-11-25 it
 *	looked every 0.2 ms, parsing the plan each time, which kept one of
 *	the two cores of the machine of bench/watch.md busy.  The clock
 *	stops at the moment the events that led to the look were read, not
 *	once the look (reading and parsing both files, 0.5 ms and more) is
 *	over, unless an event came during the look: then the files it read
 *	may be newer than those events, and the clock stops after the look
 *	(up to commit 0de7622 it always stopped after the look).  Prints
 *	per round a line "LATENCY PLAN": the latency in milliseconds, and by
 *	the same rule the milliseconds to the plan alone (the decision, the
 *	issue's "event -> plan", before any action), or "timeout" after
 *	TIMEOUT seconds (default 10).  Round r's holes file
 *	has the time FIRST + r (default 2000000000), so that a second run
 *	given another FIRST never repeats a holes file of the first.
 *	With BF_ROUNDS_LOG set, each measured round's start and end (its
 *	clock's, in milliseconds on CLOCK_MONOTONIC) are appended to that
 *	file, "START END", for bench/fsync-shim's lines to be told by round.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/inotify.h>

#include "util/file.h"

#include "spool/plan.h"
#include "spool/spool.h"
#include "spool/state.h"

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
read_state(struct spool *sp, struct state *st)
{
	struct diag d;
	char *buf;
	size_t len;
	int rc;

	if (file_read_at(sp->fd, "state.yaml", STATE_MAX_FILE, 0, &buf, &len,
	    &d) < 0)
		return -1;
	rc = state_parse(st, "state.yaml", buf, len, &d);
	free(buf);
	return rc;
}

/*
 * 2: the plan for time t is on disk and the state is what it says; 1:
 * the plan only; 0: neither.
 */
static int
done(struct spool *sp, long long t)
{
	struct state st;
	struct plan p;
	struct diag d;
	char *buf;
	size_t len, i;
	int ok = 1;

	if (file_read_at(sp->dirs[SPOOL_PLANS], "current.yaml", 1 << 26, 0,
	    &buf, &len, &d) < 0)
		return 0;
	if (plan_parse(&p, "plan", buf, len, &d) < 0 || p.time != t) {
		free(buf);
		plan_free(&p);	/* harmless after a failed parse */
		return 0;
	}
	free(buf);
	if (read_state(sp, &st) < 0) {
		plan_free(&p);
		return 1;
	}
	for (i = 0; i < p.njobs && ok; i++) {
		const struct state_job *sj = state_find(&st, p.jobs[i].name);
		ok = (sj ? (long)sj->hosts.n : 0) == p.jobs[i].nodes;
	}
	state_free(&st);
	plan_free(&p);
	return 1 + ok;
}

/* Every inotify event queued read: 1 when there was one. */
static int
drain(int ifd, char *events, size_t size)
{
	int got = 0;

	while (read(ifd, events, size) > 0)
		got = 1;
	return got;
}

/*
 * When what a look found was there: the time the last events read came,
 * unless more came since (then now, the later bound).
 */
static double
seen_at(int ifd, char *events, size_t size, double *t_event)
{
	double t = now_ms();

	if (drain(ifd, events, size))
		*t_event = t;	/* more came: now, and the next look's too */
	else if (*t_event >= 0)
		t = *t_event;
	return t;
}

/*
 * Nodes to take back: 25 in a row from a held node on, as when a job of
 * the main queue starts on a block of them.
 */
static void
taken(struct spool *sp, char *out, int nodes, int round)
{
	struct state st;
	int first = 1, n;

	memset(out, 0, (size_t)nodes + 1);
	if (read_state(sp, &st) < 0)
		return;
	if (st.n > 0) {
		const struct state_job *sj = &st.jobs[(size_t)round % st.n];
		if (sj->hosts.n > 0)
			first = atoi(sj->hosts.names[0] + 1);
	}
	for (n = first; n < first + 25 && n <= nodes; n++)
		out[n] = 1;
	state_free(&st);
}

static char *
holes_text(long long t, const char *gone, int nodes, size_t *len)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	int n, first = 1;

	fprintf(fp, "time: %lld\nsource: bench\nidle:\n  - nodes: \"", t);
	for (n = 1; n <= nodes; n++)
		if (!gone[n]) {
			fprintf(fp, "%sn%0*d", first ? "" : ",",
			    nodes > 9999 ? 5 : 4, n);
			first = 0;
		}
	fputs("\"\n", fp);
	fclose(fp);
	*len = size;
	return buf;
}

int
main(int argc, char **argv)
{
	struct timespec settle = { 0, 300000000 };
	char events[4096], dir[4096];
	int ifd;
	struct spool sp;
	struct diag d;
	char *gone, *text;
	int nodes, rounds, r;
	double t0, t1, t_event, t_plan, limit = 10000;
	int k;
	FILE *rounds_log = NULL;
	long long first = 2000000000LL;
	size_t len;

	if (argc < 4 || argc > 6 || (nodes = atoi(argv[2])) < 1 ||
	    nodes > 99999 || (rounds = atoi(argv[3])) < 1 || (argc > 4 &&
	    (limit = 1000 * atof(argv[4])) <= 0) || (argc > 5 &&
	    (first = atoll(argv[5])) <= 0)) {
		fprintf(stderr, "usage: watch-lat SPOOL NODES ROUNDS "
		    "[TIMEOUT [FIRST]]\n");
		return 64;
	}
	if (spool_open(&sp, argv[1], 0, &d) < 0) {
		fprintf(stderr, "watch-lat: %s\n", d.text);
		return d.code;
	}
	snprintf(dir, sizeof dir, "%s/plans", argv[1]);
	if ((ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) < 0 ||
	    inotify_add_watch(ifd, argv[1], IN_MOVED_TO | IN_CLOSE_WRITE) < 0 ||
	    inotify_add_watch(ifd, dir, IN_MOVED_TO | IN_CLOSE_WRITE) < 0) {
		perror("watch-lat: inotify");
		return 71;
	}
	if (getenv("BF_ROUNDS_LOG") != NULL &&
	    (rounds_log = fopen(getenv("BF_ROUNDS_LOG"), "a")) == NULL) {
		perror("watch-lat: BF_ROUNDS_LOG");
		return 73;
	}
	gone = malloc((size_t)nodes + 1);
	for (r = 0; r < rounds; r++) {
		long long t = first + r;
		if (r % 2)
			taken(&sp, gone, nodes, r);
		else
			memset(gone, 0, (size_t)nodes + 1);
		text = holes_text(t, gone, nodes, &len);
		if (spool_write(&sp, SPOOL_HOLES, "current.yaml", text, len,
		    0644, 0, &d) < 0) {
			fprintf(stderr, "watch-lat: %s\n", d.text);
			return d.code;
		}
		free(text);
		t0 = now_ms();
		t_event = -1;
		t_plan = -1;
		while ((k = done(&sp, t)) < 2 && now_ms() - t0 < limit) {
			struct pollfd pf = { ifd, POLLIN, 0 };
			if (k == 1 && t_plan < 0)
				t_plan = seen_at(ifd, events, sizeof events,
				    &t_event);
			if (poll(&pf, 1, 10) > 0 && drain(ifd, events,
			    sizeof events))
				t_event = now_ms();
		}
		/*
		 * Done when the last events read came: the files it read
		 * were renamed before, unless an event came since (then
		 * now, the later bound).
		 */
		t1 = seen_at(ifd, events, sizeof events, &t_event);
		if (t_plan < 0)
			t_plan = t1;
		if (now_ms() - t0 >= limit)
			printf("timeout\n");
		else
			printf("%.3f %.3f\n", t1 - t0, t_plan - t0);
		if (rounds_log != NULL)
			fprintf(rounds_log, "%.3f %.3f\n", t0, t1);
		fflush(stdout);
		/* Let the chain settle: rounds are measured one at a time. */
		nanosleep(&settle, NULL);
	}
	free(gone);
	spool_close(&sp);
	if (rounds_log != NULL && fclose(rounds_log) != 0) {
		perror("watch-lat: BF_ROUNDS_LOG");
		return 74;
	}
	return 0;
}
