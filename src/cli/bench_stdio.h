/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_CLI_BENCH_STDIO_H
#define PSTAT_CLI_BENCH_STDIO_H

#include <pthread.h>

#include "cli/output.h"

/*
 * Where the commands of `pstat bench` read and write, as hyperfine's
 * --input and --output say: stdin from /dev/null or a file (rewound
 * before each run); stdout to /dev/null, a pipe that pstat reads and
 * drops, pstat's own (inherit, which also lets stderr through), or a
 * file (opened once, before the first run, holding every run's output).
 */
struct bench_stdio {
	int fds[3];             /* what the commands get; -1: pstat's own */
	int input_fd;           /* --input FILE, to rewind; or -1 */
	int null_fd;
	int pipe_rd, pipe_wr;   /* --output pipe */
	pthread_t drain;
	int draining;
	struct output file;     /* --output FILE */
};

/*
 * Open what input (NULL: null) and where (NULL: null; "pipe",
 * "inherit", or a file) name. 0, or -1 after reporting why (nothing
 * left open).
 */
int bench_stdio_open(struct bench_stdio *s, const char *input,
		     const char *where);

/* Before each run: the input back to its start. */
void bench_stdio_rewind(const struct bench_stdio *s);

/* Close it all; the output file kept when ok. NULL fields are fine. */
void bench_stdio_close(struct bench_stdio *s, int ok);

#endif
