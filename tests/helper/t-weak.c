/* SPDX-License-Identifier: MIT */
/*
 * pstat-test weak SIZES LIST
 *
 * Opens the events of LIST (software events, as -e takes them) per CPU
 * on a fake kernel whose PMU on CPU i holds SIZES[i] events a group
 * (SIZES comma-separated, one per CPU): a member past that is refused
 * with EINVAL, as x86 and Arm refuse a group their counters cannot
 * hold. The fake counts event k on CPU c as 100 * (k + 1) + c over a
 * time enabled of 1000; when more counters are open on a CPU than its
 * PMU holds, each ungrouped counter runs for its share of the time (a
 * group as long as it fits). Reads every counter through counters_read
 * and prints, per event, "NAME cpuC: VAL ENA RUN" and " ungrouped"
 * when its weak group was refused, " group-full" when its group (not
 * weak) was refused and closed, " refused" on the member the kernel
 * refused; on a failure, "error: EVENT errno CPU" and the advice.
 * SIZES "task:N" counts one task instead (CPU -1, as -p does, shown as
 * cpu0) with task_groups: the lone events of LIST are one group, which
 * a PMU of N events a group refuses past N; the group pstat made is
 * then opened ungrouped, and no event says it was (no one grouped it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "events/encode.h"
#include "events/evspec.h"
#include "run/counter.h"
#include "test-tool.h"

#define FAKE_FDS 1024
#define FAKE_CPUS 8

static struct fake {
	int used;
	size_t ev;              /* evlist index */
	int cpu;
	int leader;             /* its leader's fd; its own when it leads */
	uint64_t fmt;
} fakes[FAKE_FDS];

static const struct pstat_evlist *fake_evl;
static long sizes[FAKE_CPUS];

static int fake_alive(int fd)
{
	return fakes[fd].used && fcntl(fd, F_GETFD) != -1;
}

static int fake_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	size_t ev = 0, members = 1;
	int fd;

	(void)pid;
	(void)flags;
	while (ev < fake_evl->n && memcmp(&fake_evl->ev[ev].attr.config,
					  &attr->config, sizeof(attr->config)))
		ev++;
	cpu = cpu < 0 ? 0 : cpu;        /* a task: the one PMU of "task:N" */
	if (ev == fake_evl->n || cpu >= FAKE_CPUS) {
		errno = ENOENT;
		return -1;
	}
	for (int f = 0; group_fd >= 0 && f < FAKE_FDS; f++)
		members += fake_alive(f) && fakes[f].leader == group_fd;
	if (group_fd >= 0 && (long)members > sizes[cpu]) {
		errno = EINVAL;
		return -1;
	}
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fd >= FAKE_FDS)
		return -1;
	fakes[fd] = (struct fake){ 1, ev, cpu, group_fd >= 0 ? group_fd : fd,
				   attr->read_format };
	return fd;
}

/* How long counters of cpu run of 1000: their share of its PMU. */
static uint64_t fake_run(int cpu)
{
	long groups = 0;

	for (int f = 0; f < FAKE_FDS; f++)
		groups += fake_alive(f) && fakes[f].cpu == cpu &&
			  fakes[f].leader == f;
	return groups <= sizes[cpu] ? 1000 : (uint64_t)(1000 * sizes[cpu] /
							groups);
}

static ssize_t fake_read(int fd, void *buf, size_t n)
{
	const struct fake *k = &fakes[fd];
	uint64_t *w = buf, run = fake_run(k->cpu);
	size_t i = 0;

	if (!(k->fmt & PERF_FORMAT_GROUP)) {
		w[i++] = 100 * (k->ev + 1) + (uint64_t)k->cpu;
		w[i++] = 1000;
		w[i++] = run;
		if (k->fmt & PERF_FORMAT_ID)
			w[i++] = (uint64_t)fd;
		return (ssize_t)(i * sizeof(*w));
	}
	w[i++] = 0;
	w[i++] = 1000;
	w[i++] = run;
	for (int f = 0; f < FAKE_FDS && (i + 2) * sizeof(*w) <= n; f++) {
		if (!fake_alive(f) || fakes[f].leader != fd)
			continue;
		w[0]++;
		w[i++] = 100 * (fakes[f].ev + 1) + (uint64_t)k->cpu;
		if (k->fmt & PERF_FORMAT_ID)
			w[i++] = (uint64_t)f;
	}
	return (ssize_t)(i * sizeof(*w));
}

static void print_counts(const struct pstat_counters *c, size_t ncpus)
{
	struct pstat_reading *rd = xcalloc(fake_evl->n * ncpus + 1,
					   sizeof(*rd));

	if (counters_read(c, rd, NULL)) {
		printf("error: read\n");
		free(rd);
		return;
	}
	for (size_t ev = 0; ev < fake_evl->n; ev++)
		for (size_t ci = 0; ci < ncpus; ci++) {
			const struct pstat_reading *r =
				&rd[counter_slot(c, ev, ci, 0)];

			printf("%s cpu%zu: %llu %llu %llu%s%s%s\n",
			       fake_evl->ev[ev].name, ci,
			       (unsigned long long)r->val,
			       (unsigned long long)r->ena,
			       (unsigned long long)r->run,
			       c->flags[ev] & COUNTER_UNGROUPED ? " ungrouped" :
								  "",
			       c->state[ev] == COUNTER_GROUP_FULL ?
				       " group-full" : "",
			       c->flags[ev] & COUNTER_REFUSED_MEMBER ?
				       " refused" : "");
		}
	free(rd);
}

int t_weak(int argc, char **argv)
{
	static const struct counter_kernel fake = { fake_open, fake_read };
	struct pstat_evlist evl = { 0 };
	struct pstat_evtree tree = { 0 };
	struct pstat_error err = { "", -1 };
	struct pstat_encode_ctx ctx = { 0 };
	struct pstat_counters c;
	struct pstat_open_opts oo = { 0 };
	struct pstat_open_error oe;
	int cpus[FAKE_CPUS];
	pid_t tid = -1;
	size_t ncpus = 0;
	char *save = NULL, *list;
	int r = 1;

	if (argc != 3)
		return 2;
	list = xstrdup(argv[1]);
	for (char *t = strtok_r(list, ",", &save); t && ncpus < FAKE_CPUS;
	     t = strtok_r(NULL, ",", &save)) {
		oo.task_groups = !strncmp(t, "task:", 5);
		cpus[ncpus] = oo.task_groups ? -1 : (int)ncpus;
		tid = oo.task_groups ? 1 : -1;
		sizes[ncpus++] = atol(t + (oo.task_groups ? 5 : 0));
	}
	free(list);
	ctx.pmus = pmus_new("/nonexistent");
	if (evspec_parse(argv[2], &tree, &err) ||
	    encode_evlist(&tree, &ctx, &evl, &err)) {
		printf("error: %s\n", err.msg);
		goto out;
	}
	fake_evl = &evl;
	counter_fake_kernel(&fake);
	if (counters_open(&c, &evl, cpus, ncpus, &tid, 1, &oo, &oe)) {
		printf("error: %s errno %d cpu %d\n%s\n", evl.ev[oe.event].name,
		       oe.err, oe.cpu, oe.advice);
	} else {
		print_counts(&c, ncpus);
		r = 0;
	}
	counters_close(&c);
	counter_fake_kernel(NULL);
out:
	evspec_tree_free(&tree);
	evlist_free(&evl);
	pmus_free(ctx.pmus);
	return r;
}
