/*
 * NAME
 *	audit - re-solve a plan from history, or list the decisions
 * DESCRIPTION
 *	See audit.h.  A plan in history/ has beside it the manifest of the
 *	inputs it was made from (TIME-HEX.inputs.yaml), each stored once
 *	under history/objects/, read by inputs_read_manifest(), the one
 *	reader of manifests.  The audit feeds those bytes to the same
 *	solve.c, with the plan's own options, and compares the plan it gets
 *	with the recorded one, solver.seconds aside.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"

#include "report/audit.h"
#include "solve/decide.h"
#include "solve/solve.h"
#include "spool/history.h"
#include "spool/inputs.h"
#include "spool/plan.h"
#include "spool/spool.h"
#include "spool/state.h"

/*
 * history/objects/, opened without following a link and without being
 * made: *objfd -1 when it does not exist (no plan was enacted yet).
 */
static int
open_objects(struct spool *sp, int *hfd, int *objfd, struct diag *d)
{
	char label[PATH_MAX + 32];
	struct stat st;
	int fd;

	if ((*hfd = spool_dirfd(sp, SPOOL_HISTORY, d)) < 0)
		return -1;
	fd = openat(*hfd, "objects", O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd < 0 && (errno == ENOTDIR || errno == ELOOP))
		return diag_set(d, EX_DATAERR, "history/objects: %s",
		    fstatat(*hfd, "objects", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode) ? "is a symbolic link, not followed" :
		    "not a directory");
	if (fd < 0 && errno != ENOENT)
		return diag_set(d, diag_code_for_errno(errno), "unable to open "
		    "%s/history/objects: %s", sp->path, strerror(errno));
	snprintf(label, sizeof label, "%s/history/objects", sp->path);
	if (fd >= 0 && spool_check_dir(fd, label, 0, d) < 0) {
		close(fd);
		return -1;
	}
	*objfd = fd;
	return 0;
}

static void
options_of(const struct plan *p, struct solve_opts *o)
{
	o->tfwd = p->tfwd;
	o->solver = strcmp(p->solver, "dp") == 0 ? SOLVE_DP : SOLVE_CBC;
	o->model = strcmp(p->model, "per-node") == 0 ? SOLVE_PERNODE :
	    strcmp(p->model, "per-node-tight") == 0 ? SOLVE_PERNODE_TIGHT :
	    SOLVE_COMPACT;
	/* made before "profiling" was written: the advisor's probes */
	o->probe = p->profiles[0] != '\0' &&
	    strcmp(p->profiling, "passive") != 0;
	o->prior = !o->probe;
}

/* history/STEM.yaml from "STEM", "STEM.yaml" or a path ending in it. */
static int
stem_of(const char *arg, char *stem, size_t stemlen, struct diag *d)
{
	const char *base = strrchr(arg, '/');
	size_t l;

	base = base ? base + 1 : arg;
	l = strlen(base);
	if (l > 5 && strcmp(base + l - 5, ".yaml") == 0)
		l -= 5;
	if (l == 0 || l >= stemlen || memchr(base, '.', l) != NULL)
		return diag_set(d, EX_USAGE, "%s: not a plan in history/ "
		    "(TIME-HEX.yaml)", arg);
	memcpy(stem, base, l);
	stem[l] = '\0';
	return 0;
}

/* The plan made again from the inputs its manifest names (inputs.h). */
static char *
resolve(const char *stem, int hfd, int objfd, const struct plan *want,
    size_t *len, struct diag *d)
{
	struct solve_opts o = SOLVE_OPTS_DEFAULT;
	struct inputs in;
	struct solve s;
	struct plan p;
	char *text = NULL;

	int made;

	if (inputs_read_manifest(&in, hfd, objfd, stem, d) < 0)
		return NULL;
	solve_init(&s);
	options_of(want, &o);
	s.curve_rule = profile_plan_rule(want);	/* as it was made */
	made = decide_load(&s, &in, 0, NULL, d) == 0 &&
	    solve_prepare(&s, &o, d) == 0 && solve_run(&s, &o, d) == 0 &&
	    solve_plan(&s, &o, want->mps[0] ? want->mps : NULL, &p, d) == 0;
	/*
	 * A give-back plan (decide.h) is made again only as it was: the
	 * inputs make no plan, and the rule applied to them with that error
	 * gives it; a plan the inputs do make is not it.
	 */
	if (strcmp(want->solver, "give-back") == 0) {
		struct diag why = *d;
		if (made)
			plan_free(&p);
		diag_clear(d);
		made = !made && diag_code_transient(why.code) == 0 &&
		    decide_give_back(&in, why.text, &p, d) == 0;
	}
	if (made) {
		p.seconds = want->seconds;	/* the one field that may differ */
		/* a learnt look-ahead is taken as recorded: its tfwd */
		memcpy(p.horizon, want->horizon, sizeof p.horizon);
		/* made by the rule it records (options_of()); none: probe */
		memcpy(p.profiling, want->profiling, sizeof p.profiling);
		if ((text = plan_format(&p, len)) == NULL)
			diag_set(d, EX_OSERR, "out of memory");
		plan_free(&p);
	} else if (d->code == 0)
		diag_set(d, EX_DATAERR, "history/%s.yaml: a give-back plan, "
		    "but its inputs make a plan", stem);
	solve_free(&s);
	inputs_free(&in);
	return text;
}

int
audit_plan(struct spool *sp, const char *arg, FILE *out, struct diag *d)
{
	char stem[96], name[128], label[160], *buf = NULL, *again = NULL;
	int hfd, objfd = -1, rc = -1;
	struct plan want;
	size_t len, alen;

	if (stem_of(arg, stem, sizeof stem, d) < 0 ||
	    open_objects(sp, &hfd, &objfd, d) < 0)
		return -1;
	snprintf(name, sizeof name, "%s.yaml", stem);
	snprintf(label, sizeof label, "history/%s", name);
	if (inputs_read_stored(hfd, name, label, &buf, &len, d) < 0 ||
	    plan_parse(&want, label, buf, len, d) < 0)
		goto out;
	again = resolve(stem, hfd, objfd, &want, &alen, d);
	plan_free(&want);
	if (again == NULL)
		goto out;
	if (alen == len && memcmp(again, buf, len) == 0) {
		fprintf(out, "history/%s: identical\n", name);
		rc = 0;
	} else {
		fprintf(out, "history/%s: differs; the plan made again:\n",
		    name);
		fwrite(again, 1, alen, out);
		rc = 1;
	}
out:
	if (objfd >= 0)
		close(objfd);
	free(again);
	free(buf);
	return rc;
}

/*
 * The state a plan was made from, from its manifest (inputs.h); empty
 * when there is none or it cannot be read, which bf-audit PLAN reports.
 */
static void
state_of(int hfd, int objfd, const char *stem, struct state *st)
{
	struct inputs in;
	struct diag d;

	state_init(st);
	if (inputs_read_manifest(&in, hfd, objfd, stem, &d) < 0)
		return;
	if (in.have_state && state_parse(st, "state.yaml", in.state.buf,
	    in.state.len, &d) < 0)
		state_init(st);
	inputs_free(&in);
}

/* One decision: the jobs whose nodes differ from what they held. */
static int
log_one(int hfd, int objfd, const char *stem, FILE *out, struct diag *d)
{
	const struct state_job *sj;
	char name[HISTORY_STEM_MAX + 8], label[HISTORY_STEM_MAX + 16], *buf;
	struct state st;
	struct plan p;
	size_t len, i, n = 0;
	long held;

	snprintf(name, sizeof name, "%s.yaml", stem);
	snprintf(label, sizeof label, "history/%s", name);
	if (inputs_read_stored(hfd, name, label, &buf, &len, d) < 0)
		return -1;
	if (plan_parse(&p, label, buf, len, d) < 0) {
		free(buf);
		return -1;
	}
	state_of(hfd, objfd, stem, &st);
	fprintf(out, "%s objective %.6g:", stem, p.objective);
	for (i = 0; i < p.njobs; i++) {
		sj = state_find(&st, p.jobs[i].name);
		held = sj ? (long)sj->hosts.n : 0;
		if (p.jobs[i].nodes != held)
			fprintf(out, "%s %s %ld->%ld", n++ ? "," : "",
			    p.jobs[i].name, held, p.jobs[i].nodes);
	}
	fprintf(out, "%s\n", n ? "" : " hosts only");
	state_free(&st);
	plan_free(&p);
	free(buf);
	return 0;
}

/* The decisions in the order they were enacted (history_plans()). */
int
audit_log(struct spool *sp, FILE *out, struct diag *d)
{
	struct history_plan *plans;
	size_t n, i;
	int hfd, objfd = -1, rc = 0;

	if ((hfd = spool_dirfd(sp, SPOOL_HISTORY, d)) < 0 ||
	    history_plans(sp, &plans, &n, d) < 0)
		return -1;
	if (open_objects(sp, &hfd, &objfd, d) < 0) {
		free(plans);
		return -1;
	}
	for (i = 0; i < n && rc == 0; i++)
		rc = log_one(hfd, objfd, plans[i].stem, out, d);
	free(plans);
	if (objfd >= 0)
		close(objfd);
	return rc;
}

