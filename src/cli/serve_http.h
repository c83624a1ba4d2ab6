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
 */
struct serve_http;

/*
 * Load libmicrohttpd and answer requests on fd, a listening socket
 * (stolen: closed by serve_http_stop), from threads of its own that take
 * no signals. Returns 0 with *out set, or -errno with why (a message of
 * len bytes) filled: -ENOENT when the library cannot be loaded.
 */
int serve_http_start(struct serve_http **out, int fd, char *why,
		     size_t len);

/*
 * Make om (OpenMetrics) and text (the text format 0.0.4) the exposition
 * requests get from now on; h steals both (malloc'd) strings.
 */
void serve_http_publish(struct serve_http *h, char *om, size_t om_len,
			char *text, size_t text_len);

/* Stop answering, close the socket, free h. NULL is fine. */
void serve_http_stop(struct serve_http *h);

/*
 * Whether a request with this Accept header (NULL: none) gets
 * OpenMetrics: when it names application/openmetrics-text with a q above
 * 0 and no lower than that of text/plain (or its wildcards).
 */
bool serve_wants_openmetrics(const char *accept);

#endif
