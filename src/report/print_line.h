/* SPDX-License-Identifier: MIT */
/*
 * The table printer's line builder: fields padded as printf's "%*s" and
 * "%-*s" would, into a buffer written with one fwrite.
 */
#ifndef PSTAT_REPORT_PRINT_LINE_H
#define PSTAT_REPORT_PRINT_LINE_H

#include <stdio.h>
#include <string.h>

/*
 * Table lines are built here and written with one fwrite: with
 * --per-thread an interval has thousands of rows, and a fprintf per field
 * cost pstat more than reading the counters; an interval's rows share one
 * buffer, written when full (a call per line cost as much as building it).
 * Fields longer than what is left go out after what is buffered, so a line
 * of any length comes out whole. Whoever writes to out directly flushes
 * first.
 */
struct tline {
	FILE *out;
	size_t n, cap;
	char *buf;
	/* the last event name and unit and their lengths: rows repeat them */
	const char *event, *unit;
	size_t event_len, unit_len;
};

#define TLINE_ROWS_BUF (32 * 1024)

void tline_flush(struct tline *l);
/* What tline_mem does when s does not fit: flush, then copy or write. */
void tline_mem_flushing(struct tline *l, const char *s, size_t n);

/* Start on buf[cap]; it is left as it is (zeroing it cost more than a row). */
static inline void tline_start(struct tline *l, FILE *out, char *buf,
			       size_t cap)
{
	l->out = out;
	l->n = 0;
	l->buf = buf;
	l->cap = cap;
	l->event = l->unit = NULL;
}

/* strlen(s), remembered in *last and *len while s is the same string */
static inline size_t tline_strlen(const char **last, size_t *len,
				  const char *s)
{
	if (s != *last) {
		*last = s;
		*len = strlen(s);
	}
	return *len;
}

/*
 * memcpy of the few bytes a field has, inline: two copies of a fixed size
 * that overlap in the middle, as the C library does for small sizes, but
 * without its call per field (a row has a dozen).
 */
static inline __attribute__((always_inline)) void
tline_copy(char *d, const char *s, size_t n)
{
	if (n > 32) {
		memcpy(d, s, n);
	} else if (n >= 16) {
		memcpy(d, s, 16);
		memcpy(d + n - 16, s + n - 16, 16);
	} else if (n >= 8) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

/*
 * Inlined, with the line's length in a register across a row's fields:
 * a call per field cost more than the copy.
 */
static inline __attribute__((always_inline)) void
tline_mem(struct tline *l, const char *s, size_t n)
{
	if (n > l->cap - l->n) {
		tline_mem_flushing(l, s, n);
		return;
	}
	tline_copy(l->buf + l->n, s, n);
	l->n += n;
}

static inline __attribute__((always_inline)) void
tline_pad(struct tline *l, size_t n)
{
	static const char spaces[] = "                                ";

	/* with room to spare, whole chunks (fixed-size copies, inlined) */
	if (n + sizeof(spaces) <= l->cap - l->n) {
		for (size_t k = 0; k < n; k += sizeof(spaces) - 1)
			memcpy(l->buf + l->n + k, spaces, sizeof(spaces) - 1);
		l->n += n;
		return;
	}
	while (n) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		tline_mem(l, spaces, k);
		n -= k;
	}
}

/* printf's "%*s" (right) and "%-*s" (left): widths count bytes */
static inline __attribute__((always_inline)) void
tline_right(struct tline *l, const char *s, size_t len, size_t w)
{
	if (len < w)
		tline_pad(l, w - len);
	tline_mem(l, s, len);
}


static inline __attribute__((always_inline)) void
tline_left(struct tline *l, const char *s, size_t len, size_t w)
{
	tline_mem(l, s, len);
	if (len < w)
		tline_pad(l, w - len);
}

/* The decimal digits of v into the end of buf[len]; where they start. */
static inline const char *tline_digits(char *buf, size_t len,
				       unsigned long long v)
{
	char *d = buf + len;

	do
		*--d = (char)('0' + v % 10);
	while (v /= 10);
	return d;
}

/*
 * "%*s" of a number printf would have made: its widths count characters,
 * so a separator that takes several bytes in UTF-8 (fr_FR's narrow
 * no-break space) pads as one.
 */
void tline_number(struct tline *l, const char *s, size_t len, size_t w);
/* printf into the line (vfprintf past it when longer than 255 bytes). */
__attribute__((format(printf, 2, 3)))
void tline_fmt(struct tline *l, const char *fmt, ...);

#endif
