/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_CGROUP_H
#define PSTAT_CGROUP_H

#include <stddef.h>

#include "base/msg.h"
#include "events/encode.h"

/*
 * cgroups for -G and --for-each-cgroup: where the hierarchy that counts
 * perf events is mounted, and the directories the kernel takes in place
 * of a pid (PERF_FLAG_PID_CGROUP). That hierarchy is cgroup v1's with
 * the perf_event controller when one is mounted, which then owns it,
 * and otherwise the unified hierarchy (cgroup2), wherever it is mounted.
 */

/*
 * Find that mount in the text of a /proc/PID/mountinfo: its mount point
 * (unescaped) into out. Returns 0, -ENOENT when there is none, or
 * -ENAMETOOLONG when it does not fit in len. *v1 says whether it is
 * cgroup v1's perf_event hierarchy. Pure.
 */
int cgroup_mount_parse(const char *mountinfo, char *out, size_t len,
		       int *v1);

/* The same from /proc/self/mountinfo. Returns 0 or -1 with err set. */
int cgroup_mount_find(char *out, size_t len, int *v1,
		      struct pstat_error *err);

/*
 * Open the directory of cgroup name (relative to the mount; "/" is its
 * root, a leading '/' is allowed, ".." is not) for perf_event_open.
 * Returns the descriptor (close-on-exec), or -1 with err set.
 */
int cgroup_open(const char *mount, const char *name,
		struct pstat_error *err);

/*
 * The cgroups below mount (the root "/" included) whose path, as -G
 * names them (no leading '/'; "/" for the root), matches the extended
 * regular expression re as a whole (at most CGROUP_PATTERN_MAX large): their names in *names (new array of
 * new strings, sorted), how many in *n. Returns 0 (also when none
 * matches), or -1 with err set (a bad expression, an unreadable mount).
 */
int cgroup_match(const char *mount, const char *re, char ***names,
		 size_t *n, struct pstat_error *err);

/*
 * The largest pattern cgroup_match compiles, counted as
 * cgroup_pattern_size does: glibc's regcomp writes {m,n} repeats out,
 * and nested ones multiply.
 */
#define CGROUP_PATTERN_MAX 4096

/*
 * The size of extended regular expression re with its {m,n} repeats
 * written out (a character, escape or bracket expression counts one),
 * or CGROUP_PATTERN_MAX + 1 when larger. Pure.
 */
size_t cgroup_pattern_size(const char *re);

/*
 * Whether name is a pattern for cgroup_match rather than a plain name:
 * it holds a character a cgroup name rarely has and a regular
 * expression gives a meaning (*, ?, [, ^, $, +, (, |, {, \).
 */
int cgroup_is_pattern(const char *name);

/*
 * Open the cgroup of every event of evl that has one: *fds (new) holds
 * a descriptor per event, -1 for those without, events of the same
 * cgroup sharing one; NULL when no event has a cgroup. Returns 0 or -1
 * with err set (every descriptor closed again).
 */
int cgroup_open_events(const struct pstat_evlist *evl, int **fds,
		       struct pstat_error *err);

/*
 * How many cgroup directories cgroup_open_events holds open for evl (one
 * per distinct name), for the descriptor limit.
 */
size_t cgroup_count_dirs(const struct pstat_evlist *evl);

/* Close the descriptors of cgroup_open_events and free fds; NULL is fine. */
void cgroup_close_events(const struct pstat_evlist *evl, int *fds);

#endif
