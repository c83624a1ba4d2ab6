/*
 * spinner CHILDREN MS: forks CHILDREN processes that each spin on the CPU
 * for MS milliseconds, while the parent only waits. With inherit, the
 * task-clock is about CHILDREN x MS; without it, nearly nothing.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	int children = argc > 1 ? atoi(argv[1]) : 2;
	double ms = argc > 2 ? atof(argv[2]) : 100;

	for (int c = 0; c < children; c++) {
		if (fork() == 0) {
			volatile unsigned long x = 0;
			double start = now_ms();

			while (now_ms() - start < ms)
				x++;
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
	return 0;
}
