/* SPDX-License-Identifier: MIT */
/*
 * What a refusal of perf_event_open means for the user: the meaning of
 * perf_event_paranoid and the advice for an errno, conditioned on the
 * attr (perf's evsel__open_strerror). Pure: counter.c makes the calls.
 */
#include <errno.h>
#include <stdio.h>

#include "run/counter.h"

const char *counter_paranoid_meaning(int p)
{
	if (p <= -1)
		return "no restrictions: any user may count anything, CPU-wide included";
	if (p == 0)
		return "CPU-wide and kernel counting allowed for all users";
	if (p == 1)
		return "user and kernel counting allowed for own processes; CPU-wide counting needs CAP_PERFMON";
	if (p == 2)
		return "user-space counting allowed for own processes";
	return "perf_event_open is forbidden to unprivileged users (a distribution patch)";
}

void counter_advice(const struct perf_event_attr *attr, int err, int cpu,
		    int paranoid, char *buf, size_t len)
{
	buf[0] = '\0';
	switch (err) {
	case EACCES:
	case EPERM:
		if (cpu >= 0)
			snprintf(buf, len,
				 "perf_event_paranoid is %d (%s): counting a whole CPU needs it <= 0, or CAP_PERFMON/CAP_SYS_ADMIN (sysctl kernel.perf_event_paranoid=0)",
				 paranoid, counter_paranoid_meaning(paranoid));
		else if (!attr->exclude_kernel)
			snprintf(buf, len,
				 "perf_event_paranoid is %d (%s): counting the kernel needs it <= 1, or CAP_PERFMON/CAP_SYS_ADMIN (sysctl kernel.perf_event_paranoid=1), or the :u modifier",
				 paranoid, counter_paranoid_meaning(paranoid));
		else
			snprintf(buf, len,
				 "perf_event_paranoid is %d (%s) and the process may belong to another user (ptrace access is required); try as root or with CAP_PERFMON",
				 paranoid, counter_paranoid_meaning(paranoid));
		break;
	case EMFILE:
	case ENFILE:
		snprintf(buf, len,
			 "too many open files: raise the limit with 'ulimit -n'");
		break;
	case EBUSY:
		snprintf(buf, len,
			 "the PMU is in use by another tool (or the NMI watchdog: sysctl kernel.nmi_watchdog=0)");
		break;
	case EINVAL:
		if (attr->precise_ip)
			snprintf(buf, len,
				 "the PMU refused the precision modifier (:p); try without it");
		else if (attr->type == PERF_TYPE_BREAKPOINT)
			snprintf(buf, len,
				 "the breakpoint address or length is not valid here");
		else
			snprintf(buf, len,
				 "the PMU rejected this encoding: check the event's terms and modifiers");
		break;
	case ESRCH:
		snprintf(buf, len, "the process no longer exists");
		break;
	default:
		break;
	}
}
