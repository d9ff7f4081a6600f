/*
 * NAME
 *	who - a job's owner: the uid, and what the password database says
 * DESCRIPTION
 *	See who.h.
 */
#define _GNU_SOURCE		/* initgroups */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "run/who.h"

void
who_of(uid_t uid, struct who *w)
{
	struct passwd *pw = getpwuid(uid);

	memset(w, 0, sizeof *w);
	w->uid = uid;
	/* A uid without a passwd entry: its own gid, no groups, home /. */
	w->gid = pw ? pw->pw_gid : (gid_t)uid;
	w->known = pw != NULL;
	snprintf(w->name, sizeof w->name, "%s", pw ? pw->pw_name : "");
	snprintf(w->home, sizeof w->home, "%s", pw && pw->pw_dir[0] ?
	    pw->pw_dir : "/");
}

/* Become the job's user for good; as that user already, nothing to do. */
int
who_become(const struct who *w)
{
	if (geteuid() != 0)
		return geteuid() == w->uid ? 0 : -1;
	if (w->known ? initgroups(w->name, w->gid) : setgroups(0, NULL))
		return -1;
	if (setgid(w->gid) < 0 || setuid(w->uid) < 0)
		return -1;
	if (w->uid != 0 && setuid(0) == 0)
		return -1;
	return 0;
}
