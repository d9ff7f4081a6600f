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
#include <unistd.h>

#include "util/log.h"

const char *log_prog = "bftrainer";

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

static void
vlog(const char *fmt, va_list ap)
{
	char line[DIAG_MAX + 256];

	/* One write per line so concurrent programs do not interleave. */
	int n = snprintf(line, sizeof line, "%s: ", log_prog);
	if (n < 0)
		return;
	vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
	strcat(line, "\n");
	fputs(line, stderr);
	fflush(stderr);
}

void
log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(fmt, ap);
	va_end(ap);
}

void
log_fatal(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(fmt, ap);
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
