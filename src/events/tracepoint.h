/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_TRACEPOINT_H
#define PSTAT_TRACEPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Tracepoints under a tracefs root passed in (the directory holding
 * events/<subsystem>/<event>/id). With root NULL, /sys/kernel/tracing is
 * tried, then /sys/kernel/debug/tracing. A root without events/ stands
 * for /sys: its kernel/tracing and kernel/debug/tracing are tried the
 * same way, so tests can check the fallback on a fake tree.
 */

struct pstat_tracepoint {
	char *name;        /* "subsystem:event", new string */
	uint64_t id;
	bool format_id;    /* no id file: the id is its format's "ID:" */
};

/*
 * The tracefs root in use: root itself when it has an events/ directory,
 * else the first of <root or /sys>/kernel/tracing and
 * <root or /sys>/kernel/debug/tracing that has one (or has one that may
 * not be searched, so that resolving reports EACCES); else root (NULL
 * when root is). Borrowed, or static until the next call.
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

/*
 * The tracepoints want accepts: want(sys, ev, arg) is asked about every
 * event directory of every subsystem (directories only; the id is read
 * only of those accepted, and one without an id is left out). Returns
 * their number with a new array sorted by name in *out, as
 * tracepoint_resolve, or -errno when tracefs cannot be read.
 */
long tracepoint_filter(const char *root,
		       bool (*want)(const char *sys, const char *ev,
				    void *arg),
		       void *arg, struct pstat_tracepoint **out);

/*
 * Mount tracefs on /sys/kernel/tracing, as perf does when it finds none
 * (needs CAP_SYS_ADMIN). The one call here that acts on the system
 * rather than a root passed in. Returns 0 or -errno.
 */
int tracepoint_mount(void);

/* Free an array returned by tracepoint_resolve; accepts NULL. */
void tracepoint_list_free(struct pstat_tracepoint *tps, size_t n);

#endif
