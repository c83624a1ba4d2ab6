/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_LIST_PRIV_H
#define PSTAT_LIST_PRIV_H

/*
 * What list.c (collecting the items) and list_print.c (rendering them)
 * share. Not for other modules.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/list.h"
#include "report/print.h"

/*
 * `pstat list` first collects everything that matches into one array of
 * items, in the order it is shown, and then hands the array to exactly one
 * of three renderers (table, names, JSON). Collecting first keeps the
 * three outputs in agreement and lets the JSON printer get plain records.
 */

#define LIST_NAME_WIDTH 50
#define LIST_WRAP 79
#define LIST_DESC_INDENT 7

static const char list_no_core_note[] =
	"# no core hardware PMU is exposed by the kernel (virtual machine?): "
	"hardware events such as cycles are not supported here";

struct list_item {
	struct pstat_list_entry e;
	const char *display;        /* left column of the table */
	const char *tag;            /* "[...]" right column of the table */
	const char *alias;          /* generic events: other spellings */
	const char *const *umask_descs;
	const char *completion;     /* --names spelling when not e.name */
	bool descriptor;            /* syntax, not a name: not completed */
};

struct list_pmu {
	struct pstat_list_pmu p;
	const char *desc;           /* libpfm4's, or NULL */
};

/* The sections a listing shows; perf list's keywords name some. */
enum {
	LIST_HW = 1 << 0,
	LIST_SW = 1 << 1,
	LIST_CACHE = 1 << 2,
	LIST_PMU = 1 << 3,
	LIST_TRACEPOINT = 1 << 4,
	LIST_OTHER = 1 << 5,        /* descriptors, libpfm4 */
	LIST_SIM = 1 << 6,          /* the simulated PMU */
	LIST_ALL = (1 << 7) - 1,
};

struct list_ctx {
	const struct pstat_list_opts *o;
	/*
	 * What names are matched against: the glob as given, "*word*" for
	 * a word without glob characters, NULL for all (no glob, or a
	 * section keyword).
	 */
	const char *pattern;
	unsigned sections;
	bool keyword;               /* the glob was a section keyword */
	struct list_item *items;
	size_t nitems, aitems;
	struct list_pmu *pmus;
	size_t npmus, apmus;
	void **owned;               /* strings and arrays freed at the end */
	size_t nowned, aowned;
	bool core_exposed;
	bool pfm_loaded;            /* libpfm4 initialised */
	bool pfm_core;              /* and detected a core PMU */
	bool have_valgrind;         /* sim can count here */
};

/*
 * Call fn for each other spelling of a generic event's name (its
 * aliases, "cycles" for "cpu-cycles"); stops when fn returns false.
 * Returns false when fn stopped it.
 */
bool list_alias_each(const char *name, const char *alias,
		     bool (*fn)(const char *spelling, void *arg), void *arg);

/* Whether s matches the listing's glob (perf's: case-insensitive). */
bool list_match(const struct list_ctx *c, const char *s);

/* The PMU of a source ("sysfs", "libpfm4") called name, or NULL. */
const struct list_pmu *list_find_pmu(const struct list_ctx *c,
				     const char *source, const char *name);

/* The renderers (list_print.c). */
void list_print_table(const struct list_ctx *c, FILE *out);
void list_print_names(const struct list_ctx *c, FILE *out);
int list_print_json(const struct list_ctx *c, FILE *out);

#endif
