/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_MSG_H
#define PSTAT_MSG_H

#include <stddef.h>

/* pstat itself failed (usage, setup, output): the one status every stage
 * may name. The other statuses are the run's (run/session.h). */
#define EXIT_PSTAT_FAILED  125

/*
 * Diagnostics. Every message goes to stderr as "pstat: <text>", one line.
 * Only main.c and session.c (and the subcommands) call these; lower layers
 * return -errno or fill a struct pstat_error instead.
 */

#define PSTAT_FMT(a, b) __attribute__((format(printf, a, b)))

/* Verbosity set by -v (0 = quiet). */
extern int msg_verbose;
/*
 * Set when a machine-readable report goes to stderr: warnings and hints
 * would break the document there, and it carries the same facts. A hint
 * that follows an error is still printed: the error's how-to-fix.
 */
extern int msg_quiet;
/* How many errors msg_error and msg_usage have printed. */
extern int msg_errors;

/* Print "pstat: <fmt>\n" to stderr. */
void msg_error(const char *fmt, ...) PSTAT_FMT(1, 2);
/* Print "pstat: warning: <fmt>\n" to stderr. */
void msg_warn(const char *fmt, ...) PSTAT_FMT(1, 2);
/*
 * A usage error: "pstat: <fmt>\n", then the hint "see 'pstat --help'".
 */
void msg_usage(const char *fmt, ...) PSTAT_FMT(1, 2);
/* Print "pstat: hint: <fmt>\n" to stderr: at most one after an error. */
void msg_hint(const char *fmt, ...) PSTAT_FMT(1, 2);
/* Print "pstat: <fmt>\n" when msg_verbose >= level. */
void msg_debug(int level, const char *fmt, ...) PSTAT_FMT(2, 3);

/*
 * getopt_long's complaint c about argv's word arg: ':' its value is
 * missing, else it is unknown (opt: getopt's optopt, the letter of a
 * short option). For subcommand cmd ("pstat bench"; NULL for pstat
 * itself); then hint.
 */
void msg_bad_option(int c, int opt, const char *arg, const char *cmd,
		    const char *hint);

/*
 * An error from a pure layer: the message (without the "pstat: " prefix)
 * and, for parse errors, the byte offset in the input it refers to
 * (-1 when it refers to no position).
 */
struct pstat_error {
	char msg[512];
	long offset;
};

/* Fill err with a formatted message and offset; returns -1 for chaining. */
int error_set(struct pstat_error *err, long offset, const char *fmt, ...)
	PSTAT_FMT(3, 4);

#endif
