/* SPDX-License-Identifier: MIT */
/*
 * perf stat's options that pstat does not have (see cli/options.h).
 */
#include <string.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/options.h"

/*
 * perf stat's options that pstat does not have, and what to do instead:
 * a perf user gets that, not "unknown option".
 */
static const struct {
	const char *name;       /* the long name */
	char short_name;        /* or 0 */
	const char *instead;
} refused_opts[] = {
	{ "all-kernel", 0, "add :k to the events instead (-e cycles:k)" },
	{ "all-user", 0, "add :u to the events instead (-e cycles:u)" },
	{ "bpf-attr-map", 0, "pstat counts through perf_event_open(2) only" },
	{ "bpf-counters", 0, "pstat counts through perf_event_open(2) only; the events count the same without it" },
	{ "cputype", 0, "name the core PMU in the event instead (-e cpu_core/cycles/, cpu_atom/cycles/)" },
	{ "filter", 0, "tracepoint filters apply to recording; count the tracepoint and filter its source instead" },
	{ "group", 'g', "write the group in the list instead: -e '{cycles,instructions}'" },
	{ "hybrid-merge", 0, "pstat shows a row per core PMU; add them up, or count one PMU's event" },
	{ "interval-clear", 0, "pipe -I's lines through watch(1) or a pager instead" },
	{ "iostat", 0, "count the I/O PMU's own events with -e (see 'pstat list')" },
	{ "metric-no-merge", 0, "events shared by several metrics are opened once; name them yourself with --metric to keep them apart" },
	{ "no-scale", 0, "-j gives each counter's raw count and its times enabled and running" },
	{ "percore-show-thread", 0, "use -A for a row per CPU (thread), or --per-core for a row per core" },
	{ "scale", 0, "counts are always scaled for multiplexing, as perf's default" },
	{ "smi-cost", 0, "count -e msr/smi/,msr/aperf/,msr/mperf/ with -a instead" },
	{ "table", 0, "-j with -r gives every run's value (samples)" },
	{ "transaction", 'T', "count the cpu/tx-start/, cpu/el-start/ and cpu/cycles-t/ events with -e" },
};

int options_refused(int short_name, const char *arg)
{
	size_t len;

	if (short_name && short_name < 256) {
		for (size_t i = 0; i < ARRAY_SIZE(refused_opts); i++)
			if (refused_opts[i].short_name == short_name) {
				msg_error("-%c (--%s) is a perf stat option pstat does not support: %s",
					  short_name, refused_opts[i].name,
					  refused_opts[i].instead);
				return 1;
			}
		return 0;
	}
	if (strncmp(arg, "--", 2))
		return 0;
	arg += 2;
	len = strcspn(arg, "=");
	for (size_t i = 0; i < ARRAY_SIZE(refused_opts); i++)
		if (strlen(refused_opts[i].name) == len &&
		    !strncmp(arg, refused_opts[i].name, len)) {
			msg_error("--%s is a perf stat option pstat does not support: %s",
				  refused_opts[i].name, refused_opts[i].instead);
			return 1;
		}
	return 0;
}
