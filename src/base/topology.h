/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_TOPOLOGY_H
#define PSTAT_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

#include "base/msg.h"

/*
 * The machine's CPU topology, read from sysfs under a root passed in
 * (NULL: /sys): devices/system/cpu/cpuN/topology/ for the package, die,
 * cluster and core of each online CPU, cpuN/cache/index* for its caches
 * and devices/system/node/nodeN/cpulist for its NUMA node.
 *
 * A level sysfs does not describe collapses the way the kernel and perf
 * define it, never as an error: no die_id (arm64, old kernels) is die 0
 * of the package, no cluster_id is cluster 0, no node directory (no
 * NUMA) is node 0, and a CPU with no topology directory at all is a
 * core of its own in package 0.
 */

/* The highest cache level pstat keeps track of (L1..L4). */
#define TOPO_MAX_CACHE_LEVEL 4

struct pstat_topo_cpu {
	int cpu;
	int socket;     /* physical_package_id as printed (-1 possible) */
	int die;        /* die_id: on x86 since Linux 6.9 not package-relative */
	int cluster;    /* cluster_id */
	int core;       /* core_id: relative to package (x86) or cluster (arm64) */
	int node;       /* NUMA node */
	int threads;    /* online CPUs in its core (SMT siblings and itself) */
	/*
	 * Per cache level: the first CPU of the cache's shared_cpu_list,
	 * which is how perf names a cache instance ("S0-D0-L3-ID0"), or -1
	 * when this CPU has no cache of that level. Index 0 is unused.
	 */
	int cache[TOPO_MAX_CACHE_LEVEL + 1];
	int max_cache_level;  /* its highest cache level, 0 for none */
};

struct pstat_topo {
	struct pstat_topo_cpu *cpus;  /* the online CPUs, ascending */
	size_t ncpus;
	int max_cache_level;          /* highest over all CPUs */
	size_t npackages;             /* distinct sockets */
	size_t ndies;                 /* distinct (socket, die) */
	size_t nclusters;             /* distinct (socket, die, cluster) */
	size_t ncores;                /* distinct (socket, die, cluster, core) */
	size_t nnodes;                /* distinct nodes */
	bool smt_on;                  /* smt/active, else a core with 2+ CPUs */
};

/*
 * Read the topology of the online CPUs under sysfs_root into a new
 * *out (topo_free it). Returns 0, or -1 with err filled when the online
 * CPU list itself cannot be read.
 */
int topo_load(const char *sysfs_root, struct pstat_topo **out,
	      struct pstat_error *err);

/* Free t; accepts NULL. */
void topo_free(struct pstat_topo *t);

/* The entry of an online cpu (borrowed), or NULL. */
const struct pstat_topo_cpu *topo_cpu(const struct pstat_topo *t, int cpu);

/*
 * What perf's metric expressions call #num_cpus_online, #num_packages,
 * #num_dies, #num_cores and #smt_on.
 */
static inline size_t topo_num_cpus(const struct pstat_topo *t)
{
	return t->ncpus;
}
static inline size_t topo_num_packages(const struct pstat_topo *t)
{
	return t->npackages;
}
static inline size_t topo_num_dies(const struct pstat_topo *t)
{
	return t->ndies;
}
static inline size_t topo_num_cores(const struct pstat_topo *t)
{
	return t->ncores;
}
static inline bool topo_smt_on(const struct pstat_topo *t)
{
	return t->smt_on;
}

/*
 * Aggregation: which counts are added together into one row. AGGR_NONE
 * is the whole measurement (one row per event); AGGR_CPU is -A.
 */
enum pstat_aggr_mode {
	AGGR_NONE,
	AGGR_SOCKET,
	AGGR_DIE,
	AGGR_CLUSTER,
	AGGR_CACHE,
	AGGR_CORE,
	AGGR_NODE,
	AGGR_CPU,
};

/*
 * One aggregation unit. The fields the mode does not use are -1;
 * cache is -1 also for a CPU without a cache of the level asked.
 */
struct pstat_aggr_id {
	enum pstat_aggr_mode mode;
	int socket, die, cluster, cache_level, cache, core, node, cpu;
};

/*
 * The unit of cpu under mode. cache_level is the level of --per-cache
 * (1..TOPO_MAX_CACHE_LEVEL), or 0 for each CPU's highest level, as
 * perf. A CPU the topology does not know is a unit of its own.
 */
void topo_aggr_id(const struct pstat_topo *t, int cpu,
		  enum pstat_aggr_mode mode, int cache_level,
		  struct pstat_aggr_id *id);

/* Order of units: socket, die, cluster, cache, core, node, cpu. */
int topo_aggr_cmp(const struct pstat_aggr_id *a,
		  const struct pstat_aggr_id *b);

/*
 * perf's name of a unit: "S0", "S0-D0", "S0-D0-CLS0", "S0-D0-L3-ID0",
 * "S0-D0-C3", "N0", "CPU3"; "" for AGGR_NONE. Returns buf.
 */
char *topo_aggr_name(enum pstat_aggr_mode mode,
		     const struct pstat_aggr_id *id, char *buf, size_t len);

/*
 * The same name as perf stat 6.1's table pads it, the last number
 * left-aligned in 8 columns (5 for S and N): "S0-D0-C3       ".
 * Returns buf.
 */
char *topo_aggr_label(const struct pstat_aggr_id *id, char *buf, size_t len);

/* The width of topo_aggr_label for one-digit ids (interval headers). */
int topo_aggr_label_width(enum pstat_aggr_mode mode);

/*
 * The name of the mode's unit in perf's JSON and interval headers:
 * "socket", "die", "cluster", "cache", "core", "node", "cpu", or "".
 */
const char *topo_aggr_key(enum pstat_aggr_mode mode);

#endif
