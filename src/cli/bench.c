/* SPDX-License-Identifier: MIT */
/*
 * `pstat bench`: its options, the event list, the outputs (the report,
 * -j, the exports, the plot) and the exit status around bench_loop.c's
 * rounds and compare/bench_stats.c's statistics.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>
#include <fcntl.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/bench_cli.h"
#include "cli/event_lists.h"
#include "cli/options.h"
#include "cli/output.h"
#include "compare/compare.h"
#include "compare/print_compare.h"
#include "events/evspec.h"
#include "events/pfm.h"
#include "events/pmu.h"
#include "run/counter.h"
#include "run/session.h"
#include "run/target.h"

/* perf stat's defaults; those the machine lacks are left out. */
static const char BENCH_DEFAULT_EVENTS[] =
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,"
	"instructions,branches,branch-misses";

static const char BENCH_USAGE[] =
	"usage: pstat bench [options] [-e EVENTS]... [-n NAME]... COMMAND...";

struct bench_opts {
	char **tmpl;                /* the commands as given */
	size_t ntmpl;
	char **cmds;                /* [command]: as shown (new) */
	size_t ncmds;
	const char *names[64];      /* as given, for the commands given */
	char *cmd_names[BENCH_MAX_CMDS];    /* [command]: or NULL (new) */
	size_t nnames;
	char *events[64];
	size_t nevents;
	const char *prepare[64], *setup[64], *cleanup[64];
	size_t nprepare, nsetup, ncleanup;
	const char *shell;          /* NULL: none */
	uint64_t runs, min_runs, max_runs, warmup, seed;
	int have_seed, shuffle, json, ignore_failure, show_output;
	int fail_on_regression;
	const char *thresholds[64];
	size_t nthresholds;
	double alpha;
	const char *output, *export_md, *export_csv, *export_json, *plot;
	double per[64];             /* --per: once, or once per command */
	size_t nper;
	const char *per_unit;       /* the NAME of --per-unit, in per_name */
	char per_name[64];
	struct bench_params params;  /* -L */
	struct bench_expanded exp;   /* the commands -L made */
};

static void bench_help(void)
{
	printf("%s\n"
	       "\n"
	       "Run the commands interleaved (A B A B ...), count each run, and\n"
	       "compare every command with the first: ratios, intervals, verdicts.\n"
	       "\n"
	       "  -e, --event EVENTS         what to count (default: task-clock,\n"
	       "                             context-switches, cpu-migrations,\n"
	       "                             page-faults, and the hardware events\n"
	       "                             the machine has); wall, user and sys\n"
	       "                             time always\n"
	       "  -n, --command-name NAME    a name for the next command\n"
	       "  -L, --parameter-list VAR VALUES\n"
	       "                             run each command once per value\n"
	       "                             (comma-separated) put for {VAR}\n"
	       "  -r, --runs N               exactly N rounds (default: at least\n"
	       "                             10, and at least 3 s)\n"
	       "  -m, --min-runs N           at least N rounds (default 10)\n"
	       "  -M, --max-runs N           at most N rounds\n"
	       "  -w, --warmup N             N uncounted rounds first\n"
	       "      --order ORDER          interleave (default) or shuffle: each\n"
	       "                             round in a random order\n"
	       "      --seed N               the shuffle's seed\n"
	       "  -p, --prepare CMD          run CMD before each run (once, or once\n"
	       "                             per command)\n"
	       "  -s, --setup CMD            run CMD before the first round (once,\n"
	       "                             or once per command)\n"
	       "  -c, --cleanup CMD          run CMD after the last round (once, or\n"
	       "                             once per command)\n"
	       "  -S, --shell SHELL          run the commands with SHELL -c (default\n"
	       "                             sh); none: split them into words\n"
	       "  -N, --shell=none           run the commands without a shell\n"
	       "  -i, --ignore-failure       keep going when a command fails\n"
	       "      --show-output          let the commands' output through\n"
	       "                             (default: /dev/null)\n"
	       "      --alpha A              significance level (default 0.05)\n"
	       "      --per N                divide the counters by N, the work a\n"
	       "                             run does (once, or once per command)\n"
	       "      --per-unit NAME=N      the same, naming the unit\n"
	       "      --fail-on-regression   exit 3 when a command regressed against\n"
	       "                             the first, as pstat compare finds\n"
	       "      --threshold SPEC       its limits, as for pstat compare\n"
	       "  -j, --json                 one JSON document (pstat-bench/1)\n"
	       "  -o, --output FILE          the report or document to FILE\n"
	       "      --export-markdown FILE a Markdown table of the results\n"
	       "      --export-csv FILE      the results as CSV\n"
	       "      --export-json FILE     the JSON document too (as -j)\n"
	       "      --plot FILE            an SVG of the distributions\n"
	       "  -h, --help                 this help\n"
	       "\n"
	       "Exit status: 0; a failed command's status (it is named); 3 or 4\n"
	       "with --fail-on-regression as pstat compare; 128+N on signal N;\n"
	       "125 on pstat's own errors.\n",
	       BENCH_USAGE);
}

enum {
	OPT_ALPHA = 256,
	OPT_EXPORT_CSV,
	OPT_EXPORT_JSON,
	OPT_EXPORT_MARKDOWN,
	OPT_FAIL_ON_REGRESSION,
	OPT_ORDER,
	OPT_PER,
	OPT_PER_UNIT,
	OPT_PLOT,
	OPT_SEED,
	OPT_SHOW_OUTPUT,
	OPT_THRESHOLD,
};

/* Sorted by long name. */
static const struct option bench_long_opts[] = {
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "cleanup", required_argument, NULL, 'c' },
	{ "command-name", required_argument, NULL, 'n' },
	{ "event", required_argument, NULL, 'e' },
	{ "export-csv", required_argument, NULL, OPT_EXPORT_CSV },
	{ "export-json", required_argument, NULL, OPT_EXPORT_JSON },
	{ "export-markdown", required_argument, NULL, OPT_EXPORT_MARKDOWN },
	{ "fail-on-regression", no_argument, NULL, OPT_FAIL_ON_REGRESSION },
	{ "help", no_argument, NULL, 'h' },
	{ "ignore-failure", no_argument, NULL, 'i' },
	{ "json", no_argument, NULL, 'j' },
	{ "max-runs", required_argument, NULL, 'M' },
	{ "min-runs", required_argument, NULL, 'm' },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "output", required_argument, NULL, 'o' },
	{ "parameter-list", required_argument, NULL, 'L' },
	{ "per", required_argument, NULL, OPT_PER },
	{ "per-unit", required_argument, NULL, OPT_PER_UNIT },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "prepare", required_argument, NULL, 'p' },
	{ "runs", required_argument, NULL, 'r' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "setup", required_argument, NULL, 's' },
	{ "shell", required_argument, NULL, 'S' },
	{ "show-output", no_argument, NULL, OPT_SHOW_OUTPUT },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "warmup", required_argument, NULL, 'w' },
	{ NULL, 0, NULL, 0 },
};

static int bad_value(const char *opt, const char *arg, const char *why)
{
	msg_error("invalid value '%s' for %s: %s", arg, opt, why);
	msg_hint("see 'pstat bench --help'");
	return -1;
}

static int number(const char *opt, const char *arg, uint64_t min,
		  uint64_t max, uint64_t *out)
{
	return options_number(opt, arg, min, max, out, "pstat bench --help");
}

/* A positive number of units of work (--per), appended to o->per. */
static int per_number(struct bench_opts *o, const char *opt, const char *arg)
{
	uint64_t v;

	if (parse_u64(arg, UINT64_MAX, &v) || v == 0)
		return bad_value(opt, arg, "not a positive whole number");
	if (o->nper >= 64) {
		msg_error("too many %s options (at most 64)", opt);
		return -1;
	}
	o->per[o->nper++] = (double)v;
	return 0;
}

/* Append s to list (of at most 64), or fail naming opt. */
static int push(const char **list, size_t *n, const char *s, const char *opt)
{
	if (*n >= 64) {
		msg_error("too many %s options (at most 64)", opt);
		return -1;
	}
	list[(*n)++] = s;
	return 0;
}

static int bench_opt(struct bench_opts *o, int c, const char *arg)
{
	char *eq;

	switch (c) {
	case 'c':
		return push(o->cleanup, &o->ncleanup, arg, "--cleanup");
	case 'e':
		return push((const char **)o->events, &o->nevents, arg, "-e");
	case 'i':
		o->ignore_failure = 1;
		return 0;
	case 'j':
		o->json = 1;
		return 0;
	case 'M':
		return number("--max-runs", arg, 1, UINT32_MAX, &o->max_runs);
	case 'm':
		return number("--min-runs", arg, 1, UINT32_MAX, &o->min_runs);
	case 'N':
		o->shell = NULL;
		return 0;
	case 'n':
		return push(o->names, &o->nnames, arg, "-n");
	case 'o':
		o->output = arg;
		return 0;
	case 'p':
		return push(o->prepare, &o->nprepare, arg, "--prepare");
	case 'r':
		return number("--runs", arg, 1, UINT32_MAX, &o->runs);
	case 'S':
		o->shell = strcmp(arg, "none") ? arg : NULL;
		if (o->shell && !*o->shell)
			return bad_value("--shell", arg, "empty");
		return 0;
	case 's':
		return push(o->setup, &o->nsetup, arg, "--setup");
	case 'w':
		return number("--warmup", arg, 0, UINT32_MAX, &o->warmup);
	case OPT_ALPHA:
		return compare_parse_alpha(arg, &o->alpha) ?
			       bad_value("--alpha", arg,
					 "not a number between 0 and 1") :
			       0;
	case OPT_EXPORT_CSV:
		o->export_csv = arg;
		return 0;
	case OPT_EXPORT_JSON:
		o->export_json = arg;
		return 0;
	case OPT_EXPORT_MARKDOWN:
		o->export_md = arg;
		return 0;
	case OPT_FAIL_ON_REGRESSION:
		o->fail_on_regression = 1;
		return 0;
	case OPT_ORDER:
		if (strcmp(arg, "interleave") && strcmp(arg, "shuffle"))
			return bad_value("--order", arg,
					 "use interleave or shuffle");
		o->shuffle = !strcmp(arg, "shuffle");
		return 0;
	case OPT_PER:
		return per_number(o, "--per", arg);
	case OPT_PER_UNIT:
		eq = strrchr(arg, '=');
		if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(o->per_name))
			return bad_value("--per-unit", arg,
					 "use NAME=N, NAME under 64 bytes");
		snprintf(o->per_name, sizeof(o->per_name), "%.*s",
			 (int)(eq - arg), arg);
		if (o->per_unit && strcmp(o->per_unit, o->per_name))
			return bad_value("--per-unit", arg,
					 "every --per-unit names the same unit");
		o->per_unit = o->per_name;
		return per_number(o, "--per-unit", eq + 1);
	case OPT_PLOT:
		o->plot = arg;
		return 0;
	case OPT_SEED:
		o->have_seed = 1;
		return number("--seed", arg, 0, UINT64_MAX, &o->seed);
	case OPT_SHOW_OUTPUT:
		o->show_output = 1;
		return 0;
	case OPT_THRESHOLD:
		return push(o->thresholds, &o->nthresholds, arg, "--threshold");
	}
	return -1;
}

/*
 * Parse argv into o. Returns 0, 1 after --help, or -1 after reporting a
 * usage error.
 */
static int bench_parse(int argc, char **argv, struct bench_opts *o)
{
	char why[128];
	int c;

	memset(o, 0, sizeof(*o));
	o->shell = "sh";
	o->min_runs = 10;
	o->alpha = COMPARE_DEFAULT_ALPHA;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":c:e:hijL:M:m:Nn:o:p:r:S:s:w:",
				bench_long_opts, NULL)) != -1) {
		if (c == 'L') {
			/* hyperfine's two arguments: VAR, then VALUES */
			if (optind >= argc) {
				msg_error("-L %s needs its values too: -L VAR V1,V2,...",
					  optarg);
				return -1;
			}
			if (bench_params_add(&o->params, optarg,
					     argv[optind++], why, sizeof(why))) {
				msg_error("invalid -L: %s", why);
				return -1;
			}
			continue;
		}
		if (c == 'h') {
			bench_help();
			return 1;
		}
		if (c == ':' || c == '?') {
			msg_bad_option(c, optopt, argv[optind - 1],
				       "pstat bench", BENCH_USAGE);
			return -1;
		}
		if (bench_opt(o, c, optarg))
			return -1;
	}
	o->tmpl = argv + optind;
	o->ntmpl = (size_t)(argc - optind);
	if (!o->ntmpl) {
		msg_error("'pstat bench' needs a command to run");
		msg_hint("%s", BENCH_USAGE);
		return -1;
	}
	if (o->ntmpl > BENCH_MAX_CMDS) {
		msg_error("'pstat bench' runs at most %d commands",
			  BENCH_MAX_CMDS);
		return -1;
	}
	if (o->nnames > o->ntmpl) {
		msg_error("%zu names (-n) for %zu commands", o->nnames, o->ntmpl);
		return -1;
	}
	if (bench_params_expand(&o->params, o->ntmpl, &o->exp, why,
				sizeof(why))) {
		msg_error("invalid -L: %s", why);
		return -1;
	}
	o->ncmds = o->exp.n;
	if (o->runs == 0 && o->max_runs && o->min_runs > o->max_runs) {
		msg_error("--min-runs %llu is above --max-runs %llu",
			  (unsigned long long)o->min_runs,
			  (unsigned long long)o->max_runs);
		return -1;
	}
	if ((o->nprepare > 1 && o->nprepare != o->ncmds) ||
	    (o->nsetup > 1 && o->nsetup != o->ncmds) ||
	    (o->ncleanup > 1 && o->ncleanup != o->ncmds)) {
		msg_error("--prepare, --setup and --cleanup are given once, or once per command (%zu)",
			  o->ncmds);
		return -1;
	}
	if (o->nper > 1 && o->nper != o->ncmds) {
		msg_error("--per and --per-unit are given once, or once per command (%zu)",
			  o->ncmds);
		return -1;
	}
	if (o->nthresholds && !o->fail_on_regression) {
		msg_error("--threshold needs --fail-on-regression");
		return -1;
	}
	return 0;
}

/* The events of -e (or the defaults) into evl. 0 or -1 (reported). */
static int bench_events(const struct bench_opts *o,
			struct pstat_encode_ctx *ctx, struct pstat_evlist *evl)
{
	static const char *const defaults[] = { BENCH_DEFAULT_EVENTS };

	if (!o->nevents)
		return event_lists_encode(defaults, 1, ctx, evl, NULL);
	return event_lists_encode((const char *const *)o->events, o->nevents,
				  ctx, evl, NULL);
}

/*
 * Without -e: the defaults the machine can count, those perf_event_open
 * accepts on pstat itself (opened disabled and closed at once), so that
 * the commands' run documents hold no <not supported> counter, which
 * pstat compare would find invalid. When even that probe fails, all of
 * them: the first run says why.
 */
static int bench_default_events(const struct bench_opts *o,
				struct pstat_encode_ctx *ctx,
				struct pstat_evlist *evl)
{
	struct pstat_evlist all = { 0 };
	struct pstat_counters ctr = { 0 };
	struct pstat_open_opts oo = { .disabled = 1 };
	struct pstat_open_error oe;
	struct bench_opts one = *o;
	const int cpu = -1;
	pid_t self = getpid();
	char *list = NULL;
	int r;

	if (bench_events(o, ctx, &all))
		return -1;
	if (counters_open(&ctr, &all, &cpu, 1, &self, 1, &oo, &oe)) {
		*evl = all;
		return 0;
	}
	for (size_t i = 0; i < all.n; i++) {
		char *l;

		if (ctr.state[i] != COUNTER_OPEN)
			continue;
		l = list ? xasprintf("%s,%s", list, all.ev[i].name) :
			   xstrdup(all.ev[i].name);
		free(list);
		list = l;
	}
	counters_close(&ctr);
	if (!list) {
		*evl = all;
		return 0;
	}
	evlist_free(&all);
	one.events[0] = list;
	one.nevents = 1;
	r = bench_events(&one, ctx, evl);
	free(list);
	return r;
}

/*
 * What runs the text s for command c (its -L values put in): SHELL -c
 * s, or s split into words. NULL: reported.
 */
static char **command_argv(const struct bench_opts *o, size_t c,
			   const char *s, const char *what)
{
	const size_t *pick = o->exp.pick[c];
	char **w, *text;
	size_t n = 0;

	if (!o->shell) {
		w = bench_split_words(s);
		if (!w || !w[0]) {
			char *e = str_escape(s);

			msg_error("cannot run %s '%s' without a shell: %s", what,
				  e, w ? "it is empty" : "a quote is not closed");
			free(e);
			bench_words_free(w);
			return NULL;
		}
		/* the values go into their words: never split again */
		for (size_t i = 0; w[i]; i++) {
			char *v = bench_params_subst(&o->params, pick, w[i], 0);

			free(w[i]);
			w[i] = v;
		}
		return w;
	}
	w = bench_split_words(o->shell);
	if (!w || !w[0]) {
		msg_error("invalid value '%s' for --shell: %s", o->shell,
			  w ? "it is empty" : "a quote is not closed");
		bench_words_free(w);
		return NULL;
	}
	text = bench_params_subst(&o->params, pick, s, 1);
	while (w[n])
		n++;
	w = xrealloc(w, (n + 3) * sizeof(*w));
	w[n] = xstrdup("-c");
	w[n + 1] = text;
	w[n + 2] = NULL;
	return w;
}

/*
 * Each command's argv for a once-or-per-command option; NULL: none. One
 * --setup or --cleanup for all runs once, unless it names a parameter:
 * then once per command, with that command's values.
 */
static char ***per_command(const struct bench_opts *o, const char *const *list,
			   size_t n, const char *what, int *err)
{
	int once = n == 1 && strcmp(what, "--prepare") &&
		   !bench_params_used(&o->params, list[0]);
	char ***v;

	if (!n)
		return NULL;
	v = xcalloc(o->ncmds, sizeof(*v));
	for (size_t c = 0; c < o->ncmds; c++) {
		if (once && c > 0)
			break;
		v[c] = command_argv(o, c, list[n == 1 ? 0 : c], what);
		if (!v[c])
			*err = 1;
	}
	return v;
}

static void free_per_command(char ***v, size_t n)
{
	for (size_t c = 0; v && c < n; c++)
		bench_words_free(v[c]);
	free(v);
}

/*
 * The commands as shown and their names, -L's values put in (as they
 * run through the shell; as they are without one). 0, or -1 (reported)
 * for a command too long to run.
 */
static int bench_commands(struct bench_opts *o)
{
	o->cmds = xcalloc(o->ncmds + 1, sizeof(*o->cmds));
	for (size_t c = 0; c < o->ncmds; c++) {
		size_t src = o->exp.src[c];

		o->cmds[c] = bench_params_subst(&o->params, o->exp.pick[c],
						o->tmpl[src], o->shell != NULL);
		if (strlen(o->cmds[c]) > BENCH_MAX_CMD_LEN) {
			msg_error("command %zu is longer than %d bytes with its -L values",
				  c + 1, BENCH_MAX_CMD_LEN);
			return -1;
		}
		if (src < o->nnames)
			o->cmd_names[c] = bench_params_subst(
				&o->params, o->exp.pick[c], o->names[src], 0);
	}
	return 0;
}

static void bench_opts_free(struct bench_opts *o)
{
	for (size_t c = 0; o->cmds && c < o->ncmds; c++) {
		free(o->cmds[c]);
		free(o->cmd_names[c]);
	}
	free(o->cmds);
	bench_params_free(&o->params, &o->exp);
}

/* The files of --export-* and --plot, in this order. */
enum { EXPORT_MD, EXPORT_CSV, EXPORT_JSON, EXPORT_PLOT, NEXPORTS };

static const char *export_path(const struct bench_opts *o, int i)
{
	const char *const paths[NEXPORTS] = {
		o->export_md, o->export_csv, o->export_json, o->plot,
	};

	return paths[i];
}

/*
 * Open every file asked for before anything runs, so that a bad path
 * fails at once rather than after the whole bench. 0 or -1 (reported;
 * those opened are closed untouched).
 */
static int exports_open(const struct bench_opts *o, struct output *ex)
{
	for (int i = 0; i < NEXPORTS; i++) {
		const char *path = export_path(o, i);

		memset(&ex[i], 0, sizeof(ex[i]));
		if (path && output_open(&ex[i], path, 0, 0, 0)) {
			while (i-- > 0)
				if (ex[i].f)
					output_close(&ex[i], 0);
			return -1;
		}
	}
	return 0;
}

/* Close the exports: kept when ok. 0, or -1 when one failed (reported). */
static int exports_close(struct output *ex, int ok)
{
	int bad = 0;

	for (int i = 0; i < NEXPORTS; i++)
		if (ex[i].f && output_close(&ex[i], ok))
			bad = 1;
	return bad ? -1 : 0;
}

static uint64_t random_seed(void)
{
	uint64_t s = 0;

	if (getrandom(&s, sizeof(s), GRND_NONBLOCK) != (ssize_t)sizeof(s))
		s = now_ns() ^ ((uint64_t)getpid() << 32);
	return s;
}

/* Print the report (or the document) and the files asked for. */
static int bench_write(const struct bench_opts *o, struct pstat_bench *b,
		       FILE *out, struct output *ex)
{
	static int (*const fns[NEXPORTS])(FILE *,
					  const struct pstat_bench *) = {
		bench_print_markdown, bench_print_csv, print_json_bench,
		bench_plot_svg,
	};
	struct pstat_bench_print_cfg pc = { 0 };
	int r, bad = 0;

	pc.color = isatty(fileno(out)) && !getenv("NO_COLOR");
	pc.utf8 = 1;
	r = o->json ? print_json_bench(out, b) : bench_print_table(out, b, &pc);
	if (r) {
		msg_error("cannot write the results to '%s': %s",
			  o->output ? o->output : "stdout", strerror(-r));
		bad = 1;
	}
	for (int i = 0; i < NEXPORTS; i++) {
		if (!ex[i].f)
			continue;
		r = fns[i](ex[i].f, b);
		if (r) {
			msg_error("cannot write '%s': %s", export_path(o, i),
				  strerror(-r));
			bad = 1;
		}
		if (output_close(&ex[i], !r))
			bad = 1;
	}
	return bad ? -1 : 0;
}

static void bench_cfg_free(struct bench_cfg *cfg)
{
	free_per_command(cfg->argv, cfg->ncmds);
	free_per_command(cfg->prepare, cfg->ncmds);
	free_per_command(cfg->setup, cfg->ncmds);
	free_per_command(cfg->cleanup, cfg->ncmds);
}

/* cfg from o: the commands' argv and the options of the runs. */
static int bench_cfg_fill(const struct bench_opts *o, struct bench_cfg *cfg,
			  const struct pstat_evlist *evl)
{
	int err = 0;

	memset(cfg, 0, sizeof(*cfg));
	cfg->evl = evl;
	cfg->default_events = !o->nevents;
	cfg->ncmds = o->ncmds;
	cfg->argv = xcalloc(o->ncmds, sizeof(*cfg->argv));
	for (size_t c = 0; c < o->ncmds; c++)
		if (!(cfg->argv[c] = command_argv(o, c, o->tmpl[o->exp.src[c]],
						  "command")))
			err = 1;
	cfg->prepare = per_command(o, o->prepare, o->nprepare, "--prepare",
				   &err);
	cfg->setup = per_command(o, o->setup, o->nsetup, "--setup", &err);
	cfg->cleanup = per_command(o, o->cleanup, o->ncleanup, "--cleanup",
				   &err);
	cfg->runs = o->runs;
	cfg->min_runs = o->min_runs;
	cfg->max_runs = o->max_runs;
	cfg->warmup = o->warmup;
	cfg->shuffle = o->shuffle;
	cfg->seed = o->have_seed ? o->seed : random_seed();
	cfg->ignore_failure = o->ignore_failure;
	/* (the commands' own output would tear the bar, as in hyperfine) */
	cfg->progress = isatty(STDERR_FILENO) && !o->show_output;
	return err ? -1 : 0;
}

int bench_main(int argc, char **argv)
{
	struct bench_opts o;
	struct bench_cfg cfg = { 0 };
	struct pstat_encode_ctx ctx = { 0 };
	struct pstat_evlist evl = { 0 };
	struct pstat_bench b = { 0 };
	struct output out = { 0 }, ex[NEXPORTS];
	int r, status = EXIT_PSTAT_FAILED, null_fd = -1;
	const char *v;

	r = bench_parse(argc, argv, &o);
	if (r || bench_commands(&o)) {
		bench_opts_free(&o);
		return r > 0 ? 0 : EXIT_PSTAT_FAILED;
	}
	v = getenv("PSTAT_SYSFS_ROOT");
	ctx.pmus = pmus_new(v && *v ? v : NULL);
	v = getenv("PSTAT_TRACEFS_ROOT");
	ctx.tracefs_root = v && *v ? v : NULL;
	if ((o.nevents ? bench_events(&o, &ctx, &evl) :
			 bench_default_events(&o, &ctx, &evl)) ||
	    bench_cfg_fill(&o, &cfg, &evl))
		goto out;
	null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd < 0) {
		msg_error("cannot open /dev/null: %s", strerror(errno));
		goto out;
	}
	target_set_stdio(null_fd, o.show_output ? -1 : null_fd,
			 o.show_output ? -1 : null_fd);
	/* an output that cannot be written fails before anything runs */
	if (o.output && output_open(&out, o.output, 0, 0, 0))
		goto out;
	if (exports_open(&o, ex)) {
		if (o.output)
			output_close(&out, 0);
		goto out;
	}
	if (!o.output)
		out.f = stdout;
	b.alpha = o.alpha;
	b.shuffle = o.shuffle;
	b.seed = cfg.seed;
	b.warmup = (unsigned)o.warmup;
	b.shell = o.shell;
	b.per_unit = o.per_unit;
	for (size_t c = 0; c < o.ncmds; c++)
		bench_add_cmd(&b, o.cmd_names[c], o.cmds[c],
			      cfg.argv[c])->per =
			o.nper ? o.per[o.nper == 1 ? 0 : c] : 0;
	status = bench_loop(&cfg, &b);
	if (status) {
		if (o.output)
			output_close(&out, 0);
		exports_close(ex, 0);
		goto out;
	}
	bench_analyze(&b);
	if (o.fail_on_regression) {
		b.regression_checked = 1;
		b.regression_status = bench_check_regression(
			o.thresholds, o.nthresholds, &b,
			o.json ? stderr : out.f);
	}
	status = b.interrupted ? 128 + b.interrupted : b.regression_status;
	b.exit_status = status;
	r = bench_write(&o, &b, out.f, ex);
	if (o.output ? output_close(&out, !r) || r : r || fflush(stdout))
		status = EXIT_PSTAT_FAILED;
out:
	if (null_fd >= 0)
		close(null_fd);
	bench_free(&b);
	bench_cfg_free(&cfg);
	evlist_free(&evl);
	pmus_free(ctx.pmus);
	pfm_cleanup();
	bench_opts_free(&o);
	return status;
}
