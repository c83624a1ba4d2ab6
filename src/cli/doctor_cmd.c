/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/doctor.h"

static const char DOCTOR_USAGE[] = "usage: pstat doctor [-j]";

static void doctor_help(void)
{
	printf("%s\n"
	       "\n"
	       "Tell why counting does or does not work on this machine, and what\n"
	       "to do: one line per check (ok, warn or fail, with a fix), then live\n"
	       "probes that count task-clock, a tracepoint and instructions:u.\n"
	       "\n"
	       "  -j, --json  one JSON document (schema pstat-doctor/1)\n"
	       "  -h, --help  this help\n"
	       "\n"
	       "Exit status: 0 software counting works (hardware counting is\n"
	       "reported either way), 1 it does not, 125 usage error.\n",
	       DOCTOR_USAGE);
}

int doctor_main(int argc, char **argv)
{
	struct pstat_doctor_opts d = { 0 };

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			d.json = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			doctor_help();
			return 0;
		} else {
			msg_bad_option('?', 0, argv[i], "pstat doctor",
				       DOCTOR_USAGE);
			return EXIT_PSTAT_FAILED;
		}
	}
	d.sysfs_root = env_root("PSTAT_SYSFS_ROOT");
	d.tracefs_root = env_root("PSTAT_TRACEFS_ROOT");
	return doctor_run(&d, stdout);
}

