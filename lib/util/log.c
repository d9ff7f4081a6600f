/*
 * NAME
 *	log - diagnostics and error propagation
 * DESCRIPTION
 *	See log.h.  diag_errno() maps errno to the sysexits code the programs
 *	document: a full disk or quota is temporary (75), a permission or
 *	read-only problem cannot be fixed by retrying (73), anything else
 *	while writing is an I/O error (74).
 * DIAGNOSTICS
 *	A message longer than DIAG_MAX is truncated, never overrun.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"

const char *log_prog = "bftrainer";
static enum log_style style = LOG_STYLE_PLAIN;

void
log_set_style(enum log_style s)
{
	if (s == LOG_STYLE_SYSLOG && style != LOG_STYLE_SYSLOG)
		openlog(log_prog, LOG_PID | LOG_NDELAY, LOG_DAEMON);
	else if (s != LOG_STYLE_SYSLOG && style == LOG_STYLE_SYSLOG)
		closelog();
	style = s;
}

enum log_style
log_style_auto(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	/* systemd's journal reads our stderr: it stamps the lines itself. */
	if (js != NULL && sscanf(js, "%llu:%llu", &dev, &ino) == 2 &&
	    fstat(2, &st) == 0 && (unsigned long long)st.st_dev == dev &&
	    (unsigned long long)st.st_ino == ino)
		return LOG_STYLE_JOURNAL;
	return LOG_STYLE_STAMPED;
}

/* Now, RFC 3339 in UTC with milliseconds: "2026-11-28T15:40:01.123Z". */
static void
stamp(char *buf, size_t size)
{
	struct timespec ts;
	struct tm tm;

	char day[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	if (strftime(day, sizeof day, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		day[0] = '\0';
	snprintf(buf, size, "%s.%03dZ ", day, (int)(ts.tv_nsec / 1000000));
}

/*
 * One line, whole however long (a decision's line names every action, 50
 * and more at 500 jobs): written with one write so concurrent programs
 * do not interleave.  Only without memory is it cut, and then it says so.
 */
static void
vlog(int prio, const char *fmt, va_list ap)
{
	char fixed[DIAG_MAX + 256], head[48] = "", *line = fixed;
	size_t size = sizeof fixed, n;
	va_list again;
	int need, body;

	if (style == LOG_STYLE_STAMPED)
		stamp(head, sizeof head);
	else if (style == LOG_STYLE_JOURNAL)	/* sd-daemon(3)'s level prefix */
		snprintf(head, sizeof head, "<%d>", prio);
	va_copy(again, ap);
	body = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (body < 0)
		return;
	need = (int)strlen(head) + (int)strlen(log_prog) + 2 + body + 8;
	if ((size_t)need > size) {
		char *big = malloc((size_t)need);
		if (big != NULL)
			line = big, size = (size_t)need;
	}
	if (style == LOG_STYLE_SYSLOG) {
		vsnprintf(line, size, fmt, ap);
		syslog(prio, "%s", line);
	} else {
		snprintf(line, size, "%s%s: ", head, log_prog);
		n = strlen(line);
		vsnprintf(line + n, size - n - 7, fmt, ap);
		if (n + (size_t)body > size - 8)
			strcat(line, " [cut]");
		strcat(line, "\n");
		fputs(line, stderr);
		fflush(stderr);
	}
	if (line != fixed)
		free(line);
}

void
log_init(const char *argv0)
{
	const char *slash;
	int fd;

	/*
	 * Started with 0, 1 or 2 closed, a program would open the spool's
	 * files there, and a message or a job's standard stream would land
	 * in them: each closed one is /dev/null from here on.
	 */
	while ((fd = open("/dev/null", O_RDWR)) >= 0 && fd <= 2)
		;
	if (fd > 2)
		close(fd);
	if (argv0 == NULL || *argv0 == '\0')
		return;
	slash = strrchr(argv0, '/');
	log_prog = slash ? slash + 1 : argv0;
}

void
log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_WARNING, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_INFO, fmt, ap);
	va_end(ap);
}

void
log_fatal(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(LOG_ERR, fmt, ap);
	va_end(ap);
	exit(code);
}

void
log_diag_fatal(const struct diag *d)
{
	log_fatal(d->code ? d->code : EX_SOFTWARE, "%s", d->text);
}

int
diag_set(struct diag *d, int code, const char *fmt, ...)
{
	va_list ap;

	if (d == NULL)
		return -1;
	d->code = code;
	va_start(ap, fmt);
	vsnprintf(d->text, sizeof d->text, fmt, ap);
	va_end(ap);
	return -1;
}

int
diag_code_transient(int code)
{
	return code == EX_TEMPFAIL || code == EX_OSERR || code == EX_IOERR;
}

int
diag_code_for_errno(int err)
{
	switch (err) {
	case ENOSPC:
#ifdef EDQUOT
	case EDQUOT:
#endif
	case EAGAIN:
	case EINTR:
		return EX_TEMPFAIL;
	case EACCES:
	case EPERM:
	case EROFS:
		return EX_CANTCREAT;
	case ENOMEM:
		return EX_OSERR;
	default:
		return EX_IOERR;
	}
}

int
diag_errno(struct diag *d, int err, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (d == NULL)
		return -1;
	d->code = diag_code_for_errno(err);
	va_start(ap, fmt);
	vsnprintf(d->text, sizeof d->text, fmt, ap);
	va_end(ap);
	n = strlen(d->text);
	snprintf(d->text + n, sizeof d->text - n, ": %s", strerror(err));
	return -1;
}

void
diag_clear(struct diag *d)
{
	d->code = 0;
	d->text[0] = '\0';
}

int
diag_prefix(struct diag *d, const char *fmt, ...)
{
	char pre[DIAG_MAX];
	size_t plen, tlen;
	va_list ap;

	if (d == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof pre, fmt, ap);
	va_end(ap);
	plen = strlen(pre);
	tlen = strlen(d->text);
	if (plen + tlen >= DIAG_MAX)
		tlen = DIAG_MAX - 1 - plen;
	memmove(d->text + plen, d->text, tlen);
	memcpy(d->text, pre, plen);
	d->text[plen + tlen] = '\0';
	return -1;
}
