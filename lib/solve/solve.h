/*
 * NAME
 *	solve - from holes, jobs, state and policy to a plan
 * SYNOPSIS
 *	struct solve s;
 *	struct solve_opts o = SOLVE_OPTS_DEFAULT;
 *	solve_init(&s);
 *	solve_holes(&s, "holes.yaml", buf, len, &d);
 *	solve_job(&s, "jobs/a.yaml", buf, len, JOB_TRUSTED, &d);   (each job)
 *	solve_job_parsed(&s, "jobs/a.yaml", &job, digest, &d);	(or parsed)
 *	solve_state(&s, "state.yaml", buf, len, &d);            (optional)
 *	solve_policy(&s, "policy.yaml", buf, len, &d);          (optional)
 *	solve_profile(&s, "profiles/a.yaml", buf, len, &d);     (after the jobs)
 *	solve_prepare(&s, &o, &d);
 *	solve_run(&s, &o, &d);
 *	char *mps = solve_mps(&s, &o, &mpslen, &d);    (the model as solved)
 *	solve_plan(&s, &o, "plans/x.mps", &plan, &d);
 *	solve_free(&s);
 *
 *	struct solve_count c[n] = {{ &job, was }, ...};
 *	solve_counts(&o, c, n, nfree, &res, &d);	   (counts only: bf-sim)
 * DESCRIPTION
 *	The whole decision, in memory and without process-wide state, so
 *	that bf-solve calls it once and bf-sim once per event.  Inputs come
 *	as file contents with the label used in messages and digests;
 *	solve_job_parsed() takes a job already parsed (taken over: *job is
 *	left empty) with the XXH3-64 of its file's bytes, so that bf-watch
 *	parses a job file again only when it changed (decide.h).
 *
 *	solve_prepare() checks the inputs against each other, works out
 *	each job's current nodes C_J (its state hosts still in the holes
 *	file), the free nodes F (holes nodes nobody holds), and each job's
 *	choices k in {0} and [min, min(max, C + F)] with their growth
 *	max(0, k - C) and value w (tfwd r(k) - cost(k)).
 *
 *	The compact model (bf-solve(1), THE MODEL) has a binary y_J_K per
 *	choice, one row one_J per job (exactly one choice), one row grow
 *	(sum of growths <= F: a node leaves one job and joins another only
 *	in two decisions, so only free nodes can be handed out), and the
 *	policy's rows.  The dynamic program (dp.h) solves it without policy
 *	rows exactly; its answer is CBC's MIP start unless opts.no_start.
 *	The model's objective is divided by a power of two when a
 *	coefficient exceeds SOLVE_OBJ_MAX, so that CBC's absolute
 *	tolerances hold over the documented ranges; and without policy rows
 *	CBC's answer is checked against the DP's: when CBC finds the model
 *	infeasible, fails, or picks a plan worth less than the DP's, the
 *	DP's is the plan, and its status says so.
 *
 *	In a compact model of more than opts.fix_cols columns, the columns
 *	that Lagrange's bound (fix.h) shows to be in no plan as good as a
 *	known one are fixed at 0 before CBC solves it: the DP's plan is the
 *	known one, or, with policy rows or no start, a threshold guessed and
 *	checked by CBC's answer (bf-solve(1), Fixed columns); the model keeps
 *	those bounds, for solve_mps(), which is called after solve_run().
 *	With opts.known (SOLVE_OPTS_DEFAULT), where the DP's plan is provably
 *	the only optimum (the bounds leave one column per job) it is the
 *	plan without running CBC: CBC's answer would be that plan, or one
 *	worth less, which the check above replaces by it; the model written
 *	is the same either way.
 *
 *	solve_profile() applies bf-profile's measurements to the job it
 *	names (solve_profile.c): measured rates replace declared ones at the
 *	counts measured and join them elsewhere; beyond the last measured
 *	count the fitted law caps the extrapolation; measured rescale costs
 *	replace declared ones once they rest on two observations; and while
 *	the advisor proposes a count to probe, the job's choices are only 0,
 *	its current count and that probe.
 *
 *	solve_horizon() (solve_horizon.c), called by solve_prepare(), is
 *	the decision's look-ahead T: opts.tfwd, or with SOLVE_HORIZON_LEARNT
 *	the mean expected remaining idle time of the free idle nodes (until
 *	where the holes file gives it, else opts.life's estimate at the
 *	node's idle age), over all idle nodes when none is free, opts.tfwd
 *	when no node has one; at most opts.horizon_cap when it is set (the
 *	fallback too), at most SOLVE_HORIZON_MAX, to the millisecond
 *	(bf-solve(1), The horizon).  The plan's tfwd is that T, its horizon
 *	"learnt".
 *
 *	solve_plan() maps the counts to nodes deterministically: a shrinking
 *	job gives back its nodes whose until is soonest first, growing jobs
 *	take the free nodes that last longest, highest rescale cost first,
 *	ties by node and job name.
 *
 *	solve_counts() is the same decision for a caller that holds parsed
 *	jobs and counts rather than files (bf-sim, once per event): job J
 *	holds c[J].was nodes and nfree more are idle; c[J].nodes gets the
 *	count chosen, in the caller's job order (ties in the DP follow it).
 *	Nothing is mapped to nodes; res gets the status, objective and
 *	seconds.  The per-node models get the held nodes numbered job by job.
 *	With o.policy (borrowed) the decision takes the admin's policy as
 *	solve_policy() would: its weights on the owners' own (job.owner_uid,
 *	-1 nobody's), its caps, shares and rescale limit as rows, its
 *	max_rate_per_node on copies of the curves; a policy whose rows
 *	cannot all be met is 65, as in bf-solve, with res.status
 *	"infeasible" (on any other failure, res.status is "").
 * DIAGNOSTICS
 *	-1 with d set: 65 "FILE:LINE: what" for bad or inconsistent input,
 *	64 for a combination the solver cannot do (dp with policy rows,
 *	per-node with a policy), 69 when CBC cannot be used, 70 internal.
 */
#ifndef BF_SOLVE_H
#define BF_SOLVE_H

#include <stddef.h>
#include <stdint.h>

#include "util/hash.h"
#include "util/hostlist.h"
#include "util/log.h"

#include "profile/profile.h"
#include "solve/milp.h"
#include "spool/holes.h"
#include "spool/job.h"
#include "spool/lifetime.h"
#include "spool/plan.h"
#include "spool/policy.h"
#include "spool/state.h"

enum solve_solver { SOLVE_CBC, SOLVE_DP };
/* The largest objective coefficient CBC is given (milp_scale_objective). */
#define SOLVE_OBJ_MAX	1073741824.0	/* 2^30 */
/* per-node: BFTrainer's model; per-node-tight: ours (pernode.h) */
enum solve_model { SOLVE_COMPACT, SOLVE_PERNODE, SOLVE_PERNODE_TIGHT };
#define SOLVE_MODEL_NAME(m) ((m) == SOLVE_COMPACT ? "compact" : \
	(m) == SOLVE_PERNODE ? "per-node" : "per-node-tight")

/* How the look-ahead is chosen (bf-solve(1), The horizon) */
enum solve_horizon { SOLVE_HORIZON_FIXED, SOLVE_HORIZON_LEARNT };
/* The learnt horizon's ceiling, seconds: -T's */
#define SOLVE_HORIZON_MAX	1e6

struct solve_opts {
	double tfwd;		/* look-ahead, seconds; learnt: the fallback */
	double seconds;		/* CBC's time limit */
	enum solve_solver solver;
	enum solve_model model;
	int no_start;		/* CBC without the DP's solution (tests) */
	double obj_max;		/* scale the objective above it; 0: the
				 * default SOLVE_OBJ_MAX (tests: larger) */
	size_t fix_cols;	/* fix columns by their bounds only in a
				 * compact model of more columns (0: always,
				 * SIZE_MAX: never) */
	int known;		/* the DP's plan without CBC where it is
				 * provably the only optimum (default; 0:
				 * bf-solve --always-cbc, tests) */
	enum solve_horizon horizon;
	const struct lifetime_table *life;	/* learnt: borrowed, or NULL
						 * (until only) */
	double horizon_cap;	/* learnt: T at most this, seconds; 0 none
				 * (bf-solve --horizon-cap) */
	int probe;		/* restrict a profiled job to the advisor's
				 * count (bf-solve --probe); counts: bf-sim
				 * says per job */
	int prior;		/* a job with no curve gets the median prior
				 * (solve_prior(); --probe: 0) */
	const struct policy *policy;	/* solve_counts(): the admin's
					 * policy, borrowed, or NULL */
};

/*
 * Columns are fixed in every compact model: until 2026-11-25 only above
 * 8,192 columns, but CBC took 4 to 47 ms on the whole model of 10 to 100
 * jobs where the fixed one takes 1 to 9 ms (bench/solve.md), and bf-watch
 * decides at every change of the holes.
 */
#define SOLVE_FIX_COLS	0
/*
 * Seconds of -t left below which a plan found is kept, CBC not run again;
 * a solve that must find a plan gets at least this once -t is spent.
 */
#define SOLVE_LEFT_MIN	0.01
/* Rises of one decision's threshold at most, the last to the best plan
 * (cbc_guess(); the 4 looser guesses and the unfixed model come on top) */
#define SOLVE_GUESS_MAX	32
/* Subgradient steps that raise the policy's multipliers (fix_improve) */
#define SOLVE_IMPROVE_STEPS	40
#define SOLVE_OPTS_DEFAULT { 10.0, 10.0, SOLVE_CBC, SOLVE_COMPACT, 0, 0, \
	SOLVE_FIX_COLS, 1, SOLVE_HORIZON_FIXED, NULL, 0, 0, 1, NULL }

enum { FLOOR_PROVEN = 1, FLOOR_STOPPED, FLOOR_FAILED };

struct solve_job {
	struct job job;
	char *label;
	uint64_t digest;	/* of the job file's bytes */
	size_t state_line;	/* 0: not in the state */
	long stated;		/* nodes the state gives it */
	struct hostlist held;	/* those still in the holes file */
	long was;		/* C_J = held.n */
	long probe;		/* bf-profile's next count to try, 0 none */
	uint64_t profile_digest; /* of its profile's bytes, when profiled */
	int profiled;		/* a profile was applied (solve_profile) */
	double measured;	/* its rate per node at its smallest measured
				 * count, 0: none measured */
	double prior;		/* the prior's rate per node, 0: none */
	struct job_point *prior_pts;	/* counts: the prior's, owned */
	double weight, rate_now, cost_up, cost_down;
	long reach;		/* C_J + F, capped by max_nodes */
	size_t nchoice;
	long *k, *grow;
	double *value;
	int col0;		/* its first column in the compact model */
	size_t pick;		/* the chosen choice */
	int over_cap;		/* its owner holds more than its cap now
				 * (build_compact(), with a policy) */
};

struct solve {
	struct holes holes;
	char *holes_label;
	int have_holes;
	struct state state;
	size_t unobtained;	/* idle nodes left out: not obtained */
	char *state_label;
	int have_state;
	struct policy policy;
	int have_policy, policy_rows;
	size_t njobs, jobcap;
	struct solve_job *jobs;	/* by name after solve_prepare() */
	char dig_holes[HASH_TEXT_LEN], dig_jobs[HASH_TEXT_LEN];
	char dig_state[HASH_TEXT_LEN], dig_policy[HASH_TEXT_LEN];
	long *holder;		/* per holes node: job index or -1 */
	long nfree;		/* F */
	struct milp model;
	int built;
	int obj_scale;		/* the model's objective is divided by 2^this */
	/* Columns fixed at 0 by Lagrange's bound (fix.h), in model units */
	double *colbound;	/* per column: no solution using it is less */
	double *mult;		/* per row: its multiplier, 0 when kept */
	double *lpmult;		/* per row: the LP relaxation's dual */
	int improved;		/* mult raised from lpmult (fix_improve) */
	double lbound;		/* L: no solution is less */
	double fixtol;		/* a bound must pass the threshold by more */
	double threshold;	/* fixed: columns whose bound passes it */
	size_t nfixed;
	int exact;		/* the bounds of the free columns are exact */
	int cbc_not_run;	/* opts.known: the DP's plan was the only one */
	/* how profiles apply: SCALED (0), or a plan's of before (bf-audit) */
	enum profile_curve_rule curve_rule;
	const char *fixby;	/* what the threshold is the objective of */
	char status[128];
	double objective, seconds;
	double started;		/* solve_run()'s start, monotonic seconds:
				 * -t bounds the decision from it */
	double tfwd;		/* the look-ahead used (solve_horizon()) */
	size_t horizon_nodes;	/* learnt: the nodes its mean is over */
	/* per row: a group's floor before lower_floors() lowered it, NAN
	 * where it did not; NULL while none was */
	double *floor_from;
	/* per row: how its floor's search ended (FLOOR_*); NULL while none */
	unsigned char *floor_how;
};

struct solve_count {
	const struct job *job;	/* borrowed: not freed */
	long was;		/* C_J */
	long nodes;		/* the decision */
	long probe;		/* a count to profile (solve_profile), 0 none */
	double measured;	/* as solve_job's: for the prior */
};

struct solve_result {
	char status[128];
	double objective, seconds;
};

void solve_init(struct solve *s);
void solve_free(struct solve *s);
int solve_holes(struct solve *s, const char *label, const char *buf,
    size_t len, struct diag *d);
int solve_job(struct solve *s, const char *label, const char *buf,
    size_t len, int flags, struct diag *d);
int solve_job_parsed(struct solve *s, const char *label, struct job *job,
    uint64_t digest, struct diag *d);
int solve_state(struct solve *s, const char *label, const char *buf,
    size_t len, struct diag *d);
int solve_policy(struct solve *s, const char *label, const char *buf,
    size_t len, struct diag *d);
int solve_profile(struct solve *s, const char *label, const char *buf,
    size_t len, struct diag *d);
void solve_profiles_digest(const struct solve *s, char out[HASH_TEXT_LEN]);
int solve_prepare(struct solve *s, const struct solve_opts *o,
    struct diag *d);
double solve_horizon(struct solve *s, const struct solve_opts *o);
char *solve_mps(struct solve *s, const struct solve_opts *o, size_t *len,
    struct diag *d);
int solve_run(struct solve *s, const struct solve_opts *o, struct diag *d);
int solve_plan(const struct solve *s, const struct solve_opts *o,
    const char *mps, struct plan *p, struct diag *d);
int solve_counts(const struct solve_opts *o, struct solve_count *c,
    size_t n, long nfree, struct solve_result *res, struct diag *d);

#endif
