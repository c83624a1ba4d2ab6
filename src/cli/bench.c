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
#include "cli/bench_args.h"
#include "cli/bench_cli.h"
#include "cli/bench_stdio.h"
#include "cli/event_lists.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/sim_cli.h"
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

/*
 * Keep the software events of evl open (disabled, on pstat alone) for
 * the whole bench. Opening the first context-switches, page-faults or
 * cpu-migrations counter of the machine turns on a static key in the
 * kernel, and closing the last turns it off, each rewriting kernel text
 * with an interrupt to every CPU: per run, that was a third of what a
 * run of `true` cost pstat. Held open, the runs' own counters come and
 * go without it. The events share keep's evlist (ev borrowed, new).
 */
static void keep_keys_on(const struct pstat_evlist *evl,
			 struct pstat_evlist *sw, struct pstat_counters *keep)
{
	/* (keep borrows them until it is closed) */
	static const int cpu = -1;
	static pid_t self;
	struct pstat_open_opts oo = { .disabled = 1 };
	struct pstat_open_error oe;

	self = getpid();
	memset(sw, 0, sizeof(*sw));
	sw->ev = xcalloc(evl->n + 1, sizeof(*sw->ev));
	for (size_t i = 0; i < evl->n; i++) {
		if (evl->ev[i].attr.type != PERF_TYPE_SOFTWARE)
			continue;
		sw->ev[sw->n] = evl->ev[i];
		sw->ev[sw->n].group = (int)sw->n;
		sw->ev[sw->n].leader = (int)sw->n;
		sw->n++;
	}
	sw->ngroups = sw->nrows = (int)sw->n;
	if (sw->n && counters_open(keep, sw, &cpu, 1, &self, 1, &oo, &oe))
		memset(keep, 0, sizeof(*keep));
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
			   const char *shell, const char *s, const char *what)
{
	const size_t *pick = o->exp.pick[c];
	char **w, *text;
	size_t n = 0;

	if (!shell) {
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
	w = bench_split_words(shell);
	if (!w || !w[0]) {
		msg_error("invalid value '%s' for --shell: %s", shell,
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
		v[c] = command_argv(o, c, o->shell, list[n == 1 ? 0 : c], what);
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

		/* -S or -N: as said; else a shell only where one is needed */
		o->cmd_shell[c] = o->shell_given || !o->shell ||
						  bench_needs_shell(&o->params,
								    o->tmpl[src]) ?
					  o->shell :
					  NULL;
		o->cmds[c] = bench_params_subst(&o->params, o->exp.pick[c],
						o->tmpl[src],
						o->cmd_shell[c] != NULL);
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

/*
 * Print the report (or the document), then --fail-on-regression's tables
 * (held in cmp), then the files asked for.
 */
static int bench_write(const struct bench_opts *o, struct pstat_bench *b,
		       FILE *out, struct output *ex, const char *cmp)
{
	static int (*const fns[NEXPORTS])(FILE *,
					  const struct pstat_bench *) = {
		bench_print_markdown, bench_print_csv, print_json_hyperfine,
		bench_plot_svg,
	};
	struct pstat_bench_print_cfg pc = { 0 };
	int r = 0, bad = 0;

	pc.color = o->color >= 0 ? o->color :
		   isatty(fileno(out)) && !getenv("NO_COLOR");
	pc.utf8 = 1;
	if (o->json)
		r = print_json_bench(out, b);
	else if (!o->quiet || o->report)
		r = bench_print_table(out, b, &pc);
	if (cmp && *cmp && (!o->quiet || o->report))
		fputs(cmp, o->json ? stderr : out);
	if (!r)
		r = print_flush(out);
	if (r) {
		msg_error("cannot write the results to '%s': %s",
			  o->report ? o->report : "stdout", strerror(-r));
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

/*
 * --fail-on-regression: every command against the first; the status,
 * its tables into *text (new) to print after the report.
 */
static int bench_regression(const struct bench_opts *o, struct pstat_bench *b,
			    char **text)
{
	size_t len = 0;
	FILE *f = open_memstream(text, &len);
	int st;

	if (!f) {
		msg_error("out of memory");
		return EXIT_PSTAT_FAILED;
	}
	st = bench_check_regression(o->thresholds, o->nthresholds, b, f);
	fclose(f);
	return st;
}

/* -i: a warning per command whose runs failed, as hyperfine warns. */
static void warn_failed(const struct pstat_bench *b)
{
	for (size_t c = 0; c < b->ncmds; c++) {
		char st[128];
		size_t n = bench_failed_runs(&b->cmds[c], st, sizeof(st));

		if (n)
			msg_warn("command %zu '%s': %zu of %zu runs failed (exit status%s %s), counted all the same (-i)",
				 c + 1, b->cmds[c].label, n, b->cmds[c].runs,
				 strchr(st, ' ') ? "es" : "", st);
	}
}

static void bench_cfg_free(struct bench_cfg *cfg)
{
	free_per_command(cfg->argv, cfg->ncmds);
	free_per_command(cfg->prepare, cfg->ncmds);
	free_per_command(cfg->setup, cfg->ncmds);
	free_per_command(cfg->cleanup, cfg->ncmds);
	free_per_command(cfg->conclude, cfg->ncmds);
	bench_words_free(cfg->probe_argv);
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
		if (!(cfg->argv[c] = command_argv(o, c, o->cmd_shell[c],
						  o->tmpl[o->exp.src[c]],
						  "command")))
			err = 1;
	/* the shell's start-up, measured when a command pays it */
	for (size_t c = 0; c < o->ncmds && !cfg->probe_argv; c++)
		if (o->cmd_shell[c])
			cfg->probe_argv = command_argv(o, c, o->cmd_shell[c], "",
						       "--shell");
	cfg->prepare = per_command(o, o->prepare, o->nprepare, "--prepare",
				   &err);
	cfg->setup = per_command(o, o->setup, o->nsetup, "--setup", &err);
	cfg->cleanup = per_command(o, o->cleanup, o->ncleanup, "--cleanup",
				   &err);
	cfg->conclude = per_command(o, o->conclude, o->nconclude,
				    "--conclude", &err);
	cfg->input_fd = -1;
	cfg->runs = o->runs;
	cfg->min_runs = o->min_runs;
	cfg->max_runs = o->max_runs;
	cfg->warmup = o->warmup;
	cfg->shuffle = o->shuffle;
	cfg->seed = o->have_seed ? o->seed : random_seed();
	cfg->ignore_failure = o->ignore_failure;
	/* (the commands' own output would tear the bar, as in hyperfine) */
	cfg->progress = o->progress >= 0 ? o->progress :
			isatty(STDERR_FILENO) && !(o->cmd_output &&
						   !strcmp(o->cmd_output, "inherit"));
	return err ? -1 : 0;
}

int bench_main(int argc, char **argv)
{
	struct bench_opts o;
	struct bench_cfg cfg = { 0 };
	struct pstat_encode_ctx ctx = { 0 };
	struct pstat_evlist evl = { 0 };
	struct pstat_bench b = { 0 };
	struct sim_cli sim = { 0 };
	struct output out = { 0 }, ex[NEXPORTS];
	struct bench_stdio io;
	struct pstat_evlist sw = { 0 };
	struct pstat_counters keep = { 0 };
	int r, status = EXIT_PSTAT_FAILED, io_open = 0;
	char *cmp = NULL;
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
	    bench_cfg_fill(&o, &cfg, &evl) || sim_cli_build(&sim, NULL, &evl))
		goto out;
	cfg.sim = sim.active ? &sim.cfg : NULL;
	keep_keys_on(&evl, &sw, &keep);
	/* every file, the report's first, opened before anything runs */
	if (o.report && output_open(&out, o.report, 0, 0, 0))
		goto out;
	if (exports_open(&o, ex)) {
		if (o.report)
			output_close(&out, 0);
		goto out;
	}
	if (bench_stdio_open(&io, o.input, o.cmd_output)) {
		if (o.report)
			output_close(&out, 0);
		exports_close(ex, 0);
		goto out;
	}
	io_open = 1;
	target_set_stdio(io.fds[0], io.fds[1], io.fds[2]);
	cfg.input_fd = io.input_fd;
	if (!o.report)
		out.f = stdout;
	b.alpha = o.alpha;
	b.shuffle = o.shuffle;
	b.seed = cfg.seed;
	b.warmup = (unsigned)o.warmup;
	/* the shell, when a command needs it */
	b.shell = cfg.probe_argv ? o.shell : NULL;
	b.per_unit = o.per_unit;
	b.time_unit = o.time_unit;
	b.sort = o.sort;
	if (cfg.probe_argv)
		bench_set_shell_probe(&b, cfg.probe_argv[0], cfg.probe_argv);
	for (size_t c = 0; c < o.ncmds; c++) {
		struct pstat_bench_cmd *cmd =
			bench_add_cmd(&b, o.cmd_names[c], o.cmds[c],
				      cfg.argv[c]);

		cmd->via_shell = o.cmd_shell[c] != NULL;
		cmd->per = o.nper ? o.per[o.nper == 1 ? 0 : c] : 0;
		for (size_t i = 0; i < o.params.n; i++)
			bench_cmd_param(cmd, o.params.var[i],
					o.params.vals[i][o.exp.pick[c][i]]);
	}
	status = bench_loop(&cfg, &b);
	target_set_stdio(-1, -1, -1);
	bench_stdio_close(&io, !status);
	io_open = 0;
	if (status) {
		if (o.report)
			output_close(&out, 0);
		exports_close(ex, 0);
		goto out;
	}
	bench_analyze(&b);
	warn_failed(&b);
	if (o.fail_on_regression) {
		b.regression_checked = 1;
		b.regression_status = bench_regression(&o, &b, &cmp);
	}
	status = b.interrupted ? 128 + b.interrupted : b.regression_status;
	b.exit_status = status;
	r = bench_write(&o, &b, out.f, ex, cmp);
	if (o.report ? output_close(&out, !r) || r : r || fflush(stdout))
		status = EXIT_PSTAT_FAILED;
out:
	if (io_open) {
		target_set_stdio(-1, -1, -1);
		bench_stdio_close(&io, 0);
	}
	free(cmp);
	if (keep.fds)
		counters_close(&keep);
	free(sw.ev);
	bench_free(&b);
	bench_cfg_free(&cfg);
	sim_cli_free(&sim);
	evlist_free(&evl);
	pmus_free(ctx.pmus);
	pfm_cleanup();
	bench_opts_free(&o);
	return status;
}
