/* SPDX-License-Identifier: MIT */
/*
 * Events on the core PMUs of a hybrid or big.LITTLE CPU: a generic
 * hardware or cache name, or a raw rNNNN, becomes one event per core
 * PMU, as perf makes it ("cpu_core/cycles/", "cpu_atom/cycles/"), each
 * with its PMU's type in config bits 63:32 (hardware and cache events:
 * the kernel reads the extended type of those two alone) or as its
 * type (raw events), and each opened on its PMU's CPUs only. A group of
 * them becomes one group per core PMU; a group that names two core PMUs
 * itself is refused, since the kernel would refuse it.
 */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/encode_priv.h"
#include "events/legacy.h"

/* The core PMUs with a cpus file, read once per encoding. */
static const struct pstat_core_pmu *cores(struct encoder *e, size_t *n)
{
	if (!e->cores_read) {
		e->ncores = hybrid_core_pmus(e->ctx->pmus, &e->cores);
		e->cores_read = true;
	}
	*n = e->ncores;
	return e->cores;
}

void encode_cores_release(struct encoder *e)
{
	hybrid_core_pmus_free(e->cores, e->ncores);
	e->cores = NULL;
	e->ncores = 0;
	e->cores_read = false;
}

static void set_core_cpus(struct pstat_event *ev,
			  const struct pstat_core_pmu *c)
{
	ev->core_cpus = xmalloc((c->ncpus ? c->ncpus : 1) * sizeof(int));
	memcpy(ev->core_cpus, c->cpus, c->ncpus * sizeof(int));
	ev->ncore_cpus = c->ncpus;
}

/* The config of a hardware or cache event for core PMU type ptype. */
static uint64_t extended(uint32_t type, uint64_t config, uint32_t ptype)
{
	if (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE)
		return config | (uint64_t)ptype << HYBRID_TYPE_SHIFT;
	return config;
}

int encode_core_event(struct encoder *e, const struct pstat_evspec *sp,
		      uint32_t type, uint64_t config, const char *resolver,
		      const char *gmods)
{
	size_t n;
	const struct pstat_core_pmu *c = cores(e, &n);
	struct pstat_event *ev;

	if (n < 2) {
		/*
		 * One kind of core: the kernel finds its PMU without help;
		 * the row is labelled with it (armv8_pmuv3_0 on arm64)
		 */
		ev = encode_add_event(e, sp->text, n ? c[0].pmu->name : "cpu",
				      resolver);
		ev->attr.type = type;
		ev->attr.config = config;
		return encode_mods(e, ev, sp, gmods);
	}
	for (size_t i = 0; i < n; i++) {
		char *name = xasprintf("%s/%s/", c[i].pmu->name, sp->text);

		ev = encode_add_event(e, name, c[i].pmu->name, resolver);
		free(name);
		ev->attr.type = type == PERF_TYPE_RAW ? c[i].pmu->type : type;
		ev->attr.config = extended(type, config, c[i].pmu->type);
		ev->per_core_pmu = true;
		set_core_cpus(ev, &c[i]);
		if (encode_mods(e, ev, sp, gmods))
			return -1;
	}
	return 0;
}

long encode_core_legacy(struct encoder *e, const struct pstat_pmu *pmu,
			const struct pstat_term *terms, size_t nterms,
			uint32_t *type, uint64_t *config)
{
	size_t n;

	if (!hybrid_is_core_pmu(pmu))
		return -1;
	for (size_t i = 0; i < nterms; i++) {
		const char *key = terms[i].key;

		if (terms[i].val || pmu_alias_find(pmu, key) ||
		    pmu_format_find(pmu, key) ||
		    !legacy_lookup(key, type, config) ||
		    (*type != PERF_TYPE_HARDWARE &&
		     *type != PERF_TYPE_HW_CACHE))
			continue;
		cores(e, &n);
		if (n >= 2)
			*config = extended(*type, *config, pmu->type);
		return (long)i;
	}
	return -1;
}

void encode_core_placement(struct encoder *e, struct pstat_event *ev,
			   const struct pstat_pmu *pmu)
{
	size_t n;
	const struct pstat_core_pmu *c = cores(e, &n);

	for (size_t i = 0; n >= 2 && i < n; i++)
		if (c[i].pmu == pmu)
			set_core_cpus(ev, &c[i]);
}

static bool in(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* The group's events of core PMUs it names itself ("cpu_atom/x/"). */
static int refuse_two_cores(struct encoder *e, const struct pstat_event *ev,
			    size_t n, long off)
{
	const struct pstat_event *a = NULL;

	for (size_t i = 0; i < n; i++) {
		if (!ev[i].core_cpus || ev[i].per_core_pmu)
			continue;
		if (!a) {
			a = &ev[i];
		} else if (strcmp(a->pmu, ev[i].pmu)) {
			return error_set(e->err, off,
					 "cannot group '%s' with '%s': core PMUs '%s' and '%s' count on different CPUs, and the kernel refuses such a group; write one group per PMU ('{%s/...,%s/...},{%s/...,%s/...}'), or leave the PMU out ('{cycles,instructions}') to have one group on each",
					 a->name, ev[i].name, a->pmu,
					 ev[i].pmu, a->pmu, a->pmu, ev[i].pmu,
					 ev[i].pmu);
		}
	}
	return 0;
}

int encode_split_cores(struct encoder *e, size_t first, long off,
		       size_t **bounds)
{
	struct pstat_event *ev = &e->out->ev[first], *tmp;
	size_t n = e->out->n - first, npmu = 0, k = 0;
	const char **pmus;
	const struct pstat_event *split = NULL;

	if (refuse_two_cores(e, ev, n, off))
		return -1;
	for (size_t i = 0; i < n && !split; i++)
		if (ev[i].per_core_pmu)
			split = &ev[i];
	if (!split)
		return 0;
	pmus = xcalloc(n, sizeof(*pmus));
	for (size_t i = 0; i < n; i++)
		if (ev[i].per_core_pmu && !in(pmus, npmu, ev[i].pmu))
			pmus[npmu++] = ev[i].pmu;
	for (size_t i = 0; i < n; i++) {
		if (!ev[i].core_cpus || !in(pmus, npmu, ev[i].pmu)) {
			error_set(e->err, off,
				  "cannot group '%s' with '%s': on a CPU with several core PMUs, a generic or raw event becomes one group per core PMU, and '%s' can join none of them; count it outside the group",
				  ev[i].name, split->name, ev[i].name);
			free(pmus);
			return -1;
		}
	}
	tmp = xcalloc(n, sizeof(*tmp));
	*bounds = xcalloc(npmu + 1, sizeof(**bounds));
	for (size_t p = 0; p < npmu; p++) {
		(*bounds)[p] = first + k;
		for (size_t i = 0; i < n; i++)
			if (!strcmp(ev[i].pmu, pmus[p]))
				tmp[k++] = ev[i];
	}
	(*bounds)[npmu] = first + k;
	/* the name and pmu strings move with their events */
	memcpy(ev, tmp, n * sizeof(*ev));
	free(tmp);
	free(pmus);
	return (int)npmu;
}
