/*
 * NAME
 *	intake - move job files from incoming/ to jobs/ or rejected/
 * SYNOPSIS
 *	struct intake_result r;
 *	intake_run(&sp, time(NULL), NULL, &r, &d);	(all of incoming/)
 * DESCRIPTION
 *	For every name in incoming/ not starting with '.', in name order:
 *	anything but a regular file (a symbolic link, FIFO, socket, device,
 *	directory) is left where it is, never opened, followed or moved, and
 *	reported once (a memo, when given, remembers what earlier runs
 *	reported); a regular file with more than one link is refused without
 *	being opened; a file over FILE_MAX_JOB bytes is refused unread;
 *	otherwise it is parsed and validated.  An accepted job is written in
 *	canonical form to jobs/NAME.yaml with the file's owner uid (from
 *	fstat, never from its text), the intake time and the source file's
 *	name and XXH3, and then removed from incoming/.  A refused file is
 *	renamed into rejected/ beside NAME.err holding the reason as
 *	"FILE:LINE: what".  Nothing is overwritten: a taken job name is a
 *	refusal; in rejected/ both NAME and NAME.err must be free, or the
 *	name gets a numeric suffix, as does a name ending in ".err", which
 *	is a reason's; the reason is delivered with FILE_NOREPLACE, and the
 *	file is the one decided on, hard-linked from its held descriptor
 *	(/proc/self/fd), not whatever the name holds by then.
 *
 *	One file's trouble never stops the others: a file that cannot be
 *	moved or removed is left in incoming/ with a warning, and the run
 *	goes on.
 *
 *	With opts, a run decides at most opts->max files (accepted, refused
 *	or left: each reads and writes), and asks opts->stop() before each;
 *	either ends it early with r->more set, the rest left for the next
 *	run.  Entries left in place cost a status only and do not count.
 *	bf-watch so answers a new holes file within one file's decision,
 *	however many files wait (bf-watch(1)).
 *
 *	Crash safety: the job is written before the incoming file is removed,
 *	and a restart that finds the same file (same name, owner and XXH3)
 *	already accepted only removes it.  The reason is written before the
 *	refused file is linked; a reason left without its file by a crash is
 *	reused only by a refusal that would write the same bytes for the
 *	same submitter; a file left under both names by a crash is found in
 *	rejected/ by the next intake, which only removes it from incoming/.
 *	A file the intake cannot read (run as another user than root) is not
 *	the file's fault: it is left in incoming/ with a warning.
 *
 *	Races: the name is opened once with O_PATH (nothing read, no link
 *	followed) and held until the file is decided, so its inode number
 *	names it alone; the file read must be that inode, and it is moved or
 *	removed only while the name still holds it.  A file its owner put in
 *	its place meanwhile is left for the next intake (bf-submit(1)).
 * DIAGNOSTICS
 *	One line per file on stderr: "accepted incoming/a.yaml as
 *	jobs/x.yaml (uid 1000)", "rejected incoming/a.yaml as rejected/a.yaml:
 *	REASON" or "left incoming/a.yaml in place: REASON".
 *	-1 only when the spool itself fails (cannot list incoming/, cannot
 *	write a new file into jobs/ or rejected/: a full disk, a read-only
 *	spool).
 */
#ifndef BF_INTAKE_H
#define BF_INTAKE_H

#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "util/log.h"

#include "spool/spool.h"

#define INTAKE_INPLACE_SHOWN	10	/* reported by name per run */
#define INTAKE_MEMO_MAX		65536	/* entries a memo remembers */

struct intake_result {
	size_t accepted;
	size_t rejected;
	size_t deferred;	/* left in incoming/: could not be decided now */
	size_t inplace;		/* left in incoming/: not regular files */
	size_t inplace_new;	/* ... of them, not in the memo */
	int more;		/* stopped early: names are left to decide */
};

struct intake_entry {
	dev_t dev;
	ino_t ino;
};

/* The entries left in place that a run met, so the next need not say so
 * again (bf-watch keeps one for its life); zeroed to start. */
struct intake_memo {
	struct intake_entry *seen, *next;
	size_t nseen, nnext, capnext;
};

/* How much one run may do (bf-watch); NULL: all of incoming/. */
struct intake_opts {
	struct intake_memo *memo;	/* NULL: say every entry in place */
	size_t max;		/* decide at most so many files; 0: all */
	int (*stop)(void *arg);	/* asked before each file: 1 stops the run */
	void *arg;
};

int intake_run(struct spool *sp, time_t now, const struct intake_opts *o,
    struct intake_result *r, struct diag *d);
void intake_memo_free(struct intake_memo *m);

#endif
