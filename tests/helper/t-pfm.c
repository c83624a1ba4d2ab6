/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/pfm.h"
#include "test-tool.h"

/*
 * pstat-test pfm NAME
 *	encode NAME with libpfm4 and print the attr fields pfm_encode sets,
 *	or "error: <msg>" and exit 1.
 * pstat-test pfm --first-core-event
 *	print "pmu::EVENT" for the first event of the first core PMU
 *	libpfm4 detects here that encodes without a umask, so that tests
 *	pick names at run time instead of hard-coding one CPU's tables;
 *	exit 1 when there is none.
 * pstat-test pfm --pmus
 *	print "NAME core|other DESC" for each PMU libpfm4 detects.
 */

struct first_core {
	char *pmu;      /* the core PMU wanted */
	char *found;    /* "pmu::EVENT" once found */
};

static void first_core_pmu(const char *name, const char *desc, bool is_core,
			   void *arg)
{
	struct first_core *fc = arg;

	(void)desc;
	if (is_core && !fc->pmu)
		fc->pmu = xstrdup(name);
}

static int first_core_event(const struct pstat_pfm_event *ev, void *arg)
{
	struct first_core *fc = arg;
	struct perf_event_attr attr;
	struct pstat_error err;
	char *name;

	if (strcmp(ev->pmu, fc->pmu))
		return 0;
	name = xasprintf("%s::%s", ev->pmu, ev->name);
	memset(&attr, 0, sizeof(attr));
	if (pfm_encode(name, &attr, NULL, &err)) {
		free(name);
		return 0;
	}
	fc->found = name;
	return 1;
}

static int print_first_core_event(void)
{
	struct first_core fc = { 0 };

	if (pfm_foreach_pmu(first_core_pmu, &fc) < 0) {
		printf("error: libpfm4 cannot initialise\n");
		return 1;
	}
	if (!fc.pmu) {
		printf("error: libpfm4 detects no core PMU here\n");
		return 1;
	}
	pfm_foreach_event(first_core_event, &fc);
	if (!fc.found) {
		printf("error: no event of %s encodes\n", fc.pmu);
		free(fc.pmu);
		return 1;
	}
	printf("%s\n", fc.found);
	free(fc.found);
	free(fc.pmu);
	return 0;
}

static void print_pmu(const char *name, const char *desc, bool is_core,
		      void *arg)
{
	(void)arg;
	printf("%s %s %s\n", name, is_core ? "core" : "other", desc);
}

int t_pfm(int argc, char **argv)
{
	struct perf_event_attr attr;
	struct pstat_error err;
	char *pmu = NULL;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: pstat-test pfm NAME | --first-core-event"
				" | --pmus\n");
		return 2;
	}
	if (!strcmp(argv[1], "--first-core-event")) {
		ret = print_first_core_event();
		goto out;
	}
	if (!strcmp(argv[1], "--pmus")) {
		ret = pfm_foreach_pmu(print_pmu, NULL) ? 1 : 0;
		goto out;
	}

	memset(&attr, 0, sizeof(attr));
	err.msg[0] = '\0';
	ret = pfm_encode(argv[1], &attr, &pmu, &err);
	if (ret) {
		printf("error: %s%s\n", err.msg,
		       ret == -ENOENT ? " (ENOENT)" : "");
		ret = 1;
		goto out;
	}
	printf("type=%" PRIu32 " config=0x%" PRIx64 " config1=0x%" PRIx64
	       " config2=0x%" PRIx64
	       " exclude_user=%d exclude_kernel=%d exclude_hv=%d pmu=%s\n",
	       attr.type, (uint64_t)attr.config, (uint64_t)attr.config1,
	       (uint64_t)attr.config2, (int)attr.exclude_user,
	       (int)attr.exclude_kernel, (int)attr.exclude_hv, pmu);
	free(pmu);
out:
	pfm_cleanup();
	return ret;
}
