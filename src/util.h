/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_UTIL_H
#define PSTAT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Allocation that never returns NULL: on failure it prints and exits 125. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
/* Grow *p (of *alloc elements of size sz) to hold at least n elements. */
void xgrow(void **p, size_t *alloc, size_t n, size_t sz);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* New string from printf-style arguments; caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Parse an unsigned integer in decimal, or hex with 0x. The whole string
 * must be consumed (leading/trailing blanks are not allowed). Returns 0 and
 * stores the value, -ERANGE when it is above max or overflows 64 bits,
 * -EINVAL when it is not a number.
 */
int parse_u64(const char *s, uint64_t max, uint64_t *out);
/* Same as parse_u64, but for a (base, max) pair: base 0 auto, 16 hex. */
int parse_u64_base(const char *s, int base, uint64_t max, uint64_t *out);

/*
 * Read a small file whole into a new NUL-terminated string with trailing
 * whitespace stripped. Returns the string (caller frees) or NULL with
 * errno set.
 */
char *read_file_str(const char *path);
/* Same, relative to a directory fd. */
char *read_file_at(int dirfd, const char *path);

/* Trim leading and trailing whitespace in place; returns s advanced. */
char *str_trim(char *s);
bool str_starts_with(const char *s, const char *prefix);
/* Whether s is one or more hex digits (no 0x). */
bool str_is_hex(const char *s);
/*
 * perf's raw event spelling "rNNNN" or "r0xNNNN": the hex digits of s,
 * or NULL when s is not spelled so (borrowed: points into s).
 */
const char *str_raw_hex(const char *s);

/* Monotonic clock in nanoseconds. */
uint64_t now_ns(void);

#endif
