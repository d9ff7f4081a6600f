/*
 * NAME
 *	curve - a job's rate at any node count, from its measured points
 * SYNOPSIS
 *	double r = curve_rate(j->points, j->npoints, 12);
 * DESCRIPTION
 *	r(0) = 0.  Up to the first measured point the rate is linear from
 *	(0, 0); between points it is interpolated linearly; beyond the last
 *	point it follows the last segment's slope, but never above linear
 *	scaling from the last point (r_last * n / n_last) and never below
 *	r_last, so that adding nodes past the measurements neither promises
 *	super-linear speed-up nor costs throughput.  With one point the rate
 *	is linear through it.  A job without points gets the provisional
 *	curve CURVE_PROVISIONAL_RATE samples/s per node until bf-profile
 *	measures it: small enough that it only gets nodes nobody else values.
 * DIAGNOSTICS
 *	None: points are validated by job_parse() (ascending, positive).
 */
#ifndef BF_CURVE_H
#define BF_CURVE_H

#include <stddef.h>

#include "spool/job.h"

#define CURVE_PROVISIONAL_RATE	1.0

double curve_rate(const struct job_point *p, size_t n, long nodes);

#endif
