/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_EVSPEC_H
#define PSTAT_EVSPEC_H

#include <stddef.h>

#include "base/msg.h"

/*
 * The event-list grammar, as syntax only (no filesystem, no libpfm):
 *
 *   list   := item (',' item)*
 *   item   := event | [gname] '{' event (',' event)* '}' [':' mods]
 *   event  := pmu '/' [term (',' term)*] '/' [[':'] mods]
 *           | name [':' mods]
 *           | bp ['/' [term (',' term)*] '/'] [[':'] mods]
 *   bp     := 'mem:' addr ['/' len] [':' access]
 *   term   := key ['=' value]
 *   value  := text | "'" text "'"
 *
 * What stands before the slashes need not be a PMU: perf also takes
 * terms after a generic, cache, raw or TYPE:CONFIG name
 * ("cpu-cycles/name=x/", "4:0x3c/name=y/"); the encoder tells them
 * apart. A value in single quotes keeps its commas and slashes
 * (name='a,b'), and is stored without the quotes.
 *
 * A name may itself contain ':' (tracepoints "sys:event", libpfm4
 * "pmu::EVENT:UMASK", breakpoints "mem:0x10:rw"); only a last ':'-suffix
 * made of modifier letters (ukhGHIDpPSWeb) is split off as modifiers. The
 * encoder glues it back if the name does not resolve without it, and
 * for libpfm4, whose modifiers are its own.
 * Blanks around items, group members and terms are skipped, as perf
 * does ("cs, faults"); a PMU event may have no terms ("msr//": config 0).
 */

/* One pmu term: key[=value]. val is NULL when no '=' was given. */
struct pstat_term {
	char *key;
	char *val;
	long off;
};

/* One event as written. */
struct pstat_evspec {
	char *text;                /* the event as written (without group mods) */
	char *name;                /* bare-name form; NULL for the pmu form */
	char *pmu;                 /* pmu form: the PMU name; else NULL */
	struct pstat_term *terms;  /* pmu form: its terms */
	size_t nterms;
	char *mods;                /* modifier letters, or NULL */
	long off;                  /* byte offset of the event in the list */
	/*
	 * A breakpoint with terms ("mem:0x10:w/name=w/"): name is the
	 * breakpoint and terms are its terms, pmu is NULL.
	 */
};

/* A group: braced ones come from {...}; a lone event is a group of one. */
struct pstat_evgroup {
	struct pstat_evspec *evs;
	size_t nevs;
	char *mods;                /* group modifiers, or NULL */
	char *name;                /* a named group's name ("g1{...}"), or NULL */
	int braced;
	long off;
};

struct pstat_evtree {
	struct pstat_evgroup *groups;
	size_t ngroups;
};

/*
 * Parse an event list and append its groups to *tree (which may already
 * hold groups from an earlier -e). Returns 0, or -1 with err filled (the
 * offset points into s).
 */
int evspec_parse(const char *s, struct pstat_evtree *tree,
		 struct pstat_error *err);

/*
 * Parse a bare term list "a=1,b,c=0x3" (a sysfs alias file, or the inside
 * of pmu/.../). Returns 0 and a new array in *terms (free with
 * evspec_terms_free), or -1 with err filled.
 */
int evspec_parse_terms(const char *s, struct pstat_term **terms, size_t *n,
		       struct pstat_error *err);

/* Whether the n bytes at s are perf's TYPE:CONFIG event ("1:1", "4:0x3c"). */
int evspec_is_numeric(const char *s, size_t n);

/* Whether every character of s is a modifier letter. */
int evspec_is_mods(const char *s);

void evspec_terms_free(struct pstat_term *terms, size_t n);
/* Free what the tree holds (not the struct itself); accepts NULL. */
void evspec_tree_free(struct pstat_evtree *tree);

#endif
