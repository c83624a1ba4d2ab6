/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/metrics_cli.h"
#include "cli/options.h"
#include "events/pfm.h"
#include "report/print.h"
#include "run/session.h"

enum {
	OPT_ALPHA = 256,
	OPT_APPEND,
	OPT_BASELINE,
	OPT_COMPARE_FORMAT,
	OPT_COMPARE_OUTPUT,
	OPT_CONTROL,
	OPT_DRY_RUN,
	OPT_FAIL_ON,
	OPT_FOR_EACH_CGROUP,
	OPT_FORMAT,
	OPT_INTERVAL_COUNT,
	OPT_JSON_OUTPUT,
	OPT_KEEP_ON_EXIT,
	OPT_LOG_FD,
	OPT_METRIC,
	OPT_METRIC_NO_GROUP,
	OPT_METRIC_ONLY,
	OPT_METRICS_FILE,
	OPT_NO_BIG_NUM,
	OPT_NO_CSV_SUMMARY,
	OPT_NO_MERGE,
	OPT_OPENMETRICS,
	OPT_PER_CACHE,
	OPT_PER_CLUSTER,
	OPT_PER_CORE,
	OPT_PER_DIE,
	OPT_PER_NODE,
	OPT_PER_SOCKET,
	OPT_PER_THREAD,
	OPT_POST,
	OPT_PRE,
	OPT_PROMETHEUS,
	OPT_QUIET,
	OPT_SIM,
	OPT_SIM_CACHE,
	OPT_SIM_SIMULATE,
	OPT_SIM_TOGGLE_COLLECT,
	OPT_SUMMARY,
	OPT_TD_LEVEL,
	OPT_THRESHOLD,
	OPT_TIMEOUT,
	OPT_TOPDOWN,
	OPT_WAIT_CLOSE,
	OPT_WARMUP,
};

/* Sorted by long name. */
static const struct option long_opts[] = {
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "append", no_argument, NULL, OPT_APPEND },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "big-num", no_argument, NULL, 'B' },
	{ "cgroup", required_argument, NULL, 'G' },
	{ "compare-format", required_argument, NULL, OPT_COMPARE_FORMAT },
	{ "compare-output", required_argument, NULL, OPT_COMPARE_OUTPUT },
	{ "control", required_argument, NULL, OPT_CONTROL },
	{ "cpu", required_argument, NULL, 'C' },
	{ "delay", required_argument, NULL, 'D' },
	{ "detailed", no_argument, NULL, 'd' },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "event", required_argument, NULL, 'e' },
	{ "fail-on", required_argument, NULL, OPT_FAIL_ON },
	{ "field-separator", required_argument, NULL, 'x' },
	{ "for-each-cgroup", required_argument, NULL, OPT_FOR_EACH_CGROUP },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "help", no_argument, NULL, 'h' },
	{ "interval", required_argument, NULL, 'I' },
	{ "interval-count", required_argument, NULL, OPT_INTERVAL_COUNT },
	{ "interval-print", required_argument, NULL, 'I' },
	{ "json", optional_argument, NULL, 'j' },
	{ "json-output", no_argument, NULL, OPT_JSON_OUTPUT },
	{ "keep-on-exit", no_argument, NULL, OPT_KEEP_ON_EXIT },
	{ "log-fd", required_argument, NULL, OPT_LOG_FD },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "metric-no-group", no_argument, NULL, OPT_METRIC_NO_GROUP },
	{ "metric-only", no_argument, NULL, OPT_METRIC_ONLY },
	{ "metrics", required_argument, NULL, 'M' },
	{ "metrics-file", required_argument, NULL, OPT_METRICS_FILE },
	{ "no-aggr", no_argument, NULL, 'A' },
	{ "no-big-num", no_argument, NULL, OPT_NO_BIG_NUM },
	{ "no-csv-summary", no_argument, NULL, OPT_NO_CSV_SUMMARY },
	{ "no-inherit", no_argument, NULL, 'i' },
	{ "no-merge", no_argument, NULL, OPT_NO_MERGE },
	{ "null", no_argument, NULL, 'n' },
	{ "openmetrics", no_argument, NULL, OPT_OPENMETRICS },
	{ "output", required_argument, NULL, 'o' },
	{ "per-cache", optional_argument, NULL, OPT_PER_CACHE },
	{ "per-cluster", no_argument, NULL, OPT_PER_CLUSTER },
	{ "per-core", no_argument, NULL, OPT_PER_CORE },
	{ "per-die", no_argument, NULL, OPT_PER_DIE },
	{ "per-node", no_argument, NULL, OPT_PER_NODE },
	{ "per-socket", no_argument, NULL, OPT_PER_SOCKET },
	{ "per-thread", no_argument, NULL, OPT_PER_THREAD },
	{ "pid", required_argument, NULL, 'p' },
	{ "post", required_argument, NULL, OPT_POST },
	{ "pre", required_argument, NULL, OPT_PRE },
	{ "prometheus", no_argument, NULL, OPT_PROMETHEUS },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "repeat", required_argument, NULL, 'r' },
	{ "sim", no_argument, NULL, OPT_SIM },
	{ "sim-cache", required_argument, NULL, OPT_SIM_CACHE },
	{ "sim-simulate", required_argument, NULL, OPT_SIM_SIMULATE },
	{ "sim-toggle-collect", required_argument, NULL,
	  OPT_SIM_TOGGLE_COLLECT },
	{ "summary", no_argument, NULL, OPT_SUMMARY },
	{ "sync", no_argument, NULL, 'S' },
	{ "td-level", required_argument, NULL, OPT_TD_LEVEL },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "tid", required_argument, NULL, 't' },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "topdown", no_argument, NULL, OPT_TOPDOWN },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ "wait-close", no_argument, NULL, OPT_WAIT_CLOSE },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ NULL, 0, NULL, 0 },
};

/*
 * pstat's version, then those of the libraries it runs with, one a line
 * (as bpftool -V): a bug report then says which libpfm4 knew which CPU.
 */
static void options_version(void)
{
	struct pstat_error err = { "", -1 };
	char pfm[128];

	printf("pstat %s\n", PSTAT_VERSION);
	printf("jansson %s\n", print_json_library_version());
	if (pfm_library_version(pfm, sizeof(pfm), &err))
		printf("libpfm4 unavailable: %s\n", err.msg);
	else
		printf("libpfm4 %s\n", pfm);
}

/*
 * A value out of its range says the range (-r 0, -I 0); so does a
 * negative one, which is not a number to parse_u64.
 */
static int bad_number(const char *opt, const char *arg, int r,
		      uint64_t min, uint64_t max, const char *help)
{
	if (r != -ERANGE && arg[0] == '-' && arg[1] >= '0' && arg[1] <= '9')
		r = -ERANGE;
	if (r == -ERANGE)
		msg_error("invalid value '%s' for %s: out of range (%llu to %llu)",
			  arg, opt, (unsigned long long)min,
			  (unsigned long long)max);
	else
		msg_error("invalid value '%s' for %s: not a number", arg, opt);
	msg_hint("see '%s'", help);
	return -1;
}

int options_number(const char *opt, const char *arg, uint64_t min,
		   uint64_t max, uint64_t *out, const char *help)
{
	int r = parse_u64(arg, max, out);

	if (!r && *out < min)
		r = -ERANGE;
	return r ? bad_number(opt, arg, r, min, max, help) : 0;
}

static int number(const char *opt, const char *arg, uint64_t min,
		  uint64_t max, uint64_t *out)
{
	return options_number(opt, arg, min, max, out, "pstat --help");
}

static int parse_fail_on(const char *arg, unsigned *out)
{
	char *s = xstrdup(arg), *save = NULL;
	int r = 0;

	*out = 0;
	for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, "not-supported"))
			*out |= FAIL_ON_NOT_SUPPORTED;
		else if (!strcmp(t, "not-counted"))
			*out |= FAIL_ON_NOT_COUNTED;
		else if (!strcmp(t, "multiplexed"))
			*out |= FAIL_ON_MULTIPLEXED;
		else {
			msg_usage("invalid --fail-on state '%s': use not-supported, not-counted, multiplexed",
				  t);
			r = -1;
			break;
		}
	}
	if (!r && !*out) {
		msg_usage("empty --fail-on list");
		r = -1;
	}
	free(s);
	return r;
}

/* Growable arrays of repeated options. */
struct repeated {
	size_t events, thresholds, cgroups, metrics, metric_defs, metric_files;
	size_t sim_caches, sim_toggles;
};

/*
 * --per-socket, --per-die, --per-cluster, --per-cache[=LEVEL],
 * --per-core, --per-node: the last one given counts, as in perf.
 * LEVEL is perf's spelling, L2 or l3. Returns 0 or -1 (usage error).
 */
static int aggr_set(struct pstat_opts *o, int c, char **argv)
{
	static const struct {
		int opt;
		enum pstat_aggr_mode mode;
		const char *name;
	} modes[] = {
		{ OPT_PER_CACHE, AGGR_CACHE, "--per-cache" },
		{ OPT_PER_CLUSTER, AGGR_CLUSTER, "--per-cluster" },
		{ OPT_PER_CORE, AGGR_CORE, "--per-core" },
		{ OPT_PER_DIE, AGGR_DIE, "--per-die" },
		{ OPT_PER_NODE, AGGR_NODE, "--per-node" },
		{ OPT_PER_SOCKET, AGGR_SOCKET, "--per-socket" },
	};

	(void)argv;
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		if (modes[i].opt != c)
			continue;
		o->aggr = modes[i].mode;
		o->aggr_opt = modes[i].name;
	}
	o->aggr_cache_level = 0;
	if (c == OPT_PER_CACHE && optarg) {
		uint64_t level;

		if ((optarg[0] != 'L' && optarg[0] != 'l') ||
		    parse_u64(optarg + 1, TOPO_MAX_CACHE_LEVEL, &level) ||
		    !level) {
			msg_usage("invalid --per-cache level '%s' (L1 to L%d)",
				  optarg, TOPO_MAX_CACHE_LEVEL);
			return -1;
		}
		o->aggr_cache_level = (int)level;
	}
	return 0;
}

/*
 * Take option c (getopt_long's value) with optarg. Returns 0 to go on,
 * 1 when --help or --version was handled, or -1 after a usage error.
 */
static int option_set(struct pstat_opts *o, int c, char **argv,
		      struct repeated *alloc)
{
	uint64_t v;
	int r;

	switch (c) {
	case 'A':
		o->no_aggr = 1;
		break;
	case 'a':
		o->all_cpus = 1;
		break;
	case 'B':
		o->big_num = 1;
		break;
	case 'C':
		o->cpu_list = optarg;
		break;
	case 'D':
		/* -1: disabled until --control enables counting */
		o->start_disabled = !strcmp(optarg, "-1");
		if (o->start_disabled)
			o->delay_ms = 0;
		else if ((r = parse_u64(optarg, UINT32_MAX, &o->delay_ms))) {
			/* -1 is --control's; the rest is a delay */
			msg_error("invalid value '%s' for -D: %s (-1, or 0 to %u ms)",
				  optarg,
				  r == -ERANGE || optarg[0] == '-' ? "out of range"
								   : "not a number",
				  UINT32_MAX);
			msg_hint("see 'pstat --help'");
			return -1;
		}
		break;
	case 'd':
		o->detailed++;
		break;
	case 'e':
		xgrow((void **)&o->events, &alloc->events, o->nevents + 1,
		      sizeof(*o->events));
		o->events[o->nevents++] = optarg;
		break;
	case 'G':
		xgrow((void **)&o->cgroups, &alloc->cgroups, o->ncgroups + 1,
		      sizeof(*o->cgroups));
		o->cgroups[o->ncgroups++] =
			(struct pstat_cgroup_arg){ optarg, o->nevents };
		break;
	case 'h':
		options_usage();
		return 1;
	case 'I':
		if (number("-I", optarg, 1, UINT32_MAX, &o->interval_ms))
			return -1;
		break;
	case 'i':
		o->no_inherit = 1;
		break;
	case 'j':
		/* --json=perf: perf stat 6.1's lines; -j, --json: pstat/1 */
		if (optarg && !strcmp(optarg, "perf")) {
			o->json = 2;
		} else if (optarg && strcmp(optarg, "pstat")) {
			msg_usage("invalid --json format '%s': pstat (pstat/1, the default) or perf (perf stat 6.1's lines)",
				  optarg);
			return -1;
		} else {
			o->json = 1;
		}
		break;
	case 'M':
		xgrow((void **)&o->metrics, &alloc->metrics, o->nmetrics + 1,
		      sizeof(*o->metrics));
		o->metrics[o->nmetrics++] = optarg;
		break;
	case 'n':
		o->null_run = 1;
		break;
	case 'o':
		o->output = optarg;
		break;
	case 'p':
		o->pids = optarg;
		break;
	case 'r':
		if (number("-r", optarg, 1, 1000000, &o->repeat))
			return -1;
		break;
	case 'S':
		o->sync = 1;
		break;
	case 't':
		o->tids = optarg;
		break;
	case 'V':
		options_version();
		return 1;
	case 'v':
		msg_verbose++;
		break;
	case 'x':
		if (!*optarg) {
			msg_usage("empty field separator for -x");
			return -1;
		}
		/* a quote or a line break would make lines unsplittable */
		if (strpbrk(optarg, "\"\n\r")) {
			msg_usage("invalid field separator for -x: a quote or a line break cannot separate CSV fields");
			return -1;
		}
		o->csv_sep = optarg;
		break;
	case OPT_ALPHA:
		o->alpha = optarg;
		break;
	case OPT_APPEND:
		o->append = 1;
		break;
	case OPT_BASELINE:
		o->baseline = optarg;
		break;
	case OPT_COMPARE_FORMAT:
		o->compare_format = optarg;
		o->compare_format_opt = "--compare-format";
		break;
	case OPT_COMPARE_OUTPUT:
		o->compare_output = optarg;
		break;
	case OPT_CONTROL: {
		struct pstat_error err;

		control_spec_free(&o->control);
		if (control_parse(optarg, &o->control, &err)) {
			msg_usage("%s", err.msg);
			return -1;
		}
		o->have_control = 1;
		break;
	}
	case OPT_DRY_RUN:
		o->dry_run = 1;
		break;
	case OPT_FAIL_ON:
		if (parse_fail_on(optarg, &o->fail_on))
			return -1;
		break;
	case OPT_FOR_EACH_CGROUP:
		o->for_each_cgroup = optarg;
		break;
	case OPT_FORMAT:
		o->compare_format = optarg;
		o->compare_format_opt = "--format";
		break;
	case OPT_INTERVAL_COUNT:
		if (number("--interval-count", optarg, 1, UINT32_MAX,
			   &o->interval_count))
			return -1;
		break;
	case OPT_JSON_OUTPUT:
		/* perf's spelling of -j: a script using it wants perf's lines */
		o->json = 2;
		break;
	case OPT_KEEP_ON_EXIT:
		o->keep_on_exit = 1;
		break;
	case OPT_LOG_FD:
		if (number("--log-fd", optarg, 0, INT32_MAX, &v))
			return -1;
		o->log_fd = (int)v;
		break;
	case OPT_METRIC:
		xgrow((void **)&o->metric_defs, &alloc->metric_defs,
		      o->nmetric_defs + 1, sizeof(*o->metric_defs));
		o->metric_defs[o->nmetric_defs++] = optarg;
		break;
	case OPT_METRIC_NO_GROUP:
		o->metric_no_group = 1;
		break;
	case OPT_METRIC_ONLY:
		o->metric_only = 1;
		break;
	case OPT_METRICS_FILE:
		xgrow((void **)&o->metric_files, &alloc->metric_files,
		      o->nmetric_files + 1, sizeof(*o->metric_files));
		o->metric_files[o->nmetric_files++] = optarg;
		break;
	case OPT_NO_BIG_NUM:
		o->big_num = 0;
		break;
	case OPT_NO_CSV_SUMMARY:
		o->no_csv_summary = 1;
		break;
	case OPT_NO_MERGE:
		o->no_merge = 1;
		break;
	case OPT_OPENMETRICS:
	case OPT_PROMETHEUS:
		if (o->openmetrics &&
		    o->openmetrics != (c == OPT_OPENMETRICS ? 1 : 2)) {
			msg_usage("--openmetrics and --prometheus cannot be combined");
			return -1;
		}
		o->openmetrics = c == OPT_OPENMETRICS ? 1 : 2;
		o->openmetrics_opt = c == OPT_OPENMETRICS ? "--openmetrics"
							  : "--prometheus";
		break;
	case OPT_PER_CACHE:
	case OPT_PER_CLUSTER:
	case OPT_PER_CORE:
	case OPT_PER_DIE:
	case OPT_PER_NODE:
	case OPT_PER_SOCKET:
		return aggr_set(o, c, argv);
	case OPT_PER_THREAD:
		o->per_thread = 1;
		break;
	case OPT_POST:
		o->post_cmd = optarg;
		break;
	case OPT_PRE:
		o->pre_cmd = optarg;
		break;
	case OPT_QUIET:
		o->quiet = 1;
		break;
	case OPT_SIM:
		o->sim = 1;
		break;
	case OPT_SIM_CACHE:
		xgrow((void **)&o->sim_caches, &alloc->sim_caches,
		      o->nsim_caches + 1, sizeof(*o->sim_caches));
		o->sim_caches[o->nsim_caches++] = optarg;
		break;
	case OPT_SIM_SIMULATE:
		o->sim_simulate = optarg;
		break;
	case OPT_SIM_TOGGLE_COLLECT:
		xgrow((void **)&o->sim_toggles, &alloc->sim_toggles,
		      o->nsim_toggles + 1, sizeof(*o->sim_toggles));
		o->sim_toggles[o->nsim_toggles++] = optarg;
		break;
	case OPT_SUMMARY:
		o->summary = 1;
		break;
	case OPT_TD_LEVEL:
		if (number("--td-level", optarg, 1, 6, &o->td_level))
			return -1;
		break;
	case OPT_THRESHOLD:
		xgrow((void **)&o->thresholds, &alloc->thresholds,
		      o->nthresholds + 1, sizeof(*o->thresholds));
		o->thresholds[o->nthresholds++] = optarg;
		break;
	case OPT_TIMEOUT:
		if (number("--timeout", optarg, 1, UINT32_MAX,
			   &o->timeout_ms))
			return -1;
		break;
	case OPT_TOPDOWN:
		if (!o->td_level)
			o->td_level = 1;
		break;
	case OPT_WAIT_CLOSE:
		o->wait_close = 1;
		break;
	case OPT_WARMUP:
		if (number("--warmup", optarg, 0, 1000000, &o->warmup))
			return -1;
		break;
	default:
		if (c != ':' && options_refused(optopt, argv[optind - 1]))
			return -1;
		msg_bad_option(c, optopt, argv[optind - 1], NULL,
			       "see 'pstat --help'");
		return -1;
	}
	return 0;
}

/* What single options cannot tell: combinations. Returns 0 or -1. */
static int options_check(const struct pstat_opts *o)
{
	if (o->ncgroups && o->for_each_cgroup) {
		msg_error("-G and --for-each-cgroup cannot be combined");
		return -1;
	}
	/*
	 * perf: "must define events before cgroups"; a -G before any -e
	 * names the cgroups of the metrics alone (-a -G A -M X)
	 */
	if (o->ncgroups && !o->cgroups[0].after && !metrics_cli_wanted(o)) {
		msg_error("-G %s: no events before it: -G names the cgroups of the events listed before it (-e a,b -G x,y)",
			  o->cgroups[0].list);
		return -1;
	}
	if ((o->ncgroups || o->for_each_cgroup) && !o->all_cpus &&
	    !o->cpu_list && !o->dry_run) {
		msg_error("%s needs -a or -C: cgroups are counted on whole CPUs",
			  o->ncgroups ? "-G" : "--for-each-cgroup");
		return -1;
	}
	if (o->csv_sep && o->big_num == 1) {
		msg_usage("-x and -B cannot be combined: CSV numbers are never grouped");
		return -1;
	}
	if (o->csv_sep && o->json) {
		msg_usage("-x and -j cannot be combined");
		return -1;
	}
	if (o->openmetrics && (o->json || o->csv_sep)) {
		msg_usage("%s and %s cannot be combined",
			  o->openmetrics_opt, o->json ? "-j" : "-x");
		return -1;
	}
	if (o->openmetrics && o->big_num == 1) {
		msg_usage("%s and -B cannot be combined: its numbers are never grouped",
			  o->openmetrics_opt);
		return -1;
	}
	/* a mean of runs is no counter: its samples could go backwards */
	if (o->openmetrics && o->repeat > 1) {
		msg_usage("%s and -r cannot be combined: its counters are totals, not means of runs",
			  o->openmetrics_opt);
		return -1;
	}
	if (o->openmetrics && o->append) {
		msg_usage("%s and --append cannot be combined: an exposition is one document",
			  o->openmetrics_opt);
		return -1;
	}
	if (o->interval_count && !o->interval_ms) {
		msg_usage("--interval-count needs -I MS");
		return -1;
	}
	if (o->log_fd >= 0 && o->output) {
		msg_usage("-o and --log-fd cannot be combined");
		return -1;
	}
	if (o->append && o->log_fd < 0 &&
	    (!o->output || !strcmp(o->output, "-"))) {
		msg_usage("--append needs -o FILE or --log-fd FD");
		return -1;
	}
	if (!o->baseline && (o->nthresholds || o->alpha ||
			     o->compare_format || o->compare_output)) {
		msg_usage("%s needs --baseline FILE",
			  o->nthresholds ? "--threshold" :
			  o->alpha ? "--alpha" :
			  o->compare_format ? o->compare_format_opt :
					      "--compare-output");
		return -1;
	}
	if (o->compare_output && o->output &&
	    !strcmp(o->compare_output, o->output)) {
		msg_usage("--compare-output and -o name the same file '%s'",
			  o->output);
		return -1;
	}
	if (o->compare_output && o->baseline &&
	    !strcmp(o->compare_output, o->baseline)) {
		msg_usage("--compare-output would overwrite the baseline '%s'",
			  o->baseline);
		return -1;
	}
	if ((o->pre_cmd || o->post_cmd) && !o->argv) {
		msg_usage("%s needs a command", o->pre_cmd ? "--pre" : "--post");
		return -1;
	}
	if (o->baseline && o->output && !strcmp(o->output, "-") &&
	    !o->compare_output) {
		msg_usage("-o - and the comparison would both go to stdout: give --compare-output FILE");
		return -1;
	}
	if (o->quiet && o->output) {
		msg_usage("--quiet prints no report: -o has nothing to write");
		return -1;
	}
	if (o->baseline && o->dry_run) {
		msg_usage("--baseline and --dry-run cannot be combined");
		return -1;
	}
	return 0;
}

int options_parse(int argc, char **argv, struct pstat_opts *o)
{
	struct repeated alloc = { 0 };
	int c, r;

	memset(o, 0, sizeof(*o));
	o->big_num = -1;
	o->log_fd = -1;
	o->repeat = 1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:AaBC:D:de:G:hiI:jM:no:p:r:St:vVx:",
				long_opts, NULL)) != -1)
		if ((r = option_set(o, c, argv, &alloc)))
			return r;
	if (optind < argc) {
		o->argv = argv + optind;
		o->argc = argc - optind;
	}
	if (options_check(o))
		return -1;
	return 0;
}

void options_free(struct pstat_opts *o)
{
	free(o->events);
	o->events = NULL;
	free(o->thresholds);
	o->thresholds = NULL;
	free(o->cgroups);
	o->cgroups = NULL;
	control_spec_free(&o->control);
	free(o->metrics);
	o->metrics = NULL;
	free(o->metric_defs);
	o->metric_defs = NULL;
	free(o->metric_files);
	o->metric_files = NULL;
	free(o->sim_caches);
	o->sim_caches = NULL;
	free(o->sim_toggles);
	o->sim_toggles = NULL;
}
