/* SPDX-License-Identifier: MIT */
/*
 * bench/floor: the least work any perf-stat-style tool must do to count
 * task-clock, page-faults and context-switches of one command, so that
 * bench/run can measure how much pstat adds on top.
 *
 *   floor CMD [ARG]...
 *
 * It forks, holds the child on a pipe while the three counters are
 * opened, lets it exec CMD, waits, reads the counters and formats them to
 * /dev/null. No option parsing, no event names, no error advice. It
 * exits with CMD's status (128 + signal when it was killed).
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const uint64_t configs[] = {
	PERF_COUNT_SW_TASK_CLOCK,
	PERF_COUNT_SW_PAGE_FAULTS,
	PERF_COUNT_SW_CONTEXT_SWITCHES,
};

#define NR_EVENTS (sizeof(configs) / sizeof(configs[0]))

static int open_counter(uint64_t config, pid_t pid)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = config;
	/*
	 * Disabled until the child execs, so the fork and the wait on the
	 * pipe are not counted; inherited so the command's own children
	 * are.
	 */
	attr.disabled = 1;
	attr.enable_on_exec = 1;
	attr.inherit = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

int main(int argc, char **argv)
{
	int go[2], fds[NR_EVENTS], status;
	FILE *out;
	pid_t pid;
	char c;

	if (argc < 2) {
		fprintf(stderr, "usage: floor CMD [ARG]...\n");
		return 2;
	}
	if (pipe2(go, O_CLOEXEC)) {
		perror("floor: pipe");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("floor: fork");
		return 1;
	}
	if (pid == 0) {
		/*
		 * The counters can only attach to an existing pid, so the
		 * child waits here until they are open; EOF without a byte
		 * means the parent gave up.
		 */
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		execvp(argv[1], argv + 1);
		_exit(errno == ENOENT ? 127 : 126);
	}
	close(go[0]);
	for (size_t i = 0; i < NR_EVENTS; i++) {
		fds[i] = open_counter(configs[i], pid);
		if (fds[i] < 0) {
			perror("floor: perf_event_open");
			close(go[1]);
			waitpid(pid, &status, 0);
			return 1;
		}
	}
	if (write(go[1], "x", 1) != 1)
		perror("floor: write");
	close(go[1]);
	if (waitpid(pid, &status, 0) < 0) {
		perror("floor: waitpid");
		return 1;
	}

	out = fopen("/dev/null", "we");
	for (size_t i = 0; i < NR_EVENTS; i++) {
		/* value, time_enabled, time_running */
		uint64_t v[3];

		if (read(fds[i], v, sizeof(v)) != (ssize_t)sizeof(v)) {
			perror("floor: read");
			return 1;
		}
		if (out)
			fprintf(out, "%" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
				v[0], v[1], v[2]);
		close(fds[i]);
	}
	if (out)
		fclose(out);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
