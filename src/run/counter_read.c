/* SPDX-License-Identifier: MIT */
/*
 * Reading counters: one read per group leader per (cpu, thread), decoded
 * from the kernel's read_format layout (counter.c opens them).
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "run/counter.h"
#include "run/counter_priv.h"

/*
 * The read() layout, from include/uapi/linux/perf_event.h:
 *
 *   without PERF_FORMAT_GROUP:      with PERF_FORMAT_GROUP:
 *     u64 value;                      u64 nr;
 *     u64 time_enabled;  (optional)   u64 time_enabled;  (optional)
 *     u64 time_running;  (optional)   u64 time_running;  (optional)
 *     u64 id;            (optional)   { u64 value;
 *     u64 lost;          (optional)     u64 id;    (optional)
 *                                       u64 lost;  (optional)
 *                                     } cntr[nr];
 */
int counter_decode_read(const void *buf, size_t nbytes, uint64_t fmt,
			struct pstat_reading *out, size_t max)
{
	const uint64_t *w = buf;
	size_t nw = nbytes / sizeof(uint64_t), i = 0, per, nr;
	uint64_t ena = 0, run = 0;
	int has_ena = !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED);
	int has_run = !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);

	per = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
	if (!(fmt & PERF_FORMAT_GROUP)) {
		if (max < 1 || nw < per + (size_t)has_ena + (size_t)has_run)
			return -EINVAL;
		out[0].val = w[i++];
		out[0].ena = has_ena ? w[i++] : 0;
		out[0].run = has_run ? w[i++] : 0;
		return 1;
	}
	if (nw < 1)
		return -EINVAL;
	nr = w[i++];
	if (nr > max)
		return -EINVAL;
	if (nw < 1 + (size_t)has_ena + (size_t)has_run + nr * per)
		return -EINVAL;
	if (has_ena)
		ena = w[i++];
	if (has_run)
		run = w[i++];
	for (size_t k = 0; k < nr; k++) {
		out[k].val = w[i];
		out[k].ena = ena;
		out[k].run = run;
		i += per;
	}
	return (int)nr;
}

/*
 * The values most leaders read fit a buffer this small, on the stack:
 * room for PSTAT_MAX_GROUP would make a 20 KiB frame, whose pages the
 * compiler's stack-clash probes touch (a page fault each, at every
 * start) for a read of 24 bytes. A larger group reads into the heap.
 */
#define READ_SMALL 8

struct read_buf {
	uint64_t small[3 + 2 * READ_SMALL], *buf;
	struct pstat_reading small_vals[READ_SMALL], *vals;
	size_t max, len;
};

static void read_buf_grow(struct read_buf *b)
{
	b->max = PSTAT_MAX_GROUP;
	b->len = (3 + 2 * b->max) * sizeof(*b->buf);
	b->buf = xmalloc(b->len);
	b->vals = xmalloc(b->max * sizeof(*b->vals));
}

static ssize_t read_retry(int fd, struct read_buf *b)
{
	ssize_t r;

	do
		r = counter_read_fd(fd, b->buf, b->len);
	while (r < 0 && errno == EINTR);
	return r;
}

/*
 * Read one leader's fd in column (ci, ti) into out: its own value, and
 * its members' with PERF_FORMAT_GROUP. Returns 0 or -errno.
 */
static int read_slot(const struct pstat_counters *c, size_t ev, size_t ci,
		     size_t ti, struct pstat_reading *out)
{
	const struct pstat_evlist *evl = c->evl;
	struct read_buf b;
	int fd = c->fds[counter_slot(c, ev, ci, ti)];
	ssize_t r;
	int nr;

	if (fd < 0)
		return 0;
	b.buf = b.small;
	b.vals = b.small_vals;
	b.max = READ_SMALL;
	b.len = sizeof(b.small);
	if (c->nread[ev] > READ_SMALL)
		read_buf_grow(&b);
	r = read_retry(fd, &b);
	/* the kernel's "buffer too small": read it again, whole */
	if (r < 0 && errno == ENOSPC && b.buf == b.small) {
		read_buf_grow(&b);
		r = read_retry(fd, &b);
	}
	nr = r < 0 ? -errno :
		     counter_decode_read(b.buf, (size_t)r,
					 c->attrs[ev].read_format, b.vals, b.max);
	if (nr < 0)
		goto out;
	/*
	 * The leader's members follow it within its group: stop at the
	 * last, so that reading stays linear in the number of events.
	 */
	for (size_t k = ev, found = 0;
	     k < evl->n && found < (size_t)c->nread[ev]; k++) {
		if (c->read_leader[k] != (int)ev)
			continue;
		found++;
		if (c->read_pos[k] < nr)
			out[counter_slot(c, k, ci, ti)] = b.vals[c->read_pos[k]];
	}
	nr = 0;
out:
	if (b.buf != b.small) {
		free(b.buf);
		free(b.vals);
	}
	return nr;
}

/*
 * A thread's group whose read failed: each of its events' slots is the
 * reading in keep (or zeros). Returns 0.
 */
static int keep_slot(const struct pstat_counters *c, size_t ev, size_t ci,
		     size_t ti, struct pstat_reading *out,
		     const struct pstat_reading *keep)
{
	const struct pstat_evlist *evl = c->evl;

	for (size_t k = ev; k < evl->n; k++) {
		size_t slot;

		if (c->read_leader[k] != (int)ev)
			continue;
		slot = counter_slot(c, k, ci, ti);
		out[slot] = keep ? keep[slot] : (struct pstat_reading){ 0 };
	}
	return 0;
}

/*
 * Reading a counter of another CPU costs the kernel a cross-CPU call
 * per read; on its own CPU it is a local read. So, as perf does, pstat
 * moves itself onto each CPU column in turn and reads that column
 * there, then goes back where it was allowed to run. A CPU pstat may
 * not run on (taskset, a cpuset) is read from where pstat is.
 */
static int move_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int counters_read(const struct pstat_counters *c, struct pstat_reading *out,
		  const struct pstat_reading *keep)
{
	const struct pstat_evlist *evl = c->evl;
	int moved = 0, r = 0;
	cpu_set_t home;

	memset(out, 0, evl->n * c->ncpus * c->nthreads * sizeof(*out));
	for (size_t ci = 0; ci < c->ncpus && !r; ci++) {
		if (c->ncpus > 1 && c->cpus[ci] >= 0 && c->cpus[ci] < CPU_SETSIZE) {
			if (!moved && !sched_getaffinity(0, sizeof(home), &home))
				moved = 1;
			if (moved && CPU_ISSET(c->cpus[ci], &home))
				move_to_cpu(c->cpus[ci]);
		}
		/*
		 * A thread's events one after another: they share the
		 * thread's context in the kernel (its lock and mutex), still
		 * in cache for the second read; reading event by event went
		 * through every thread's context cold, once per event.
		 */
		for (size_t ti = 0; ti < c->nthreads && !r; ti++) {
			for (size_t ev = 0; ev < evl->n && !r; ev++) {
				if (c->read_leader[ev] != (int)ev)
					continue;
				r = read_slot(c, ev, ci, ti, out);
				if (r && c->tids[ti] >= 0)
					r = keep_slot(c, ev, ci, ti, out, keep);
			}
		}
	}
	if (moved)
		sched_setaffinity(0, sizeof(home), &home);
	return r;
}
