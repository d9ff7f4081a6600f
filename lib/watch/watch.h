/*
 * NAME
 *	watch - the daemon's loop: wake on the spool, run the chain
 * SYNOPSIS
 *	struct watch_opts o = WATCH_OPTS_DEFAULT;
 *	watch_run(&sp, &o, &d);
 * DESCRIPTION
 *	watch_run() holds the spool's lock and runs passes: intake of
 *	incoming/, bf-profile for the jobs whose progress logs grew, bf-solve
 *	when an input's XXH3 differs from the current plan's, then apply (in
 *	this process, so that it is the jobs' supervisors' parent and the
 *	spool's lock holder, through the backend o->backend names, as
 *	bf-apply --backend).  Passes repeat until one finds nothing to do.
 *
 *	A pass runs at start, on every inotify event in incoming/, holes/,
 *	progress/, profiles/, jobs/ and run/NAME/ (an event is only a
 *	wake-up: the pass reads the spool itself), after an event queue
 *	overflow, on SIGCHLD and SIGHUP, and every rescan seconds.  Events
 *	are gathered for debounce seconds after the first, so a burst gives
 *	one decision; a new holes file is not waited for, since the main
 *	scheduler's nodes are the one input that cannot wait.
 *
 *	A child that fails is logged with its exit code; codes 75 and 71 are
 *	retried after retry seconds, others once an input changes.
 *
 *	The intake takes at most 0.25 s a pass and stops for a new holes
 *	file; the files left are taken by the next pass, at once.
 *	Retention (retain.h): at start and every hour, refusals older than
 *	keep_rejected seconds leave rejected/, and with keep_models only the
 *	models of that many newest plans stay in plans/ and history/.
 *	SIGTERM and SIGINT end the loop after the step in progress.
 *
 *	With o->learnt each decision's look-ahead is learnt (bf-solve
 *	--horizon learnt, at most o->horizon_cap seconds when it is set):
 *	SPOOL/lifetimes is brought up to date with history/ before it
 *	(lifetime.h); when it cannot be (a damaged file, a full disk) the
 *	decision takes the fixed look-ahead, said once per reason
 *	(watch_horizon.c).
 * DIAGNOSTICS
 *	One line per decision on stderr.  -1 with d set: 75 the spool is
 *	locked by another watcher (its pid named), 69 no inotify, 64 no
 *	such backend, 70.
 */
#ifndef BF_WATCH_H
#define BF_WATCH_H

#include "util/log.h"

#include "spool/spool.h"

struct watch_opts {
	double debounce;	/* seconds to gather a burst of events */
	double rescan;		/* seconds between unprompted passes */
	double retry;		/* seconds before retrying a 75/71 child */
	double grace;		/* SIGTERM to SIGKILL, for stops */
	double holes_interval;	/* seconds between holes_cmd runs */
	const char *holes_cmd;	/* writes a holes file on stdout, or NULL */
	int allow_root;
	int once;		/* run until quiet, then return */
	int no_profile;		/* skip bf-profile */
	const char *backend;	/* apply's backend: "local" or "slurm" */
	double keep_rejected;	/* seconds a refusal is kept; 0: for ever */
	size_t keep_models;	/* models of the newest plans kept; 0: all */
	const char *metrics;	/* Prometheus text file, or NULL (metrics.h) */
	int shadow;		/* decide and record, enact nothing */
	int learnt;		/* --horizon learnt (bf-solve(1)) */
	double horizon_cap;	/* learnt: T at most this, 0 none */
	int probe;		/* --probe: the advisor's counts (bf-solve(1)) */
	double limit;		/* -t: a decision's time limit, seconds */
};

#define WATCH_DAY		86400.0
#define WATCH_OPTS_DEFAULT { 0.1, 60, 5, 10, 60, NULL, 0, 0, 0, "local", \
	30 * WATCH_DAY, 0, NULL, 0, 0, 0, 0, 10 }

int watch_run(struct spool *sp, const struct watch_opts *o, struct diag *d);

#endif
