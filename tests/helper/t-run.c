/* SPDX-License-Identifier: MIT */
/*
 * The run stage's pure parts:
 *   control LINE        a control command: "KIND[ ARG]" as parsed
 *   control-arg ARG     a --control argument: "fifo CTL ACK" or "fd N M"
 *   cgroup-mount TEXT   the cgroup mount in mountinfo TEXT, whose lines
 *                       are separated by " | ": "v1 PATH" or "v2 PATH"
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/cgroup.h"
#include "run/control.h"
#include "test-tool.h"

int t_control(int argc, char **argv)
{
	struct pstat_control_cmd cmd;

	if (argc != 2)
		return 2;
	control_parse_cmd(argv[1], &cmd);
	printf("%s", control_cmd_name(cmd.kind));
	if (cmd.arg)
		printf(" arg='%s'", cmd.arg);
	printf("\n");
	return 0;
}

int t_control_arg(int argc, char **argv)
{
	struct pstat_control_spec spec;
	struct pstat_error err;

	if (argc != 2)
		return 2;
	if (control_parse(argv[1], &spec, &err)) {
		printf("error: %s\n", err.msg);
		return 1;
	}
	if (spec.is_fifo)
		printf("fifo '%s' '%s'\n", spec.ctl_path,
		       spec.ack_path ? spec.ack_path : "");
	else
		printf("fd %d %d\n", spec.ctl_fd, spec.ack_fd);
	control_spec_free(&spec);
	return 0;
}

int t_cgroup_mount(int argc, char **argv)
{
	char *text, *p, out[256];
	int v1 = 0, r;

	if (argc != 2)
		return 2;
	text = strdup(argv[1]);
	while ((p = strstr(text, " | ")))
		memmove(p + 1, p + 3, strlen(p + 3) + 1), *p = '\n';
	r = cgroup_mount_parse(text, out, sizeof(out), &v1);
	free(text);
	if (r) {
		printf("error: %s\n", strerror(-r));
		return 1;
	}
	printf("%s %s\n", v1 ? "v1" : "v2", out);
	return 0;
}
