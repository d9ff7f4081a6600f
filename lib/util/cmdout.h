/*
 * NAME
 *	cmdout - the whole standard output of a scheduler's command
 * SYNOPSIS
 *	if (!cmdout_on_path("sinfo")) ...
 *	cmdout_run("sinfo", "sinfo -h -N", "is slurmctld answering?",
 *	    &text, &len, &d);
 *	free(text);
 * DESCRIPTION
 *	bf-holes reads a live scheduler by running its commands (sinfo,
 *	squeue; pbsnodes, qstat, pbs_rstat) or shell commands a site or a
 *	test gives in their place.
 *
 *	cmdout_on_path() says whether prog is an executable file in one of
 *	the directories of PATH.
 *
 *	cmdout_run() runs cmd with /bin/sh -c (proc_run()), its standard
 *	error left as bf-holes's own, and reads its standard output to the
 *	end into a malloc'd buffer, NUL-terminated, *len its length.  Output
 *	beyond CMDOUT_MAX bytes is read and dropped, so that the command can
 *	finish, and refused.  The command has cmdout_timeout() seconds: then
 *	its process group is killed, a warning logged, and it fails (75),
 *	so that a scheduler that hangs is tried again later and never blocks
 *	the caller longer.
 *
 *	cmdout_timeout() is the bound of every scheduler command bftrainer
 *	runs (bf-holes's here, bf-apply's pilot commands in apply/pilots.c):
 *	BF_SCHED_TIMEOUT seconds from the environment, a number above 0 up
 *	to 86400, else CMDOUT_TIMEOUT.
 * DIAGNOSTICS
 *	-1 with d set: 69 "LABEL: command not found: CMD" when the shell
 *	cannot find cmd (status 127); 75 "LABEL exited with status N; HINT"
 *	or "LABEL was killed by signal N" when it fails otherwise (the
 *	scheduler's commands fail when its server does not answer), "LABEL:
 *	no answer in N s (BF_SCHED_TIMEOUT); killed; HINT" at the timeout; 65
 *	"LABEL: output larger than N bytes or out of memory".
 */
#ifndef BF_CMDOUT_H
#define BF_CMDOUT_H

#include <stddef.h>

#include "util/log.h"

#define CMDOUT_MAX	(64 * 1024 * 1024)
#define CMDOUT_TIMEOUT	30.0	/* seconds, without BF_SCHED_TIMEOUT */

int cmdout_on_path(const char *prog);
double cmdout_timeout(void);
int cmdout_run(const char *label, const char *cmd, const char *hint,
    char **out, size_t *len, struct diag *d);

#endif
