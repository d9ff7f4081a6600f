/*
 * NAME
 *	fault - named crash points for the crash-consistency tests
 * DESCRIPTION
 *	See fault.h.  BF_FAULT is read once; a malformed count means 1.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "util/fault.h"

static int fault_loaded;
static char fault_name[128];
static long fault_countdown;

static void
fault_load(void)
{
	const char *spec = getenv("BF_FAULT");
	const char *colon;
	size_t len;

	fault_loaded = 1;
	if (spec == NULL || *spec == '\0')
		return;
	colon = strchr(spec, ':');
	len = colon ? (size_t)(colon - spec) : strlen(spec);
	if (len >= sizeof fault_name)
		return;
	memcpy(fault_name, spec, len);
	fault_name[len] = '\0';
	fault_countdown = colon ? strtol(colon + 1, NULL, 10) : 1;
	if (fault_countdown < 1)
		fault_countdown = 1;
}

void
fault_point(const char *name)
{
	if (!fault_loaded)
		fault_load();
	if (fault_name[0] == '\0' || strcmp(name, fault_name) != 0)
		return;
	if (--fault_countdown == 0)
		raise(SIGKILL);
}
