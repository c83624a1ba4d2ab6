/* SPDX-License-Identifier: MIT */
/*
 * The encoder's core, shared by encode.c (the tree walker: names, groups)
 * and encode_sysfs.c (PMU events and aliases from sysfs): appending an
 * event, applying modifiers, reporting a name that was not found. Both
 * call down into this file and never into each other's back, so there
 * is no circle between them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/encode_priv.h"

void evlist_free(struct pstat_evlist *evl)
{
	if (!evl)
		return;
	for (size_t i = 0; i < evl->n; i++) {
		free(evl->ev[i].name);
		free(evl->ev[i].pmu);
		free(evl->ev[i].unit);
		free(evl->ev[i].cpus);
		free(evl->ev[i].core_cpus);
		free(evl->ev[i].group_name);
		free(evl->ev[i].cgroup);
	}
	free(evl->ev);
	memset(evl, 0, sizeof(*evl));
}

static int *int_dup(const int *v, size_t n)
{
	int *d;

	if (!v)
		return NULL;
	d = xmalloc((n ? n : 1) * sizeof(*d));
	memcpy(d, v, n * sizeof(*d));
	return d;
}

void evlist_repeat(struct pstat_evlist *evl, size_t times)
{
	size_t n = evl->n;

	if (times < 2 || !n)
		return;
	evl->ev = xrealloc(evl->ev, n * times * sizeof(*evl->ev));
	for (size_t k = 1; k < times; k++) {
		for (size_t i = 0; i < n; i++) {
			const struct pstat_event *from = &evl->ev[i];
			struct pstat_event *to = &evl->ev[k * n + i];

			*to = *from;
			to->name = xstrdup(from->name);
			to->pmu = xstrdup(from->pmu);
			to->unit = from->unit ? xstrdup(from->unit) : NULL;
			to->cgroup = from->cgroup ? xstrdup(from->cgroup)
						  : NULL;
			to->group_name = from->group_name ?
						 xstrdup(from->group_name) : NULL;
			to->cpus = int_dup(from->cpus, from->ncpus);
			to->core_cpus = int_dup(from->core_cpus,
						from->ncore_cpus);
			to->group += (int)k * evl->ngroups;
			to->leader += (int)(k * n);
			to->row += (int)k * evl->nrows;
		}
	}
	evl->n = n * times;
	evl->ngroups *= (int)times;
	evl->nrows *= (int)times;
}

void evlist_append(struct pstat_evlist *dst, struct pstat_evlist *src)
{
	size_t n = dst->n;

	dst->ev = xrealloc(dst->ev, (n + src->n + 1) * sizeof(*dst->ev));
	for (size_t i = 0; i < src->n; i++) {
		struct pstat_event *to = &dst->ev[n + i];

		*to = src->ev[i];
		to->group += dst->ngroups;
		to->leader += (int)n;
		to->row += dst->nrows;
	}
	dst->n += src->n;
	dst->ngroups += src->ngroups;
	dst->nrows += src->nrows;
	free(src->ev);
	memset(src, 0, sizeof(*src));
}

/*
 * The name of ev as an instance of its own: "uncore_imc/cas_count_read/"
 * on uncore_imc_1 is "uncore_imc_1/cas_count_read/", "cycles" on
 * cpu_atom "cpu_atom/cycles/", as perf --no-merge shows them. New string.
 */
static char *instance_name(const struct pstat_event *ev)
{
	const char *slash = strchr(ev->name, '/');

	if (slash && slash != ev->name)
		return xasprintf("%s%s", ev->pmu, slash);
	return xasprintf("%s/%s/", ev->pmu, ev->name);
}

void evlist_no_merge(struct pstat_evlist *evl)
{
	int *shared = xcalloc((size_t)evl->nrows + 1, sizeof(*shared));
	int row = 0;

	for (size_t i = 0; i < evl->n; i++)
		shared[evl->ev[i].row]++;
	/*
	 * Every event gets a row of its own, in the events' order (a
	 * {group} split per instance shows instance by instance); one that
	 * shared its row is named for its instance.
	 */
	for (size_t i = 0; i < evl->n; i++) {
		struct pstat_event *ev = &evl->ev[i];

		if (shared[ev->row] > 1) {
			char *name = instance_name(ev);

			free(ev->name);
			ev->name = name;
		}
		ev->row = row++;
	}
	evl->nrows = row;
	free(shared);
}

/*
 * perf's modifier semantics: the first of u/k/h excludes all three
 * levels and each letter then re-includes its own; G/H do the same for
 * guest and host. An event's own modifiers start from nothing, group
 * modifiers from what the member already has, including whether the
 * member chose between guest and host itself (*exclude_GH): then the
 * group's u/k/h/p leave its guest and host bits alone, and the group's
 * G or H adds to the member's ({a:G,b:H}:u counts a for the guest
 * only and b for the host only; {a:G}:H counts a for both).
 */
int encode_apply_mods(struct perf_event_attr *attr, const char *mods,
		      int group, int *exclude_GH_io, struct pstat_error *err)
{
	int eu = 0, ek = 0, eh = 0, eH = 0, eG = 0, eI = 0;
	int precise = 0, pinned = 0, exclusive = 0;
	int exclude, exclude_GH = group ? *exclude_GH_io : 0;

	if (!mods)
		return 0;
	if (group) {
		eu = attr->exclude_user;
		ek = attr->exclude_kernel;
		eh = attr->exclude_hv;
		eH = attr->exclude_host;
		eG = attr->exclude_guest;
		eI = attr->exclude_idle;
		precise = attr->precise_ip;
		pinned = attr->pinned;
		exclusive = attr->exclusive;
	}
	exclude = eu | ek | eh;
	for (const char *s = mods; *s; s++) {
		switch (*s) {
		case 'u':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			if (!exclude_GH)
				eG = 1;
			eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			eh = 0;
			break;
		case 'G':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eG = 0;
			break;
		case 'H':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eH = 0;
			break;
		case 'I':
			eI = 1;
			break;
		case 'p':
			precise++;
			/* precise sampling requires exclude_guest, as in perf */
			if (!exclude_GH)
				eG = 1;
			break;
		case 'P':
			/*
			 * the highest precision the PMU takes: perf stat
			 * leaves precise_ip as it is (only perf record
			 * probes for it)
			 */
			break;
		case 'D':
			pinned = 1;
			break;
		case 'e':
			exclusive = 1;
			break;
		case 'S':
		case 'W':
		case 'b':
			/*
			 * sample-read, weak groups (settle_group marks the
			 * group's events) and perf's BPF counters: no
			 * effect on the attr (as in perf's)
			 */
			break;
		default:
			return error_set(err, -1, "invalid modifier '%c' in '%s'",
					 *s, mods);
		}
	}
	if (precise > 3)
		return error_set(err, -1,
				 "too many 'p' modifiers in '%s' (at most 3)",
				 mods);
	attr->exclude_user = eu;
	attr->exclude_kernel = ek;
	attr->exclude_hv = eh;
	attr->exclude_host = eH;
	attr->exclude_guest = eG;
	attr->exclude_idle = eI;
	attr->precise_ip = precise;
	attr->pinned = pinned;
	attr->exclusive = exclusive;
	*exclude_GH_io = exclude_GH;
	return 0;
}

struct pstat_event *encode_add_event(struct encoder *e, const char *name,
				     const char *pmu, const char *resolver)
{
	struct pstat_event *ev;

	xgrow((void **)&e->out->ev, &e->alloc, e->out->n + 1,
	      sizeof(*e->out->ev));
	ev = &e->out->ev[e->out->n];
	memset(ev, 0, sizeof(*ev));
	ev->attr.size = sizeof(ev->attr);
	/* perf excludes guests by default when it is not a guest tool */
	ev->attr.exclude_guest = 1;
	ev->name = xstrdup(name);
	ev->pmu = xstrdup(pmu);
	ev->resolver = resolver;
	ev->scale = 1.0;
	ev->row = e->row++;
	ev->leader = (int)e->out->n;
	e->out->n++;
	return ev;
}

/*
 * Fill err for what was not found, with the closest known name when one
 * is (hint: new string or NULL, taken). A hint that is the name itself
 * (a PMU directory that cannot be loaded) is no help.
 */
int encode_not_found(struct encoder *e, long off, char *hint, const char *want,
		     const char *what)
{
	if (hint && strcmp(hint, want))
		error_set(e->err, off, "%s (did you mean '%s'?)", what, hint);
	else
		error_set(e->err, off, "%s", what);
	free(hint);
	return -1;
}

int encode_mods(struct encoder *e, struct pstat_event *ev,
		const struct pstat_evspec *sp, const char *gmods)
{
	int exclude_GH = 0;

	if (sp->nterms && !sp->pmu && encode_event_terms(e, ev, sp))
		return -1;
	if (encode_apply_mods(&ev->attr, sp->mods, 0, &exclude_GH, e->err) ||
	    encode_apply_mods(&ev->attr, gmods, 1, &exclude_GH, e->err)) {
		e->err->offset = sp->off;
		return -1;
	}
	return 0;
}
