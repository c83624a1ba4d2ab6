/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_DOCTOR_PRIV_H
#define PSTAT_DOCTOR_PRIV_H

/*
 * What doctor.c (the static checks, the verdict) and doctor_probe.c
 * (the live probes) share. Not for other modules.
 */

#include <stdbool.h>
#include <stddef.h>

#include "cli/doctor.h"
#include "events/pmu.h"

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

/* A check's statuses. */
#define DOCTOR_OK "ok"
#define DOCTOR_WARN "warn"
#define DOCTOR_FAIL "fail"

/*
 * Add a check with a detail printf'd from fmt, and return it (borrowed,
 * valid until the next add) so that a fix can be attached.
 */
__attribute__((format(printf, 4, 5)))
struct check *doctor_add(struct doctor *d, const char *name,
			 const char *status, const char *fmt, ...);

/* Set (replace) what the user can do about check c. */
__attribute__((format(printf, 2, 3)))
void doctor_fix(struct check *c, const char *fmt, ...);

/* The live probes (doctor_probe.c), run in this order. */
bool probe_task_clock(struct doctor *d);
void probe_tracepoint(struct doctor *d, bool software_ok);
/* instructions:u, and with a core PMU cycles:u if that fails: whether one counted */
bool probe_hardware(struct doctor *d);

#endif
