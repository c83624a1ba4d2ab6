/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_DOCTOR_H
#define PSTAT_DOCTOR_H

#include <stdio.h>

#include "report/print.h"

/*
 * `pstat doctor`: why counting does or does not work on this machine.
 * Static checks first (perf_event_paranoid, capabilities, the core PMU
 * and a hypervisor hint when there is none, hybrid core types, libpfm4,
 * the NMI watchdog, tracefs, seccomp, RLIMIT_NOFILE), then live probes
 * that count on pstat's own process through counter.c: task-clock,
 * syscalls:sys_enter_write and instructions:u. Each check ends as ok,
 * warn or fail, with a one-line fix for the latter two.
 */

/* Exit statuses of `pstat doctor`. */
#define DOCTOR_EXIT_OK       0   /* software counting works here */
#define DOCTOR_EXIT_NO_COUNT 1   /* it does not: see the failed checks */

struct pstat_doctor_opts {
	int json;                  /* -j: one pstat-doctor/1 document */
	const char *sysfs_root;    /* NULL: /sys (PSTAT_SYSFS_ROOT) */
	const char *tracefs_root;  /* NULL: default (PSTAT_TRACEFS_ROOT) */
};

/*
 * Run every check and write the report to out: one line per check,
 * "ok    <detail>", "warn  <detail>" or "fail  <detail>", each warn or
 * fail followed by "      fix: <fix>", then a result line; with
 * o->json one document instead (print_json_doctor). Returns the exit
 * status: DOCTOR_EXIT_OK, DOCTOR_EXIT_NO_COUNT, or 125 when the report
 * could not be written or doctor itself failed (reported here).
 */
int doctor_run(const struct pstat_doctor_opts *o, FILE *out);

/*
 * `pstat doctor ARGS...` (argv[0] is "doctor"): read its options, run
 * doctor_run on stdout. Returns the exit status.
 */
int doctor_main(int argc, char **argv);

#endif
