/*
 * NAME
 *	bf-hosts - a running job's hosts, for elastic runtimes
 * SYNOPSIS
 *	bf-hosts [-hV] [-d SPOOL] NAME
 * DESCRIPTION
 *	See bf-hosts(1).  Prints SPOOL/run/NAME/hosts, "host:slots" per line,
 *	which bf-apply rewrites atomically on every grow and shrink: Horovod
 *	elastic's --host-discovery-script contract.  Every line is checked,
 *	so a runtime never gets half a list or something else.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/cli.h"
#include "util/file.h"
#include "util/hostlist.h"
#include "util/log.h"
#include "util/version.h"
#include "util/ydoc.h"

#include "run/rundir.h"
#include "spool/job.h"
#include "spool/spool.h"

/* A million hosts of up to 60 characters and their slots. */
#define HOSTS_MAX_FILE	(64UL * 1024 * 1024)

static const char usage_text[] = "usage: bf-hosts [-hV] [-d SPOOL] NAME\n";

static const struct cli_opt help_opts[] = {
	{ "-d SPOOL", "the spool the job runs from (below)" },
	{ "-h, --help", "print this help and exit" },
	{ "-V", "print the version and exit" },
	{ "NAME", "a running job: its hosts, one host:slots a line" },
	{ NULL, NULL },
};

static _Noreturn void
usage(int code)
{
	fputs(usage_text, stderr);
	exit(code);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char file[JOB_NAME_MAX + 16], *buf, *p, *nl;
	const char *spool_path, *dopt = NULL;
	struct spool sp;
	struct diag d;
	size_t len, line;
	struct stat st;
	int c, rfd, help = 0;

	log_init(argv[0]);
	while ((c = getopt_long(argc, argv, "d:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dopt = optarg;
			break;
		case 'h':
			help = 1;
			break;
		case 'V':
			printf("bf-hosts %s\n", BF_VERSION);
			return 0;
		default:
			usage(EX_USAGE);
		}
	}
	if (help)
		cli_help(usage_text, help_opts, dopt, CLI_HELP_SPOOL);
	if (argc - optind != 1)
		usage(EX_USAGE);
	if (!job_name_valid(argv[optind])) {
		char shown[68];
		ydoc_excerpt(argv[optind], shown, sizeof shown);
		log_fatal(EX_USAGE, "bad job name '%s'", shown);
	}
	spool_path = cli_spool(dopt, 0, &c);
	if (spool_open(&sp, spool_path, 0, &d) < 0 ||
	    spool_dirfd(&sp, SPOOL_RUN, &d) < 0)
		log_diag_fatal(&d);
	snprintf(file, sizeof file, "%s/hosts", argv[optind]);
	/* Neither run/NAME nor its hosts file is followed if a link. */
	rfd = openat(sp.dirs[SPOOL_RUN], argv[optind], O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC);
	if (rfd < 0 && (errno == ENOTDIR || errno == ELOOP))
		log_fatal(EX_DATAERR, "run/%s: %s", argv[optind],
		    fstatat(sp.dirs[SPOOL_RUN], argv[optind], &st,
		    AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode) ?
		    "is a symbolic link, not followed" : "not a directory");
	if (rfd < 0 && errno != ENOENT)
		log_fatal(diag_code_for_errno(errno), "unable to open run/%s: "
		    "%s", argv[optind], strerror(errno));
	if (rfd < 0 || file_read_at(rfd, RUNDIR_HOSTS, HOSTS_MAX_FILE,
	    FILE_NOFOLLOW, &buf, &len, &d) < 0) {
		if (rfd < 0 || d.code == EX_NOINPUT)
			log_fatal(EX_NOINPUT, "job %s is not running (no "
			    "run/%s)", argv[optind], file);
		/* "hosts: not a regular file": say which. */
		log_fatal(d.code, "run/%s/%s", argv[optind], d.text);
	}
	close(rfd);
	for (p = buf, line = 1; p < buf + len; p = nl + 1, line++)
		if ((nl = memchr(p, '\n', (size_t)(buf + len - p))) == NULL ||
		    !rundir_hosts_line_ok(p, (size_t)(nl - p)))
			log_fatal(EX_DATAERR, "run/%s:%zu: not a host:slots "
			    "line", file, line);
	fwrite(buf, 1, len, stdout);
	cli_finish_stdout();
	free(buf);
	spool_close(&sp);
	return 0;
}
