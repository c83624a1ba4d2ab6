/* SPDX-License-Identifier: MIT */
/*
 * The OpenMetrics printer (--openmetrics), and the same exposition in the
 * Prometheus text format 0.0.4 for `pstat serve` clients that do not ask
 * for OpenMetrics.
 *
 * Families, after the Prometheus naming guidelines (one unit per family,
 * in base units, _total on counters, what differs between series in
 * labels):
 *
 *   pstat_events_total{event="...",pmu="..."}   counts without a unit
 *   pstat_event_seconds_total{...}               events that count time
 *                                                (task-clock, cpu-clock)
 *   pstat_event_<unit>_total{...}                other sysfs units, in
 *                                                base units (joules,
 *                                                bytes)
 *   pstat_enabled_seconds_total{...}             time enabled and time
 *   pstat_running_seconds_total{...}             running, added up over
 *                                                the CPUs and threads of
 *                                                the series
 *   pstat_counted{...}                           1 when the counter
 *                                                counted, 0 when it was
 *                                                not opened or never ran
 *   pstat_metric{metric="..."}                   the value of each metric
 *   pstat_metric_<unit>{metric="..."}            of -M and --metric, a
 *                                                gauge family per unit
 *                                                (pstat_metric_ratio for
 *                                                percentages, as 0-1;
 *                                                print_openmetrics_metrics.c)
 *   pstat_build_info{version="..."} 1
 *
 * The event is a label rather than part of the family name: event names
 * are the user's own text ("cpu/event=0x3c,umask=0/u", "msr/tsc/") that a
 * metric name could only hold after a lossy rewrite, where two events may
 * collide; as a label it stays what the other outputs print. Labels:
 * event and pmu always, cpu with -A, comm and tid with --per-thread, cgroup
 * with -G and --for-each-cgroup, the
 * unit's ids (socket, die, cluster, cache_level and cache, core, node)
 * with --per-socket and the like, and occurrence on the repeats of a
 * label set (om_select).
 *
 * Every count is a counter, so an interval run prints running totals
 * (report/totals.h) rather than each interval's deltas: the scraper takes
 * rate() itself. A counter that could not be opened has no samples but
 * its pstat_counted 0. A
 * metric is a gauge: with intervals, its value over the last one; one
 * without a value (a division by zero, a count missing) has no sample.
 */
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/print.h"
#include "report/print_openmetrics_priv.h"
#include "report/totals.h"
#include "base/util.h"


/*
 * The units pstat's rows carry (perf's "msec" for clocks, sysfs .unit
 * files) and their base units. Any other unit names a family as it is.
 */
static const struct {
	const char *unit, *base;
	double mul, div;        /* a division by 1e3 rounds as 1e-3 cannot */
} om_units[] = {
	{ "msec", "seconds", 1, 1e3 },
	{ "ms", "seconds", 1, 1e3 },
	{ "ns", "seconds", 1, 1e9 },
	{ "nsec", "seconds", 1, 1e9 },
	{ "us", "seconds", 1, 1e6 },
	{ "usec", "seconds", 1, 1e6 },
	{ "s", "seconds", 1, 1 },
	{ "sec", "seconds", 1, 1 },
	{ "seconds", "seconds", 1, 1 },
	{ "Joules", "joules", 1, 1 },
	{ "joules", "joules", 1, 1 },
	{ "J", "joules", 1, 1 },
	{ "B", "bytes", 1, 1 },
	{ "bytes", "bytes", 1, 1 },
	{ "KiB", "bytes", 1024.0, 1 },
	{ "MiB", "bytes", 1048576.0, 1 },
	{ "GiB", "bytes", 1073741824.0, 1 },
	{ "kB", "bytes", 1e3, 1 },
	{ "MB", "bytes", 1e6, 1 },
	{ "GB", "bytes", 1e9, 1 },
};

int om_base_unit(struct om_family *f, const char *unit, const char *suffix)
{
	for (size_t i = 0; i < ARRAY_SIZE(om_units); i++) {
		if (!strcmp(unit, om_units[i].unit)) {
			f->unit = xasprintf("%s%s", om_units[i].base, suffix);
			f->mul = om_units[i].mul;
			f->div = om_units[i].div;
			return 1;
		}
	}
	return 0;
}

/* (print_openmetrics_priv.h) */
char *om_name_part(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	for (; *s; s++) {
		char c = *s;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			c = '_';
		if (c == '_' && (o == out || o[-1] == '_'))
			continue;
		if (o == out && c >= '0' && c <= '9')
			continue;
		*o++ = c;
	}
	while (o > out && o[-1] == '_')
		o--;
	*o = '\0';
	return out;
}

/* The family of rows with unit (NULL or "": plain counts). */
static void om_family_init(struct om_family *f, const char *unit)
{
	f->mul = f->div = 1;
	f->unit = NULL;
	if (unit)
		om_base_unit(f, unit, "");
	if (!f->unit && unit)
		f->unit = om_name_part(unit);
	if (!f->unit || !*f->unit) {
		free(f->unit);
		f->unit = xstrdup("");
		f->name = xstrdup("pstat_events");
		f->help = "Events counted, scaled for the time they were "
			  "not running.";
		return;
	}
	f->name = xasprintf("pstat_event_%s", f->unit);
	f->help = !strcmp(f->unit, "seconds") ?
		"Events that count time (task-clock, cpu-clock), scaled "
		"for the time they were not running." :
		"Events counted in this unit, scaled for the time they "
		"were not running.";
}

void om_family_clear(struct om_family *f)
{
	free(f->name);
	free(f->unit);
}

/* Rows that have samples: those whose counter was opened. */
static int om_has_value(const struct pstat_row *r)
{
	return r->status == PSTAT_COUNTED || r->status == PSTAT_MULTIPLEXED ||
	       r->status == PSTAT_NOT_COUNTED;
}

/*
 * A label value: UTF-8 with '\\', '"' and newlines escaped. Bytes that
 * are not UTF-8 (a name is whatever the user typed) become U+FFFD, as
 * both formats must be UTF-8.
 */
static void om_escaped_len(FILE *out, const char *s, size_t n, int quotes)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + n;

	while (p < end) {
		size_t len = 0;
		unsigned cp = 0;
		const unsigned char *run = p;

		/* plain ASCII, the common case: written in one go */
		while (run < end && *run < 0x80 && *run != '\\' &&
		       *run != '\n' && (*run != '"' || !quotes))
			run++;
		if (run > p) {
			fwrite_unlocked(p, 1, (size_t)(run - p), out);
			p = run;
			continue;
		}
		if (*p < 0x80) {
			if (*p == '\\')
				fputs_unlocked("\\\\", out);
			else if (*p == '\n')
				fputs_unlocked("\\n", out);
			else if (*p == '"' && quotes)
				fputs_unlocked("\\\"", out);
			else
				putc_unlocked(*p, out);
			p++;
			continue;
		}
		if ((*p & 0xe0) == 0xc0 && *p >= 0xc2)
			len = 2, cp = *p & 0x1f;
		else if ((*p & 0xf0) == 0xe0)
			len = 3, cp = *p & 0x0f;
		else if ((*p & 0xf8) == 0xf0 && *p <= 0xf4)
			len = 4, cp = *p & 0x07;
		if (len > (size_t)(end - p))
			len = 0;
		for (size_t i = 1; len && i < len; i++) {
			if ((p[i] & 0xc0) != 0x80)
				len = 0;
			else
				cp = cp << 6 | (p[i] & 0x3f);
		}
		/* overlong, surrogates, beyond U+10FFFF */
		if (len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000)))
			len = 0;
		if (len == 4 && (cp < 0x10000 || cp > 0x10ffff))
			len = 0;
		if (!len) {
			fputs_unlocked("\xef\xbf\xbd", out);
			p++;
			continue;
		}
		fwrite(p, 1, len, out);
		p += len;
	}
}

void om_escaped(FILE *out, const char *s, int quotes)
{
	om_escaped_len(out, s, strlen(s), quotes);
}

/*
 * A number in the C locale (the caller's uselocale): a whole count in
 * full, every digit of it; a fraction (seconds, joules) to 15 significant
 * digits, which is what a double holds of a decimal, so that 11.78 msec
 * is 0.01178 s and not 0.011779999999999999.
 */
static size_t om_number_buf(char *buf, double v)
{
	/* (print_number.c: the same text as printf's, without printf) */
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return print_i64(buf, (int64_t)v);
	if (v == floor(v) && fabs(v) < 1e20)
		return (size_t)snprintf(buf, PRINT_REAL_MAX, "%.0f", v);
	return print_g15(buf, v);
}

void om_number(FILE *out, double v)
{
	char buf[PRINT_REAL_MAX];

	fwrite_unlocked(buf, 1, om_number_buf(buf, v), out);
}

/* Nanoseconds as seconds, exactly: "1.5", "0.000000001", "3". */
static size_t om_seconds_buf(char *buf, uint64_t ns)
{
	uint64_t f = ns % 1000000000;
	size_t n = print_u64(buf, ns / 1000000000);
	int len = 9;

	if (f) {
		buf[n++] = '.';
		while (f % 10 == 0) {
			f /= 10;
			len--;
		}
		for (int i = len - 1; i >= 0; i--, f /= 10)
			buf[n + (size_t)i] = (char)('0' + f % 10);
		n += (size_t)len;
	}
	return n;
}

/*
 * --per-socket and the like: the unit's ids as labels, those its mode
 * has (socket="0",die="1"; cache_level and cache with --per-cache).
 */
static void om_aggr_labels(FILE *out, const struct pstat_aggr_id *id)
{
	enum pstat_aggr_mode m = id->mode;

	if (m == AGGR_NODE) {
		fprintf(out, ",node=\"%d\"", id->node);
		return;
	}
	fprintf(out, ",socket=\"%d\"", id->socket);
	if (m != AGGR_SOCKET)
		fprintf(out, ",die=\"%d\"", id->die);
	if (m == AGGR_CLUSTER || m == AGGR_CORE)
		fprintf(out, ",cluster=\"%d\"", id->cluster);
	if (m == AGGR_CACHE)
		fprintf(out, ",cache_level=\"%d\",cache=\"%d\"",
			id->cache_level, id->cache);
	if (m == AGGR_CORE)
		fprintf(out, ",core=\"%d\"", id->core);
}

/*
 * --per-thread: the thread's command and id as two labels, comm="app"
 * and tid="42", from the rows' "comm-tid", so that a query can add up
 * a command's threads (sum by (comm)) without label_replace. The id is
 * what follows the last '-' (a command's name may hold '-'); a name
 * without one is all comm.
 */
static void om_thread_labels(FILE *out, const char *thread)
{
	const char *dash = strrchr(thread, '-');
	size_t len = strlen(thread);

	if (dash && dash[1] && strspn(dash + 1, "0123456789") ==
					       strlen(dash + 1))
		len = (size_t)(dash - thread);
	else
		dash = NULL;
	fputs_unlocked(",comm=\"", out);
	om_escaped_len(out, thread, len, 1);
	putc_unlocked('"', out);
	if (dash) {
		fputs_unlocked(",tid=\"", out);
		fputs_unlocked(dash + 1, out);
		putc_unlocked('"', out);
	}
}

/* Where a counter's or a metric's value is from: cpu, the aggregation
 * unit's labels, thread; each when there is one. */
void om_place_labels(FILE *out, int cpu, const struct pstat_aggr_id *aggr,
		     const char *thread)
{
	if (cpu >= 0) {
		char num[24];

		fputs_unlocked(",cpu=\"", out);
		fwrite_unlocked(num, 1, print_i64(num, cpu), out);
		putc_unlocked('"', out);
	}
	if (aggr)
		om_aggr_labels(out, aggr);
	if (thread)
		om_thread_labels(out, thread);
}

/* occ: the occurrence of the label set (om_select), from 2 a label */
static void om_labels(FILE *out, const struct pstat_row *r, unsigned occ)
{
	fputs_unlocked("{event=\"", out);
	om_escaped(out, r->event ? r->event : "", 1);
	fputs_unlocked("\",pmu=\"", out);
	om_escaped(out, r->pmu ? r->pmu : "", 1);
	putc_unlocked('"', out);
	om_place_labels(out, r->cpu, r->aggr, r->thread);
	if (r->cgroup) {
		fputs_unlocked(",cgroup=\"", out);
		om_escaped(out, r->cgroup, 1);
		putc_unlocked('"', out);
	}
	if (occ > 1)
		fprintf(out, ",occurrence=\"%u\"", occ);
	putc_unlocked('}', out);
}

/*
 * The metadata of a family. OpenMetrics names the family ("foo" of a
 * counter whose samples are "foo_total") and has UNIT; the 0.0.4 text
 * format names the samples and has no UNIT or info type.
 */
void om_meta(FILE *out, enum pstat_om_dialect d, const char *name,
		    const char *type, const char *unit, const char *help)
{
	const char *suffix = !strcmp(type, "counter") ? "_total" :
			     !strcmp(type, "info") ? "_info" : "";

	if (d == OM_OPENMETRICS) {
		fprintf(out, "# TYPE %s %s\n", name, type);
		/* an info family has no unit, not even an empty one */
		if (strcmp(type, "info"))
			fprintf(out, "# UNIT %s %s\n", name, unit);
		fprintf(out, "# HELP %s ", name);
	} else {
		fprintf(out, "# HELP %s%s ", name, suffix);
	}
	om_escaped(out, help, 0);
	putc_unlocked('\n', out);
	if (d == OM_PROMETHEUS)
		fprintf(out, "# TYPE %s%s %s\n", name, suffix,
			!strcmp(type, "info") ? "gauge" : type);
}

/*
 * Which rows to print, and the occurrence of each row's label set: 1 for
 * the first row of a label set (every row has one, opened or not, in
 * pstat_counted; the value families print those of om_has_value), 2 for the
 * next (the same event given twice, two events given one name=, names
 * that differ only in bytes that are not UTF-8), and so on. Label sets
 * are compared as printed, after the UTF-8 repair, so no two series
 * carry the same labels (which Prometheus refuses).
 */
struct om_key {
	size_t off;             /* into the printed labels */
	size_t row;
};

static int om_key_cmp(const void *a, const void *b, void *arg)
{
	const struct om_key *x = a, *y = b;
	int c = strcmp((const char *)arg + x->off, (const char *)arg + y->off);

	return c ? c : (x->row > y->row) - (x->row < y->row);
}

static unsigned *om_select(const struct pstat_row *rows, size_t n)
{
	struct om_key *keys = xmalloc((n ? n : 1) * sizeof(*keys));
	unsigned *occ = xcalloc(n ? n : 1, sizeof(*occ));
	char *buf = NULL;
	size_t len = 0, nk = 0;
	FILE *f = open_memstream(&buf, &len);

	for (size_t i = 0; i < n; i++) {
		occ[i] = 1;
		if (!f)
			continue; /* out of memory: no repeats told apart */
		keys[nk].off = (size_t)ftello(f);
		keys[nk++].row = i;
		om_labels(f, &rows[i], 1);
		putc_unlocked('\0', f);
	}
	if (f && fclose(f))
		nk = 0;
	qsort_r(keys, nk, sizeof(*keys), om_key_cmp, buf);
	for (size_t i = 0; i < nk; i++)
		occ[keys[i].row] = i && !strcmp(buf + keys[i].off,
						 buf + keys[i - 1].off) ?
					   occ[keys[i - 1].row] + 1 : 1;
	free(buf);
	free(keys);
	return occ;
}

/*
 * om_select's answer kept from one interval to the next: the rows of an
 * interval run are the same rows every time, and sorting thousands of
 * label sets each interval cost more than printing them. Kept while
 * every row has the same strings and place as when it was worked out.
 */
struct om_row_id {
	const char *event, *pmu, *thread, *cgroup;
	const struct pstat_aggr_id *aggr;
	int cpu;
};

struct om_keep {
	struct om_row_id *id;
	unsigned *occ;
	char **label;           /* each row's labels as printed, or NULL */
	size_t *label_len;
	size_t n;
};

static void om_row_id(struct om_row_id *id, const struct pstat_row *r)
{
	*id = (struct om_row_id){ r->event, r->pmu, r->thread, r->cgroup,
				  r->aggr, r->cpu };
}

static void om_keep_free(struct om_keep *k)
{
	for (size_t i = 0; k->label && i < k->n; i++)
		free(k->label[i]);
	free(k->label);
	free(k->label_len);
	free(k->occ);
	free(k->id);
	*k = (struct om_keep){ 0 };
}

static const unsigned *om_select_kept(struct om_keep *k,
				      const struct pstat_row *rows, size_t n)
{
	bool same = k->occ && k->n == n;

	for (size_t i = 0; same && i < n; i++) {
		struct om_row_id id;

		om_row_id(&id, &rows[i]);
		same = id.event == k->id[i].event && id.pmu == k->id[i].pmu &&
		       id.thread == k->id[i].thread &&
		       id.cgroup == k->id[i].cgroup &&
		       id.aggr == k->id[i].aggr && id.cpu == k->id[i].cpu;
	}
	if (same)
		return k->occ;
	om_keep_free(k);
	k->occ = om_select(rows, n);
	k->id = xcalloc(n + 1, sizeof(*k->id));
	k->label = xcalloc(n + 1, sizeof(*k->label));
	k->label_len = xcalloc(n + 1, sizeof(*k->label_len));
	k->n = n;
	for (size_t i = 0; i < n; i++) {
		FILE *f = open_memstream(&k->label[i], &k->label_len[i]);

		om_row_id(&k->id[i], &rows[i]);
		if (f) {
			om_labels(f, &rows[i], k->occ[i]);
			if (fclose(f)) {
				free(k->label[i]);
				k->label[i] = NULL;
			}
		}
	}
	return k->occ;
}

/*
 * One sample: name, its labels (label: those kept, else row's with
 * occurrence occ), the value's text num. Made in one buffer and written
 * with one call: thousands of lines an interval.
 */
static void om_sample(FILE *out, const char *name, const char *suffix,
		      const struct om_keep *k, size_t i,
		      const struct pstat_row *row, unsigned occ,
		      const char *num, size_t numlen)
{
	char line[512];
	size_t nl = strlen(name), sl = strlen(suffix);
	const char *label = k && k->label[i] ? k->label[i] : NULL;
	size_t ll = label ? k->label_len[i] : 0;

	if (label && nl + sl + ll + numlen + 2 <= sizeof(line)) {
		char *d = line;

		memcpy(d, name, nl);
		d += nl;
		memcpy(d, suffix, sl);
		d += sl;
		memcpy(d, label, ll);
		d += ll;
		*d++ = ' ';
		memcpy(d, num, numlen);
		d += numlen;
		*d++ = '\n';
		fwrite_unlocked(line, 1, (size_t)(d - line), out);
		return;
	}
	fputs_unlocked(name, out);
	fputs_unlocked(suffix, out);
	if (label)
		fputs_unlocked(label, out);
	else
		om_labels(out, row, occ);
	putc_unlocked(' ', out);
	fwrite_unlocked(num, 1, numlen, out);
	putc_unlocked('\n', out);
}

/* The value families, each with the rows that belong to it. */
static void om_values(FILE *out, enum pstat_om_dialect d,
		      const struct pstat_row *rows, size_t n,
		      const unsigned *keep, const struct om_keep *lab)
{
	struct om_family *fams = NULL;
	size_t nfams = 0, alloc = 0;
	size_t *fam_of = xmalloc((n ? n : 1) * sizeof(*fam_of));

	const char *last_unit = NULL;
	size_t last_k = 0;

	for (size_t i = 0; i < n; i++) {
		struct om_family f;
		size_t k;

		if (!keep[i] || !om_has_value(&rows[i]))
			continue;
		/* rows of one event share its unit: one family look-up */
		if (nfams && (rows[i].unit == last_unit ||
			      (rows[i].unit && last_unit &&
			       !strcmp(rows[i].unit, last_unit)))) {
			fam_of[i] = last_k;
			continue;
		}
		om_family_init(&f, rows[i].unit);
		for (k = 0; k < nfams; k++)
			if (!strcmp(fams[k].name, f.name))
				break;
		if (k < nfams) {
			om_family_clear(&f);
		} else {
			xgrow((void **)&fams, &alloc, nfams + 1,
			      sizeof(*fams));
			fams[nfams++] = f;
		}
		fam_of[i] = k;
		last_unit = rows[i].unit;
		last_k = k;
	}
	for (size_t k = 0; k < nfams; k++) {
		om_meta(out, d, fams[k].name, "counter", fams[k].unit,
			fams[k].help);
		for (size_t i = 0; i < n; i++) {
			if (!keep[i] || !om_has_value(&rows[i]) ||
			    fam_of[i] != k)
				continue;
			char num[PRINT_REAL_MAX];
			size_t nn = om_number_buf(num,
				rows[i].status == PSTAT_NOT_COUNTED ? 0.0 :
				rows[i].value * fams[k].mul / fams[k].div);

			om_sample(out, fams[k].name, "_total",
				  lab, i, &rows[i], keep[i],
				  num, nn);
		}
		om_family_clear(&fams[k]);
	}
	free(fams);
	free(fam_of);
}

/* pstat_enabled_seconds or pstat_running_seconds. */
static void om_times(FILE *out, enum pstat_om_dialect d,
		     const struct pstat_row *rows, size_t n,
		     const unsigned *keep, const struct om_keep *lab,
		     int running)
{
	const char *name = running ? "pstat_running_seconds"
				   : "pstat_enabled_seconds";

	om_meta(out, d, name, "counter", "seconds",
		running ? "Time the counters ran, added up over the CPUs "
			  "and threads of the series." :
			  "Time the counters were enabled, added up over the "
			  "CPUs and threads of the series.");
	for (size_t i = 0; i < n; i++) {
		if (!keep[i] || !om_has_value(&rows[i]))
			continue;
		char num[40];
		size_t nn = om_seconds_buf(num, running ? rows[i].run :
							 rows[i].ena);

		om_sample(out, name, "_total", lab, i, &rows[i], keep[i], num,
			  nn);
	}
}

/*
 * pstat_counted: 1 for a counter that has counted (it was opened and the
 * kernel ran it), 0 for one that could not be opened (not supported,
 * refused) or was never scheduled. Every row has one, so an event that
 * is missing on a machine is a series of its own to query and alert on,
 * as node_exporter's *_scrape_collector_success is for its collectors;
 * the counts of one that could not be opened have no samples.
 */
static void om_counted(FILE *out, enum pstat_om_dialect d,
		       const struct pstat_row *rows, size_t n,
		       const unsigned *keep, const struct om_keep *lab)
{
	om_meta(out, d, "pstat_counted", "gauge", "",
		"1 when the counter counted, 0 when it could not be opened "
		"or was never scheduled (then pstat_enabled_seconds_total "
		"says how long it waited).");
	for (size_t i = 0; i < n; i++) {
		enum pstat_status st = rows[i].status;

		if (!keep[i])
			continue;
		om_sample(out, "pstat_counted", "", lab, i, &rows[i], keep[i],
			  st == PSTAT_COUNTED || st == PSTAT_MULTIPLEXED ? "1" :
									   "0",
			  1);
	}
}

/*
 * openmetrics_write; without counters (--metric-only), rows are left
 * out: pstat_metric and pstat_build_info alone.
 */
static int om_write(FILE *out, enum pstat_om_dialect d, bool counters,
		    const struct pstat_row *rows, size_t n,
		    const struct pstat_metric_value *metrics, size_t nmetrics,
		    struct om_keep *kept)
{
	locale_t c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	locale_t old = (locale_t)0;
	unsigned *own = counters && !kept ? om_select(rows, n) : NULL;
	const unsigned *keep = counters && kept ?
				       om_select_kept(kept, rows, n) : own;

	/* (glibc's C locale is built in: this does not fail in practice) */
	if (c_locale)
		old = uselocale(c_locale);
	if (counters) {
		om_values(out, d, rows, n, keep, kept);
		om_times(out, d, rows, n, keep, kept, 0);
		om_times(out, d, rows, n, keep, kept, 1);
		om_counted(out, d, rows, n, keep, kept);
	}
	om_metrics(out, d, metrics, nmetrics);
	om_meta(out, d, "pstat_build", "info", "", "pstat's version.");
	fprintf(out, "pstat_build_info{version=\"%s\"} 1\n", PSTAT_VERSION);
	if (d == OM_OPENMETRICS)
		fputs_unlocked("# EOF\n", out);
	if (old)
		uselocale(old);
	if (c_locale)
		freelocale(c_locale);
	free(own);
	return ferror(out) ? -EIO : 0;
}

int openmetrics_write(FILE *out, enum pstat_om_dialect d,
		      const struct pstat_row *rows, size_t n,
		      const struct pstat_metric_value *metrics,
		      size_t nmetrics)
{
	return om_write(out, d, true, rows, n, metrics, nmetrics, NULL);
}

/*
 * The printer. A run without intervals prints its summary; one with
 * intervals prints the running totals after each interval, and nothing
 * more at the end, where the last (partial) interval has the final
 * totals already. --metric-only: the metrics alone, each interval's.
 */
struct om_printer {
	struct pstat_totals *totals;
	struct om_keep keep;
	char *text;             /* the last interval's, kept while it stays */
	size_t len;
};

static void om_summary(struct pstat_printer *p, const struct pstat_report *r)
{
	if (p->priv)
		return;
	om_write(p->out, p->cfg.om_dialect, !p->cfg.metric_only, r->rows,
		 r->nrows, r->metrics, r->nmetrics, NULL);
}

static void om_interval(struct pstat_printer *p, const struct pstat_report *r)
{
	struct om_printer *op = p->priv;
	const struct pstat_row *rows = NULL;
	size_t n = 0;

	if (!op) {
		p->priv = op = xcalloc(1, sizeof(*op));
		op->totals = totals_new();
	}
	/* totals that did not move, and no metric: the same text, kept */
	if (p->cfg.metric_only || totals_add(op->totals, r->rows, r->nrows) ||
	    r->nmetrics) {
		free(op->text);
		op->text = NULL;
	} else if (!op->text) {
		FILE *f = open_memstream(&op->text, &op->len);

		rows = totals_rows(op->totals, &n);
		if (f && (om_write(f, p->cfg.om_dialect, true, rows, n, NULL,
				   0, &op->keep) | fclose(f))) {
			free(op->text);
			op->text = NULL;
		}
	}
	if (op->text) {
		fwrite_unlocked(op->text, 1, op->len, p->out);
		return;
	}
	if (!p->cfg.metric_only)
		rows = totals_rows(op->totals, &n);
	om_write(p->out, p->cfg.om_dialect, !p->cfg.metric_only, rows, n,
		 r->metrics, r->nmetrics, &op->keep);
}

static void om_free(struct pstat_printer *p)
{
	struct om_printer *op = p->priv;

	if (op) {
		totals_free(op->totals);
		om_keep_free(&op->keep);
		free(op->text);
		free(op);
	}
	p->priv = NULL;
}

const struct pstat_printer_ops print_openmetrics_ops = {
	.summary = om_summary,
	.interval = om_interval,
	.free = om_free,
};
