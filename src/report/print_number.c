/* SPDX-License-Identifier: MIT */
/*
 * Numbers for machine output, in the C locale whatever LC_NUMERIC says:
 * a double in the fewest digits that read back to the same double (what
 * Python's repr and JavaScript print), and integers, without a printf
 * per number (thousands of them an interval).
 */
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/print.h"

/*
 * printf's and strtod's way for what the fast paths leave, in the C
 * locale whatever LC_NUMERIC says (a decimal comma is no JSON number).
 */
static size_t c_printf_g(char *buf, int prec, double v)
{
	static locale_t c;
	locale_t old = (locale_t)0;
	int n;

	if (!c)
		c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (c)
		old = uselocale(c);
	n = snprintf(buf, PRINT_REAL_MAX, "%.*g", prec, v);
	if (old)
		uselocale(old);
	return n < 0 ? 0 : (size_t)n;
}

static double c_strtod(const char *s)
{
	static locale_t c;

	if (!c)
		c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	return c ? strtod_l(s, NULL, c) : strtod(s, NULL);
}

size_t print_u64(char *buf, uint64_t v)
{
	char tmp[24];
	size_t n = 0, len;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	len = n;
	while (n)
		*buf++ = tmp[--n];
	*buf = '\0';
	return len;
}

size_t print_i64(char *buf, int64_t v)
{
	if (v >= 0)
		return print_u64(buf, (uint64_t)v);
	*buf = '-';
	return 1 + print_u64(buf + 1, -(uint64_t)v);
}

/*
 * digits (n, of which the last k are decimals) as a JSON number into
 * buf, their trailing zeros dropped. Returns the length.
 */
static size_t put_decimal(char *buf, int neg, uint64_t n, int k)
{
	char digits[24], *p = buf;
	size_t nd;

	while (k > 0 && n % 10 == 0) {
		n /= 10;
		k--;
	}
	nd = print_u64(digits, n);
	if (neg)
		*p++ = '-';
	if ((int)nd <= k) {
		*p++ = '0';
		*p++ = '.';
		for (int z = (int)nd; z < k; z++)
			*p++ = '0';
		memcpy(p, digits, nd);
		p += nd;
	} else {
		memcpy(p, digits, nd - (size_t)k);
		p += nd - (size_t)k;
		*p++ = '.';
		if (k) {
			memcpy(p, digits + nd - (size_t)k, (size_t)k);
			p += k;
		} else {
			*p++ = '0';
		}
	}
	*p = '\0';
	return (size_t)(p - buf);
}

static const long double pow10l_tab[] = {
	1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,
	1e8L,  1e9L,  1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L,
	1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L,
};

/*
 * a (finite, > 0) rounded to p significant digits (15 to 17) as n with
 * k decimals: a·10^k in long double (64-bit mantissa) is within 2^-64
 * of the exact product, so rounding it half up gives the correctly
 * rounded n but when the fraction is a hair from one half (*tie then
 * says so). The decimal exponent comes from the binary one, without
 * libm (a plain count never loads it: see base/libm.h): a in
 * [2^(b-1), 2^b) puts log10(a) in [(b-1)·log10(2), b·log10(2)), less
 * than one apart, so the estimate is the exponent or one below; a / 10^e
 * decides, and past the table the digits n has say so. Returns false
 * when 10^k is out of the table's exact range.
 */
static bool round_digits(double a, int p, uint64_t *n, int *k, bool *tie)
{
	int b, e;

	frexp(a, &b);
	e = (int)floor((b - 1) * 0.30102999566398120);
	if (e >= -22 && e <= 22) {
		long double x = e >= 0 ? (long double)a / pow10l_tab[e] :
					 (long double)a * pow10l_tab[-e];

		if (x < 1.0L)
			e--;
		else if (x >= 10.0L)
			e++;
	}

	for (int tries = 0; tries < 3; tries++) {
		long double scaled, frac;

		*k = p - 1 - e;
		if (*k < 0 || *k > 22)
			return false;
		scaled = (long double)a * pow10l_tab[*k];
		/* exact: scaled < 10^17 < 2^63 leaves the half its bit */
		*n = (uint64_t)floorl(scaled + 0.5L);
		if (*n < (uint64_t)pow10l_tab[p - 1] && scaled < pow10l_tab[p - 1]) {
			e--;
			continue;
		}
		if (scaled >= pow10l_tab[p]) {
			e++;
			continue;
		}
		frac = scaled - floorl(scaled);
		*tie = fabsl(frac - 0.5L) < 0.01L;
		return true;
	}
	return false;
}

/*
 * v (finite, not 0) in the fewest of 15, 16 or 17 significant digits
 * that read back, in positional form. 15 or 16 digits: n below 2^53
 * and 10^k exact make n / 10^k one correctly rounded division, the
 * double a reader makes of the decimal; equal to v, it reads back. 17
 * correctly rounded digits always read back. Returns the length, or 0
 * for the rest (exponents, ties): the caller's printf.
 */
static size_t digits_form(char *buf, double v)
{
	double a = fabs(v);

	for (int p = 15; p <= 17; p++) {
		uint64_t n;
		int k;
		bool tie;

		if (!round_digits(a, p, &n, &k, &tie))
			return 0;
		if (p < 17) {
			if (n >= 9007199254740992ull)
				return 0;
			if ((double)n / (double)pow10l_tab[k] == a)
				return put_decimal(buf, signbit(v) != 0, n, k);
			continue;
		}
		if (tie)
			return 0;
		return put_decimal(buf, signbit(v) != 0, n, k);
	}
	return 0;
}

size_t print_g15(char *buf, double v)
{
	double a = fabs(v);
	uint64_t n;
	int k, e;
	bool tie;
	size_t nd;

	if (a < 1e15 && a == (double)(uint64_t)a) {
		nd = put_decimal(buf, signbit(v) != 0, (uint64_t)a, 0) - 2;
		buf[nd] = '\0';
		return nd;
	}
	if (!isfinite(v) || a == 0 || !round_digits(a, 15, &n, &k, &tie) ||
	    tie)
		return c_printf_g(buf, 15, v);
	e = 14 - k;
	/* %g: positional from 1e-4 to below 1e15, as here */
	if (e < -4)
		return c_printf_g(buf, 15, v);
	nd = put_decimal(buf, signbit(v) != 0, n, k);
	/* "12.0" (no decimals left) is "12" to %g */
	if (nd >= 2 && buf[nd - 2] == '.' && buf[nd - 1] == '0')
		nd -= 2;
	buf[nd] = '\0';
	return nd;
}

size_t print_real(char *buf, double v)
{
	double a = fabs(v);
	size_t n = 0;

	/* counts: integral, "52.0" */
	if (a < 9007199254740992.0 && a == (double)(uint64_t)a)
		return put_decimal(buf, signbit(v) != 0, (uint64_t)a, 0);
	if (isfinite(v))
		n = digits_form(buf, v);
	if (n)
		return n;
	/*
	 * the rest: the first %.Ng that reads back, 15 to 17 digits (from 1
	 * for a subnormal, which has fewer)
	 */
	for (int prec = fabs(v) < 2.2250738585072014e-308 ? 1 : 15;
	     prec <= 17; prec++) {
		size_t len = c_printf_g(buf, prec, v);

		if (prec < 17 && c_strtod(buf) != v)
			continue;
		/* "1e+20" is a JSON number; "5" (from 5.0) gets its ".0" */
		if (!strpbrk(buf, ".eEn")) {
			memcpy(buf + len, ".0", 3);
			len += 2;
		}
		return len;
	}
	return 0;
}
