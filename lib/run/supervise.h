/*
 * NAME
 *	supervise - the process that runs one job: its command, its workers
 * SYNOPSIS
 *	struct supervisor_env env = { tmpfd, spool_lockfd, pilot };
 *	... fork(); in the child: supervise(&env, &launch, rfd, lockfd, pw);
 *	(or launcher_send(&launcher, &launch, rfd, lockfd, pw): launcher.h)
 *	pid = supervise_warm(&env, &sock);	(launcher.h)
 * DESCRIPTION
 *	supervise() is the body of a job's supervisor (backend_local.c has
 *	it forked, for every backend: by bf-watch's launcher, else itself).
 *	What it takes of its caller is env: the spool's tmp/ (records are
 *	made there), the spool's lock (closed at once: a supervisor never
 *	holds it; -1 when none) and the pilot commands of the backend (for
 *	a warm supervisor's launch, which cannot carry a pointer); the job
 *	is the launch (launch.h), its records run/NAME/ (rundir.h).
 *	It runs the job's command once, on this host, and, when the job has
 *	a worker, one worker per host of run/NAME/hosts, each in its own
 *	process group, as the job's owner:
 *
 *		local backend	/bin/sh on this host, BF_HOST naming the node
 *		slurm backend	srun --jobid=PILOT --overlap -N1 -n1 -w NODE,
 *				a step inside the pilot job that holds NODE
 *				(run/NAME/pilots), so the worker is inside
 *				that node's allocation and ends with it
 *		pbs backend	ssh NODE pbs_attach -j PILOT, a session of
 *				the node attached to the pilot job that holds
 *				it, which PBS ends with the pilot
 *
 *	The argv of a worker inside a pilot, and of a signal to it, are the
 *	scheduler's (l->pilot, a struct pilot_exec of pilot.h; NULL for the
 *	local backend).
 *
 *	It reads run/NAME/hosts whenever the file changes (it is replaced
 *	by rename, so its inode tells) and at most every SUPERVISE_TICK:
 *	a host that joins gets a worker at once; a host that leaves has its
 *	worker sent SIGTERM and, GRACE seconds later, SIGKILL (the notice of
 *	a shrink bftrainer chose).  A worker that dies while its host is held
 *	is started again after 1, 2, 4 ... (at most 30) seconds, at most
 *	worker_restarts times per stay of the host; one that exits 0 is done
 *	and is not started again.  When the command ends (by itself or
 *	stopped), every worker gets SIGTERM, then SIGKILL after the grace,
 *	and the exit record is written last: a free lock means nothing of the
 *	job runs.
 *
 *	The supervisor keeps run/NAME/workers current, one line per host it
 *	has a worker record for, sorted by host:
 *
 *		HOST PGID RESTARTS STATE
 *
 *	(PGID 0 when none runs; STATE running, stopping, waiting, done or
 *	failed), and appends to run/NAME/workers.log one line per event,
 *	"TIME start|exit|term|kill HOST PGID [WHY]".
 *
 *	The command lines are not on any command line (/proc/PID/cmdline is
 *	readable by every user): the shell runs 'eval "$BF_COMMAND"', and
 *	BF_COMMAND is in the environment, which only the owner and root can
 *	read.
 *
 *	supervise_warm() forks a supervisor ahead of its launch (for the
 *	launcher of bf-watch, launcher.h): it sets itself up as supervise()
 *	does (its session, its signals, only its socket and tmp/ kept, its
 *	standard streams /dev/null), forks its job's process, which makes
 *	its own process group and waits, says "r" on its socket (ready), and
 *	waits itself for one launch there, sent as to the launcher
 *	(launch_send(): the pack, run/NAME/, the lock, the start pipe).  Then
 *	it opens the job's output, writes the pid record naming that process
 *	group, and only then sends the job's process the launch and its three
 *	standard streams, on which it becomes the owner and runs the command,
 *	exactly as a job forked by supervise(); from there it is supervise().
 *	A start whose job's process cannot be let go (it died, the send
 *	failed) has its pid record removed and fails, as one unrecorded.
 *	Unused, it exits at the end of file of its socket or when its job's
 *	process dies, and that process at the end of file of its own socket.
 *	It returns the supervisor's pid and the caller's end of the socket
 *	in *sock, or -1 with errno set.
 */
#ifndef BF_SUPERVISE_H
#define BF_SUPERVISE_H

#include <sys/types.h>

#include "run/launch.h"
#include "run/pilot.h"

#define SUPERVISE_TICK		0.25	/* seconds between looks at hosts */

struct supervisor_env {
	int tmpfd;		/* the spool's tmp/ */
	int spool_lockfd;	/* closed by every supervisor; -1: none */
	const struct pilot_exec *pilot;	/* the backend's; NULL: local */
};

_Noreturn void supervise(const struct supervisor_env *env,
    const struct launch *l, int rfd, int lockfd, int pw);
pid_t supervise_warm(const struct supervisor_env *env, int *sock);

#endif
