/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_TEST_TOOL_H
#define PSTAT_TEST_TOOL_H

/*
 * tests/pstat-test: drives pstat's pure layers from bats (git's
 * test-tool). Each t_* command takes its own arguments.
 *
 * "pstat-test table CMD FILE" runs a data table in jq's test format:
 * groups of lines separated by blank lines; the first line is the input,
 * the following lines the expected output of "pstat-test CMD <input>"
 * (stdout, then "error: <msg>" for a failure). Lines starting with '#'
 * are comments.
 */

int t_evspec(int argc, char **argv);
int t_scale(int argc, char **argv);
int t_bound(int argc, char **argv);
int t_read(int argc, char **argv);
int t_stats(int argc, char **argv);
int t_pmu(int argc, char **argv);
int t_tracepoint(int argc, char **argv);
int t_legacy(int argc, char **argv);
int t_encode(int argc, char **argv);
int t_pfm(int argc, char **argv);
int t_print(int argc, char **argv);
int t_print_kept(int argc, char **argv);
int t_metrics(int argc, char **argv);
int t_metric_expr(int argc, char **argv);
int t_metric_def(int argc, char **argv);
int t_metric_eval(int argc, char **argv);
int t_metric_file(int argc, char **argv);
int t_group(int argc, char **argv);
int t_sparkline(int argc, char **argv);
int t_real(int argc, char **argv);
int t_jansson_real(int argc, char **argv);
int t_topo(int argc, char **argv);
int t_aggr(int argc, char **argv);
int t_default_out(int argc, char **argv);
int t_rows(int argc, char **argv);
int t_rows_idle(int argc, char **argv);
int t_om_kept(int argc, char **argv);
int t_totals(int argc, char **argv);
int t_control(int argc, char **argv);
int t_control_arg(int argc, char **argv);
int t_sim_out(int argc, char **argv);
int t_sim_cache(int argc, char **argv);
int t_cgroup_mount(int argc, char **argv);
int t_accept(int argc, char **argv);
int t_accept_encoding(int argc, char **argv);
int t_unescape(int argc, char **argv);
int t_om_metrics(int argc, char **argv);
int t_om_units(int argc, char **argv);
int t_bench(int argc, char **argv);
int t_weak(int argc, char **argv);
int t_fixed(int argc, char **argv);

#endif
