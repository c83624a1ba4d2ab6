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

#include "base/cpumap.h"
#include "base/msg.h"
#include "base/util.h"
#include "cli/doctor.h"
#include "cli/list.h"
#include "cli/options.h"
#include "compare/compare_cli.h"
#include "events/encode.h"
#include "events/evspec.h"
#include "events/pfm.h"
#include "events/pmu.h"
#include "report/print.h"
#include "run/counter.h"
#include "run/session.h"
#include "run/target.h"

/* perf stat's default events. */
static const char DEFAULT_EVENTS[] =
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,"
	"instructions,branches,branch-misses";

/*
 * The results file. A regular file (or a new one) is written under a
 * temporary name and renamed into place only once the report is
 * complete, so a failed run never leaves a file that looks like results
 * and never destroys the one that was there; through a symlink, the
 * file it points to is replaced, the link kept. Appending writes
 * directly, and a failed run cuts the file back to where it started.
 * Special files such as /dev/full or a pipe are written directly, and
 * so are interval runs (-I), whose lines are read as they come, as
 * perf's are: a failed one leaves the intervals it printed, or no file
 * when it printed none.
 */
struct output {
	FILE *f;
	char *path;          /* as given, for messages */
	char *target;        /* what the rename replaces */
	char *tmp;
	off_t append_at;     /* -1: not appending to a regular file */
	int created;         /* streamed into a file that did not exist */
};

/* A temporary file next to target, with the mode target has or would get. */
static int output_tmp(struct output *o, const struct stat *st, int exists)
{
	const char *slash = strrchr(o->target, '/');
	mode_t mask;
	int fd;

	o->tmp = slash ? xasprintf("%.*s/.%s.XXXXXX",
				   (int)(slash - o->target), o->target,
				   slash + 1)
		       : xasprintf(".%s.XXXXXX", o->target);
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (exists) {
		fchmod(fd, st->st_mode & 07777);
	} else {
		/* mkostemp makes it 0600; give it the mode open(2) would */
		mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	return fd;
}

static int output_open(struct output *o, const char *path, int append,
		       int stream)
{
	struct stat st;
	int fd, exists;

	memset(o, 0, sizeof(*o));
	o->append_at = -1;
	if (!path) {
		o->f = stderr;
		return 0;
	}
	if (!*path) {
		msg_error("cannot open output file '': %s", strerror(ENOENT));
		return -1;
	}
	o->path = xstrdup(path);
	o->target = NULL;
	/* a symlink: the file it names is the one replaced */
	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		o->target = realpath(path, NULL);
	if (!o->target)
		o->target = xstrdup(path);
	exists = stat(o->target, &st) == 0;
	/* the rename below would replace a file we may not write */
	if (exists && S_ISREG(st.st_mode) && access(o->target, W_OK) < 0) {
		msg_error("cannot open output file '%s': %s", path,
			  strerror(errno));
		goto fail;
	}
	if (!append && !stream && (!exists || S_ISREG(st.st_mode))) {
		fd = output_tmp(o, &st, exists);
	} else {
		o->created = !exists;
		fd = open(o->target, O_WRONLY | O_CREAT | O_CLOEXEC |
					     (append ? O_APPEND : O_TRUNC),
			  0666);
		if (fd >= 0 && append && !fstat(fd, &st) &&
		    S_ISREG(st.st_mode))
			o->append_at = st.st_size;
	}
	if (fd < 0) {
		msg_error("cannot open output file '%s': %s", path,
			  strerror(errno));
		goto fail;
	}
	o->f = fdopen(fd, append ? "a" : "w");
	if (!o->f) {
		msg_error("cannot open output file '%s': %s", path,
			  strerror(errno));
		close(fd);
		if (o->tmp)
			unlink(o->tmp);
		goto fail;
	}
	return 0;
fail:
	free(o->tmp);
	free(o->path);
	free(o->target);
	o->tmp = o->path = o->target = NULL;
	return -1;
}

/* Finish the output: keep it when ok, else remove what was written. */
static int output_close(struct output *o, int ok)
{
	int r = 0;

	if (!o->path) {
		/* (a failed run's stderr, a closed pipe: said already) */
		if (fflush(stderr) == EOF && ok)
			r = -1;
		return r;
	}
	/* a run that printed nothing (the command did not start) */
	if (ok && (o->tmp || o->append_at >= 0) &&
	    ftello(o->f) <= (o->tmp ? 0 : o->append_at))
		ok = 0;
	if (fflush(o->f) == EOF && ok) {
		msg_error("cannot write the results to '%s': %s", o->path,
			  strerror(errno));
		ok = 0;
		r = -1;
	}
	/* appended: back to what the file held before */
	if (!ok && o->append_at >= 0 &&
	    ftruncate(fileno(o->f), o->append_at) < 0)
		msg_warn("cannot cut '%s' back to its %lld bytes: %s", o->path,
			 (long long)o->append_at, strerror(errno));
	if (fclose(o->f) == EOF && ok) {
		msg_error("cannot write the results to '%s': %s", o->path,
			  strerror(errno));
		ok = 0;
		r = -1;
	}
	/* a stream that failed before its first line: no file */
	if (!ok && o->created && !o->tmp && o->append_at <= 0) {
		struct stat st;

		if (!stat(o->target, &st) && S_ISREG(st.st_mode) &&
		    st.st_size == 0)
			unlink(o->target);
	}
	if (o->tmp) {
		if (ok && rename(o->tmp, o->target) < 0) {
			msg_error("cannot write the results to '%s': %s",
				  o->path, strerror(errno));
			r = -1;
			ok = 0;
		}
		if (!ok)
			unlink(o->tmp);
	}
	free(o->tmp);
	free(o->path);
	free(o->target);
	return r;
}

static const char *env_root(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

static void report_parse_error(const char *list,
			       const struct pstat_error *err)
{
	if (err->offset >= 0 && (size_t)err->offset <= strlen(list) &&
	    strlen(list) <= 200)
		msg_error("invalid event list '%s': %s (at offset %ld)", list,
			  err->msg, err->offset);
	else
		msg_error("%s", err->msg);
}

static int build_events(const struct pstat_opts *o,
			struct pstat_encode_ctx *ctx,
			struct pstat_evlist *evl)
{
	struct pstat_error err = { "", -1 };
	size_t n = o->nevents ? o->nevents : 1;
	int r = 0;

	for (size_t i = 0; i < n && !r; i++) {
		const char *list = o->nevents ? o->events[i] : DEFAULT_EVENTS;
		struct pstat_evtree one = { 0 };

		if (evspec_parse(list, &one, &err)) {
			report_parse_error(list, &err);
			evspec_tree_free(&one);
			r = -1;
			break;
		}
		if (encode_evlist(&one, ctx, evl, &err)) {
			msg_error("%s", err.msg);
			if (ctx->hint[0])
				msg_hint("%s", ctx->hint);
			r = -1;
		}
		/* encode_evlist continues the numbering of earlier lists */
		evspec_tree_free(&one);
	}
	if (!r) {
		for (size_t i = 0; i < evl->n; i++)
			msg_debug(1, "event '%s': resolved by %s (pmu %s, type %u, config %#llx)",
				  evl->ev[i].name, evl->ev[i].resolver,
				  evl->ev[i].pmu, evl->ev[i].attr.type,
				  (unsigned long long)evl->ev[i].attr.config);
	}
	return r;
}

static void dry_run_text(FILE *out, const struct pstat_evlist *evl)
{
	for (size_t i = 0; i < evl->n; i++) {
		const struct pstat_event *ev = &evl->ev[i];
		const struct perf_event_attr *a = &ev->attr;

		fprintf(out, "%s: resolver %s, pmu %s, group %d%s\n", ev->name,
			ev->resolver, ev->pmu, ev->group,
			ev->leader == (int)i ? " (leader)" : "");
		fprintf(out, "  type %u config %#llx config1 %#llx config2 %#llx\n",
			a->type, (unsigned long long)a->config,
			(unsigned long long)a->config1,
			(unsigned long long)a->config2);
		fprintf(out, "  exclude_user %d exclude_kernel %d exclude_hv %d exclude_host %d exclude_guest %d exclude_idle %d pinned %d exclusive %d precise_ip %d\n",
			a->exclude_user, a->exclude_kernel, a->exclude_hv,
			a->exclude_host, a->exclude_guest, a->exclude_idle,
			a->pinned, a->exclusive, a->precise_ip);
		if (a->type == PERF_TYPE_BREAKPOINT)
			fprintf(out, "  bp_type %u bp_addr %#llx bp_len %llu\n",
				a->bp_type, (unsigned long long)a->bp_addr,
				(unsigned long long)a->bp_len);
		if (ev->scale != 1.0 || ev->unit)
			fprintf(out, "  scale %g unit %s\n", ev->scale,
				ev->unit ? ev->unit : "");
		if (ev->cpus) {
			char cpus[256];

			fprintf(out, "  cpus %s (the PMU's, system-wide)\n",
				cpumap_format(ev->cpus, ev->ncpus, cpus,
					      sizeof(cpus)));
		}
	}
}

static int dry_run(const struct pstat_opts *o, const struct pstat_evlist *evl,
		   FILE *out)
{
	struct pstat_dryrun_event *d;
	int r = 0;

	if (!o->json) {
		dry_run_text(out, evl);
		return fflush(out) == EOF ? -errno : 0;
	}
	d = xcalloc(evl->n + 1, sizeof(*d));
	for (size_t i = 0; i < evl->n; i++) {
		d[i].name = evl->ev[i].name;
		d[i].pmu = evl->ev[i].pmu;
		d[i].resolver = evl->ev[i].resolver;
		d[i].group = evl->ev[i].group;
		d[i].leader = evl->ev[i].leader == (int)i;
		d[i].scale = evl->ev[i].scale;
		d[i].unit = evl->ev[i].unit ? evl->ev[i].unit : "";
		d[i].cpus = evl->ev[i].cpus;
		d[i].ncpus = evl->ev[i].ncpus;
		d[i].attr = &evl->ev[i].attr;
	}
	r = print_json_dryrun(out, d, evl->n);
	free(d);
	return r;
}

/* Parse "-p 1,2" or "-t 3,4" into a new array. */
static int parse_pid_list(const char *opt, const char *s, pid_t **out,
			  size_t *n)
{
	size_t alloc = 0;

	*out = NULL;
	*n = 0;
	for (const char *p = s;; p++) {
		const char *end = strchrnul(p, ',');
		char *item = xstrndup(p, (size_t)(end - p));
		uint64_t v;
		int r = parse_u64(item, INT_MAX, &v);

		if (r || v == 0) {
			msg_error("invalid %s value '%s' in '%s': %s", opt,
				  item, s,
				  r == -ERANGE ? "out of range"
					       : "not a process id");
			free(item);
			free(*out);
			*out = NULL;
			return -1;
		}
		free(item);
		xgrow((void **)out, &alloc, *n + 1, sizeof(**out));
		(*out)[(*n)++] = (pid_t)v;
		if (!*end)
			return 0;
		p = end;
	}
}

struct targets {
	pid_t *pids, *tids;
	size_t npids, ntids;
	int *cpus;
	size_t ncpus;
	enum pstat_target_kind kind;
};

static int build_targets(const struct pstat_opts *o, struct targets *t)
{
	memset(t, 0, sizeof(*t));
	t->kind = TARGET_COMMAND;
	if (o->pids && o->tids) {
		msg_usage("-p and -t cannot be combined");
		return -1;
	}
	if ((o->pids || o->tids) && (o->all_cpus || o->cpu_list)) {
		msg_usage("-p/-t cannot be combined with -a/-C");
		return -1;
	}
	if ((o->pids || o->tids) && o->argv) {
		msg_usage("-p/-t attach to running processes: give no command");
		return -1;
	}
	if (o->per_thread && !o->pids && !o->tids) {
		msg_usage("--per-thread needs -p or -t");
		return -1;
	}
	if (o->no_aggr && !o->all_cpus && !o->cpu_list) {
		msg_usage("-A needs -a or -C");
		return -1;
	}
	if (o->repeat > 1 && !o->argv) {
		msg_usage("-r needs a command");
		return -1;
	}
	if (o->warmup && !o->argv) {
		msg_usage("--warmup needs a command");
		return -1;
	}
	if (o->pids) {
		if (parse_pid_list("-p", o->pids, &t->pids, &t->npids))
			return -1;
		t->kind = TARGET_PID;
		for (size_t i = 0; i < t->npids; i++) {
			pid_t *th;
			size_t n;
			int r = target_list_threads(t->pids[i], &th, &n);

			if (!r && !target_process_alive(t->pids[i])) {
				free(th); /* a zombie: it has exited */
				r = -ESRCH;
			}
			if (r) {
				msg_error("cannot attach to process %d: %s",
					  (int)t->pids[i],
					  strerror(-r == ESRCH ? ESRCH : -r));
				return -1;
			}
			if (target_is_kernel_thread(t->pids[i])) {
				free(th);
				msg_error("cannot attach to process %d: it is a kernel thread",
					  (int)t->pids[i]);
				return -1;
			}
			t->tids = xrealloc(t->tids, (t->ntids + n) *
							    sizeof(*t->tids));
			memcpy(t->tids + t->ntids, th, n * sizeof(*th));
			t->ntids += n;
			free(th);
		}
	}
	if (o->tids) {
		if (parse_pid_list("-t", o->tids, &t->tids, &t->ntids))
			return -1;
		t->kind = TARGET_TID;
		for (size_t i = 0; i < t->ntids; i++) {
			if (!target_alive(t->tids[i])) {
				msg_error("cannot attach to thread %d: %s",
					  (int)t->tids[i], strerror(ESRCH));
				return -1;
			}
			if (target_is_kernel_thread(t->tids[i])) {
				msg_error("cannot attach to thread %d: it is a kernel thread",
					  (int)t->tids[i]);
				return -1;
			}
		}
	}
	if (o->all_cpus || o->cpu_list) {
		int *online;
		size_t nonline;
		/* PSTAT_SYSFS_ROOT's CPUs when it has them (tests) */
		int r = cpumap_online(env_root("PSTAT_SYSFS_ROOT"), &online,
				      &nonline);

		if (r == -ENOENT && env_root("PSTAT_SYSFS_ROOT"))
			r = cpumap_online(NULL, &online, &nonline);

		if (r) {
			msg_error("cannot read the online CPUs: %s",
				  strerror(-r));
			return -1;
		}
		if (o->cpu_list) {
			struct pstat_error err;

			if (cpumap_parse(o->cpu_list, &t->cpus, &t->ncpus,
					 &err)) {
				msg_error("%s", err.msg);
				free(online);
				return -1;
			}
			for (size_t i = 0; i < t->ncpus; i++) {
				size_t k = 0;

				while (k < nonline && online[k] != t->cpus[i])
					k++;
				if (k == nonline) {
					msg_error("CPU %d in '%s' is not online",
						  t->cpus[i], o->cpu_list);
					free(online);
					return -1;
				}
			}
			free(online);
		} else {
			t->cpus = online;
			t->ncpus = nonline;
		}
		if (!o->argv)
			t->kind = TARGET_SYSTEM;
	}
	if (t->kind == TARGET_COMMAND && !o->argv) {
		msg_error("no command given");
		msg_hint("usage: pstat [options] [--] command [args...]; see 'pstat --help'");
		return -1;
	}
	return 0;
}

static void targets_free(struct targets *t)
{
	free(t->pids);
	free(t->tids);
	free(t->cpus);
}

/*
 * events x CPUs x threads descriptors may exceed the soft limit: raise
 * it to the hard limit, and fail before opening anything if even that
 * is too low.
 */
static int ensure_fd_limit(size_t need, size_t npids)
{
	struct rlimit rl, before;

	/* stdio, output, pipes, timers; a pidfd per -p process (session.c) */
	need += 16 + (npids < 64 ? npids : 64);
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
		msg_error("counting needs %zu file descriptors, but the limit is %llu",
			  need, (unsigned long long)rl.rlim_max);
		msg_hint("raise the hard limit (ulimit -Hn) or count fewer events or threads");
		return -1;
	}
	before = rl;
	/* the hard limit, as perf does; an unlimited one only as needed */
	rl.rlim_cur = rl.rlim_max != RLIM_INFINITY ? rl.rlim_max : need;
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		msg_error("cannot raise the open file limit to %zu: %s", need,
			  strerror(errno));
		return -1;
	}
	target_nofile_raised(&before);
	msg_debug(1, "raised the open file limit to %llu",
		  (unsigned long long)rl.rlim_cur);
	return 0;
}

static const char LIST_USAGE[] =
	"usage: pstat list [--tracepoints] [--names] [-j] [GLOB]";

static void list_help(void)
{
	printf("%s\n"
	       "\n"
	       "List the events that can be counted here: generic, sysfs PMU and\n"
	       "libpfm4 events, and tracepoints when asked for.\n"
	       "\n"
	       "      --tracepoints  list tracepoints too: all, or those GLOB takes\n"
	       "      --names        one name a line, nothing else (for completion)\n"
	       "  -j, --json         one JSON document (schema pstat-list/1)\n"
	       "  -h, --help         this help\n"
	       "  GLOB               only the names this glob(7) matches, in any\n"
	       "                     case; tracepoints too when it can name one\n",
	       LIST_USAGE);
}

static int cmd_list(int argc, char **argv)
{
	struct pstat_list_opts lo = { 0 };
	int r;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json"))
			lo.json = 1;
		else if (!strcmp(argv[i], "--tracepoints"))
			lo.tracepoints = 1;
		else if (!strcmp(argv[i], "--names"))
			lo.names_only = 1;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			list_help();
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			msg_error("unknown option '%s' for 'pstat list'",
				  argv[i]);
			msg_hint("%s", LIST_USAGE);
			return EXIT_PSTAT_FAILED;
		} else if (lo.glob) {
			msg_error("'pstat list' takes one GLOB");
			return EXIT_PSTAT_FAILED;
		} else {
			lo.glob = argv[i];
		}
	}
	lo.sysfs_root = env_root("PSTAT_SYSFS_ROOT");
	lo.tracefs_root = env_root("PSTAT_TRACEFS_ROOT");
	r = list_run(&lo, stdout);
	pfm_cleanup();
	if (r) {
		msg_error("cannot write the list: %s", strerror(-r));
		return EXIT_PSTAT_FAILED;
	}
	return 0;
}

/*
 * SIGINT, SIGTERM and SIGHUP wait, blocked, until the session installs
 * its handlers: one that comes while a long event list is resolved or
 * the counters open must still end in a report, not kill pstat first.
 * The session unblocks them only while it waits (see session.c).
 */
static void block_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	target_ignore_sigpipe();
}

static const char DOCTOR_USAGE[] = "usage: pstat doctor [-j]";

static void doctor_help(void)
{
	printf("%s\n"
	       "\n"
	       "Tell why counting does or does not work on this machine, and what\n"
	       "to do: one line per check (ok, warn or fail, with a fix), then live\n"
	       "probes that count task-clock, a tracepoint and instructions:u.\n"
	       "\n"
	       "  -j, --json  one JSON document (schema pstat-doctor/1)\n"
	       "  -h, --help  this help\n"
	       "\n"
	       "Exit status: 0 software counting works (hardware counting is\n"
	       "reported either way), 1 it does not, 125 usage error.\n",
	       DOCTOR_USAGE);
}

static int cmd_doctor(int argc, char **argv)
{
	struct pstat_doctor_opts d = { 0 };

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			d.json = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			doctor_help();
			return 0;
		} else {
			msg_error("unknown option '%s' for 'pstat doctor'",
				  argv[i]);
			msg_hint("%s", DOCTOR_USAGE);
			return EXIT_PSTAT_FAILED;
		}
	}
	d.sysfs_root = env_root("PSTAT_SYSFS_ROOT");
	d.tracefs_root = env_root("PSTAT_TRACEFS_ROOT");
	return doctor_run(&d, stdout);
}

/*
 * Help, --version and other text on stdout: a write that failed (a full
 * disk, a closed pipe) must not end in status 0. Run at exit, as
 * gnulib's close_stdout; quiet for a reader that went away.
 */
static void close_stdout(void)
{
	if (fclose(stdout) == 0 || errno == EBADF)
		return;
	if (errno == EPIPE)
		_exit(EXIT_BROKEN_PIPE);
	msg_error("cannot write to the standard output: %s", strerror(errno));
	_exit(EXIT_PSTAT_FAILED);
}

int main(int argc, char **argv)
{
	struct pstat_opts o;
	struct pstat_encode_ctx ctx = { 0 };
	struct pstat_evlist evl = { 0 };
	struct pstat_session_cfg cfg = { 0 };
	struct pstat_print_cfg pc = { 0 };
	struct pstat_printer *printer = NULL;
	struct targets t = { 0 };
	struct output out = { 0 };
	struct pstat_baseline baseline = { 0 };
	bool report_ok = false;
	int r, status = EXIT_PSTAT_FAILED;

	atexit(close_stdout);

	if (argc > 1 && !strcmp(argv[1], "list"))
		return cmd_list(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return compare_cli_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "doctor"))
		return cmd_doctor(argc - 1, argv + 1);
	block_signals();
	/*
	 * The report goes to stderr by default: buffered, it is written a
	 * report at a time rather than a field at a time, and a failed
	 * write (EPIPE) is seen, with its errno, when it is flushed.
	 * Messages flush themselves (msg.c).
	 */
	setvbuf(stderr, NULL, _IOFBF, BUFSIZ);

	r = options_parse(argc, argv, &o);
	if (r) {
		options_free(&o);
		return r > 0 ? 0 : EXIT_PSTAT_FAILED;
	}
	/* a baseline that cannot be read fails before anything runs */
	if (o.baseline) {
		struct pstat_baseline_cfg bc = {
			.path = o.baseline,
			.thresholds = o.thresholds,
			.nthresholds = o.nthresholds,
			.alpha = o.alpha,
			.format = o.compare_format,
			.format_opt = o.compare_format_opt,
			.output = o.compare_output,
		};

		if ((r = compare_cli_baseline_load(&baseline, &bc))) {
			status = r;
			goto out;
		}
	}
	ctx.pmus = pmus_new(env_root("PSTAT_SYSFS_ROOT"));
	ctx.tracefs_root = env_root("PSTAT_TRACEFS_ROOT");
	if (build_events(&o, &ctx, &evl))
		goto out;
	if (!o.dry_run && build_targets(&o, &t))
		goto out;
	if (output_open(&out, o.output, o.append, o.interval_ms > 0))
		goto out;
	if (o.dry_run) {
		r = dry_run(&o, &evl, out.f);
		if (r)
			msg_error("cannot write the results to '%s': %s",
				  o.output ? o.output : "stderr",
				  strerror(-r));
		status = output_close(&out, !r) || r ? EXIT_PSTAT_FAILED : 0;
		goto out;
	}
	/* a command, or -a: one column of counters per CPU (or the task) */
	if (ensure_fd_limit(counters_fd_need(&evl, t.ncpus ? t.ncpus : 1,
					     t.kind == TARGET_COMMAND ||
							     !t.ntids ? 1
								      : t.ntids),
			    t.npids)) {
		output_close(&out, 0);
		goto out;
	}

	pc.format = o.json ? FORMAT_JSON : o.csv_sep ? FORMAT_CSV
						     : FORMAT_TABLE;
	msg_quiet = pc.format != FORMAT_TABLE && !o.output;
	pc.csv_sep = o.csv_sep;
	pc.is_tty = isatty(fileno(out.f));
	pc.big_num = o.big_num >= 0 ? o.big_num : pc.is_tty;
	pc.started_header = o.output != NULL;
	pc.repeat = o.repeat > 1 ? (unsigned)o.repeat : 0;
	printer = printer_new(&pc, out.f);
	if (o.baseline)
		printer = printer_capture_new(printer);

	cfg.evl = &evl;
	cfg.argv = o.argv;
	cfg.kind = t.kind;
	cfg.pids = t.pids;
	cfg.npids = t.npids;
	cfg.tids = t.tids;
	cfg.ntids = t.ntids;
	cfg.cpus = t.cpus;
	cfg.ncpus = t.ncpus;
	cfg.cpu_subset = o.cpu_list != NULL;
	/* -t: exactly those threads, not those they start */
	cfg.inherit = !o.no_inherit && t.kind != TARGET_TID;
	cfg.no_aggr = o.no_aggr;
	cfg.per_thread = o.per_thread;
	cfg.timeout_ms = o.timeout_ms;
	cfg.delay_ms = o.delay_ms;
	cfg.interval_ms = o.interval_ms;
	cfg.interval_count = o.interval_count;
	cfg.repeat = (unsigned)o.repeat;
	cfg.warmup = (unsigned)o.warmup;
	cfg.wait_close = o.wait_close;
	cfg.fail_on = o.fail_on;
	cfg.printer = printer;
	cfg.output_name = o.output;
	if (o.interval_ms && o.interval_ms < 10)
		msg_warn("intervals below 10 ms add measurable overhead");
	status = session_run(&cfg, &report_ok);
	if (output_close(&out, report_ok))
		status = EXIT_PSTAT_FAILED;
	if (o.baseline)
		status = compare_cli_baseline_finish(&baseline, printer, status);
out:
	compare_cli_baseline_free(&baseline);
	printer_free(printer);
	targets_free(&t);
	evlist_free(&evl);
	pmus_free(ctx.pmus);
	pfm_cleanup();
	options_free(&o);
	return status;
}
