/* SPDX-License-Identifier: MIT */
/*
 * `pstat bench`'s options: the help, the option table and their
 * checks, into struct bench_opts.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/bench_args.h"
#include "cli/options.h"
#include "compare/compare.h"

static const char BENCH_USAGE[] =
	"usage: pstat bench [options] [-e EVENTS]... [-n NAME]... COMMAND...";


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
	       "  -P, --parameter-scan VAR MIN MAX\n"
	       "                             the same for MIN, MIN + step, ... MAX\n"
	       "  -D, --parameter-step-size STEP\n"
	       "                             the step of -P (default 1)\n"
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
	       "      --conclude CMD         run CMD after each run (once, or once\n"
	       "                             per command)\n"
	       "  -s, --setup CMD            run CMD before the first round (once,\n"
	       "                             or once per command)\n"
	       "  -c, --cleanup CMD          run CMD after the last round (once, or\n"
	       "                             once per command)\n"
	       "  -S, --shell SHELL          run the commands with SHELL -c (default:\n"
	       "                             sh, only for those that need one)\n"
	       "                             none: split them into words\n"
	       "  -N, --shell=none           run the commands without a shell\n"
	       "  -i, --ignore-failure       keep going when a command fails\n"
	       "      --output WHERE         the commands' output: null (default),\n"
	       "                             pipe, inherit, or a FILE\n"
	       "      --show-output          --output inherit\n"
	       "      --input WHERE          the commands' input: null (default)\n"
	       "                             or a FILE\n"
	       "      --alpha A              significance level (default 0.05)\n"
	       "      --per N                divide the counters by N, the work a\n"
	       "                             run does (once, or once per command)\n"
	       "      --per-unit NAME=N      the same, naming the unit\n"
	       "      --fail-on-regression   exit 3 when a command regressed against\n"
	       "                             the first, as pstat compare finds\n"
	       "      --threshold SPEC       its limits, as for pstat compare\n"
	       "  -u, --time-unit UNIT       microsecond, millisecond or second\n"
	       "                             (default: per row, from its mean)\n"
	       "      --style STYLE          auto, full, basic, nocolor, color or\n"
	       "                             none (no report)\n"
	       "      --sort ORDER           the comparisons: auto (by mean time),\n"
	       "                             command or mean-time\n"
	       "  -j, --json                 one JSON document (pstat-bench/1)\n"
	       "  -o, --report FILE          the report or document to FILE\n"
	       "      --export-markdown FILE a Markdown table of the results\n"
	       "      --export-csv FILE      the results as CSV\n"
	       "      --export-json FILE     hyperfine's JSON document\n"
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
	OPT_CONCLUDE,
	OPT_EXPORT_CSV,
	OPT_EXPORT_JSON,
	OPT_EXPORT_MARKDOWN,
	OPT_FAIL_ON_REGRESSION,
	OPT_INPUT,
	OPT_ORDER,
	OPT_OUTPUT,
	OPT_PER,
	OPT_PER_UNIT,
	OPT_PLOT,
	OPT_SEED,
	OPT_SHOW_OUTPUT,
	OPT_SORT,
	OPT_STYLE,
	OPT_THRESHOLD,
};

/* Sorted by long name. */
static const struct option bench_long_opts[] = {
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "cleanup", required_argument, NULL, 'c' },
	{ "command-name", required_argument, NULL, 'n' },
	{ "conclude", required_argument, NULL, OPT_CONCLUDE },
	{ "event", required_argument, NULL, 'e' },
	{ "export-csv", required_argument, NULL, OPT_EXPORT_CSV },
	{ "export-json", required_argument, NULL, OPT_EXPORT_JSON },
	{ "export-markdown", required_argument, NULL, OPT_EXPORT_MARKDOWN },
	{ "fail-on-regression", no_argument, NULL, OPT_FAIL_ON_REGRESSION },
	{ "help", no_argument, NULL, 'h' },
	{ "ignore-failure", no_argument, NULL, 'i' },
	{ "input", required_argument, NULL, OPT_INPUT },
	{ "json", no_argument, NULL, 'j' },
	{ "max-runs", required_argument, NULL, 'M' },
	{ "min-runs", required_argument, NULL, 'm' },
	{ "order", required_argument, NULL, OPT_ORDER },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "parameter-list", required_argument, NULL, 'L' },
	{ "parameter-scan", required_argument, NULL, 'P' },
	{ "parameter-step-size", required_argument, NULL, 'D' },
	{ "per", required_argument, NULL, OPT_PER },
	{ "per-unit", required_argument, NULL, OPT_PER_UNIT },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "prepare", required_argument, NULL, 'p' },
	{ "report", required_argument, NULL, 'o' },
	{ "runs", required_argument, NULL, 'r' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "setup", required_argument, NULL, 's' },
	{ "shell", required_argument, NULL, 'S' },
	{ "show-output", no_argument, NULL, OPT_SHOW_OUTPUT },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ "style", required_argument, NULL, OPT_STYLE },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "time-unit", required_argument, NULL, 'u' },
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

/* Room for one more of a list of n given by opt (64 at most)? 0 or -1. */
static int room(size_t n, const char *opt)
{
	if (n < 64)
		return 0;
	msg_error("too many %s options (at most 64)", opt);
	return -1;
}

/* A positive number of units of work (--per), appended to o->per. */
static int per_number(struct bench_opts *o, const char *opt, const char *arg)
{
	uint64_t v;

	if (parse_u64(arg, UINT64_MAX, &v) || v == 0)
		return bad_value(opt, arg, "not a positive whole number");
	if (room(o->nper, opt))
		return -1;
	o->per[o->nper++] = (double)v;
	return 0;
}

/* Append s to list (of at most 64), or fail naming opt. */
static int push(const char **list, size_t *n, const char *s, const char *opt)
{
	if (room(*n, opt))
		return -1;
	list[(*n)++] = s;
	return 0;
}

/* -u: hyperfine's names, and the short ones. */
static int time_unit(struct bench_opts *o, const char *arg)
{
	static const struct {
		const char *name, *alias;
		enum bench_time_unit unit;
	} units[] = {
		{ "microsecond", "us", BENCH_UNIT_US },
		{ "millisecond", "ms", BENCH_UNIT_MS },
		{ "second", "s", BENCH_UNIT_S },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(arg, units[i].name) || !strcmp(arg, units[i].alias)) {
			o->time_unit = units[i].unit;
			return 0;
		}
	return bad_value("--time-unit", arg,
			 "use microsecond, millisecond or second");
}

/* --style: what of the terminal's effects to use (-1: when it is one). */
static int style(struct bench_opts *o, const char *arg)
{
	static const struct {
		const char *name;
		int color, progress, quiet;
	} styles[] = {
		{ "auto", -1, -1, 0 },  { "full", 1, 1, 0 },
		{ "basic", 0, 0, 0 },   { "nocolor", 0, -1, 0 },
		{ "color", 1, 0, 0 },   { "none", 0, 0, 1 },
	};

	for (size_t i = 0; i < sizeof(styles) / sizeof(styles[0]); i++)
		if (!strcmp(arg, styles[i].name)) {
			o->color = styles[i].color;
			o->progress = styles[i].progress;
			o->quiet = styles[i].quiet;
			return 0;
		}
	return bad_value("--style", arg,
			 "use auto, full, basic, nocolor, color or none");
}

static int bench_opt(struct bench_opts *o, int c, const char *arg)
{
	char *eq;

	switch (c) {
	case 'c':
		return push(o->cleanup, &o->ncleanup, arg, "--cleanup");
	case 'D':
		o->scan_step = arg;
		return 0;
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
		o->shell_given = 1;
		return 0;
	case 'n':
		return push(o->names, &o->nnames, arg, "-n");
	case 'o':
		/*
		 * hyperfine's --output takes these words; a report file
		 * named after one is almost surely that mistake, and
		 * writing it would be silent. ./null still names a file.
		 */
		if (!strcmp(arg, "null") || !strcmp(arg, "pipe") ||
		    !strcmp(arg, "inherit")) {
			msg_error("-o %s: the report file would be named '%s'",
				  arg, arg);
			msg_hint("the commands' output is --output %s; "
				 "a file of that name is ./%s", arg, arg);
			return -1;
		}
		o->report = arg;
		return 0;
	case 'p':
		return push(o->prepare, &o->nprepare, arg, "--prepare");
	case 'r':
		return number("--runs", arg, 1, UINT32_MAX, &o->runs);
	case 'S':
		o->shell_given = 1;
		o->shell = strcmp(arg, "none") ? arg : NULL;
		if (o->shell && !*o->shell)
			return bad_value("--shell", arg, "empty");
		return 0;
	case 's':
		return push(o->setup, &o->nsetup, arg, "--setup");
	case 'u':
		return time_unit(o, arg);
	case 'w':
		return number("--warmup", arg, 0, UINT32_MAX, &o->warmup);
	case OPT_ALPHA:
		return compare_parse_alpha(arg, &o->alpha) ?
			       bad_value("--alpha", arg,
					 "not a number between 0 and 1") :
			       0;
	case OPT_CONCLUDE:
		return push(o->conclude, &o->nconclude, arg, "--conclude");
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
	case OPT_INPUT:
		if (!*arg)
			return bad_value("--input", arg, "use null or a file");
		o->input = strcmp(arg, "null") ? arg : NULL;
		return 0;
	case OPT_OUTPUT:
		if (!*arg)
			return bad_value("--output", arg,
					 "use null, pipe, inherit or a file");
		o->cmd_output = arg;
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
		o->cmd_output = "inherit";
		return 0;
	case OPT_SORT:
		if (!strcmp(arg, "auto") || !strcmp(arg, "mean-time"))
			o->sort = !strcmp(arg, "auto") ? BENCH_SORT_AUTO :
							 BENCH_SORT_MEAN;
		else if (!strcmp(arg, "command"))
			o->sort = BENCH_SORT_COMMAND;
		else
			return bad_value("--sort", arg,
					 "use auto, command or mean-time");
		return 0;
	case OPT_STYLE:
		return style(o, arg);
	case OPT_THRESHOLD:
		return push(o->thresholds, &o->nthresholds, arg, "--threshold");
	}
	return -1;
}

/* A number of -P or -D: finite, at most 1e15 in size. */
static int scan_number(const char *opt, const char *arg, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	if (!*arg || *end || errno || !isfinite(*v) || fabs(*v) > 1e15)
		return bad_value(opt, arg, "not a number");
	return 0;
}

/* The decimals a number was written with ("0.25": 2). */
static int decimals(const char *s)
{
	const char *dot = strchr(s, '.');

	return dot ? (int)strspn(dot + 1, "0123456789") : 0;
}

/*
 * -P VAR MIN MAX [-D STEP]: the values MIN, MIN + STEP, ... up to MAX,
 * made a list as -L makes one. As hyperfine writes them (decimal sums):
 * MIN with its own decimals, each later value with those of the more
 * precise of MIN and STEP ("-P x 0 1 -D 0.25": 0, 0.25, ... 1.00); MAX's
 * do not count. 0 or -1 (reported).
 */
static int scan_values(struct bench_opts *o)
{
	const char *step_s = o->scan_step ? o->scan_step : "1";
	double lo, hi, step, n;
	int dec = decimals(o->scan[1]);
	char why[128];
	FILE *f;
	char *list = NULL;
	size_t len = 0;
	int r;

	if (scan_number("-P", o->scan[1], &lo) ||
	    scan_number("-P", o->scan[2], &hi) ||
	    scan_number("-D", step_s, &step))
		return -1;
	if (!(step > 0))
		return bad_value("-D", step_s, "not above 0");
	if (hi < lo) {
		msg_error("-P %s %s %s: the range ends below its start",
			  o->scan[0], o->scan[1], o->scan[2]);
		return -1;
	}
	n = floor((hi - lo) / step + 1e-9) + 1;
	if (n > BENCH_MAX_CMDS) {
		msg_error("-P %s %s %s makes more than %d commands",
			  o->scan[0], o->scan[1], o->scan[2], BENCH_MAX_CMDS);
		return -1;
	}
	if (decimals(step_s) > dec)
		dec = decimals(step_s);
	f = open_memstream(&list, &len);
	if (!f)
		return -1;
	for (int i = 0; i < (int)n; i++)
		fprintf(f, "%s%.*f", i ? "," : "",
			i ? dec : decimals(o->scan[1]), lo + i * step);
	fclose(f);
	/* the list lives as long as o: it is -L's from here on */
	o->scan_list = list;
	r = bench_params_add(&o->params, o->scan[0], list, why, sizeof(why));
	if (r)
		msg_error("invalid -P: %s", why);
	return r;
}

/*
 * Parse argv into o. Returns 0, 1 after --help, or -1 after reporting a
 * usage error.
 */
int bench_parse(int argc, char **argv, struct bench_opts *o)
{
	char why[128];
	int c;

	memset(o, 0, sizeof(*o));
	o->shell = "sh";
	o->min_runs = 10;
	o->alpha = COMPARE_DEFAULT_ALPHA;
	opterr = 0;
	optind = 0;
	o->color = o->progress = -1;
	while ((c = getopt_long(argc, argv, ":c:D:e:hijL:M:m:Nn:o:P:p:r:S:s:u:w:",
				bench_long_opts, NULL)) != -1) {
		if (c == 'P') {
			/* hyperfine's three arguments: VAR, MIN, MAX */
			if (o->scan[0]) {
				msg_error("-P is given once");
				return -1;
			}
			if (optind + 1 >= argc) {
				msg_error("-P %s needs its range too: -P VAR MIN MAX",
					  optarg);
				return -1;
			}
			o->scan[0] = optarg;
			o->scan[1] = argv[optind++];
			o->scan[2] = argv[optind++];
			continue;
		}
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
	if (o->scan_step && !o->scan[0]) {
		msg_error("-D (--parameter-step-size) needs -P");
		return -1;
	}
	if (o->scan[0] && scan_values(o))
		return -1;
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
	    (o->nconclude > 1 && o->nconclude != o->ncmds) ||
	    (o->nsetup > 1 && o->nsetup != o->ncmds) ||
	    (o->ncleanup > 1 && o->ncleanup != o->ncmds)) {
		msg_error("--prepare, --conclude, --setup and --cleanup are given once, or once per command (%zu)",
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

void bench_opts_free(struct bench_opts *o)
{
	for (size_t c = 0; o->cmds && c < o->ncmds; c++) {
		free(o->cmds[c]);
		free(o->cmd_names[c]);
	}
	free(o->cmds);
	free(o->scan_list);
	bench_params_free(&o->params, &o->exp);
}

