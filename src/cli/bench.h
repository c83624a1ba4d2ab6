/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_CLI_BENCH_H
#define PSTAT_CLI_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "compare/bench.h"
#include "events/encode.h"

/*
 * `pstat bench`: several commands run interleaved, counted, compared.
 * bench.c reads the options and writes the results; bench_loop.c runs
 * the rounds.
 */

/* `pstat bench ARGS...` (argv[0] is "bench"): the exit status. */
int bench_main(int argc, char **argv);

/* What the options ask of the runs (bench.c fills it). */
struct bench_cfg {
	const struct pstat_evlist *evl;   /* borrowed */
	int default_events;     /* no -e: hide what the machine lacks */
	char ***argv;           /* [command]: as run */
	char ***prepare;        /* [command]: --prepare, or NULL */
	char ***setup;          /* [command]: --setup, or NULL */
	char ***cleanup;        /* [command]: --cleanup, or NULL */
	size_t ncmds;
	uint64_t runs;          /* -r: exactly; 0: chosen */
	uint64_t min_runs, max_runs;    /* max 0: no limit */
	uint64_t warmup;
	int shuffle;
	uint64_t seed;
	int ignore_failure;
	int progress;           /* draw the progress bar on stderr */
};

/*
 * Run the bench: setups, warm-up rounds, rounds, cleanups, filling b
 * (its commands added already, in order). Returns 0, or the exit
 * status after reporting why it stopped: a command that failed (its
 * status; b->failed_cmd names it), a signal (128 + N; the runs done
 * stay in b), 125 when counting failed.
 */
int bench_loop(const struct bench_cfg *cfg, struct pstat_bench *b);

/*
 * Split s into words as a shell would split a simple command: blanks
 * separate, '...' and "..." quote, '\' escapes. New NULL-terminated
 * array (free with bench_words_free); NULL when a quote is not closed.
 */
char **bench_split_words(const char *s);
void bench_words_free(char **w);

#endif
