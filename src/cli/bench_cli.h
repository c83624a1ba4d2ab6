/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_BENCH_CLI_H
#define PSTAT_BENCH_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare/bench_results.h"
#include "events/encode.h"
#include "run/sim_valgrind.h"

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
	char **probe_argv;      /* the shell with nothing to do, run in
				   every round into b->shell_probe, when a
				   command runs through it; else NULL */
	char ***prepare;        /* [command]: --prepare, or NULL */
	char ***setup;          /* [command]: --setup, or NULL */
	char ***cleanup;        /* [command]: --cleanup, or NULL */
	char ***conclude;       /* [command]: --conclude, or NULL */
	int input_fd;           /* --input FILE: rewound before each run; -1 */
	size_t ncmds;
	uint64_t runs;          /* -r: exactly; 0: chosen */
	uint64_t min_runs, max_runs;    /* max 0: no limit */
	uint64_t warmup;
	int shuffle;
	uint64_t seed;
	int ignore_failure;
	int progress;           /* draw the progress bar on stderr */
	const struct pstat_sim_cfg *sim;  /* sim events: cli/sim_cli.h */
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

#define BENCH_MAX_CMDS 64
#define BENCH_MAX_PARAMS 8

/* -L VAR VALUES (bench_params.c): hyperfine's parameter lists. */
struct bench_params {
	const char *var[BENCH_MAX_PARAMS];      /* borrowed */
	char **vals[BENCH_MAX_PARAMS];          /* into bufs */
	size_t nvals[BENCH_MAX_PARAMS];
	char *bufs[BENCH_MAX_PARAMS];
	size_t n;
};

/* The commands -L makes: each from a command given, with a pick. */
struct bench_expanded {
	size_t *src;            /* [command]: the command given it came from */
	size_t (*pick)[BENCH_MAX_PARAMS];   /* [command]: each list's value */
	size_t n;
};

/* The longest command a value may make (Linux's MAX_ARG_STRLEN). */
#define BENCH_MAX_CMD_LEN 131072

/*
 * Add the list VAR: VALUES, comma-separated. Returns 0, or -1 with why
 * filled (too many lists, a name with braces or given twice, no values).
 */
int bench_params_add(struct bench_params *p, const char *var,
		     const char *values, char *why, size_t len);

/*
 * One command per command given and combination of the lists' values:
 * the commands for the first combination, then for the next, the last
 * list varying fastest (hyperfine's order). Returns 0, or -1 with why filled when
 * that makes more than BENCH_MAX_CMDS commands.
 */
int bench_params_expand(const struct bench_params *p, size_t ncmds,
			struct bench_expanded *out, char *why, size_t len);

/*
 * s with every {VAR} of the lists replaced, in one pass, by the value
 * pick[VAR] chooses: shell-quoted when quote (a value is then one shell
 * word), else as it is. A value is never searched for placeholders.
 * New string.
 */
char *bench_params_subst(const struct bench_params *p, const size_t *pick,
			 const char *s, int quote);

/*
 * Whether the command s needs a shell: it holds what only a shell reads
 * (| & ; < > ( ) $ ` \ * ? [ ] # ~ { } ! or a line break, outside the
 * lists' placeholders), or its first word is an assignment, a shell
 * keyword or built-in (cd, exit, read ...), or no program found in
 * PATH. Otherwise split into words (quotes as a shell reads them) it
 * runs the same without one, and sooner.
 */
int bench_needs_shell(const struct bench_params *p, const char *s);

/* Whether s (NULL: no) holds a placeholder of the lists. */
int bench_params_used(const struct bench_params *p, const char *s);

/*
 * --fail-on-regression (bench_regression.c): every command of b against
 * the first as pstat compare compares them, under the --threshold
 * specs, with the wall time as the entry "wall-time"; the tables go to
 * out. Returns 3 when one regressed, else pstat compare's status for
 * the first that could not be compared (4, 6), else 0; 125 for a bad
 * threshold (reported).
 */
int bench_check_regression(const char *const *thresholds, size_t n,
			   struct pstat_bench *b, FILE *out);

/* Free what p and e hold; either may be NULL. */
void bench_params_free(struct bench_params *p, struct bench_expanded *e);

#endif
