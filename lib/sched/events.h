/*
 * NAME
 *	events - the usable-node set of a replayed log, change by change
 * SYNOPSIS
 *	struct events *ev;
 *	struct event e;
 *	events_open_swf(&ev, "theta.swf.gz", &d);
 *	events_open_trace(&ev, "summit.csv.gz", epoch, &d);
 *	events_start(ev, from, &e, &d);		the idle set at from
 *	while ((rc = events_next(ev, to, &e, &d)) > 0)
 *		use e.time, e.join[0..njoin), e.leave[0..nleave);
 *	events_name(ev, node);
 *	events_close(ev);
 * DESCRIPTION
 *	An events stream replays an SWF job log (swf(3)) or an idle-node trace
 *	(trace(3)) once, front to back, and gives the set of idle nodes at a
 *	start time and then each change of it up to an end time: the nodes
 *	that join and those that leave, as node numbers in ascending order
 *	(events_name() gives each its name).  Several changes at one second
 *	are one event, and a second whose changes cancel out gives none.
 *	events_start() reports every node idle at from as joining, so a
 *	consumer starts from the empty set; it is called once, before
 *	events_next().  The arrays stay valid until the next call.
 * DIAGNOSTICS
 *	-1 with d set, as swf(3) and trace(3) say.
 */
#ifndef BF_EVENTS_H
#define BF_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "util/log.h"

struct events;

struct event {
	long long time;
	size_t njoin, nleave;
	const uint32_t *join, *leave;
};

int events_open_swf(struct events **evp, const char *path, struct diag *d);
int events_open_trace(struct events **evp, const char *path,
    long long epoch, struct diag *d);
int events_start(struct events *ev, long long from, struct event *e,
    struct diag *d);
int events_next(struct events *ev, long long to, struct event *e,
    struct diag *d);
size_t events_nodes(const struct events *ev);
const char *events_name(struct events *ev, uint32_t node);
const struct swf *events_swf(const struct events *ev);
void events_close(struct events *ev);

#endif
