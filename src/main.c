/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/caps.h"
#include "base/cpumap.h"
#include "base/msg.h"
#include "base/secure.h"
#include "base/topology.h"
#include "base/util.h"
#include "cli/bench_cli.h"
#include "cli/cgroup_args.h"
#include "cli/doctor.h"
#include "cli/dry_run.h"
#include "cli/event_lists.h"
#include "cli/list.h"
#include "cli/metrics_cli.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/serve.h"
#include "cli/sim_cli.h"
#include "cli/targets.h"
#include "cli/tracefs.h"
#include "compare/compare_cli.h"
#include "events/encode.h"
#include "events/evspec.h"
#include "events/pfm.h"
#include "events/pmu.h"
#include "events/tracepoint.h"
#include "report/print.h"
#include "run/cgroup.h"
#include "run/counter.h"
#include "run/session.h"
#include "run/target.h"

/* perf stat's default events; with -a or -C it counts cpu-clock first. */
#define DEFAULT_EVENTS_REST \
	"context-switches,cpu-migrations,page-faults,cycles,instructions," \
	"branches,branch-misses"
static const char DEFAULT_EVENTS[] = "task-clock," DEFAULT_EVENTS_REST;
static const char DEFAULT_EVENTS_CPUS[] = "cpu-clock," DEFAULT_EVENTS_REST;

/*
 * What perf stat's -d, -dd and -ddd add, each level to the ones before:
 * the generic cache events perf opens for them, in perf's order.
 */
static const char *const DETAILED_EVENTS[] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	/* (in parentheses: one entry, not two with a comma missing) */
	("L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,"
	 "iTLB-loads,iTLB-load-misses"),
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

/*
 * The event lists to encode, in order: the -e lists, or perf's defaults
 * without them (none with -n or with metrics), then those of -d (not
 * with -n, as in perf). New array of borrowed strings; *n its length.
 */
static const char **event_lists(const struct pstat_opts *o, size_t *n)
{
	size_t detailed = o->null_run ? 0 : (size_t)o->detailed;
	const char **lists;

	if (detailed > ARRAY_SIZE(DETAILED_EVENTS))
		detailed = ARRAY_SIZE(DETAILED_EVENTS);
	lists = xcalloc(o->nevents + 1 + detailed, sizeof(*lists));
	*n = 0;
	for (size_t i = 0; i < o->nevents; i++)
		lists[(*n)++] = o->events[i];
	/* metrics without -e: their events alone, as perf -M */
	if (!o->nevents && !o->null_run && !metrics_cli_wanted(o))
		lists[(*n)++] = o->sim ? SIM_DEFAULT_EVENTS :
				o->all_cpus || o->cpu_list ? DEFAULT_EVENTS_CPUS :
							     DEFAULT_EVENTS;
	/* sim has none of the TLB and prefetch events of -dd and -ddd */
	for (size_t i = 0; i < detailed && (!o->sim || !i); i++)
		lists[(*n)++] = o->sim ? SIM_DETAILED_EVENTS
				       : DETAILED_EVENTS[i];
	return lists;
}

/*
 * The events of the run: those listed, then the metrics' (sharing the
 * listed ones' counts), then the cgroups, so that the metrics' events
 * count in them too: --for-each-cgroup repeats the whole list, metrics'
 * events with it; with -G the metrics' events are encoded apart and
 * counted once per cgroup -G names. *copies says how the metrics read
 * them.
 */
static int build_events(const struct pstat_opts *o,
			struct pstat_encode_ctx *ctx,
			struct pstat_evlist *evl, struct metrics_cli *mc,
			struct cgroup_copies *copies)
{
	size_t n;
	const char **lists = event_lists(o, &n);
	size_t *ends = xcalloc(n + 1, sizeof(*ends));
	struct pstat_evlist mevl = { 0 };
	bool apart = o->ncgroups && metrics_cli_wanted(o);
	int r = event_lists_encode(lists, n, ctx, evl, ends);

	free(lists);
	if (!r)
		r = metrics_cli_build(mc, o, ctx, env_root("PSTAT_SYSFS_ROOT"),
				      apart ? &mevl : evl);
	if (!r)
		r = cgroup_args_apply(o, ends, evl, copies);
	if (!r && apart)
		r = cgroup_args_metrics(o, evl, &mevl, mc->input_row,
					mc->set.ninputs, copies);
	if (!r && o->no_merge)
		evlist_no_merge(evl);
	evlist_free(&mevl);
	free(ends);
	return r;
}

/*
 * SIGINT, SIGTERM and the other signals that end a run wait, blocked,
 * until the session installs its handlers: one that comes while a long
 * event list is resolved or the counters open must still end in a
 * report, not kill pstat first. The session unblocks them only while it
 * waits (see session.c).
 */
static void block_signals(void)
{
	sigset_t set;

	target_ending_signals(&set);
	sigprocmask(SIG_BLOCK, &set, NULL);
	target_ignore_signals();
}

/*
 * Help, --version and other text on stdout: a write that failed (a full
 * disk, a closed pipe) must not end in status 0. Run at exit, as
 * gnulib's close_stdout; quiet for a reader that went away.
 */
/* the session saw its reader go (EPIPE) and exits 141 for it already */
static int stdout_reader_gone;

static void close_stdout(void)
{
	/*
	 * A text longer than stdio's buffer (--help) fails while it is
	 * written, not at the close: the error flag remembers it, and
	 * errno still says why.
	 */
	int failed = ferror(stdout);

	/*
	 * "-o - | head -1": the error flag is that EPIPE, long ago, and
	 * errno is no longer its own
	 */
	if (stdout_reader_gone)
		return;

	if ((fclose(stdout) == 0 || errno == EBADF) && !failed)
		return;
	if (errno == EPIPE)
		_exit(EXIT_BROKEN_PIPE);
	/* one error line: what failed to write may have said so already */
	if (!msg_errors)
		msg_error("cannot write to the standard output: %s",
			  strerror(errno));
	_exit(EXIT_PSTAT_FAILED);
}

/* --baseline and its options: read the baseline into b. */
static int baseline_load(const struct pstat_opts *o,
			 struct pstat_baseline *b)
{
	sigset_t ending;
	struct outfile_wait wait = { &ending, o->timeout_ms, 0,
				     output_wait_signals };
	struct pstat_baseline_cfg bc = {
		.path = o->baseline,
		.thresholds = o->thresholds,
		.nthresholds = o->nthresholds,
		.alpha = o->alpha,
		.format = o->compare_format,
		.format_opt = o->compare_format_opt,
		.output = o->compare_output,
		.wait = &wait,
	};

	return compare_cli_baseline_load(b, &bc);
}

/* The output's name in messages. */
static const char *output_name(const char *path)
{
	return !path ? "stderr" : !strcmp(path, "-") ? "stdout" : path;
}

/* The same of the run's report, which --log-fd may send elsewhere. */
static const char *report_name(const struct pstat_opts *o)
{
	static char fd[32];

	if (o->log_fd < 0)
		return output_name(o->output);
	snprintf(fd, sizeof(fd), "descriptor %d", o->log_fd);
	return fd;
}

/* The one printer of the run, chosen from -j, -x and -B (new). */
static struct pstat_printer *make_printer(const struct pstat_opts *o,
					  FILE *out)
{
	struct pstat_print_cfg pc = { 0 };

	pc.format = o->quiet ? FORMAT_NONE : o->json == 2 ? FORMAT_JSON_PERF :
		    o->json ? FORMAT_JSON :
		    o->csv_sep ? FORMAT_CSV :
		    o->openmetrics ? FORMAT_OPENMETRICS : FORMAT_TABLE;
	/* errors are still said: the status alone would not tell which */
	msg_quiet = o->quiet || (pc.format != FORMAT_TABLE && !o->output &&
				 o->log_fd < 0);
	pc.csv_sep = o->csv_sep;
	pc.no_csv_summary = o->no_csv_summary;
	pc.no_interval_summary = !o->summary && (pc.format == FORMAT_TABLE ||
						 pc.format == FORMAT_CSV ||
						 pc.format == FORMAT_JSON_PERF);
	pc.om_dialect = o->openmetrics == 2 ? OM_PROMETHEUS : OM_OPENMETRICS;
	pc.is_tty = isatty(fileno(out));
	/* as perf: on a terminal, in a file and into a pipe alike */
	pc.big_num = o->big_num >= 0 ? o->big_num : 1;
	pc.started_header = o->output && strcmp(o->output, "-");
	pc.repeat = o->repeat > 1 ? (unsigned)o->repeat : 0;
	pc.metric_only = o->metric_only;
	return printer_new(&pc, out);
}

/*
 * The topology --per-socket and the like add up by: PSTAT_SYSFS_ROOT's
 * when it has one (tests), else the machine's; NULL when neither can be
 * read, which makes every CPU a core of its own in socket 0.
 */
static struct pstat_topo *load_topology(void)
{
	const char *root = env_root("PSTAT_SYSFS_ROOT");
	struct pstat_topo *topo = NULL;
	struct pstat_error err;

	if (topo_load(root, &topo, &err) && root)
		topo_load(NULL, &topo, &err);
	return topo;
}

/* The session's own record of what to count, how and where to print. */
static void session_cfg_fill(struct pstat_session_cfg *cfg,
			     const struct pstat_opts *o,
			     const struct targets *t,
			     const struct pstat_evlist *evl,
			     const struct metrics_cli *mc,
			     struct pstat_printer *printer)
{
	cfg->evl = evl;
	cfg->argv = o->argv;
	cfg->kind = t->kind;
	cfg->pids = t->pids;
	cfg->npids = t->npids;
	cfg->tids = t->tids;
	cfg->ntids = t->ntids;
	cfg->cpus = t->cpus;
	cfg->ncpus = t->ncpus;
	cfg->cpu_subset = o->cpu_list != NULL;
	/* -t: exactly those threads, not those they start */
	cfg->inherit = !o->no_inherit && t->kind != TARGET_TID;
	cfg->no_aggr = o->no_aggr;
	cfg->per_thread = o->per_thread;
	cfg->all_threads = t->all_threads;
	cfg->aggr = o->aggr;
	cfg->aggr_cache_level = o->aggr_cache_level;
	cfg->timeout_ms = o->timeout_ms;
	cfg->delay_ms = o->delay_ms;
	cfg->start_disabled = o->start_disabled;
	cfg->control = o->have_control ? &o->control : NULL;
	cfg->interval_ms = o->interval_ms;
	cfg->interval_count = o->interval_count;
	cfg->repeat = (unsigned)o->repeat;
	cfg->warmup = (unsigned)o->warmup;
	cfg->wait_close = o->wait_close;
	cfg->keep_on_exit = o->keep_on_exit;
	cfg->pre_cmd = o->pre_cmd;
	cfg->sync = o->sync;
	cfg->post_cmd = o->post_cmd;
	cfg->fail_on = o->fail_on;
	cfg->printer = printer;
	cfg->output_name = report_name(o);
	cfg->sysfs_root = env_root("PSTAT_SYSFS_ROOT");
	if (mc->active) {
		cfg->metrics = &mc->set;
		cfg->metric_input_row = mc->input_row;
		cfg->metric_consts = &mc->lib.consts;
		cfg->perf_default_rows = mc->perf_default_rows;
	}
}

static int subcommand(int argc, char **argv);

/* pstat serve --help. */
static int serve_help(void)
{
	char *args[] = { (char *)"serve", (char *)"--help", NULL };
	struct pstat_opts o;
	struct serve *sv = NULL;
	int r = serve_options_parse(2, args, &o, &sv);

	serve_free(sv);
	options_free(&o);
	return r > 0 ? 0 : EXIT_PSTAT_FAILED;
}

/*
 * pstat help [SUBCOMMAND]: pstat's usage, or the subcommand's (its
 * --help). Returns the exit status.
 */
static int cmd_help(int argc, char **argv)
{
	static const char *const subs[] = { "list", "compare", "doctor",
					    "bench", "serve" };
	char help[] = "--help";
	char *args[] = { argv[argc > 1 ? 1 : 0], help, NULL };

	if (argc > 2) {
		msg_error("'pstat help' takes one subcommand");
		return EXIT_PSTAT_FAILED;
	}
	if (argc == 1 || !strcmp(argv[1], "help")) {
		options_usage();
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(subs); i++)
		if (!strcmp(argv[1], subs[i]))
			return !strcmp(subs[i], "bench") ? bench_main(2, args) :
			       !strcmp(subs[i], "serve") ?
				       serve_help() :
				       subcommand(2, args);
	msg_error("no help on '%s': pstat has no such subcommand", argv[1]);
	msg_hint("pstat help [list | compare | doctor | bench | serve]");
	return EXIT_PSTAT_FAILED;
}

/*
 * pstat list, compare, doctor, help, and perf's record and report,
 * which pstat does not have: argv[0] is the word after pstat. Returns
 * the exit status, or -1 when argv[0] is none of them.
 */
static int subcommand(int argc, char **argv)
{
	if (!strcmp(argv[0], "list"))
		return list_main(argc, argv);
	if (!strcmp(argv[0], "compare"))
		return compare_cli_main(argc, argv);
	if (!strcmp(argv[0], "doctor"))
		return doctor_main(argc, argv);
	if (!strcmp(argv[0], "help"))
		return cmd_help(argc, argv);
	/* a command of that name runs after -- */
	if (!strcmp(argv[0], "record") || !strcmp(argv[0], "report")) {
		msg_error("'%s' is a perf stat subcommand pstat does not support: keep -j documents and read them with jq or 'pstat compare'",
			  argv[0]);
		msg_hint("to run a command named %s: pstat [options] -- %s",
			 argv[0], argv[0]);
		return EXIT_PSTAT_FAILED;
	}
	return -1;
}

/*
 * The report's destination: -o FILE, stdout for a dry run (it runs no
 * command, so stdout is free for its document), stderr otherwise; a
 * file rewritten whole each interval for --openmetrics -I -o. Returns 0
 * or the status to exit with (reported).
 */
static int open_output(const struct pstat_opts *o, struct output *out)
{
	if (o->log_fd >= 0)
		return output_open_fd(out, o->log_fd, o->append);
	if (o->openmetrics && o->interval_ms && o->output && !o->dry_run)
		return output_open_rewrite(out, o->output, o->timeout_ms);
	return output_open(out, o->output ? o->output : o->dry_run ? "-" : NULL,
			   o->append, o->interval_ms > 0, o->timeout_ms);
}

/*
 * Raise the descriptor limit for the counters: a column per CPU with -a
 * (or one for the task), a row per thread with -p/-t, and -G's and
 * --for-each-cgroup's cgroup directories. Returns 0 or -1
 * (reported).
 */
static int fd_limit(const struct pstat_evlist *evl, const struct targets *t)
{
	size_t nthreads = t->kind == TARGET_COMMAND || !t->ntids ? 1 : t->ntids;

	/* and the directory of each cgroup, open while counters open */
	return targets_fd_limit(counters_fd_need(evl, t->ncpus ? t->ncpus : 1,
						 nthreads) +
					cgroup_count_dirs(evl),
				t->npids);
}

static char stderr_buf[BUFSIZ];

int main(int argc, char **argv)
{
	struct pstat_opts o;
	struct pstat_encode_ctx ctx = { 0 };
	struct pstat_evlist evl = { 0 };
	struct pstat_session_cfg cfg = { 0 };
	struct pstat_printer *printer = NULL;
	struct pstat_topo *topo = NULL;
	struct targets t = { 0 };
	struct output out = { 0 };
	struct pstat_baseline baseline = { 0 };
	struct serve *serve = NULL;
	struct metrics_cli mc = { 0 };
	struct cgroup_copies copies = { 0 };
	struct sim_cli sim = { 0 };
	bool report_ok = false;
	int r, status = EXIT_PSTAT_FAILED;

	atexit(close_stdout);
	secure_scrub_env();
	/* "perf stat -e ..." typed as "pstat stat -e ...": perf's habit */
	if (argc > 1 && !strcmp(argv[1], "stat")) {
		argv[1] = argv[0];
		argv++;
		argc--;
	}

	if (argc > 1 && (r = subcommand(argc - 1, argv + 1)) >= 0)
		return r;
	block_signals();
	if (argc > 1 && !strcmp(argv[1], "bench"))
		return bench_main(argc - 1, argv + 1);
	/*
	 * The report goes to stderr by default: buffered, it is written a
	 * report at a time rather than a field at a time, and a failed
	 * write (EPIPE) is seen, with its errno, when it is flushed.
	 * Messages flush themselves (msg.c). The buffer is static: a
	 * report to -o never writes to it, and its page is then never
	 * touched, where one from malloc is at every start.
	 */
	setvbuf(stderr, stderr_buf, _IOFBF, sizeof(stderr_buf));

	r = argc > 1 && !strcmp(argv[1], "serve") ?
		    serve_options_parse(argc - 1, argv + 1, &o, &serve) :
		    options_parse(argc, argv, &o);
	if (r) {
		options_free(&o);
		return r > 0 ? 0 : EXIT_PSTAT_FAILED;
	}
	/* a machine document on stderr: no warning may come before it */
	msg_quiet = o.quiet || ((o.json || o.csv_sep || o.openmetrics) &&
				!o.output && o.log_fd < 0 && !o.dry_run);
	/* a baseline that cannot be read fails before anything runs */
	if (o.baseline && (r = baseline_load(&o, &baseline))) {
		status = r;
		goto out;
	}
	ctx.pmus = pmus_new(env_root("PSTAT_SYSFS_ROOT"));
	ctx.tracefs_root = env_root("PSTAT_TRACEFS_ROOT");
	ctx.tracefs_mount = tracefs_ensure;
	if (build_events(&o, &ctx, &evl, &mc, &copies))
		goto out;
	if (!o.dry_run && (sim_cli_build(&sim, &o, &evl) ||
			   targets_build(&o, &t)))
		goto out;
	/* the events are resolved: tracefs's ids need no more reading */
	r = caps_drop_read_search();
	if (r < 0) {
		msg_error("cannot drop CAP_DAC_READ_SEARCH: %s", strerror(-r));
		goto out;
	}
	if (r)
		msg_debug(1, "dropped CAP_DAC_READ_SEARCH: the events are resolved");
	if ((r = open_output(&o, &out))) {
		status = r;
		goto out;
	}
	if (o.dry_run) {
		r = dry_run_print(out.f, &evl, mc.active ? &mc.set : NULL,
				  o.json);
		if (r)
			msg_error("cannot write the results to '%s': %s",
				  output_name(o.output ? o.output : "-"),
				  strerror(-r));
		status = output_close(&out, !r) || r ? EXIT_PSTAT_FAILED : 0;
		goto out;
	}
	if (fd_limit(&evl, &t)) {
		output_close(&out, 0);
		goto out;
	}

	if (serve && serve_start(serve))
		goto out;
	printer = serve ? serve_printer_new(serve, out.f) :
			  make_printer(&o, out.f);
	if (out.rewrite)
		printer = output_rewrite_printer(&out, printer);
	if (o.baseline)
		printer = printer_capture_new(printer);
	session_cfg_fill(&cfg, &o, &t, &evl, &mc, printer);
	if (mc.active) {
		cfg.metric_copies = copies.n;
		cfg.metric_copy_rows = copies.rows;
	}
	cfg.sim = sim.active ? &sim.cfg : NULL;
	if (o.aggr)
		cfg.topo = topo = load_topology();
	if (o.start_disabled && !o.have_control)
		msg_warn("-D -1 without --control: nothing will be counted");
	if (o.interval_ms && o.interval_ms < 10)
		msg_warn("intervals below 10 ms add measurable overhead");
	status = session_run(&cfg, &report_ok);
	stdout_reader_gone = status == EXIT_BROKEN_PIPE;
	if (output_close(&out, report_ok))
		status = EXIT_PSTAT_FAILED;
	if (o.baseline)
		status = compare_cli_baseline_finish(&baseline, printer, status);
	if (serve)
		status = serve_finish(serve, status);
out:
	serve_free(serve);
	compare_cli_baseline_free(&baseline);
	topo_free(topo);
	printer_free(printer);
	targets_free(&t);
	evlist_free(&evl);
	metrics_cli_free(&mc);
	sim_cli_free(&sim);
	pmus_free(ctx.pmus);
	pfm_cleanup();
	options_free(&o);
	return status;
}
