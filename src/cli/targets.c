/* SPDX-License-Identifier: MIT */
/*
 * -p, -t, -a and -C turned into what the session counts on (see
 * cli/targets.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/cpumap.h"
#include "base/msg.h"
#include "base/util.h"
#include "cli/options.h"
#include "cli/targets.h"
#include "run/target.h"

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

/* The combinations of target options that make no sense. */
static int targets_check(const struct pstat_opts *o)
{
	if (o->pids && o->tids) {
		msg_usage("-p and -t cannot be combined");
		return -1;
	}
	if ((o->pids || o->tids) && (o->all_cpus || o->cpu_list)) {
		msg_usage("-p/-t cannot be combined with -a/-C");
		return -1;
	}
	/* -p PID COMMAND: PID is counted for as long as COMMAND runs */
	if (o->per_thread && !o->pids && !o->tids && !o->all_cpus) {
		msg_usage("--per-thread needs -p, -t or -a");
		return -1;
	}
	/* -a --per-thread counts threads, not CPUs: as perf 6.1 */
	if (o->per_thread && o->all_cpus &&
	    (o->cpu_list || o->no_aggr || o->ncgroups || o->for_each_cgroup)) {
		msg_usage("-a --per-thread cannot be combined with %s",
			  o->cpu_list ? "-C" : o->no_aggr ? "-A" :
			  o->ncgroups ? "-G" : "--for-each-cgroup");
		return -1;
	}
	if (o->no_aggr && !o->all_cpus && !o->cpu_list) {
		msg_usage("-A needs -a or -C");
		return -1;
	}
	if (o->aggr && !o->all_cpus && !o->cpu_list) {
		msg_usage("%s needs -a or -C: it adds up counts by the CPUs they were counted on",
			  o->aggr_opt);
		return -1;
	}
	if (o->aggr && (o->no_aggr || o->per_thread)) {
		msg_usage("%s cannot be combined with %s", o->aggr_opt,
			  o->no_aggr ? "-A" : "--per-thread");
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
	return 0;
}

/* -p: the processes and every thread they have now. */
static int targets_pids(const struct pstat_opts *o, struct targets *t)
{
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
	return 0;
}

/* -t: exactly those threads. */
static int targets_tids(const struct pstat_opts *o, struct targets *t)
{
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
	return 0;
}

/*
 * -a --per-thread: every thread there is now, each counted on its own
 * (not per CPU) as perf 6.1 does; the report still says system wide.
 */
static int targets_all_threads(const struct pstat_opts *o, struct targets *t)
{
	int r = target_list_all_threads(&t->tids, &t->ntids);

	if (r) {
		msg_error("cannot list the threads in /proc: %s", strerror(-r));
		return -1;
	}
	t->all_threads = 1;
	t->kind = o->argv ? TARGET_COMMAND : TARGET_SYSTEM;
	return 0;
}

/* -a or -C: the online CPUs, or those of the list (all online). */
static int targets_cpus(const struct pstat_opts *o, struct targets *t)
{
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
	return 0;
}

int targets_build(const struct pstat_opts *o, struct targets *t)
{
	memset(t, 0, sizeof(*t));
	t->kind = TARGET_COMMAND;
	if (targets_check(o))
		return -1;
	if (o->pids && targets_pids(o, t))
		return -1;
	if (o->tids && targets_tids(o, t))
		return -1;
	if (o->all_cpus && o->per_thread)
		return targets_all_threads(o, t);
	if ((o->all_cpus || o->cpu_list) && targets_cpus(o, t))
		return -1;
	if (t->kind == TARGET_COMMAND && !o->argv) {
		msg_error("no command given");
		msg_hint("usage: pstat [options] [--] command [args...]; see 'pstat --help'");
		return -1;
	}
	return 0;
}

void targets_free(struct targets *t)
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
int targets_fd_limit(size_t need, size_t npids)
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
