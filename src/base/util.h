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
/*
 * xgrow for an array of records of a cache line (64 bytes): the array
 * starts on a line, so that no record spans two (free with free()).
 */
void xgrow_aligned(void **p, size_t *alloc, size_t n, size_t sz);
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

/*
 * The most read_file_at reads: sysfs and /proc attributes are one page.
 * A longer file is an error (EFBIG), not its first 4 KiB taken for all.
 */
#define READ_FILE_MAX 4095

/*
 * read_file_at for up to max bytes. Only a regular file is read, opened
 * without blocking (a FIFO or a device planted in a fixture tree fails
 * with EINVAL, EISDIR for a directory); past max bytes, EFBIG.
 */
char *read_file_max(int dirfd, const char *path, size_t max);

/*
 * s with what a terminal would act on written out (a new string): a line
 * break as \n, other control characters (ESC of an escape sequence) and
 * the C1 controls of UTF-8 as \xHH, so that a name taken from a file
 * prints as one inert line.
 */
char *str_escape(const char *s);

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

/*
 * Edit distance between a and b, ignoring ASCII case: insertions,
 * deletions, substitutions and swaps of two neighbours ("cycels") count
 * one each. Names are short: one of 63 bytes or more counts as far from
 * everything (99).
 */
size_t str_edit_distance(const char *a, const char *b);

/*
 * The closest of the names offered to want, for "did you mean" hints:
 * str_suggest_init, then str_suggest_offer (or str_suggest_cb, shaped for
 * the *_foreach_name walkers) for each candidate, then str_suggest_take.
 */
struct str_suggest {
	const char *want;       /* borrowed */
	char *best;             /* new string, or NULL */
	size_t dist;            /* str_edit_distance of best to want */
};
void str_suggest_init(struct str_suggest *s, const char *want);
/* Offer name; shown is what to suggest for it (NULL: name itself). */
void str_suggest_offer(struct str_suggest *s, const char *name,
		       const char *shown);
/* str_suggest_offer(arg, name, NULL). */
void str_suggest_cb(const char *name, void *arg);
/*
 * Whether the best so far is close enough to be a likely typo of want:
 * at most max_dist edits, and at most one per three bytes of want (one
 * for the shortest names).
 */
bool str_suggest_close(const struct str_suggest *s, size_t max_dist);
/*
 * The best name when it is close (as above, at most 3 edits), else NULL
 * (new string: caller frees). Releases what s holds.
 */
char *str_suggest_take(struct str_suggest *s);

/* Monotonic clock in nanoseconds. */
uint64_t now_ns(void);

/*
 * h with the n bytes at p added, a word at a time. Start from HASH_INIT;
 * for hash tables of report rows (places, keys), not for anything
 * adversarial.
 */
#define HASH_INIT 0xcbf29ce484222325ull
uint64_t hash_bytes(uint64_t h, const void *p, size_t n);
/* The same for a string; NULL adds as a string of its own. */
uint64_t hash_str(uint64_t h, const char *s);

/*
 * The value of the environment variable name when it is set and not
 * empty (a root directory that stands in for /sys or tracefs), else
 * NULL. Borrowed from the environment.
 */
const char *env_root(const char *name);

#endif
