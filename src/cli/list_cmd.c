/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/list.h"
#include "cli/metrics_cli.h"
#include "cli/tracefs.h"
#include "events/pfm.h"
#include "events/tracepoint.h"

static const char LIST_USAGE[] =
	"usage: pstat list [--tracepoints] [--names] [-j] [GLOB]";

static void list_help(void)
{
	printf("%s\n"
	       "\n"
	       "List the events that can be counted here: generic, sysfs PMU and\n"
	       "libpfm4 events, and tracepoints when asked for.\n"
	       "\n"
	       "      --tracepoints  list tracepoints too: all, or those GLOB takes\n"
	       "      --names        one name a line, nothing else (for completion)\n"
	       "  -j, --json         one JSON document (schema pstat-list/1)\n"
	       "  -h, --help         this help\n"
	       "  GLOB               only the names this glob(7) matches, in any\n"
	       "                     case; tracepoints too when it can name one\n",
	       LIST_USAGE);
}

int list_main(int argc, char **argv)
{
	struct pstat_list_opts lo = { 0 };
	int r;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json"))
			lo.json = 1;
		else if (!strcmp(argv[i], "--tracepoints"))
			lo.tracepoints = 1;
		else if (!strcmp(argv[i], "--names"))
			lo.names_only = 1;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			list_help();
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			msg_bad_option('?', 0, argv[i], "pstat list",
				       LIST_USAGE);
			return EXIT_PSTAT_FAILED;
		} else if (lo.glob) {
			msg_error("'pstat list' takes one GLOB");
			return EXIT_PSTAT_FAILED;
		} else {
			lo.glob = argv[i];
		}
	}
	lo.sysfs_root = env_root("PSTAT_SYSFS_ROOT");
	lo.tracefs_root = env_root("PSTAT_TRACEFS_ROOT");
	/* tracepoints asked for, and no tracefs: mount it, as for -e */
	if (!lo.tracefs_root && !tracepoint_root(NULL) &&
	    (lo.tracepoints || (lo.glob && strchr(lo.glob, ':'))) &&
	    tracefs_ensure()) {
		msg_warn("tracefs is not mounted: no tracepoints are listed");
		msg_hint("mount it (as root): mount -t tracefs nodev /sys/kernel/tracing");
	}
	if (lo.glob && (!strcmp(lo.glob, "metric") ||
			!strcmp(lo.glob, "metrics") ||
			!strcmp(lo.glob, "metricgroup") ||
			!strcmp(lo.glob, "metricgroups")))
		r = metrics_cli_list(stdout, lo.json, lo.names_only,
				     lo.sysfs_root);
	else
		r = list_run(&lo, stdout);
	pfm_cleanup();
	if (r) {
		msg_error("cannot write the list: %s", strerror(-r));
		return EXIT_PSTAT_FAILED;
	}
	return 0;
}

