/* SPDX-License-Identifier: MIT */
/*
 * spin N [STATUS]: a libc program whose function spin() retires exactly
 * 2N + a constant instructions (N times dec, jnz), then exits STATUS
 * (default 0). Counts of two runs with N of the same number of digits
 * differ by exactly twice the difference of the Ns.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned long spin(unsigned long n)
{
	__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n));
	return n;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;

	if (n)
		spin(n);
	printf("spun %lu\n", n);
	return argc > 2 ? atoi(argv[2]) : 0;
}
