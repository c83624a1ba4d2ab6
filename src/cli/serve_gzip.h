/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_SERVE_GZIP_H
#define PSTAT_SERVE_GZIP_H

#include <stdbool.h>
#include <stddef.h>

/* Whether zlib (libz.so.1) could be loaded; loads it on the first call. */
bool serve_gzip_available(void);

/*
 * in (len bytes) as a gzip member: a new malloc'd buffer of *out_len
 * bytes, or NULL when zlib is missing or failed (out of memory).
 */
char *serve_gzip(const char *in, size_t len, size_t *out_len);

#endif
