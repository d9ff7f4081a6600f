/*
 * NAME
 *	fault - named crash points for the crash-consistency tests
 * SYNOPSIS
 *	fault_point("atomic-before-rename");
 * DESCRIPTION
 *	When the environment variable BF_FAULT is NAME or NAME:N, the process
 *	kills itself with SIGKILL the first (or N-th) time it reaches the point
 *	NAME, exactly as an outside kill -9 would at that instant.  Without
 *	BF_FAULT a fault point costs one comparison.  The points are listed in
 *	bf-spool(5) so that the tests can aim at every step of every protocol.
 */
#ifndef BF_FAULT_H
#define BF_FAULT_H

void fault_point(const char *name);

#endif
