/*
 * NAME
 *	slurm - usable nodes from a live Slurm: sinfo and squeue output
 * SYNOPSIS
 *	struct slurm_opts so = { .own = "bf" };
 *	slurm_holes(&so, &h, &d);
 *	slurm_parse(&so, sinfo_text, squeue_text, &h, &d);
 * DESCRIPTION
 *	slurm_holes() runs
 *		sinfo -h -N -o '%N|%T|%P'
 *		squeue -h -o '%i|%P|%j|%T|%N|%S|%Y'
 *	(found on PATH, or the shell commands so->sinfo and so->squeue in
 *	their place, which must print the same) and gives the nodes
 *	bftrainer may use now, with the time each is expected back:
 *	  - idle nodes;
 *	  - nodes the backfill scheduler has planned for a pending job
 *	    (state planned), until the job's expected start (%S) when the
 *	    node is in its SCHEDNODES (%Y); a planned node in no job's
 *	    SCHEDNODES is left out, its reclaim time being unknown;
 *	  - allocated and mixed nodes whose running jobs all belong to
 *	    bftrainer: partition or job name so->own;
 *	and any usable node in a pending job's SCHEDNODES gets that job's
 *	expected start as until (the earliest, if several).  Every other
 *	state, and any state with a flag (*, ~, #, !, %, $, @, ^, -, or a
 *	+WORD such as +DRAIN), is not usable: drained, draining, down,
 *	maint, reserved, completing, not responding, powered down, ....
 *	Slurm prints start times in local time; they are read as such.
 *
 *	slurm_parse() does the same on output already read, for tests.
 * DIAGNOSTICS
 *	-1 with d set: 69 "sinfo: not found on PATH" or a command the shell
 *	cannot find (status 127); 75 a command that failed otherwise (Slurm
 *	exits 1 when slurmctld does not answer); 65 "sinfo:LINE: what" or
 *	"squeue:LINE: what" for output it cannot parse.
 */
#ifndef BF_SLURM_H
#define BF_SLURM_H

#include "util/log.h"

#include "spool/holes.h"

#define SLURM_SINFO_ARGS	"-h -N -o '%N|%T|%P'"
#define SLURM_SQUEUE_ARGS	"-h -o '%i|%P|%j|%T|%N|%S|%Y'"

struct slurm_opts {
	const char *own;	/* bftrainer's partition or job name */
	const char *sinfo;	/* shell command, or NULL: sinfo from PATH */
	const char *squeue;
};

int slurm_holes(const struct slurm_opts *so, struct holes *h,
    struct diag *d);
int slurm_parse(const struct slurm_opts *so, char *sinfo, char *squeue,
    struct holes *h, struct diag *d);

#endif
