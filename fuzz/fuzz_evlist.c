/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the event-list parser and the encoder, over the
 * fixture sysfs trees and tracefs. The first byte picks the sysfs tree;
 * the rest is one or more event lists separated by '\n', each handled as
 * one -e is by main.c (parsed into its own tree, encoded into one evlist).
 *
 * FUZZ_FIXTURES (the absolute path of tests/fixtures) is set by the
 * Makefile.
 *
 * libpfm4 is reached, as in pstat, for names nothing else resolves, and
 * its whole event table is walked for "did you mean" suggestions: that
 * makes an input five times slower. So only inputs whose first byte is
 * 0xf0 or above reach it; for the others the link-time wrappers below
 * (-Wl,--wrap, see the Makefile) answer "unknown to libpfm4".
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "events/encode.h"
#include "events/evspec.h"
#include "events/pfm.h"
#include "events/pmu.h"

#ifndef FUZZ_FIXTURES
#error "build with -DFUZZ_FIXTURES='\"/path/to/tests/fixtures\"'"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const trees[] = {
	FUZZ_FIXTURES "/sysfs/intel-skylake",
	FUZZ_FIXTURES "/sysfs/amd-zen3",
	FUZZ_FIXTURES "/sysfs/arm64-neoverse",
	FUZZ_FIXTURES "/sysfs/vm-nopmu",
	FUZZ_FIXTURES "/pmu-handmade",
};

#define NTREES (sizeof(trees) / sizeof(trees[0]))

static struct pstat_pmus *pmus[NTREES];
static unsigned long inputs;

static bool use_pfm;

int __real_pfm_encode(const char *name, struct perf_event_attr *attr,
		      char **pmu_name, struct pstat_error *err);
int __wrap_pfm_encode(const char *name, struct perf_event_attr *attr,
		      char **pmu_name, struct pstat_error *err);
int __real_pfm_foreach_name(void (*fn)(const char *name, void *arg),
			    void *arg);
int __wrap_pfm_foreach_name(void (*fn)(const char *name, void *arg),
			    void *arg);

int __wrap_pfm_encode(const char *name, struct perf_event_attr *attr,
		      char **pmu_name, struct pstat_error *err)
{
	if (!use_pfm)
		return -ENOENT;
	return __real_pfm_encode(name, attr, pmu_name, err);
}

int __wrap_pfm_foreach_name(void (*fn)(const char *name, void *arg),
			    void *arg)
{
	if (!use_pfm)
		return 0;
	return __real_pfm_foreach_name(fn, arg);
}


/* Properties every error must have; a violation is a finding. */
static void check_error(const char *list, const struct pstat_error *err)
{
	size_t len = strlen(list);

	if (!memchr(err->msg, '\0', sizeof(err->msg)) || !err->msg[0])
		abort(); /* an error without a message */
	if (err->offset < -1 || (err->offset >= 0 && (size_t)err->offset > len))
		abort(); /* an offset pointing outside the list */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pstat_evlist evl = { 0 };
	struct pstat_encode_ctx ctx = { 0 };
	size_t t;
	char *buf, *line, *next;

	if (size < 1 || size > 4096)
		return 0;
	t = data[0] % NTREES;
	use_pfm = data[0] >= 0xf0;
	/*
	 * The PMU caches are kept across inputs: reading a tree afresh for
	 * each would make the target five times slower, and what the cache
	 * answers does not depend on what it was asked before. But it
	 * remembers every name asked about, so it is dropped now and then
	 * to keep memory bounded.
	 */
	if (++inputs % 4096 == 0) {
		for (size_t i = 0; i < NTREES; i++) {
			pmus_free(pmus[i]);
			pmus[i] = NULL;
		}
	}
	if (!pmus[t])
		pmus[t] = pmus_new(trees[t]);
	ctx.pmus = pmus[t];
	ctx.tracefs_root = FUZZ_FIXTURES "/tracefs";

	/* an embedded NUL ends a list, as it would in argv */
	buf = malloc(size);
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	for (line = buf; line; line = next) {
		struct pstat_evtree tree = { 0 };
		struct pstat_error err = { "", -1 };

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (evspec_parse(line, &tree, &err)) {
			check_error(line, &err);
			evspec_tree_free(&tree);
			break;
		}
		if (encode_evlist(&tree, &ctx, &evl, &err)) {
			check_error(line, &err);
			evspec_tree_free(&tree);
			break;
		}
		evspec_tree_free(&tree);
		for (size_t i = 0; i < evl.n; i++) {
			const struct pstat_event *ev = &evl.ev[i];

			if (!ev->name || !ev->pmu || !ev->resolver ||
			    ev->leader < 0 || (size_t)ev->leader > i ||
			    ev->row < 0 || ev->row >= evl.nrows)
				abort();
		}
	}
	evlist_free(&evl);
	free(buf);
	return 0;
}
