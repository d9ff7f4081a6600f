/*
 * NAME
 *	log - diagnostics and error propagation
 * SYNOPSIS
 *	log_init(argv[0]);
 *	log_warn("%s:%zu: unknown key '%s' ignored", file, line, key);
 *	log_fatal(EX_USAGE, "unknown option");
 *	return diag_set(d, EX_DATAERR, "%s:%zu: %s", file, line, what);
 * DESCRIPTION
 *	Every message is one line on stderr, "prog: message".  Library code never
 *	prints its errors or exits: it fills a struct diag with the message and a
 *	sysexits(3) code and returns -1, so that main decides what to do with it.
 *	A struct diag pointer passed to any library function is never NULL.
 *	log_init(), called first by every program, names it and opens
 *	/dev/null on any of 0, 1 and 2 it was started without.
 *
 *	A daemon's lines say when (log_set_style()): LOG_STYLE_STAMPED puts
 *	the time before each, RFC 3339 in UTC with milliseconds
 *	("2026-11-28T15:40:01.123Z bf-watch: ..."); LOG_STYLE_JOURNAL, for
 *	a standard error that systemd's journal reads (log_style_auto()
 *	knows it by $JOURNAL_STREAM), puts the level as sd-daemon(3)'s "<N>"
 *	prefix instead and lets the journal stamp it; LOG_STYLE_SYSLOG sends
 *	each line to syslog(3), facility daemon, with the program's pid.
 *	log_warn() is level warning, log_info() info, log_fatal() err.
 *	LOG_STYLE_PLAIN, every program's default, is "prog: message" alone.
 */
#ifndef BF_LOG_H
#define BF_LOG_H

#include <stddef.h>
#include <sysexits.h>

#define DIAG_MAX 1024

struct diag {
	int code;		/* sysexits(3) code, 0 while nothing failed */
	char text[DIAG_MAX];	/* one line, no trailing newline */
};

extern const char *log_prog;

enum log_style {
	LOG_STYLE_PLAIN, LOG_STYLE_STAMPED, LOG_STYLE_JOURNAL, LOG_STYLE_SYSLOG
};

void log_init(const char *argv0);
void log_set_style(enum log_style s);
enum log_style log_style_auto(void);
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void log_fatal(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
_Noreturn void log_diag_fatal(const struct diag *d);

int diag_set(struct diag *d, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int diag_errno(struct diag *d, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/*
 * A message from a file reader names the file as it was opened, NAME
 * relative to its directory; name it as LABEL instead (its place in the
 * spool): "NAME: ..." and "... NAME: ..." become LABEL, anything else
 * gets "LABEL: " in front.  Returns -1.
 */
int diag_prefix(struct diag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int diag_code_for_errno(int err);
/*
 * A code a retry may cure, not one that says the input is bad: 75
 * (EX_TEMPFAIL), 71 (EX_OSERR) or 74 (EX_IOERR).  1 or 0.
 */
int diag_code_transient(int code);
void diag_clear(struct diag *d);

#endif
