/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_SERVE_HTTP_H
#define PSTAT_SERVE_HTTP_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The HTTP side of `pstat serve` (serve_http.c, the only user of
 * libmicrohttpd, which it loads with dlopen): GET /metrics answers the
 * latest published exposition, GET / a page that links to it, any other
 * path 404 and any other method 405.
 *
 * Its stated limits (the man page's SERVE section says the same):
 */
/* connections at once, in total and from one client address */
#define SERVE_MAX_CONNECTIONS 512
#define SERVE_MAX_PER_CLIENT 64
/*
 * seconds a request may take to arrive in full (headers and any body),
 * counted from the connection's start or the end of the answer before
 */
#define SERVE_REQUEST_SECONDS 10
/* descriptors kept free for the counters: closer, a connection is refused */
#define SERVE_FD_RESERVE 32
/*
 * expositions kept for clients still reading them besides the latest:
 * the connections reading an older one are closed
 */
#define SERVE_OLD_RENDERINGS 4

struct serve_http;
struct serve_web;

struct serve_http_cfg {
	int fd;                     /* a listening socket, stolen */
	struct serve_web *web;      /* TLS and users (borrowed), or NULL */
};

/*
 * Load libmicrohttpd and answer requests on cfg's socket (closed by
 * serve_http_stop, or here on failure), from threads of its own that
 * take no signals. Returns 0 with *out set, or -errno with why (a
 * message of len bytes) filled: -ENOENT when the library cannot be
 * loaded, -ENOTSUP when it has no TLS and cfg asks for it.
 */
int serve_http_start(struct serve_http **out,
		     const struct serve_http_cfg *cfg, char *why, size_t len);

/*
 * Make om (OpenMetrics) and text (the text format 0.0.4) the exposition
 * requests get from now on; h steals both (malloc'd) strings. Every
 * response shares them (gzip'd once, when first asked for).
 */
void serve_http_publish(struct serve_http *h, char *om, size_t om_len,
			char *text, size_t text_len);

/* Stop answering, close the socket, free h. NULL is fine. */
void serve_http_stop(struct serve_http *h);

/*
 * Whether a request with this Accept header (NULL: none) gets
 * OpenMetrics: when it names application/openmetrics-text with a q above
 * 0 and no lower than that of text/plain (or its wildcards).
 * (serve_negotiate.c)
 */
bool serve_wants_openmetrics(const char *accept);

/*
 * Whether a request with this Accept-Encoding header (NULL: none) takes
 * gzip: named (or x-gzip) with a q above 0, or not named and * is.
 */
bool serve_wants_gzip(const char *accept_encoding);

/*
 * A URL's path with %XX sequences decoded in place, except those that
 * would put a NUL in it (left as they are, so that such a path matches
 * nothing). Returns its new length.
 */
size_t serve_unescape(char *s);

#endif
