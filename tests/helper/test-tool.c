/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-tool.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
};

static const struct cmd cmds[] = {
	{ "accept", t_accept },
	{ "accept-encoding", t_accept_encoding },
	{ "aggr", t_aggr },
	{ "bench", t_bench },
	{ "bound", t_bound },
	{ "cgroup-mount", t_cgroup_mount },
	{ "control", t_control },
	{ "control-arg", t_control_arg },
	{ "default-out", t_default_out },
	{ "encode", t_encode },
	{ "evspec", t_evspec },
	{ "fixed", t_fixed },
	{ "group", t_group },
	{ "jansson-real", t_jansson_real },
	{ "legacy", t_legacy },
	{ "metric-def", t_metric_def },
	{ "metric-eval", t_metric_eval },
	{ "metric-expr", t_metric_expr },
	{ "metric-file", t_metric_file },
	{ "metrics", t_metrics },
	{ "om-kept", t_om_kept },
	{ "om-metrics", t_om_metrics },
	{ "om-units", t_om_units },
	{ "pfm", t_pfm },
	{ "pmu", t_pmu },
	{ "print", t_print },
	{ "print-kept", t_print_kept },
	{ "read", t_read },
	{ "real", t_real },
	{ "rows", t_rows },
	{ "rows-idle", t_rows_idle },
	{ "scale", t_scale },
	{ "sim-cache", t_sim_cache },
	{ "sim-out", t_sim_out },
	{ "sparkline", t_sparkline },
	{ "stats", t_stats },
	{ "topo", t_topo },
	{ "totals", t_totals },
	{ "tracepoint", t_tracepoint },
	{ "unescape", t_unescape },
	{ "weak", t_weak },
};

static const struct cmd *find(const char *name)
{
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

/* Run cmd on one input line in a child, capturing its stdout. */
static char *run_one(const struct cmd *c, char *input)
{
	int fds[2];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	pid_t pid;
	int st;

	if (pipe(fds))
		exit(2);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *args[] = { (char *)c->name, input, NULL };
		int r;

		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		/*
		 * _exit, not exit: exit would flush the table FILE inherited
		 * from the parent and move the shared offset back.
		 */
		r = c->fn(2, args);
		fflush(stdout);
		_exit(r);
	}
	close(fds[1]);
	f = open_memstream(&buf, &len);
	for (;;) {
		char tmp[4096];
		ssize_t n = read(fds[0], tmp, sizeof(tmp));

		if (n <= 0)
			break;
		fwrite(tmp, 1, (size_t)n, f);
	}
	close(fds[0]);
	waitpid(pid, &st, 0);
	if (WIFSIGNALED(st))
		fprintf(f, "crashed: signal %d\n", WTERMSIG(st));
	fclose(f);
	return buf;
}

static int table(const char *cmdname, const char *path)
{
	const struct cmd *c = find(cmdname);
	FILE *f = fopen(path, "r");
	char *line = NULL, *input = NULL;
	size_t cap = 0;
	char *expect = NULL;
	size_t elen = 0;
	FILE *ef = NULL;
	int lineno = 0, start = 0, failed = 0, total = 0;

	if (!c || !f) {
		fprintf(stderr, "pstat-test: table: cannot use %s %s\n",
			cmdname, path);
		return 2;
	}
	for (;;) {
		ssize_t n = getline(&line, &cap, f);
		int end = n < 0;

		lineno++;
		if (!end && line[n - 1] == '\n')
			line[--n] = '\0';
		if (!end && !input && (line[0] == '#' || !line[0]))
			continue;
		if (!end && !input) {
			input = strdup(line);
			start = lineno;
			ef = open_memstream(&expect, &elen);
			continue;
		}
		if (!end && line[0]) {
			fprintf(ef, "%s\n", line);
			continue;
		}
		if (input) {
			char *got;

			fclose(ef);
			got = run_one(c, input);
			total++;
			if (strcmp(got, expect)) {
				failed++;
				printf("%s:%d: input: %s\n--- expected\n%s"
				       "--- got\n%s", path, start, input,
				       expect, got);
			}
			free(got);
			free(expect);
			free(input);
			expect = NULL;
			input = NULL;
		}
		if (end)
			break;
	}
	free(line);
	fclose(f);
	printf("%d cases, %d failed\n", total, failed);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	const struct cmd *c;

	if (argc >= 4 && !strcmp(argv[1], "table"))
		return table(argv[2], argv[3]);
	if (argc < 2 || !(c = find(argv[1]))) {
		fprintf(stderr, "usage: pstat-test CMD ARGS | table CMD FILE\n");
		return 2;
	}
	return c->fn(argc - 1, argv + 1);
}
