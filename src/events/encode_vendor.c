/* SPDX-License-Identifier: MIT */
/*
 * The vendor's own event names, from the tables generated from its data
 * (vendor.h): perf's spelling (inst_retired.any) and libpfm4's
 * (INST_RETIRED:ANY) both name the event of the CPU's events JSON, which
 * is encoded on the core PMU of each kind of core that has it. This is
 * how a CPU newer than libpfm4's tables (Granite Rapids, Arrow Lake...)
 * still knows its vendor's names.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpuinfo.h"
#include "base/util.h"
#include "events/encode_priv.h"
#include "events/vendor.h"

/* The terms of event NAME (upper case) in table t, or NULL. */
static const char *find_event(const struct vendor_events *t, const char *name)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct vendor_event *ev = &vendor_event_rows[t->first + mid];
		int c = strcmp(name, vendor_str(ev->name));

		if (!c)
			return vendor_str(ev->terms);
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/*
 * name in the vendor's spelling, into buf: upper case, libpfm4's ':'
 * between event and umask made perf's '.'. Returns the number of
 * separators, or -1 for what is not such a name (another character, or
 * more than one ':'). Intel's names may have several dots
 * (ocr.demand_data_rd.l3_miss, idq_uops_not_delivered.cycles_0_uops_deliv.core)
 * or none (offcore_response).
 */
static int vendor_spelling(const char *name, char *buf, size_t len)
{
	size_t n = strlen(name), seps = 0, colons = 0;

	if (!n || n >= len)
		return -1;
	for (size_t i = 0; i <= n; i++) {
		char c = name[i];

		if (c == ':' || c == '.') {
			seps++;
			colons += c == ':';
			c = '.';
		} else if (c && !isalnum((unsigned char)c) && c != '_') {
			return -1;
		}
		buf[i] = (char)toupper((unsigned char)c);
	}
	return colons <= 1 ? (int)seps : -1;
}

/* An event of one PMU's table t, encoded on pmu. 1: not in t. */
static int encode_on(struct encoder *e, const struct pstat_evspec *sp,
		     const struct vendor_events *t, const char *want,
		     const char *pmu, const char *gmods)
{
	const char *terms = find_event(t, want);
	struct pstat_evspec one = *sp;
	size_t before = e->out->n;
	int r;

	if (!terms || !pmu || !pmus_find(e->ctx->pmus, pmu))
		return 1;
	one.name = NULL;
	one.pmu = (char *)pmu;
	if (evspec_parse_terms(terms, &one.terms, &one.nterms, e->err)) {
		e->err->offset = sp->off;
		return -1;
	}
	r = encode_pmu_event(e, &one, gmods);
	evspec_terms_free(one.terms, one.nterms);
	for (size_t k = before; k < e->out->n; k++)
		e->out->ev[k].resolver = "vendor";
	return r ? -1 : 0;
}

/*
 * libpfm4's modifiers after EVENT:UMASK (INST_RETIRED:ANY:u, :k=1) that
 * perf spells the same (u, k, h): taken off the end of name (a copy in
 * buf) into mods. Returns buf, or name when it has none.
 */
static const char *pfm_mods(const char *name, char *buf, size_t len,
			    char *mods, size_t mlen)
{
	size_t n = strlen(name), m = 0;
	char *c;

	if (n >= len || !strchr(name, ':') ||
	    strchr(name, ':') == strrchr(name, ':'))
		return name;
	memcpy(buf, name, n + 1);
	while ((c = strrchr(buf, ':')) && c != strchr(buf, ':') &&
	       c[1] && strchr("ukh", c[1]) &&
	       (!c[2] || !strcmp(c + 2, "=1")) && m + 1 < mlen) {
		mods[m++] = c[1];
		*c = '\0';
	}
	mods[m] = '\0';
	return m ? buf : name;
}

const char *encode_vendor_pmu_terms(struct encoder *e, const char *pmu_name,
				    const char *name)
{
	const char *root = pmus_root(e->ctx->pmus);
	const struct vendor_cpu *rows[8];
	struct vendor_arm_pmu arm[8];
	struct pstat_cpuinfo ci;
	char want[160];
	size_t n;

	if (vendor_spelling(name, want, sizeof(want)) < 0 ||
	    cpuinfo_load(root, &ci))
		return NULL;
	n = vendor_arm_pmus(e->ctx->pmus, &ci, arm, ARRAY_SIZE(arm));
	for (size_t i = 0; i < n; i++)
		if (arm[i].core && arm[i].core->events >= 0 &&
		    !strcmp(arm[i].pmu, pmu_name))
			return find_event(
				&vendor_event_tables[arm[i].core->events], want);
	n = vendor_cpu_rows(&ci, rows, ARRAY_SIZE(rows));
	for (size_t i = 0; i < n; i++)
		if (!strcmp(vendor_role_pmu(vendor_str(rows[i]->role), "cpu"),
			    pmu_name))
			return find_event(&vendor_event_tables[rows[i]->events],
					  want);
	return NULL;
}

int encode_vendor_event(struct encoder *e, const struct pstat_evspec *sp,
			const char *name, const char *gmods)
{
	const char *root = pmus_root(e->ctx->pmus);
	const struct vendor_cpu *rows[8];
	struct vendor_arm_pmu arm[8];
	struct pstat_evspec with = *sp;
	struct pstat_cpuinfo ci;
	char want[160], bare[160], mods[8];
	size_t n, found = 0, narm = 0;
	int seps, r;

	name = pfm_mods(name, bare, sizeof(bare), mods, sizeof(mods));
	if (name == bare) {
		if (sp->mods)
			return 1;
		with.mods = mods;
		sp = &with;
	}
	seps = vendor_spelling(name, want, sizeof(want));
	if (seps < 0 || cpuinfo_load(root, &ci))
		return 1;
	/*
	 * Arm: on each core PMU, the core its CPUs' MIDR names, its events
	 * file's names
	 */
	if (!seps)
		narm = vendor_arm_pmus(e->ctx->pmus, &ci, arm, ARRAY_SIZE(arm));
	for (size_t i = 0; i < narm; i++) {
		if (!arm[i].core || arm[i].core->events < 0)
			continue;
		r = encode_on(e, sp, &vendor_event_tables[arm[i].core->events],
			      want, arm[i].pmu, gmods);
		if (r < 0)
			return -1;
		found += r == 0;
	}
	if (found)
		return 0;
	n = vendor_cpu_rows(&ci, rows, ARRAY_SIZE(rows));
	for (size_t i = 0; i < n; i++) {
		r = encode_on(e, sp, &vendor_event_tables[rows[i]->events], want,
			      vendor_role_pmu(vendor_str(rows[i]->role), "cpu"),
			      gmods);
		if (r < 0)
			return -1;
		found += r == 0;
	}
	return found ? 0 : 1;
}
