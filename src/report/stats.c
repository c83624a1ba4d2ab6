/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/libm.h"
#include "report/stats.h"

enum pstat_scale_status stats_scale(const struct pstat_reading *r,
				    uint64_t *scaled, double *pct)
{
	unsigned __int128 prod;

	if (!r->run) {
		*scaled = 0;
		if (pct)
			*pct = 0;
		return SCALE_NOT_COUNTED;
	}
	/*
	 * Running longer than enabled happens when the two times are read
	 * at slightly different moments; extrapolating would shrink the
	 * count, so the raw value stands.
	 */
	if (r->run >= r->ena) {
		*scaled = r->val;
		if (pct)
			*pct = 100;
		return SCALE_COUNTED;
	}
	/*
	 * val * ena overflows 64 bits for any large count that ran for more
	 * than a few seconds, and a double would drop the low digits of
	 * counts above 2^53, so the product is taken in 128 bits.
	 */
	prod = (unsigned __int128)r->val * r->ena / r->run;
	*scaled = prod > UINT64_MAX ? UINT64_MAX : (uint64_t)prod;
	if (pct)
		*pct = 100.0 * (double)r->run / (double)r->ena;
	return SCALE_MULTIPLEXED;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t s;

	return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

static uint64_t floor_sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void stats_reading_add(struct pstat_reading *a, const struct pstat_reading *b)
{
	a->val = sat_add(a->val, b->val);
	a->ena = sat_add(a->ena, b->ena);
	a->run = sat_add(a->run, b->run);
}

struct pstat_reading stats_reading_sub(const struct pstat_reading *a,
				       const struct pstat_reading *b)
{
	struct pstat_reading d = {
		.val = floor_sub(a->val, b->val),
		.ena = floor_sub(a->ena, b->ena),
		.run = floor_sub(a->run, b->run),
	};

	return d;
}

int stats_reading_bound(struct pstat_reading *cur,
			const struct pstat_reading *prev,
			struct pstat_reading *skew, uint64_t wall_ns)
{
	uint64_t slack = wall_ns / 8 + 10000000, d;
	int bounded = 0;

	cur->ena = floor_sub(cur->ena, skew->ena);
	cur->run = floor_sub(cur->run, skew->run);
	d = floor_sub(cur->ena, prev->ena);
	if (d > wall_ns + slack) {
		/* at most the wall time: what the counter could have had */
		skew->ena += d - wall_ns;
		cur->ena -= d - wall_ns;
		bounded = 1;
	}
	d = floor_sub(cur->run, prev->run);
	if (d > floor_sub(cur->ena, prev->ena)) {
		uint64_t over = d - floor_sub(cur->ena, prev->ena);

		skew->run += over;
		cur->run -= over;
		bounded = 1;
	}
	return bounded;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/*
 * The k-th smallest of x[0..n-1] without a copy, in O(n^2): only used when
 * the copy for sorting cannot be allocated, because this module has no
 * way to report an error and the summary must still be complete.
 */
static double kth_smallest(const double *x, size_t n, size_t k)
{
	for (size_t i = 0; i < n; i++) {
		size_t lt = 0, eq = 0;

		for (size_t j = 0; j < n; j++) {
			lt += x[j] < x[i];
			eq += x[j] == x[i];
		}
		if (lt <= k && k < lt + eq)
			return x[i];
	}
	return NAN;
}

static double midpoint(double lo, double hi)
{
	double m = (lo + hi) / 2;

	return isfinite(m) ? m : lo / 2 + hi / 2;
}

static double median(const double *x, size_t n)
{
	double *s = malloc(n * sizeof(*s));
	double m;

	if (!s) {
		if (n % 2)
			return kth_smallest(x, n, n / 2);
		return midpoint(kth_smallest(x, n, n / 2 - 1),
				kth_smallest(x, n, n / 2));
	}
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : midpoint(s[n / 2 - 1], s[n / 2]);
	free(s);
	return m;
}

void stats_summarize(const double *x, size_t n, struct pstat_summary *out)
{
	double mean = 0, m2 = 0;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n)
		return;
	out->min = out->max = x[0];
	/*
	 * Welford: summing squares would cancel catastrophically for counts
	 * like 1e15 + small; updating the mean and the sum of squared
	 * deviations one sample at a time keeps the spread exact there.
	 */
	for (size_t i = 0; i < n; i++) {
		double d = x[i] - mean;

		mean += d / (double)(i + 1);
		m2 += d * (x[i] - mean);
		if (x[i] < out->min)
			out->min = x[i];
		if (x[i] > out->max)
			out->max = x[i];
	}
	out->mean = mean;
	if (n > 1) {
		out->stddev = sqrt(m2 / (double)(n - 1));
		out->stderr_mean = out->stddev / sqrt((double)n);
	}
	out->median = median(x, n);
}

double stats_rel_stderr_pct(const struct pstat_summary *s)
{
	if (s->mean == 0)
		return 0;
	return 100.0 * s->stderr_mean / fabs(s->mean);
}

/*
 * The continued fraction for the incomplete beta function (Numerical
 * Recipes' betacf), evaluated with the modified Lentz method. It converges
 * quickly for x < (a + 1) / (a + b + 2); beta_reg uses the symmetry
 * I_x(a, b) = 1 - I_{1-x}(b, a) to stay in that region.
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-16;
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 1000; m++) {
		int m2 = 2 * m;
		double aa, del;

		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/*
 * Regularized incomplete beta I_x(a, b). The caller passes y = 1 - x and
 * the logarithms of both as well, each computed from its own terms, so
 * that an x close to 1 does not lose its small complement to
 * cancellation and an x that underflows still has its logarithm.
 */
static double beta_reg(double a, double b, double x, double y, double lx,
		       double ly)
{
	double front;

	if (lx == -INFINITY)
		return 0;
	if (ly == -INFINITY)
		return 1;
	front = libm_exp(libm_lgamma(a + b) - libm_lgamma(a) - libm_lgamma(b) +
			  a * lx + b * ly);
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, y) / b;
}

/*
 * Upper tail P(T > t) for t >= 0: I_x(df/2, 1/2) / 2 with
 * x = df / (df + t^2). Both x and 1 - x are formed as 1 / (1 + ratio) so
 * that neither overflows nor cancels. Past t^2 / df ~ 1e308 the ratio
 * overflows; x is then df / t^2 to double precision, taken in logarithms
 * so the far tails of small df (p-values like 1e-300) stay nonzero.
 */
static double t_upper(double t, double df)
{
	double ratio = t * t / df, x, y, lx, ly;

	if (isinf(df))
		return 0.5 * libm_erfc(t / M_SQRT2);
	if (isinf(t))
		return 0;
	if (isinf(ratio)) {
		lx = libm_log(df) - 2 * libm_log(t);
		x = libm_exp(lx);
		y = 1;
		ly = -x;
	} else {
		x = 1 / (1 + ratio);
		y = 1 / (1 + 1 / ratio);
		lx = x < 0.5 ? libm_log(x) : libm_log1p(-y);
		ly = y < 0.5 ? libm_log(y) : libm_log1p(-x);
	}
	return 0.5 * beta_reg(df / 2, 0.5, x, y, lx, ly);
}

double stats_t_cdf(double t, double df)
{
	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (t < 0)
		return t_upper(-t, df);
	return 1 - t_upper(t, df);
}

/*
 * The t >= 0 with P(T > t) = q, 0 < q <= 0.5. The tail is monotonic, so
 * bracketing by doubling and then bisecting until the bracket is two
 * adjacent doubles is slow-ish but cannot diverge, unlike Newton's method
 * on the heavy tails of small df.
 */
static double t_upper_inv(double q, double df)
{
	double lo = 0, hi = 1;

	while (t_upper(hi, df) > q) {
		lo = hi;
		hi *= 2;
		if (isinf(hi))
			return INFINITY;
	}
	for (;;) {
		double mid = lo + (hi - lo) / 2;

		if (mid <= lo || mid >= hi)
			return mid;
		if (t_upper(mid, df) > q)
			lo = mid;
		else
			hi = mid;
	}
}

double stats_t_quantile(double p, double df)
{
	if (isnan(p) || isnan(df) || df <= 0 || p < 0 || p > 1)
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	if (p == 0.5)
		return 0;
	if (p < 0.5)
		return -t_upper_inv(p, df);
	return t_upper_inv(1 - p, df);
}

/*
 * The difference of means, its standard error and the Welch-Satterthwaite
 * degrees of freedom. Returns -EDOM when a side has no variance estimate.
 */
static int welch(const struct pstat_summary *a, const struct pstat_summary *b,
		 double *diff, double *se, double *df)
{
	double va, vb, s, ra, rb;

	if (a->n < 2 || b->n < 2)
		return -EDOM;
	va = a->stddev * a->stddev / (double)a->n;
	vb = b->stddev * b->stddev / (double)b->n;
	s = va + vb;
	*diff = a->mean - b->mean;
	*se = sqrt(s);
	if (s == 0) {
		*df = (double)(a->n + b->n - 2);
		return 0;
	}
	/* As shares of the sum, so tiny variances do not underflow. */
	ra = va / s;
	rb = vb / s;
	*df = 1 / (ra * ra / (double)(a->n - 1) + rb * rb / (double)(b->n - 1));
	return 0;
}

double stats_welch_t(const struct pstat_summary *a,
		     const struct pstat_summary *b, double *df)
{
	double diff, se, dof;

	if (welch(a, b, &diff, &se, &dof)) {
		if (df)
			*df = NAN;
		return NAN;
	}
	if (df)
		*df = dof;
	if (se == 0)
		return diff == 0 ? 0 : copysign(INFINITY, diff);
	return diff / se;
}

double stats_welch_p(const struct pstat_summary *a,
		     const struct pstat_summary *b)
{
	double diff, se, df, p;

	if (welch(a, b, &diff, &se, &df))
		return NAN;
	if (se == 0)
		return diff == 0 ? 1 : 0;
	p = 2 * t_upper(fabs(diff / se), df);
	return p > 1 ? 1 : p;
}

int stats_welch_ci(const struct pstat_summary *a, const struct pstat_summary *b,
		   double level, double *lo, double *hi)
{
	double diff, se, df, half;

	*lo = *hi = NAN;
	if (!(level > 0 && level < 1) || welch(a, b, &diff, &se, &df))
		return -EDOM;
	half = se == 0 ? 0 : se * t_upper_inv((1 - level) / 2, df);
	*lo = diff - half;
	*hi = diff + half;
	return 0;
}

int stats_fieller_ci(const struct pstat_summary *a,
		     const struct pstat_summary *b, double level, double *lo,
		     double *hi)
{
	double diff, se, df, va, vb, r, t, g, half;

	*lo = *hi = NAN;
	if (!(level > 0 && level < 1) || welch(a, b, &diff, &se, &df) ||
	    !(a->mean > 0))
		return -EDOM;
	r = b->mean / a->mean;
	if (se == 0) {
		*lo = *hi = r;
		return 0;
	}
	va = a->stddev * a->stddev / (double)a->n;
	vb = b->stddev * b->stddev / (double)b->n;
	t = t_upper_inv((1 - level) / 2, df);
	/* g >= 1: a's mean is not surely above 0, and nor is any bound */
	g = t * t * va / (a->mean * a->mean);
	if (!(g < 1)) {
		*lo = -INFINITY;
		*hi = INFINITY;
		return 0;
	}
	half = t / a->mean * sqrt(vb + r * r * va - g * vb);
	*lo = (r - half) / (1 - g);
	*hi = (r + half) / (1 - g);
	return 0;
}
