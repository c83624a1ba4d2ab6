/* SPDX-License-Identifier: MIT */
/*
 * pstat-test print-kept THREADS EVENTS INTERVALS SEED [OUT]
 *
 * The JSON printer keeps its last interval document and overwrites its
 * values (print_json_fill.c). This prints INTERVALS synthetic
 * --per-thread interval reports of EVENTS x THREADS rows through one
 * printer, and each of them again through a printer of its own, which
 * builds the document from nothing, and compares the two documents.
 * From one interval to the next, rows change what they hold, hence the
 * keys of their objects (a status, an error, a note, a metric, samples,
 * a CPU, an aggregation unit, a cgroup, no thread), their types (a count
 * past INT64_MAX, a NaN value) and their strings (invalid UTF-8); some
 * intervals have fewer threads, some metric values. SEED picks the
 * changes. Prints "documents N, differ D, keys changed K": D must be 0;
 * K, the rows whose keys differ from the row before them at the same
 * place, says the case went through the rebuilding path. With OUT,
 * the kept printer's documents are also written to that file. A third
 * of the rows hold what they held in the interval before, which the
 * printer copies from its last document, and two intervals in five are
 * every thread idle (all of the second as the first: the printer
 * writes the last document's rows again): "rows repeated R" says how
 * many rows were as in the interval before.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/print.h"
#include "test-tool.h"

static uint64_t kept_rand(uint64_t *s)
{
	/* xorshift64: the same sequence on every machine */
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* an idle thread's row: no count, no samples */
#define KEPT_IDLE 11

static const struct pstat_aggr_id kept_aggr = {
	.mode = AGGR_SOCKET, .socket = 1,
};
static const struct pstat_summary kept_stats = {
	.n = 3, .mean = 2, .stddev = 0.5, .stderr_mean = 0.25, .min = 1,
	.median = 2, .max = 3,
};
static const double kept_samples[] = { 1.5, NAN, 3 };
static const char *const kept_inputs[] = { "task-clock", "cs" };

/* One row; x says what it holds. Returns a number for its keys. */
static unsigned kept_row(struct pstat_row *w, uint64_t x, const char *event,
			 int group, const char *thread)
{
	static const char *const names[] = {
		"CPUs utilized", "/sec", "insn per cycle", "of all branches",
	};
	unsigned keys = 0;

	*w = (struct pstat_row){
		.event = event, .pmu = "software", .group = group,
		.unit = group ? "" : "msec", .cpu = -1, .thread = thread,
		.status = x % 16 < 11 ? PSTAT_COUNTED :
					(enum pstat_status)(x % 5),
		.raw = (x >> 8) % 100000000, .ena = 100000000,
		.run = x % 9 == 2 ? 0 : 100000000 - x % 1000,
	};
	if (x % 101 == 3)
		w->raw = UINT64_MAX - 5;
	w->value = (double)w->raw * (group ? 1 : 1e-6);
	if (x % 211 == 7)
		w->value = NAN;
	w->running_pct = 100.0 * (double)w->run / (double)w->ena;
	if (w->status >= PSTAT_NOT_SUPPORTED && x % 3)
		w->err = x % 3 == 1 ? EOPNOTSUPP : EACCES;
	if (w->err)
		keys |= 1;
	if (x % 13 == 4 && (keys |= 2))
		w->note = "kernel excluded";
	if (x % 17 == 4 && (keys |= 4))
		w->group_name = "g1";
	if (x % 19 == 4 && (keys |= 8))
		w->cgroup = "/sys/x";
	if (x % 23 == 4 && (keys |= 16)) {
		w->aggr = &kept_aggr;
		w->aggr_nr = 2;
	}
	if (x % 29 == 4 && (keys |= 32))
		w->cpu = (int)(x % 4);
	if (x % 31 == 4 && (keys |= 64)) {
		w->stats = &kept_stats;
		w->samples = kept_samples;
		w->nsamples = x % 2 ? 3 : 0;
	}
	if (x % 41 == 4 && (keys |= 128))
		w->thread = NULL;
	if (x % 4 && (keys |= 256)) {
		w->has_metric = 1;
		w->metric.name = names[(x >> 3) % 4];
		w->metric.unit = (x >> 3) % 4 == 3 ? "%" : "";
		w->metric.value = (double)(x % 100000) / 7.0;
	}
	return keys;
}

static const struct pstat_metric_runs kept_runs = {
	.stats = &kept_stats, .samples = kept_samples, .nsamples = 3,
};

static void kept_metric(struct pstat_metric_value *m, uint64_t x,
			const char *thread, size_t anchor)
{
	/* what the metric is: by its unit, group and direction */
	static struct pstat_metric_about about[2][2][3];
	struct pstat_metric_about *a = &about[x % 2][x % 3 != 0][x / 3 % 3];

	*a = (struct pstat_metric_about){
		.name = "cpus_utilized", .unit = x % 2 ? "CPUs" : "",
		.expr = "task-clock / 1e6", .group = x % 3 ? "Summary" : NULL,
		.inputs = kept_inputs, .ninputs = 1 + x % 2,
		.higher_is_better = (int)(x / 3 % 3) - 1,
	};
	*m = (struct pstat_metric_value){
		.about = a,
		.value = x % 5 ? (double)(x % 1000) / 3.0 : NAN,
		.why = "'task-clock' was not counted",
		.multiplexed = (signed char)(x % 2),
		.threshold = (signed char)((int)(x % 3) - 1),
		.cpu = x % 7 == 1 ? 2 : -1, .thread = thread,
		.anchor = (unsigned)anchor,
	};
	if (x % 11 == 3)
		m->runs = &kept_runs;
}

/* Print r through p, writing to f, and flush f. Returns 0 or -errno. */
static int kept_print(struct pstat_printer *p, FILE *f,
		      const struct pstat_report *r)
{
	int ret = printer_interval(p, r);

	return ret ? ret : fflush(f) ? -errno : 0;
}

int t_print_kept(int argc, char **argv)
{
	static const char *const events[] = { "task-clock", "cs", "bad\xff" };
	struct pstat_print_cfg cfg = { .format = FORMAT_JSON };
	unsigned long nthr, nev, nint;
	uint64_t seed;
	struct pstat_printer *kept;
	struct pstat_row *rows;
	struct pstat_metric_value *mv;
	unsigned *shape;
	size_t nsame;
	uint64_t *xs;
	char **names, *kbuf = NULL;
	pid_t *tids;
	size_t klen = 0, differ = 0, changed = 0, repeated = 0, nlast = 0;
	FILE *kf, *out = NULL;
	int ret = 0;

	if (argc < 5 || argc > 6 || !(nthr = strtoul(argv[1], NULL, 10)) ||
	    !(nev = strtoul(argv[2], NULL, 10)) || nev > 3 ||
	    !(nint = strtoul(argv[3], NULL, 10)) ||
	    !(seed = strtoull(argv[4], NULL, 10))) {
		fprintf(stderr, "usage: pstat-test print-kept THREADS EVENTS(1-3) "
				"INTERVALS SEED [OUT]\n");
		return 2;
	}
	if (argc == 6 && !(out = fopen(argv[5], "w")))
		return 2;
	tids = xcalloc(nthr, sizeof(*tids));
	names = xcalloc(nthr, sizeof(*names));
	rows = xcalloc(nthr * nev, sizeof(*rows));
	shape = xcalloc(nthr * nev, sizeof(*shape));
	xs = xcalloc(nthr * nev, sizeof(*xs));
	mv = xcalloc(nthr, sizeof(*mv));
	for (size_t t = 0; t < nthr; t++) {
		tids[t] = (pid_t)(1000 + t);
		names[t] = xasprintf(t % 97 == 5 ? "we\xe9ird-%d" : "threads-%d",
				     tids[t]);
	}
	kf = open_memstream(&kbuf, &klen);
	kept = printer_new(&cfg, kf);
	for (unsigned long k = 0; k < nint && !ret; k++) {
		size_t nthis = k % 3 == 2 ? nthr - kept_rand(&seed) % (nthr / 2 + 1)
					  : nthr;
		size_t n = 0, nm = 0;
		struct pstat_report r = {
			.is_interval = 1, .target = TARGET_PID, .pids = tids,
			.npids = 1, .tids = tids, .ntids = nthis, .runs = 1,
			.kernel = "6.1.0-test", .cpu_model = "Test CPU",
			.interval_index = k + 1,
			.interval_start_ns = k * 100000000,
			.interval_end_ns = (k + 1) * 100000000,
			.interval_partial = k == nint - 1,
			.elapsed_ns = 100000000,
		};
		struct pstat_printer *fresh;
		char *fbuf = NULL;
		size_t flen = 0, kstart;
		FILE *ff;

		nsame = 0;
		for (size_t e = 0; e < nev; e++) {
			for (size_t t = 0; t < nthis; t++, n++) {
				bool idle = k % 5 == 3 || k % 5 == 4;
				bool again = k && nthis == nlast &&
					     (idle ? xs[n] == KEPT_IDLE :
						     kept_rand(&seed) % 3 == 0);
				uint64_t x = idle ? KEPT_IDLE :
					     again ? xs[n] : kept_rand(&seed);
				unsigned s = kept_row(&rows[n], x, events[e],
						      (int)e, names[t]);

				changed += k && s != shape[n];
				repeated += again;
				nsame += again;
				shape[n] = s;
				xs[n] = x;
			}
		}
		for (size_t t = 0; t < nthis && t < 50 && k % 4; t++)
			kept_metric(&mv[nm++], kept_rand(&seed), names[t], 2 * t);
		nlast = nthis;
		r.rows = rows;
		/* (as the session says it: every row as the last's) */
		r.rows_as_last = n && nsame == n;
		r.nrows = n;
		r.metrics = mv;
		r.nmetrics = nm;

		kstart = klen;
		ff = open_memstream(&fbuf, &flen);
		fresh = printer_new(&cfg, ff);
		ret = kept_print(kept, kf, &r);
		if (!ret)
			ret = kept_print(fresh, ff, &r);
		printer_free(fresh);
		fclose(ff);
		if (!ret && (klen - kstart != flen ||
			     memcmp(kbuf + kstart, fbuf, flen)))
			differ++;
		free(fbuf);
	}
	printer_free(kept);
	fclose(kf);
	if (out) {
		fwrite(kbuf, 1, klen, out);
		if (fclose(out) && !ret)
			ret = -errno;
	}
	if (ret)
		printf("error: %s\n", strerror(-ret));
	else
		printf("documents %lu, differ %zu, keys changed %zu, rows repeated %zu\n",
		       nint, differ, changed, repeated);
	for (size_t t = 0; t < nthr; t++)
		free(names[t]);
	free(kbuf);
	free(names);
	free(tids);
	free(rows);
	free(shape);
	free(xs);
	free(mv);
	return ret ? 1 : 0;
}
