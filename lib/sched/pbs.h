/*
 * NAME
 *	pbs - usable nodes from PBS Professional or OpenPBS: pbsnodes, qstat
 *	and pbs_rstat output
 * SYNOPSIS
 *	struct pbs_opts po = { .own = "bf" };
 *	pbs_holes(&po, &h, &d);
 *	pbs_parse(&po, nodes, nlen, jobs, jlen, resvs, rlen, &h, &d);
 *	pbs_time("Thu Nov  9 13:04:14 2023", &t);
 *	pbs_vnodes("(a:ncpus=1)+(b:ncpus=2+c:mem=3kb)", &hl);
 * DESCRIPTION
 *	pbs_holes() runs
 *		pbsnodes -a -F json
 *		qstat -f -F json
 *		pbs_rstat -f
 *	(found on PATH, or the shell commands po->pbsnodes, po->qstat and
 *	po->rstat in their place, which must print the same) and gives the
 *	hosts bftrainer may use now, each with the time it is expected back.
 *
 *	Now is pbsnodes' "timestamp" (the server's clock when it answered);
 *	it is also the holes file's time.  A vnode (a key of pbsnodes'
 *	"nodes") is usable when
 *	  - its state is "free" alone, it has no "jobs", and no entry of its
 *	    "resources_assigned" is above zero; or
 *	  - its state is made of free, job-busy, job-exclusive and
 *	    job-sharing only, it has jobs, and qstat lists every one of them
 *	    in queue po->own (bftrainer's pilots);
 *	and every reservation its "resv" names is one pbs_rstat shows
 *	starting after now, and no reservation of pbs_rstat that has started
 *	and not ended holds it in resv_nodes.  Any other state word (down,
 *	offline, resv-exclusive, state-unknown, provisioning, sleep, ...) makes
 *	it unusable.  A host (resources_available.host, else the vnode's name
 *	without a final "[N]") is usable when all its vnodes are.  Its until
 *	is the earliest, after now, of the estimated.start_time of each job
 *	in state Q whose estimated.exec_vnode holds one of its vnodes (jobs
 *	in other states keep stale estimates: they are ignored), and the
 *	reserve_start of each reservation that holds one in resv or
 *	resv_nodes.
 *
 *	pbs_time() reads the times qstat (ctime(3): "Thu Nov  9 13:04:14
 *	2023") and pbs_rstat ("Wed Aug 06 10:00:00 2025") print, in local
 *	time as the commands wrote them (TZ); "UNKNOWN" is 0.
 *	pbs_vnodes() appends the vnode names of an exec_vnode or resv_nodes
 *	value, "(vnode:res=val:...+vnode...)+(...)", to out.
 *	pbs_vnode_host() gives the host of a vnode, malloc'd: its
 *	resources_available.host when there is one (host, else NULL), else
 *	its name without a final "[N]".
 *
 *	pbs_parse() does what pbs_holes() does on output already read; empty
 *	qstat or pbs_rstat output means no jobs, no reservations.
 * DIAGNOSTICS
 *	-1 with d set: 69 "pbsnodes: not found on PATH; is PBS installed?"
 *	or a command the shell cannot find (status 127); 75 a command that
 *	failed otherwise ("qstat exited with status 1; is the PBS server
 *	answering?"); 65 for output it cannot read: "pbsnodes:LINE: what"
 *	or "qstat:LINE: what" for JSON that does not parse (jansson's
 *	message), "pbsnodes: node NAME: what" and "qstat: job ID: what" for
 *	a value of the wrong kind, "pbs_rstat:LINE: what".  pbs_time() and
 *	pbs_vnodes() return -1 for text of another form.
 */
#ifndef BF_PBS_H
#define BF_PBS_H

#include <stddef.h>

#include "util/hostlist.h"
#include "util/log.h"

#include "spool/holes.h"

#define PBS_PBSNODES_ARGS	"-a -F json"
#define PBS_QSTAT_ARGS		"-f -F json"
#define PBS_RSTAT_ARGS		"-f"

struct pbs_opts {
	const char *own;	/* bftrainer's queue */
	const char *pbsnodes;	/* shell command, or NULL: pbsnodes from PATH */
	const char *qstat;
	const char *rstat;
};

int pbs_holes(const struct pbs_opts *po, struct holes *h, struct diag *d);
int pbs_parse(const struct pbs_opts *po, const char *nodes, size_t nlen,
    const char *jobs, size_t jlen, const char *resvs, size_t rlen,
    struct holes *h, struct diag *d);
int pbs_time(const char *s, long long *t);
int pbs_vnodes(const char *spec, struct hostlist *out);
char *pbs_vnode_host(const char *vnode, const char *host);

#endif
