/*
 * NAME
 *	now - seconds on the monotonic clock
 * SYNOPSIS
 *	double until = now_mono() + 2.5;
 *	while (now_mono() < until) ...
 * DESCRIPTION
 *	now_mono() is CLOCK_MONOTONIC in seconds, for deadlines and
 *	durations: it never jumps with the wall clock.  Not a time of day.
 */
#ifndef BF_NOW_H
#define BF_NOW_H

double now_mono(void);

#endif
