/* SPDX-License-Identifier: MIT */
/*
 * pstat-test fixed "COUNT [SEED]": print_fixed against printf itself, in
 * the locale of the environment (LC_NUMERIC), for COUNT pseudo-random
 * doubles of every magnitude below 10^16 and both signs, for 0 to 3
 * decimals, grouped and not, and for the values where rounding is
 * hardest: exact ties (k/8, k/16... at every decimal), their neighbours
 * one ulp either side, -0, tiny and subnormal numbers, 10^15 and around.
 * Prints how many strings agreed and the locale's decimal point and
 * thousands separator, or the first string that did not agree.
 */
#include <float.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/print.h"
#include "test-tool.h"

static uint64_t rng_state;

/* xorshift64*: the same values on every machine for a seed */
static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

/* Compare v at every precision, grouped or not; 0 or 1 (printed). */
static int check(double v, unsigned long *n)
{
	char want[512], got[512];

	for (int prec = 0; prec <= 3; prec++) {
		for (int big = 0; big <= 1; big++) {
			snprintf(want, sizeof(want), big ? "%'.*f" : "%.*f",
				 prec, v);
			size_t len = print_fixed(got, sizeof(got), v, prec,
						 big);

			(*n)++;
			if (strcmp(want, got) || len != strlen(want)) {
				printf("%a (%.17g) prec %d big %d: '%s', printf '%s'\n",
				       v, v, prec, big, got, want);
				return 1;
			}
		}
	}
	return 0;
}

static int check_around(double v, unsigned long *n)
{
	return check(v, n) || check(nextafter(v, -INFINITY), n) ||
	       check(nextafter(v, INFINITY), n) || check(-v, n);
}

int t_fixed(int argc, char **argv)
{
	unsigned long count = 0, n = 0, seed = 1;
	static const double special[] = { 0.0, -0.0, 1e15, 1e16, 9.995,
					  0.0005, 0.005, 0.05, 0.5, 1.5, 2.5,
					  DBL_MIN, DBL_TRUE_MIN, 1e-300,
					  999999999999999.9, 123456789.125 };

	setlocale(LC_NUMERIC, "");
	if (argc < 2 || sscanf(argv[1], "%lu %lu", &count, &seed) < 1) {
		printf("error: usage: fixed \"COUNT [SEED]\"\n");
		return 1;
	}
	rng_state = seed ? seed : 1;
	for (size_t i = 0; i < sizeof(special) / sizeof(*special); i++)
		if (check_around(special[i], &n))
			return 1;
	/* ties at the last decimal: odd multiples of 1/2^k */
	for (int k = 1; k <= 12; k++)
		for (uint64_t m = 1; m < 4000; m += 2)
			if (check_around(ldexp((double)m, -k), &n))
				return 1;
	for (unsigned long i = 0; i < count; i++) {
		uint64_t r = rng();
		/* a mantissa, and an exponent for 10^-8 .. 10^16 */
		double v = ldexp((double)(r >> 11), -53) *
			   pow(10.0, (double)(rng() % 25) - 8.0);

		if (check(r & 1 ? -v : v, &n))
			return 1;
		/* a value of few decimals, as counts and clocks mostly are */
		v = (double)(rng() % 100000000) / 1000.0;
		if (check(v, &n))
			return 1;
	}
	printf("%lu strings as printf's, point '%s' separator '%s'\n", n,
	       nl_langinfo(RADIXCHAR), nl_langinfo(THOUSEP));
	return 0;
}
