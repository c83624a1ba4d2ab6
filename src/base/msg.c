/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"

int msg_verbose;
int msg_quiet;
int msg_errors;

/*
 * Fit s (changed in place) into max bytes by cutting the middle out of
 * its longest quoted value: "cannot open output file '/very/lo...ng/x':
 * reason" keeps the reason and the closing quote, and both ends of the
 * name. Without a quoted value long enough, the end is cut.
 */
static void shorten(char *s, size_t max)
{
	size_t len = strlen(s), best = 0, best_len = 0, cut, keep;
	char *q = s, *end;

	if (len <= max)
		return;
	while ((q = strchr(q, '\'')) && (end = strchr(q + 1, '\''))) {
		if ((size_t)(end - q - 1) > best_len) {
			best = (size_t)(q + 1 - s);
			best_len = (size_t)(end - q - 1);
		}
		q = end + 1;
	}
	cut = len - max + 3;            /* room for "..." */
	if (best_len < cut + 16) {
		s[max] = '\0';
		return;
	}
	keep = (best_len - cut) / 2;    /* bytes kept at each end */
	/* cut at UTF-8 character boundaries */
	while (keep && ((unsigned char)s[best + keep] & 0xc0) == 0x80)
		keep--;
	{
		size_t tail = best + best_len - (best_len - cut - keep);

		while (s[tail] && ((unsigned char)s[tail] & 0xc0) == 0x80)
			tail++;
		memcpy(s + best + keep, "...", 3);
		memmove(s + best + keep + 3, s + tail, strlen(s + tail) + 1);
	}
}

/*
 * The length of the UTF-8 sequence at p (1 for ASCII), or 0 when p does
 * not start a valid one (overlong, a surrogate, past U+10FFFF, cut).
 */
static size_t utf8_len(const unsigned char *p)
{
	size_t len;
	unsigned cp;

	if (*p < 0x80)
		return 1;
	if (*p >= 0xc2 && *p <= 0xdf)
		len = 2, cp = *p & 0x1f;
	else if ((*p & 0xf0) == 0xe0)
		len = 3, cp = *p & 0x0f;
	else if (*p >= 0xf0 && *p <= 0xf4)
		len = 4, cp = *p & 0x07;
	else
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/* The longest message, before its control characters are escaped. */
#define MSG_MAX 1024

static void PSTAT_FMT(2, 0) vmsg(const char *prefix, const char *fmt,
				   va_list ap)
{
	/*
	 * Build the line first and write it with one call, so a message is
	 * never interleaved with the measured program's stderr.
	 */
	char small[MSG_MAX + 1], line[4 * MSG_MAX + 64], *text = NULL, *m;
	va_list again;
	size_t o = 0;
	int n = snprintf(line, sizeof(line), "pstat: %s", prefix);

	if (n < 0)
		return;
	o = (size_t)n;
	va_copy(again, ap);
	if (vasprintf(&text, fmt, ap) < 0) {
		text = NULL;
		vsnprintf(small, sizeof(small), fmt, again);
	}
	va_end(again);
	m = text ? text : small;
	shorten(m, MSG_MAX);
	/*
	 * One message, one line: a control character of a name (a newline
	 * in a file or command name) is written escaped, \n or \xHH.
	 */
	for (const unsigned char *p = (const unsigned char *)m; *p;) {
		size_t len = utf8_len(p);

		if (*p == '\n') {
			o += (size_t)snprintf(line + o, sizeof(line) - o, "\\n");
		} else if (*p < 0x20 || *p == 0x7f || !len ||
			   (*p == 0xc2 && p[1] <= 0x9f)) {
			/*
			 * a byte that is no UTF-8, or a C1 control in UTF-8
			 * (U+009B is a CSI, and so is a lone 0x9b byte to a
			 * terminal that takes 8-bit controls)
			 */
			len = len ? len : 1;
			for (size_t i = 0; i < len; i++)
				o += (size_t)snprintf(line + o,
						      sizeof(line) - o,
						      "\\x%02x", p[i]);
			p += len;
			continue;
		} else {
			memcpy(line + o, p, len);
			o += len;
			p += len;
			continue;
		}
		p++;
	}
	line[o] = '\0';
	free(text);
	fprintf(stderr, "%s\n", line);
	fflush(stderr);         /* main may have made stderr buffered */
}

void msg_error(const char *fmt, ...)
{
	va_list ap;

	msg_errors++;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void msg_usage(const char *fmt, ...)
{
	va_list ap;

	msg_errors++;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	msg_hint("see 'pstat --help'");
}

void msg_warn(const char *fmt, ...)
{
	va_list ap;

	if (msg_quiet)
		return;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void msg_hint(const char *fmt, ...)
{
	va_list ap;

	/* after an error (no document then, or one stderr has broken) */
	if (msg_quiet && !msg_errors)
		return;
	va_start(ap, fmt);
	vmsg("hint: ", fmt, ap);
	va_end(ap);
}

void msg_bad_option(int c, int opt, const char *arg, const char *cmd,
		    const char *hint)
{
	const char *sep = cmd ? " for '" : "", *end = cmd ? "'" : "";

	if (c == ':')
		msg_error("option '%s' needs a value", arg);
	else if (opt && opt < 256)
		msg_error("unknown option '-%c'%s%s%s", opt, sep,
			  cmd ? cmd : "", end);
	else
		msg_error("unknown option '%s'%s%s%s", arg, sep,
			  cmd ? cmd : "", end);
	msg_hint("%s", hint);
}

void msg_debug(int level, const char *fmt, ...)
{
	va_list ap;

	if (msg_verbose < level)
		return;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

int error_set(struct pstat_error *err, long offset, const char *fmt, ...)
{
	va_list ap, again;
	char *text = NULL;

	if (!err)
		return -1;
	err->offset = offset;
	va_start(ap, fmt);
	va_copy(again, ap);
	if (vasprintf(&text, fmt, ap) < 0) {
		text = NULL;
		vsnprintf(err->msg, sizeof(err->msg), fmt, again);
	}
	va_end(again);
	va_end(ap);
	if (text) {
		/* a long name keeps the message's end: cut in its middle */
		shorten(text, sizeof(err->msg) - 1);
		snprintf(err->msg, sizeof(err->msg), "%s", text);
		free(text);
	}
	return -1;
}
