/*
 * NAME
 *	bf-report - what bftrainer harvested, from history/; what runs now
 * SYNOPSIS
 *	bf-report [-n] [-d SPOOL | --history DIR] [--csv] [--since T]
 *	    [--until T] [--svg FILE]
 *	bf-report --now [-d SPOOL]
 *	bf-report -h | -V
 * DESCRIPTION
 *	See bf-report(1).  Options, the files and gnuplot here; the
 *	accounting is report.c, the one-screen status status.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/cli.h"
#include "util/log.h"
#include "util/proc.h"
#include "util/utc.h"
#include "util/version.h"

#include "report/report.h"
#include "report/status.h"
#include "spool/spool.h"

enum { OPT_CSV = 256, OPT_HISTORY, OPT_NOW, OPT_SINCE, OPT_SVG, OPT_UNTIL };

struct args {
	const char *spool, *history, *svg;
	int csv, now, have_d, numeric;
	struct report_window w;
};

static const char usage_text[] =
    "usage: bf-report [-n] [-d SPOOL | --history DIR] [OPTION ...]\n"
    "       bf-report --now [-d SPOOL]\n"
    "       bf-report -h | -V\n";

static const struct cli_opt help_opts[] = {
	{ "--csv", "the report as CSV" },
	{ "-d SPOOL", "report on the spool's history (below)" },
	{ "-h, --help", "print this help and exit" },
	{ "--history DIR", "report on a history directory alone" },
	{ "-n", "users by uid, not by name" },
	{ "--now", "what runs where now, at what rate, until when" },
	{ "--since T", "from T (unix seconds, YYYY-MM-DD or ISO 8601)" },
	{ "--svg FILE", "also plot the report into FILE (gnuplot)" },
	{ "--until T", "up to T" },
	{ "-V, --version", "print the version and exit" },
	{ NULL, NULL },
};

static _Noreturn void
usage(int code)
{
	if (code == 0)
		cli_help(usage_text, help_opts, NULL, CLI_HELP_SPOOL);
	fputs(usage_text, stderr);
	exit(code);
}

/* Unix seconds, YYYY-MM-DD (its midnight, UTC) or YYYY-MM-DDTHH:MM:SSZ. */
static double
when(const char *opt, const char *s)
{
	char buf[32];
	long long t;

	snprintf(buf, sizeof buf, "%.10sT00:00:00Z", s);
	if (utc_parse(strlen(s) == 10 && s[4] == '-' && s[7] == '-' ?
	    buf : s, &t) < 0)
		log_fatal(EX_USAGE, "%s: '%.64s' is not unix seconds, YYYY-MM-DD "
		    "or YYYY-MM-DDTHH:MM:SSZ", opt, s);
	return (double)t;
}

static void
options(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "help", no_argument, NULL, 'h' },
		{ "history", required_argument, NULL, OPT_HISTORY },
		{ "now", no_argument, NULL, OPT_NOW },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "until", required_argument, NULL, OPT_UNTIL },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "d:hnV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': a->spool = optarg; a->have_d = 1; break;
		case 'h': usage(0);
		case 'n': a->numeric = 1; break;
		case 'V':
			printf("bf-report %s\n", BF_VERSION);
			exit(0);
		case OPT_CSV: a->csv = 1; break;
		case OPT_HISTORY: a->history = optarg; break;
		case OPT_NOW: a->now = 1; break;
		case OPT_SINCE:
			a->w.since = when("--since", optarg);
			a->w.have_since = 1;
			break;
		case OPT_SVG: a->svg = optarg; break;
		case OPT_UNTIL:
			a->w.until = when("--until", optarg);
			a->w.have_until = 1;
			break;
		default: usage(EX_USAGE);
		}
	}
	if (optind != argc || (a->have_d && a->history) || (a->now &&
	    (a->history || a->csv || a->svg || a->w.have_since ||
	    a->w.have_until)))
		usage(EX_USAGE);
	if (a->w.have_since && a->w.have_until && a->w.until <= a->w.since)
		log_fatal(EX_USAGE, "--until is not after --since");
	if (a->svg != NULL && *a->svg == '\0')
		log_fatal(EX_USAGE, "--svg: no file name");
}

/*
 * gnuplot reads the script on its standard input and writes the plot
 * beside FILE under a dot name, renamed into place once complete.
 */
static int
plot(const struct report *r, const char *svg, struct diag *d)
{
	static char *const argv[] = { "gnuplot", NULL };
	struct proc gnuplot = { argv, NULL, NULL, 0, PROC_NULL, PROC_NULL,
	    NULL, NULL };
	char tmp[PATH_MAX], *script = NULL;
	const char *slash = strrchr(svg, '/');
	size_t size = 0;
	int st, err, rc;
	FILE *fp;

	if ((size_t)snprintf(tmp, sizeof tmp, "%.*s.%s.%ld.tmp", slash ?
	    (int)(slash - svg + 1) : 0, svg, slash ? slash + 1 : svg,
	    (long)getpid()) >= sizeof tmp)
		return diag_set(d, EX_USAGE, "--svg: %s: name too long", svg);
	if ((fp = open_memstream(&script, &size)) == NULL ||
	    report_gnuplot(r, fp, tmp) < 0 || fclose(fp) != 0) {
		free(script);
		return diag_set(d, EX_OSERR, "out of memory");
	}
	gnuplot.in = script;
	gnuplot.inlen = size;
	rc = proc_run(&gnuplot, &st, NULL, d);
	free(script);
	if (rc < 0)
		return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		unlink(tmp);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
			return diag_set(d, EX_UNAVAILABLE, "--svg: gnuplot not "
			    "found (Debian: gnuplot-nox); no plot written");
		return diag_set(d, EX_SOFTWARE, "--svg: gnuplot failed on the "
		    "plot; %s not written", svg);
	}
	if (rename(tmp, svg) == 0)
		return 0;
	err = errno;
	unlink(tmp);
	return diag_errno(d, err, "--svg: unable to write %s", svg);
}

/* --history DIR: the directory alone, named as given. */
static int
open_history(const char *dir, char *label, size_t labellen)
{
	size_t l = strlen(dir);
	int fd;

	while (l > 1 && dir[l - 1] == '/')
		l--;
	snprintf(label, labellen, "%.*s", (int)l, dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		log_fatal(errno == ENOENT || errno == ENOTDIR || errno == EACCES ?
		    EX_NOINPUT : diag_code_for_errno(errno), "unable to open %s: "
		    "%s", label, strerror(errno));
	return fd;
}

int
main(int argc, char **argv)
{
	char label[PATH_MAX];
	struct args a;
	struct report r;
	struct spool sp;
	struct diag d;
	int hfd = -1, have_sp = 0, rc, out = 0;

	memset(&a, 0, sizeof a);
	log_init(argv[0]);
	options(argc, argv, &a);
	if (a.history != NULL)
		hfd = open_history(a.history, label, sizeof label);
	else {
		a.spool = cli_spool(a.spool, 0, &rc);
		if (spool_open(&sp, a.spool, 0, &d) < 0)
			log_diag_fatal(&d);
		have_sp = 1;
		hfd = sp.dirs[SPOOL_HISTORY];
		snprintf(label, sizeof label, "history");
	}
	if (a.now) {
		if (status_print(&sp, stdout, &d) < 0) {
			if (d.code == 0)
				cli_finish_stdout();
			log_diag_fatal(&d);
		}
		cli_finish_stdout();
		spool_close(&sp);
		return 0;
	}
	report_init(&r);
	r.numeric = a.numeric;
	rc = report_load(&r, hfd, label, have_sp ? &sp : NULL, &d) < 0 ||
	    report_compute(&r, &a.w, &d) < 0 ? -1 : 0;
	if (rc == 0 && (a.csv ? report_csv(&r, stdout) : report_text(&r,
	    stdout)) < 0)
		out = -1;
	/* CSV keeps its columns: what was not counted goes to stderr. */
	if (rc == 0 && a.csv && report_notes(&r, stderr, "bf-report: note: ") <
	    0)
		out = -1;
	if (rc == 0 && a.svg != NULL)
		rc = plot(&r, a.svg, &d);
	report_free(&r);
	if (have_sp)
		spool_close(&sp);
	else
		close(hfd);
	cli_finish_stdout();	/* a write error says so, with its code */
	if (rc < 0)
		log_diag_fatal(&d);
	if (out < 0)
		log_fatal(EX_OSERR, "out of memory");
	return 0;
}
