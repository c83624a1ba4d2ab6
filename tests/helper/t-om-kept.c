/* SPDX-License-Identifier: MIT */
/*
 * pstat-test om-kept THREADS INTERVALS SEED: the OpenMetrics printer's
 * intervals (running totals) through one printer, and each interval's
 * again from totals of every interval up to it written by
 * openmetrics_write (which keeps nothing), the two expositions compared. Rows of two events per thread; some
 * intervals every thread is idle (its rows not counted, nothing added:
 * the printer writes the text it kept), in the others some threads
 * count; a thread starts half way. Prints "intervals N, idle I, differ
 * D": D must be 0.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/print.h"
#include "report/totals.h"
#include "test-tool.h"

static uint64_t omk_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Interval k's rows (into rows): n of them. */
static size_t omk_rows(struct pstat_row *rows, unsigned long k,
		       unsigned long nint, size_t nthr, char **names,
		       uint64_t seed)
{
	static const char *const events[] = { "task-clock", "cs" };
	bool idle = k % 5 == 2 || k % 5 == 3;
	size_t n = 0, nthis = k < nint / 2 ? nthr - 1 : nthr;

	/* (the same rows for k whoever asks: a seed of its own) */
	seed += k * 7919;
	for (size_t e = 0; e < 2; e++)
		for (size_t t = 0; t < nthis; t++) {
			uint64_t x = omk_rand(&seed);
			struct pstat_row *r = &rows[n++];

			*r = (struct pstat_row){
				.event = events[e], .pmu = "software",
				.group = (int)e, .unit = e ? "" : "msec",
				.cpu = -1, .thread = names[t],
				.status = PSTAT_NOT_COUNTED,
				.running_pct = NAN,
			};
			if (idle || x % 3)
				continue;
			r->status = PSTAT_COUNTED;
			r->raw = x % 100000;
			r->value = (double)r->raw * (e ? 1 : 1e-6);
			r->ena = r->run = 100000000;
			r->running_pct = 100;
		}
	return n;
}

int t_om_kept(int argc, char **argv)
{
	struct pstat_print_cfg cfg = { .format = FORMAT_OPENMETRICS };
	unsigned long nthr, nint, idle = 0;
	size_t differ = 0, klen = 0, kat = 0;
	struct pstat_printer *kept;
	struct pstat_row *rows;
	char **names, *kbuf = NULL;
	uint64_t seed;
	FILE *kf;

	if (argc != 4 || !(nthr = strtoul(argv[1], NULL, 10)) ||
	    !(nint = strtoul(argv[2], NULL, 10)) ||
	    !(seed = strtoull(argv[3], NULL, 10))) {
		fprintf(stderr, "usage: pstat-test om-kept THREADS INTERVALS SEED\n");
		return 2;
	}
	cfg.om_dialect = OM_OPENMETRICS;
	rows = xcalloc(2 * nthr, sizeof(*rows));
	names = xcalloc(nthr, sizeof(*names));
	for (size_t t = 0; t < nthr; t++)
		names[t] = xasprintf("threads-%zu", 1000 + t);
	kf = open_memstream(&kbuf, &klen);
	kept = printer_new(&cfg, kf);
	for (unsigned long k = 0; k < nint; k++) {
		struct pstat_report r = { .is_interval = 1, .runs = 1 };
		struct pstat_totals *tot = totals_new();
		const struct pstat_row *tr;
		char *fbuf = NULL;
		size_t flen = 0, nt;
		FILE *ff = open_memstream(&fbuf, &flen);

		idle += k % 5 == 2 || k % 5 == 3;
		r.rows = rows;
		r.nrows = omk_rows(rows, k, nint, nthr, names, seed);
		printer_interval(kept, &r);
		fflush(kf);
		for (unsigned long j = 0; j <= k; j++)
			totals_add(tot, rows,
				   omk_rows(rows, j, nint, nthr, names, seed));
		tr = totals_rows(tot, &nt);
		openmetrics_write(ff, OM_OPENMETRICS, tr, nt, NULL, 0);
		fflush(ff);
		if (klen - kat != flen || memcmp(kbuf + kat, fbuf, flen))
			differ++;
		kat = klen;
		totals_free(tot);
		fclose(ff);
		free(fbuf);
	}
	printer_free(kept);
	fclose(kf);
	printf("intervals %lu, idle %lu, differ %zu\n", nint, idle, differ);
	for (size_t t = 0; t < nthr; t++)
		free(names[t]);
	free(names);
	free(rows);
	free(kbuf);
	return differ != 0;
}
