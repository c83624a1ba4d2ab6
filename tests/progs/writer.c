/*
 * writer N [THREADS] [CHILDREN] [SLEEP_MS]: every thread of every process
 * calls write(2) N times on /dev/null, so syscalls:sys_enter_write counts
 * exactly N x THREADS x (CHILDREN + 1) writes. With SLEEP_MS, it sleeps
 * between writes.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long n, sleep_ms;
static int fd;

static void *work(void *arg)
{
	struct timespec ts = { sleep_ms / 1000, (sleep_ms % 1000) * 1000000 };

	(void)arg;
	for (long i = 0; i < n; i++) {
		if (write(fd, "x", 1) != 1)
			exit(1);
		if (sleep_ms)
			nanosleep(&ts, NULL);
	}
	return NULL;
}

static void run_threads(int threads)
{
	pthread_t t[64];

	for (int i = 1; i < threads; i++)
		pthread_create(&t[i], NULL, work, NULL);
	work(NULL);
	for (int i = 1; i < threads; i++)
		pthread_join(t[i], NULL);
}

int main(int argc, char **argv)
{
	int threads = argc > 2 ? atoi(argv[2]) : 1;
	int children = argc > 3 ? atoi(argv[3]) : 0;

	n = argc > 1 ? atol(argv[1]) : 1;
	sleep_ms = argc > 4 ? atol(argv[4]) : 0;
	fd = open("/dev/null", O_WRONLY);
	if (threads < 1 || threads > 64 || fd < 0)
		return 2;
	for (int c = 0; c < children; c++) {
		if (fork() == 0) {
			run_threads(threads);
			_exit(0);
		}
	}
	run_threads(threads);
	while (wait(NULL) > 0)
		;
	return 0;
}
