/* SPDX-License-Identifier: MIT */
/*
 * `pstat doctor`'s live probes: real counters opened on this very
 * process through counter.c, like any run, because only an open tells
 * the whole truth (a seccomp filter or an LSM can refuse what every
 * file allows).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/doctor_priv.h"
#include "events/encode.h"
#include "events/evspec.h"
#include "events/pfm.h"
#include "events/pmu.h"
#include "events/tracepoint.h"
#include "run/counter.h"

/* Keeps the compiler from dropping the probes' busy loop. */
static volatile uint64_t spin_sink;

enum probe_outcome {
	PROBE_COUNTED,
	PROBE_ZERO,            /* opened, but counted nothing */
	PROBE_UNRESOLVED,      /* the name did not resolve */
	PROBE_NOT_SUPPORTED,   /* ENOENT/EOPNOTSUPP/ENODEV on open */
	PROBE_OPEN_FAILED,
};

struct probe {
	enum probe_outcome outcome;
	uint64_t value, ena, run;
	int err;
	char msg[512];           /* resolver error, or open advice */
	unsigned flags;          /* COUNTER_* fallbacks */
};

/* Work for the probes: spin for about ms milliseconds. */
static void spin(unsigned ms)
{
	uint64_t end = now_ns() + ms * 1000000ull;

	while (now_ns() < end)
		for (int i = 0; i < 1000; i++)
			spin_sink += (uint64_t)i;
}

/* Work for the tracepoint probe: three write(2) calls to /dev/null. */
static void writes(unsigned n)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	for (unsigned i = 0; i < n; i++)
		if (write(fd, "pstat", 5) < 0)
			break;
	close(fd);
}

/*
 * Count spec on this process (the current thread, cpu -1) around
 * work(arg), through counter.c like any run. Fills p.
 */
static void probe(struct doctor *d, const char *spec,
		  void (*work)(unsigned), unsigned arg, struct probe *p)
{
	struct pstat_encode_ctx ctx = {
		.pmus = d->pmus,
		.tracefs_root = d->o->tracefs_root,
	};
	struct pstat_evlist evl = { 0 };
	struct pstat_error err = { "", -1 };
	struct pstat_open_opts oo = { 0 };
	struct pstat_open_error oe;
	struct pstat_counters c;
	struct pstat_reading r;
	const int cpus[] = { -1 };
	const pid_t tids[] = { getpid() };
	int e;

	memset(p, 0, sizeof(*p));
	if (encode_string(spec, &ctx, &evl, &err)) {
		p->outcome = PROBE_UNRESOLVED;
		snprintf(p->msg, sizeof(p->msg), "%s", err.msg);
		goto out;
	}
	if (counters_open(&c, &evl, cpus, 1, tids, 1, &oo, &oe)) {
		p->outcome = PROBE_OPEN_FAILED;
		p->err = oe.err;
		snprintf(p->msg, sizeof(p->msg), "%s", oe.advice);
		counters_close(&c);     /* its buffers; the fds are closed */
		goto out;
	}
	p->flags = c.flags[0];
	if (c.state[0] == COUNTER_NOT_SUPPORTED) {
		p->outcome = PROBE_NOT_SUPPORTED;
		p->err = c.err[0];
		counters_close(&c);
		goto out;
	}
	work(arg);
	e = counters_read(&c, &r, NULL);
	counters_close(&c);
	if (e) {
		p->outcome = PROBE_OPEN_FAILED;
		p->err = -e;
		snprintf(p->msg, sizeof(p->msg), "reading the counter failed");
		goto out;
	}
	p->value = r.val;
	p->ena = r.ena;
	p->run = r.run;
	p->outcome = r.val ? PROBE_COUNTED : PROBE_ZERO;
out:
	evlist_free(&evl);
}

/* The fix for a probe that could not open its counter. */
static void probe_open_fix(struct doctor *d, struct check *c,
			   const struct probe *p)
{
	switch (p->err) {
	case EACCES:
	case EPERM:
		/*
		 * The probes count pstat's own process in user space, which
		 * perf_event_paranoid 2 allows; refused anyway, the cause is
		 * a stricter paranoid level or something beside it.
		 */
		if (d->paranoid >= 3 && !d->cap_perfmon && !d->cap_sys_admin)
			doctor_fix(c, "sysctl kernel.perf_event_paranoid=2");
		else if (d->seccomp == 2)
			doctor_fix(c, "a seccomp filter refuses perf_event_open: run the container with --cap-add PERFMON or --security-opt seccomp=unconfined");
		else
			doctor_fix(c, "perf_event_paranoid allows this, so a security module (SELinux, AppArmor) or a sandbox refuses perf_event_open: allow it there, or run with CAP_PERFMON");
		break;
	case ENOSYS:
		doctor_fix(c, "perf_event_open is missing: use a kernel with CONFIG_PERF_EVENTS=y, or allow the syscall in the container's seccomp profile");
		break;
	case EMFILE:
	case ENFILE:
		doctor_fix(c, "raise the open file limit: ulimit -n 4096");
		break;
	default:
		if (p->msg[0])
			doctor_fix(c, "%s", p->msg);
		else
			doctor_fix(c, "run 'pstat -v -e %s true' for details",
			    c->name + strlen("probe:"));
		break;
	}
}

/*
 * The check of a probe whose counter could not be opened (or the kernel
 * does not support it): name is "probe:<event>", status how much that
 * matters, and the fix is probe_open_fix's.
 */
static void probe_failed(struct doctor *d, const char *name,
			 const char *status, const struct probe *p)
{
	struct check *c;

	c = doctor_add(d, name, status, "%s: cannot open it on this process: %s",
		name + strlen("probe:"), strerror(p->err));
	probe_open_fix(d, c, p);
}

/* Returns whether task-clock counted. */
bool probe_task_clock(struct doctor *d)
{
	struct probe p;
	struct check *c;

	probe(d, "task-clock", spin, 2, &p);
	switch (p.outcome) {
	case PROBE_COUNTED:
		doctor_add(d, "probe:task-clock", DOCTOR_OK,
		    "task-clock: counted %.2f msec on this process%s: software events work",
		    (double)p.value / 1e6,
		    p.flags & COUNTER_USER_ONLY ? " (user space only)" : "");
		return true;
	case PROBE_ZERO:
		c = doctor_add(d, "probe:task-clock", DOCTOR_FAIL,
			"task-clock: opened but counted nothing");
		doctor_fix(c, "the kernel's perf events look broken here (an emulated kernel such as gVisor?): count on a regular Linux kernel");
		return false;
	case PROBE_UNRESOLVED:
		c = doctor_add(d, "probe:task-clock", DOCTOR_FAIL,
			"task-clock: cannot resolve it: %s", p.msg);
		doctor_fix(c, "this is a bug in pstat: please report it");
		return false;
	case PROBE_NOT_SUPPORTED:
	case PROBE_OPEN_FAILED:
		break;
	}
	probe_failed(d, "probe:task-clock", DOCTOR_FAIL, &p);
	return false;
}

void probe_tracepoint(struct doctor *d, bool software_ok)
{
	static const char tp[] = "syscalls:sys_enter_write";
	struct probe p;
	struct check *c;

	probe(d, tp, writes, 3, &p);
	switch (p.outcome) {
	case PROBE_COUNTED:
		doctor_add(d, "probe:syscalls:sys_enter_write", DOCTOR_OK,
		    "%s: counted %llu write(2) calls: tracepoints work", tp,
		    (unsigned long long)p.value);
		return;
	case PROBE_ZERO:
		c = doctor_add(d, "probe:syscalls:sys_enter_write", DOCTOR_WARN,
			"%s: opened but counted no write(2) calls", tp);
		doctor_fix(c, "check that the tracefs in use (PSTAT_TRACEFS_ROOT?) is this kernel's");
		return;
	case PROBE_UNRESOLVED:
		c = doctor_add(d, "probe:syscalls:sys_enter_write", DOCTOR_WARN,
			"%s: cannot resolve it: %s", tp, p.msg);
		doctor_fix(c, "make tracefs readable (see tracefs above), or use a kernel with CONFIG_FTRACE_SYSCALLS=y");
		return;
	case PROBE_NOT_SUPPORTED:
	case PROBE_OPEN_FAILED:
		break;
	}
	probe_failed(d, "probe:syscalls:sys_enter_write",
		     software_ok ? DOCTOR_WARN : DOCTOR_FAIL, &p);
}

/*
 * Returns whether the hardware event ev (name: "probe:" ev) counted. With
 * a core PMU, a "not supported" is that PMU's answer for this event only
 * (QEMU's PMUv3 offers instructions only under -icount, cycles always).
 */
static bool probe_hw(struct doctor *d, const char *ev, const char *name)
{
	struct probe p;
	struct check *c;

	probe(d, ev, spin, 1, &p);
	switch (p.outcome) {
	case PROBE_COUNTED:
		doctor_add(d, name, DOCTOR_OK,
		    "%s: counted %llu%s: hardware events work", ev,
		    (unsigned long long)p.value,
		    p.run < p.ena ? " (multiplexed)" : "");
		return true;
	case PROBE_ZERO:
		c = doctor_add(d, name, DOCTOR_WARN,
			"%s: opened but counted nothing: the hardware counters do not count here",
			ev);
		doctor_fix(c, "a virtual PMU that is present but disabled? enable it in the hypervisor, or count on bare metal");
		return false;
	case PROBE_UNRESOLVED:
		c = doctor_add(d, name, DOCTOR_WARN,
			"%s: cannot resolve it: %s", ev, p.msg);
		doctor_fix(c, "this is a bug in pstat: please report it");
		return false;
	case PROBE_NOT_SUPPORTED:
		if (d->core_pmu) {
			c = doctor_add(d, name, DOCTOR_WARN,
				"%s: not supported (%s): the core PMU does not count this event",
				ev, strerror(p.err));
			doctor_fix(c, "'pstat list' shows the events it has");
			return false;
		}
		c = doctor_add(d, name, DOCTOR_WARN,
			"%s: not supported (%s): hardware events cannot be counted here",
			ev, strerror(p.err));
		if (d->hypervisor)
			doctor_fix(c, "this is %s: enable its virtual PMU, count on bare metal, or count instructions exactly on the simulated PMU (sim/instructions/)",
			    d->hypervisor);
		else
			doctor_fix(c, "the kernel has no PMU driver for this CPU: try a newer kernel; software events still work");
		return false;
	case PROBE_OPEN_FAILED:
		break;
	}
	probe_failed(d, name, DOCTOR_WARN, &p);
	return false;
}

bool probe_hardware(struct doctor *d)
{
	if (probe_hw(d, "instructions:u", "probe:instructions:u"))
		return true;
	/* a core PMU without instructions may still count cycles */
	return d->core_pmu && probe_hw(d, "cycles:u", "probe:cycles:u");
}
