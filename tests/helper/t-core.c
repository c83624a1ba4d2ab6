/* SPDX-License-Identifier: MIT */
/*
 * Test commands for the event grammar, the generic-name tables, the
 * encoder and the read decoder.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/encode.h"
#include "events/evspec.h"
#include "events/legacy.h"
#include "events/pmu.h"
#include "run/counter.h"
#include "test-tool.h"

/* evspec LIST: the tree, one line per event, or "error: MSG @OFFSET". */
int t_evspec(int argc, char **argv)
{
	struct pstat_evtree tree = { 0 };
	struct pstat_error err = { "", -1 };

	if (argc < 2)
		return 2;
	if (evspec_parse(argv[1], &tree, &err)) {
		printf("error: %s @%ld\n", err.msg, err.offset);
		evspec_tree_free(&tree);
		return 1;
	}
	for (size_t g = 0; g < tree.ngroups; g++) {
		const struct pstat_evgroup *grp = &tree.groups[g];

		printf("group %zu%s%s%s%s%s\n", g, grp->braced ? " {}" : "",
		       grp->name ? " gname=" : "", grp->name ? grp->name : "",
		       grp->mods ? " mods=" : "", grp->mods ? grp->mods : "");
		for (size_t i = 0; i < grp->nevs; i++) {
			const struct pstat_evspec *ev = &grp->evs[i];

			if (ev->pmu)
				printf("  pmu=%s", ev->pmu);
			else
				printf("  name=%s", ev->name);
			/* a breakpoint may have terms too */
			if (ev->pmu || ev->nterms)
				for (size_t k = 0; k < ev->nterms; k++)
					printf(" %s%s%s", ev->terms[k].key,
					       ev->terms[k].val ? "=" : "",
					       ev->terms[k].val ? ev->terms[k].val
								: "");
			if (ev->mods)
				printf(" mods=%s", ev->mods);
			printf(" @%ld\n", ev->off);
		}
	}
	evspec_tree_free(&tree);
	return 0;
}

static void print_name(const char *name, void *arg)
{
	(void)arg;
	printf("%s\n", name);
}

/*
 * legacy NAME: "type=T config=0x..." or "unknown".
 * legacy --cache-spellings: every cache event spelling, one a line.
 */
int t_legacy(int argc, char **argv)
{
	uint32_t type;
	uint64_t config;

	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "--cache-spellings")) {
		legacy_foreach_cache_spelling(print_name, NULL);
		return 0;
	}
	if (!legacy_lookup(argv[1], &type, &config)) {
		printf("unknown\n");
		return 1;
	}
	printf("type=%u config=%#" PRIx64 "\n", type, config);
	return 0;
}

static void print_bits(const struct perf_event_attr *a)
{
	printf(" eu=%d ek=%d eh=%d eH=%d eG=%d eI=%d p=%d D=%d e=%d",
	       a->exclude_user, a->exclude_kernel, a->exclude_hv,
	       a->exclude_host, a->exclude_guest, a->exclude_idle,
	       a->precise_ip, a->pinned, a->exclusive);
}

/*
 * encode [FIXTURE] LIST: one line per encoded event. FIXTURE is a sysfs
 * fixture tree under $PSTAT_TEST_FIXTURES (default: none, "/nonexistent"
 * so only generic names, raw and breakpoints resolve).
 */
int t_encode(int argc, char **argv)
{
	struct pstat_evtree tree = { 0 };
	struct pstat_evlist evl = { 0 };
	struct pstat_error err = { "", -1 };
	struct pstat_encode_ctx ctx = { 0 };
	const char *list = argv[argc - 1], *dir;
	char *root, *tracefs;
	int r = 0;

	if (argc < 2)
		return 2;
	/* the table runner passes one argument: "FIXTURE LIST" */
	if (argc == 2 && strchr(list, ' ')) {
		const char *sp = strchr(list, ' ');

		dir = getenv("PSTAT_TEST_FIXTURES");
		root = xasprintf("%s/sysfs/%.*s", dir ? dir : "tests/fixtures",
				 (int)(sp - list), list);
		tracefs = xasprintf("%s/tracefs", dir ? dir : "tests/fixtures");
		list = sp + 1;
	} else {
		root = xstrdup(argc > 2 ? argv[1] : "/nonexistent");
		tracefs = xstrdup("/nonexistent");
	}
	ctx.pmus = pmus_new(root);
	ctx.tracefs_root = tracefs;
	if (evspec_parse(list, &tree, &err) ||
	    encode_evlist(&tree, &ctx, &evl, &err)) {
		printf("error: %s\n", err.msg);
		if (ctx.hint[0])
			printf("hint: %s\n", ctx.hint);
		r = 1;
		goto out;
	}
	for (size_t i = 0; i < evl.n; i++) {
		const struct pstat_event *ev = &evl.ev[i];
		const struct perf_event_attr *a = &ev->attr;

		printf("%s: %s type=%u config=%#llx", ev->name, ev->resolver,
		       a->type, (unsigned long long)a->config);
		if (a->config1)
			printf(" config1=%#llx", (unsigned long long)a->config1);
		if (a->config2 && a->type != PERF_TYPE_BREAKPOINT)
			printf(" config2=%#llx", (unsigned long long)a->config2);
		if (a->type == PERF_TYPE_BREAKPOINT)
			printf(" bp_type=%u bp_len=%llu", a->bp_type,
			       (unsigned long long)a->bp_len);
		print_bits(a);
		printf(" group=%d leader=%d row=%d", ev->group, ev->leader,
		       ev->row);
		if (a->read_format & PERF_FORMAT_GROUP)
			printf(" grouped");
		if (ev->scale != 1.0)
			printf(" scale=%g", ev->scale);
		if (ev->unit)
			printf(" unit=%s", ev->unit);
		printf("\n");
	}
out:
	evlist_free(&evl);
	evspec_tree_free(&tree);
	pmus_free(ctx.pmus);
	free(root);
	free(tracefs);
	return r;
}

/*
 * read FMT W0 W1 ...: decode a read() buffer of u64 words for read_format
 * FMT (names joined by '|': ena, run, id, group, lost), printing each
 * value or "error".
 */
int t_read(int argc, char **argv)
{
	char *line = argv[1], *save = NULL, *tok;
	uint64_t fmt = 0, words[64];
	size_t n = 0;
	struct pstat_reading out[16];
	int nr;

	if (argc < 2)
		return 2;
	line = xstrdup(line);
	tok = strtok_r(line, " ", &save);
	for (char *s2 = NULL, *f = strtok_r(tok, "|", &s2); f;
	     f = strtok_r(NULL, "|", &s2)) {
		if (!strcmp(f, "ena"))
			fmt |= PERF_FORMAT_TOTAL_TIME_ENABLED;
		else if (!strcmp(f, "run"))
			fmt |= PERF_FORMAT_TOTAL_TIME_RUNNING;
		else if (!strcmp(f, "id"))
			fmt |= PERF_FORMAT_ID;
		else if (!strcmp(f, "group"))
			fmt |= PERF_FORMAT_GROUP;
		else if (!strcmp(f, "lost"))
			fmt |= PERF_FORMAT_LOST;
	}
	while ((tok = strtok_r(NULL, " ", &save)) && n < 64)
		words[n++] = strtoull(tok, NULL, 0);
	free(line);
	nr = counter_decode_read(words, n * sizeof(uint64_t), fmt, out, 16);
	if (nr < 0) {
		printf("error\n");
		return 1;
	}
	for (int i = 0; i < nr; i++)
		printf("val=%" PRIu64 " ena=%" PRIu64 " run=%" PRIu64 "\n",
		       out[i].val, out[i].ena, out[i].run);
	return 0;
}
