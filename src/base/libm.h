/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_LIBM_H
#define PSTAT_LIBM_H

#include <math.h>

/*
 * The libm functions pstat's statistics call (repeats, compare, bench),
 * loaded with dlopen on the first call instead of linked: a plain counting
 * run needs none of them, and loading libm at every start cost about 3%
 * of pstat's start-up (bench/run's startup row). Each returns what the
 * libm function of the same name returns (the same code: the library
 * the program would otherwise have been linked with), or NaN when libm
 * cannot be loaded at all.
 *
 * sqrt needs no entry here: built with -fno-math-errno (the Makefile's
 * flags) the compiler emits the instruction, which rounds as libm does.
 * Any other libm call in pstat makes the Makefile link libm again (it is
 * linked --as-needed; what libc exports too, such as frexp, comes from
 * libc): call it through here.
 */
double libm_erfc(double x);
double libm_exp(double x);
double libm_lgamma(double x);
double libm_log(double x);
double libm_log10(double x);
double libm_log1p(double x);
double libm_pow(double x, double y);

/*
 * fmax and fmin without a call into libm, with their results: a NaN
 * argument gives the other one; of two equal values, y.
 */
static inline double libm_fmax(double x, double y)
{
	if (isnan(x))
		return y;
	if (isnan(y))
		return x;
	return x > y ? x : y;
}

static inline double libm_fmin(double x, double y)
{
	if (isnan(x))
		return y;
	if (isnan(y))
		return x;
	return x < y ? x : y;
}

#endif
