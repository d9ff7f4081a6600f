/*
 * NAME
 *	watch_horizon - bf-watch --horizon learnt: the spool's lifetimes
 *	before each decision
 * DESCRIPTION
 *	See watch.h.  The table is the watcher's, read again at each
 *	decision (lifetime_spool_update() reads the file and what history/
 *	gained since), so that a bf-solve -d run beside the daemon and the
 *	daemon itself learn alike.  A table that cannot be had is not a
 *	reason to give nodes back or to keep them: the decision is made
 *	with the fixed look-ahead, as without --horizon learnt, and the
 *	reason said once until it changes or goes.
 */
#include <stdio.h>
#include <string.h>

#include "util/log.h"

#include "watch/watch_int.h"

void
watch_horizon(struct watcher *w, struct solve_opts *o)
{
	struct diag d;

	if (lifetime_spool_update(w->sp, &w->life, &d) < 0) {
		/* the fallback is capped too, as bf-solve's */
		if (w->o->horizon_cap > 0 && o->tfwd > w->o->horizon_cap)
			o->tfwd = w->o->horizon_cap;
		if (strcmp(d.text, w->life_error) != 0)
			log_warn("horizon: %s; the fixed look-ahead (%g s) "
			    "until it is learnt again", d.text, o->tfwd);
		snprintf(w->life_error, sizeof w->life_error, "%s", d.text);
		lifetime_table_free(&w->life);
		return;
	}
	if (w->life_error[0] != '\0')
		log_info("horizon: learnt again");
	w->life_error[0] = '\0';
	o->horizon = SOLVE_HORIZON_LEARNT;
	o->life = &w->life;
	o->horizon_cap = w->o->horizon_cap;
}
