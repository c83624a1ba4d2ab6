/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_METRIC_H
#define PSTAT_METRIC_H

#include <stddef.h>
#include <sys/types.h>

#include "base/msg.h"
#include "events/metric_expr.h"

/*
 * Metric definitions, the set of them a run evaluates, and the built-in
 * library. One spelling serves the command line (--metric), a file
 * (--metrics-file, one definition a line, '#' comments) and the library:
 *
 *   NAME = EXPR [; KEY = VALUE]...
 *
 * KEY is unit (text; "%" for a percentage), scale (a number: the value
 * shown is EXPR x scale), higher (yes or no: whether a higher value is
 * better, for pstat compare), threshold (an expression, usually over
 * NAME itself: when true, the value is flagged) or desc (text).
 */
struct pstat_metric_def {
	char *name;
	char *text;             /* EXPR as written */
	char *unit;             /* "" when none */
	char *desc;             /* or NULL */
	char *source;           /* where the formula comes from, or NULL */
	char *group;            /* library group ("TopdownL1"), or NULL */
	char *threshold_text;   /* or NULL */
	double scale;
	int higher;             /* 1 higher is better, 0 lower, -1 unsaid */
	struct pstat_mexpr *expr;
	struct pstat_mexpr *threshold;
};

/*
 * Parse one definition line into d (zeroed by the caller; freed with
 * metric_def_free also on failure). Returns 0, or -1 with err filled,
 * err->offset the byte in line.
 */
int metric_def_parse(const char *line, struct pstat_metric_def *d,
		     struct pstat_error *err);
void metric_def_free(struct pstat_metric_def *d);

/* What a NAME in a metric's formula stands for. */
enum metric_ref_kind {
	METRIC_REF_INPUT,       /* an event: index into set->inputs */
	METRIC_REF_METRIC,      /* another metric: index into set->defs */
	METRIC_REF_DURATION,    /* duration_time: the elapsed seconds */
};

struct metric_ref {
	enum metric_ref_kind kind;
	size_t idx;
};

/* One metric of a set: its definition and how its names resolve. */
struct pstat_metric_entry {
	struct pstat_metric_def def;
	int shown;              /* printed (else only referenced) */
	struct metric_ref *refs;        /* one per name of def.expr */
	struct metric_ref *trefs;       /* one per name of def.threshold */
	int group;              /* index into set->groups, or -1 */
	/*
	 * Its events fit its PMU's counters only with the one the NMI
	 * watchdog holds: left ungrouped (metric_set_group_inputs).
	 */
	int beside_watchdog;
	/*
	 * A copy of metric_set_split_pmus: the core PMU whose events it
	 * reads (it has a value only where they count), else NULL.
	 */
	char *pmu;
	/*
	 * The vendor's own definition for the core PMU its name's suffix
	 * names (Arm's ipc.armv9_neoverse_n2): metric_set_split_pmus makes
	 * no copy of a metric of the name for that PMU.
	 */
	int pmu_own;
	/*
	 * The inputs it reads, through the metrics it refers to: nins
	 * indexes into set->inputs, ascending; first_in the first a walk
	 * of its references in their order meets, or SIZE_MAX
	 * (metric_set_graph).
	 */
	size_t *ins;
	size_t nins;
	size_t first_in;
};

/*
 * The events a set's metrics read. An input of a group is opened with
 * the group's other events ({...}) so that they count over the same
 * time, in the group's order (slots must lead on Intel). A weak group
 * ({...}:W) is opened ungrouped when the kernel refuses it.
 */
struct pstat_metric_group {
	size_t *inputs;
	size_t n;
	int weak;
};

struct pstat_metric_set {
	struct pstat_metric_entry *m;
	size_t n, alloc;
	char **inputs;          /* distinct event specs, as -e takes them */
	size_t ninputs, inputs_alloc;
	struct pstat_metric_group *groups;
	size_t ngroups;
	size_t nuser;           /* metrics of metric_set_add_line */
	/* every metric after those it refers to (metric_set_graph) */
	size_t *order;
	/* hash indexes of m[].def.name and inputs[] (metric.c) */
	size_t *name_slot, name_cap, name_done;
	size_t *input_slot, input_cap, input_done;
};

/*
 * Add d to set (which steals what d holds; d is zeroed), shown or only
 * there for others to refer to. A name already in set is not added
 * again: it becomes shown when shown is set. Returns 0.
 */
int metric_set_add_def(struct pstat_metric_set *set,
		       struct pstat_metric_def *d, int shown,
		       struct pstat_error *err);

/* The index of the metric called name in set, or -1 (a hash lookup). */
ssize_t metric_set_find(struct pstat_metric_set *set, const char *name);

/*
 * The index of input spec (an event's spelling) in set, added when new.
 */
size_t metric_set_input(struct pstat_metric_set *set, const char *spec);

/*
 * Add a definition line to set (a user's). Returns 0, or -1 with err
 * filled (offset into line). A name already defined is an error, and so
 * is a metric past METRIC_SET_MAX.
 */
int metric_set_add_line(struct pstat_metric_set *set, const char *line,
			struct pstat_error *err);

/*
 * The most a metrics file may hold: bytes, and lines (comments and
 * blank lines count). Past either, it is refused whole. And the most
 * metrics a run may define (--metric and --metrics-file together), which
 * bounds a chain of metrics referring to each other too (resolved and
 * evaluated without recursion, in linear time: metric_set_graph).
 */
#define METRIC_FILE_MAX_BYTES (16 << 20)
#define METRIC_FILE_MAX_LINES 250000
#define METRIC_SET_MAX 250000

/*
 * Read FILE's definitions into set: a regular file or a FIFO (a FIFO no
 * writer has opened reads as empty: pstat does not wait for one),
 * opened as the user who ran pstat (secure_open_user). Returns 0, or -1 with err filled:
 * err->msg names the line; err->offset is -1.
 */
int metric_set_add_file(struct pstat_metric_set *set, const char *path,
			struct pstat_error *err);

/*
 * The same for the text of a file called path, len bytes (text[len] is
 * NUL; its lines are cut in place).
 */
int metric_set_add_text(struct pstat_metric_set *set, const char *path,
			char *text, size_t len, struct pstat_error *err);

/*
 * Resolve every formula's names: a defined metric, a metric of lib (pulled
 * in, not shown), duration_time, or else an event input. Refuses a
 * metric that refers to itself through others. Returns 0 or -1 with err
 * filled (offset -1).
 */
struct pstat_metric_lib;
int metric_set_resolve(struct pstat_metric_set *set,
		       const struct pstat_metric_lib *lib,
		       struct pstat_error *err);

/*
 * Evaluate once per core PMU the metrics that read an event counted
 * once per core PMU (a hybrid CPU's generic events: cycles on cpu_atom
 * and on cpu_core), as perf does: such a metric, and any metric that
 * refers to one, becomes one copy per PMU named "NAME.PMU" (ipc.cpu_core),
 * each reading its PMU's events. pmus[npmu] are the core PMUs' names;
 * spec[i * npmu + p] the spelling of input i on pmus[p] (as -e takes
 * it), or spec[i * npmu] NULL when input i is one event. Where a
 * metric's copy for a PMU is the vendor's own (pmu_own: Arm's
 * ipc.armv9_neoverse_n2), that PMU keeps it and gets no copy, and the
 * copies of metrics referring to it refer to it. Call after
 * metric_set_resolve and before any grouping. Returns 1 when metrics
 * were split, else 0; -1 with err filled (set unchanged) when a copy's
 * name is another metric's.
 */
int metric_set_split_pmus(struct pstat_metric_set *set,
			  const char *const *pmus, size_t npmu,
			  char *const *spec, struct pstat_error *err);

/* Free what set holds; accepts NULL. */
void metric_set_free(struct pstat_metric_set *set);

/*
 * Work out set->order and each metric's ins and first_in, in time linear
 * in the references and without recursion, however deep a chain of
 * metrics goes. Returns 0, or -1 with err filled when a metric refers to
 * itself through others. metric_set_resolve and metric_set_split_pmus
 * call it.
 */
int metric_set_graph(struct pstat_metric_set *set, struct pstat_error *err);

/*
 * Mark in seen[set->ninputs] the inputs metric m reads, through the
 * metrics it refers to (its ins).
 */
void metric_set_metric_inputs(const struct pstat_metric_set *set, size_t m,
			      unsigned char *seen);

/* How an input may be grouped (metric_set_group_inputs). */
#define METRIC_CLASS_NONE (-1L) /* not: counted already, own CPUs... */
#define METRIC_CLASS_ANY  (-2L) /* software context: joins any group */

/* The counter an input takes in its PMU: one of these or a fixed one. */
#define METRIC_CTR_NONE (-2)    /* none: a software event */
#define METRIC_CTR_GP   (-1)    /* a general-purpose counter */

/*
 * The counters a group of one PMU's events may use (metric_budget.h
 * says where the numbers come from): gp general-purpose ones, and the
 * fixed ones of mask fixed (bit n: fixed counter n). hw_gp and hw_fixed
 * are what the kernel checks a group against when it is opened; gp and
 * fixed leave out the counter the NMI watchdog holds, which a group
 * needs too when it is scheduled. A class without a budget is not
 * limited.
 */
struct pstat_metric_budget {
	long klass;             /* the PMU's class (metric_set_group_inputs) */
	int gp, hw_gp;
	unsigned fixed, hw_fixed;
};

/*
 * Group the events of set's metrics (perf's metric groups): the inputs
 * of each metric, from those with the most inputs, as one weak group,
 * joined with the group of any metric they share an input with, so an
 * event is opened once, when the joined group still fits its PMU's
 * budget. When it would not, the metric's events no group holds yet
 * join the group that holds most of its other events if they fit there,
 * or else make a group of their own; the metric then reads the shared
 * events from another group. klass[i] is input i's class:
 * METRIC_CLASS_NONE, ANY, or a number per PMU; counter[i] the counter it
 * takes (METRIC_CTR_NONE, GP or a fixed counter's number); budgets[nb]
 * per class. A group holds events of one PMU (and any software ones,
 * after them) and at most PSTAT_MAX_GROUP; a metric whose events cannot
 * be so joined is left ungrouped, and so is one whose own events need
 * the counter the watchdog holds (the kernel would open that group and
 * never schedule it); one larger than what the kernel checks is still
 * a weak group, for the kernel to refuse. Appends the groups of two or
 * more events to set->groups.
 */
void metric_set_group_inputs(struct pstat_metric_set *set, const long *klass,
			     const int *counter,
			     const struct pstat_metric_budget *budgets,
			     size_t nb);

/* The machine facts formulas use (#num_cores, ...); NAN when unknown. */
struct pstat_metric_consts {
	double v[MEXPR_NCONST];
};

/*
 * Everything one evaluation needs: the value of each input (NAN when it
 * has none, why[i] then says why), whether it was multiplexed, and the
 * elapsed seconds.
 */
struct pstat_metric_inputs {
	const double *value;
	const char *const *why;
	const int *multiplexed;
	double duration_s;
	const struct pstat_metric_consts *consts;
};

struct pstat_metric_result {
	double value;           /* x scale; NAN: no value */
	const char *why;        /* when NAN */
	int multiplexed;        /* an input was multiplexed */
	int threshold;          /* 1 crossed, 0 not, -1 none or unknown */
};

/*
 * Evaluate every metric of set into out[set->n] (metrics referring to
 * others see their values before scale).
 */
void metric_set_eval(const struct pstat_metric_set *set,
		     const struct pstat_metric_inputs *in,
		     struct pstat_metric_result *out);

#endif
