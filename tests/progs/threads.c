/*
 * threads N WRITES DELAY_MS: starts N threads and prints "ready" once
 * they all exist; DELAY_MS later (time for pstat -p to attach) thread i
 * (0-based) writes (i + 1) x WRITES times to /dev/null, then the process
 * exits. syscalls:sys_enter_write then counts WRITES x N(N+1)/2 in all.
 * With a fourth argument "main-exits", the main thread exits
 * (pthread_exit) right after "ready": the process lives on in its
 * threads, its leader a zombie.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long writes, delay;
static int fd, main_exits;
static pthread_barrier_t ready, go;

static void *work(void *arg)
{
	long id = (long)arg;

	pthread_barrier_wait(&ready);
	if (main_exits)
		usleep((useconds_t)(delay * 1000));
	else
		pthread_barrier_wait(&go);
	for (long i = 0; i < (id + 1) * writes; i++)
		if (write(fd, "x", 1) != 1)
			exit(1);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	pthread_attr_t attr;
	pthread_t *t;

	writes = argc > 2 ? atol(argv[2]) : 1;
	delay = argc > 3 ? atol(argv[3]) : 500;
	main_exits = argc > 4 && !strcmp(argv[4], "main-exits");
	fd = open("/dev/null", O_WRONLY);
	t = calloc((size_t)n, sizeof(*t));
	if (n < 1 || fd < 0 || !t)
		return 2;
	pthread_barrier_init(&ready, NULL, (unsigned)n + 1);
	pthread_barrier_init(&go, NULL, (unsigned)n + 1);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (long i = 0; i < n; i++)
		if (pthread_create(&t[i], &attr, work, (void *)i))
			return 3;
	pthread_barrier_wait(&ready);
	printf("ready\n");
	fflush(stdout);
	if (main_exits)
		pthread_exit(NULL);
	usleep((useconds_t)(delay * 1000));
	pthread_barrier_wait(&go);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
