/*
 * NAME
 *	watch_chain - one pass of the daemon: intake, profiles, decide, enact
 * DESCRIPTION
 *	See watch.h and watch_int.h.  At each wake-up the loop (watch.c)
 *	runs watch_chain(): the intake of incoming/, bf-profile when logs
 *	grew, the decision made in this process (decide.h) when an input
 *	changed, and the plan enacted with bf-apply's code, until a pass
 *	changes nothing.  It logs one line per decision and per failed child.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/env.h"
#include "util/fault.h"
#include "util/file.h"
#include "util/now.h"
#include "util/proc.h"

#include "apply/apply.h"
#include "apply/backend.h"
#include "solve/decide.h"
#include "spool/history.h"
#include "spool/holes.h"
#include "spool/intake.h"
#include "spool/plan.h"
#include "watch/watch.h"
#include "watch/watch_int.h"

/* Next to this program first, then on PATH; 0 when found. */
static int
find_program(const struct watcher *w, const char *name, char *out,
    size_t outlen)
{
	snprintf(out, outlen, "%s/%s", w->self_dir, name);
	if (w->self_dir[0] != '\0' && access(out, X_OK) == 0)
		return 0;
	return env_path_find(name, out, outlen);
}

/*
 * Run a program to its end; its exit code, or 128+signal, or -1.  It has
 * WATCH_CHILD_TIMEOUT: one that hangs (a --holes-cmd whose scheduler does
 * not answer) is killed with its process group and logged, and is tried
 * again later (137), so that it never stops the decisions, the give-back
 * nor a SIGTERM; a SIGTERM meanwhile ends it at once.
 */
int
watch_run_child(char *const argv[], int outfd)
{
	struct proc p = { argv, NULL, NULL, 0, outfd >= 0 ? outfd :
	    PROC_INHERIT, PROC_INHERIT, NULL, NULL };
	struct proc_out o;
	struct diag d;
	double t = WATCH_CHILD_TIMEOUT;
	int status;

	if (proc_run_bounded(&p, t, 0, &status, &o, &d) < 0) {
		log_warn("%s", d.text);
		return -1;
	}
	if (o.timedout && !o.interrupted)
		log_warn("%s: no answer in %g s (2 x BF_SCHED_TIMEOUT + 10); "
		    "killed; will retry", argv[0], t);
	proc_out_free(&o);
	return WIFEXITED(status) ? WEXITSTATUS(status) :
	    128 + WTERMSIG(status);
}

/*
 * A failed child: try again later (75, 71, 74; killed by a signal, which
 * says nothing of its input, or not run at all) or once an input changes
 * (any other exit: the input is what it refused).
 */
void
watch_child_failed(struct watcher *w, const char *what, int code)
{
	int later = diag_code_transient(code) || code < 0 || code > 128;

	w->m.errors[strcmp(what, "--holes-cmd") == 0 ? WATCH_ERR_HOLES_CMD :
	    WATCH_ERR_PROFILE]++;

	if (code < 0)
		log_warn("%s could not be run; will retry", what);
	else if (code > 128)
		log_warn("%s killed by signal %d; will retry", what,
		    code - 128);
	else
		log_warn("%s failed (exit %d)%s", what, code, later ?
		    "; will retry" : "; waiting for new input");
	if (later) {
		w->retry_at = now_mono() + w->o->retry;
		w->left_undone = 1;
	}
}

/* holes/current.yaml now, or a zeroed status when there is none. */
void
watch_holes_now(const struct watcher *w, struct stat *st)
{
	memset(st, 0, sizeof *st);
	if (w->sp->dirs[SPOOL_HOLES] < 0 || fstatat(w->sp->dirs[SPOOL_HOLES],
	    "current.yaml", st, AT_SYMLINK_NOFOLLOW) < 0)
		memset(st, 0, sizeof *st);
}

/*
 * SIGTERM or SIGINT seen, or sent and not yet delivered: signals reach
 * the handler only inside ppoll() (watch.c), which a pass never enters;
 * a pass that asks here stops within its step, so that a long queue
 * (20,000 files in incoming/, a flood of cancels) does not hold a stop.
 */
static int
term_asked(const struct watcher *w)
{
	sigset_t pending;

	return *w->got_term || (sigpending(&pending) == 0 &&
	    (sigismember(&pending, SIGTERM) == 1 ||
	    sigismember(&pending, SIGINT) == 1));
}

/*
 * The intake stops once its time is up, SIGTERM is asked, or a holes
 * file other than the one the last solve read is there: it is delivered by rename, so a new
 * one is a new inode (or, written in place, a new change time).
 */
static int
intake_stop(void *arg)
{
	const struct watcher *w = arg;
	struct stat now;

	if (now_mono() >= w->intake_until || term_asked(w))
		return 1;
	watch_holes_now(w, &now);
	return now.st_dev != w->holes_seen.st_dev ||
	    now.st_ino != w->holes_seen.st_ino ||
	    now.st_size != w->holes_seen.st_size ||
	    now.st_ctim.tv_sec != w->holes_seen.st_ctim.tv_sec ||
	    now.st_ctim.tv_nsec != w->holes_seen.st_ctim.tv_nsec;
}

/*
 * WATCH_INTAKE_SECONDS a pass at most, and no further file once a new
 * holes file is there: the main scheduler's nodes are answered first,
 * whatever incoming/ holds, and the rest waits for the next pass
 * (w->backlog), which comes at once.
 */
static int
chain_intake(struct watcher *w, struct diag *d)
{
	struct intake_opts io = { &w->memo, 0, intake_stop, w };
	struct intake_result r;

	w->intake_until = now_mono() + WATCH_INTAKE_SECONDS;
	if (intake_run(w->sp, time(NULL), &io, &r, d) < 0) {
		w->backlog = 0;
		w->m.errors[WATCH_ERR_INTAKE]++;
		if (d->code != EX_TEMPFAIL)
			return -1;
		/* A full disk: what is entered stays, the rest waits. */
		log_warn("intake: %s; will retry", d->text);
		diag_clear(d);
		w->retry_at = now_mono() + w->o->retry;
		w->left_undone = 1;
		return r.accepted + r.rejected > 0;
	}
	w->backlog = r.more;
	return r.accepted + r.rejected > 0;
}

static struct seen_log *
seen(struct watcher *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->nlogs; i++)
		if (strcmp(w->logs[i].name, name) == 0)
			return &w->logs[i];
	if (w->nlogs == WATCH_MAX_LOGS)
		return NULL;
	memset(&w->logs[w->nlogs], 0, sizeof w->logs[w->nlogs]);
	memcpy(w->logs[w->nlogs].name, name, strlen(name) + 1);	/* valid */
	return &w->logs[w->nlogs++];
}

/* bf-profile for the jobs whose progress logs grew since last time. */
static int
chain_profile(struct watcher *w)
{
	char prog[PATH_MAX], **names, *argv[64], stem[JOB_NAME_MAX + 8];
	char job[JOB_NAME_MAX + 16];
	struct seen_log *s;
	struct diag d;
	struct stat st;
	size_t n, i, l;
	int argc = 3, code, rc = 0;

	if (w->o->no_profile || now_mono() - w->profiled_at < WATCH_PROFILE_EVERY ||
	    find_program(w, "bf-profile", prog, sizeof prog) < 0 ||
	    spool_list(w->sp, SPOOL_PROGRESS, &names, &n, &d) < 0)
		return 0;
	argv[0] = prog, argv[1] = "-d", argv[2] = w->sp->path;
	for (i = 0; i < n && argc < 62; i++) {
		l = strlen(names[i]);
		if (l < 5 || l - 4 >= sizeof stem ||
		    strcmp(names[i] + l - 4, ".log") != 0 ||
		    fstatat(w->sp->dirs[SPOOL_PROGRESS], names[i], &st,
		    AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		memcpy(stem, names[i], l - 4);
		stem[l - 4] = '\0';
		snprintf(job, sizeof job, "%s.yaml", stem);
		if (!job_name_valid(stem) || faccessat(w->sp->dirs[SPOOL_JOBS],
		    job, F_OK, AT_SYMLINK_NOFOLLOW) < 0 ||
		    (s = seen(w, stem)) == NULL || s->size == st.st_size)
			continue;
		s->size = st.st_size;
		argv[argc++] = names[i];
		names[i][l - 4] = '\0';
	}
	argv[argc] = NULL;
	if (argc > 3) {
		code = watch_run_child(argv, -1);
		w->profiled_at = now_mono();
		if (code != 0)
			watch_child_failed(w, "bf-profile", code);
		rc = 1;
	}
	spool_list_free(names, n);
	return rc;
}

/* What one pass read and decided: the inputs once, the plan once. */
struct decision {
	struct inputs in;
	int have_inputs;
	char *text;		/* plans/current.yaml, or NULL */
	size_t len;
	struct plan plan;	/* text, parsed */
	int parsed;
	double secs;		/* the solve's, when there was one */
	int made;		/* the plan was made in this pass */
};

static void
decision_free(struct decision *x)
{
	if (x->have_inputs)
		inputs_free(&x->in);
	if (x->parsed)
		plan_free(&x->plan);
	free(x->text);
	memset(x, 0, sizeof *x);
}

static void
inputs_key(const struct inputs *in, char *out, size_t outlen)
{
	snprintf(out, outlen, "%s%s%s%s%s", in->dig_holes, in->dig_jobs,
	    in->dig_state, in->dig_policy, in->dig_profiles);
}

/*
 * The plan's text and head kept: the next pass that reads the same text
 * knows its inputs without parsing it (10,000 hosts: 8 % of a pass), and
 * parses it only when no decision replaces it (plan_of()).
 */
static void
plan_remember(struct watcher *w, const char *text, size_t len,
    const struct plan *p)
{
	char *copy = malloc(len + 1);

	free(w->plan_text);
	w->plan_text = NULL;
	if (copy == NULL)
		return;
	memcpy(copy, text, len);
	copy[len] = '\0';
	w->plan_text = copy;
	w->plan_len = len;
	w->plan_head = *p;
	w->plan_head.jobs = NULL;
	w->plan_head.njobs = 0;
	w->plan_head.free = NULL;
}

static int
plan_known(const struct watcher *w, const char *text, size_t len)
{
	return w->plan_text != NULL && w->plan_len == len &&
	    memcmp(w->plan_text, text, len) == 0;
}

/* The plan read, parsed now that it is needed: 1 when it is. */
static int
plan_of(struct watcher *w, struct decision *x)
{
	struct diag d;

	if (!x->parsed && x->text != NULL) {
		x->parsed = plan_parse(&x->plan, "plans/current.yaml",
		    x->text, x->len, &d) == 0;
		if (x->parsed)
			plan_remember(w, x->text, x->len, &x->plan);
	}
	return x->parsed;
}

static char *
read_plan(struct watcher *w, size_t *len)
{
	struct diag d;
	char *buf;

	if (w->sp->dirs[SPOOL_PLANS] < 0 || file_read_at(
	    w->sp->dirs[SPOOL_PLANS], "current.yaml", HISTORY_MAX_FILE,
	    FILE_NOFOLLOW, &buf, len, &d) < 0)
		return NULL;
	return buf;
}

/* The files of jobs/ that are no job, said once per solve as bf-solve did. */
static void
say_ignored(struct watcher *w)
{
	char **names;
	struct diag d;
	size_t n;

	if (job_list(w->sp, SPOOL_JOBS, JOB_LIST_WARN, &names, &n, &d) == 0)
		spool_list_free(names, n);
}

/*
 * A solve that failed: again later (75, 71, 74) or once an input changes
 * (any other code: the input is what it refused).
 */
static void
solve_failed(struct watcher *w, const struct diag *d, const char *inputs)
{
	int later = diag_code_transient(d->code);

	w->m.errors[WATCH_ERR_SOLVE]++;
	/* The same error again (the next pass, a new holes file): said once. */
	if (later || strcmp(d->text, w->solve_error) != 0)
		log_warn("solve: %s%s", d->text, later ? "; will retry" :
		    "; waiting for new input");
	snprintf(w->solve_error, sizeof w->solve_error, "%s", d->text);
	if (later) {
		w->retry_at = now_mono() + w->o->retry;
		w->left_undone = 1;
	}
	snprintf(w->failed_inputs, sizeof w->failed_inputs, "%s", inputs);
	w->failed_later = later;
	w->solve_retry_at = now_mono() + w->o->retry;
}

/* The policy of in, as the last good one, when a decision loaded it. */
static void
policy_good(struct watcher *w, const struct inputs *in)
{
	char *copy;

	if (!in->have_policy || strcmp(in->dig_policy,
	    w->good_policy_dig) == 0 || (copy = malloc(in->policy.len +
	    1)) == NULL)
		return;
	memcpy(copy, in->policy.buf, in->policy.len);
	copy[in->policy.len] = '\0';
	free(w->good_policy);
	w->good_policy = copy;
	w->good_policy_len = in->policy.len;
	memcpy(w->good_policy_dig, in->dig_policy, sizeof w->good_policy_dig);
	if (w->bad_policy_dig[0] != '\0') {
		log_info("policy: policy.yaml %s loads: in force",
		    in->dig_policy);
		w->bad_policy_dig[0] = '\0';
	}
}

/*
 * A policy.yaml known not to load: the last good one in its place, as
 * servers keep their configuration on a bad reload; 1 when replaced.
 */
static int
policy_fallback(struct watcher *w, struct inputs *in)
{
	struct diag d;

	if (!in->have_policy || w->bad_policy_dig[0] == '\0' ||
	    strcmp(in->dig_policy, w->bad_policy_dig) != 0 ||
	    w->good_policy == NULL)
		return 0;
	return inputs_replace_policy(in, w->good_policy, w->good_policy_len,
	    &d) == 0;
}

/*
 * A decision failed for a reason no retry cures: is policy.yaml the
 * cause?  With a last good policy, the decision is made again with it
 * (0 when that made the plan: in force, said once); without one, the
 * inputs are tried with no policy only to know, never enacted.  -1 when
 * the policy is not the cause, or no plan was made.
 */
static int
policy_retry(struct watcher *w, struct decision *x,
    const struct solve_opts *o, struct plan *p, char **text, size_t *len,
    const struct diag *why)
{
	struct inputs copy;
	struct diag d;
	char bad[HASH_TEXT_LEN];
	int rc;

	if (!x->in.have_policy || strcmp(x->in.dig_policy,
	    w->good_policy_dig) == 0)
		return -1;
	memcpy(bad, x->in.dig_policy, sizeof bad);
	if (w->good_policy == NULL) {
		struct solve s;
		/* Read again, to try without a policy apart. */
		if (inputs_read(&copy, w->sp, INPUTS_NO_POLICY, &d) < 0)
			return -1;
		solve_init(&s);
		rc = decide_load(&s, &copy, DECIDE_CHECK_NAMES, NULL, &d);
		if (rc == 0)
			rc = solve_prepare(&s, o, &d);
		solve_free(&s);
		inputs_free(&copy);
		if (rc == 0 && strcmp(bad, w->bad_policy_dig) != 0) {
			log_warn("policy: %s; no policy has loaded yet: "
			    "nothing starts until one does", why->text);
			memcpy(w->bad_policy_dig, bad, sizeof bad);
		}
		return -1;
	}
	if (inputs_replace_policy(&x->in, w->good_policy, w->good_policy_len,
	    &d) < 0)
		return -1;
	rc = decide_spool(w->sp, &x->in, o, &w->jobs_parsed, p, text, len, &d);
	if (rc == 0 && strcmp(bad, w->bad_policy_dig) != 0) {
		log_warn("policy: %s; the last good policy (%s) stays in force",
		    why->text, w->good_policy_dig);
		memcpy(w->bad_policy_dig, bad, sizeof bad);
	}
	return rc;
}

/* A plan made, in place of the one read: x owns it and its text. */
static void
decision_take(struct decision *x, struct plan *p, char *text, size_t len)
{
	if (x->parsed)
		plan_free(&x->plan);
	free(x->text);
	x->text = text;
	x->len = len;
	x->plan = *p;
	x->parsed = 1;
	x->made = 1;
}

/*
 * No plan can be made from these inputs (d says why, and no retry cures
 * it): the give-back plan (decide.h) in its place, so that the nodes the
 * scheduler took back are still released; 1 when it was made.
 */
static int
give_back(struct watcher *w, struct decision *x, const struct diag *why)
{
	struct plan p;
	struct diag d;
	char *text;
	size_t len;

	if (decide_give_back_spool(w->sp, &x->in, why->text, &p, &text, &len,
	    &d) < 0) {
		log_warn("solve: no give-back plan either: %s", d.text);
		(void)plan_of(w, x);
		return 0;
	}
	if (!w->giving_back)
		log_warn("solve: no plan could be made; until one is, the "
		    "give-back plan keeps each job only its nodes still in "
		    "the holes");
	w->giving_back = 1;
	decision_take(x, &p, text, len);
	plan_remember(w, x->text, x->len, &x->plan);
	return 1;
}

/*
 * The inputs, read once for the pass, and the current plan, read once and
 * parsed at most once (not when its text is the one last read or made,
 * whose head is kept, and a decision replaces it); a new plan, decided here (decide.h), when an input differs
 * from the current plan's.  Inputs that cannot be read are left to the
 * apply step, which reads them again and says why.  A policy.yaml that
 * does not load leaves the last good one in force; inputs that make no
 * plan for a reason no retry cures make the give-back plan.
 */
/*
 * Whether the inputs call for a new plan: an input changed since plan p
 * was made (inputs.h), but, passive, not the profiles alone once p is
 * enacted: a measurement counts at the next decision (bf-solve(1),
 * Profiles).  A plan not enacted yet is made again, since bf-apply
 * records the inputs it enacts with, which must be the plan's.
 */
static int
stale(struct watcher *w, const struct decision *x, const struct plan *p)
{
	const char *why = inputs_stale(&x->in, p);

	if (why == NULL)
		return 0;
	if (strcmp(why, "profiles") != 0 || w->o->probe)
		return 1;
	return !history_enacted(w->sp, x->text, x->len, p->time);
}

static int
chain_solve(struct watcher *w, struct decision *x)
{
	struct solve_opts o = SOLVE_OPTS_DEFAULT;
	char key[sizeof w->failed_inputs], *text;

	o.probe = w->o->probe;
	o.prior = !w->o->probe;
	o.seconds = w->o->limit;
	struct plan p;
	struct diag d;
	size_t len;
	double t0;
	int need = 1;

	watch_holes_now(w, &w->holes_seen);	/* the holes this solve reads */
	/* The plan's head is all the question needs: known, or parsed. */
	if ((x->text = read_plan(w, &x->len)) != NULL &&
	    !plan_known(w, x->text, x->len))
		(void)plan_of(w, x);
	if (inputs_read_memo(&x->in, w->sp, 0, &w->jobs_read, &d) < 0) {
		(void)plan_of(w, x);
		return 0;	/* no holes yet: nothing to decide */
	}
	x->have_inputs = 1;
	inputs_key(&x->in, key, sizeof key);
	(void)policy_fallback(w, &x->in);
	if (x->parsed)
		need = stale(w, x, &x->plan);
	else if (x->text != NULL && plan_known(w, x->text, x->len))
		need = stale(w, x, &w->plan_head);
	if (w->force_solve)
		need = 1, w->force_solve = 0;
	else if (need && strcmp(key, w->failed_inputs) == 0 &&
	    (!w->failed_later || now_mono() < w->solve_retry_at))
		need = 0;
	if (!need) {
		(void)plan_of(w, x);	/* carried out by apply */
		return 0;
	}
	say_ignored(w);
	t0 = now_mono();
	if (w->o->learnt)
		watch_horizon(w, &o);
	fault_point("watch-before-solve");
	if (decide_spool(w->sp, &x->in, &o, &w->jobs_parsed, &p, &text,
	    &len, &d) < 0) {
		if (diag_code_transient(d.code) ||
		    policy_retry(w, x, &o, &p, &text, &len, &d) < 0) {
			solve_failed(w, &d, key);
			if (diag_code_transient(d.code)) {
				(void)plan_of(w, x);
				return 0;
			}
			return give_back(w, x, &d);
		}
		/* Not again until an input changes: it is in force. */
		snprintf(w->failed_inputs, sizeof w->failed_inputs, "%s", key);
		w->failed_later = 0;
	} else
		policy_good(w, &x->in);
	if (w->giving_back || w->solve_error[0] != '\0')
		log_info("solve: a plan is made again");
	watch_metrics_decision(&w->m, now_mono() - t0, p.status);
	w->giving_back = 0;
	w->solve_error[0] = '\0';
	x->secs = now_mono() - t0;
	decision_take(x, &p, text, len);
	plan_remember(w, x->text, x->len, &x->plan);
	return 1;
}

static void
log_decision(struct watcher *w, const struct decision *x, const char *trigger,
    const char *plan, const struct apply_result *r, double objective,
    double secs)
{
	char *line = NULL;
	size_t size = 0, i;
	FILE *fp = open_memstream(&line, &size);

	if (fp == NULL)
		return;
	fprintf(fp, "decision: trigger %s; plan %s;", trigger, plan);
	for (i = 0; i < r->n; i++) {
		const struct apply_action *a = &r->acts[i];
		fprintf(fp, "%s %s %s %ld->%ld", i ? "," : "", a->kind,
		    a->name, a->was, a->nodes);
		if (a->reason[0] != '\0')
			fprintf(fp, " (%s)", a->reason);
	}
	if (r->n == 0)
		fputs(" no change", fp);
	if (strcmp(plan, "none") == 0)
		fprintf(fp, "; nodes held %ld", r->nodes);
	else
		fprintf(fp, "; nodes held %ld; objective %.6g; solve %.3f s",
		    r->nodes, objective, secs);
	if (fclose(fp) == 0)
		log_info("%s", line);
	free(line);
	if (x->have_inputs)
		memcpy(w->said_holes, x->in.dig_holes, sizeof w->said_holes);
}

/* The figures of --metrics after an apply step (watch_metrics.c). */
static void
metrics_after(struct watcher *w, const struct decision *x,
    const struct apply_result *r)
{
	struct holes h;
	struct diag d;

	w->m.nodes_held = r->nodes;
	w->m.jobs_running = r->jobs;
	w->m.actions += r->n - (size_t)r->refused;
	w->m.giving_back = w->giving_back;
	if (!x->have_inputs || w->o->metrics == NULL)
		return;
	w->m.jobs_waiting = (long)x->in.njobs > r->jobs ?
	    (long)x->in.njobs - r->jobs : 0;
	/* Parsed again only when the holes changed (10,000 nodes: ms). */
	if (strcmp(w->m.idle_of, x->in.dig_holes) == 0)
		return;
	holes_init(&h);
	if (holes_parse(&h, "holes/current.yaml", x->in.holes.buf,
	    x->in.holes.len, &d) == 0) {
		w->m.nodes_idle = (long)h.n;
		snprintf(w->m.idle_of, sizeof w->m.idle_of, "%s",
		    x->in.dig_holes);
	}
	holes_free(&h);
}

/*
 * Exit 75 from the apply step is a stale plan (an input changed since the
 * solve read them: the next pass solves again; apply_run() says which in
 * r.stale) or a failure to retry later, logged (a job that did not stop,
 * one already running, Slurm not answering).
 */
static int
chain_apply(struct watcher *w, const char *trigger, struct decision *x,
    struct diag *d)
{
	struct apply_opts o = { .now = (long long)time(NULL),
	    .inputs = x->have_inputs ? &x->in : NULL,
	    .plan = x->parsed ? &x->plan : NULL, .jobs = &w->jobs_parsed };
	long long ptime = x->parsed ? x->plan.time : 0;
	double objective = x->parsed ? x->plan.objective : 0;
	struct apply_result r;
	char stem[64];
	size_t i;
	int rc;

	rc = apply_run(w->sp, &w->b, "plans/current.yaml", x->text, x->len, &o,
	    &r, d);
	metrics_after(w, x, &r);
	if (rc < 0 && d->code == EX_TEMPFAIL && r.stale != NULL) {
		/*
		 * What changed without a plan (a node taken back: adopt with
		 * fewer; a job that ended) is a decision line too.
		 */
		if (r.n > (size_t)r.refused)
			log_decision(w, x, trigger, "none", &r, 0, 0);
		diag_clear(d);
		rc = 1;
	} else if (rc == 0) {
		rc = r.n > 0;
		if (r.cancels_left > 0)
			w->backlog = 1;	/* the rest of cancel/: at once */
		for (i = 0; i < r.n; i++)
			if (strcmp(r.acts[i].kind, "refused") == 0 ||
			    strcmp(r.acts[i].kind, "skipped") == 0)
				log_warn("%s: %s", r.acts[i].name,
				    r.acts[i].note);
		if (r.n > (size_t)r.refused && x->text != NULL) {
			history_plan_stem(x->text, x->len, ptime, stem,
			    sizeof stem);
			log_decision(w, x, trigger, stem, &r, objective, x->secs);
		} else if (r.n > (size_t)r.refused)
			log_decision(w, x, trigger, "none", &r, 0, 0);
		else if (x->made && x->text != NULL && x->have_inputs &&
		    strcmp(x->in.dig_holes, w->said_holes) != 0) {
			/* New holes that change nothing are said too. */
			history_plan_stem(x->text, x->len, ptime, stem,
			    sizeof stem);
			log_decision(w, x, trigger, stem, &r, objective, x->secs);
		}
		/* A refusal would come back every pass: it is not news. */
		if (r.n == (size_t)r.refused)
			rc = 0;
	}
	apply_result_free(&r);
	return rc;
}

/* One pass of the chain; 1 when it did something, so another follows. */
static int
pass(struct watcher *w, const char *trigger, struct diag *d)
{
	struct decision x;
	int did = 0, k;

	if (w->sp->dirs[SPOOL_INCOMING] >= 0) {
		if ((k = chain_intake(w, d)) < 0)
			return -1;
		did |= k;
	}
	fault_point("watch-after-intake");
	did |= chain_profile(w);
	memset(&x, 0, sizeof x);
	did |= chain_solve(w, &x);
	fault_point("watch-before-apply");
	k = chain_apply(w, trigger, &x, d);
	decision_free(&x);
	if (k < 0) {
		/* The state is true after any failed action: try again. */
		log_warn("apply: %s; will retry", d->text);
		w->m.errors[WATCH_ERR_APPLY]++;
		/* --once: 75 for what a retry may cure, not for bad input. */
		if (diag_code_transient(d->code))
			w->left_undone = 1;
		diag_clear(d);
		w->retry_at = now_mono() + w->o->retry;
		k = 0;
	}
	did |= k;
	watch_dirs_runs(w);
	return did;
}

int
watch_chain(struct watcher *w, const char *trigger, struct diag *d)
{
	int i, k = 1;

	for (i = 0; i < WATCH_MAX_PASSES && k > 0 && !term_asked(w); i++)
		k = pass(w, trigger, d);
	w->m.last_pass = (long long)time(NULL);
	if (w->o->metrics != NULL) {
		struct diag md = { 0, "" };
		if (watch_metrics_write(&w->m, w->o->metrics, &md) < 0 &&
		    !w->metrics_failed)
			log_warn("metrics: %s", md.text);
		w->metrics_failed = w->o->metrics != NULL && md.code != 0;
	}
	return k < 0 ? -1 : 0;
}

