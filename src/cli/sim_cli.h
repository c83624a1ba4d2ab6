/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_SIM_CLI_H
#define PSTAT_SIM_CLI_H

#include "cli/options.h"
#include "events/encode.h"
#include "run/sim_valgrind.h"

/*
 * The front end of the simulated PMU: which events --sim counts, the
 * --sim-* options turned into the run stage's pstat_sim_cfg, and what
 * cannot be combined with sim events, refused with the reason.
 */

/* perf's default events with the hardware ones on sim (--sim). */
extern const char SIM_DEFAULT_EVENTS[];
/* What -d adds to them. */
extern const char SIM_DETAILED_EVENTS[];

/*
 * The cache geometry sim uses unless --sim-cache says otherwise: fixed,
 * so that a run's cache misses do not depend on the machine's caches.
 */
extern const char *const SIM_DEFAULT_CACHE[3];

struct sim_cli {
	int active;                  /* evl holds sim events */
	struct pstat_sim_cfg cfg;    /* what the session gets, when active */
	char *valgrind;              /* the valgrind found (new) */
	char *cache[3];              /* new strings */
};

/*
 * Settle sim for the events of evl and options o: sc->active when evl
 * holds sim events, sc->cfg then filled. Returns 0, or -1 after saying
 * what cannot be done (sim options without sim events, sim events with
 * hardware events, -a, -p, -I and the like, valgrind not installed).
 * o NULL: `pstat bench`, which has none of those options. The weak
 * groups of metrics that hold sim events are ungrouped
 * (sim_evlist_ungroup).
 */
int sim_cli_build(struct sim_cli *sc, const struct pstat_opts *o,
		  struct pstat_evlist *evl);

/*
 * Parse a --sim-cache value, "LEVEL=SIZE,ASSOC,LINE" (LEVEL I1, D1 or
 * LL): the level's index into *level and Valgrind's "SIZE,ASSOC,LINE"
 * into *geom (new). Returns 0, or -1 with err set. Pure.
 */
int sim_cache_parse(const char *arg, int *level, char **geom,
		    struct pstat_error *err);

/*
 * The path of valgrind in PATH (new), or NULL when there is none.
 */
char *sim_find_valgrind(void);

/* Free what sc holds; accepts NULL. */
void sim_cli_free(struct sim_cli *sc);

#endif
