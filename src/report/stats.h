/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_STATS_H
#define PSTAT_STATS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Pure arithmetic on counter readings: scaling for multiplexing, and the
 * statistics of repeated runs. Nothing here does I/O.
 */

/* One counter reading as the kernel returns it. */
struct pstat_reading {
	uint64_t val;
	uint64_t ena;   /* time_enabled, ns */
	uint64_t run;   /* time_running, ns */
};

enum pstat_scale_status {
	SCALE_COUNTED,      /* ran the whole time it was enabled */
	SCALE_MULTIPLEXED,  /* ran part of the time: value extrapolated */
	SCALE_NOT_COUNTED,  /* never ran (time_running 0) */
};

/*
 * Scale r->val by ena/run without overflow or float rounding: the product
 * is taken in 128 bits and saturates at UINT64_MAX. run == 0 gives
 * SCALE_NOT_COUNTED and 0; run >= ena gives the value unchanged (a kernel
 * that reports running > enabled is not extrapolated). *pct receives the
 * running percentage (0..100), may be NULL.
 */
enum pstat_scale_status stats_scale(const struct pstat_reading *r,
				    uint64_t *scaled, double *pct);

/* Add b to a field by field, saturating. */
void stats_reading_add(struct pstat_reading *a, const struct pstat_reading *b);
/* a - b field by field (for interval deltas); fields never go below 0. */
struct pstat_reading stats_reading_sub(const struct pstat_reading *a,
				       const struct pstat_reading *b);

/*
 * Bound a reading of a counter tied to one CPU (-a, -C, -G), taken
 * wall_ns after prev: its time enabled cannot have grown by more than
 * the time that passed, nor its time running by more than its time
 * enabled. The kernel's cgroup clock can jump (a counter of an empty
 * cgroup read 665 s enabled after 1 s of counting); such a jump is taken
 * off cur, and added to skew, what was taken off this counter's readings
 * so far (zero at first), which is taken off every later reading before
 * it is compared. A growth up to wall_ns / 8 + 10 ms beyond wall_ns
 * passes: the CPUs are read one after the other, not at the instant the
 * clock was. Returns 1 when this reading was bounded, else 0.
 */
int stats_reading_bound(struct pstat_reading *cur,
			const struct pstat_reading *prev,
			struct pstat_reading *skew, uint64_t wall_ns);

/* Summary of n samples. With n == 1 the spreads are 0. */
struct pstat_summary {
	size_t n;
	double mean;
	double stddev;      /* sample standard deviation (n - 1) */
	double stderr_mean; /* stddev / sqrt(n) */
	double min;
	double median;
	double max;
};

/*
 * Summarise x[0..n-1] (n >= 1) with Welford's method for mean and
 * variance, so huge values with a small spread keep their precision.
 */
void stats_summarize(const double *x, size_t n, struct pstat_summary *out);

/* Relative standard error in percent (perf's "+- x.xx%"): 0 if mean is 0. */
double stats_rel_stderr_pct(const struct pstat_summary *s);

/*
 * Two-sample comparison for "pstat compare": Welch's unequal-variance t
 * test on two summaries, a baseline a and a candidate b. Differences are
 * always taken as a - b. Every function here needs n >= 2 on both sides
 * (a variance is needed); with fewer samples they return NaN.
 */

/*
 * Welch's t statistic (mean_a - mean_b) / sqrt(s_a^2/n_a + s_b^2/n_b),
 * with the Welch-Satterthwaite degrees of freedom stored in *df (may be
 * NULL). When both variances are 0 the standard error is 0: t is 0 for
 * equal means and +-INFINITY otherwise, and *df is n_a + n_b - 2 (it no
 * longer matters). n < 2 on either side gives NaN for both.
 */
double stats_welch_t(const struct pstat_summary *a,
		     const struct pstat_summary *b, double *df);

/*
 * Two-sided p-value of Welch's test: the probability, under equal means,
 * of a |t| at least as large as the observed one. Both variances 0 gives
 * 0 when the means differ and 1 when they are equal. NaN when either side
 * has n < 2.
 */
double stats_welch_p(const struct pstat_summary *a,
		     const struct pstat_summary *b);

/*
 * Confidence interval at level (e.g. 0.95) for mean_a - mean_b, from
 * Welch's standard error and degrees of freedom. Both variances 0 gives
 * the point interval [d, d]. Returns 0, or -EDOM with *lo and *hi set to
 * NaN when either side has n < 2 or level is not inside (0, 1).
 */
int stats_welch_ci(const struct pstat_summary *a,
		   const struct pstat_summary *b, double level, double *lo,
		   double *hi);

/*
 * Fieller's confidence interval at level for the ratio mean_b / mean_a
 * of two independent samples, with Welch's degrees of freedom: the
 * ratios r for which mean_b - r mean_a is not significantly different
 * from 0. Unlike the difference's interval over mean_a, it is as
 * lopsided as a ratio's uncertainty is. Both variances 0 gives [r, r];
 * when mean_a itself is not significantly above 0, the interval is
 * unbounded: -INFINITY and INFINITY. Returns 0, or -EDOM with NaN for
 * n < 2 on either side, mean_a <= 0, or a level outside (0, 1).
 */
int stats_fieller_ci(const struct pstat_summary *a,
		     const struct pstat_summary *b, double level, double *lo,
		     double *hi);

/*
 * Student's t cumulative distribution P(T <= t) with df > 0 degrees of
 * freedom (df may be INFINITY: the normal distribution), through the
 * regularized incomplete beta function. NaN for a NaN argument or df <= 0.
 */
double stats_t_cdf(double t, double df);

/*
 * Inverse of stats_t_cdf: the t with P(T <= t) = p. p == 0 and p == 1 give
 * -INFINITY and INFINITY; NaN for p outside [0, 1] or df <= 0.
 */
double stats_t_quantile(double p, double df);

#endif
