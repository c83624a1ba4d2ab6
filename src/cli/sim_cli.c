/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/sim_cli.h"
#include "events/sim_events.h"

const char SIM_DEFAULT_EVENTS[] =
	"task-clock,context-switches,cpu-migrations,page-faults,"
	"sim/instructions/,sim/branches/,sim/branch-misses/";
const char SIM_DETAILED_EVENTS[] =
	"sim/L1-dcache-loads/,sim/L1-dcache-load-misses/,sim/LLC-loads/,"
	"sim/LLC-load-misses/";

/* 32 KiB, 8-way first levels and an 8 MiB, 16-way last level, 64 B lines */
const char *const SIM_DEFAULT_CACHE[3] = {
	"32768,8,64", "32768,8,64", "8388608,16,64",
};

static int power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

int sim_cache_parse(const char *arg, int *level, char **geom,
		    struct pstat_error *err)
{
	const char *eq = strchr(arg, '=');
	uint64_t v[3];
	char *copy, *save = NULL, *tok;
	int n = 0;

	*level = -1;
	for (int i = 0; eq && i < 3; i++)
		if ((size_t)(eq - arg) == strlen(sim_cache_levels[i]) &&
		    !strncasecmp(arg, sim_cache_levels[i], (size_t)(eq - arg)))
			*level = i;
	if (*level < 0)
		return error_set(err, -1,
				 "bad --sim-cache '%s': write LEVEL=SIZE,ASSOC,LINE, LEVEL I1, D1 or LL",
				 arg);
	copy = xstrdup(eq + 1);
	for (tok = strtok_r(copy, ",", &save); tok && n < 4;
	     tok = strtok_r(NULL, ",", &save), n++)
		if (n == 3 || parse_u64(tok, 1ull << 40, &v[n]) || !v[n])
			n = 4;
	free(copy);
	if (n != 3)
		return error_set(err, -1,
				 "bad --sim-cache '%s': SIZE,ASSOC,LINE are three positive numbers (bytes, ways, bytes)",
				 arg);
	/* Valgrind's own rules, said here rather than in its log */
	if (!power_of_two(v[2]) || v[2] < 16)
		return error_set(err, -1,
				 "bad --sim-cache '%s': the line size must be a power of two of 16 bytes or more",
				 arg);
	if (v[0] % (v[1] * v[2]) || (*level < 2 &&
				     !power_of_two(v[0] / (v[1] * v[2]))))
		return error_set(err, -1,
				 "bad --sim-cache '%s': SIZE must be ASSOC x LINE times a power of two",
				 arg);
	*geom = xasprintf("%llu,%llu,%llu", (unsigned long long)v[0],
			  (unsigned long long)v[1], (unsigned long long)v[2]);
	return 0;
}

char *sim_find_valgrind(void)
{
	const char *path = getenv("PATH"), *p;

	if (!path)
		path = "/usr/bin:/bin";
	for (p = path;; p++) {
		const char *end = strchrnul(p, ':');

		if (end > p) {
			char *full = xasprintf("%.*s/valgrind", (int)(end - p),
					       p);

			if (!access(full, X_OK))
				return full;
			free(full);
		}
		if (!*end)
			return NULL;
		p = end;
	}
}

/* What the events need simulated (SIM_NEEDS_*); *first: one that does. */
static unsigned sim_needs(const struct pstat_evlist *evl, unsigned bit,
			  const char **first)
{
	unsigned needs = 0;

	*first = NULL;
	for (size_t i = 0; i < evl->n; i++) {
		const struct pstat_sim_event *se;

		if (evl->ev[i].attr.type != PSTAT_SIM_TYPE)
			continue;
		se = sim_event_get(evl->ev[i].attr.config);
		needs |= se->needs;
		if (!*first && (se->needs & bit))
			*first = evl->ev[i].name;
	}
	return needs;
}

/* --sim-simulate LIST into sc->cfg. Returns 0 or -1 (reported). */
static int simulate_set(struct sim_cli *sc, const struct pstat_opts *o,
			const struct pstat_evlist *evl)
{
	const char *first;
	unsigned needs = sim_needs(evl, 0, &first), want = needs;

	if (o->sim_simulate) {
		char *copy = xstrdup(o->sim_simulate), *save = NULL, *tok;
		int bad = 0;

		want = 0;
		for (tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			if (!strcmp(tok, "cache"))
				want |= SIM_NEEDS_CACHE;
			else if (!strcmp(tok, "branch"))
				want |= SIM_NEEDS_BRANCH;
			else if (strcmp(tok, "none"))
				bad = 1;
		}
		free(copy);
		if (bad) {
			msg_usage("bad --sim-simulate '%s': a list of cache and branch, or none",
				  o->sim_simulate);
			return -1;
		}
	}
	for (unsigned bit = SIM_NEEDS_CACHE; bit <= SIM_NEEDS_BRANCH;
	     bit <<= 1) {
		if (!(needs & bit) || (want & bit))
			continue;
		sim_needs(evl, bit, &first);
		msg_error("'%s' needs %s simulation, which --sim-simulate %s leaves out",
			  first, bit == SIM_NEEDS_CACHE ? "cache" : "branch",
			  o->sim_simulate);
		return -1;
	}
	if (o->nsim_caches && !(want & SIM_NEEDS_CACHE)) {
		msg_error("--sim-cache needs cache simulation: count a cache event (sim/L1-dcache-load-misses/) or add --sim-simulate cache");
		return -1;
	}
	sc->cfg.cache_sim = !!(want & SIM_NEEDS_CACHE);
	sc->cfg.branch_sim = !!(want & SIM_NEEDS_BRANCH);
	return 0;
}

/*
 * What cannot be combined with sim events: the reason, or NULL, and
 * into *what the event or option that cannot.
 */
static const char *refusal(const struct pstat_opts *o,
			   const struct pstat_evlist *evl,
			   const char **what)
{
	*what = NULL;
	for (size_t i = 0; i < evl->n; i++) {
		const struct pstat_event *ev = &evl->ev[i];
		const struct pstat_event *lead = &evl->ev[ev->leader];

		if (ev->attr.type != PSTAT_SIM_TYPE &&
		    ev->attr.type != PERF_TYPE_SOFTWARE) {
			*what = ev->name;
			return "valgrind runs the command on an emulated CPU: a hardware counter or tracepoint would count valgrind at work, not the program (count it in a run of its own)";
		}
		if ((ev->attr.type == PSTAT_SIM_TYPE) !=
		    (lead->attr.type == PSTAT_SIM_TYPE)) {
			*what = ev->name;
			return "a group cannot hold sim events and others: valgrind counts the one, the kernel the other";
		}
	}
	if (o->per_thread) {
		*what = "--per-thread";
		return "valgrind counts a process as a whole";
	}
	if (o->pids || o->tids) {
		*what = o->pids ? "-p" : "-t";
		return "valgrind counts a command it starts, not a process that runs";
	}
	if (o->all_cpus || o->cpu_list) {
		*what = o->all_cpus ? "-a" : "-C";
		return "valgrind counts the command it runs, not CPUs";
	}
	if (o->interval_ms) {
		*what = "-I";
		return "valgrind writes its counts when the program ends, so there are no intervals";
	}
	if (o->delay_ms || o->start_disabled || o->have_control) {
		*what = o->have_control ? "--control" : "-D";
		return "valgrind cannot be switched on and off from outside: count a function with --sim-toggle-collect";
	}
	return NULL;
}

int sim_cli_build(struct sim_cli *sc, const struct pstat_opts *o,
		  struct pstat_evlist *evl)
{
	static char none[] = "";
	static char *bench_cmd[] = { none, NULL };
	struct pstat_opts bench = { .argv = bench_cmd };
	const char *why, *what, *opt = NULL;
	struct pstat_error err;

	memset(sc, 0, sizeof(*sc));
	if (!o)
		o = &bench;
	for (size_t i = 0; i < evl->n && !sc->active; i++)
		sc->active = evl->ev[i].attr.type == PSTAT_SIM_TYPE;
	if (!sc->active) {
		opt = o->sim ? "--sim" : o->nsim_caches ? "--sim-cache" :
		      o->sim_simulate ? "--sim-simulate" :
		      o->nsim_toggles ? "--sim-toggle-collect" : NULL;
		if (opt)
			msg_error("%s needs sim events: %s", opt,
				  o->sim ? "--sim replaces the default events, so with -e name sim events (sim/instructions/)"
					 : "count some (-e sim/instructions/, --sim)");
		return opt ? -1 : 0;
	}
	if (o->sim && o->nevents) {
		msg_error("--sim replaces the default events: with -e, name sim events (sim/instructions/) without it");
		return -1;
	}
	sim_evlist_ungroup(evl);
	if ((why = refusal(o, evl, &what))) {
		msg_error("cannot count %s with sim events: %s", what, why);
		return -1;
	}
	if (!o->argv) {
		msg_error("sim events need a command: valgrind runs it (pstat -e sim/instructions/ -- ./prog)");
		return -1;
	}
	if (simulate_set(sc, o, evl))
		return -1;
	for (int i = 0; i < 3; i++)
		sc->cache[i] = xstrdup(SIM_DEFAULT_CACHE[i]);
	for (size_t i = 0; i < o->nsim_caches; i++) {
		char *geom;
		int level;

		if (sim_cache_parse(o->sim_caches[i], &level, &geom, &err)) {
			msg_usage("%s", err.msg);
			return -1;
		}
		free(sc->cache[level]);
		sc->cache[level] = geom;
	}
	sc->valgrind = sim_find_valgrind();
	if (!sc->valgrind) {
		msg_error("cannot count sim events: valgrind is not installed (no valgrind in PATH)");
		msg_hint("install it: apt-get install valgrind (Debian, Ubuntu), dnf install valgrind (Fedora)");
		return -1;
	}
	sc->cfg.valgrind = sc->valgrind;
	for (int i = 0; i < 3; i++)
		sc->cfg.cache[i] = sc->cache[i];
	sc->cfg.toggles = o->sim_toggles;
	sc->cfg.ntoggles = o->nsim_toggles;
	sc->cfg.no_children = o->no_inherit;
	return 0;
}

void sim_cli_free(struct sim_cli *sc)
{
	if (!sc)
		return;
	free(sc->valgrind);
	for (int i = 0; i < 3; i++)
		free(sc->cache[i]);
	memset(sc, 0, sizeof(*sc));
}
