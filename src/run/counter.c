/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/cpumap.h"
#include "base/util.h"
#include "events/sim_events.h"
#include "run/counter.h"
#include "run/counter_priv.h"

static const struct counter_kernel *fake_kernel;

void counter_fake_kernel(const struct counter_kernel *k)
{
	fake_kernel = k;
}

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
			       int cpu, int group_fd, unsigned long flags)
{
	if (fake_kernel)
		return fake_kernel->open(attr, pid, cpu, group_fd, flags);
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			    flags);
}

ssize_t counter_read_fd(int fd, void *buf, size_t n)
{
	return fake_kernel ? fake_kernel->read(fd, buf, n) : read(fd, buf, n);
}

int counter_paranoid_read(int *level)
{
	char *s = read_file_str("/proc/sys/kernel/perf_event_paranoid");
	uint64_t v;
	int r;

	if (!s)
		return -errno;
	/* the kernel writes a plain integer, possibly negative */
	r = s[0] == '-' ? parse_u64(s + 1, 1000, &v) : parse_u64(s, 1000, &v);
	if (!r)
		*level = s[0] == '-' ? -(int)v : (int)v;
	free(s);
	return r ? -EINVAL : 0;
}

int counter_paranoid(void)
{
	int v;

	return counter_paranoid_read(&v) ? 2 : v;
}

size_t counters_fd_need(const struct pstat_evlist *evl, size_t ncpus,
			size_t nthreads)
{
	size_t n = 0;

	for (size_t i = 0; i < evl->n; i++)
		n += evl->ev[i].cpus ? evl->ev[i].ncpus : ncpus * nthreads;
	return n;
}

/* Whether an errno from perf_event_open means "not supported here". */
static int is_unsupported(int e)
{
	return e == ENOENT || e == EOPNOTSUPP || e == ENODEV;
}


/*
 * EINVAL left after the fallbacks for an event that excludes user or
 * kernel (:u, :k, or kernel counting refused): a PMU that cannot filter
 * by privilege level, such as msr. perf reports it <not supported> and
 * goes on; dropping the bits would count what the user excluded.
 */
static int excluding_refused(const struct perf_event_attr *a, int e)
{
	return e == EINVAL && (a->exclude_user || a->exclude_kernel);
}

/*
 * Open one counter, applying perf's fallbacks to c->attrs[ev] (so later
 * opens of the same event use the attr that worked). Returns the fd or
 * -errno.
 */
static int open_one(struct pstat_counters *c, size_t ev, pid_t pid, int cpu,
		    int group_fd)
{
	struct perf_event_attr *a = &c->attrs[ev];
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;

	/* -G: the cgroup's directory stands where the pid would */
	if (c->cgroup_fds && c->cgroup_fds[ev] >= 0 && pid == -1) {
		pid = c->cgroup_fds[ev];
		flags |= PERF_FLAG_PID_CGROUP;
	}
	for (;;) {
		int fd = sys_perf_event_open(a, pid, cpu, group_fd, flags);
		int e = errno;

		if (fd >= 0)
			return fd;
		if (e == EINVAL && (a->exclude_guest || a->exclude_host)) {
			/* PMUs such as msr take no exclusion bits at all */
			a->exclude_guest = a->exclude_host = 0;
			c->flags[ev] |= COUNTER_NO_GUEST_BITS;
			continue;
		}
		if (e == EINVAL && a->exclude_hv && !a->exclude_kernel) {
			a->exclude_hv = 0;
			c->flags[ev] |= COUNTER_NO_HV_BIT;
			continue;
		}
		/* not for :k, which would count the opposite of what it says */
		if ((e == EACCES || e == EPERM) && !a->exclude_kernel &&
		    !a->exclude_user && cpu < 0 && counter_paranoid() > 1) {
			a->exclude_kernel = 1;
			a->exclude_hv = 1;
			c->flags[ev] |= COUNTER_USER_ONLY;
			continue;
		}
		return -e;
	}
}

static void close_all(struct pstat_counters *c)
{
	size_t n = c->evl ? c->evl->n * c->ncpus * c->nthreads : 0;

	for (size_t i = 0; c->fds && i < n; i++) {
		if (c->fds[i] >= 0)
			close(c->fds[i]);
		c->fds[i] = -1;
	}
}

/*
 * Whether the group led by ev is opened at (c->cpus[ci], row ti). An
 * event with CPUs of its own (uncore) on those of them that are columns,
 * once per CPU (row 0, any task); an event of one core PMU of a hybrid
 * CPU, counting system-wide, on the columns of that PMU's CPUs; any
 * other event on the target's columns: every one when counting
 * system-wide, else the per-task column -1 (the others are there for
 * the former).
 */
static int placed(const struct pstat_counters *c,
		  const struct pstat_event *ev, size_t ci, size_t ti)
{
	int cpu = c->cpus[ci];

	if (ev->cpus)
		return ti == 0 && cpu >= 0 &&
		       cpumap_has(ev->cpus, ev->ncpus, cpu);
	/* a core PMU of a hybrid CPU counts on its own kind of CPU only */
	if (ev->core_cpus && cpu >= 0)
		return cpumap_has(ev->core_cpus, ev->ncore_cpus, cpu);
	return cpu < 0 || c->cpus[0] >= 0;
}

/*
 * How the counter ev starts. A leader opens disabled, and one that
 * follows a task is enabled when the child execs (counting per CPU,
 * it follows no task: counters_enable). A member opens enabled and
 * without enable_on_exec, as perf opens them: the kernel counts a
 * member only while its leader is enabled, so it starts and stops with
 * the leader. The first event of a group that the kernel supports is
 * its leader.
 */
static void set_start(struct pstat_counters *c, size_t ev, bool member)
{
	struct perf_event_attr *a = &c->attrs[ev];

	member = member && (a->read_format & PERF_FORMAT_GROUP);
	a->disabled = !member && c->lead_disabled;
	a->enable_on_exec = !member && !c->evl->ev[ev].cpus && c->lead_on_exec;
}

/*
 * Whether the kernel's err for member ev of a group means the group
 * cannot be counted together: x86 and Arm refuse a group their counters
 * cannot hold with EINVAL, a group leader of another context gives
 * EBADF (perf's weak-group test), and PMUs with slots such as
 * breakpoints run out of them with ENOSPC.
 */
static int weak_refused(const struct pstat_counters *c, size_t ev, int err,
			bool weak)
{
	return (weak || c->evl->ev[ev].weak) &&
	       (err == EINVAL || err == EBADF || err == ENOSPC);
}

/*
 * Whether the kernel's err for member ev of a group (not weak) says the
 * group is more than the PMU can count at once: x86 and Arm refuse such
 * a group with EINVAL, and the member then opens on its own. (EINVAL
 * for a precise or breakpoint member is that encoding's own fault.)
 */
static bool group_full(struct pstat_counters *c, size_t ev, pid_t pid,
		       size_t ci, int err)
{
	struct perf_event_attr *a = &c->attrs[ev];
	uint64_t fmt = a->read_format;
	int fd;

	if (err != EINVAL || a->precise_ip || a->type == PERF_TYPE_BREAKPOINT)
		return false;
	a->read_format &= ~(uint64_t)PERF_FORMAT_GROUP;
	set_start(c, ev, false);
	fd = open_one(c, ev, pid, c->cpus[ci], -1);
	a->read_format = fmt;
	set_start(c, ev, true);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/*
 * The group evs[0..nev) cannot be counted: its counters closed on every
 * CPU and thread, its events marked, refused (the member the kernel
 * refused) flagged.
 */
static void drop_group(struct pstat_counters *c, const size_t *evs,
		       size_t nev, size_t refused)
{
	size_t per = c->ncpus * c->nthreads;

	for (size_t i = 0; i < nev; i++) {
		for (size_t s = 0; s < per; s++) {
			int *fd = &c->fds[evs[i] * per + s];

			if (*fd >= 0)
				close(*fd);
			*fd = -1;
		}
		if (c->state[evs[i]] == COUNTER_OPEN) {
			c->state[evs[i]] = COUNTER_GROUP_FULL;
			c->err[evs[i]] = EINVAL;
		}
	}
	c->flags[refused] |= COUNTER_REFUSED_MEMBER;
}

/*
 * Open the members evs[0..nev) of one group on one (cpu, thread); weak:
 * the group is one of pstat's own (task_groups), weak as {...}:W is.
 * Returns 0, -1 with oe filled, or 1 when a weak group was refused.
 */
static int open_group_slot(struct pstat_counters *c, const size_t *evs,
			   size_t nev, bool weak, size_t ci, size_t ti,
			   struct pstat_open_error *oe)
{
	int leader_fd = -1, leader = -1, pos = 0;
	pid_t pid = c->evl->ev[evs[0]].cpus ? -1 : c->tids[ti];

	for (size_t i = 0; i < nev; i++) {
		size_t ev = evs[i];
		int fd;

		if (c->state[ev] != COUNTER_OPEN)
			continue;
		set_start(c, ev, leader_fd >= 0);
		fd = open_one(c, ev, pid, c->cpus[ci], leader_fd);
		if (fd == -ESRCH && pid >= 0) {
			/* the thread ended between listing and opening */
			for (size_t k = 0; k < i; k++) {
				size_t s = counter_slot(c, evs[k], ci, ti);

				if (c->fds[s] >= 0)
					close(c->fds[s]);
				c->fds[s] = -1;
			}
			return 0;
		}
		if (fd < 0 && leader_fd >= 0 && weak_refused(c, ev, -fd, weak))
			return 1;
		if (fd < 0 && (is_unsupported(-fd) ||
			       excluding_refused(&c->attrs[ev], -fd) ||
			       (-fd == EINVAL &&
				c->evl->ev[ev].einval_unsupported))) {
			c->state[ev] = COUNTER_NOT_SUPPORTED;
			c->err[ev] = -fd;
			continue;
		}
		if (fd < 0 && leader_fd >= 0 && group_full(c, ev, pid, ci, -fd)) {
			drop_group(c, evs, nev, ev);
			return 0;
		}
		if (fd < 0) {
			oe->event = (int)ev;
			oe->err = -fd;
			oe->cpu = c->cpus[ci];
			oe->tid = pid;
			counter_advice(&c->attrs[ev], -fd, c->cpus[ci],
				       counter_paranoid(), oe->advice,
				       sizeof(oe->advice));
			/* the encoding's own faults keep their advice */
			if (leader_fd >= 0 && -fd == EINVAL &&
			    !c->attrs[ev].precise_ip &&
			    c->attrs[ev].type != PERF_TYPE_BREAKPOINT)
				snprintf(oe->advice, sizeof(oe->advice),
					 "the PMU may not count these events as one group: add :W ({...}:W) to count them ungrouped when it cannot");
			return -1;
		}
		c->fds[counter_slot(c, ev, ci, ti)] = fd;
		if (leader_fd < 0 ||
		    !(c->attrs[ev].read_format & PERF_FORMAT_GROUP)) {
			leader_fd = fd;
			leader = (int)ev;
			pos = 0;
		}
		c->read_leader[ev] = leader;
		c->read_pos[ev] = pos++;
		c->nread[leader] = pos;
		if (!(c->attrs[ev].read_format & PERF_FORMAT_GROUP))
			leader_fd = -1; /* ungrouped: a group of one */
	}
	return 0;
}

/*
 * perf's weak-group fallback: close the counters of the group evs[0..nev)
 * on every CPU and thread, and make each of its events a group of one
 * (a counter read without PERF_FORMAT_GROUP is its own leader). Opening
 * every slot ungrouped, not just those refused, keeps one read layout
 * per event. Flagged COUNTER_UNGROUPED when the group was the user's
 * (not one of task_groups', which no one asked for).
 */
static void ungroup(struct pstat_counters *c, const size_t *evs, size_t nev,
		    bool users)
{
	size_t per = c->ncpus * c->nthreads;

	for (size_t i = 0; i < nev; i++) {
		size_t ev = evs[i];

		for (size_t s = 0; s < per; s++) {
			int *fd = &c->fds[ev * per + s];

			if (*fd >= 0)
				close(*fd);
			*fd = -1;
		}
		c->attrs[ev].read_format &= ~(uint64_t)(PERF_FORMAT_GROUP |
							PERF_FORMAT_ID);
		if (users)
			c->flags[ev] |= COUNTER_UNGROUPED;
		c->read_leader[ev] = -1;
		c->read_pos[ev] = 0;
		c->nread[ev] = 0;
	}
}

/*
 * Open the group evs[0..nev) on every (cpu, thread) it is placed on; a
 * weak group that the kernel refuses (weak: one of task_groups'),
 * ungrouped. Returns 0 or -1 with oe filled.
 */
static int open_group(struct pstat_counters *c, const size_t *evs,
		      size_t nev, bool weak, struct pstat_open_error *oe)
{
	const struct pstat_event *lead = &c->evl->ev[evs[0]];
	size_t nplaced = 0;
	int r = 0;

	for (size_t ci = 0; ci < c->ncpus; ci++)
		nplaced += placed(c, lead, ci, 0);
	for (size_t i = 0; !nplaced && i < nev; i++) {
		/* its PMU's CPUs are none of those asked for (-C) */
		c->state[evs[i]] = COUNTER_NOT_SUPPORTED;
		c->err[evs[i]] = ENODEV;
	}
	for (size_t ci = 0; ci < c->ncpus && !r; ci++) {
		for (size_t ti = 0; ti < c->nthreads; ti++) {
			if (!placed(c, lead, ci, ti))
				continue;
			/* perf_event_paranoid is read only on a refusal */
			r = open_group_slot(c, evs, nev, weak, ci, ti, oe);
			if (r)
				break;
		}
	}
	if (r < 0)
		return -1;
	if (!r)
		return 0;
	ungroup(c, evs, nev, !weak);
	/* ungrouped, no member joins a group: no second refusal */
	return open_group(c, evs, nev, false, oe);
}

/*
 * Whether event ev may join its thread's group (task_groups): an event
 * of no group of the user's, of a PMU whose counters share the task's
 * software context (software events, tracepoints). Those never
 * multiplex: each counts exactly what it would alone, and the group's
 * time enabled and running, which a group read reports for all, are
 * each member's own. Not :D or :e, which the kernel takes on a leader
 * alone.
 */
static int task_groupable(const struct pstat_event *ev)
{
	const struct perf_event_attr *a = &ev->attr;

	return !(a->read_format & PERF_FORMAT_GROUP) && !ev->cpus &&
	       !ev->core_cpus && !a->pinned && !a->exclusive &&
	       (a->type == PERF_TYPE_SOFTWARE ||
		a->type == PERF_TYPE_TRACEPOINT);
}

/*
 * The next group to open, from event first on, into evs (events not yet
 * taken): the user's group that starts there, or, with task_groups and
 * first groupable, every groupable event not taken (at most
 * PSTAT_MAX_GROUP), which then read as one group (*weak set). Returns
 * how many.
 */
static size_t next_group(struct pstat_counters *c, size_t first,
			 bool *taken, size_t *evs, bool *weak)
{
	const struct pstat_evlist *evl = c->evl;
	size_t nev = 0;

	*weak = false;
	if (c->task_groups && task_groupable(&evl->ev[first])) {
		for (size_t k = first; k < evl->n && nev < PSTAT_MAX_GROUP; k++)
			if (!taken[k] && task_groupable(&evl->ev[k]))
				evs[nev++] = k;
		for (size_t i = 0; nev > 1 && i < nev; i++)
			c->attrs[evs[i]].read_format |= PERF_FORMAT_GROUP;
		*weak = nev > 1;
	} else {
		evs[nev++] = first;
		while (first + nev < evl->n &&
		       evl->ev[first + nev].group == evl->ev[first].group) {
			evs[nev] = first + nev;
			nev++;
		}
	}
	for (size_t i = 0; i < nev; i++)
		taken[evs[i]] = true;
	return nev;
}

int counters_open(struct pstat_counters *c, const struct pstat_evlist *evl,
		  const int *cpus, size_t ncpus, const pid_t *tids,
		  size_t nthreads, const struct pstat_open_opts *o,
		  struct pstat_open_error *oe)
{
	size_t n = evl->n * ncpus * nthreads, *evs;
	bool *taken;
	int r = 0;

	memset(c, 0, sizeof(*c));
	memset(oe, 0, sizeof(*oe));
	c->evl = evl;
	c->cpus = cpus;
	c->ncpus = ncpus;
	c->tids = tids;
	c->nthreads = nthreads;
	c->cgroup_fds = o->cgroup_fds;
	c->fds = xmalloc(n * sizeof(*c->fds));
	for (size_t i = 0; i < n; i++)
		c->fds[i] = -1;
	c->attrs = xcalloc(evl->n, sizeof(*c->attrs));
	c->state = xcalloc(evl->n, sizeof(*c->state));
	c->err = xcalloc(evl->n, sizeof(*c->err));
	c->flags = xcalloc(evl->n, sizeof(*c->flags));
	c->read_leader = xcalloc(evl->n, sizeof(*c->read_leader));
	c->read_pos = xcalloc(evl->n, sizeof(*c->read_pos));
	c->nread = xcalloc(evl->n, sizeof(*c->nread));
	for (size_t i = 0; i < evl->n; i++) {
		struct perf_event_attr *a = &c->attrs[i];

		*a = evl->ev[i].attr;
		/* open_group_slot settles disabled and enable_on_exec */
		a->inherit = !evl->ev[i].cpus && o->inherit;
		c->read_leader[i] = -1;
	}
	c->guard_fd = -1;
	c->lead_disabled = o->disabled || o->enable_on_exec;
	c->lead_on_exec = o->enable_on_exec;
	c->task_groups = o->task_groups;
	if (o->no_clone) {
		struct perf_event_attr g = { 0 };

		g.size = sizeof(g);
		g.type = PERF_TYPE_SOFTWARE;
		g.config = PERF_COUNT_SW_DUMMY;
		g.disabled = 1;
		g.exclude_kernel = 1; /* allowed at any perf_event_paranoid */
		g.exclude_hv = 1;
		c->guard_fd = sys_perf_event_open(&g, tids[0], -1, -1,
						  PERF_FLAG_FD_CLOEXEC);
		if (c->guard_fd < 0) {
			oe->event = 0;
			oe->err = errno;
			oe->cpu = -1;
			oe->tid = tids[0];
			return -1;
		}
	}
	evs = xmalloc(evl->n * sizeof(*evs));
	taken = xcalloc(evl->n, sizeof(*taken));
	/* sim events: Valgrind counts them (run/session_sim.c) */
	for (size_t i = 0; i < evl->n; i++)
		taken[i] = evl->ev[i].attr.type == PSTAT_SIM_TYPE;
	for (size_t first = 0; first < evl->n && !r; first++) {
		size_t nev;
		bool weak;

		if (taken[first])
			continue;
		nev = next_group(c, first, taken, evs, &weak);
		r = open_group(c, evs, nev, weak, oe);
	}
	free(evs);
	free(taken);
	if (r) {
		close_all(c);
		if (c->guard_fd >= 0)
			close(c->guard_fd);
		c->guard_fd = -1;
		return -1;
	}
	return 0;
}

static int ioctl_leaders(const struct pstat_counters *c, unsigned long req)
{
	for (size_t ev = 0; ev < c->evl->n; ev++) {
		if (c->read_leader[ev] != (int)ev)
			continue;
		/* those start at exec: enabling them now would count pstat */
		if (req == PERF_EVENT_IOC_ENABLE && c->attrs[ev].enable_on_exec)
			continue;
		for (size_t s = 0; s < c->ncpus * c->nthreads; s++) {
			int fd = c->fds[ev * c->ncpus * c->nthreads + s];

			if (fd >= 0 && ioctl(fd, req, PERF_IOC_FLAG_GROUP) < 0)
				return -errno;
		}
	}
	return 0;
}

int counters_enable(const struct pstat_counters *c)
{
	return ioctl_leaders(c, PERF_EVENT_IOC_ENABLE);
}

int counters_disable(const struct pstat_counters *c)
{
	return ioctl_leaders(c, PERF_EVENT_IOC_DISABLE);
}

int counters_toggle(const struct pstat_counters *c, long ev, int enable)
{
	unsigned long req = enable ? PERF_EVENT_IOC_ENABLE
				   : PERF_EVENT_IOC_DISABLE;
	size_t per = c->ncpus * c->nthreads;

	/* an event may lead others of its thread (task_groups) */
	if (ev >= 0 && c->task_groups)
		return -EOPNOTSUPP;
	for (size_t e = 0; e < c->evl->n; e++) {
		/* all: each group through its leader, members with it */
		if (ev < 0 ? c->read_leader[e] != (int)e : (long)e != ev)
			continue;
		for (size_t s = 0; s < per; s++) {
			int fd = c->fds[e * per + s];

			if (fd >= 0 &&
			    ioctl(fd, req, ev < 0 ? PERF_IOC_FLAG_GROUP : 0) < 0)
				return -errno;
		}
	}
	return 0;
}

void counters_close(struct pstat_counters *c)
{
	if (!c)
		return;
	close_all(c);
	if (c->fds && c->guard_fd >= 0)
		close(c->guard_fd);
	free(c->fds);
	free(c->attrs);
	free(c->state);
	free(c->err);
	free(c->flags);
	free(c->read_leader);
	free(c->read_pos);
	free(c->nread);
	memset(c, 0, sizeof(*c));
}
