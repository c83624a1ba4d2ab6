/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_CLI_CPUID_H
#define PSTAT_CLI_CPUID_H

/*
 * The CPU model as libpfm4 tells its tables apart, from the first
 * processor of /proc/cpuinfo: "GenuineIntel family 6 model 207 (0xcf)"
 * on x86, "CPU implementer 0x41 part 0xd0c" on arm64. New string, or
 * NULL when /proc/cpuinfo says neither.
 */
char *cpuid_describe(void);

#endif
