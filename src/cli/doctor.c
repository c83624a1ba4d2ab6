/* SPDX-License-Identifier: MIT */
/*
 * `pstat doctor`: one command that says why counting does or does not
 * work here. The static checks read what the kernel publishes; the live
 * probes then open real counters on this very process, through
 * counter.c like any run, because only an open tells the whole truth
 * (a seccomp filter or an LSM can refuse what every file allows).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/doctor.h"
#include "events/encode.h"
#include "events/evspec.h"
#include "events/pfm.h"
#include "events/pmu.h"
#include "events/tracepoint.h"
#include "report/print.h"
#include "run/counter.h"
#include "run/session.h"

/* Capability bits of CapEff (linux/capability.h). */
#define CAP_SYS_ADMIN_BIT 21
#define CAP_PERFMON_BIT 38

/* Descriptors pstat opens per event per CPU with -a, plus its own. */
#define DEFAULT_EVENTS 8
#define FD_RESERVE 32

struct check {
	const char *name;
	const char *status;
	char *detail;
	char *fix;
};

struct doctor {
	const struct pstat_doctor_opts *o;
	struct check *checks;
	size_t n, alloc;
	struct pstat_pmus *pmus;
	int paranoid;           /* -1000 when unreadable */
	bool cap_perfmon, cap_sys_admin;
	int seccomp;            /* -1 when unknown */
	bool core_pmu;          /* the kernel exposes a core PMU */
	char *hypervisor;       /* a hint, or NULL */
};

static const char OK[] = "ok", WARN[] = "warn", FAIL[] = "fail";

__attribute__((format(printf, 4, 5)))
static struct check *add(struct doctor *d, const char *name,
			 const char *status, const char *fmt, ...)
{
	struct check *c;
	va_list ap;

	xgrow((void **)&d->checks, &d->alloc, d->n + 1, sizeof(*d->checks));
	c = &d->checks[d->n++];
	c->name = name;
	c->status = status;
	va_start(ap, fmt);
	if (vasprintf(&c->detail, fmt, ap) < 0)
		c->detail = xstrdup(name);
	va_end(ap);
	c->fix = NULL;
	return c;
}

__attribute__((format(printf, 2, 3)))
static void fix(struct check *c, const char *fmt, ...)
{
	va_list ap;

	free(c->fix);
	va_start(ap, fmt);
	if (vasprintf(&c->fix, fmt, ap) < 0)
		c->fix = NULL;
	va_end(ap);
}

/* The value of "Key:" in /proc/self/status, as a new string, or NULL. */
static char *proc_status_field(const char *key)
{
	char *s = read_file_str("/proc/self/status"), *line, *save = NULL;
	size_t klen = strlen(key);
	char *val = NULL;

	if (!s)
		return NULL;
	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			val = xstrdup(str_trim(line + klen + 1));
			break;
		}
	}
	free(s);
	return val;
}

static void check_paranoid(struct doctor *d)
{
	static const char path[] = "/proc/sys/kernel/perf_event_paranoid";
	bool privileged = d->cap_perfmon || d->cap_sys_admin;
	struct check *c;
	int r = counter_paranoid_read(&d->paranoid);

	if (r && r != -EINVAL) {
		int e = -r;

		d->paranoid = -1000;

		c = add(d, "perf_event_paranoid", WARN, "perf_event_paranoid: cannot read %s: %s",
			path, strerror(e));
		if (e == ENOENT)
			fix(c, "the kernel may be built without perf events: use one with CONFIG_PERF_EVENTS=y");
		else
			fix(c, "make %s readable (a container may hide it)",
			    path);
		return;
	}
	if (r) {
		d->paranoid = -1000;
		c = add(d, "perf_event_paranoid", WARN,
			"perf_event_paranoid: no integer in %s", path);
		fix(c, "sysctl kernel.perf_event_paranoid=2");
		return;
	}
	if (d->paranoid >= 3 && !privileged) {
		c = add(d, "perf_event_paranoid", FAIL,
			"perf_event_paranoid = %d: %s", d->paranoid,
			counter_paranoid_meaning(d->paranoid));
		fix(c, "sysctl kernel.perf_event_paranoid=2");
		return;
	}
	c = add(d, "perf_event_paranoid", OK, "perf_event_paranoid = %d: %s%s",
		d->paranoid, counter_paranoid_meaning(d->paranoid),
		privileged && d->paranoid > 0 ?
			" (does not apply: this process has CAP_PERFMON or CAP_SYS_ADMIN)" : "");
}

/* CapEff of this process; returns -1 when it cannot be read. */
static int read_caps(struct doctor *d)
{
	char *s = proc_status_field("CapEff");
	uint64_t caps;
	int r = -1;

	if (s && !parse_u64_base(s, 16, UINT64_MAX, &caps)) {
		d->cap_perfmon = caps >> CAP_PERFMON_BIT & 1;
		d->cap_sys_admin = caps >> CAP_SYS_ADMIN_BIT & 1;
		r = 0;
	}
	free(s);
	return r;
}

static void check_caps(struct doctor *d, int readable)
{
	struct check *c;

	if (readable < 0) {
		c = add(d, "capabilities", WARN,
			"capabilities: cannot read CapEff from /proc/self/status");
		fix(c, "mount /proc, or check capabilities with 'capsh --print'");
	} else if (d->cap_perfmon || d->cap_sys_admin) {
		add(d, "capabilities", OK,
		    "capabilities: CAP_PERFMON %s, CAP_SYS_ADMIN %s: kernel, CPU-wide and other users' counting allowed",
		    d->cap_perfmon ? "yes" : "no",
		    d->cap_sys_admin ? "yes" : "no");
	} else {
		add(d, "capabilities", OK,
		    "capabilities: no CAP_PERFMON or CAP_SYS_ADMIN: perf_event_paranoid decides what may be counted");
	}
}

/*
 * Where a VM shows: /sys/hypervisor/type (Xen and others), the
 * "hypervisor" CPUID bit in the x86 flags, or the DMI vendor. A new
 * string naming what was found, or NULL on bare metal.
 */
static char *hypervisor_hint(const char *root)
{
	char *path, *s, *line, *save = NULL, *vendor;
	bool flag = false;

	path = xasprintf("%s/hypervisor/type", root ? root : "/sys");
	s = read_file_str(path);
	free(path);
	if (s && *s) {
		char *hint = xasprintf("a virtual machine (hypervisor: %s)", s);

		free(s);
		return hint;
	}
	free(s);
	s = read_file_str("/proc/cpuinfo");
	for (line = s ? strtok_r(s, "\n", &save) : NULL; line && !flag;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "flags", 5))
			continue;
		flag = strstr(line, " hypervisor") != NULL;
		break;
	}
	free(s);
	if (!flag)
		return NULL;
	path = xasprintf("%s/class/dmi/id/sys_vendor", root ? root : "/sys");
	vendor = read_file_str(path);
	free(path);
	s = vendor && *vendor ? xasprintf("a virtual machine (%s)", vendor)
			      : xstrdup("a virtual machine");
	free(vendor);
	return s;
}

static void check_pmus(struct doctor *d)
{
	const char *root = d->o->sysfs_root;
	const struct pstat_pmu **all = NULL;
	size_t n = pmus_all(d->pmus, &all);
	bool core = false, atom = false;
	char *names = NULL, *t;
	struct check *c;

	d->hypervisor = hypervisor_hint(root);
	for (size_t i = 0; i < n; i++) {
		if (!pmu_is_core(root, all[i]->name))
			continue;
		t = xasprintf("%s%s%s (type %u)", names ? names : "",
			      names ? ", " : "", all[i]->name, all[i]->type);
		free(names);
		names = t;
		if (!strcmp(all[i]->name, "cpu_core"))
			core = true;
		if (!strcmp(all[i]->name, "cpu_atom"))
			atom = true;
	}
	free(all);
	d->core_pmu = pmus_have_core(d->pmus, root);
	if (d->core_pmu) {
		add(d, "core_pmu", OK,
		    "core PMU: %s under %s/bus/event_source/devices: hardware events such as cycles and instructions are available",
		    names, root ? root : "/sys");
	} else {
		c = add(d, "core_pmu", WARN,
			"core PMU: none under %s/bus/event_source/devices: hardware events (cycles, instructions) are not supported%s%s%s",
			root ? root : "/sys",
			d->hypervisor ? "; this is " : "",
			d->hypervisor ? d->hypervisor : "",
			d->hypervisor ? " without a virtual PMU" : "");
		if (d->hypervisor)
			fix(c, "enable the virtual PMU (QEMU/KVM: -cpu host or pmu=on; VMware: virtualize CPU performance counters) or count on bare metal; software events and tracepoints work without it");
		else
			fix(c, "the kernel does not drive this CPU's PMU: try a newer kernel; software events and tracepoints work without it");
	}
	free(names);
	if (core && atom)
		add(d, "hybrid", OK,
		    "hybrid CPU: core types cpu_core (performance) and cpu_atom (efficiency), each its own PMU: name one to count on it alone, e.g. cpu_core/cycles/");
	else if (core || atom)
		add(d, "hybrid", OK,
		    "hybrid CPU: only the %s core type has a PMU here",
		    core ? "cpu_core" : "cpu_atom");
	else
		add(d, "hybrid", OK, "hybrid CPU: no (one core type)");
}

struct pfm_names {
	char *names;
	size_t n;
	const char *core;   /* libpfm4's core PMU, borrowed */
};

static void pfm_pmu_cb(const char *name, const char *desc, bool is_core,
		       void *arg)
{
	struct pfm_names *p = arg;
	char *joined = p->names ? xasprintf("%s, %s", p->names, name)
				: xstrdup(name);

	(void)desc;
	free(p->names);
	p->names = joined;
	p->n++;
	if (is_core && !p->core)
		p->core = name;
}

static void check_pfm(struct doctor *d)
{
	struct pfm_names p = { 0 };
	struct check *c;

	if (pfm_foreach_pmu(pfm_pmu_cb, &p)) {
		c = add(d, "libpfm4", WARN,
			"libpfm4: cannot initialise: libpfm4 event names (INST_RETIRED:ANY_P, pmu::EVENT) are unavailable");
		fix(c, "install libpfm4 (Debian: libpfm4) matching the one pstat was built with");
		free(p.names);
		return;
	}
	if (p.core && !d->core_pmu)
		add(d, "libpfm4", OK,
		    "libpfm4: detects %s; the %s events need a kernel core PMU, absent here",
		    p.names, p.core);
	else
		add(d, "libpfm4", OK, "libpfm4: detects %s",
		    p.n ? p.names : "no PMU");
	free(p.names);
}

static void check_nmi_watchdog(struct doctor *d)
{
	char *s = read_file_str("/proc/sys/kernel/nmi_watchdog");
	struct check *c;

	if (!s) {
		add(d, "nmi_watchdog", OK,
		    "nmi_watchdog: not present: no hardware counter is taken");
		return;
	}
	if (!strcmp(s, "0")) {
		add(d, "nmi_watchdog", OK,
		    "nmi_watchdog = 0: every hardware counter is free");
	} else if (!d->core_pmu) {
		add(d, "nmi_watchdog", OK,
		    "nmi_watchdog = %s: it would take a hardware counter, but there is no core PMU here",
		    s);
	} else {
		c = add(d, "nmi_watchdog", WARN,
			"nmi_watchdog = %s: the NMI watchdog holds one hardware counter, so groups get one fewer and multiplex sooner",
			s);
		fix(c, "sysctl kernel.nmi_watchdog=0");
	}
	free(s);
}

static void check_tracefs(struct doctor *d)
{
	const char *root = tracepoint_root(d->o->tracefs_root);
	struct check *c;
	char *events;

	if (!root) {
		c = add(d, "tracefs", WARN,
			"tracefs: not mounted at /sys/kernel/tracing or /sys/kernel/debug/tracing: tracepoints cannot be named");
		fix(c, "mount -t tracefs nodev /sys/kernel/tracing");
		return;
	}
	events = xasprintf("%s/events", root);
	if (access(events, R_OK | X_OK)) {
		int e = errno;

		c = add(d, "tracefs", WARN,
			"tracefs: %s is not readable (%s): tracepoints cannot be named",
			events, strerror(e));
		if (e == EACCES)
			fix(c, "run as root, or make it readable: mount -o remount,mode=755 %s",
			    root);
		else
			fix(c, "mount -t tracefs nodev /sys/kernel/tracing");
	} else {
		add(d, "tracefs", OK, "tracefs: %s is readable", events);
	}
	free(events);
}

static void check_seccomp(struct doctor *d)
{
	char *s = proc_status_field("Seccomp");
	uint64_t v;

	d->seccomp = -1;
	if (s && !parse_u64(s, 2, &v))
		d->seccomp = (int)v;
	free(s);
	if (d->seccomp < 0)
		add(d, "seccomp", OK, "seccomp: unknown (no Seccomp in /proc/self/status)");
	else if (d->seccomp == 0)
		add(d, "seccomp", OK, "seccomp: off");
	else if (d->seccomp == 1)
		fix(add(d, "seccomp", WARN,
			"seccomp: strict mode: only read, write, exit and sigreturn are allowed"),
		    "run pstat outside the sandbox that set strict mode");
	else
		add(d, "seccomp", OK,
		    "seccomp: a filter is active (a container?): it may refuse perf_event_open; the probes below tell");
}

static void check_rlimit(struct doctor *d)
{
	struct rlimit rl;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long long need;
	struct check *c;
	char soft[32], hard[32];

	if (getrlimit(RLIMIT_NOFILE, &rl)) {
		c = add(d, "rlimit_nofile", WARN,
			"RLIMIT_NOFILE: cannot read it: %s", strerror(errno));
		fix(c, "check the limit with 'ulimit -n' and 'ulimit -Hn'");
		return;
	}
	if (cpus < 1)
		cpus = 1;
	need = (unsigned long long)cpus * DEFAULT_EVENTS + FD_RESERVE;
	if (rl.rlim_cur == RLIM_INFINITY)
		snprintf(soft, sizeof(soft), "unlimited");
	else
		snprintf(soft, sizeof(soft), "%llu",
			 (unsigned long long)rl.rlim_cur);
	if (rl.rlim_max == RLIM_INFINITY)
		snprintf(hard, sizeof(hard), "unlimited");
	else
		snprintf(hard, sizeof(hard), "%llu",
			 (unsigned long long)rl.rlim_max);
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
		c = add(d, "rlimit_nofile", WARN,
			"RLIMIT_NOFILE: soft %s, hard %s: below the %llu descriptors that -a with the default events needs on %ld CPUs",
			soft, hard, need, cpus);
		fix(c, "raise the hard limit: ulimit -Hn %llu (as root), or nofile in /etc/security/limits.conf",
		    need);
		return;
	}
	add(d, "rlimit_nofile", OK,
	    "RLIMIT_NOFILE: soft %s, hard %s: pstat raises the soft limit as needed (one descriptor per event, CPU and thread)",
	    soft, hard);
}

/* Keeps the compiler from dropping the probes' busy loop. */
static volatile uint64_t spin_sink;

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
	struct pstat_evtree tree = { 0 };
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
	if (evspec_parse(spec, &tree, &err) ||
	    encode_evlist(&tree, &ctx, &evl, &err)) {
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
	e = counters_read(&c, &r);
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
	evspec_tree_free(&tree);
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
			fix(c, "sysctl kernel.perf_event_paranoid=2");
		else if (d->seccomp == 2)
			fix(c, "a seccomp filter refuses perf_event_open: run the container with --cap-add PERFMON or --security-opt seccomp=unconfined");
		else
			fix(c, "perf_event_paranoid allows this, so a security module (SELinux, AppArmor) or a sandbox refuses perf_event_open: allow it there, or run with CAP_PERFMON");
		break;
	case ENOSYS:
		fix(c, "perf_event_open is missing: use a kernel with CONFIG_PERF_EVENTS=y, or allow the syscall in the container's seccomp profile");
		break;
	case EMFILE:
	case ENFILE:
		fix(c, "raise the open file limit: ulimit -n 4096");
		break;
	default:
		if (p->msg[0])
			fix(c, "%s", p->msg);
		else
			fix(c, "run 'pstat -v -e %s true' for details",
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

	c = add(d, name, status, "%s: cannot open it on this process: %s",
		name + strlen("probe:"), strerror(p->err));
	probe_open_fix(d, c, p);
}

/* Returns whether task-clock counted. */
static bool probe_task_clock(struct doctor *d)
{
	struct probe p;
	struct check *c;

	probe(d, "task-clock", spin, 2, &p);
	switch (p.outcome) {
	case PROBE_COUNTED:
		add(d, "probe:task-clock", OK,
		    "task-clock: counted %.2f msec on this process%s: software events work",
		    (double)p.value / 1e6,
		    p.flags & COUNTER_USER_ONLY ? " (user space only)" : "");
		return true;
	case PROBE_ZERO:
		c = add(d, "probe:task-clock", FAIL,
			"task-clock: opened but counted nothing");
		fix(c, "the kernel's perf events look broken here (an emulated kernel such as gVisor?): count on a regular Linux kernel");
		return false;
	case PROBE_UNRESOLVED:
		c = add(d, "probe:task-clock", FAIL,
			"task-clock: cannot resolve it: %s", p.msg);
		fix(c, "this is a bug in pstat: please report it");
		return false;
	case PROBE_NOT_SUPPORTED:
	case PROBE_OPEN_FAILED:
		break;
	}
	probe_failed(d, "probe:task-clock", FAIL, &p);
	return false;
}

static void probe_tracepoint(struct doctor *d, bool software_ok)
{
	static const char tp[] = "syscalls:sys_enter_write";
	struct probe p;
	struct check *c;

	probe(d, tp, writes, 3, &p);
	switch (p.outcome) {
	case PROBE_COUNTED:
		add(d, "probe:syscalls:sys_enter_write", OK,
		    "%s: counted %llu write(2) calls: tracepoints work", tp,
		    (unsigned long long)p.value);
		return;
	case PROBE_ZERO:
		c = add(d, "probe:syscalls:sys_enter_write", WARN,
			"%s: opened but counted no write(2) calls", tp);
		fix(c, "check that the tracefs in use (PSTAT_TRACEFS_ROOT?) is this kernel's");
		return;
	case PROBE_UNRESOLVED:
		c = add(d, "probe:syscalls:sys_enter_write", WARN,
			"%s: cannot resolve it: %s", tp, p.msg);
		fix(c, "make tracefs readable (see tracefs above), or use a kernel with CONFIG_FTRACE_SYSCALLS=y");
		return;
	case PROBE_NOT_SUPPORTED:
	case PROBE_OPEN_FAILED:
		break;
	}
	probe_failed(d, "probe:syscalls:sys_enter_write",
		     software_ok ? WARN : FAIL, &p);
}

/* Returns whether instructions:u counted. */
static bool probe_instructions(struct doctor *d)
{
	static const char ev[] = "instructions:u";
	struct probe p;
	struct check *c;

	probe(d, ev, spin, 1, &p);
	switch (p.outcome) {
	case PROBE_COUNTED:
		add(d, "probe:instructions:u", OK,
		    "%s: counted %llu instructions%s: hardware events work",
		    ev, (unsigned long long)p.value,
		    p.run < p.ena ? " (multiplexed)" : "");
		return true;
	case PROBE_ZERO:
		c = add(d, "probe:instructions:u", WARN,
			"%s: opened but counted nothing: the hardware counters do not count here",
			ev);
		fix(c, "a virtual PMU that is present but disabled? enable it in the hypervisor, or count on bare metal");
		return false;
	case PROBE_UNRESOLVED:
		c = add(d, "probe:instructions:u", WARN,
			"%s: cannot resolve it: %s", ev, p.msg);
		fix(c, "this is a bug in pstat: please report it");
		return false;
	case PROBE_NOT_SUPPORTED:
		c = add(d, "probe:instructions:u", WARN,
			"%s: not supported (%s): hardware events cannot be counted here",
			ev, strerror(p.err));
		if (d->hypervisor)
			fix(c, "this is %s: enable its virtual PMU, or count on bare metal",
			    d->hypervisor);
		else
			fix(c, "the kernel has no PMU driver for this CPU: try a newer kernel; software events still work");
		return false;
	case PROBE_OPEN_FAILED:
		break;
	}
	probe_failed(d, "probe:instructions:u", WARN, &p);
	return false;
}

/* The verdict sentence, shared by the text report and the JSON. */
static const char *verdict_result(bool sw, bool hw)
{
	if (sw)
		return hw ? "software counting works; hardware counting works"
			  : "software counting works; hardware counting is not available";
	return hw ? "software counting does not work; hardware counting works"
		  : "software counting does not work; hardware counting is not available";
}

static int print_text(FILE *out, const struct doctor *d,
		      const struct pstat_doctor_verdict *v)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct check *c = &d->checks[i];

		fprintf(out, "%-6s%s\n", c->status, c->detail);
		if (c->fix)
			fprintf(out, "      fix: %s\n", c->fix);
	}
	fprintf(out, "\nresult: %s\n", v->result);
	return print_flush(out);
}

int doctor_run(const struct pstat_doctor_opts *o, FILE *out)
{
	struct doctor d = { .o = o };
	struct pstat_doctor_check *pub = NULL;
	struct pstat_doctor_verdict v;
	bool sw, hw;
	int caps, status, r;

	d.pmus = pmus_new(o->sysfs_root);
	/* the paranoid line says whether the capabilities override it */
	caps = read_caps(&d);
	check_paranoid(&d);
	check_caps(&d, caps);
	check_pmus(&d);
	check_pfm(&d);
	check_nmi_watchdog(&d);
	check_tracefs(&d);
	check_seccomp(&d);
	check_rlimit(&d);
	sw = probe_task_clock(&d);
	probe_tracepoint(&d, sw);
	hw = probe_instructions(&d);
	status = sw ? DOCTOR_EXIT_OK : DOCTOR_EXIT_NO_COUNT;
	v = (struct pstat_doctor_verdict){
		.software_counting = sw,
		.hardware_counting = hw,
		.result = verdict_result(sw, hw),
		.exit_status = status,
	};

	if (o->json) {
		pub = xcalloc(d.n + 1, sizeof(*pub));
		for (size_t i = 0; i < d.n; i++) {
			pub[i].name = d.checks[i].name;
			pub[i].status = d.checks[i].status;
			pub[i].detail = d.checks[i].detail;
			pub[i].fix = d.checks[i].fix;
		}
		r = print_json_doctor(out, pub, d.n, &v);
		free(pub);
	} else {
		r = print_text(out, &d, &v);
	}
	if (r) {
		msg_error("cannot write the report: %s", strerror(-r));
		status = EXIT_PSTAT_FAILED;
	}
	for (size_t i = 0; i < d.n; i++) {
		free(d.checks[i].detail);
		free(d.checks[i].fix);
	}
	free(d.checks);
	free(d.hypervisor);
	pmus_free(d.pmus);
	pfm_cleanup();
	return status;
}
