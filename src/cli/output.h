/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_OUTPUT_H
#define PSTAT_OUTPUT_H

#include <signal.h>
#include <stdio.h>

#include "base/outfile.h"

/*
 * The results file of -o and --append, opened as base/outfile.h says: a
 * report is written only once complete, so a failed run leaves the file
 * as it was (and no file where there was none); an existing file keeps
 * its owner; --append adds the report with one write. Interval runs
 * (-I) and special files such as /dev/full or a pipe are written as the
 * report goes, as perf's are: a failed one leaves the intervals it
 * printed, or no file when it printed none.
 */
struct output {
	FILE *f;
	char *path;          /* as given, for messages; NULL: stderr/stdout */
	struct outfile file;
	int rewrite;         /* output_open_rewrite: each report whole */
};

/*
 * Open path for the report (NULL: stderr; "-": stdout). append:
 * --append; stream: written as it goes (-I). A FIFO without a reader is
 * waited for until a signal that ends a run arrives (they are blocked)
 * or timeout_ms (--timeout, 0: none) passes. Reports errors. Returns 0,
 * or the status to exit with: 125, 124 (timeout) or 128 + the signal.
 */
int output_open(struct output *o, const char *path, int append, int stream,
		unsigned long timeout_ms);

/*
 * --log-fd FD: the report to descriptor fd, as perf writes it, opened
 * by whoever started pstat (the descriptor stays theirs: only flushed
 * at the end). With append (--append), the descriptor is switched to
 * O_APPEND first, as perf's fdopen(fd, "a") does. Reports errors.
 * Returns 0 or 125.
 */
int output_open_fd(struct output *o, int fd, int append);

/*
 * Open path for reports that each replace the file whole (--openmetrics
 * -I): f gathers a report in memory, and output_rewrite_printer writes
 * it as the file's whole content, renamed over it when the file is
 * pstat's user's own, so that a reader (node_exporter's textfile
 * collector) only ever sees a complete one. A path that is not a
 * regular file (a pipe, /dev/stdout) is streamed as output_open does.
 * Reports errors. Returns 0, or the status to exit with (as output_open).
 */
int output_open_rewrite(struct output *o, const char *path,
			unsigned long timeout_ms);

/*
 * A printer that prints through inner (which it steals) into o->f and
 * then replaces o's file with each report. A report that prints nothing
 * (the summary after intervals) leaves the file as it is.
 */
struct pstat_printer;
struct pstat_printer *output_rewrite_printer(struct output *o,
					     struct pstat_printer *inner);

/*
 * The signals that end the wait for a FIFO's reader, as they would end
 * the run (see session_wait.c): those main blocked, less those ignored
 * when pstat started, SIGINT, SIGQUIT and SIGTERM excepted.
 */
void output_wait_signals(sigset_t *set);

/*
 * Finish the output: keep it when ok, else leave the file as it was
 * (see above). Reports errors. Returns 0, or -1 when keeping it failed.
 */
int output_close(struct output *o, int ok);

#endif
