/*
 * NAME
 *	bf-audit - re-solve a plan from history, or list the decisions
 * SYNOPSIS
 *	bf-audit [-hV] [-d SPOOL] PLAN
 *	bf-audit --log [-d SPOOL]
 * DESCRIPTION
 *	See bf-audit(1).  A plan in history/ has beside it the manifest of
 *	the inputs it was made from (TIME-HEX.inputs.yaml, history.h), each
 *	stored once under history/objects/.  The audit feeds those bytes to
 *	the same solve.c, with the plan's own options, and compares the plan
 *	it gets with the recorded one, solver.seconds aside.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/cli.h"
#include "util/file.h"
#include "util/log.h"
#include "util/version.h"
#include "util/ydoc.h"

#include "decide.h"
#include "history.h"
#include "plan.h"
#include "solve.h"
#include "spool.h"
#include "state.h"


static _Noreturn void
usage(int code)
{
	fprintf(code ? stderr : stdout,
	    "usage: bf-audit [-hV] [-d SPOOL] PLAN\n"
	    "       bf-audit --log [-d SPOOL]\n");
	exit(code);
}

static char *
slurp(int dirfd, const char *name, const char *label, size_t *len)
{
	struct diag d;
	char *buf;

	if (inputs_read_stored(dirfd, name, label, &buf, len, &d) < 0)
		log_diag_fatal(&d);
	return buf;
}

/*
 * history/objects/, opened without following a link and without being
 * made: -1 when it does not exist (no plan was enacted yet).
 */
static int
open_objects(struct spool *sp)
{
	char label[PATH_MAX + 32];
	struct diag d;
	struct stat st;
	int hfd, fd;

	if ((hfd = spool_dirfd(sp, SPOOL_HISTORY, &d)) < 0)
		log_diag_fatal(&d);
	fd = openat(hfd, "objects", O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd < 0 && (errno == ENOTDIR || errno == ELOOP))
		log_fatal(EX_DATAERR, "history/objects: %s", fstatat(hfd,
		    "objects", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode) ? "is a symbolic link, not followed" :
		    "not a directory");
	if (fd < 0 && errno != ENOENT)
		log_fatal(diag_code_for_errno(errno), "unable to open "
		    "%s/history/objects: %s", sp->path, strerror(errno));
	snprintf(label, sizeof label, "%s/history/objects", sp->path);
	if (fd >= 0 && spool_check_dir(fd, label, 0, &d) < 0)
		log_diag_fatal(&d);
	return fd;
}

static void
options_of(const struct plan *p, struct solve_opts *o)
{
	o->tfwd = p->tfwd;
	o->solver = strcmp(p->solver, "dp") == 0 ? SOLVE_DP : SOLVE_CBC;
	o->model = strcmp(p->model, "per-node") == 0 ? SOLVE_PERNODE :
	    strcmp(p->model, "per-node-tight") == 0 ? SOLVE_PERNODE_TIGHT :
	    SOLVE_COMPACT;
}

/* history/STEM.yaml from "STEM", "STEM.yaml" or a path ending in it. */
static void
stem_of(const char *arg, char *stem, size_t stemlen)
{
	const char *base = strrchr(arg, '/');
	size_t l;

	base = base ? base + 1 : arg;
	l = strlen(base);
	if (l > 5 && strcmp(base + l - 5, ".yaml") == 0)
		l -= 5;
	if (l == 0 || l >= stemlen || memchr(base, '.', l) != NULL)
		log_fatal(EX_USAGE, "%s: not a plan in history/ "
		    "(TIME-HEX.yaml)", arg);
	memcpy(stem, base, l);
	stem[l] = '\0';
}

/* The plan made again from the inputs its manifest names (inputs.h). */
static char *
resolve(const char *stem, int hfd, int objfd, const struct plan *want,
    size_t *len)
{
	struct solve_opts o = SOLVE_OPTS_DEFAULT;
	struct inputs in;
	struct solve s;
	struct plan p;
	struct diag d;
	char *text;

	if (inputs_read_manifest(&in, hfd, objfd, stem, &d) < 0)
		log_diag_fatal(&d);
	solve_init(&s);
	options_of(want, &o);
	if (decide_load(&s, &in, 0, &d) < 0 ||
	    solve_prepare(&s, &o, &d) < 0 || solve_run(&s, &o, &d) < 0 ||
	    solve_plan(&s, &o, want->mps[0] ? want->mps : NULL, &p, &d) < 0)
		log_diag_fatal(&d);
	p.seconds = want->seconds;	/* the one field allowed to differ */
	if ((text = plan_format(&p, len)) == NULL)
		log_fatal(EX_OSERR, "out of memory");
	plan_free(&p);
	solve_free(&s);
	inputs_free(&in);
	return text;
}

static int
audit(struct spool *sp, const char *arg)
{
	char stem[96], name[128], label[160], *buf, *again;
	int hfd, objfd;
	struct plan want;
	struct diag d;
	size_t len, alen;

	stem_of(arg, stem, sizeof stem);
	if ((hfd = spool_dirfd(sp, SPOOL_HISTORY, &d)) < 0)
		log_diag_fatal(&d);
	objfd = open_objects(sp);
	snprintf(name, sizeof name, "%s.yaml", stem);
	snprintf(label, sizeof label, "history/%s", name);
	buf = slurp(hfd, name, label, &len);
	if (plan_parse(&want, label, buf, len, &d) < 0)
		log_diag_fatal(&d);
	again = resolve(stem, hfd, objfd, &want, &alen);
	if (objfd >= 0)
		close(objfd);
	plan_free(&want);
	if (alen == len && memcmp(again, buf, len) == 0) {
		printf("history/%s: identical\n", name);
		free(again);
		free(buf);
		return 0;
	}
	printf("history/%s: differs; the plan made again:\n", name);
	fwrite(again, 1, alen, stdout);
	free(again);
	free(buf);
	return 1;
}

/* The state a plan was made from, from its manifest; empty if none. */
static void
state_of(int hfd, int objfd, const char *stem, struct state *st)
{
	const struct ydoc_node *v;
	char name[128], *buf, *sbuf;
	const char *hex;
	struct ydoc doc;
	struct diag d;
	size_t len, slen;

	state_init(st);
	snprintf(name, sizeof name, "%s.inputs.yaml", stem);
	if (file_read_at(hfd, name, HISTORY_MAX_FILE, FILE_NOFOLLOW, &buf,
	    &len, &d) < 0)
		return;
	if (ydoc_load(&doc, name, buf, len, &d) == 0) {
		if (doc.root != NULL && doc.root->kind == YDOC_MAPPING &&
		    (v = ydoc_get(doc.root, "state")) != NULL &&
		    ydoc_string(&doc, v, "state", &hex, &d) == 0 &&
		    strlen(hex) > 5 && objfd >= 0 && file_read_at(objfd,
		    hex + 5, HISTORY_MAX_FILE, FILE_NOFOLLOW, &sbuf, &slen,
		    &d) == 0) {
			if (state_parse(st, "state.yaml", sbuf, slen, &d) < 0)
				state_init(st);
			free(sbuf);
		}
		ydoc_free(&doc);
	}
	free(buf);
}

/* One decision: the jobs whose nodes differ from what they held. */
static void
log_one(int hfd, int objfd, const char *stem)
{
	const struct state_job *sj;
	char name[HISTORY_STEM_MAX + 8], label[HISTORY_STEM_MAX + 16], *buf;
	struct state st;
	struct plan p;
	struct diag d;
	size_t len, i, n = 0;
	long held;

	snprintf(name, sizeof name, "%s.yaml", stem);
	snprintf(label, sizeof label, "history/%s", name);
	buf = slurp(hfd, name, label, &len);
	if (plan_parse(&p, label, buf, len, &d) < 0)
		log_diag_fatal(&d);
	state_of(hfd, objfd, stem, &st);
	printf("%s objective %.6g:", stem, p.objective);
	for (i = 0; i < p.njobs; i++) {
		sj = state_find(&st, p.jobs[i].name);
		held = sj ? (long)sj->hosts.n : 0;
		if (p.jobs[i].nodes != held)
			printf("%s %s %ld->%ld", n++ ? "," : "", p.jobs[i].name,
			    held, p.jobs[i].nodes);
	}
	printf("%s\n", n ? "" : " hosts only");
	state_free(&st);
	plan_free(&p);
	free(buf);
}

/* The decisions in the order they were enacted (history_plans()). */
static int
log_all(struct spool *sp)
{
	struct history_plan *plans;
	struct diag d;
	size_t n, i;
	int hfd, objfd;

	if ((hfd = spool_dirfd(sp, SPOOL_HISTORY, &d)) < 0 ||
	    history_plans(sp, &plans, &n, &d) < 0)
		log_diag_fatal(&d);
	objfd = open_objects(sp);
	for (i = 0; i < n; i++)
		log_one(hfd, objfd, plans[i].stem);
	free(plans);
	if (objfd >= 0)
		close(objfd);
	cli_finish_stdout();
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "log", no_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	const char *spool_path;
	struct spool sp;
	struct diag d;
	int c, do_log = 0, rc;

	log_init(argv[0]);
	spool_path = spool_default();
	while ((c = getopt_long(argc, argv, "d:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			spool_path = optarg;
			break;
		case 'h':
			usage(0);
		case 'L':
			do_log = 1;
			break;
		case 'V':
			printf("bf-audit %s\n", BF_VERSION);
			return 0;
		default:
			usage(EX_USAGE);
		}
	}
	if (do_log ? optind != argc : argc - optind != 1)
		usage(EX_USAGE);
	if (spool_open(&sp, spool_path, 0, &d) < 0)
		log_diag_fatal(&d);
	rc = do_log ? log_all(&sp) : audit(&sp, argv[optind]);
	spool_close(&sp);
	return rc;
}
