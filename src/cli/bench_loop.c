/* SPDX-License-Identifier: MIT */
/*
 * The rounds of `pstat bench`. Every command has a session of its own
 * (run/session.h), stepped one run at a time, so that the commands
 * alternate within each round (A B A B ..., or a shuffled order per
 * round): a change in the machine's load over the bench falls on all of
 * them alike, which blocked runs (all of A, then all of B) cannot
 * promise. Setup commands run before the first round, prepare commands
 * before each run, cleanup commands after the last round.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/bench_cli.h"
#include "run/session.h"
#include "run/target.h"

/* Without -r: at least min_runs rounds, and at least this long. */
#define BENCH_MIN_MS 3000.0

struct bench_state {
	const struct bench_cfg *cfg;
	struct pstat_bench *b;
	struct session **sess;
	struct pstat_session_cfg *scfg;
	struct pstat_printer **printers;
	FILE **mem;
	char **buf;
	size_t *len;
	size_t *order;
	size_t n;               /* sessions: the commands, then the probe */
	uint64_t rng;
	uint64_t t0;            /* now_ns at the start */
	size_t seq;             /* runs done, warm-up ones included */
	size_t rounds;          /* planned; 0 until known */
	double round_ms;        /* the mean length of a round so far */
	int progress_shown;
};

/* splitmix64: the shuffle's generator, reproducible from --seed. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void round_order(struct bench_state *st)
{
	size_t n = st->n;

	for (size_t i = 0; i < n; i++)
		st->order[i] = i;
	if (!st->cfg->shuffle)
		return;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(rng_next(&st->rng) % (i + 1));
		size_t t = st->order[i];

		st->order[i] = st->order[j];
		st->order[j] = t;
	}
}

/*
 * The signal waiting, blocked outside the sessions' waits, that ends
 * the bench (one that ends a run: target_ending_signals), or 0.
 */
static int signal_pending(void)
{
	sigset_t pending, ending;

	if (sigpending(&pending))
		return 0;
	target_ending_signals(&ending);
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&ending, sig) && sigismember(&pending, sig))
			return sig;
	return 0;
}

/*
 * Run argv, uncounted (--prepare, --setup, --cleanup). Returns 0, or
 * the status after reporting the failure; what names the option.
 */
static int run_plain(char **argv, const char *what)
{
	struct pstat_child ch;
	struct rusage ru;
	int st = 0, r;

	r = target_fork(argv, 0, &ch);
	if (r) {
		msg_error("cannot start the %s command: %s", what,
			  strerror(-r));
		return EXIT_PSTAT_FAILED;
	}
	r = target_start(&ch, &st);
	if (r) {
		msg_error("cannot run the %s command '%s': %s", what, argv[0],
			  strerror(r));
		return r == ENOENT ? 127 : 126;
	}
	while ((r = target_wait(&ch, &st, &ru)) == -EINTR)
		;
	if (r) {
		msg_error("cannot wait for the %s command: %s", what,
			  strerror(-r));
		target_release(&ch);
		return EXIT_PSTAT_FAILED;
	}
	if (st) {
		msg_error("the %s command failed (exit status %d)", what,
			  target_exit_code(st));
		msg_hint("append '|| true' to it if its failure does not matter");
		return target_exit_code(st);
	}
	return 0;
}

static void progress_draw(struct bench_state *st, size_t round, int warm)
{
	const struct bench_cfg *cfg = st->cfg;
	size_t total = st->rounds ? st->rounds : round + 1, width = 30, fill;
	double left_s;

	if (!cfg->progress)
		return;
	fill = total ? round * width / total : 0;
	left_s = st->round_ms * (double)(total - round) / 1000;
	fprintf(stderr, "\r\033[K%s %zu/%zu [", warm ? "warm-up" : "round",
		round, warm ? (size_t)cfg->warmup : total);
	for (size_t i = 0; i < width; i++)
		fputc(i < fill ? '#' : '.', stderr);
	if (warm || !st->rounds || !(st->round_ms > 0))
		fprintf(stderr, "]");
	else
		fprintf(stderr, "] %.0f s left", ceil(left_s));
	fflush(stderr);
	st->progress_shown = 1;
}

static void progress_clear(struct bench_state *st)
{
	if (!st->progress_shown)
		return;
	fprintf(stderr, "\r\033[K");
	fflush(stderr);
}

/*
 * Hide default events the machine cannot count (cycles on a VM): the
 * defaults ask for them only "when the machine has them".
 */
static void hide_unsupported(struct pstat_bench *b)
{
	for (size_t c = 0; c < b->ncmds; c++)
		for (size_t i = BENCH_TIME_ROWS; i < b->cmds[c].nrows; i++)
			if (b->cmds[c].rows[i].status == PSTAT_NOT_SUPPORTED)
				b->cmds[c].rows[i].hidden = 1;
}

/*
 * End what the last run of command c left running (`sleep 9 & true`),
 * so that it cannot load the runs after it or outlive pstat; say so the
 * first time for each command.
 */
static void ended_leftovers(struct bench_state *st, size_t c)
{
	struct pstat_bench_cmd *cmd = &st->b->cmds[c];
	size_t n = target_end_group();

	if (!n)
		return;
	if (!cmd->leftovers)
		msg_warn("command %zu '%s' left %zu process%s running after its run: ended (SIGKILL), as after every run",
			 c + 1, cmd->label, n, n == 1 ? "" : "es");
	cmd->leftovers += n;
}

/*
 * One run of the shell with nothing to do (`sh -c ''`), in the round
 * as a command is: what starting the shell costs the commands run
 * through it at this point of the bench. 0 or the exit status.
 */
static int probe_run(struct bench_state *st, int record)
{
	struct pstat_bench_cmd *probe = st->b->shell_probe;
	struct pstat_step step;
	double start_ms = (double)(now_ns() - st->t0) / 1e6;

	if (session_step(st->sess[st->cfg->ncmds], record, &step))
		return EXIT_PSTAT_FAILED;
	st->seq++;
	target_end_group();
	if (step.interrupted)
		return -step.interrupted;
	if (step.status) {
		msg_error("the shell '%s' does not start: %s (exit status %d)",
			  probe->label, step.exec_err ? strerror(step.exec_err) :
			  "it failed", step.status);
		msg_hint("-N runs the commands without one");
		return step.status;
	}
	if (record)
		bench_add_run(probe, step.elapsed_ns, step.user_ns, step.sys_ns,
			      0, start_ms, st->seq - 1, step.rows, step.nrows);
	return 0;
}

/* One run of command c; record: not a warm-up. 0 or the exit status. */
static int one_run(struct bench_state *st, size_t c, int record)
{
	const struct bench_cfg *cfg = st->cfg;
	struct pstat_bench_cmd *cmd = &st->b->cmds[c];
	struct pstat_step step;
	double start_ms;
	int r;

	if (c == cfg->ncmds)
		return probe_run(st, record);
	if (cfg->prepare && cfg->prepare[c] &&
	    (r = run_plain(cfg->prepare[c], "--prepare")))
		return r;
	if ((r = signal_pending()))
		return -r;
	if (cfg->input_fd >= 0)
		lseek(cfg->input_fd, 0, SEEK_SET);
	start_ms = (double)(now_ns() - st->t0) / 1e6;
	if (session_step(st->sess[c], record, &step))
		return EXIT_PSTAT_FAILED;
	st->seq++;
	ended_leftovers(st, c);
	if (step.exec_err) {
		char *e = str_escape(cfg->argv[c][0]);

		msg_error("cannot run '%s': %s", e, strerror(step.exec_err));
		free(e);
		st->b->failed_cmd = cmd->name;
		return step.status;
	}
	if (step.interrupted)
		return -step.interrupted;
	if (cfg->conclude && cfg->conclude[c] &&
	    (r = run_plain(cfg->conclude[c], "--conclude")))
		return r;
	if (record)
		bench_add_run(cmd, step.elapsed_ns, step.user_ns, step.sys_ns,
			      step.status, start_ms, st->seq - 1, step.rows,
			      step.nrows);
	if (step.status && !cfg->ignore_failure) {
		/*
		 * The output went to --output (null by default), so say what
		 * the status means where it is plain: the shell's 127 and
		 * 126, a signal by its name.
		 */
		if (step.signal)
			msg_error("command %zu '%s' failed (exit status %d): killed by SIG%s",
				  c + 1, cmd->label, step.status,
				  sigabbrev_np(step.signal) ?
				  sigabbrev_np(step.signal) : "?");
		else if (cmd->via_shell &&
			 (step.status == 127 || step.status == 126))
			msg_error("command %zu '%s' failed (exit status %d): the shell %s",
				  c + 1, cmd->label, step.status,
				  step.status == 127 ?
				  "found no such command" :
				  "could not execute it");
		else
			msg_error("command %zu '%s' failed (exit status %d)",
				  c + 1, cmd->label, step.status);
		msg_hint("-i (--ignore-failure) keeps going over failed runs");
		st->b->failed_cmd = cmd->name;
		return step.status;
	}
	return 0;
}

/* One round: every command once, in this round's order. */
static int one_round(struct bench_state *st, size_t round, int record)
{
	uint64_t t = now_ns();
	int r;

	round_order(st);
	for (size_t i = 0; i < st->n; i++)
		if ((r = one_run(st, st->order[i], record)))
			return r;
	if (record) {
		double ms = (double)(now_ns() - t) / 1e6;

		st->round_ms += (ms - st->round_ms) / (double)(round + 1);
	}
	return 0;
}

/* Without -r: rounds enough for min_runs and BENCH_MIN_MS, as hyperfine. */
static size_t rounds_wanted(const struct bench_cfg *cfg, double round_ms)
{
	double want = round_ms > 0 ? ceil(BENCH_MIN_MS / round_ms) : 0;
	uint64_t n = cfg->min_runs;

	if (want > (double)n)
		n = want > 1e9 ? 1000000000 : (uint64_t)want;
	if (cfg->max_runs && n > cfg->max_runs)
		n = cfg->max_runs;
	return (size_t)(n ? n : 1);
}

static void state_init(struct bench_state *st, const struct bench_cfg *cfg,
		       struct pstat_bench *b)
{
	size_t n = cfg->ncmds + (cfg->probe_argv != NULL);

	memset(st, 0, sizeof(*st));
	st->n = n;
	st->cfg = cfg;
	st->b = b;
	st->rng = cfg->seed;
	st->sess = xcalloc(n, sizeof(*st->sess));
	st->scfg = xcalloc(n, sizeof(*st->scfg));
	st->printers = xcalloc(n, sizeof(*st->printers));
	st->mem = xcalloc(n, sizeof(*st->mem));
	st->buf = xcalloc(n, sizeof(*st->buf));
	st->len = xcalloc(n, sizeof(*st->len));
	st->order = xcalloc(n, sizeof(*st->order));
	st->rounds = cfg->runs;
	for (size_t c = 0; c < n; c++) {
		struct pstat_print_cfg pc = { .format = FORMAT_JSON };
		struct pstat_session_cfg *s = &st->scfg[c];

		st->mem[c] = open_memstream(&st->buf[c], &st->len[c]);
		if (!st->mem[c]) {
			msg_error("out of memory");
			exit(EXIT_PSTAT_FAILED);
		}
		pc.repeat = (unsigned)(cfg->runs ? cfg->runs : cfg->min_runs);
		st->printers[c] = printer_new(&pc, st->mem[c]);
		s->evl = cfg->evl;
		s->argv = c < cfg->ncmds ? cfg->argv[c] : cfg->probe_argv;
		s->kind = TARGET_COMMAND;
		s->inherit = 1;
		s->sim = cfg->sim;
		s->repeat = pc.repeat > 1 ? pc.repeat : 2;
		s->printer = st->printers[c];
		s->sysfs_root = env_root("PSTAT_SYSFS_ROOT");
		st->sess[c] = session_step_new(s);
	}
}

/* Each command's pstat/1 document, then the sessions' end. */
static void state_finish(struct bench_state *st, int status)
{
	for (size_t c = 0; c < st->n; c++) {
		struct pstat_bench_cmd *cmd = c < st->cfg->ncmds ?
						      &st->b->cmds[c] :
						      NULL;
		int r = cmd && cmd->runs ?
				session_step_report(st->sess[c], status) :
				-ENODATA;

		session_step_free(st->sess[c]);
		printer_free(st->printers[c]);
		if (fclose(st->mem[c]) == 0 && cmd && !r && st->len[c]) {
			cmd->doc = st->buf[c];
			st->buf[c] = NULL;
		}
		free(st->buf[c]);
	}
	free(st->sess);
	free(st->scfg);
	free(st->printers);
	free(st->mem);
	free(st->buf);
	free(st->len);
	free(st->order);
}

static int run_each(const struct bench_cfg *cfg, char ***cmds,
		    const char *what)
{
	int r;

	for (size_t c = 0; cmds && c < cfg->ncmds; c++)
		if (cmds[c] && (r = run_plain(cmds[c], what)))
			return r;
	return 0;
}

int bench_loop(const struct bench_cfg *cfg, struct pstat_bench *b)
{
	struct bench_state st;
	int r;

	state_init(&st, cfg, b);
	/* to end what a run leaves running */
	target_set_own_group(1);
	st.t0 = now_ns();
	clock_gettime(CLOCK_REALTIME, &b->started_at);
	r = run_each(cfg, cfg->setup, "--setup");
	for (size_t w = 0; !r && w < cfg->warmup; w++) {
		progress_draw(&st, w, 1);
		r = one_round(&st, w, 0);
	}
	for (size_t round = 0; !r && (!st.rounds || round < st.rounds);
	     round++) {
		progress_draw(&st, round, 0);
		r = one_round(&st, round, 1);
		if (!r && !st.rounds)
			st.rounds = rounds_wanted(cfg, st.round_ms);
		if (!r)
			b->rounds = round + 1;
	}
	progress_clear(&st);
	if (r < 0) {
		/* a signal: the rounds done are the results, 128 + N */
		b->interrupted = -r;
		r = 0;
	}
	if (!r)
		r = run_each(cfg, cfg->cleanup, "--cleanup");
	target_set_own_group(0);
	state_finish(&st, r);
	if (cfg->default_events)
		hide_unsupported(b);
	return r;
}

char **bench_split_words(const char *s)
{
	char **w = xcalloc(1, sizeof(*w));
	size_t n = 0;

	for (;;) {
		char *word, *o;
		char q = 0;

		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			return w;
		word = o = xmalloc(strlen(s) + 1);
		for (; *s && (q || (*s != ' ' && *s != '\t' && *s != '\n'));
		     s++) {
			if (q && *s == q) {
				q = 0;
			} else if (!q && (*s == '\'' || *s == '"')) {
				q = *s;
			} else if (*s == '\\' && q != '\'' && s[1]) {
				*o++ = *++s;
			} else {
				*o++ = *s;
			}
		}
		*o = '\0';
		if (q) {
			free(word);
			bench_words_free(w);
			return NULL;
		}
		w = xrealloc(w, (n + 2) * sizeof(*w));
		w[n++] = word;
		w[n] = NULL;
	}
}

void bench_words_free(char **w)
{
	for (size_t i = 0; w && w[i]; i++)
		free(w[i]);
	free(w);
}
