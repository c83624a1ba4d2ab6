/* SPDX-License-Identifier: MIT */
/*
 * `pstat compare` and `pstat --baseline`: options, files, messages and
 * the exit status around the pure comparison in compare.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/outfile.h"
#include "base/secure.h"
#include "base/util.h"
#include "compare/compare_cli.h"

/*
 * The largest run file read (a long -a -A -I run in JSON Lines may be
 * larger; its summary is the last document: keep that, tail -n 1).
 */
#define RUN_MAX_BYTES (256u << 20)

static const char COMPARE_USAGE[] =
	"usage: pstat compare [--threshold SPEC]... [--alpha A] "
	"[--format table|json|markdown] [-o FILE] BASE.json NEW.json";

static void compare_help(void)
{
	printf("%s\n"
	       "\n"
	       "Compare two runs written by 'pstat -j', counter by counter.\n"
	       "\n"
	       "      --threshold SPEC  limits: NAME=N%% (relative) or NAME=+N (absolute),\n"
	       "                        comma-separated, NAME an event, a metric or a\n"
	       "                        pattern; repeatable; unmatched entries use *=5%%\n"
	       "      --alpha A         significance level of Welch's t-test when both\n"
	       "                        runs have samples (-r N); default 0.05\n"
	       "      --format FMT      table (default), json (pstat-compare/1) or\n"
	       "                        markdown\n"
	       "  -o, --output FILE     write the comparison to FILE, not stdout\n"
	       "  -h, --help            this help\n"
	       "\n"
	       "Exit status: 0 no regression, 3 a regression, 4 not comparable\n"
	       "(also when a run's command failed or crashed), 125 usage error.\n",
	       COMPARE_USAGE);
}

/* Read path ("-": stdin) whole into a new buffer. Returns 0 or -errno. */
/*
 * Open a run file. Unless wait, without blocking: a FIFO no writer has
 * opened reads as empty rather than hang pstat, whose signals are
 * blocked while --baseline is read (pstat compare waits for the writer,
 * as cat would). Set-user-ID: only what the user who ran pstat may read
 * (secure_open_user); a regular file or a FIFO, never a device. A
 * stream, or NULL with errno.
 */
static FILE *open_run(const char *path, int wait)
{
	int fd, e;
	FILE *f;

	if (!strcmp(path, "-"))
		return stdin;
	fd = secure_open_user(path, O_RDONLY | (wait ? 0 : O_NONBLOCK),
			      SECURE_OPEN_REG | SECURE_OPEN_FIFO);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) ||
	    !(f = fdopen(fd, "r"))) {
		e = errno;
		close(fd);
		errno = e;
		return NULL;
	}
	return f;
}

static int read_all(const char *path, int wait, char **buf, size_t *len)
{
	FILE *f = open_run(path, wait);
	size_t alloc = 0, n = 0;
	char *b = NULL;
	int r = 0;

	if (!f)
		return -errno;
	for (;;) {
		size_t got;

		if (n == RUN_MAX_BYTES) {
			r = -EFBIG;
			break;
		}
		xgrow((void **)&b, &alloc, n + 65536 + 1, 1);
		if (alloc - 1 > RUN_MAX_BYTES)
			alloc = RUN_MAX_BYTES + 1;
		got = fread(b + n, 1, alloc - 1 - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f))
				r = errno ? -errno : -EIO;
			break;
		}
	}
	if (f != stdin)
		fclose(f);
	if (r) {
		free(b);
		return r;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/*
 * Read the run in path into run, labelled label. Returns 0, or
 * COMPARE_EXIT_INCOMPARABLE after reporting why not: the file cannot be
 * read, is not a pstat/1 summary, or its command failed.
 */
static int load_run(const char *path, int wait,
		    struct pstat_compare_run *run)
{
	char why[128];

	struct pstat_error err = { "", -1 };
	char *buf = NULL;
	size_t len = 0;
	int r = read_all(path, wait, &buf, &len);

	memset(run, 0, sizeof(*run));
	if (r) {
		msg_error("cannot read '%s': %s", path,
			  r == -EFBIG ? "larger than 256 MiB" :
			  r == -ENODEV ? "not a regular file or a FIFO" :
					strerror(-r));
		return COMPARE_EXIT_INCOMPARABLE;
	}
	r = print_json_read_run(buf, len, run, &err);
	free(buf);
	run->label = xstrdup(strcmp(path, "-") ? path : "stdin");
	if (r) {
		msg_error("cannot read the run in '%s': %s", path, err.msg);
		if (str_starts_with(err.msg, "schema is") ||
		    str_starts_with(err.msg, "not a pstat run") ||
		    str_starts_with(err.msg, "not JSON"))
			msg_hint("compare files written by 'pstat -j -o FILE'");
		return COMPARE_EXIT_INCOMPARABLE;
	}
	/* counts of a crash or an error path say nothing of the program */
	if (compare_run_failed(run, why, sizeof(why))) {
		msg_error("cannot compare the run in '%s': its command failed (%s)",
			  path, why);
		return COMPARE_EXIT_INCOMPARABLE;
	}
	return 0;
}

/*
 * A run's counters indexed for check_core_split, so that it is a sort
 * and a search per counter, not a scan (the documents may hold 100,000
 * counters): the events as written, and, for those spelled
 * "<pmu>/<event>/", what is between the slashes.
 */
struct split_key {
	const char *key;        /* the event, or its part inside pmu/.../ */
	size_t len;
	const struct pstat_compare_counter *c;
};

static int split_key_cmp(const void *x, const void *y)
{
	const struct split_key *a = x, *b = y;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->key, b->key, n);

	return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* Equal keys stay in the document's order: the first is named. */
static int split_key_order(const void *x, const void *y)
{
	const struct split_key *a = x, *b = y;
	int c = split_key_cmp(x, y);

	return c ? c : (a->c > b->c) - (a->c < b->c);
}

/* events: every event of run; inner: "cycles" of each "cpu_core/cycles/". */
static void split_index(const struct pstat_compare_run *run,
			struct split_key **events, struct split_key **inner,
			size_t *ninner)
{
	*events = xcalloc(run->ncounters + 1, sizeof(**events));
	*inner = xcalloc(run->ncounters + 1, sizeof(**inner));
	*ninner = 0;
	for (size_t i = 0; i < run->ncounters; i++) {
		const char *e = run->counters[i].event, *slash = strchr(e, '/');
		size_t len = strlen(e);

		(*events)[i] = (struct split_key){ e, len, &run->counters[i] };
		/* "<pmu>/<event>/": a PMU name, then one slash at the end */
		if (slash && slash != e && len > 0 && e[len - 1] == '/' &&
		    slash < e + len - 1)
			(*inner)[(*ninner)++] = (struct split_key){
				slash + 1, (size_t)(e + len - 1 - (slash + 1)),
				&run->counters[i]
			};
	}
	qsort(*events, run->ncounters, sizeof(**events), split_key_order);
	qsort(*inner, *ninner, sizeof(**inner), split_key_order);
}

/*
 * Refuse two runs of which one counted an event once per core PMU (a
 * hybrid CPU: cpu_core/cycles/ and cpu_atom/cycles/) and the other as
 * one event (cycles): no counter of one matches one of the other, and
 * adding them up would compare different things. Returns 0, or
 * COMPARE_EXIT_CORE_SPLIT after saying which event.
 */
static int check_core_split(const struct pstat_compare_run *a,
			    const struct pstat_compare_run *b)
{
	const struct pstat_compare_run *runs[2] = { a, b };
	int ret = 0;

	for (int k = 0; k < 2 && !ret; k++) {
		const struct pstat_compare_run *one = runs[k];
		const struct pstat_compare_run *split = runs[1 - k];
		struct split_key *events, *inner, *hit;
		size_t ninner;

		split_index(split, &events, &inner, &ninner);
		for (size_t i = 0; i < one->ncounters && !ret; i++) {
			struct split_key want = { one->counters[i].event,
						  strlen(one->counters[i].event),
						  NULL };

			if (strchr(want.key, '/') ||
			    bsearch(&want, events, split->ncounters,
				    sizeof(*events), split_key_cmp))
				continue;
			hit = bsearch(&want, inner, ninner, sizeof(*inner),
				      split_key_cmp);
			if (!hit)
				continue;
			while (hit > inner && !split_key_cmp(hit - 1, &want))
				hit--;
			msg_error("cannot compare '%s' with '%s': '%s' counts '%s' once per core PMU ('%s', ...), as on a hybrid CPU, and '%s' as one event",
				  a->label, b->label, split->label, want.key,
				  hit->c->event, one->label);
			msg_hint("compare runs of the same kind of CPU, or name the core PMU in both ('%s')",
				 hit->c->event);
			ret = COMPARE_EXIT_CORE_SPLIT;
		}
		free(events);
		free(inner);
	}
	return ret;
}

static int parse_format(const char *opt, const char *s,
			enum pstat_compare_format *f)
{
	if (!strcmp(s, "table"))
		*f = COMPARE_TABLE;
	else if (!strcmp(s, "json"))
		*f = COMPARE_JSON;
	else if (!strcmp(s, "markdown"))
		*f = COMPARE_MARKDOWN;
	else {
		msg_error("invalid value '%s' for %s: use table, json or markdown",
			  s, opt);
		return -1;
	}
	return 0;
}

static int parse_threshold(struct pstat_compare_rules *rules, const char *spec)
{
	struct pstat_error err = { "", -1 };

	if (compare_rules_parse(rules, spec, &err)) {
		msg_error("invalid --threshold '%s': %s", spec, err.msg);
		msg_hint("e.g. --threshold 'instructions:u=0.5%%,page-faults=+100,*=5%%'");
		return -1;
	}
	return 0;
}

static int parse_alpha(const char *s, double *alpha)
{
	int r = compare_parse_alpha(s, alpha);

	if (r) {
		msg_error("invalid value '%s' for --alpha: %s", s,
			  r == -ERANGE ? "not between 0 and 1" :
					 "not a number");
		return -1;
	}
	return 0;
}

/* A rule that no entry ended up using is most likely a typo. */
static void warn_unused_rules(const struct pstat_compare_rules *rules,
			      const struct pstat_compare *c)
{
	for (size_t i = 0; i < rules->n; i++) {
		size_t k = 0;

		while (k < c->nitems && c->items[k].rule != &rules->rule[i])
			k++;
		if (k == c->nitems)
			msg_warn("--threshold rule '%s' applies to no counter",
				 rules->rule[i].text);
	}
}

/*
 * Open path for the comparison (base/outfile.h: written whole once
 * complete, an existing file keeps its owner). Returns 0, or the status
 * to exit with after reporting why not.
 */
static int open_output(struct outfile *of, const char *path,
		       struct outfile_wait *w)
{
	char why[128];
	int r = outfile_open(of, path, OUTFILE_REPLACE, w);

	if (!r)
		return 0;
	msg_error("cannot open output file '%s': %s", path,
		  outfile_open_reason(r, w, why, sizeof(why)));
	return outfile_open_status(r, w);
}

/*
 * Print c to of (NULL: stdout), path its name, and finish of. Returns
 * the comparison's status, or 125 after reporting a failed write.
 */
static int emit(const struct pstat_compare *c, enum pstat_compare_format fmt,
		struct outfile *of, const char *path)
{
	int r = print_compare(of ? of->f : stdout, fmt, c);

	if (of) {
		int w = outfile_commit(of, !r);

		r = r ? r : w;
	}
	if (r) {
		msg_error("cannot write the comparison to '%s': %s",
			  of ? path : "stdout", strerror(-r));
		return EXIT_PSTAT_FAILED;
	}
	return c->status;
}

enum {
	OPT_ALPHA = 256,
	OPT_FORMAT,
	OPT_THRESHOLD,
};

/* Sorted by long name. */
static const struct option compare_opts[] = {
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "help", no_argument, NULL, 'h' },
	{ "output", required_argument, NULL, 'o' },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ NULL, 0, NULL, 0 },
};

int compare_cli_main(int argc, char **argv)
{
	struct pstat_compare_rules rules = { 0 };
	struct pstat_compare_run base = { 0 }, new = { 0 };
	struct pstat_compare cmp = { 0 };
	enum pstat_compare_format fmt = COMPARE_TABLE;
	double alpha = COMPARE_DEFAULT_ALPHA;
	const char *output = NULL;
	struct outfile of;
	int c, status = EXIT_PSTAT_FAILED;

	opterr = 0;
	optind = 0; /* 0: glibc starts over, argument permutation too */
	while ((c = getopt_long(argc, argv, ":ho:", compare_opts, NULL)) !=
	       -1) {
		switch (c) {
		case 'h':
			compare_help();
			status = 0;
			goto out;
		case 'o':
			output = optarg;
			break;
		case OPT_ALPHA:
			if (parse_alpha(optarg, &alpha))
				goto out;
			break;
		case OPT_FORMAT:
			if (parse_format("--format", optarg, &fmt))
				goto out;
			break;
		case OPT_THRESHOLD:
			if (parse_threshold(&rules, optarg))
				goto out;
			break;
		default:
			msg_bad_option(c, optopt, argv[optind - 1],
				       "pstat compare", COMPARE_USAGE);
			goto out;
		}
	}
	if (argc - optind != 2) {
		msg_error("'pstat compare' takes two runs, BASE.json and NEW.json");
		msg_hint("%s", COMPARE_USAGE);
		goto out;
	}
	/* an output that cannot be written fails before the work */
	if (output && (status = open_output(&of, output, NULL)))
		goto out;
	status = load_run(argv[optind], 1, &base);
	if (!status)
		status = load_run(argv[optind + 1], 1, &new);
	if (!status)
		status = check_core_split(&base, &new);
	if (status) {
		if (output)
			outfile_commit(&of, 0);
		goto out;
	}
	compare_runs(&base, &new, &rules, alpha, &cmp);
	warn_unused_rules(&rules, &cmp);
	status = emit(&cmp, fmt, output ? &of : NULL, output);
out:
	compare_free(&cmp);
	compare_run_free(&base);
	compare_run_free(&new);
	compare_rules_free(&rules);
	return status;
}

int compare_cli_baseline_load(struct pstat_baseline *b,
			      const struct pstat_baseline_cfg *cfg)
{
	int r;

	memset(b, 0, sizeof(*b));
	b->alpha = COMPARE_DEFAULT_ALPHA;
	b->format = COMPARE_TABLE;
	for (size_t i = 0; i < cfg->nthresholds; i++)
		if (parse_threshold(&b->rules, cfg->thresholds[i]))
			return EXIT_PSTAT_FAILED;
	if (cfg->alpha && parse_alpha(cfg->alpha, &b->alpha))
		return EXIT_PSTAT_FAILED;
	if (cfg->format &&
	    parse_format(cfg->format_opt, cfg->format, &b->format))
		return EXIT_PSTAT_FAILED;
	b->output = cfg->output;
	r = load_run(cfg->path, 0, &b->base);
	if (!r && b->output) {
		r = open_output(&b->out, b->output, cfg->wait);
		b->out_open = !r;
	}
	return r;
}

int compare_cli_baseline_finish(struct pstat_baseline *b,
				struct pstat_printer *p, int run_status)
{
	struct pstat_error err = { "", -1 };
	struct pstat_compare_run run = { 0 };
	struct pstat_compare cmp = { 0 };
	const char *json;
	char why[128];
	size_t len = 0;
	int status;

	if (run_status) {
		msg_warn("not compared with '%s': the run failed (exit %d)",
			 b->base.label, run_status);
		return run_status;
	}
	json = printer_capture_json(p, &len);
	if (!json) {
		msg_error("cannot compare with '%s': the run left no results",
			  b->base.label);
		return COMPARE_EXIT_INCOMPARABLE;
	}
	if (print_json_read_run(json, len, &run, &err)) {
		/* our own document: only a bug gets here */
		msg_error("cannot read this run's results: %s", err.msg);
		compare_run_free(&run);
		return EXIT_PSTAT_FAILED;
	}
	run.label = xstrdup("this run");
	/* a run of -r N that failed while the last one succeeded */
	if (compare_run_failed(&run, why, sizeof(why))) {
		msg_error("cannot compare with '%s': the command failed (%s)",
			  b->base.label, why);
		compare_run_free(&run);
		return COMPARE_EXIT_INCOMPARABLE;
	}
	status = check_core_split(&b->base, &run);
	if (status) {
		compare_run_free(&run);
		return status;
	}
	compare_runs(&b->base, &run, &b->rules, b->alpha, &cmp);
	warn_unused_rules(&b->rules, &cmp);
	status = emit(&cmp, b->format, b->out_open ? &b->out : NULL,
		      b->output);
	b->out_open = 0;
	compare_free(&cmp);
	compare_run_free(&run);
	return status;
}

void compare_cli_baseline_free(struct pstat_baseline *b)
{
	if (!b)
		return;
	/* no comparison was written: the file stays as it was */
	if (b->out_open)
		outfile_commit(&b->out, 0);
	b->out_open = 0;
	compare_run_free(&b->base);
	compare_rules_free(&b->rules);
}
