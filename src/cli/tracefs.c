/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>

#include "base/msg.h"
#include "cli/tracefs.h"
#include "events/tracepoint.h"

int tracefs_ensure(void)
{
	static int done, result;

	if (done)
		return result;
	done = 1;
	if (tracepoint_root(NULL))
		return result = 0;
	result = tracepoint_mount();
	if (!result)
		msg_warn("tracefs was not mounted: mounted it on /sys/kernel/tracing, as perf does");
	else
		msg_debug(1, "cannot mount tracefs on /sys/kernel/tracing: %s",
			  strerror(-result));
	return result;
}
