/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_CLI_BENCH_ARGS_H
#define PSTAT_CLI_BENCH_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "cli/bench_cli.h"

/* `pstat bench`'s options, as bench_args.c reads them. */
struct bench_opts {
	char **tmpl;                /* the commands as given */
	size_t ntmpl;
	char **cmds;                /* [command]: as shown (new) */
	size_t ncmds;
	const char *names[64];      /* as given, for the commands given */
	char *cmd_names[BENCH_MAX_CMDS];    /* [command]: or NULL (new) */
	size_t nnames;
	char *events[64];
	size_t nevents;
	const char *prepare[64], *setup[64], *cleanup[64], *conclude[64];
	size_t nprepare, nsetup, ncleanup, nconclude;
	const char *shell;          /* NULL: none */
	int shell_given;            /* -S or -N: no choice of pstat's */
	const char *cmd_shell[BENCH_MAX_CMDS];  /* [command]: its shell, or
						   NULL: none */
	uint64_t runs, min_runs, max_runs, warmup, seed;
	int have_seed, shuffle, json, ignore_failure;
	int fail_on_regression;
	const char *thresholds[64];
	size_t nthresholds;
	double alpha;
	const char *report;         /* -o, --report FILE */
	const char *cmd_output;     /* --output: null, pipe, inherit, FILE */
	const char *input;          /* --input: null or FILE */
	const char *export_md, *export_csv, *export_json, *plot;
	enum bench_time_unit time_unit;     /* -u */
	enum bench_sort sort;       /* --sort */
	int color, progress, quiet; /* --style: -1 = when a terminal */
	const char *scan[3];        /* -P VAR MIN MAX, or NULL */
	const char *scan_step;      /* -D */
	char *scan_list;            /* -P's values, comma-separated (new) */
	double per[64];             /* --per: once, or once per command */
	size_t nper;
	const char *per_unit;       /* the NAME of --per-unit, in per_name */
	char per_name[64];
	struct bench_params params;  /* -L */
	struct bench_expanded exp;   /* the commands -L made */
};

/*
 * Parse argv (argv[0] is "bench") into o. Returns 0, 1 after --help, or
 * -1 after reporting a usage error.
 */
int bench_parse(int argc, char **argv, struct bench_opts *o);

/* Free what o holds (not o). */
void bench_opts_free(struct bench_opts *o);

#endif
