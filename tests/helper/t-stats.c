/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/stats.h"
#include "test-tool.h"

/*
 * Both commands take their input either as one string (the table runner
 * passes each input line whole) or as separate arguments from a shell, so
 * every argument is split on blanks into one list of words.
 */
struct words {
	char *buf;
	char **w;
	size_t n;
};

static void words_split(struct words *ws, int argc, char **argv)
{
	size_t len = 0, alloc = 0;
	char *save, *tok;

	for (int i = 1; i < argc; i++)
		len += strlen(argv[i]) + 1;
	ws->buf = xmalloc(len + 1);
	ws->buf[0] = '\0';
	for (int i = 1; i < argc; i++) {
		strcat(ws->buf, argv[i]);
		strcat(ws->buf, " ");
	}
	ws->w = NULL;
	ws->n = 0;
	for (tok = strtok_r(ws->buf, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		xgrow((void **)&ws->w, &alloc, ws->n + 1, sizeof(*ws->w));
		ws->w[ws->n++] = tok;
	}
}

static void words_free(struct words *ws)
{
	free(ws->w);
	free(ws->buf);
}

static int fail(const char *msg, const char *arg)
{
	if (arg)
		printf("error: %s '%s'\n", msg, arg);
	else
		printf("error: %s\n", msg);
	return 1;
}

static const char *const scale_names[] = {
	[SCALE_COUNTED] = "counted",
	[SCALE_MULTIPLEXED] = "multiplexed",
	[SCALE_NOT_COUNTED] = "not_counted",
};

int t_scale(int argc, char **argv)
{
	struct pstat_reading r;
	uint64_t *fields[] = { &r.val, &r.ena, &r.run };
	enum pstat_scale_status st;
	struct words ws;
	uint64_t scaled;
	double pct;
	int ret = 0;

	words_split(&ws, argc, argv);
	if (ws.n != 3) {
		ret = fail("expected VAL ENA RUN", NULL);
		goto out;
	}
	for (size_t i = 0; i < 3; i++) {
		if (parse_u64(ws.w[i], UINT64_MAX, fields[i])) {
			ret = fail("bad number", ws.w[i]);
			goto out;
		}
	}
	st = stats_scale(&r, &scaled, &pct);
	printf("status=%s scaled=%" PRIu64 " pct=%.2f\n", scale_names[st],
	       scaled, pct);
out:
	words_free(&ws);
	return ret;
}

/*
 * Values that should be exact (samples, and means of samples) print in
 * full: integers (counts) as integers, anything else as the shortest
 * decimal that reads back to the same double. A table can then show that
 * 1e15 + 2 kept its last digit without 17 digits everywhere. Derived
 * values use num()'s fixed 10 digits instead.
 */
struct numbuf {
	char s[40];
};

static const char *exact(struct numbuf *b, double v)
{
	if (v == 0)
		return "0";
	if (v == trunc(v) && fabs(v) < 1e19) {
		snprintf(b->s, sizeof(b->s), "%.0f", v);
		return b->s;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(b->s, sizeof(b->s), "%.*g", prec, v);
		if (strtod(b->s, NULL) == v)
			break;
	}
	return b->s;
}

static const char *num(struct numbuf *b, double v)
{
	/* glibc prints a NaN with its sign bit; tables should not care. */
	if (isnan(v))
		return "nan";
	snprintf(b->s, sizeof(b->s), "%.10g", v);
	return b->s;
}

static int parse_double(const char *s, double *out)
{
	char *end;

	if (!*s)
		return -1;
	*out = strtod(s, &end);
	return *end ? -1 : 0;
}

/* Parse words w[0..n-1] into a new array; prints the error itself. */
static double *parse_samples(char **w, size_t n)
{
	double *x = xcalloc(n ? n : 1, sizeof(*x));

	for (size_t i = 0; i < n; i++) {
		if (parse_double(w[i], &x[i])) {
			fail("bad number", w[i]);
			free(x);
			return NULL;
		}
	}
	return x;
}

/* A comma-separated list of samples, summarised into *s. */
static int summarize_list(char *list, struct pstat_summary *s)
{
	struct words ws = { 0 };
	char *argv[] = { NULL, list };
	double *x;

	for (char *p = list; *p; p++)
		if (*p == ',')
			*p = ' ';
	words_split(&ws, 2, argv);
	if (!ws.n) {
		words_free(&ws);
		return fail("empty sample list", NULL);
	}
	x = parse_samples(ws.w, ws.n);
	if (x)
		stats_summarize(x, ws.n, s);
	free(x);
	words_free(&ws);
	return x ? 0 : 1;
}

/* welch A B: Welch's test of mean(A) - mean(B) and its 95% interval. */
static int stats_welch(struct words *ws)
{
	struct pstat_summary a, b;
	struct numbuf nb[5];
	double t, df, p, lo, hi;

	if (ws->n != 3)
		return fail("expected welch A1,A2,... B1,B2,...", NULL);
	if (summarize_list(ws->w[1], &a) || summarize_list(ws->w[2], &b))
		return 1;
	t = stats_welch_t(&a, &b, &df);
	p = stats_welch_p(&a, &b);
	stats_welch_ci(&a, &b, 0.95, &lo, &hi);
	printf("t=%s df=%s p=%s ci=[%s,%s]\n", num(&nb[0], t), num(&nb[1], df),
	       num(&nb[2], p), num(&nb[3], lo), num(&nb[4], hi));
	return 0;
}

/* cdf T DF and quantile P DF: the Student t distribution alone. */
static int stats_dist(struct words *ws)
{
	struct numbuf nb;
	double arg, df;

	if (ws->n != 3)
		return fail("expected", ws->w[0]);
	if (parse_double(ws->w[1], &arg))
		return fail("bad number", ws->w[1]);
	if (parse_double(ws->w[2], &df))
		return fail("bad number", ws->w[2]);
	if (!strcmp(ws->w[0], "cdf"))
		printf("p=%s\n", num(&nb, stats_t_cdf(arg, df)));
	else
		printf("t=%s\n", num(&nb, stats_t_quantile(arg, df)));
	return 0;
}

int t_stats(int argc, char **argv)
{
	struct pstat_summary s;
	struct numbuf nb[7];
	struct words ws;
	double *x;
	int ret = 0;

	words_split(&ws, argc, argv);
	if (!ws.n) {
		ret = fail("no samples", NULL);
		goto out;
	}
	if (!strcmp(ws.w[0], "welch")) {
		ret = stats_welch(&ws);
		goto out;
	}
	if (!strcmp(ws.w[0], "cdf") || !strcmp(ws.w[0], "quantile")) {
		ret = stats_dist(&ws);
		goto out;
	}
	x = parse_samples(ws.w, ws.n);
	if (!x) {
		ret = 1;
		goto out;
	}
	stats_summarize(x, ws.n, &s);
	free(x);
	printf("n=%zu mean=%s stddev=%s stderr=%s", s.n, exact(&nb[0], s.mean),
	       num(&nb[1], s.stddev), num(&nb[2], s.stderr_mean));
	printf(" min=%s median=%s max=%s rel=%s\n", exact(&nb[3], s.min),
	       exact(&nb[4], s.median), exact(&nb[5], s.max),
	       num(&nb[6], stats_rel_stderr_pct(&s)));
out:
	words_free(&ws);
	return ret;
}

/*
 * pstat-test bound WALL_NS ENA,RUN...: the kernel's cumulative readings
 * of a counter on one CPU, one every WALL_NS, through
 * stats_reading_bound: each interval's time enabled and running as the
 * session counts them, their running totals, and whether it was bounded.
 */
int t_bound(int argc, char **argv)
{
	struct pstat_reading prev = { 0, 0, 0 }, skew = { 0, 0, 0 };
	uint64_t wall;

	if (argc < 3 || parse_u64(argv[1], UINT64_MAX, &wall))
		return fail("expected WALL_NS ENA,RUN...", NULL);
	for (int i = 2; i < argc; i++) {
		struct pstat_reading cur = { 0, 0, 0 };
		char *comma = strchr(argv[i], ',');
		int b;

		if (!comma)
			return fail("expected ENA,RUN", argv[i]);
		*comma = '\0';
		if (parse_u64(argv[i], UINT64_MAX, &cur.ena) ||
		    parse_u64(comma + 1, UINT64_MAX, &cur.run))
			return fail("bad number", argv[i]);
		b = stats_reading_bound(&cur, &prev, &skew, wall);
		printf("%d ena=%" PRIu64 " run=%" PRIu64 " total_ena=%" PRIu64
		       " total_run=%" PRIu64 "%s\n", i - 1, cur.ena - prev.ena,
		       cur.run - prev.run, cur.ena, cur.run,
		       b ? " bounded" : "");
		prev = cur;
	}
	return 0;
}
