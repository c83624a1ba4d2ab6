/* SPDX-License-Identifier: MIT */
/*
 * pstat-test metrics [elapsed=NS] ROW...
 *
 * Runs metrics_compute over the rows described and prints each row's
 * metric, one line a row: "EVENT: NAME VALUE" ("%" after a percentage)
 * or "EVENT: -". A row is EVENT/GROUP/STATUS/VALUE[/cpuN|/tNAME]:
 * EVENT a generic name (task-clock, cpu-clock, cycles, instructions,
 * branches, branch-misses, cache-references, cache-misses, page-faults)
 * with an optional :u or :k; STATUS c (counted), m (multiplexed), n (not
 * counted), s (not supported) or e (error); cpuN the -A CPU, tNAME the
 * --per-thread thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "report/metrics.h"
#include "test-tool.h"

static const struct {
	const char *name;
	__u32 type;
	__u64 config;
} names[] = {
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "branches", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "cache-references", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
};

static int parse_event(const char *ev, struct perf_event_attr *a)
{
	const char *colon = strchr(ev, ':');
	size_t len = colon ? (size_t)(colon - ev) : strlen(ev);

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	if (colon && strcmp(colon, ":u") && strcmp(colon, ":k"))
		return -1;
	a->exclude_kernel = colon && colon[1] == 'u';
	a->exclude_user = colon && colon[1] == 'k';
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (strlen(names[i].name) == len &&
		    !strncmp(names[i].name, ev, len)) {
			a->type = names[i].type;
			a->config = names[i].config;
			return 0;
		}
	}
	return -1;
}

static int parse_status(const char *s, enum pstat_status *st)
{
	static const char codes[] = "cmnse";
	const char *c = strchr(codes, *s);

	if (!*s || s[1] || !c)
		return -1;
	*st = (enum pstat_status)(c - codes);
	return 0;
}

/* Fill row and attr from one ROW word (modified in place). */
static int parse_row(char *word, struct pstat_row *row,
		     struct perf_event_attr *a)
{
	char *f[5] = { NULL }, *save = NULL, *end;
	size_t n = 0;

	for (char *t = strtok_r(word, "/", &save); t && n < 5;
	     t = strtok_r(NULL, "/", &save))
		f[n++] = t;
	if (n < 4 || strtok_r(NULL, "/", &save))
		return -1;
	memset(row, 0, sizeof(*row));
	row->event = f[0];
	row->cpu = -1;
	if (parse_event(f[0], a) || parse_status(f[2], &row->status))
		return -1;
	row->group = (int)strtol(f[1], &end, 10);
	if (*end)
		return -1;
	row->value = strtod(f[3], &end);
	if (*end)
		return -1;
	if (metrics_is_clock(a))
		row->unit = "msec";
	if (f[4] && !strncmp(f[4], "cpu", 3)) {
		row->cpu = (int)strtol(f[4] + 3, &end, 10);
		if (*end || end == f[4] + 3)
			return -1;
	} else if (f[4] && f[4][0] == 't' && f[4][1]) {
		row->thread = f[4] + 1;
	} else if (f[4]) {
		return -1;
	}
	return 0;
}

int t_metrics(int argc, char **argv)
{
	struct pstat_row *rows = NULL;
	struct perf_event_attr *attrs = NULL;
	const struct perf_event_attr **ap = NULL;
	size_t n = 0, alloc = 0, aalloc = 0, palloc = 0;
	unsigned long long elapsed = 0;
	char *buf, *argv_copy, *save = NULL;
	size_t len = 0;
	int ret = 0;

	for (int i = 1; i < argc; i++)
		len += strlen(argv[i]) + 1;
	buf = xmalloc(len + 1);
	buf[0] = '\0';
	for (int i = 1; i < argc; i++) {
		strcat(buf, argv[i]);
		strcat(buf, " ");
	}
	argv_copy = xstrdup(buf);
	for (char *w = strtok_r(buf, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		if (!strncmp(w, "elapsed=", 8)) {
			elapsed = strtoull(w + 8, NULL, 10);
			continue;
		}
		xgrow((void **)&rows, &alloc, n + 1, sizeof(*rows));
		xgrow((void **)&attrs, &aalloc, n + 1, sizeof(*attrs));
		if (parse_row(w, &rows[n], &attrs[n])) {
			/* strtok_r cut w at the first '/' */
			const char *orig = argv_copy + (w - buf);

			printf("error: bad row '%.*s'\n",
			       (int)strcspn(orig, " \t"), orig);
			ret = 1;
			goto out;
		}
		n++;
	}
	xgrow((void **)&ap, &palloc, n + 1, sizeof(*ap));
	for (size_t i = 0; i < n; i++)
		ap[i] = &attrs[i];
	metrics_compute(rows, n, ap, elapsed, NULL, NULL);
	for (size_t i = 0; i < n; i++) {
		const struct pstat_row *r = &rows[i];

		if (!r->has_metric) {
			printf("%s: -\n", r->event);
			continue;
		}
		printf("%s: %s %.6g%s\n", r->event, r->metric.name,
		       r->metric.value, r->metric.unit);
	}
out:
	free(ap);
	free(attrs);
	free(rows);
	free(argv_copy);
	free(buf);
	return ret;
}
