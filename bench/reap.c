/* SPDX-License-Identifier: MIT */
/*
 * bench/reap: how long a command takes to give its result, and how long
 * until everything it started has ended.
 *
 *   reap CMD [ARG]...
 *
 * It makes itself a child subreaper (PR_SET_CHILD_SUBREAPER), runs CMD,
 * and prints two times in milliseconds: when CMD exited (what a user
 * waits for: pstat has printed its report), and when the last of CMD's
 * descendants exited, detached ones included (pstat's closer, which
 * tears the counters down in the kernel after the report). For perf the
 * two are the same: it closes its counters itself before it exits.
 * CMD's output is left alone; the times go to stderr as "RESULT ALL".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double t0, result = -1;
	pid_t child, p;
	int st, code = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: reap CMD [ARG]...\n");
		return 2;
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1)) {
		perror("reap: PR_SET_CHILD_SUBREAPER");
		return 2;
	}
	t0 = now_ms();
	child = fork();
	if (child < 0) {
		perror("reap: fork");
		return 2;
	}
	if (child == 0) {
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	while ((p = wait(&st)) > 0 || errno == EINTR) {
		if (p == child) {
			result = now_ms() - t0;
			code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		}
	}
	fprintf(stderr, "%.3f %.3f\n", result, now_ms() - t0);
	return code;
}
