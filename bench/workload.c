/* SPDX-License-Identifier: MIT */
/*
 * bench/workload: a small, deterministic program for "make demo" to count.
 *
 *   workload ITERATIONS
 *
 * It mixes integer arithmetic (cycles, instructions, branches), scattered
 * stores into a buffer it touches for the first time (page faults, cache
 * misses), a few write(2)s (the syscalls:sys_enter_write tracepoint) and a
 * few short sleeps (context switches), then prints one line with a
 * checksum so the work cannot be optimised away.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define BUF_SIZE (16u << 20)
#define PHASES 8

int main(int argc, char **argv)
{
	struct timespec nap = { .tv_sec = 0, .tv_nsec = 1000000 };
	uint64_t n, x = 88172645463325252ull, sum = 0;
	unsigned char *buf;
	char *end;
	int null;

	if (argc != 2) {
		fprintf(stderr, "usage: workload ITERATIONS\n");
		return 2;
	}
	errno = 0;
	n = strtoull(argv[1], &end, 10);
	if (errno || end == argv[1] || *end || argv[1][0] == '-') {
		fprintf(stderr, "workload: bad iteration count '%s'\n",
			argv[1]);
		return 2;
	}
	/* calloc leaves the pages untouched, so the stores below fault. */
	buf = calloc(1, BUF_SIZE);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (!buf || null < 0) {
		perror("workload");
		return 1;
	}

	for (int phase = 0; phase < PHASES; phase++) {
		uint64_t stop = n / PHASES + (phase < (int)(n % PHASES));

		for (uint64_t i = 0; i < stop; i++) {
			/* xorshift64: cheap, and branch-free arithmetic. */
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[x % BUF_SIZE] += (unsigned char)x;
			if (x & 1)
				sum += x >> 32;
			else
				sum ^= x;
		}
		if (write(null, &sum, sizeof(sum)) < 0)
			perror("workload: write");
		nanosleep(&nap, NULL);
	}
	for (uint32_t i = 0; i < BUF_SIZE; i += 4096)
		sum += buf[i];

	printf("workload: %" PRIu64 " iterations, checksum %016" PRIx64
	       "\n", n, sum);
	close(null);
	free(buf);
	return 0;
}
