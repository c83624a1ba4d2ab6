/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_COUNTER_H
#define PSTAT_COUNTER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "events/encode.h"
#include "report/stats.h"

/*
 * The counters of an event list, one per (event, cpu, thread). This is
 * the only module that calls perf_event_open, ioctl and read on them.
 */

struct pstat_open_opts {
	int inherit;          /* count children and threads created later */
	int enable_on_exec;   /* start counting when the child execs */
	int disabled;         /* open disabled (enable later with ioctl) */
	/*
	 * Counting on a task that forks the measured children (pstat on
	 * itself): also open one event that is not inherited. The kernel
	 * marks a child's context as a clone of its parent's only when every
	 * event was inherited, and swaps the contexts of a parent and a
	 * cloned child at context switches (an optimisation for identical
	 * contexts); a swap would hand pstat's own counters to the child,
	 * to be orphaned when it exits. One non-inherited event rules that
	 * out.
	 */
	int no_clone;
	/*
	 * Per event, the directory of the cgroup it counts (-G) or -1;
	 * NULL for none. Used when counting per CPU (pid -1). Borrowed.
	 */
	const int *cgroup_fds;
	/*
	 * Counting the threads of processes that already run (-p, -t):
	 * open a thread's software events and tracepoints that are in no
	 * group of the user's as one group, so that reading the thread
	 * takes one read(2), not one per event (with thousands of threads,
	 * most of the cost of an interval). They never multiplex, so each
	 * counts what it would alone; but disabling the group's leader
	 * would stop all of them, so never with counters_toggle of one
	 * event (the control channel).
	 */
	int task_groups;
};

/* Per-event outcome of opening. */
enum counter_state {
	COUNTER_OPEN,
	COUNTER_NOT_SUPPORTED,
	COUNTER_GROUP_FULL,       /* its group cannot be counted together */
};

/* Fallbacks that changed what is counted, reported with the row. */
#define COUNTER_USER_ONLY      0x1  /* kernel excluded after EACCES/EPERM */
#define COUNTER_NO_GUEST_BITS  0x2  /* exclude_guest/host dropped (EINVAL) */
#define COUNTER_NO_HV_BIT      0x4  /* exclude_hv dropped (EINVAL) */
#define COUNTER_UNGROUPED      0x8  /* its weak group was refused */
#define COUNTER_REFUSED_MEMBER 0x10 /* the member whose group is full */

struct pstat_counters {
	const struct pstat_evlist *evl;   /* borrowed */
	const int *cpus;                  /* borrowed; {-1} when per-task */
	size_t ncpus;
	const pid_t *tids;                /* borrowed; {-1} when per-CPU */
	size_t nthreads;
	int *fds;                 /* [ev][cpu][thread], -1 when not open */
	struct perf_event_attr *attrs;    /* per event, as opened */
	enum counter_state *state;        /* per event */
	int *err;                 /* per event: errno when not supported */
	unsigned *flags;          /* per event: COUNTER_* fallbacks */
	int *read_leader;         /* per event: whose fd is read for it */
	int *read_pos;            /* per event: index in that read */
	int *nread;               /* per event (leaders): values in a read */
	int guard_fd;             /* the no_clone event, or -1 */
	int lead_disabled;        /* a leader opens disabled */
	int lead_on_exec;         /* a leader that follows a task: enable_on_exec */
	const int *cgroup_fds;    /* borrowed from the open options */
	int task_groups;          /* from the open options */
};

/* What made counters_open fail. */
struct pstat_open_error {
	int event;                /* evlist index */
	int err;                  /* errno */
	int cpu;                  /* -1 when per-task */
	pid_t tid;                /* -1 when per-CPU */
	char advice[256];         /* one hint line, may be empty */
};

/* Index into the per-(event, cpu, thread) arrays. */
static inline size_t counter_slot(const struct pstat_counters *c, size_t ev,
				  size_t cpu, size_t thr)
{
	return (ev * c->ncpus + cpu) * c->nthreads + thr;
}

/*
 * Open every counter of evl on each (cpu, tid): leaders first, members
 * through group_fd, all close-on-exec. An event the kernel does not
 * support (ENOENT, EOPNOTSUPP, ENODEV) is marked and skipped; EINVAL
 * caused by exclusion bits and EACCES/EPERM when counting the kernel are
 * retried without them; a thread that has gone (ESRCH) is skipped. Any
 * other failure returns -1 with oe filled, every counter closed again
 * (counters_close still frees c's buffers). When the kernel refuses a
 * member of a weak group (ev->weak) with EINVAL, EBADF or ENOSPC on any
 * (cpu, tid), as perf does, the group's counters are closed everywhere
 * and its events opened again each on its own, flagged
 * COUNTER_UNGROUPED. When the kernel refuses a member of another group
 * with EINVAL and that member opens on its own, the group is more than
 * the PMU can count at once (perf runs it as <not counted>): its
 * counters are closed everywhere, its events marked COUNTER_GROUP_FULL
 * and that member flagged COUNTER_REFUSED_MEMBER, and the others open.
 * cpus are the columns: {-1} per task, CPUs system-wide. An event with
 * CPUs of its own (ev->cpus, uncore) is opened on those of them that are
 * columns, with pid -1 in row 0, never inherited nor enabled on exec (a
 * per-task session adds its CPUs as columns after -1); it is not
 * supported when none is a column. Events of the simulated PMU
 * (events/sim_events.h) are marked open and open nothing: they read as
 * zeros, and the run stage fills in what Valgrind counted.
 */
int counters_open(struct pstat_counters *c, const struct pstat_evlist *evl,
		  const int *cpus, size_t ncpus, const pid_t *tids,
		  size_t nthreads, const struct pstat_open_opts *o,
		  struct pstat_open_error *oe);

/*
 * Read every counter: one read per group leader per (cpu, thread).
 * Fills out[counter_slot(...)] for every event; slots that are not open
 * read as zeros. A thread's counter whose read fails (the kernel has
 * been seen to answer ECHILD for a thread in the middle of exiting) is
 * that thread's reading in keep, the last one taken (NULL: zeros, not
 * counted), so that one thread never ends a run and its counts never
 * go backwards; a CPU counter's failure is the run's. Returns 0 or
 * -errno.
 */
int counters_read(const struct pstat_counters *c, struct pstat_reading *out,
		  const struct pstat_reading *keep);

/* PERF_EVENT_IOC_ENABLE / DISABLE on every leader. Returns 0 or -errno. */
int counters_enable(const struct pstat_counters *c);
int counters_disable(const struct pstat_counters *c);

/*
 * Enable or disable event ev on every CPU and thread (alone, not its
 * group), or every event when ev is -1, those waiting for an exec too:
 * for the control channel, once the command runs. Returns 0 or -errno
 * (-EOPNOTSUPP for one event of counters opened with task_groups).
 */
int counters_toggle(const struct pstat_counters *c, long ev, int enable);

/*
 * For tests (tests/helper/t-weak.c): perf_event_open(2) and read(2) of
 * counters answered by a fake kernel from now on (NULL: the real one).
 * Its descriptors must be real ones, which counters_close closes.
 */
struct counter_kernel {
	int (*open)(struct perf_event_attr *attr, pid_t pid, int cpu,
		    int group_fd, unsigned long flags);
	ssize_t (*read)(int fd, void *buf, size_t n);
};
void counter_fake_kernel(const struct counter_kernel *k);

/* Close all counters and free what c holds; accepts NULL. */
void counters_close(struct pstat_counters *c);

/* How many descriptors counters_open would need at most. */
size_t counters_fd_need(const struct pstat_evlist *evl, size_t ncpus,
			size_t nthreads);

/*
 * Decode one read() of a counter opened with read_format fmt into
 * out[0..max-1]: {value, [ena], [run], [id]} without PERF_FORMAT_GROUP,
 * {nr, [ena], [run], {value, [id]}[nr]} with it. Returns the number of
 * values decoded, or -EINVAL when nbytes is too short for the layout or
 * nr exceeds max.
 */
int counter_decode_read(const void *buf, size_t nbytes, uint64_t fmt,
			struct pstat_reading *out, size_t max);

/*
 * The advice line for a failed perf_event_open of attr with err:
 * conditioned on the attr (kernel counting, system-wide, PMU type) and
 * perf_event_paranoid, not on errno alone. Writes at most len bytes.
 */
void counter_advice(const struct perf_event_attr *attr, int err, int cpu,
		    int paranoid, char *buf, size_t len);

/* /proc/sys/kernel/perf_event_paranoid, or 2 when unreadable. */
int counter_paranoid(void);

/* What perf_event_paranoid level p allows, in a few words. */
const char *counter_paranoid_meaning(int p);

/*
 * The same, strictly: 0 with *level set, -errno when the file cannot be
 * read, -EINVAL when it holds no integer.
 */
int counter_paranoid_read(int *level);

#endif
