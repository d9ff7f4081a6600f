/*
 * NAME
 *	decide - a plan from the inputs of a spool, in this process
 * SYNOPSIS
 *	struct inputs in;  inputs_read(&in, &sp, 0, &d);
 *	struct solve_opts o = SOLVE_OPTS_DEFAULT;
 *	struct plan p;  char *text;  size_t len;
 *	decide_spool(&sp, &in, &o, &p, &text, &len, &d);
 *	...  plan_free(&p);  free(text);
 *
 *	struct solve s;  solve_init(&s);
 *	decide_load(&s, &in, DECIDE_CHECK_NAMES, NULL, &d);	(the solver fed)
 *
 *	struct job_cache c;  job_cache_init(&c);	(bf-watch)
 *	decide_spool(&sp, &in, &o, &c, &p, &text, &len, &d);  (each pass)
 *	job_cache_free(&c);
 * DESCRIPTION
 *	decide_load() gives the solver (solve.h) the inputs read by
 *	inputs.h, each under its name in the spool (holes/current.yaml,
 *	jobs/NAME.yaml, profiles/NAME.yaml, state.yaml, policy.yaml), in
 *	the order bf-solve always read them.  With DECIDE_CHECK_NAMES a job
 *	file's name key must be its file's name, as in a spool; a history
 *	manifest is taken as recorded.  With a cache (job_cache.h; else
 *	NULL), a job file whose bytes are those of the last call is not
 *	parsed again: the job parsed then is used (a daemon's 50 job files
 *	took 2.5 ms to parse at every decision); a job file gone is
 *	forgotten.  A file's warnings (unknown keys) are so said once, when
 *	it is first parsed.  bf-apply's steps, which read a job file again
 *	at each action, parse it only when it is not the one decided on.
 *
 *	decide_spool() is bf-solve -d: it solves, writes the model as solved
 *	to plans/TIME-HEX.mps (TIME the holes' time, HEX the XXH3-64 of the
 *	model's text), then the plan to plans/current.yaml, each delivered
 *	by the spool's rule (tmp, fsync, rename); a failure leaves no plan.
 *	The plan, as text and as plan_parse() reads that text back (the
 *	hosts as sets, as bf-apply takes it), is the caller's to free.  bf-solve
 *	and bf-watch both call it, so a plan made in the daemon is the
 *	plan bf-solve makes, byte for byte but for solver.seconds.
 *
 *	decide_give_back() is the plan when no plan can be made (why: the
 *	error that stopped the decision, for the notes), so that no input a
 *	person writes can keep a node the scheduler took back: every job of
 *	the state keeps the nodes it holds that are still in the holes and
 *	gets none more; one left below its min_nodes (1 when its job file
 *	cannot be read) gets none; with holes that cannot be read, every
 *	node is given back.  Nothing starts.  Its solver is "give-back"
 *	(model none, status no-plan, no MPS), its inputs the digests of the
 *	files as they are, so that bf-apply enacts it and history keeps it
 *	as any plan; bf-audit makes it again from those inputs.  Only an
 *	unreadable state.yaml (bftrainer's own) leaves no plan at all.
 *	decide_give_back_spool() writes it as plans/current.yaml.
 *
 *	decide_check_files() checks files before an admin installs them
 *	(bf-watch --check FILE...): each as what it is, a policy
 *	(policy.yaml, or a file with users, groups or max_rescales), a holes
 *	file (idle), a profile (rates, fit) or a job file, by the parser
 *	that will read it; one line each on out, "FILE: a good KIND" or the
 *	parser's "FILE:LINE: what is wrong".  decide_check_spool() loads
 *	the spool's inputs as a decision would and prepares the model,
 *	writing nothing (bf-watch --check without files).  Both return -1
 *	(65 for a file refused) when one would be refused.
 * DIAGNOSTICS
 *	-1 with d set: solve.h's codes, 73/74/75 when a file cannot be
 *	written.
 */
#ifndef BF_DECIDE_H
#define BF_DECIDE_H

#include <stddef.h>
#include <stdio.h>

#include "solve/solve.h"
#include "spool/inputs.h"
#include "spool/job_cache.h"
#include "spool/plan.h"
#include "spool/spool.h"

#define DECIDE_CHECK_NAMES	0x1

int decide_load(struct solve *s, const struct inputs *in, int flags,
    struct job_cache *c, struct diag *d);
int decide_spool(struct spool *sp, const struct inputs *in,
    const struct solve_opts *o, struct job_cache *c, struct plan *p,
    char **text, size_t *len, struct diag *d);
int decide_check_files(char *const files[], size_t n, FILE *out,
    struct diag *d);
int decide_check_spool(struct spool *sp, FILE *out, struct diag *d);
int decide_give_back(const struct inputs *in, const char *why,
    struct plan *p, struct diag *d);
int decide_give_back_spool(struct spool *sp, const struct inputs *in,
    const char *why, struct plan *p, char **text, size_t *len,
    struct diag *d);

#endif
