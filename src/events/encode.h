/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_ENCODE_H
#define PSTAT_ENCODE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/msg.h"
#include "events/evspec.h"
#include "events/pmu.h"

/*
 * The syntax tree resolved to perf_event_attr records. Resolution order
 * for one event, first match wins: generic names, pmu/terms/, tracepoints,
 * raw rNNNN, breakpoints mem:ADDR[/LEN][:rwx], a sysfs alias of any PMU
 * ("tsc"), libpfm4. Raw values and modifiers of generic, raw and
 * tracepoint names are settled before libpfm4 is asked; libpfm4 gets a
 * name whole, with its own modifiers; a libpfm4 that cannot be loaded
 * knows no name. A {group} whose events are spread over several
 * instances of a PMU becomes one group per instance.
 */

/* (A new pointer field needs its deep copy in evlist_repeat too.) */
struct pstat_event {
	struct perf_event_attr attr;
	char *name;             /* display name: as written, or name= */
	char *pmu;              /* PMU name, for output */
	const char *resolver;   /* "generic", "sysfs", ... (static) */
	int group;              /* group index; members of one {} share it */
	int leader;             /* evlist index of the group leader */
	int row;                /* output row: PMU instances share one */
	double scale;           /* sysfs .scale, 1.0 otherwise */
	char *unit;             /* sysfs .unit, or NULL */
	/*
	 * The CPUs its PMU counts on (the PMU's cpumask: uncore, RAPL,
	 * cstate), opened there system-wide whatever the target; NULL when
	 * the event follows the target.
	 */
	int *cpus;
	size_t ncpus;
	/*
	 * The CPUs of its core PMU when that PMU covers only some of them
	 * (its cpus file: hybrid x86, big.LITTLE arm64), else NULL.
	 * Counting system-wide, the event is opened on those CPUs alone;
	 * counting a task, it follows the task, and the kernel counts it
	 * only while the task runs on one of them.
	 */
	int *core_cpus;
	size_t ncore_cpus;
	/*
	 * Written without a PMU and made one event per core PMU (cycles on
	 * cpu_core and on cpu_atom): a group of such events is split into
	 * one group per core PMU, as perf does.
	 */
	bool per_core_pmu;
	/*
	 * The kernel's EINVAL means "cannot be counted here", not a bad
	 * encoding: a tracepoint that tracefs lists without an id file
	 * (ftrace:bprint), as perf shows it: <not supported>.
	 */
	bool einval_unsupported;
	/*
	 * Its group is weak (perf's :W, and the groups pstat makes of a
	 * metric's events): when the kernel refuses a member, the group's
	 * events are opened ungrouped instead (counter.c).
	 */
	bool weak;
	char *group_name;       /* its group's name ("g1{...}"), or NULL */
	/*
	 * -G, --for-each-cgroup: the cgroup counted, a path below the
	 * cgroup mount as the user gave it; NULL: every task.
	 */
	char *cgroup;
};

/*
 * The most events of one {group}: its members are read at once, into a
 * buffer of this size (counter.c). perf sets no limit of its own; the
 * kernel's is the PMU's (software events: none).
 */
#define PSTAT_MAX_GROUP 512

struct pstat_evlist {
	struct pstat_event *ev;
	size_t n;
	int ngroups;
	int nrows;
};

struct pstat_encode_ctx {
	struct pstat_pmus *pmus;        /* borrowed */
	const char *tracefs_root;       /* NULL: the default tracefs */
	/*
	 * Set by encode_evlist: after a failure, a line to show as a hint
	 * below the error (why a libpfm4 name is unknown: libpfm4 cannot
	 * be loaded here), "" when there is none.
	 */
	char hint[256];
	/*
	 * Called, when set, the first time a name that could be a
	 * tracepoint meets no tracefs at all (tracefs_root NULL): it may
	 * mount tracefs, as perf does, and returns 0 when it did (the name
	 * is then looked up again). Returns -errno otherwise.
	 */
	int (*tracefs_mount)(void);
};

/*
 * Resolve every event of tree into out (which must be zeroed). Returns 0,
 * or -1 with err filled; err->offset then points into the event list
 * that evspec_parse saw (when tree came from one string).
 */
int encode_evlist(const struct pstat_evtree *tree,
		  struct pstat_encode_ctx *ctx, struct pstat_evlist *out,
		  struct pstat_error *err);

/*
 * Parse the event list s and resolve it into out, as evspec_parse and
 * encode_evlist do. Returns 0, or -1 with err filled (offset into s).
 */
int encode_string(const char *s, struct pstat_encode_ctx *ctx,
		  struct pstat_evlist *out, struct pstat_error *err);

/*
 * Apply perf's modifier letters to attr. group is nonzero for group
 * modifiers, which combine with what the event already has (as perf
 * does) instead of starting afresh. *exclude_GH says whether G or H has
 * been given (the event's own modifiers set it, the group's read it
 * and set it). Returns 0 or -1 with err filled.
 */
int encode_apply_mods(struct perf_event_attr *attr, const char *mods,
		      int group, int *exclude_GH, struct pstat_error *err);

/*
 * Make evl times copies of itself, one after another (perf's
 * --for-each-cgroup): each copy has groups, leaders and rows of its own.
 */
void evlist_repeat(struct pstat_evlist *evl, size_t times);

/*
 * Move the events of src to the end of dst, their groups, leaders and
 * rows after dst's; src is left empty.
 */
void evlist_append(struct pstat_evlist *dst, struct pstat_evlist *src);

/*
 * perf's --no-merge: each event opened on several instances of a PMU
 * (uncore_imc_0, uncore_imc_1; the core PMUs of a hybrid CPU) gets an
 * output row of its own, named for its instance ("uncore_imc_1/...").
 */
void evlist_no_merge(struct pstat_evlist *evl);

/* Free what evl holds; accepts NULL. */
void evlist_free(struct pstat_evlist *evl);

#endif
