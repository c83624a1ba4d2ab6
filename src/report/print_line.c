/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report/print_line.h"

void tline_flush(struct tline *l)
{
	if (l->n)
		/* pstat prints from one thread: no stream lock per line */
		fwrite_unlocked(l->buf, 1, l->n, l->out);
	l->n = 0;
}

void tline_mem_flushing(struct tline *l, const char *s, size_t n)
{
	tline_flush(l);
	if (n > l->cap) {
		fwrite_unlocked(s, 1, n, l->out);
		return;
	}
	memcpy(l->buf, s, n);
	l->n = n;
}

void tline_number(struct tline *l, const char *s, size_t len, size_t w)
{
	size_t extra = 0;

	for (size_t i = 0; i < len; i++)
		extra += ((unsigned char)s[i] & 0xc0) == 0x80;
	tline_right(l, s, len, w + extra);
}

void tline_fmt(struct tline *l, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		tline_mem(l, tmp, (size_t)n);
		return;
	}
	tline_flush(l);
	va_start(ap, fmt);
	vfprintf(l->out, fmt, ap);
	va_end(ap);
}
