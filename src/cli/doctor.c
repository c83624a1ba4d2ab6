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

#include "base/cpumap.h"
#include "base/msg.h"
#include "base/util.h"
#include "cli/cpuid.h"
#include "cli/doctor.h"
#include "cli/doctor_priv.h"
#include "cli/sim_cli.h"
#include "events/encode.h"
#include "events/evspec.h"
#include "events/hybrid.h"
#include "events/pfm.h"
#include "events/pmu.h"
#include "events/tracepoint.h"
#include "report/print.h"
#include "run/counter.h"
#include "run/session.h"

struct check *doctor_add(struct doctor *d, const char *name,
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

void doctor_fix(struct check *c, const char *fmt, ...)
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

		c = doctor_add(d, "perf_event_paranoid", DOCTOR_WARN, "perf_event_paranoid: cannot read %s: %s",
			path, strerror(e));
		if (e == ENOENT)
			doctor_fix(c, "the kernel may be built without perf events: use one with CONFIG_PERF_EVENTS=y");
		else
			doctor_fix(c, "make %s readable (a container may hide it)",
			    path);
		return;
	}
	if (r) {
		d->paranoid = -1000;
		c = doctor_add(d, "perf_event_paranoid", DOCTOR_WARN,
			"perf_event_paranoid: no integer in %s", path);
		doctor_fix(c, "sysctl kernel.perf_event_paranoid=2");
		return;
	}
	if (d->paranoid >= 3 && !privileged) {
		c = doctor_add(d, "perf_event_paranoid", DOCTOR_FAIL,
			"perf_event_paranoid = %d: %s", d->paranoid,
			counter_paranoid_meaning(d->paranoid));
		doctor_fix(c, "sysctl kernel.perf_event_paranoid=2");
		return;
	}
	c = doctor_add(d, "perf_event_paranoid", DOCTOR_OK, "perf_event_paranoid = %d: %s%s",
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
		c = doctor_add(d, "capabilities", DOCTOR_WARN,
			"capabilities: cannot read CapEff from /proc/self/status");
		doctor_fix(c, "mount /proc, or check capabilities with 'capsh --print'");
	} else if (d->cap_perfmon || d->cap_sys_admin) {
		doctor_add(d, "capabilities", DOCTOR_OK,
		    "capabilities: CAP_PERFMON %s, CAP_SYS_ADMIN %s: kernel, CPU-wide and other users' counting allowed",
		    d->cap_perfmon ? "yes" : "no",
		    d->cap_sys_admin ? "yes" : "no");
	} else {
		doctor_add(d, "capabilities", DOCTOR_OK,
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
	/* a line of the first CPU: the file is long on many CPUs */
	s = read_file_max(AT_FDCWD, "/proc/cpuinfo", 1u << 22);
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

/*
 * The core PMUs with a cpus file: several of them are a hybrid (or
 * big.LITTLE) CPU, whose generic events pstat opens once per PMU.
 */
static void check_hybrid(struct doctor *d)
{
	struct pstat_core_pmu *v;
	size_t n = hybrid_core_pmus(d->pmus, &v);
	char *list = NULL, *t, cpus[128];

	for (size_t i = 0; i < n; i++) {
		t = xasprintf("%s%s%s (CPUs %s)", list ? list : "",
			      list ? ", " : "", v[i].pmu->name,
			      cpumap_format(v[i].cpus, v[i].ncpus, cpus,
					    sizeof(cpus)));
		free(list);
		list = t;
	}
	if (n >= 2)
		doctor_add(d, "hybrid", DOCTOR_OK,
		    "hybrid CPU: %zu core PMUs, each counting on its own CPUs: %s; a generic event such as cycles is counted on each (one row per PMU), and %s/cycles/ counts on the %s CPUs alone",
		    n, list, v[n - 1].pmu->name, v[n - 1].pmu->name);
	else if (n == 1)
		doctor_add(d, "hybrid", DOCTOR_OK,
			   "hybrid CPU: no (one core type: %s)", list);
	else
		doctor_add(d, "hybrid", DOCTOR_OK,
			   "hybrid CPU: no (one core type)");
	free(list);
	hybrid_core_pmus_free(v, n);
}

static void check_pmus(struct doctor *d)
{
	const char *root = d->o->sysfs_root;
	const struct pstat_pmu **all = NULL;
	size_t n = pmus_all(d->pmus, &all);
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
	}
	free(all);
	d->core_pmu = pmus_have_core(d->pmus, root);
	if (d->core_pmu) {
		doctor_add(d, "core_pmu", DOCTOR_OK,
		    "core PMU: %s under %s/bus/event_source/devices: hardware events such as cycles and instructions are available",
		    names, root ? root : "/sys");
	} else {
		c = doctor_add(d, "core_pmu", DOCTOR_WARN,
			"core PMU: none under %s/bus/event_source/devices: hardware events (cycles, instructions) are not supported%s%s%s",
			root ? root : "/sys",
			d->hypervisor ? "; this is " : "",
			d->hypervisor ? d->hypervisor : "",
			d->hypervisor ? " without a virtual PMU" : "");
		if (d->hypervisor)
			doctor_fix(c, "enable the virtual PMU (QEMU/KVM: -cpu host or pmu=on; VMware: virtualize CPU performance counters) or count on bare metal; software events and tracepoints work without it");
		else
			doctor_fix(c, "the kernel does not drive this CPU's PMU: try a newer kernel; software events and tracepoints work without it");
	}
	free(names);
	check_hybrid(d);
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

/* libpfm4 has the tables of the architecture it was built for only */
#if defined(__aarch64__) || defined(__arm__)
#define PFM_FORCE_EXAMPLES " (arm_n1, arm_v1, arm_ac57, ...)"
#elif defined(__x86_64__) || defined(__i386__)
#define PFM_FORCE_EXAMPLES " (skl, amd64_fam19h_zen4, ...)"
#else
#define PFM_FORCE_EXAMPLES ""
#endif

static void check_pfm(struct doctor *d)
{
	struct pfm_names p = { 0 };
	struct check *c;

	if (pfm_foreach_pmu(pfm_pmu_cb, &p)) {
		c = doctor_add(d, "libpfm4", DOCTOR_WARN,
			"libpfm4: cannot initialise: libpfm4 event names (INST_RETIRED:ANY_P, pmu::EVENT) are unavailable");
		doctor_fix(c, "install libpfm4 (Debian: libpfm4) matching the one pstat was built with");
		free(p.names);
		return;
	}
	if (!p.core) {
		char *cpu = cpuid_describe();
		char ver[64] = "";
		struct pstat_error err;

		pfm_library_version(ver, sizeof(ver), &err);
		c = doctor_add(d, "libpfm4", DOCTOR_WARN,
			"libpfm4: %s%shas no event table for this CPU (%s): vendor names (INST_RETIRED:ANY_P, pmu::EVENT) are unknown here; sysfs names (cpu/event=0xc0/) and raw codes (r00c0) still work",
			ver, *ver ? " " : "", cpu ? cpu : "unknown model");
		doctor_fix(c, "a newer libpfm4 may know this CPU; LIBPFM_FORCE_PMU=NAME" PFM_FORCE_EXAMPLES " makes libpfm4 use a related table");
		free(cpu);
		free(p.names);
		return;
	}
	if (p.core && !d->core_pmu)
		doctor_add(d, "libpfm4", DOCTOR_OK,
		    "libpfm4: detects %s; the %s events need a kernel core PMU, absent here",
		    p.names, p.core);
	else
		doctor_add(d, "libpfm4", DOCTOR_OK, "libpfm4: detects %s",
		    p.n ? p.names : "no PMU");
	free(p.names);
}

static void check_nmi_watchdog(struct doctor *d)
{
	char *s = read_file_str("/proc/sys/kernel/nmi_watchdog");
	struct check *c;

	if (!s) {
		doctor_add(d, "nmi_watchdog", DOCTOR_OK,
		    "nmi_watchdog: not present: no hardware counter is taken");
		return;
	}
	if (!strcmp(s, "0")) {
		doctor_add(d, "nmi_watchdog", DOCTOR_OK,
		    "nmi_watchdog = 0: every hardware counter is free");
	} else if (!d->core_pmu) {
		doctor_add(d, "nmi_watchdog", DOCTOR_OK,
		    "nmi_watchdog = %s: it would take a hardware counter, but there is no core PMU here",
		    s);
	} else {
		c = doctor_add(d, "nmi_watchdog", DOCTOR_WARN,
			"nmi_watchdog = %s: the NMI watchdog holds one hardware counter, so groups get one fewer and multiplex sooner",
			s);
		doctor_fix(c, "sysctl kernel.nmi_watchdog=0");
	}
	free(s);
}

static void check_tracefs(struct doctor *d)
{
	const char *root = tracepoint_root(d->o->tracefs_root);
	struct check *c;
	char *events;

	if (!root) {
		c = doctor_add(d, "tracefs", DOCTOR_WARN,
			"tracefs: not mounted at /sys/kernel/tracing or /sys/kernel/debug/tracing: tracepoints cannot be named");
		doctor_fix(c, "mount -t tracefs nodev /sys/kernel/tracing");
		return;
	}
	events = xasprintf("%s/events", root);
	if (access(events, R_OK | X_OK)) {
		int e = errno;

		c = doctor_add(d, "tracefs", DOCTOR_WARN,
			"tracefs: %s is not readable (%s): tracepoints cannot be named",
			events, strerror(e));
		if (e == EACCES)
			doctor_fix(c, "run as root, or make it readable: mount -o remount,mode=755 %s",
			    root);
		else
			doctor_fix(c, "mount -t tracefs nodev /sys/kernel/tracing");
	} else {
		doctor_add(d, "tracefs", DOCTOR_OK, "tracefs: %s is readable", events);
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
		doctor_add(d, "seccomp", DOCTOR_OK, "seccomp: unknown (no Seccomp in /proc/self/status)");
	else if (d->seccomp == 0)
		doctor_add(d, "seccomp", DOCTOR_OK, "seccomp: off");
	else if (d->seccomp == 1)
		doctor_fix(doctor_add(d, "seccomp", DOCTOR_WARN,
			"seccomp: strict mode: only read, write, exit and sigreturn are allowed"),
		    "run pstat outside the sandbox that set strict mode");
	else
		doctor_add(d, "seccomp", DOCTOR_OK,
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
		c = doctor_add(d, "rlimit_nofile", DOCTOR_WARN,
			"RLIMIT_NOFILE: cannot read it: %s", strerror(errno));
		doctor_fix(c, "check the limit with 'ulimit -n' and 'ulimit -Hn'");
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
		c = doctor_add(d, "rlimit_nofile", DOCTOR_WARN,
			"RLIMIT_NOFILE: soft %s, hard %s: below the %llu descriptors that -a with the default events needs on %ld CPUs",
			soft, hard, need, cpus);
		doctor_fix(c, "raise the hard limit: ulimit -Hn %llu (as root), or nofile in /etc/security/limits.conf",
		    need);
		return;
	}
	doctor_add(d, "rlimit_nofile", DOCTOR_OK,
	    "RLIMIT_NOFILE: soft %s, hard %s: pstat raises the soft limit as needed (one descriptor per event, CPU and thread)",
	    soft, hard);
}

/*
 * The simulated PMU: whether valgrind is there to run it, and what it
 * costs (the man page's SIMULATED PMU has the measurements).
 */
static void check_sim(struct doctor *d)
{
	char *valgrind = sim_find_valgrind();

	if (valgrind)
		doctor_add(d, "sim", DOCTOR_OK,
		    "sim: %s runs the simulated PMU (sim/instructions/, --sim): exact counts without a PMU, at 4 to 20 times the command's native run time",
		    valgrind);
	else
		doctor_fix(doctor_add(d, "sim", DOCTOR_WARN,
		    "sim: valgrind is not installed: the simulated PMU (sim/instructions/, --sim) cannot count"),
		    "install valgrind: apt-get install valgrind (Debian, Ubuntu), dnf install valgrind (Fedora)");
	free(valgrind);
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

/*
 * perf_event_paranoid 3 forbids every user only on kernels with the
 * distribution patch that gives 3 that meaning (Debian's, Android's); an
 * upstream kernel treats it as 2. When the probe counted although the
 * paranoid line said it could not, the line follows the probe.
 */
static void paranoid_follow_probe(struct doctor *d)
{
	for (size_t i = 0; i < d->n; i++) {
		struct check *c = &d->checks[i];

		if (strcmp(c->name, "perf_event_paranoid") ||
		    strcmp(c->status, DOCTOR_FAIL) || d->paranoid < 3)
			continue;
		free(c->detail);
		free(c->fix);
		c->fix = NULL;
		c->status = DOCTOR_OK;
		c->detail = xasprintf("perf_event_paranoid = %d: this kernel counts as with 2 (user space of one's own processes, as the probe below shows): it lacks the distribution patch that makes %d forbid all counting",
				      d->paranoid, d->paranoid);
	}
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
	check_sim(&d);
	sw = probe_task_clock(&d);
	if (sw)
		paranoid_follow_probe(&d);
	probe_tracepoint(&d, sw);
	hw = probe_hardware(&d);
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
