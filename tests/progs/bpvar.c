/*
 * bpvar N: writes the global 'target' N times. Built with -no-pie so its
 * address (from nm) is known before the program runs, for a mem: event.
 */
#include <stdlib.h>

volatile long target;

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1;

	for (long i = 0; i < n; i++)
		target = i;
	return 0;
}
