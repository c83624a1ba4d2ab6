/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "events/tracepoint.h"

/*
 * Where tracefs is mounted, relative to /sys: its own mount point first,
 * then the older place under debugfs.
 */
static const char *const tracefs_dirs[] = {
	"kernel/tracing",
	"kernel/debug/tracing",
};

struct tp_list {
	struct pstat_tracepoint *v;
	size_t n, alloc;
};

/*
 * Whether dir/events is a directory, or exists but may not be searched:
 * tracefs is often root-only, and a root we may not enter is still the
 * one in use, so the caller gets EACCES to explain rather than a
 * misleading "no tracefs".
 */
static bool has_events(const char *dir)
{
	char *events = xasprintf("%s/events", dir);
	struct stat st;
	int r = stat(events, &st);
	bool ok = r ? errno == EACCES : S_ISDIR(st.st_mode);

	free(events);
	return ok;
}

const char *tracepoint_root(const char *root)
{
	static char found[4096];

	if (root && has_events(root))
		return root;
	for (size_t i = 0; i < ARRAY_SIZE(tracefs_dirs); i++) {
		int n = snprintf(found, sizeof(found), "%s/%s",
				 root ? root : "/sys", tracefs_dirs[i]);

		if (n > 0 && (size_t)n < sizeof(found) && has_events(found))
			return found;
	}
	return root;
}

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* A part of the spec must stay one path component under events/. */
static bool valid_part(const char *s)
{
	return *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

static int cmp_tp(const void *a, const void *b)
{
	return strcmp(((const struct pstat_tracepoint *)a)->name,
		      ((const struct pstat_tracepoint *)b)->name);
}

/*
 * The "ID: N" line of sysfd/ev/format: the ftrace subsystem's events
 * have a format but no id file (the kernel makes them for its own
 * tracer, not for perf). perf takes their id from there and the kernel
 * then refuses to count them: <not supported>, not an unknown event.
 * Returns 0 with *id set, or -1.
 */
static int format_id(int sysfd, const char *ev, uint64_t *id)
{
	char *path = xasprintf("%s/format", ev);
	char *text = read_file_at(sysfd, path), *line;
	int r = -1;

	free(path);
	for (line = text; line && *line; line = strchr(line, '\n')) {
		char *end;

		line += *line == '\n';
		if (strncmp(line, "ID:", 3))
			continue;
		end = strchr(line, '\n');
		if (end)
			*end = '\0';
		r = parse_u64(str_trim(line + 3), UINT64_MAX, id) ? -1 : 0;
		break;
	}
	free(text);
	return r;
}

/*
 * Add sys:ev when sysfd/ev/id (or its format's ID line) holds an id. A
 * missing id is no match (subsystem directories also hold files such
 * as "enable" and "filter"); anything else is an error worth
 * reporting, EACCES above all.
 */
static int add_event(int sysfd, const char *sys, const char *ev,
		     struct tp_list *l)
{
	char *path = xasprintf("%s/id", ev);
	char *text = read_file_at(sysfd, path);
	uint64_t id;
	int e = errno;

	bool from_format = false;

	free(path);
	if (!text && e == ENOENT && !format_id(sysfd, ev, &id)) {
		text = xasprintf("%" PRIu64, id);
		from_format = true;
	}
	if (!text)
		return e == ENOENT || e == ENOTDIR ? 0 : -e;
	if (parse_u64(text, UINT64_MAX, &id)) {
		free(text);
		return 0;
	}
	free(text);
	xgrow((void **)&l->v, &l->alloc, l->n + 1, sizeof(*l->v));
	l->v[l->n].name = xasprintf("%s:%s", sys, ev);
	l->v[l->n].id = id;
	l->v[l->n].format_id = from_format;
	l->n++;
	return 0;
}

/*
 * Call fn for every entry of dirfd/sub matching pattern, with its dirent;
 * a pattern with no glob characters is looked up directly instead of
 * listing the directory (de NULL).
 */
typedef int (*match_fn)(int fd, const char *name, const struct dirent *de,
			void *arg);

static int each_match(int dirfd, const char *sub, const char *pattern,
		      match_fn fn, void *arg)
{
	struct dirent *de;
	DIR *d;
	int fd, r = 0;

	fd = openat(dirfd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (!is_glob(pattern)) {
		r = fn(fd, pattern, NULL, arg);
		close(fd);
		return r;
	}
	d = fdopendir(fd);
	if (!d) {
		r = -errno;
		close(fd);
		return r;
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			r = -errno;
			break;
		}
		/* fnmatch without FNM_PERIOD lets "*" match "." and "..". */
		if (de->d_name[0] == '.')
			continue;
		if (fnmatch(pattern, de->d_name, 0))
			continue;
		r = fn(fd, de->d_name, de, arg);
		if (r)
			break;
	}
	closedir(d);
	return r;
}

struct sys_arg {
	const char *ev;
	struct tp_list *l;
};

struct ev_arg {
	const char *sys;
	struct tp_list *l;
};

static int on_event(int sysfd, const char *ev, const struct dirent *de,
		    void *arg)
{
	struct ev_arg *a = arg;

	(void)de;
	return add_event(sysfd, a->sys, ev, a->l);
}

static int on_subsystem(int eventsfd, const char *sys,
			const struct dirent *de, void *arg)
{
	struct sys_arg *a = arg;
	struct ev_arg ea = { .sys = sys, .l = a->l };
	int r = each_match(eventsfd, sys, a->ev, on_event, &ea);

	(void)de;
	/* No such subsystem, or a file such as events/enable: no match. */
	return r == -ENOENT || r == -ENOTDIR ? 0 : r;
}

/* The sorted list l as *out and its length, or r < 0 (l freed). */
static long list_done(struct tp_list *l, int r, struct pstat_tracepoint **out)
{
	if (r) {
		tracepoint_list_free(l->v, l->n);
		return r;
	}
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), cmp_tp);
	*out = l->v;
	return (long)l->n;
}

long tracepoint_resolve(const char *root, const char *spec,
			struct pstat_tracepoint **out)
{
	struct tp_list l = { 0 };
	struct sys_arg sa;
	const char *colon = strchr(spec, ':');
	char *sys, *events;
	int r;

	*out = NULL;
	root = tracepoint_root(root);
	if (!root)
		return -ENOENT;
	if (!colon)
		return -EINVAL;
	sys = xstrndup(spec, (size_t)(colon - spec));
	sa.ev = colon + 1;
	sa.l = &l;
	if (!valid_part(sys) || !valid_part(sa.ev)) {
		free(sys);
		return -EINVAL;
	}
	events = xasprintf("%s/events", root);
	r = each_match(AT_FDCWD, events, sys, on_subsystem, &sa);
	free(events);
	free(sys);
	return list_done(&l, r, out);
}

/*
 * Whether the entry de of dirfd is a directory: tracefs fills d_type,
 * other file systems (a fixture tree on some) may leave it unknown.
 */
static bool entry_is_dir(int dirfd, const char *name, const struct dirent *de)
{
	struct stat st;

	if (de && de->d_type != DT_UNKNOWN && de->d_type != DT_LNK)
		return de->d_type == DT_DIR;
	return !fstatat(dirfd, name, &st, 0) && S_ISDIR(st.st_mode);
}

struct filter_arg {
	bool (*want)(const char *sys, const char *ev, void *arg);
	void *arg;
	struct tp_list *l;
};

struct filter_sys {
	const struct filter_arg *a;
	const char *sys;
};

/* An event directory of a subsystem, offered to the filter. */
static int filter_event(int sysfd, const char *ev, const struct dirent *de,
			void *arg)
{
	const struct filter_sys *fs = arg;

	if (!entry_is_dir(sysfd, ev, de) ||
	    !fs->a->want(fs->sys, ev, fs->a->arg))
		return 0;
	return add_event(sysfd, fs->sys, ev, fs->a->l);
}

/* Every event directory of one subsystem, offered to the filter. */
static int filter_subsystem(int eventsfd, const char *sys,
			    const struct dirent *de, void *arg)
{
	struct filter_sys fs = { arg, sys };
	int r;

	if (!entry_is_dir(eventsfd, sys, de))
		return 0;
	r = each_match(eventsfd, sys, "*", filter_event, &fs);
	return r == -ENOENT || r == -ENOTDIR ? 0 : r;
}

long tracepoint_filter(const char *root,
		       bool (*want)(const char *sys, const char *ev,
				    void *arg),
		       void *arg, struct pstat_tracepoint **out)
{
	struct tp_list l = { 0 };
	struct filter_arg a = { want, arg, &l };
	char *events;
	int r;

	*out = NULL;
	root = tracepoint_root(root);
	if (!root)
		return -ENOENT;
	events = xasprintf("%s/events", root);
	r = each_match(AT_FDCWD, events, "*", filter_subsystem, &a);
	free(events);
	return list_done(&l, r, out);
}

struct name_arg {
	void (*fn)(const char *name, void *arg);
	void *arg;
};

/* Subsystems and events are directories; "enable" or "filter" are not. */
static int on_name(int dirfd, const char *name, const struct dirent *de,
		   void *arg)
{
	struct name_arg *a = arg;

	if (entry_is_dir(dirfd, name, de))
		a->fn(name, a->arg);
	return 0;
}

int tracepoint_foreach_name(const char *root, const char *sys,
			    void (*fn)(const char *name, void *arg),
			    void *arg)
{
	struct name_arg a = { fn, arg };
	char *dir;
	int r;

	root = tracepoint_root(root);
	if (!root)
		return -ENOENT;
	if (sys && (!valid_part(sys) || is_glob(sys)))
		return -EINVAL;
	dir = sys ? xasprintf("%s/events/%s", root, sys) :
		    xasprintf("%s/events", root);
	r = each_match(AT_FDCWD, dir, "*", on_name, &a);
	free(dir);
	return r;
}

void tracepoint_list_free(struct pstat_tracepoint *tps, size_t n)
{
	if (!tps)
		return;
	for (size_t i = 0; i < n; i++)
		free(tps[i].name);
	free(tps);
}

int tracepoint_mount(void)
{
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		return -errno;
	return 0;
}
