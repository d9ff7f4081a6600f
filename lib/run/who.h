/*
 * NAME
 *	who - a job's owner: the uid, and what the password database says
 * SYNOPSIS
 *	struct who w;
 *	who_of(uid, &w);
 *	if (who_become(&w) < 0) ...	(in a child, as root: for good)
 * DESCRIPTION
 *	who_of() fills w for uid: its primary gid, name and home from the
 *	password database, or for a uid without an entry its own number as
 *	gid, no name, no supplementary groups and home "/" (known 0).
 *
 *	who_become() makes the calling process that user for good: the
 *	groups (initgroups(3), or none when unknown), the gid, then the
 *	uid, and checks that root cannot be had back.  Called by a process
 *	that already is that user, it does nothing; by another non-root
 *	user, it fails.  0, or -1 with errno set.
 */
#ifndef BF_WHO_H
#define BF_WHO_H

#include <limits.h>
#include <sys/types.h>

struct who {
	uid_t uid;
	gid_t gid;
	char name[256], home[PATH_MAX];
	int known;		/* in the password database */
};

void who_of(uid_t uid, struct who *w);
int who_become(const struct who *w);

#endif
