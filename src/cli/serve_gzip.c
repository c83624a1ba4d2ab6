/* SPDX-License-Identifier: MIT */
/*
 * gzip for `pstat serve`'s answers, through zlib: the only file that
 * includes <zlib.h>. zlib is loaded with dlopen, as libmicrohttpd is,
 * so that only serve loads it; without it serve answers uncompressed.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "cli/serve_gzip.h"
#include "base/util.h"

static struct {
	void *handle;
	int (*init2)(z_streamp, int, int, int, int, int, const char *, int);
	int (*deflate)(z_streamp, int);
	int (*end)(z_streamp);
	uLong (*bound)(z_streamp, uLong);
} z;

static pthread_once_t z_once = PTHREAD_ONCE_INIT;

static void z_load(void)
{
	void *h = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return;
	*(void **)&z.init2 = dlsym(h, "deflateInit2_");
	*(void **)&z.deflate = dlsym(h, "deflate");
	*(void **)&z.end = dlsym(h, "deflateEnd");
	*(void **)&z.bound = dlsym(h, "deflateBound");
	if (!z.init2 || !z.deflate || !z.end || !z.bound) {
		dlclose(h);
		memset(&z, 0, sizeof(z));
		return;
	}
	z.handle = h;
}

bool serve_gzip_available(void)
{
	pthread_once(&z_once, z_load);
	return z.handle != NULL;
}

char *serve_gzip(const char *in, size_t len, size_t *out_len)
{
	z_stream s;
	char *out;
	uLong cap;
	int r;

	if (!serve_gzip_available() || len > 0xffffffffu)
		return NULL;
	memset(&s, 0, sizeof(s));
	/* windowBits 15 + 16: a gzip header and trailer, not zlib's */
	if (z.init2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
		    ZLIB_VERSION, (int)sizeof(s)) != Z_OK)
		return NULL;
	cap = z.bound(&s, (uLong)len);
	out = malloc(cap);
	if (!out) {
		z.end(&s);
		return NULL;
	}
	s.next_in = (Bytef *)in;
	s.avail_in = (uInt)len;
	s.next_out = (Bytef *)out;
	s.avail_out = (uInt)cap;
	/* deflateBound's room lets one Z_FINISH do it all */
	r = z.deflate(&s, Z_FINISH);
	*out_len = s.total_out;
	z.end(&s);
	if (r != Z_STREAM_END) {
		free(out);
		return NULL;
	}
	return out;
}
