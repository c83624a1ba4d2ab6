/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_TRACEPOINT_H
#define PSTAT_TRACEPOINT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Tracepoints under a tracefs root passed in (the directory holding
 * events/<subsystem>/<event>/id). With root NULL, /sys/kernel/tracing is
 * tried, then /sys/kernel/debug/tracing.
 */

struct pstat_tracepoint {
	char *name;        /* "subsystem:event", new string */
	uint64_t id;
};

/*
 * The tracefs root in use: root itself, or the first default that has an
 * events/ directory (or one that exists but may not be searched, so that
 * resolving reports EACCES); NULL when none (borrowed or static).
 */
const char *tracepoint_root(const char *root);

/*
 * Resolve "subsystem:event", where both parts may be fnmatch(3) globs.
 * Returns the number of matches (0 when none) with a new array sorted by
 * name in *out (free with tracepoint_list_free), -EINVAL when spec is not
 * "subsystem:event", or -errno when tracefs cannot be read (-ENOENT: no
 * tracefs; -EACCES: not allowed to read it).
 */
long tracepoint_resolve(const char *root, const char *spec,
			struct pstat_tracepoint **out);

/*
 * For suggestions: call fn with the name of every subsystem under the
 * root's events/ (sys NULL), or of every event of subsystem sys. Only
 * the directory is listed (entries that are directories), no id is read.
 * Returns 0, -EINVAL when sys is not a plain name, or -errno.
 */
int tracepoint_foreach_name(const char *root, const char *sys,
			    void (*fn)(const char *name, void *arg),
			    void *arg);

/* Free an array returned by tracepoint_resolve; accepts NULL. */
void tracepoint_list_free(struct pstat_tracepoint *tps, size_t n);

#endif
