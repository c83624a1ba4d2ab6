/* SPDX-License-Identifier: MIT */
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include "base/libm.h"
#include "base/util.h"
#include "report/print.h"
#include "report/print_line.h"
#include "report/print_table_priv.h"

/*
 * perf stat's layout, column for column: an 18-wide value, the unit in
 * 4 (after a space), the event name in 32, then " # " and the metric in
 * a fixed width so that the noise and running columns line up.
 */
#define VALUE_W 18
#define NAME_W 32
#define METRIC_W 23
#define NO_METRIC_PAD 28

/*
 * The table alone follows the user's LC_NUMERIC (digit grouping and the
 * decimal point, as perf does); the switch is per thread and undone after
 * printing, so CSV and JSON never see it.
 */
static int numeric_is_c(void)
{
	const char *names[] = { "LC_ALL", "LC_NUMERIC", "LANG" };

	/* the variable that decides, as setlocale(3) reads them */
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		const char *v = getenv(names[i]);

		if (v && *v)
			return !strcmp(v, "C") || !strcmp(v, "POSIX") ||
			       str_starts_with(v, "C.");
	}
	return 1;
}

static locale_t enter_user_locale(void)
{
	locale_t loc;

	/* loading a locale costs a dozen system calls; C needs none */
	if (numeric_is_c())
		return (locale_t)0;
	loc = newlocale(LC_NUMERIC_MASK, "", (locale_t)0);

	if (loc)
		uselocale(loc);
	return loc;
}

static void leave_user_locale(locale_t loc)
{
	if (!loc)
		return;
	uselocale(LC_GLOBAL_LOCALE);
	freelocale(loc);
}

/* On a terminal the interval header comes back after this many lines. */
#define HEADER_EVERY 25

/* The table printer's state across calls. */
struct table_state {
	int started;            /* "# started on" was printed */
	size_t since_header;    /* interval lines since the header */
	size_t nrows;           /* rows per interval */
	size_t nintervals;
	/*
	 * The rates per second for the sparklines, bounded however long
	 * the run: [slot][row], each slot the mean of per_slot intervals
	 * (the last of in_last so far). When max_slots are full, pairs
	 * merge and a slot holds twice as many; the terminal shows at most
	 * one glyph a column, so twice its width of slots loses nothing.
	 */
	double *rates;
	size_t nslots, max_slots, per_slot, in_last;
	double last_secs;       /* the length of the last interval kept */
	char *linebuf;          /* [TLINE_ROWS_BUF]: the rows' lines */
};

static struct table_state *state(struct pstat_printer *p)
{
	if (!p->priv)
		p->priv = xcalloc(1, sizeof(struct table_state));
	return p->priv;
}

static void table_free(struct pstat_printer *p)
{
	struct table_state *st = p->priv;

	if (st) {
		free(st->rates);
		free(st->linebuf);
	}
	free(st);
	p->priv = NULL;
}

static void print_started(struct pstat_printer *p,
			  const struct pstat_report *r)
{
	char buf[64];
	time_t t = r->started_at.tv_sec;

	if (!p->cfg.started_header || state(p)->started)
		return;
	state(p)->started = 1;
	ctime_r(&t, buf);
	fprintf(p->out, "# started on %s\n", buf);
}

static void print_target(FILE *out, const struct pstat_report *r)
{
	char *cmd;

	fputs(" Performance counter stats for ", out);
	switch (r->target) {
	case TARGET_COMMAND:
		if (!r->system_wide) {
			cmd = print_command_string(r->argv);
			fprintf(out, "'%s'", cmd);
			free(cmd);
			break;
		}
		/* a command counted system-wide */
		__attribute__((fallthrough));
	case TARGET_SYSTEM:
		if (r->cpu_subset && r->cpus && r->ncpus) {
			fputs("'CPU(s) ", out);
			for (size_t i = 0; i < r->ncpus; i++)
				fprintf(out, "%s%d", i ? "," : "", r->cpus[i]);
			fputc('\'', out);
		} else {
			fputs("'system wide'", out);
		}
		break;
	case TARGET_PID:
	case TARGET_TID:
		fputs(r->target == TARGET_PID ? "process id '" : "thread id '",
		      out);
		for (size_t i = 0; i < (r->target == TARGET_PID ? r->npids
								 : r->ntids);
		     i++)
			fprintf(out, "%s%d", i ? "," : "",
				(int)(r->target == TARGET_PID ? r->pids[i]
							      : r->tids[i]));
		fputc('\'', out);
		break;
	}
	if (r->runs > 1)
		fprintf(out, " (%d runs)", r->runs);
	fputs(":\n\n", out);
}

static void print_metric(struct tline *l, const struct pstat_row *row)
{
	char val[64];
	double v = row->metric.value;
	const char *name = row->metric.name;
	size_t len;

	tline_mem(l, " # ", 3);
	/* "%8.3f", "%7.2f " and "%7.2f%%" as perf prints them */
	if (!strcmp(name, "/sec")) {
		name = print_rate_unit(&v);
		tline_number(l, val, print_fixed(val, sizeof(val), v, 3, 0), 8);
	} else if (!strcmp(name, "insn per cycle")) {
		tline_number(l, val, print_fixed(val, sizeof(val), v, 2, 0), 7);
		tline_mem(l, " ", 1);
	} else if (!strcmp(row->metric.unit, "%")) {
		tline_number(l, val, print_fixed(val, sizeof(val), v, 2, 0), 7);
		tline_mem(l, "%", 1);
	} else {
		tline_number(l, val, print_fixed(val, sizeof(val), v, 3, 0), 8);
	}
	tline_mem(l, " ", 1);
	/* the name in at most 47 bytes, padded to METRIC_W */
	len = strnlen(name, 47);
	tline_mem(l, name, len);
	tline_pad(l, len < METRIC_W ? METRIC_W - len : 0);
}

static void print_count(struct tline *l, const struct pstat_printer *p,
			double v)
{
	char buf[64];
	const char *d = print_group_digits(buf, sizeof(buf), v, p->cfg.big_num);

	/* by columns: fr_FR's separator is U+202F, three bytes */
	tline_number(l, d, strlen(d), VALUE_W);
	tline_mem(l, " ", 1);
}

static void print_value(struct tline *l, struct pstat_printer *p,
			const struct pstat_row *row)
{
#define WORD(s) { s, sizeof(s) - 1 }
	static const struct {
		const char *s;
		size_t len;
	} words[] = {
		[PSTAT_NOT_COUNTED] = WORD("<not counted>"),
		[PSTAT_NOT_SUPPORTED] = WORD("<not supported>"),
		[PSTAT_ERROR] = WORD("<error>"),
	};
#undef WORD
	const char *unit = row->unit ? row->unit : "";

	switch (row->status) {
	case PSTAT_NOT_COUNTED:
	case PSTAT_NOT_SUPPORTED:
	case PSTAT_ERROR:
		tline_right(l, words[row->status].s, words[row->status].len,
			    VALUE_W);
		tline_mem(l, " ", 1);
		break;
	case PSTAT_COUNTED:
	case PSTAT_MULTIPLEXED:
		if (print_value_frac(row) || row->value >= 1e18) {
			char buf[64];
			/* grouped as perf's -B does: 1,374.18 msec */
			size_t n = print_fixed(buf, sizeof(buf), row->value, 2,
					       p->cfg.big_num);

			tline_number(l, buf, n, VALUE_W);
			tline_mem(l, " ", 1);
		} else {
			print_count(l, p, row->value);
		}
		break;
	}
	tline_left(l, unit, tline_strlen(&l->unit, &l->unit_len, unit), 4);
	tline_mem(l, " ", 1);
}

/*
 * perf's -A and --per-thread columns before the value: "CPU" and the
 * number left-aligned in 7, or the comm right-aligned in 16, '-' and
 * the tid left-aligned in 8; then a space. A thread name without a
 * numeric tid ("system-wide") fills the same 25 columns.
 */
static void tline_label(struct tline *l, const struct pstat_aggr_id *aggr,
			int aggr_nr, int cpu, const char *thread)
{
	size_t len, i, dash = 0, ndigits = 0;
	bool tid = false;
	char label[64];

	/* perf 6.1's --per-socket...: "S0        2 ", the unit and its CPUs */
	if (aggr)
		tline_fmt(l, "%s %4d ",
			  topo_aggr_label(aggr, label, sizeof(label)),
			  aggr_nr);
	if (cpu >= 0) {
		const char *d = tline_digits(label, sizeof(label),
					     (unsigned)cpu);

		size_t nd = (size_t)(label + sizeof(label) - d);

		tline_mem(l, "CPU", 3);
		tline_mem(l, d, nd);
		tline_pad(l, nd < 7 ? 7 - nd : 0);
		tline_mem(l, " ", 1);
	}
	if (!thread)
		return;
	len = strlen(thread);
	/* "comm-tid": only digits, at least one, after the last '-' */
	for (i = len; i > 0 && thread[i - 1] >= '0' && thread[i - 1] <= '9';)
		i--;
	if (i > 0 && i < len && thread[i - 1] == '-') {
		dash = i - 1;
		ndigits = len - i;
		tid = true;
	}
	if (tid) {
		tline_right(l, thread, dash, 16);
		tline_mem(l, "-", 1);
		tline_mem(l, thread + dash + 1, ndigits);
		tline_pad(l, ndigits < 8 ? 8 - ndigits : 0);
		tline_mem(l, " ", 1);
	} else {
		tline_right(l, thread, len, 25);
		tline_mem(l, " ", 1);
	}
}

void print_table_label_tl(struct tline *l, const struct pstat_aggr_id *aggr,
			  int aggr_nr, int cpu, const char *thread)
{
	tline_label(l, aggr, aggr_nr, cpu, thread);
}

void print_table_label(FILE *out, const struct pstat_aggr_id *aggr,
		       int aggr_nr, int cpu, const char *thread)
{
	struct tline l;
	char buf[128];

	tline_start(&l, out, buf, sizeof(buf));
	tline_label(&l, aggr, aggr_nr, cpu, thread);
	tline_flush(&l);
}

/* A row's line after its label: the value to the end of the line. */
static void print_row_tail(struct tline *l, struct pstat_printer *p,
			   const struct pstat_row *row)
{
	print_value(l, p, row);
	tline_left(l, row->event,
		   tline_strlen(&l->event, &l->event_len, row->event), NAME_W);
	/* perf's layout: the cgroup after the name */
	if (row->cgroup) {
		tline_mem(l, " ", 1);
		tline_mem(l, row->cgroup, strlen(row->cgroup));
	}
	if (row->has_metric)
		print_metric(l, row);
	else if (row->status <= PSTAT_MULTIPLEXED || row->note)
		/* perf pads a counted row 7 more than a <not ...> one */
		tline_pad(l, NO_METRIC_PAD + 7);
	else
		tline_pad(l, NO_METRIC_PAD);
	/* perf prints no noise column for a spread of exactly 0 */
	if (row->stats && row->stats->n > 1 &&
	    row->status <= PSTAT_MULTIPLEXED &&
	    stats_rel_stderr_pct(row->stats) != 0)
		tline_fmt(l, "  ( +-%6.2f%% )",
			  stats_rel_stderr_pct(row->stats));
	if (row->status == PSTAT_MULTIPLEXED)
		tline_fmt(l, "  (%.2f%%)", row->running_pct);
	/* enabled but multiplexed out of the whole interval, as perf */
	else if (row->status == PSTAT_NOT_COUNTED && row->ena && !row->run)
		tline_mem(l, "  (0.00%)", 9);
	if (row->note) {
		tline_mem(l, "  (", 3);
		tline_mem(l, row->note, strlen(row->note));
		tline_mem(l, ")", 1);
	}
	tline_mem(l, "\n", 1);
}

/*
 * The tail of the last line without a value ("<not counted> msec
 * task-clock ..."): every row of an event that did not count this
 * interval (the idle threads of --per-thread) ends the same way.
 */
struct row_tail {
	const char *event, *unit, *cgroup;
	enum pstat_status status;
	size_t len;             /* 0: none */
	char buf[192];
};

/*
 * Copy row's tail from t when it has one of those (made now if t holds
 * another); returns 0 when row's tail must be printed.
 */
static int print_same_tail(struct tline *l, struct row_tail *t,
			   struct pstat_printer *p, const struct pstat_row *row)
{
	const char *unit = row->unit ? row->unit : "";

	if (row->status <= PSTAT_MULTIPLEXED || row->has_metric ||
	    row->note)
		return 0;
	if (row->event != t->event || unit != t->unit ||
	    row->cgroup != t->cgroup || row->status != t->status) {
		size_t elen = strlen(row->event), ulen = strlen(unit);
		struct tline tl;

		t->event = row->event;
		t->unit = unit;
		t->cgroup = row->cgroup;
		t->status = row->status;
		t->len = 0;
		/* its longest: value, unit, name, cgroup, pad, newline */
		if (VALUE_W + 2 + (ulen > 4 ? ulen : 4) +
			    (elen > NAME_W ? elen : NAME_W) +
			    (row->cgroup ? 1 + strlen(row->cgroup) : 0) +
			    NO_METRIC_PAD + 1 > sizeof(t->buf))
			return 0;
		tline_start(&tl, NULL, t->buf, sizeof(t->buf));
		print_row_tail(&tl, p, row);
		t->len = tl.n;
	}
	if (!t->len)
		return 0;
	tline_mem(l, t->buf, t->len);
	return 1;
}

/*
 * One row's line into l, after the lead_len bytes of lead (the interval's
 * time column, or NULL).
 */
static void print_row(struct tline *l, struct row_tail *t,
		      struct pstat_printer *p, const struct pstat_row *row,
		      const char *lead, size_t lead_len)
{
	if (lead)
		tline_mem(l, lead, lead_len);
	tline_label(l, row->aggr, row->aggr_nr, row->cpu, row->thread);
	if (!print_same_tail(l, t, p, row))
		print_row_tail(l, p, row);
}

/*
 * Ask for the rows after the k-th printed, a nearer one's thread name
 * and its metrics' values.
 */
static void prefetch_ahead(const struct pstat_report *r,
			   const struct print_anchors *a, size_t k)
{
	const char *thread;
	size_t ahead = k + PRINT_ROW_AHEAD, near = k + PRINT_ROW_AHEAD / 2;

	if (ahead >= (r->order ? r->norder : r->nrows))
		return;
	print_row_prefetch(&r->rows[r->order ? r->order[ahead] : ahead], 0);
	print_anchors_prefetch(a, r, r->order ? r->order[near] : near);
	thread = r->rows[r->order ? r->order[near] : near].thread;
	if (thread)
		__builtin_prefetch(thread);
}

/*
 * The report's rows, each followed by its metrics' lines, after lead
 * (the interval's time column, or NULL).
 */
static void print_rows(struct pstat_printer *p, const struct pstat_report *r,
		       const char *lead)
{
	struct table_state *st = state(p);
	size_t lead_len = lead ? strlen(lead) : 0;
	struct row_tail tail = { .len = 0 };
	struct print_anchors a;
	struct tline l;
	int dflt = print_table_default_applies(r);

	if (!st->linebuf)
		st->linebuf = xmalloc(TLINE_ROWS_BUF);
	tline_start(&l, p->out, st->linebuf, TLINE_ROWS_BUF);
	print_anchors_build(&a, r);
	for (size_t k = 0; k < (r->order ? r->norder : r->nrows); k++) {
		size_t i = r->order ? r->order[k] : k;
		struct pstat_row copy;

		/* perf's Default group: its events' rows are not shown */
		if (dflt && i >= r->perf_default_rows)
			continue;
		prefetch_ahead(r, &a, k);
		print_row(&l, &tail, p, print_anchors_row(&a, r, i, &copy),
			  lead, lead_len);
		if (!dflt && print_anchors_has(&a, i))
			print_table_metric_lines(&l, r, &a, i, lead, lead_len);
	}
	if (dflt)
		print_table_default_lines(&l, r, lead, lead_len);
	tline_flush(&l);
	print_anchors_free(&a);
}

static void print_times(FILE *out, const struct pstat_report *r)
{
	const struct pstat_summary *es = r->elapsed_stats;

	/* after the rows; with none (-n), the header's blank line does */
	if (r->nrows)
		fputc('\n', out);
	if (es && es->n > 1) {
		/* as perf: two more digits than the error's first one */
		double sd = es->stderr_mean / 1e9;
		int prec = sd > 1 ? 2 : sd > 0 ? (int)ceil(-libm_log10(sd)) + 2 : 9;

		if (prec > 9)
			prec = 9;
		fprintf(out, " %17.*f +- %.*f seconds time elapsed", prec,
			es->mean / 1e9, prec, sd);
		if (sd > 0)
			fprintf(out, "  ( +-%6.2f%% )", stats_rel_stderr_pct(es));
	} else {
		fprintf(out, " %17.9f seconds time elapsed",
			(double)r->elapsed_ns / 1e9);
	}
	/* perf ends the table with one blank line, two after user and sys */
	if (r->target == TARGET_COMMAND && r->runs <= 1 && !r->system_wide) {
		fprintf(out, "\n\n %17.9f seconds user\n",
			(double)r->user_ns / 1e9);
		fprintf(out, " %17.9f seconds sys\n", (double)r->sys_ns / 1e9);
	}
	fputs("\n\n", out);
}

size_t print_sparkline(char *buf, size_t len, const double *rates,
		       size_t n, size_t stride, size_t width)
{
	static const char *const bars[] = { "▁", "▂", "▃", "▄",
					     "▅", "▆", "▇", "█" };
	size_t nb = n < width ? n : width, o = 0;
	double *mean, lo = 0, hi = 0;

	if (len)
		buf[0] = '\0';
	if (!nb)
		return 0;
	mean = xmalloc(nb * sizeof(*mean));
	/* bucket b holds rates [b * n / nb, (b + 1) * n / nb) */
	for (size_t b = 0; b < nb; b++) {
		size_t from = b * n / nb, to = (b + 1) * n / nb;
		double sum = 0;

		for (size_t k = from; k < to; k++)
			sum += rates[k * stride];
		mean[b] = sum / (double)(to - from);
		lo = !b || mean[b] < lo ? mean[b] : lo;
		hi = !b || mean[b] > hi ? mean[b] : hi;
	}
	for (size_t b = 0; b < nb && o + 4 <= len; b++) {
		double x = hi > lo ? (mean[b] - lo) / (hi - lo) * 7.0 + 0.5 : 0;
		int g = x < 0 ? 0 : x > 7 ? 7 : (int)x;

		memcpy(buf + o, bars[g], 3);
		o += 3;
	}
	if (len)
		buf[o] = '\0';
	free(mean);
	return o / 3;
}

/* The terminal's width, 80 when out is not one or does not say. */
static size_t term_columns(FILE *out)
{
	struct winsize ws;

	if (ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* A sparkline's label: "CPU3", "comm-tid", "S0" or "" into buf; its length. */
static size_t spark_label(char *buf, size_t len, const struct pstat_row *row)
{
	if (row->aggr)
		topo_aggr_name(row->aggr->mode, row->aggr, buf, len);
	else if (row->cpu >= 0)
		snprintf(buf, len, "CPU%d", row->cpu);
	else
		snprintf(buf, len, "%s", row->thread ? row->thread : "");
	return strlen(buf);
}

/*
 * After an interval run on a terminal: one sparkline per row (an event,
 * or an event on one CPU or thread) showing how its rate moved, scaled
 * between its own minimum and maximum. It fits on one line of the
 * terminal after the name, so with many intervals each glyph stands for
 * the mean rate of several.
 */
static void print_sparklines(struct pstat_printer *p,
			     const struct pstat_report *r)
{
	struct table_state *st = p->priv;
	size_t cols, label_w = 0;
	char *line, label[64];

	if (!st || !p->cfg.is_tty || st->nintervals < 2 ||
	    st->nrows != r->nrows)
		return;
	cols = term_columns(p->out);
	line = xmalloc(3 * st->nslots + 1);
	/* with -A or --per-thread, each line names its CPU or thread */
	for (size_t i = 0; i < st->nrows; i++) {
		size_t n = spark_label(label, sizeof(label), &r->rows[i]);

		label_w = n > label_w ? n : label_w;
	}
	fputs(" Rates per interval:\n\n", p->out);
	for (size_t i = 0; i < st->nrows; i++) {
		size_t name = strlen(r->rows[i].event);
		/* " label name " and one column spare, against auto-wrap */
		size_t used = 3 + (label_w ? label_w + 1 : 0) +
			      (name > NAME_W ? name : NAME_W);
		size_t width = cols > used + 8 ? cols - used : 8;

		print_sparkline(line, 3 * st->nslots + 1, &st->rates[i],
				st->nslots, st->nrows, width);
		fputc(' ', p->out);
		if (label_w) {
			spark_label(label, sizeof(label), &r->rows[i]);
			fprintf(p->out, "%-*s ", (int)label_w, label);
		}
		fprintf(p->out, "%-*s %s\n", NAME_W, r->rows[i].event, line);
	}
	fputc('\n', p->out);
	free(line);
}

static void table_summary(struct pstat_printer *p,
			  const struct pstat_report *r)
{
	locale_t loc = enter_user_locale();

	if (p->lines && p->cfg.no_interval_summary) {
		print_sparklines(p, r);
		leave_user_locale(loc);
		return;
	}
	print_started(p, r);
	fputc('\n', p->out);
	print_target(p->out, r);
	if (p->cfg.metric_only) {
		print_table_metric_only(p->out, r, NULL, 1);
	} else {
		print_rows(p, r, NULL);
	}
	print_times(p->out, r);
	print_sparklines(p, r);
	leave_user_locale(loc);
}

/* Two slots into one: each is the mean of as many intervals. */
static void merge_slots(struct table_state *st)
{
	for (size_t k = 0; k < st->nslots / 2; k++)
		for (size_t i = 0; i < st->nrows; i++)
			st->rates[k * st->nrows + i] =
				(st->rates[2 * k * st->nrows + i] +
				 st->rates[(2 * k + 1) * st->nrows + i]) / 2;
	st->nslots /= 2;
	st->per_slot *= 2;
}

static void remember_rates(struct pstat_printer *p,
			   const struct pstat_report *r)
{
	struct table_state *st = state(p);
	double secs = (double)(r->interval_end_ns - r->interval_start_ns) / 1e9;
	double *slot;

	if (st->nintervals && st->nrows != r->nrows)
		return;
	/*
	 * A last interval cut to a sliver of the others (the command
	 * ended just after a tick) has a rate that is mostly the jitter of
	 * its ends: a flat rate would end in a spike. It is in the table,
	 * marked partial, and not in the sparklines.
	 */
	if (r->interval_partial && st->nintervals && secs < st->last_secs / 2)
		return;
	st->last_secs = secs;
	if (!st->rates) {
		st->nrows = r->nrows;
		st->max_slots = 2 * term_columns(p->out);
		st->per_slot = 1;
		st->rates = xcalloc(st->max_slots * st->nrows + 1,
				    sizeof(*st->rates));
	}
	if (!st->nslots || st->in_last == st->per_slot) {
		if (st->nslots == st->max_slots)
			merge_slots(st);
		st->nslots++;
		st->in_last = 0;
	}
	slot = &st->rates[(st->nslots - 1) * st->nrows];
	st->in_last++;
	/* the slot's mean so far: exactly the rate while it holds one */
	for (size_t i = 0; i < r->nrows; i++) {
		double rate = secs > 0 ? r->rows[i].value / secs : 0;

		slot[i] = st->in_last == 1 ? rate :
			  slot[i] + (rate - slot[i]) / (double)st->in_last;
	}
	st->nintervals++;
}

/*
 * perf's interval header for the rows' layout: a CPU column with -A, a
 * comm-pid one with --per-thread, a unit and a cpus one with
 * --per-socket and the like, each as wide as the rows' label.
 */
static const char *interval_header(const struct pstat_report *r)
{
	static char buf[128];

	if (r->aggr) {
		snprintf(buf, sizeof(buf),
			 "#           time %-*s cpus             counts unit events\n",
			 topo_aggr_label_width(r->aggr), topo_aggr_key(r->aggr));
		return buf;
	}
	for (size_t i = 0; i < r->nrows; i++) {
		if (r->rows[i].cpu >= 0)
			return "#           time CPU                    counts unit events\n";
		if (r->rows[i].thread)
			return "#           time             comm-pid                  counts unit events\n";
	}
	return "#           time             counts unit events\n";
}

/* An interval line's time column: "%6llu.%09llu " of t ns, into buf. */
static void interval_time(char *buf, size_t len, uint64_t t)
{
	snprintf(buf, len, "%6llu.%09llu ",
		 (unsigned long long)(t / 1000000000ull),
		 (unsigned long long)(t % 1000000000ull));
}

static void table_interval(struct pstat_printer *p,
			   const struct pstat_report *r)
{
	locale_t loc = enter_user_locale();
	uint64_t t = r->interval_end_ns;
	char ts[48];

	print_started(p, r);
	if (p->cfg.metric_only) {
		interval_time(ts, sizeof(ts), t);
		print_table_metric_only(p->out, r, ts, p->lines == 0);
		leave_user_locale(loc);
		return;
	}
	/* only a terminal shows the sparklines they are kept for */
	if (p->cfg.is_tty)
		remember_rates(p, r);
	/*
	 * The header once, and on a terminal again before the interval
	 * that follows 25 lines, so that a screenful has one; perf counts
	 * intervals instead, which with many events scrolls it away.
	 */
	if (p->lines == 0 ||
	    (p->cfg.is_tty && state(p)->since_header >= HEADER_EVERY)) {
		fputs(interval_header(r), p->out);
		state(p)->since_header = 0;
	}
	state(p)->since_header += r->nrows;
	interval_time(ts, sizeof(ts), t);
	print_rows(p, r, ts);
	if (r->interval_partial)
		fprintf(p->out, "# interval %lu is partial: %.3f ms\n",
			r->interval_index,
			(double)(r->interval_end_ns - r->interval_start_ns) /
				1e6);
	leave_user_locale(loc);
}

const struct pstat_printer_ops print_table_ops = {
	.summary = table_summary,
	.interval = table_interval,
	.free = table_free,
};
