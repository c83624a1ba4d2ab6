/* SPDX-License-Identifier: MIT */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "events/legacy.h"

#define MAX_ALIASES 5

struct symbol {
	const char *name;
	const char *alias;
	uint64_t config;
};

/* perf's event_symbols_hw and event_symbols_sw, in perf list order. */
static const struct symbol hw_symbols[] = {
	{ "cpu-cycles", "cycles", PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", NULL, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", NULL, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", NULL, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", NULL, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", NULL, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", "idle-cycles-frontend",
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", "idle-cycles-backend",
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", NULL, PERF_COUNT_HW_REF_CPU_CYCLES },
};

static const struct symbol sw_symbols[] = {
	{ "cpu-clock", NULL, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", NULL, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", "faults", PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", "cs", PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", "migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", NULL, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", NULL, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", NULL, PERF_COUNT_SW_DUMMY },
	{ "bpf-output", NULL, PERF_COUNT_SW_BPF_OUTPUT },
	{ "cgroup-switches", NULL, PERF_COUNT_SW_CGROUP_SWITCHES },
};

/*
 * The kernel's cache / op / result tables (enum perf_hw_cache_id and
 * friends) with perf's spellings; the first spelling is canonical.
 */
static const char *const cache_names[PERF_COUNT_HW_CACHE_MAX][MAX_ALIASES] = {
	[PERF_COUNT_HW_CACHE_L1D] = { "L1-dcache", "l1-d", "l1d", "L1-data" },
	[PERF_COUNT_HW_CACHE_L1I] = { "L1-icache", "l1-i", "l1i",
				      "L1-instruction" },
	[PERF_COUNT_HW_CACHE_LL] = { "LLC", "L2" },
	[PERF_COUNT_HW_CACHE_DTLB] = { "dTLB", "d-tlb", "Data-TLB" },
	[PERF_COUNT_HW_CACHE_ITLB] = { "iTLB", "i-tlb", "Instruction-TLB" },
	[PERF_COUNT_HW_CACHE_BPU] = { "branch", "branches", "bpu", "btb",
				      "bpc" },
	[PERF_COUNT_HW_CACHE_NODE] = { "node" },
};

/* Index 0 is the singular used before a result, 1 the plural alone. */
static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][MAX_ALIASES] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = { "load", "loads", "read" },
	[PERF_COUNT_HW_CACHE_OP_WRITE] = { "store", "stores", "write" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetch", "prefetches",
					      "speculative-read",
					      "speculative-load" },
};

static const char *const
	cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][MAX_ALIASES] = {
	[PERF_COUNT_HW_CACHE_RESULT_ACCESS] = { "refs", "Reference", "ops",
						"access" },
	[PERF_COUNT_HW_CACHE_RESULT_MISS] = { "misses", "miss" },
};

#define R (1u << PERF_COUNT_HW_CACHE_OP_READ)
#define W (1u << PERF_COUNT_HW_CACHE_OP_WRITE)
#define P (1u << PERF_COUNT_HW_CACHE_OP_PREFETCH)
/* Which ops make sense for which cache, as perf decides. */
static const unsigned cache_valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = R | W | P,
	[PERF_COUNT_HW_CACHE_L1I] = R | P,
	[PERF_COUNT_HW_CACHE_LL] = R | W | P,
	[PERF_COUNT_HW_CACHE_DTLB] = R | W | P,
	[PERF_COUNT_HW_CACHE_ITLB] = R,
	[PERF_COUNT_HW_CACHE_BPU] = R,
	[PERF_COUNT_HW_CACHE_NODE] = R | W | P,
};
#undef R
#undef W
#undef P

static uint64_t cache_config(unsigned c, unsigned op, unsigned res)
{
	return c | (op << 8) | ((uint64_t)res << 16);
}

/*
 * Match one of the spellings in names[] at the start of s, followed by
 * '-' or the end. Returns the length matched (longest wins), 0 if none.
 */
static size_t match_word(const char *s, const char *const names[MAX_ALIASES])
{
	size_t best = 0;

	for (int i = 0; i < MAX_ALIASES && names[i]; i++) {
		size_t n = strlen(names[i]);

		if (n > best && !strncasecmp(s, names[i], n) &&
		    (s[n] == '\0' || s[n] == '-'))
			best = n;
	}
	return best;
}

static int match_table(const char *s, const char *const (*tab)[MAX_ALIASES],
		       unsigned n, size_t *len)
{
	int found = -1;

	*len = 0;
	for (unsigned i = 0; i < n; i++) {
		size_t l = match_word(s, tab[i]);

		if (l > *len) {
			*len = l;
			found = (int)i;
		}
	}
	return found;
}

/*
 * cache[-word[-word]], as perf's grammar has it: each word an op or a
 * result spelling. As in perf's parser, the first op word sets the op
 * and the first result word the result, in either order, and a word of
 * a kind already set is passed over ("L1-dcache-load-store" is a load).
 * A missing op means read, a missing result means access.
 */
static bool cache_lookup(const char *name, uint64_t *config)
{
	size_t len;
	int c, op = -1, res = -1;

	c = match_table(name, cache_names, PERF_COUNT_HW_CACHE_MAX, &len);
	if (c < 0)
		return false;
	name += len;
	for (int words = 0; *name == '-' && words < 2; words++) {
		size_t rlen;
		int o, r;

		name++;
		o = match_table(name, cache_ops, PERF_COUNT_HW_CACHE_OP_MAX,
				&len);
		r = match_table(name, cache_results,
				PERF_COUNT_HW_CACHE_RESULT_MAX, &rlen);
		if (o < 0 && r < 0)
			return false;
		if (o >= 0) {
			if (op < 0)
				op = o;
		} else {
			if (res < 0)
				res = r;
			len = rlen;
		}
		name += len;
	}
	if (*name)
		return false;
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (res < 0)
		res = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	if (!(cache_valid_ops[c] & (1u << op)))
		return false;
	*config = cache_config((unsigned)c, (unsigned)op, (unsigned)res);
	return true;
}

static bool symbol_lookup(const struct symbol *tab, size_t n,
			  const char *name, uint64_t *config)
{
	for (size_t i = 0; i < n; i++) {
		if (!strcasecmp(tab[i].name, name) ||
		    (tab[i].alias && !strcasecmp(tab[i].alias, name))) {
			*config = tab[i].config;
			return true;
		}
	}
	return false;
}

bool legacy_lookup(const char *name, uint32_t *type, uint64_t *config)
{
	if (symbol_lookup(hw_symbols, ARRAY_SIZE(hw_symbols), name, config)) {
		*type = PERF_TYPE_HARDWARE;
		return true;
	}
	if (symbol_lookup(sw_symbols, ARRAY_SIZE(sw_symbols), name, config)) {
		*type = PERF_TYPE_SOFTWARE;
		return true;
	}
	if (cache_lookup(name, config)) {
		*type = PERF_TYPE_HW_CACHE;
		return true;
	}
	return false;
}

/* Call fn(name) for every canonical cache event name, perf list order. */
static void foreach_cache(void (*fn)(const char *name, uint64_t config,
				     void *arg),
			  void *arg)
{
	char buf[128];

	for (unsigned c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++) {
		for (unsigned op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!(cache_valid_ops[c] & (1u << op)))
				continue;
			for (unsigned r = 0;
			     r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				if (r == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
					snprintf(buf, sizeof(buf), "%s-%s",
						 cache_names[c][0],
						 cache_ops[op][1]);
				else
					snprintf(buf, sizeof(buf), "%s-%s-%s",
						 cache_names[c][0],
						 cache_ops[op][0],
						 cache_results[r][0]);
				fn(buf, cache_config(c, op, r), arg);
			}
		}
	}
}

struct foreach_ctx {
	void (*fn)(enum legacy_kind, const char *, const char *, uint32_t,
		   uint64_t, void *);
	void *arg;
};

static void cache_cb(const char *name, uint64_t config, void *arg)
{
	struct foreach_ctx *ctx = arg;

	ctx->fn(LEGACY_CACHE, name, NULL, PERF_TYPE_HW_CACHE, config,
		ctx->arg);
}

void legacy_foreach(void (*fn)(enum legacy_kind kind, const char *name,
			       const char *alias, uint32_t type,
			       uint64_t config, void *arg),
		    void *arg)
{
	struct foreach_ctx ctx = { fn, arg };

	for (size_t i = 0; i < ARRAY_SIZE(hw_symbols); i++)
		fn(LEGACY_HARDWARE, hw_symbols[i].name, hw_symbols[i].alias,
		   PERF_TYPE_HARDWARE, hw_symbols[i].config, arg);
	for (size_t i = 0; i < ARRAY_SIZE(sw_symbols); i++)
		fn(LEGACY_SOFTWARE, sw_symbols[i].name, sw_symbols[i].alias,
		   PERF_TYPE_SOFTWARE, sw_symbols[i].config, arg);
	foreach_cache(cache_cb, &ctx);
}

struct name_ctx {
	void (*fn)(const char *, void *);
	void *arg;
};

static void name_cb(enum legacy_kind kind, const char *name,
		    const char *alias, uint32_t type, uint64_t config,
		    void *arg)
{
	struct name_ctx *ctx = arg;

	ctx->fn(name, ctx->arg);
	if (alias)
		ctx->fn(alias, ctx->arg);
}

void legacy_foreach_name(void (*fn)(const char *name, void *arg), void *arg)
{
	struct name_ctx ctx = { fn, arg };

	legacy_foreach(name_cb, &ctx);
}

/* The spellings of one table, then of the other, as one list of words. */
static const char *cache_word(unsigned i)
{
	unsigned n = 0;

	for (unsigned t = 0; t < PERF_COUNT_HW_CACHE_OP_MAX; t++)
		for (int a = 0; a < MAX_ALIASES && cache_ops[t][a]; a++)
			if (n++ == i)
				return cache_ops[t][a];
	for (unsigned t = 0; t < PERF_COUNT_HW_CACHE_RESULT_MAX; t++)
		for (int a = 0; a < MAX_ALIASES && cache_results[t][a]; a++)
			if (n++ == i)
				return cache_results[t][a];
	return NULL;
}

void legacy_foreach_cache_spelling(void (*fn)(const char *name, void *arg),
				   void *arg)
{
	char buf[128];
	uint64_t config;

	for (unsigned c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++) {
		for (int a = 0; a < MAX_ALIASES && cache_names[c][a]; a++) {
			const char *cn = cache_names[c][a];

			fn(cn, arg);
			for (unsigned i = 0; cache_word(i); i++) {
				snprintf(buf, sizeof(buf), "%s-%s", cn,
					 cache_word(i));
				if (cache_lookup(buf, &config))
					fn(buf, arg);
				for (unsigned j = 0; cache_word(j); j++) {
					snprintf(buf, sizeof(buf), "%s-%s-%s",
						 cn, cache_word(i),
						 cache_word(j));
					if (cache_lookup(buf, &config))
						fn(buf, arg);
				}
			}
		}
	}
}
