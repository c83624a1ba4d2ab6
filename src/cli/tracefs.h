/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_CLI_TRACEFS_H
#define PSTAT_CLI_TRACEFS_H

/*
 * A machine may boot without tracefs mounted; perf mounts it on first
 * use. So does pstat, when it may: tracefs_ensure mounts tracefs on
 * /sys/kernel/tracing when no tracefs is mounted, saying so on stderr
 * (once), and returns 0 when tracefs is now there, or -errno (-EPERM for
 * a user who may not mount). Only the first call acts; later ones return
 * its result. It is the encoder's ctx->tracefs_mount.
 */
int tracefs_ensure(void);

#endif
