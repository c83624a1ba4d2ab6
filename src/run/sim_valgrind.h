/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_SIM_VALGRIND_H
#define PSTAT_SIM_VALGRIND_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "events/encode.h"

/*
 * The simulated PMU's runs (events/sim_events.h): the command runs under
 * Valgrind, children followed, each process writing its counts to a file
 * of its own in a directory pstat creates for the run (mode 0700, under
 * $TMPDIR or /tmp, never the user's working directory) and removes
 * after reading it. pstat reads the totals from those files' "events:"
 * and "summary:" lines, never Valgrind's text for people, which goes to
 * a log file there too, out of the command's stderr. The fork and exec
 * stay target.c's: this module builds the argument vector and reads the
 * results.
 */

/* What the run stage needs to run a command on sim. */
struct pstat_sim_cfg {
	const char *valgrind;    /* the valgrind to run: a path */
	/*
	 * Count only while the functions in toggles run (--toggle-collect):
	 * callgrind then, which has that option (cachegrind of Valgrind 3.19
	 * has none); else cachegrind.
	 */
	char *const *toggles;
	size_t ntoggles;
	int no_children;         /* -i: --trace-children=no */
	int cache_sim;           /* --cache-sim=yes */
	int branch_sim;          /* --branch-sim=yes */
	/* --I1, --D1, --LL: "SIZE,ASSOC,LINE" each, NULL for Valgrind's */
	const char *cache[3];
};

/* The cache levels of pstat_sim_cfg.cache, in Valgrind's words. */
extern const char *const sim_cache_levels[3];

/* Valgrind's events that one output file can hold. */
#define SIM_MAX_COUNTS 16

/* The totals of one output file, or of a run's files added up. */
struct pstat_sim_totals {
	char names[SIM_MAX_COUNTS][8];
	uint64_t val[SIM_MAX_COUNTS];
	size_t n;
};

/*
 * Parse a cachegrind or callgrind output file from f: its "events:" line
 * (the names) and its "summary:" line (the totals, in that order), into
 * t. Returns 0, or -EINVAL when either is missing or malformed. Pure
 * apart from reading f.
 */
int sim_parse_out(FILE *f, struct pstat_sim_totals *t);

/* Add the totals of one file to those of the run. Returns 0 or -E2BIG. */
int sim_totals_add(struct pstat_sim_totals *sum,
		   const struct pstat_sim_totals *t);

/* The total of Valgrind event name in t (0 when it has none). */
uint64_t sim_totals_get(const struct pstat_sim_totals *t, const char *name);

/* One run of a command on sim. */
struct pstat_sim_run {
	int dfd;                 /* the run's directory, or -1 */
	char *dir;               /* its path (new) */
	char **argv;             /* Valgrind's, then the command's (new) */
	/*
	 * After sim_run_collect: why Valgrind did not run the command, or
	 * a note on how it ended (an instruction it cannot emulate); "".
	 */
	char why[256];
};

/*
 * Before a run of command cmd: make the run's directory and the argument
 * vector that runs cmd under Valgrind as cfg says (run->argv). Returns 0,
 * or -errno (the directory could not be made).
 */
int sim_run_begin(const struct pstat_sim_cfg *cfg, char *const *cmd,
		  struct pstat_sim_run *run);

/*
 * Whether cmd (a command's argv[0]) can be run, as execvp would find it:
 * 0, or the errno an exec would fail with (ENOENT, EACCES). Valgrind
 * would say so in words of its own on the command's stderr.
 */
int sim_command_check(const char *cmd);

/*
 * After the run whose first process was top: add up the files of every
 * process into vals (one per event of evl, 0 for events not on sim).
 * Returns 0; -ENOEXEC when top wrote none (Valgrind did not run the
 * command: run->why says why when its log does), -errno when the
 * directory cannot be read. run->why may hold a note on success too.
 */
int sim_run_collect(struct pstat_sim_run *run, pid_t top,
		    const struct pstat_evlist *evl, uint64_t *vals);

/* Remove the run's files and directory and free what run holds. */
void sim_run_end(struct pstat_sim_run *run);

#endif
