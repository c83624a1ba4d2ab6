/* SPDX-License-Identifier: MIT */
#include <dlfcn.h>
#include <link.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The kernel's header first: libpfm4 ships its own copy of perf_event.h
 * and only steps aside when it sees the kernel's guard, so this order is
 * what keeps one definition of struct perf_event_attr in the program.
 */
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

#include "base/util.h"
#include "events/pfm.h"

/*
 * libpfm4 is loaded with dlopen on first use rather than linked: its
 * tables carry some 40,000 relocations that the dynamic loader would
 * otherwise process at every start of pstat, even for a run that never
 * names a libpfm4 event (most of them). The header still gives the types.
 */
static struct {
	void *handle;
	int (*initialize)(void);
	void (*terminate)(void);
	const char *(*strerror)(int);
	int (*get_os_event_encoding)(const char *, int, pfm_os_t, void *);
	int (*get_event_info)(int, pfm_os_t, pfm_event_info_t *);
	int (*get_pmu_info)(pfm_pmu_t, pfm_pmu_info_t *);
	int (*get_event_next)(int);
	int (*get_event_attr_info)(int, int, pfm_os_t,
				   pfm_event_attr_info_t *);
} lib;

/* Why libpfm4 could not be loaded, for pfm_errstr. */
static char load_error[256];

/*
 * PFM_ERR_NOINIT stands for "the library itself could not be loaded".
 * PSTAT_LIBPFM names the file to load instead of the sonames: a test can
 * point it at a file that does not exist to see pstat without libpfm4.
 */
static int pfm_load(void)
{
	static const char *const sonames[] = { "libpfm.so.4", "libpfm.so" };
	const char *path = getenv("PSTAT_LIBPFM");
	const char *why;

	if (path && *path) {
		lib.handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(sonames) && !lib.handle; i++)
			lib.handle = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
	}
	if (!lib.handle) {
		why = dlerror();
		snprintf(load_error, sizeof(load_error), "%s",
			 why ? why : "libpfm.so.4 cannot be loaded");
		return PFM_ERR_NOINIT;
	}
	*(void **)&lib.initialize = dlsym(lib.handle, "pfm_initialize");
	*(void **)&lib.terminate = dlsym(lib.handle, "pfm_terminate");
	*(void **)&lib.strerror = dlsym(lib.handle, "pfm_strerror");
	*(void **)&lib.get_os_event_encoding =
		dlsym(lib.handle, "pfm_get_os_event_encoding");
	*(void **)&lib.get_event_info = dlsym(lib.handle, "pfm_get_event_info");
	*(void **)&lib.get_pmu_info = dlsym(lib.handle, "pfm_get_pmu_info");
	*(void **)&lib.get_event_next = dlsym(lib.handle, "pfm_get_event_next");
	*(void **)&lib.get_event_attr_info =
		dlsym(lib.handle, "pfm_get_event_attr_info");
	if (!lib.initialize || !lib.terminate || !lib.strerror ||
	    !lib.get_os_event_encoding || !lib.get_event_info ||
	    !lib.get_pmu_info || !lib.get_event_next ||
	    !lib.get_event_attr_info) {
		snprintf(load_error, sizeof(load_error),
			 "%s lacks libpfm4's functions", path && *path ? path :
			 "libpfm.so.4");
		dlclose(lib.handle);
		memset(&lib, 0, sizeof(lib));
		return PFM_ERR_NOINIT;
	}
	return PFM_SUCCESS;
}

static const char *pfm_errstr(int ret)
{
	if (!lib.strerror)
		return load_error[0] ? load_error :
				       "libpfm.so.4 cannot be loaded";
	return lib.strerror(ret);
}

/*
 * 0: not tried yet, 1: initialised, < 0: pfm_initialize's error. A failure
 * is remembered so that a machine libpfm4 cannot handle pays only once.
 */
static int pfm_state;

static int pfm_init(void)
{
	if (!pfm_state) {
		int ret = pfm_load();

		if (ret == PFM_SUCCESS)
			ret = lib.initialize();
		pfm_state = ret == PFM_SUCCESS ? 1 : (ret < 0 ? ret : -1);
	}
	return pfm_state > 0 ? 0 : pfm_state;
}

int pfm_library_version(char *buf, size_t len, struct pstat_error *err)
{
	struct link_map *map = NULL;
	char *path, *so;

	if (!lib.handle && pfm_load() != PFM_SUCCESS)
		return error_set(err, -1, "%s", pfm_errstr(PFM_ERR_NOINIT));
	/*
	 * pfm_get_version() gives only the API's major version (4.0): the
	 * release is in the name of the file the loader found, which the
	 * soname links to (libpfm.so.4 -> libpfm.so.4.13.0).
	 */
	if (dlinfo(lib.handle, RTLD_DI_LINKMAP, &map) || !map || !map->l_name)
		return error_set(err, -1, "cannot tell which file was loaded");
	path = realpath(map->l_name, NULL);
	so = path ? strstr(path, ".so.") : NULL;
	if (so && so[4])
		snprintf(buf, len, "%s", so + 4);
	else
		snprintf(buf, len, "unknown version (%s)", map->l_name);
	free(path);
	return 0;
}

void pfm_cleanup(void)
{
	if (pfm_state > 0)
		lib.terminate();
	pfm_state = 0;
}

static int pfm_pmu_info(pfm_pmu_t pmu, pfm_pmu_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return lib.get_pmu_info(pmu, info);
}

static int pfm_event_info(int idx, pfm_event_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	return lib.get_event_info(idx, PFM_OS_NONE, info);
}

static int pfm_errno(int ret)
{
	switch (ret) {
	case PFM_ERR_NOTFOUND:
		return -ENOENT;
	case PFM_ERR_NOMEM:
		return -ENOMEM;
	default:
		return -1;
	}
}

int pfm_encode(const char *name, struct perf_event_attr *attr,
	       char **pmu_name, struct pstat_error *err)
{
	struct perf_event_attr scratch;
	pfm_perf_encode_arg_t arg;
	pfm_event_info_t einfo;
	pfm_pmu_info_t pinfo;
	int ret;

	ret = pfm_init();
	if (ret) {
		error_set(err, -1, "libpfm4 %s (%s)",
			  lib.handle ? "cannot initialise" : "cannot be loaded",
			  pfm_errstr(ret));
		return -ELIBACC;
	}

	memset(&scratch, 0, sizeof(scratch));
	scratch.size = sizeof(scratch);
	memset(&arg, 0, sizeof(arg));
	arg.attr = &scratch;
	arg.size = sizeof(arg);
	/*
	 * User and kernel by default, like perf: a modifier in the name
	 * (":u", ":k") narrows it.
	 */
	ret = lib.get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3,
					PFM_OS_PERF_EVENT_EXT, &arg);
	/* (a name no event could have, blanks in it: "invalid parameters") */
	if (ret == PFM_ERR_NOTFOUND || ret == PFM_ERR_INVAL) {
		error_set(err, -1, "libpfm4 does not know event '%s'", name);
		return -ENOENT;
	}
	if (ret != PFM_SUCCESS) {
		error_set(err, -1, "libpfm4 cannot encode '%s': %s", name,
			  pfm_errstr(ret));
		return pfm_errno(ret);
	}

	ret = pfm_event_info(arg.idx, &einfo);
	if (ret == PFM_SUCCESS)
		ret = pfm_pmu_info(einfo.pmu, &pinfo);
	if (ret != PFM_SUCCESS) {
		error_set(err, -1, "libpfm4 cannot describe '%s': %s", name,
			  pfm_errstr(ret));
		return pfm_errno(ret);
	}

	attr->type = scratch.type;
	attr->config = scratch.config;
	attr->config1 = scratch.config1;
	attr->config2 = scratch.config2;
	attr->exclude_user = scratch.exclude_user;
	attr->exclude_kernel = scratch.exclude_kernel;
	attr->exclude_hv = scratch.exclude_hv;
	attr->exclude_guest = scratch.exclude_guest;
	attr->exclude_host = scratch.exclude_host;
	/* libpfm4's own ":excl" and ":pinned" */
	attr->exclusive = scratch.exclusive;
	attr->pinned = scratch.pinned;
	if (pmu_name)
		*pmu_name = xstrdup(pinfo.name);
	return 0;
}

/*
 * Walk the PMUs libpfm4 detects on this machine. libpfm4 knows hundreds
 * of PMU models; only those marked present can encode anything here
 * (without LIBPFM_ENCODE_INACTIVE), so the others would only mislead.
 */
static int pfm_foreach_present(int (*fn)(pfm_pmu_t pmu,
					 const pfm_pmu_info_t *info,
					 void *arg),
			       void *arg)
{
	pfm_pmu_info_t info;
	pfm_pmu_t pmu;
	int ret;

	if (pfm_init())
		return -1;
	pfm_for_all_pmus(pmu) {
		if (pfm_pmu_info(pmu, &info) != PFM_SUCCESS ||
		    !info.is_present)
			continue;
		ret = fn(pmu, &info, arg);
		if (ret)
			return ret;
	}
	return 0;
}

struct pfm_event_walk {
	int (*fn)(const struct pstat_pfm_event *ev, void *arg);
	void *arg;
};

/* Fill ev's umask arrays from the event's attributes (new arrays). */
static void pfm_event_umasks(const pfm_event_info_t *einfo,
			     struct pstat_pfm_event *ev)
{
	pfm_event_attr_info_t ainfo;
	int i;

	ev->umasks = xcalloc((size_t)(einfo->nattrs > 0 ? einfo->nattrs : 1),
			     sizeof(*ev->umasks));
	ev->umask_descs = xcalloc((size_t)(einfo->nattrs > 0 ?
					   einfo->nattrs : 1),
				  sizeof(*ev->umask_descs));
	ev->numasks = 0;
	for (i = 0; i < einfo->nattrs; i++) {
		memset(&ainfo, 0, sizeof(ainfo));
		ainfo.size = sizeof(ainfo);
		if (lib.get_event_attr_info(einfo->idx, i, PFM_OS_NONE,
					    &ainfo) != PFM_SUCCESS ||
		    ainfo.type != PFM_ATTR_UMASK)
			continue;
		ev->umasks[ev->numasks] = ainfo.name;
		ev->umask_descs[ev->numasks] = ainfo.desc ? ainfo.desc : "";
		ev->numasks++;
	}
}

static int pfm_walk_pmu_events(pfm_pmu_t pmu, const pfm_pmu_info_t *pinfo,
			       void *arg)
{
	struct pfm_event_walk *w = arg;
	struct pstat_pfm_event ev;
	pfm_event_info_t einfo;
	int idx, ret;

	(void)pmu;
	for (idx = pinfo->first_event; idx != -1;
	     idx = lib.get_event_next(idx)) {
		if (pfm_event_info(idx, &einfo) != PFM_SUCCESS)
			continue;
		memset(&ev, 0, sizeof(ev));
		ev.pmu = pinfo->name;
		ev.pmu_desc = pinfo->desc ? pinfo->desc : "";
		ev.name = einfo.name;
		ev.desc = einfo.desc ? einfo.desc : "";
		pfm_event_umasks(&einfo, &ev);
		ret = w->fn(&ev, w->arg);
		free(ev.umasks);
		free(ev.umask_descs);
		if (ret)
			return ret;
	}
	return 0;
}

int pfm_foreach_event(int (*fn)(const struct pstat_pfm_event *ev,
				void *arg),
		      void *arg)
{
	struct pfm_event_walk w = { .fn = fn, .arg = arg };

	return pfm_foreach_present(pfm_walk_pmu_events, &w);
}

struct pfm_name_walk {
	void (*fn)(const char *name, void *arg);
	void *arg;
};

static int pfm_walk_pmu_names(pfm_pmu_t pmu, const pfm_pmu_info_t *pinfo,
			      void *arg)
{
	struct pfm_name_walk *w = arg;
	pfm_event_info_t einfo;
	char buf[512];
	int idx;

	(void)pmu;
	for (idx = pinfo->first_event; idx != -1;
	     idx = lib.get_event_next(idx)) {
		if (pfm_event_info(idx, &einfo) != PFM_SUCCESS)
			continue;
		snprintf(buf, sizeof(buf), "%s::%s", pinfo->name, einfo.name);
		w->fn(buf, w->arg);
	}
	return 0;
}

int pfm_foreach_name(void (*fn)(const char *name, void *arg), void *arg)
{
	struct pfm_name_walk w = { .fn = fn, .arg = arg };

	return pfm_foreach_present(pfm_walk_pmu_names, &w);
}

struct pfm_pmu_walk {
	void (*fn)(const char *name, const char *desc, bool is_core,
		   void *arg);
	void *arg;
};

static int pfm_walk_pmu(pfm_pmu_t pmu, const pfm_pmu_info_t *pinfo,
			void *arg)
{
	struct pfm_pmu_walk *w = arg;

	(void)pmu;
	w->fn(pinfo->name, pinfo->desc ? pinfo->desc : "",
	      pinfo->type == PFM_PMU_TYPE_CORE, w->arg);
	return 0;
}

int pfm_foreach_pmu(void (*fn)(const char *name, const char *desc,
			       bool is_core, void *arg),
		    void *arg)
{
	struct pfm_pmu_walk w = { .fn = fn, .arg = arg };

	return pfm_foreach_present(pfm_walk_pmu, &w);
}
