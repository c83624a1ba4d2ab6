/* SPDX-License-Identifier: MIT */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#ifdef __GLIBC__
#include <gnu/lib-names.h>
#endif

#include "base/libm.h"

#ifdef LIBM_SO
/*
 * glibc: libm is a library of its own, opened by its soname on the first
 * call, once whichever thread makes it. dlsym gives each name's default
 * version, the one a link would have bound.
 */
static struct {
	double (*erfc)(double);
	double (*exp)(double);
	double (*lgamma)(double);
	double (*log)(double);
	double (*log10)(double);
	double (*log1p)(double);
	double (*pow)(double, double);
} fn;

static pthread_once_t fn_once = PTHREAD_ONCE_INIT;

static void libm_load(void)
{
	void *h = dlopen(LIBM_SO, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return;
	*(void **)&fn.erfc = dlsym(h, "erfc");
	*(void **)&fn.exp = dlsym(h, "exp");
	*(void **)&fn.lgamma = dlsym(h, "lgamma");
	*(void **)&fn.log = dlsym(h, "log");
	*(void **)&fn.log10 = dlsym(h, "log10");
	*(void **)&fn.log1p = dlsym(h, "log1p");
	*(void **)&fn.pow = dlsym(h, "pow");
}

#define LIBM_CALL(name, ...)                                                   \
	(pthread_once(&fn_once, libm_load),                                    \
	 fn.name ? fn.name(__VA_ARGS__) : NAN)
#else
/* Elsewhere (musl) the functions are in libc itself: call them. */
#define LIBM_CALL(name, ...) name(__VA_ARGS__)
#endif

double libm_erfc(double x)
{
	return LIBM_CALL(erfc, x);
}

double libm_exp(double x)
{
	return LIBM_CALL(exp, x);
}

double libm_lgamma(double x)
{
	return LIBM_CALL(lgamma, x);
}

double libm_log(double x)
{
	return LIBM_CALL(log, x);
}

double libm_log10(double x)
{
	return LIBM_CALL(log10, x);
}

double libm_log1p(double x)
{
	return LIBM_CALL(log1p, x);
}

double libm_pow(double x, double y)
{
	return LIBM_CALL(pow, x, y);
}
