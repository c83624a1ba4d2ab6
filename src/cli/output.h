/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_OUTPUT_H
#define PSTAT_OUTPUT_H

#include <stdio.h>
#include <sys/types.h>

/*
 * The results file. A regular file (or a new one) is written under a
 * temporary name and renamed into place only once the report is
 * complete, so a failed run never leaves a file that looks like results
 * and never destroys the one that was there; through a symlink, the
 * file it points to is replaced, the link kept. Appending writes
 * directly, and a failed run cuts the file back to where it started.
 * Special files such as /dev/full or a pipe are written directly, and
 * so are interval runs (-I), whose lines are read as they come, as
 * perf's are: a failed one leaves the intervals it printed, or no file
 * when it printed none.
 */
struct output {
	FILE *f;
	char *path;          /* as given, for messages */
	char *target;        /* what the rename replaces */
	char *tmp;
	off_t append_at;     /* -1: not appending to a regular file */
	int created;         /* streamed into a file that did not exist */
	/* output_open_rewrite: each report replaces the file whole */
	int rewrite;
	char *mem;           /* the report being printed (f writes it) */
	size_t memlen;
};

/*
 * Open path for the report (NULL: stderr; "-": stdout). append: --append; stream:
 * written as it goes (-I). Reports errors. Returns 0 or -1.
 */
int output_open(struct output *o, const char *path, int append,
		int stream);

/*
 * Open path for reports that each replace the file whole (--openmetrics
 * -I): f gathers a report in memory, and output_rewrite_printer writes
 * it under a temporary name renamed over the file, so that a reader
 * (node_exporter's textfile collector) only ever sees a complete one. A
 * path that is not a regular file (a pipe, /dev/stdout) is streamed as
 * output_open does. Reports errors. Returns 0 or -1.
 */
int output_open_rewrite(struct output *o, const char *path);

/*
 * A printer that prints through inner (which it steals) into o->f and
 * then replaces o's file with each report. A report that prints nothing
 * (the summary after intervals) leaves the file as it is.
 */
struct pstat_printer;
struct pstat_printer *output_rewrite_printer(struct output *o,
					     struct pstat_printer *inner);

/*
 * Finish the output: keep it when ok, else remove what was written (see
 * above). Reports errors. Returns 0, or -1 when keeping it failed.
 */
int output_close(struct output *o, int ok);

#endif
