/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_METRIC_EXPR_H
#define PSTAT_METRIC_EXPR_H

#include <stddef.h>

#include "base/msg.h"

/*
 * Metric expressions: the syntax tree of one formula and its evaluation
 * (pure: no files, no events). The grammar, lowest precedence first:
 *
 *   expr  := or ['if' or 'else' expr]      a if cond else b
 *   or    := and {('|' | 'or') and}
 *   and   := cmp {('&' | 'and') cmp}
 *   cmp   := add [('<' | '<=' | '>' | '>=' | '==' | '!=') add]
 *   add   := mul {('+' | '-') mul}
 *   mul   := unary {('*' | '/') unary}
 *   unary := ('-' | '!' | 'not') unary | prim
 *   prim  := NUMBER | '(' expr ')' | ('min' | 'max') '(' expr ',' expr ')'
 *          | '#' CONSTANT | NAME
 *
 * A NAME starts with a letter or '_' and goes on with letters, digits and
 * "_.:"; a '-' between two of them (no blanks) belongs to the name
 * ("task-clock": subtraction is written "a - b"), a backslash takes the
 * next character as it is ("topdown\-retiring", perf's spelling), and
 * "pmu@terms@" stands for the event "pmu/terms/" (perf's escape for '/').
 * What a NAME means (an event, another metric, duration_time) is up to
 * the caller: the tree only lists them.
 */

/* The constants a formula may name after '#'. */
enum mexpr_const {
	MEXPR_NUM_CORES,
	MEXPR_NUM_PACKAGES,
	MEXPR_NUM_CPUS,
	MEXPR_SMT_ON,
	MEXPR_SLOTS,
	MEXPR_TSC_FREQ,
	MEXPR_NCONST,
};

/* "num_cores", ... (static), for messages. */
const char *mexpr_const_name(enum mexpr_const c);

struct pstat_mexpr;

/*
 * Parse text into a new tree (*out, freed with mexpr_free). Returns 0,
 * or -1 with err filled: err->offset is the byte offset in text of what
 * was wrong.
 */
int mexpr_parse(const char *text, struct pstat_mexpr **out,
		struct pstat_error *err);

/* Free e; accepts NULL. */
void mexpr_free(struct pstat_mexpr *e);

/*
 * The distinct NAMEs of e, in their first order of appearance, spelled
 * as the event they stand for (escapes undone): borrowed, valid while e
 * lives. mexpr_name_offset: where the first one was written in text.
 */
size_t mexpr_nnames(const struct pstat_mexpr *e);
const char *mexpr_name(const struct pstat_mexpr *e, size_t i);
long mexpr_name_offset(const struct pstat_mexpr *e, size_t i);

/* Whether e names constant c. */
int mexpr_uses_const(const struct pstat_mexpr *e, enum mexpr_const c);

/*
 * What evaluation asks of the caller: the value of name i (NAN when it
 * has none, with *why set to a static or caller-owned reason) and of
 * constant c (NAN when unknown here).
 */
struct mexpr_env {
	double (*name)(void *ctx, size_t i, const char **why);
	double (*constant)(void *ctx, enum mexpr_const c);
	void *ctx;
};

/*
 * Evaluate e. Returns the value, or NAN with *why saying why (division
 * by zero, an input without a value, an unknown constant); never an
 * infinity.
 */
double mexpr_eval(const struct pstat_mexpr *e, const struct mexpr_env *env,
		  const char **why);

#endif
