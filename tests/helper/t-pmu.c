/* SPDX-License-Identifier: MIT */
/*
 * pstat-test pmu: sysfs PMU resolution over the fixture trees.
 *
 *   pmu TREE PMU/TERMS/        encode; one line per PMU matched:
 *                              type=4 config=0x13c config1=0x0 config2=0x0
 *                              [name=..] [scale=..] [unit=..]
 *   pmu format TEXT [VALUE]    parse a format file's text; with VALUE,
 *                              scatter it and print the config words
 *   pmu match TREE NAME        pmus_match: "NAME type=N" lines
 *   pmu all TREE               pmus_all, the same way
 *   pmu show TREE PMU          a PMU's type, cpumask, formats and aliases
 *   pmu alias TREE PMU NAME    pmu_alias_find (case-insensitive)
 *
 * pstat-test tracepoint ROOT SPEC prints "name id" lines; ROOT "-" means
 * the default tracefs.
 *
 * With one argument (the table runner's form) the words are split on
 * blanks. TREE is a fixture name under $PSTAT_TEST_FIXTURES (by default
 * fixtures/sysfs next to this binary), or a path when it holds a '/'.
 * Failures print "error: <message>" on stdout and exit 1.
 */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "events/evspec.h"
#include "events/pmu.h"
#include "events/tracepoint.h"
#include "test-tool.h"

#define MAX_WORDS 8

/* The words of the command: argv itself, or argv[1] split on blanks. */
static int split_args(int argc, char **argv, char **words, char **buf)
{
	int n = 0;

	*buf = NULL;
	if (argc != 2) {
		for (int i = 1; i < argc && n < MAX_WORDS; i++)
			words[n++] = argv[i];
		return n;
	}
	*buf = xstrdup(argv[1]);
	for (char *s = strtok(*buf, " \t"); s && n < MAX_WORDS;
	     s = strtok(NULL, " \t"))
		words[n++] = s;
	return n;
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int fail(const char *fmt, ...)
{
	va_list ap;

	fputs("error: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return 1;
}

static char *tree_path(const char *tree)
{
	const char *dir = getenv("PSTAT_TEST_FIXTURES");
	char exe[PATH_MAX];
	ssize_t n;

	if (strchr(tree, '/'))
		return xstrdup(tree);
	if (dir && *dir)
		return xasprintf("%s/%s", dir, tree);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return xasprintf("tests/fixtures/sysfs/%s", tree);
	exe[n] = '\0';
	return xasprintf("%s/fixtures/sysfs/%s", dirname(exe), tree);
}

/* The shortest %g that reads back as the same double. */
static void print_double(const char *label, double v)
{
	char buf[64];

	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	printf(" %s=%s", label, buf);
}

static void print_format(const struct pstat_pmu_format *f)
{
	printf("config%.0d:", f->field);
	for (int i = 0; i < f->nranges; i++) {
		if (i)
			putchar(',');
		if (f->ranges[i].lo == f->ranges[i].hi)
			printf("%u", f->ranges[i].lo);
		else
			printf("%u-%u", f->ranges[i].lo, f->ranges[i].hi);
	}
	printf(" (%d bit%s)", f->nbits, f->nbits == 1 ? "" : "s");
}

static void print_config(const uint64_t config[3])
{
	printf("config=0x%" PRIx64 " config1=0x%" PRIx64 " config2=0x%" PRIx64,
	       config[0], config[1], config[2]);
}

static int cmd_format(int n, char **w)
{
	char fname[] = "field";
	struct pstat_pmu_format f = { .name = fname };
	struct pstat_error err;
	uint64_t config[3] = { 0 }, v;

	if (n < 2 || n > 3)
		return fail("usage: format TEXT [VALUE]");
	if (pmu_format_parse(w[1], &f, &err))
		return fail("%s", err.msg);
	if (n == 2) {
		print_format(&f);
		putchar('\n');
		return 0;
	}
	if (parse_u64(w[2], UINT64_MAX, &v))
		return fail("bad value '%s'", w[2]);
	if (pmu_format_apply("test", &f, v, config, &err))
		return fail("%s", err.msg);
	print_config(config);
	putchar('\n');
	return 0;
}

static int print_pmus(const struct pstat_pmu **v, size_t n, const char *what)
{
	if (!n)
		return fail("no PMU matches '%s'", what);
	for (size_t i = 0; i < n; i++)
		printf("%s type=%" PRIu32 "\n", v[i]->name, v[i]->type);
	return 0;
}

static int cmd_list(struct pstat_pmus *pmus, int n, char **w)
{
	const struct pstat_pmu **v = NULL;
	size_t count;
	int r;

	if (!strcmp(w[0], "all")) {
		count = pmus_all(pmus, &v);
		r = print_pmus(v, count, "*");
	} else {
		if (n != 3)
			return fail("usage: match TREE NAME");
		count = pmus_match(pmus, w[2], &v);
		r = print_pmus(v, count, w[2]);
	}
	free(v);
	return r;
}

static const struct pstat_pmu *find(struct pstat_pmus *pmus, const char *name)
{
	const struct pstat_pmu *pmu = pmus_find(pmus, name);

	if (!pmu && errno == ENOENT)
		fail("unknown PMU '%s'", name);
	else if (!pmu)
		fail("PMU '%s': %s", name, pmus_error(pmus, name));
	return pmu;
}

static void print_alias(const struct pstat_pmu_alias *a)
{
	printf("alias %s = %s", a->name, a->terms);
	if (a->scale != 1.0)
		print_double("scale", a->scale);
	if (*a->unit)
		printf(" unit=%s", a->unit);
	if (a->snapshot)
		printf(" snapshot");
	putchar('\n');
}

static int cmd_show(struct pstat_pmus *pmus, int n, char **w)
{
	const struct pstat_pmu *pmu;

	if (n != 3)
		return fail("usage: show TREE PMU");
	pmu = find(pmus, w[2]);
	if (!pmu)
		return 1;
	printf("%s type=%" PRIu32 " cpumask=%s\n", pmu->name, pmu->type,
	       pmu->cpumask ? pmu->cpumask : "-");
	for (size_t i = 0; i < pmu->nformats; i++) {
		printf("format %s ", pmu->formats[i].name);
		if (pmu->formats[i].error)
			printf("malformed: %s", pmu->formats[i].error);
		else
			print_format(&pmu->formats[i]);
		putchar('\n');
	}
	for (size_t i = 0; i < pmu->naliases; i++)
		print_alias(&pmu->aliases[i]);
	return 0;
}

static int cmd_alias(struct pstat_pmus *pmus, int n, char **w)
{
	const struct pstat_pmu_alias *a;
	const struct pstat_pmu *pmu;

	if (n != 4)
		return fail("usage: alias TREE PMU NAME");
	pmu = find(pmus, w[2]);
	if (!pmu)
		return 1;
	a = pmu_alias_find(pmu, w[3]);
	if (!a)
		return fail("no alias '%s' in PMU '%s'", w[3], pmu->name);
	print_alias(a);
	return 0;
}

/* Parse spec with the real event grammar, so terms arrive as pstat's do. */
static int cmd_encode(struct pstat_pmus *pmus, const char *spec)
{
	struct pstat_evtree tree = { 0 };
	const struct pstat_pmu **v = NULL;
	const struct pstat_evspec *ev;
	struct pstat_error err;
	size_t count;
	int r = 0;

	if (evspec_parse(spec, &tree, &err)) {
		r = fail("%s", err.msg);
		goto out;
	}
	ev = &tree.groups[0].evs[0];
	if (tree.ngroups != 1 || tree.groups[0].nevs != 1 || !ev->pmu) {
		r = fail("expected one PMU/TERMS/ event, not '%s'", spec);
		goto out;
	}
	count = pmus_match(pmus, ev->pmu, &v);
	if (!count && pmus_error(pmus, ev->pmu))
		r = fail("PMU '%s': %s", ev->pmu, pmus_error(pmus, ev->pmu));
	else if (!count)
		r = fail("unknown PMU '%s'", ev->pmu);
	for (size_t i = 0; i < count && !r; i++) {
		struct pstat_pmu_encoding enc;

		if (pmu_encode(v[i], ev->terms, ev->nterms, &enc, &err)) {
			r = fail("%s", err.msg);
			break;
		}
		if (strcmp(v[i]->name, ev->pmu))
			printf("%s: ", v[i]->name);
		printf("type=%" PRIu32 " ", v[i]->type);
		print_config(enc.config);
		if (enc.name)
			printf(" name=%s", enc.name);
		if (enc.scale != 1.0)
			print_double("scale", enc.scale);
		if (enc.unit)
			printf(" unit=%s", enc.unit);
		putchar('\n');
		pmu_encoding_release(&enc);
	}
	free(v);
out:
	evspec_tree_free(&tree);
	return r;
}

int t_pmu(int argc, char **argv)
{
	struct pstat_pmus *pmus;
	char *words[MAX_WORDS], *buf, *root;
	int n = split_args(argc, argv, words, &buf);
	int r;

	if (n >= 1 && !strcmp(words[0], "format")) {
		r = cmd_format(n, words);
		goto out;
	}
	if (n < 2) {
		r = fail("usage: pmu TREE PMU/TERMS/ | format | match | all | "
			 "show | alias");
		goto out;
	}
	if (!strcmp(words[0], "match") || !strcmp(words[0], "all") ||
	    !strcmp(words[0], "show") || !strcmp(words[0], "alias"))
		root = tree_path(words[1]);
	else
		root = tree_path(words[0]);
	pmus = pmus_new(root);
	if (!strcmp(words[0], "match") || !strcmp(words[0], "all"))
		r = cmd_list(pmus, n, words);
	else if (!strcmp(words[0], "show"))
		r = cmd_show(pmus, n, words);
	else if (!strcmp(words[0], "alias"))
		r = cmd_alias(pmus, n, words);
	else if (n == 2)
		r = cmd_encode(pmus, words[1]);
	else
		r = fail("usage: pmu TREE PMU/TERMS/");
	pmus_free(pmus);
	free(root);
out:
	free(buf);
	fflush(stdout);
	return r;
}

int t_tracepoint(int argc, char **argv)
{
	struct pstat_tracepoint *tps;
	char *words[MAX_WORDS], *buf;
	int n = split_args(argc, argv, words, &buf);
	const char *root;
	long count;
	int r = 0;

	if (n != 2) {
		r = fail("usage: tracepoint ROOT|- SPEC");
		goto out;
	}
	root = strcmp(words[0], "-") ? words[0] : NULL;
	count = tracepoint_resolve(root, words[1], &tps);
	if (count < 0) {
		r = fail("cannot resolve '%s': %s", words[1],
			 strerror((int)-count));
		goto out;
	}
	if (!count)
		r = fail("no tracepoint matches '%s'", words[1]);
	for (long i = 0; i < count; i++)
		printf("%s %" PRIu64 "\n", tps[i].name, tps[i].id);
	tracepoint_list_free(tps, (size_t)count);
out:
	free(buf);
	fflush(stdout);
	return r;
}
