/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpumap.h"
#include "base/topology.h"
#include "base/util.h"

/*
 * Read <dir>/<name> as a decimal int (sysfs prints "%d\n"): 0 and the
 * value, or -1 when the file is missing or holds no number.
 */
static int read_int(const char *dir, const char *name, int *out)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *s = read_file_str(path), *end;
	long v;

	free(path);
	if (!s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < -1 || v > 1 << 30) {
		free(s);
		return -1;
	}
	free(s);
	*out = (int)v;
	return 0;
}

/* The first CPU of the list in <dir>/<name>, or -1. */
static int read_first_cpu(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *s = read_file_str(path);
	struct pstat_error err;
	int *cpus = NULL, first = -1;
	size_t n = 0;

	free(path);
	if (s && !cpumap_parse(s, &cpus, &n, &err) && n)
		first = cpus[0];
	free(s);
	free(cpus);
	return first;
}

/*
 * cpuN/cache/index*: for each level, the first CPU of the cache that
 * serves it. A level with several caches (L1 data and instruction) has
 * them shared by the same CPUs; the first one read is kept.
 */
static void read_caches(const char *cpudir, struct pstat_topo_cpu *c)
{
	char *dir = xasprintf("%s/cache", cpudir);
	DIR *d = opendir(dir);
	struct dirent *de;

	for (int l = 0; l <= TOPO_MAX_CACHE_LEVEL; l++)
		c->cache[l] = -1;
	c->max_cache_level = 0;
	while (d && (de = readdir(d))) {
		char *idx;
		int level, first;

		if (strncmp(de->d_name, "index", 5))
			continue;
		idx = xasprintf("%s/%s", dir, de->d_name);
		first = read_first_cpu(idx, "shared_cpu_list");
		if (!read_int(idx, "level", &level) && level >= 1 &&
		    level <= TOPO_MAX_CACHE_LEVEL && c->cache[level] < 0) {
			/* an empty map means the CPU alone (perf's rule) */
			c->cache[level] = first >= 0 ? first : c->cpu;
			if (level > c->max_cache_level)
				c->max_cache_level = level;
		}
		free(idx);
	}
	if (d)
		closedir(d);
	free(dir);
}

static void read_cpu(const char *root, struct pstat_topo_cpu *c)
{
	char *cpudir = xasprintf("%s/devices/system/cpu/cpu%d", root, c->cpu);
	char *topo = xasprintf("%s/topology", cpudir);

	/* no topology directory at all: a core of its own */
	if (read_int(topo, "physical_package_id", &c->socket))
		c->socket = 0;
	if (read_int(topo, "die_id", &c->die))
		c->die = 0;
	if (read_int(topo, "cluster_id", &c->cluster))
		c->cluster = 0;
	if (read_int(topo, "core_id", &c->core))
		c->core = c->cpu;
	c->node = 0;
	read_caches(cpudir, c);
	free(topo);
	free(cpudir);
}

/* devices/system/node/node*: the node of each CPU listed there. */
static void read_nodes(const char *root, struct pstat_topo *t)
{
	char *dir = xasprintf("%s/devices/system/node", root);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *nd, *path, *s;
		int *cpus = NULL, node;
		size_t n = 0;
		struct pstat_error err;
		uint64_t v;

		if (strncmp(de->d_name, "node", 4) ||
		    parse_u64(de->d_name + 4, 1 << 20, &v))
			continue;
		node = (int)v;
		nd = xasprintf("%s/%s", dir, de->d_name);
		path = xasprintf("%s/cpulist", nd);
		s = read_file_str(path);
		if (s && *s && !cpumap_parse(s, &cpus, &n, &err)) {
			for (size_t i = 0; i < t->ncpus; i++)
				if (cpumap_has(cpus, n, t->cpus[i].cpu))
					t->cpus[i].node = node;
		}
		free(cpus);
		free(s);
		free(path);
		free(nd);
	}
	if (d)
		closedir(d);
	free(dir);
}

/* How many distinct values of the first `depth' ids the CPUs have. */
static size_t count_distinct(const struct pstat_topo *t, int depth)
{
	size_t n = 0;

	for (size_t i = 0; i < t->ncpus; i++) {
		const struct pstat_topo_cpu *a = &t->cpus[i];
		size_t j;

		for (j = 0; j < i; j++) {
			const struct pstat_topo_cpu *b = &t->cpus[j];

			if (a->socket == b->socket &&
			    (depth < 2 || a->die == b->die) &&
			    (depth < 3 || a->cluster == b->cluster) &&
			    (depth < 4 || a->core == b->core))
				break;
		}
		n += j == i;
	}
	return n;
}

static size_t count_nodes(const struct pstat_topo *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->ncpus; i++) {
		size_t j;

		for (j = 0; j < i; j++)
			if (t->cpus[j].node == t->cpus[i].node)
				break;
		n += j == i;
	}
	return n;
}

static void count_threads(struct pstat_topo *t)
{
	for (size_t i = 0; i < t->ncpus; i++) {
		struct pstat_topo_cpu *a = &t->cpus[i];

		a->threads = 0;
		for (size_t j = 0; j < t->ncpus; j++) {
			const struct pstat_topo_cpu *b = &t->cpus[j];

			a->threads += a->socket == b->socket &&
				      a->die == b->die &&
				      a->cluster == b->cluster &&
				      a->core == b->core;
		}
	}
}

int topo_load(const char *sysfs_root, struct pstat_topo **out,
	      struct pstat_error *err)
{
	const char *root = sysfs_root ? sysfs_root : "/sys";
	struct pstat_topo *t;
	int *online = NULL, smt;
	size_t n = 0;
	char *smtdir;
	int r;

	*out = NULL;
	r = cpumap_online(sysfs_root, &online, &n);
	if (r)
		return error_set(err, -1,
				 "cannot read the online CPUs under '%s': %s",
				 root, strerror(-r));
	t = xcalloc(1, sizeof(*t));
	t->cpus = xcalloc(n, sizeof(*t->cpus));
	t->ncpus = n;
	for (size_t i = 0; i < n; i++) {
		t->cpus[i].cpu = online[i];
		read_cpu(root, &t->cpus[i]);
		if (t->cpus[i].max_cache_level > t->max_cache_level)
			t->max_cache_level = t->cpus[i].max_cache_level;
	}
	free(online);
	read_nodes(root, t);
	count_threads(t);
	t->npackages = count_distinct(t, 1);
	t->ndies = count_distinct(t, 2);
	t->nclusters = count_distinct(t, 3);
	t->ncores = count_distinct(t, 4);
	t->nnodes = count_nodes(t);
	/* the kernel's word first; without CONFIG_HOTPLUG_SMT, the siblings */
	smtdir = xasprintf("%s/devices/system/cpu/smt", root);
	if (!read_int(smtdir, "active", &smt)) {
		t->smt_on = smt > 0;
	} else {
		for (size_t i = 0; i < n; i++)
			t->smt_on |= t->cpus[i].threads > 1;
	}
	free(smtdir);
	*out = t;
	return 0;
}

void topo_free(struct pstat_topo *t)
{
	if (!t)
		return;
	free(t->cpus);
	free(t);
}

const struct pstat_topo_cpu *topo_cpu(const struct pstat_topo *t, int cpu)
{
	size_t lo = 0, hi = t ? t->ncpus : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->cpus[mid].cpu == cpu)
			return &t->cpus[mid];
		if (t->cpus[mid].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void topo_aggr_id(const struct pstat_topo *t, int cpu,
		  enum pstat_aggr_mode mode, int cache_level,
		  struct pstat_aggr_id *id)
{
	const struct pstat_topo_cpu *c = topo_cpu(t, cpu);
	struct pstat_topo_cpu alone = { .cpu = cpu, .core = cpu };
	int level;

	*id = (struct pstat_aggr_id){ mode, -1, -1, -1, -1, -1, -1, -1, -1 };
	if (!c) {
		for (int l = 0; l <= TOPO_MAX_CACHE_LEVEL; l++)
			alone.cache[l] = -1;
		c = &alone;
	}
	switch (mode) {
	case AGGR_NONE:
		break;
	case AGGR_CPU:
		id->cpu = cpu;
		break;
	case AGGR_NODE:
		id->node = c->node;
		break;
	case AGGR_CORE:
		id->core = c->core;
		id->cluster = c->cluster;
		__attribute__((fallthrough));
	case AGGR_DIE:
		id->die = c->die;
		__attribute__((fallthrough));
	case AGGR_SOCKET:
		id->socket = c->socket;
		break;
	case AGGR_CLUSTER:
		id->socket = c->socket;
		id->die = c->die;
		id->cluster = c->cluster;
		break;
	case AGGR_CACHE:
		id->socket = c->socket;
		id->die = c->die;
		level = cache_level ? cache_level : c->max_cache_level;
		id->cache_level = level;
		if (level >= 1 && level <= TOPO_MAX_CACHE_LEVEL)
			id->cache = c->cache[level];
		break;
	}
}

static int cmp(int a, int b)
{
	return (a > b) - (a < b);
}

int topo_aggr_cmp(const struct pstat_aggr_id *a,
		  const struct pstat_aggr_id *b)
{
	int r;

	if ((r = cmp(a->socket, b->socket)) || (r = cmp(a->die, b->die)) ||
	    (r = cmp(a->cluster, b->cluster)) ||
	    (r = cmp(a->cache_level, b->cache_level)) ||
	    (r = cmp(a->cache, b->cache)) || (r = cmp(a->core, b->core)) ||
	    (r = cmp(a->node, b->node)))
		return r;
	return cmp(a->cpu, b->cpu);
}

char *topo_aggr_name(enum pstat_aggr_mode mode,
		     const struct pstat_aggr_id *id, char *buf, size_t len)
{
	switch (mode) {
	case AGGR_SOCKET:
		snprintf(buf, len, "S%d", id->socket);
		break;
	case AGGR_DIE:
		snprintf(buf, len, "S%d-D%d", id->socket, id->die);
		break;
	case AGGR_CLUSTER:
		snprintf(buf, len, "S%d-D%d-CLS%d", id->socket, id->die,
			 id->cluster);
		break;
	case AGGR_CACHE:
		snprintf(buf, len, "S%d-D%d-L%d-ID%d", id->socket, id->die,
			 id->cache_level, id->cache);
		break;
	case AGGR_CORE:
		snprintf(buf, len, "S%d-D%d-C%d", id->socket, id->die,
			 id->core);
		break;
	case AGGR_NODE:
		snprintf(buf, len, "N%d", id->node);
		break;
	case AGGR_CPU:
		snprintf(buf, len, "CPU%d", id->cpu);
		break;
	case AGGR_NONE:
	default:
		if (len)
			buf[0] = '\0';
		break;
	}
	return buf;
}

const char *topo_aggr_key(enum pstat_aggr_mode mode)
{
	static const char *const keys[] = {
		[AGGR_NONE] = "", [AGGR_SOCKET] = "socket", [AGGR_DIE] = "die",
		[AGGR_CLUSTER] = "cluster", [AGGR_CACHE] = "cache",
		[AGGR_CORE] = "core", [AGGR_NODE] = "node", [AGGR_CPU] = "cpu",
	};

	return (unsigned)mode < ARRAY_SIZE(keys) ? keys[mode] : "";
}

char *topo_aggr_label(const struct pstat_aggr_id *id, char *buf, size_t len)
{
	switch (id->mode) {
	case AGGR_SOCKET:
		snprintf(buf, len, "S%-5d", id->socket);
		break;
	case AGGR_DIE:
		snprintf(buf, len, "S%d-D%-8d", id->socket, id->die);
		break;
	case AGGR_CLUSTER:
		snprintf(buf, len, "S%d-D%d-CLS%-8d", id->socket, id->die,
			 id->cluster);
		break;
	case AGGR_CACHE:
		snprintf(buf, len, "S%d-D%d-L%d-ID%-8d", id->socket, id->die,
			 id->cache_level, id->cache);
		break;
	case AGGR_CORE:
		snprintf(buf, len, "S%d-D%d-C%-8d", id->socket, id->die,
			 id->core);
		break;
	case AGGR_NODE:
		snprintf(buf, len, "N%-5d", id->node);
		break;
	default:
		topo_aggr_name(id->mode, id, buf, len);
		break;
	}
	return buf;
}

int topo_aggr_label_width(enum pstat_aggr_mode mode)
{
	static const int width[] = {
		[AGGR_SOCKET] = 6, [AGGR_DIE] = 12, [AGGR_CLUSTER] = 17,
		[AGGR_CACHE] = 19, [AGGR_CORE] = 15, [AGGR_NODE] = 6,
	};

	return (unsigned)mode < ARRAY_SIZE(width) ? width[mode] : 0;
}
