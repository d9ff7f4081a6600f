/*
 * NAME
 *	now - seconds on the monotonic clock
 * DESCRIPTION
 *	See now.h.
 */
#include <time.h>

#include "util/now.h"

double
now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}
