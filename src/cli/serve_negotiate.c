/* SPDX-License-Identifier: MIT */
/*
 * What a scrape asked for: the exposition format of its Accept header
 * and the content coding of its Accept-Encoding (RFC 9110, 12.5). Pure
 * string work, driven by tests/pstat-test.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/serve_http.h"

/* The q of one media range's parameters (";q=0.5"), 1 when absent. */
static double accept_q(const char *params, size_t len)
{
	const char *p = params, *end = params + len;

	while (p < end) {
		const char *semi = memchr(p, ';', (size_t)(end - p));
		const char *next = semi ? semi + 1 : end;

		while (p < next && (*p == ' ' || *p == '\t' || *p == ';'))
			p++;
		if (next - p > 2 && (p[0] == 'q' || p[0] == 'Q') &&
		    p[1] == '=') {
			char buf[16];
			size_t n = (size_t)(next - p - 2);
			char *stop;
			double q;

			if (semi)
				n--;
			if (n >= sizeof(buf))
				return 0;
			memcpy(buf, p + 2, n);
			buf[n] = '\0';
			q = strtod(buf, &stop);
			while (*stop == ' ' || *stop == '\t')
				stop++;
			return *stop || q < 0 ? 0 : q > 1 ? 1 : q;
		}
		p = next;
	}
	return 1;
}

/*
 * fn for each element of a comma-separated header: its token (trimmed)
 * and its q.
 */
static void each_element(const char *header,
			 void (*fn)(const char *tok, size_t tlen, double q,
				    void *arg),
			 void *arg)
{
	const char *p = header;

	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const char *semi = memchr(p, ';', len);
		size_t tlen = semi ? (size_t)(semi - p) : len;
		double q;

		while (tlen && (*p == ' ' || *p == '\t'))
			p++, tlen--, len--;
		while (tlen && (p[tlen - 1] == ' ' || p[tlen - 1] == '\t'))
			tlen--;
		q = semi ? accept_q(semi, len - (size_t)(semi - p)) : 1;
		fn(p, tlen, q, arg);
		p = comma ? comma + 1 : NULL;
	}
}

struct prefs {
	double want, other;
};

static void accept_one(const char *p, size_t tlen, double q, void *arg)
{
	struct prefs *pr = arg;

	if (tlen == 28 && !strncasecmp(p, "application/openmetrics-text", tlen))
		pr->want = q > pr->want ? q : pr->want;
	else if ((tlen == 10 && !strncasecmp(p, "text/plain", tlen)) ||
		 (tlen == 6 && !strncasecmp(p, "text/*", tlen)) ||
		 (tlen == 3 && !strncmp(p, "*/*", tlen)))
		pr->other = q > pr->other ? q : pr->other;
}

bool serve_wants_openmetrics(const char *accept)
{
	struct prefs pr = { 0, 0 };

	each_element(accept, accept_one, &pr);
	return pr.want > 0 && pr.want >= pr.other;
}

/* gzip (or its old name x-gzip) by name, else the wildcard */
static void encoding_one(const char *p, size_t tlen, double q, void *arg)
{
	struct prefs *pr = arg;

	if ((tlen == 4 && !strncasecmp(p, "gzip", tlen)) ||
	    (tlen == 6 && !strncasecmp(p, "x-gzip", tlen)))
		pr->want = q > pr->want ? q : pr->want;
	else if (tlen == 1 && *p == '*')
		pr->other = q;
}

bool serve_wants_gzip(const char *accept_encoding)
{
	/* -1: not named, so the wildcard (if any) decides */
	struct prefs pr = { -1, 0 };

	each_element(accept_encoding, encoding_one, &pr);
	return pr.want < 0 ? pr.other > 0 : pr.want > 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

size_t serve_unescape(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		int hi = r[0] == '%' ? hexval(r[1]) : -1;
		int lo = hi >= 0 ? hexval(r[2]) : -1;

		if (lo >= 0 && (hi || lo)) {
			*w++ = (char)(hi << 4 | lo);
			r += 3;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	return (size_t)(w - s);
}
