/* SPDX-License-Identifier: MIT */
/*
 * The HTTP side of `pstat serve`, through libmicrohttpd: the only file
 * that includes <microhttpd.h>.
 *
 * libmicrohttpd is loaded with dlopen when serve starts rather than
 * linked, so that a plain `pstat` run does not pay for loading it (and
 * does not need it installed). Its thread answers every request from the
 * latest exposition the counting loop published, a copy taken under a
 * mutex: a scrape never waits for the counters to be read.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <microhttpd.h>

#include "cli/serve_http.h"
#include "base/util.h"

#define CT_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define CT_TEXT "text/plain; version=0.0.4; charset=utf-8"

static struct {
	void *handle;
	struct MHD_Daemon *(*start_daemon)(unsigned int, uint16_t,
					   MHD_AcceptPolicyCallback, void *,
					   MHD_AccessHandlerCallback, void *,
					   ...);
	void (*stop_daemon)(struct MHD_Daemon *);
	struct MHD_Response *(*create_response_from_buffer)(
		size_t, void *, enum MHD_ResponseMemoryMode);
	enum MHD_Result (*add_response_header)(struct MHD_Response *,
					       const char *, const char *);
	enum MHD_Result (*queue_response)(struct MHD_Connection *,
					  unsigned int,
					  struct MHD_Response *);
	void (*destroy_response)(struct MHD_Response *);
	const char *(*lookup_connection_value)(struct MHD_Connection *,
					       enum MHD_ValueKind,
					       const char *);
} mhd;

struct serve_http {
	struct MHD_Daemon *daemon;
	pthread_mutex_t lock;
	char *om, *text;            /* the latest exposition, or NULL */
	size_t om_len, text_len;
};

static const char page[] =
	"<!DOCTYPE html>\n<html><head><title>pstat</title></head><body>\n"
	"<h1>pstat</h1>\n<p>Counters of this machine, for Prometheus: "
	"<a href=\"/metrics\">/metrics</a></p>\n</body></html>\n";

/*
 * PSTAT_LIBMICROHTTPD names the file to load instead of the soname: a
 * test points it at a file that does not exist.
 */
static int mhd_load(char *why, size_t len)
{
	const char *path = getenv("PSTAT_LIBMICROHTTPD");
	const char *e;

	if (mhd.handle)
		return 0;
	if (!path || !*path)
		path = "libmicrohttpd.so.12";
	mhd.handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!mhd.handle) {
		e = dlerror();
		snprintf(why, len, "%s", e ? e : "cannot be loaded");
		return -1;
	}
	*(void **)&mhd.start_daemon = dlsym(mhd.handle, "MHD_start_daemon");
	*(void **)&mhd.stop_daemon = dlsym(mhd.handle, "MHD_stop_daemon");
	*(void **)&mhd.create_response_from_buffer =
		dlsym(mhd.handle, "MHD_create_response_from_buffer");
	*(void **)&mhd.add_response_header =
		dlsym(mhd.handle, "MHD_add_response_header");
	*(void **)&mhd.queue_response = dlsym(mhd.handle, "MHD_queue_response");
	*(void **)&mhd.destroy_response =
		dlsym(mhd.handle, "MHD_destroy_response");
	*(void **)&mhd.lookup_connection_value =
		dlsym(mhd.handle, "MHD_lookup_connection_value");
	if (!mhd.start_daemon || !mhd.stop_daemon ||
	    !mhd.create_response_from_buffer || !mhd.add_response_header ||
	    !mhd.queue_response || !mhd.destroy_response ||
	    !mhd.lookup_connection_value) {
		snprintf(why, len, "%s lacks libmicrohttpd's functions", path);
		dlclose(mhd.handle);
		mhd.handle = NULL;
		return -1;
	}
	return 0;
}

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

bool serve_wants_openmetrics(const char *accept)
{
	double om = 0, text = 0;
	const char *p = accept;

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
		if (tlen == 28 && !strncasecmp(p, "application/openmetrics-text",
					       tlen))
			om = q > om ? q : om;
		else if ((tlen == 10 && !strncasecmp(p, "text/plain", tlen)) ||
			 (tlen == 6 && !strncasecmp(p, "text/*", tlen)) ||
			 (tlen == 3 && !strncmp(p, "*/*", tlen)))
			text = q > text ? q : text;
		p = comma ? comma + 1 : NULL;
	}
	return om > 0 && om >= text;
}

static enum MHD_Result respond(struct MHD_Connection *c, unsigned int status,
			       const char *type, const char *body, size_t len,
			       const char *hname, const char *hvalue)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = mhd.create_response_from_buffer(len, (void *)body,
					    MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (hname)
		mhd.add_response_header(r, hname, hvalue);
	ret = mhd.queue_response(c, status, r);
	mhd.destroy_response(r);
	return ret;
}

static enum MHD_Result respond_text(struct MHD_Connection *c,
				    unsigned int status, const char *body,
				    const char *hname, const char *hvalue)
{
	return respond(c, status, "text/plain; charset=utf-8", body,
		       strlen(body), hname, hvalue);
}

/* GET /metrics: the latest exposition, in the format the client asked. */
static enum MHD_Result respond_metrics(struct serve_http *h,
				       struct MHD_Connection *c)
{
	const char *accept = mhd.lookup_connection_value(c, MHD_HEADER_KIND,
							 "Accept");
	bool om = serve_wants_openmetrics(accept);
	enum MHD_Result ret;

	pthread_mutex_lock(&h->lock);
	if (!h->om) {
		pthread_mutex_unlock(&h->lock);
		return respond_text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
				    "the counters have not been read yet\n",
				    MHD_HTTP_HEADER_RETRY_AFTER, "1");
	}
	ret = respond(c, MHD_HTTP_OK, om ? CT_OPENMETRICS : CT_TEXT,
		      om ? h->om : h->text, om ? h->om_len : h->text_len,
		      MHD_HTTP_HEADER_VARY, "Accept");
	pthread_mutex_unlock(&h->lock);
	return ret;
}

/*
 * Each request. libmicrohttpd calls this first when the headers are in,
 * then again for the body, if any, and once more at its end: answering
 * at the first call would close the connection (it cannot tell whether
 * a body follows), so a GET is answered at the second, and the
 * connection kept for the next scrape (HEAD too). A request with a body (a POST)
 * is answered at once: libmicrohttpd then discards the body and closes.
 */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **req_cls)
{
	static int seen;
	struct serve_http *h = cls;

	if (!*req_cls && (!strcmp(method, "GET") || !strcmp(method, "HEAD"))) {
		*req_cls = &seen;
		return MHD_YES;
	}
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return respond_text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
				    "method not allowed\n",
				    MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	if (!strcmp(url, "/metrics"))
		return respond_metrics(h, c);
	if (!strcmp(url, "/"))
		return respond(c, MHD_HTTP_OK, "text/html; charset=utf-8",
			       page, sizeof(page) - 1, NULL, NULL);
	return respond_text(c, MHD_HTTP_NOT_FOUND, "not found\n", NULL,
			    NULL);
}

int serve_http_start(struct serve_http **out, int fd, char *why,
		     size_t len)
{
	struct serve_http *h;
	sigset_t all, old;

	if (mhd_load(why, len)) {
		close(fd);
		return -ENOENT;
	}
	h = xcalloc(1, sizeof(*h));
	pthread_mutex_init(&h->lock, NULL);
	/*
	 * The daemon's threads take no signals: SIGTERM, SIGINT and
	 * SIGCHLD are the counting loop's, which waits for them.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	h->daemon = mhd.start_daemon(
		MHD_USE_AUTO_INTERNAL_THREAD, 0, NULL,
		NULL, on_request, h, MHD_OPTION_LISTEN_SOCKET, fd,
		MHD_OPTION_CONNECTION_TIMEOUT, 10u,
		MHD_OPTION_CONNECTION_LIMIT, 512u, MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->daemon) {
		close(fd);
		snprintf(why, len, "libmicrohttpd could not start");
		pthread_mutex_destroy(&h->lock);
		free(h);
		return -EIO;
	}
	*out = h;
	return 0;
}

void serve_http_publish(struct serve_http *h, char *om, size_t om_len,
			char *text, size_t text_len)
{
	char *old_om, *old_text;

	pthread_mutex_lock(&h->lock);
	old_om = h->om;
	old_text = h->text;
	h->om = om;
	h->om_len = om_len;
	h->text = text;
	h->text_len = text_len;
	pthread_mutex_unlock(&h->lock);
	free(old_om);
	free(old_text);
}

void serve_http_stop(struct serve_http *h)
{
	if (!h)
		return;
	mhd.stop_daemon(h->daemon);
	pthread_mutex_destroy(&h->lock);
	free(h->om);
	free(h->text);
	free(h);
}
