/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "events/pmu.h"

/* One pmus_find() result, remembered whether it succeeded or not. */
struct pmus_slot {
	char *name;
	struct pstat_pmu *pmu; /* NULL when loading failed */
	int err; /* errno of the failed load */
	char *why; /* what went wrong, or NULL (see pmus_error) */
};

struct pstat_pmus {
	char *root; /* as given to pmus_new: NULL for /sys */
	char *devices; /* <root>/bus/event_source/devices */
	struct pmus_slot *slots;
	size_t nslots, aslots;
	char **names; /* directory listing, once scanned */
	size_t nnames;
	bool scanned;
};

/*
 * Order names like perf: uncore_imc_2 before uncore_imc_10, so a box
 * count above ten still lists in the order people number the boxes.
 */
static int name_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea = a, *eb = b;
			size_t la, lb;
			int c;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (ea = a; isdigit((unsigned char)*ea); ea++)
				;
			for (eb = b; isdigit((unsigned char)*eb); eb++)
				;
			la = (size_t)(ea - a);
			lb = (size_t)(eb - b);
			if (la != lb)
				return la < lb ? -1 : 1;
			c = strncmp(a, b, la);
			if (c)
				return c;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	if (*a == *b)
		return 0;
	return *a ? 1 : -1;
}

static int cmp_names(const void *a, const void *b)
{
	return name_cmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_strs(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * The entries of dirfd/sub (not "." and ".."), unsorted. Returns 0, or
 * -errno when the directory cannot be opened or read.
 */
static int dir_list(int dirfd, const char *sub, char ***out, size_t *n)
{
	char **names = NULL;
	size_t alloc = 0, count = 0;
	struct dirent *de;
	DIR *d;
	int fd, e;

	fd = openat(dirfd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		e = errno;
		close(fd);
		return -e;
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de)
			break;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		xgrow((void **)&names, &alloc, count + 1, sizeof(*names));
		names[count++] = xstrdup(de->d_name);
	}
	e = errno;
	closedir(d);
	if (e) {
		names_free(names, count);
		return -e;
	}
	*out = names;
	*n = count;
	return 0;
}

/* Whether dirfd/name is a regular file, following symlinks as sysfs has. */
static bool is_file_at(int dirfd, const char *name)
{
	struct stat st;

	return !fstatat(dirfd, name, &st, 0) && S_ISREG(st.st_mode);
}

static bool is_dir_at(int dirfd, const char *name)
{
	struct stat st;

	return !fstatat(dirfd, name, &st, 0) && S_ISDIR(st.st_mode);
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls > lx && !strcmp(s + ls - lx, suffix);
}

/*
 * sysfs prints scales with a '.', whatever LC_NUMERIC the user runs
 * under, so parse them in the C locale.
 */
static double parse_scale(const char *s)
{
	static locale_t c_locale;
	double v;
	char *end;

	if (!c_locale)
		c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (c_locale)
		v = strtod_l(s, &end, c_locale);
	else
		v = strtod(s, &end);
	/* perf, too, keeps the event unscaled when the file is garbage. */
	if (end == s || *end || !isfinite(v) || v <= 0)
		return 1.0;
	return v;
}

static int cmp_format(const void *a, const void *b)
{
	return strcmp(((const struct pstat_pmu_format *)a)->name,
		      ((const struct pstat_pmu_format *)b)->name);
}

static int cmp_alias(const void *a, const void *b)
{
	return strcmp(((const struct pstat_pmu_alias *)a)->name,
		      ((const struct pstat_pmu_alias *)b)->name);
}

/*
 * A malformed format file is kept with the reason (f->error), not left
 * out: the PMU stays usable through its other terms, and a term that
 * uses the file says what is wrong with it instead of "unknown term".
 */
static int load_formats(int pmufd, struct pstat_pmu *pmu)
{
	size_t n, alloc = 0;
	char **names;
	int fd, r;

	r = dir_list(pmufd, "format", &names, &n);
	if (r == -ENOENT)
		return 0;
	if (r)
		return r;
	fd = openat(pmufd, "format", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct pstat_pmu_format f = { 0 };
		struct pstat_error err;
		char *text;

		if (!is_file_at(fd, names[i]))
			continue;
		text = read_file_at(fd, names[i]);
		if (!text) {
			r = -errno;
			goto out_fd;
		}
		if (pmu_format_parse(text, &f, &err)) {
			memset(&f, 0, sizeof(f));
			f.error = xstrdup(err.msg);
		}
		f.name = xstrdup(names[i]);
		xgrow((void **)&pmu->formats, &alloc, pmu->nformats + 1,
		      sizeof(*pmu->formats));
		pmu->formats[pmu->nformats++] = f;
		free(text);
	}
	if (pmu->nformats > 1)
		qsort(pmu->formats, pmu->nformats, sizeof(*pmu->formats),
		      cmp_format);
out_fd:
	close(fd);
out:
	names_free(names, n);
	return r;
}

static bool is_alias_metadata(const char *name)
{
	return has_suffix(name, ".scale") || has_suffix(name, ".unit") ||
	       has_suffix(name, ".snapshot") || has_suffix(name, ".per-pkg");
}

/* Read events/<name><suffix> when the listing has it; NULL otherwise. */
static char *read_meta(int fd, char **names, size_t n, const char *name,
		       const char *suffix)
{
	char *path = xasprintf("%s%s", name, suffix);
	char *text = NULL;

	if (bsearch(&path, names, n, sizeof(*names), cmp_strs))
		text = read_file_at(fd, path);
	free(path);
	return text;
}

static int load_aliases(int pmufd, struct pstat_pmu *pmu)
{
	size_t n, alloc = 0;
	char **names;
	int fd, r;

	r = dir_list(pmufd, "events", &names, &n);
	if (r == -ENOENT)
		return 0;
	if (r)
		return r;
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_strs);
	fd = openat(pmufd, "events", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct pstat_pmu_alias a = { .scale = 1.0 };
		char *text;

		if (is_alias_metadata(names[i]) || !is_file_at(fd, names[i]))
			continue;
		a.terms = read_file_at(fd, names[i]);
		if (!a.terms) {
			r = -errno;
			goto out_fd;
		}
		a.name = xstrdup(names[i]);
		text = read_meta(fd, names, n, names[i], ".scale");
		if (text)
			a.scale = parse_scale(text);
		free(text);
		a.unit = read_meta(fd, names, n, names[i], ".unit");
		if (!a.unit)
			a.unit = xstrdup("");
		text = read_meta(fd, names, n, names[i], ".snapshot");
		a.snapshot = text && !strcmp(text, "1");
		free(text);
		xgrow((void **)&pmu->aliases, &alloc, pmu->naliases + 1,
		      sizeof(*pmu->aliases));
		pmu->aliases[pmu->naliases++] = a;
	}
	if (pmu->naliases > 1)
		qsort(pmu->aliases, pmu->naliases, sizeof(*pmu->aliases),
		      cmp_alias);
out_fd:
	close(fd);
out:
	names_free(names, n);
	return r;
}

static void pmu_free(struct pstat_pmu *pmu)
{
	if (!pmu)
		return;
	for (size_t i = 0; i < pmu->nformats; i++) {
		free(pmu->formats[i].name);
		free(pmu->formats[i].error);
	}
	free(pmu->formats);
	for (size_t i = 0; i < pmu->naliases; i++) {
		free(pmu->aliases[i].name);
		free(pmu->aliases[i].terms);
		free(pmu->aliases[i].unit);
	}
	free(pmu->aliases);
	free(pmu->cpumask);
	free(pmu->cpus);
	free(pmu->alias);
	free(pmu->name);
	free(pmu);
}

/* Why a type file's text is not a PMU type (new string). */
static char *bad_type(const char *text, int r)
{
	bool printable = *text && strlen(text) <= 40;

	for (const char *p = text; *p && printable; p++)
		printable = isprint((unsigned char)*p);
	if (!printable)
		return xstrdup("malformed type file: not a number");
	if (r == -ERANGE)
		return xasprintf("malformed type file: %s is out of range (at most %" PRIu32 ")",
				 text, UINT32_MAX);
	return xasprintf("malformed type file: '%s' is not a number", text);
}

/*
 * Read one PMU directory whole. Returns 0, or -errno with *why set to
 * what went wrong (a new string) unless the PMU does not exist (ENOENT).
 */
static int pmu_load(const char *devices, const char *name,
		    struct pstat_pmu **out, char **why)
{
	struct pstat_pmu *pmu;
	char *path, *text;
	uint64_t type;
	int fd, r;

	*why = NULL;
	path = xasprintf("%s/%s", devices, name);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	r = -errno;
	free(path);
	/* A stray file next to the PMUs is not a PMU. */
	if (fd < 0) {
		if (r == -ENOTDIR || r == -ENOENT)
			return -ENOENT;
		*why = xasprintf("cannot open its directory: %s",
				 strerror(-r));
		return r;
	}

	text = read_file_at(fd, "type");
	if (!text) {
		r = -errno;
		if (r != -ENOENT)
			*why = xasprintf("cannot read its type file: %s",
					 strerror(-r));
		goto out;
	}
	r = parse_u64(text, UINT32_MAX, &type);
	if (r) {
		*why = bad_type(text, r);
		free(text);
		r = -EINVAL;
		goto out;
	}
	free(text);
	pmu = xcalloc(1, sizeof(*pmu));
	pmu->name = xstrdup(name);
	pmu->type = (uint32_t)type;
	r = load_formats(fd, pmu);
	if (!r)
		r = load_aliases(fd, pmu);
	if (r) {
		*why = xasprintf("cannot read its format or events directory: %s",
				 strerror(-r));
		pmu_free(pmu);
		goto out;
	}
	/*
	 * Uncore-style PMUs (uncore, RAPL, cstate) have cpumask: the CPUs
	 * their events must be opened on. The cpus file of a core PMU
	 * (hybrid x86, arm64) means something else: the CPUs of its kind,
	 * which its events count on and nowhere else (events/hybrid.c).
	 */
	pmu->cpumask = read_file_at(fd, "cpumask");
	pmu->cpus = read_file_at(fd, "cpus");
	text = read_file_at(fd, "alias");
	if (text && *str_trim(text))
		pmu->alias = xstrdup(str_trim(text));
	free(text);
	*out = pmu;
out:
	close(fd);
	return r;
}

struct pstat_pmus *pmus_new(const char *sysfs_root)
{
	struct pstat_pmus *pmus = xcalloc(1, sizeof(*pmus));

	pmus->root = sysfs_root ? xstrdup(sysfs_root) : NULL;
	pmus->devices = xasprintf("%s/bus/event_source/devices",
				  sysfs_root ? sysfs_root : "/sys");
	return pmus;
}

const char *pmus_root(const struct pstat_pmus *pmus)
{
	return pmus->root;
}

void pmus_free(struct pstat_pmus *pmus)
{
	if (!pmus)
		return;
	free(pmus->root);
	for (size_t i = 0; i < pmus->nslots; i++) {
		free(pmus->slots[i].name);
		free(pmus->slots[i].why);
		pmu_free(pmus->slots[i].pmu);
	}
	free(pmus->slots);
	names_free(pmus->names, pmus->nnames);
	free(pmus->devices);
	free(pmus);
}

const struct pstat_pmu *pmus_find(struct pstat_pmus *pmus, const char *name)
{
	struct pmus_slot *slot;
	struct pstat_pmu *pmu = NULL;
	char *why;
	int r;

	/* Keep the name inside the devices directory. */
	if (!*name || name[0] == '.' || strchr(name, '/')) {
		errno = ENOENT;
		return NULL;
	}
	for (size_t i = 0; i < pmus->nslots; i++) {
		slot = &pmus->slots[i];
		if (strcmp(slot->name, name))
			continue;
		if (!slot->pmu)
			errno = slot->err;
		return slot->pmu;
	}
	/*
	 * Misses are remembered too: the encoder may ask about every bare
	 * event name, and most of those are not PMUs.
	 */
	r = pmu_load(pmus->devices, name, &pmu, &why);
	xgrow((void **)&pmus->slots, &pmus->aslots, pmus->nslots + 1,
	      sizeof(*pmus->slots));
	slot = &pmus->slots[pmus->nslots++];
	slot->name = xstrdup(name);
	slot->pmu = r ? NULL : pmu;
	slot->err = -r;
	slot->why = why;
	if (r)
		errno = -r;
	return slot->pmu;
}

const char *pmus_error(const struct pstat_pmus *pmus, const char *name)
{
	for (size_t i = 0; i < pmus->nslots; i++)
		if (!strcmp(pmus->slots[i].name, name))
			return pmus->slots[i].why;
	return NULL;
}

/* List the devices directory once, keeping what stat calls a directory. */
static void pmus_scan(struct pstat_pmus *pmus)
{
	char **names;
	size_t n, keep = 0;
	int fd;

	if (pmus->scanned)
		return;
	pmus->scanned = true;
	fd = open(pmus->devices, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (dir_list(fd, ".", &names, &n)) {
		close(fd);
		return;
	}
	/* d_type says DT_LNK for the symlinks real sysfs has; stat says. */
	for (size_t i = 0; i < n; i++) {
		if (is_dir_at(fd, names[i]))
			names[keep++] = names[i];
		else
			free(names[i]);
	}
	close(fd);
	if (keep > 1)
		qsort(names, keep, sizeof(*names), cmp_names);
	pmus->names = names;
	pmus->nnames = keep;
}

/*
 * perf's rule for the suffix: name_<hex digits>, so uncore_imc takes
 * uncore_imc_0 but not uncore_imc_free_running_0, whose events differ.
 */
static bool suffix_match(const char *pmu, const char *name)
{
	size_t len = strlen(name);
	const char *p = pmu + len;

	if (strncmp(pmu, name, len) || *p != '_')
		return false;
	return str_is_hex(p + 1);
}

/* by_alias: match name against the PMUs' alias files instead. */
static size_t pmus_collect(struct pstat_pmus *pmus, const char *name,
			   bool by_alias, const struct pstat_pmu ***out)
{
	const struct pstat_pmu **v = NULL;
	size_t n = 0, alloc = 0;

	pmus_scan(pmus);
	for (size_t i = 0; i < pmus->nnames; i++) {
		const struct pstat_pmu *pmu;

		if (name && !by_alias && !suffix_match(pmus->names[i], name))
			continue;
		pmu = pmus_find(pmus, pmus->names[i]);
		if (!pmu || (by_alias && (!pmu->alias ||
					  (strcmp(pmu->alias, name) &&
					   !suffix_match(pmu->alias, name)))))
			continue;
		xgrow((void **)&v, &alloc, n + 1, sizeof(*v));
		v[n++] = pmu;
	}
	*out = v;
	return n;
}

size_t pmus_match(struct pstat_pmus *pmus, const char *name,
		  const struct pstat_pmu ***out)
{
	const struct pstat_pmu *pmu = pmus_find(pmus, name);
	size_t n;

	if (pmu) {
		*out = xmalloc(sizeof(**out));
		(*out)[0] = pmu;
		return 1;
	}
	n = pmus_collect(pmus, name, false, out);
	if (!n && !strchr(name, '/')) {
		free(*out);
		n = pmus_collect(pmus, name, true, out);
	}
	return n;
}

size_t pmus_all(struct pstat_pmus *pmus, const struct pstat_pmu ***out)
{
	return pmus_collect(pmus, NULL, false, out);
}

void pmus_foreach_name(struct pstat_pmus *pmus,
		       void (*fn)(const char *name, void *arg), void *arg)
{
	char *last = NULL;

	pmus_scan(pmus);
	for (size_t i = 0; i < pmus->nnames; i++) {
		const char *name = pmus->names[i], *us = strrchr(name, '_');
		char *prefix;

		fn(name, arg);
		if (!us || us == name || !str_is_hex(us + 1))
			continue;
		prefix = xstrndup(name, (size_t)(us - name));
		if (last && !strcmp(last, prefix)) {
			free(prefix);
			continue;
		}
		fn(prefix, arg);
		free(last);
		last = prefix;
	}
	free(last);
}

const struct pstat_pmu_format *pmu_format_find(const struct pstat_pmu *pmu,
					       const char *name)
{
	struct pstat_pmu_format key = { .name = (char *)name };

	if (!pmu->nformats)
		return NULL;
	return bsearch(&key, pmu->formats, pmu->nformats, sizeof(*pmu->formats),
		       cmp_format);
}

const struct pstat_pmu_alias *pmu_alias_find(const struct pstat_pmu *pmu,
					     const char *name)
{
	for (size_t i = 0; i < pmu->naliases; i++)
		if (!strcasecmp(pmu->aliases[i].name, name))
			return &pmu->aliases[i];
	return NULL;
}

/*
 * A core PMU is the one that counts cycles and instructions on the CPUs:
 * "cpu" on x86 ("cpu_core"/"cpu_atom" on hybrid parts), armv8_pmuv3_N on
 * arm64, and in general any PMU with a "cpus" file, which the kernel only
 * gives to per-CPU core PMUs (uncore PMUs have a "cpumask" instead).
 */
bool pmu_is_core(const char *sysfs_root, const char *name)
{
	char *path;
	bool core;

	if (!strcmp(name, "cpu") || !strcmp(name, "cpu_core") ||
	    !strcmp(name, "cpu_atom") || str_starts_with(name, "armv8_pmuv3"))
		return true;
	path = xasprintf("%s/bus/event_source/devices/%s/cpus",
			 sysfs_root ? sysfs_root : "/sys", name);
	core = access(path, F_OK) == 0;
	free(path);
	return core;
}

bool pmus_have_core(struct pstat_pmus *pmus, const char *sysfs_root)
{
	const struct pstat_pmu **all = NULL;
	size_t n = pmus_all(pmus, &all);
	bool core = false;

	for (size_t i = 0; i < n && !core; i++)
		core = pmu_is_core(sysfs_root, all[i]->name);
	free(all);
	return core;
}
