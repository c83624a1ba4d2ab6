/* SPDX-License-Identifier: MIT */
/*
 * The HTTP side of `pstat serve`, through libmicrohttpd: the only file
 * that includes <microhttpd.h>.
 *
 * libmicrohttpd is loaded with dlopen when serve starts rather than
 * linked, so that a plain `pstat` run does not pay for loading it (and
 * does not need it installed). Its thread answers every request from the
 * latest exposition the counting loop published: a scrape never waits
 * for the counters to be read.
 *
 * Memory: an exposition is rendered once per interval into a "rendering"
 * whose libmicrohttpd responses every connection shares (they count
 * their references; nothing is copied per request), gzip'd once when a
 * client first asks for that: not when it is published, since
 * Prometheus scrapes far less often than serve reads (15 s against 1 s
 * by default), and a 4 MB exposition takes some 25 ms to compress. A client that never reads keeps the
 * rendering it was answered from alive, so at most SERVE_OLD_RENDERINGS
 * older ones are kept: the connections still on an older one are closed.
 * What is left per connection is libmicrohttpd's own bounded buffer.
 *
 * Time: libmicrohttpd's timeout is of idleness only, which a client
 * sending a byte now and then never reaches; a watchdog thread here
 * closes (shutdown(2), for libmicrohttpd to notice) each connection whose
 * request has not arrived in full SERVE_REQUEST_SECONDS after it began
 * waiting for one.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "cli/serve_gzip.h"
#include "cli/serve_http.h"
#include "cli/serve_web.h"
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
	struct MHD_Response *(*create_response_free_cls)(
		size_t, void *, MHD_ContentReaderFreeCallback, void *);
	enum MHD_Result (*add_response_header)(struct MHD_Response *,
					       const char *, const char *);
	enum MHD_Result (*queue_response)(struct MHD_Connection *,
					  unsigned int,
					  struct MHD_Response *);
	void (*destroy_response)(struct MHD_Response *);
	const char *(*lookup_connection_value)(struct MHD_Connection *,
					       enum MHD_ValueKind,
					       const char *);
	const union MHD_ConnectionInfo *(*get_connection_info)(
		struct MHD_Connection *, enum MHD_ConnectionInfoType, ...);
	enum MHD_Result (*is_feature_supported)(enum MHD_FEATURE);
	char *(*basic_auth_get)(struct MHD_Connection *, char **);
	enum MHD_Result (*basic_auth_fail)(struct MHD_Connection *,
					   const char *,
					   struct MHD_Response *);
	void (*free)(void *);
} mhd;

/* A format's index in a rendering, and an encoding's. */
enum { FMT_TEXT, FMT_OM };
enum { ENC_IDENTITY, ENC_GZIP };

/*
 * One exposition in both formats, and its responses. It lives while
 * libmicrohttpd holds any of its responses (live), and is current until
 * the next is published.
 */
struct rendering {
	struct serve_http *h;
	struct rendering *next;      /* h's list of them, newest first */
	char *body[2][2];
	size_t len[2][2];
	struct MHD_Response *resp[2][2];
	unsigned live;              /* responses not yet freed */
	unsigned pins;              /* connections being answered from it */
	int gzip_tried[2];
	int current;
};

/* A connection: libmicrohttpd's socket context. */
struct conn {
	struct conn *prev, *next;
	int fd;
	uint64_t deadline;          /* for its request to arrive (ms); 0: none */
	struct rendering *serving;  /* the rendering it is being sent */
};

struct serve_http {
	struct MHD_Daemon *daemon;
	struct serve_web *web;
	pthread_mutex_t lock;       /* everything below */
	struct rendering *renderings;
	struct conn *conns;
	unsigned int nconns, max_conns;
	rlim_t fd_limit;
	pthread_t watchdog;
	pthread_cond_t wake;
	int stopping, have_watchdog;
};

static const char page[] =
	"<!DOCTYPE html>\n<html><head><title>pstat</title></head><body>\n"
	"<h1>pstat</h1>\n<p>Counters of this machine, for Prometheus: "
	"<a href=\"/metrics\">/metrics</a></p>\n</body></html>\n";

#define SYM(field, name) { (void **)&mhd.field, name }

/*
 * PSTAT_LIBMICROHTTPD names the file to load instead of the soname: a
 * test points it at a file that does not exist.
 */
static int mhd_load(char *why, size_t len)
{
	const struct {
		void **p;
		const char *name;
	} syms[] = {
		SYM(start_daemon, "MHD_start_daemon"),
		SYM(stop_daemon, "MHD_stop_daemon"),
		SYM(create_response_from_buffer,
		    "MHD_create_response_from_buffer"),
		SYM(create_response_free_cls,
		    "MHD_create_response_from_buffer_with_free_callback_cls"),
		SYM(add_response_header, "MHD_add_response_header"),
		SYM(queue_response, "MHD_queue_response"),
		SYM(destroy_response, "MHD_destroy_response"),
		SYM(lookup_connection_value, "MHD_lookup_connection_value"),
		SYM(get_connection_info, "MHD_get_connection_info"),
		SYM(is_feature_supported, "MHD_is_feature_supported"),
		SYM(basic_auth_get, "MHD_basic_auth_get_username_password"),
		SYM(basic_auth_fail, "MHD_queue_basic_auth_fail_response"),
		SYM(free, "MHD_free"),
	};
	const char *path = getenv("PSTAT_LIBMICROHTTPD");
	const char *e;
	size_t i;

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
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		*syms[i].p = dlsym(mhd.handle, syms[i].name);
		if (*syms[i].p)
			continue;
		/* 0.9.73 and later have all of them */
		snprintf(why, len, "%s lacks %s (libmicrohttpd 0.9.73 or later needed)",
			 path, syms[i].name);
		dlclose(mhd.handle);
		memset(&mhd, 0, sizeof(mhd));
		return -1;
	}
	return 0;
}

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static struct conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		mhd.get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

/*
 * Under h->lock: free r when nothing holds it any more: not current, no
 * response of it alive in libmicrohttpd, no connection being sent it
 * (whichever of these libmicrohttpd lets go of last).
 */
static void rendering_gc(struct serve_http *h, struct rendering *r)
{
	struct rendering **pp;
	int f, e;

	if (r->current || r->live || r->pins)
		return;
	for (pp = &h->renderings; *pp; pp = &(*pp)->next)
		if (*pp == r) {
			*pp = r->next;
			break;
		}
	for (f = 0; f < 2; f++)
		for (e = 0; e < 2; e++)
			free(r->body[f][e]);
	free(r);
}

/* Under h->lock: c is not (or no longer) answered from a rendering. */
static void conn_unpin(struct serve_http *h, struct conn *c)
{
	struct rendering *r = c->serving;

	c->serving = NULL;
	if (r) {
		r->pins--;
		rendering_gc(h, r);
	}
}

/*
 * A connection starts or ends. One too close to the descriptor limit is
 * closed at once: a server whose accept(2) fails for want of descriptors
 * stops answering until a connection ends (libmicrohttpd waits for one
 * to time out), and the counters need their descriptors too.
 */
static void on_connection(void *cls, struct MHD_Connection *mc,
			  void **ctx, enum MHD_ConnectionNotificationCode what)
{
	struct serve_http *h = cls;
	struct conn *c = *ctx;
	const union MHD_ConnectionInfo *ci;

	pthread_mutex_lock(&h->lock);
	if (what == MHD_CONNECTION_NOTIFY_STARTED) {
		c = xcalloc(1, sizeof(*c));
		ci = mhd.get_connection_info(mc, MHD_CONNECTION_INFO_CONNECTION_FD);
		c->fd = ci ? ci->connect_fd : -1;
		c->deadline = mono_ms() + SERVE_REQUEST_SECONDS * 1000;
		c->next = h->conns;
		if (h->conns)
			h->conns->prev = c;
		h->conns = c;
		*ctx = c;
		if (++h->nconns > h->max_conns ||
		    (c->fd >= 0 && h->fd_limit != RLIM_INFINITY &&
		     (rlim_t)c->fd + SERVE_FD_RESERVE >= h->fd_limit)) {
			shutdown(c->fd, SHUT_RDWR);
			c->deadline = 0;
		}
	} else if (c) {
		conn_unpin(h, c);
		h->nconns--;
		if (c->prev)
			c->prev->next = c->next;
		else
			h->conns = c->next;
		if (c->next)
			c->next->prev = c->prev;
		free(c);
		*ctx = NULL;
	}
	pthread_mutex_unlock(&h->lock);
}

/* A request is answered (or abandoned): the next one's time starts. */
static void on_completed(void *cls, struct MHD_Connection *mc, void **req,
			 enum MHD_RequestTerminationCode why)
{
	struct serve_http *h = cls;
	struct conn *c = conn_of(mc);

	if (!c)
		return;
	pthread_mutex_lock(&h->lock);
	conn_unpin(h, c);
	c->deadline = mono_ms() + SERVE_REQUEST_SECONDS * 1000;
	pthread_mutex_unlock(&h->lock);
}

/* Close the connections whose request is late; four times a second. */
static void *watchdog(void *arg)
{
	struct serve_http *h = arg;
	struct timespec ts;

	pthread_mutex_lock(&h->lock);
	while (!h->stopping) {
		uint64_t now = mono_ms();
		struct conn *c;

		for (c = h->conns; c; c = c->next) {
			if (!c->deadline || now < c->deadline || c->fd < 0)
				continue;
			shutdown(c->fd, SHUT_RDWR);
			c->deadline = 0;
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 250000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&h->wake, &h->lock, &ts);
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

/* Under h->lock: r is no longer current. */
static void rendering_retire(struct rendering *r,
			     struct MHD_Response *drop[4])
{
	int f, e;

	r->current = 0;
	for (f = 0; f < 2; f++)
		for (e = 0; e < 2; e++) {
			drop[f * 2 + e] = r->resp[f][e];
			r->resp[f][e] = NULL;
		}
}

/*
 * libmicrohttpd freed one of r's responses (the last connection that
 * held it is done): r goes with its last.
 */
static void rendering_release(void *cls)
{
	struct rendering *r = cls;
	struct serve_http *h = r->h;

	pthread_mutex_lock(&h->lock);
	r->live--;
	rendering_gc(h, r);
	pthread_mutex_unlock(&h->lock);
}

/* Under h->lock (or before r is published): r's response for f and e. */
static int rendering_respond(struct rendering *r, int f, int e)
{
	struct MHD_Response *resp;

	resp = mhd.create_response_free_cls(r->len[f][e], r->body[f][e],
					    rendering_release, r);
	if (!resp)
		return -ENOMEM;
	r->live++;
	mhd.add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
				f == FMT_OM ? CT_OPENMETRICS : CT_TEXT);
	mhd.add_response_header(resp, MHD_HTTP_HEADER_VARY,
				"Accept, Accept-Encoding");
	if (e == ENC_GZIP)
		mhd.add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING,
					"gzip");
	r->resp[f][e] = resp;
	return 0;
}

/*
 * r's gzip'd response for f, made the first time it is asked for; NULL
 * when it cannot be (no zlib): the identity then. Under h->lock.
 */
static struct MHD_Response *rendering_gzip(struct rendering *r, int f)
{
	if (r->resp[f][ENC_GZIP] || r->gzip_tried[f])
		return r->resp[f][ENC_GZIP];
	r->gzip_tried[f] = 1;
	r->body[f][ENC_GZIP] = serve_gzip(r->body[f][ENC_IDENTITY],
					  r->len[f][ENC_IDENTITY],
					  &r->len[f][ENC_GZIP]);
	if (r->body[f][ENC_GZIP] && rendering_respond(r, f, ENC_GZIP)) {
		free(r->body[f][ENC_GZIP]);
		r->body[f][ENC_GZIP] = NULL;
	}
	return r->resp[f][ENC_GZIP];
}

static enum MHD_Result respond(struct MHD_Connection *c, unsigned int status,
			       const char *type, const char *body, size_t len,
			       const char *hname, const char *hvalue)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	/* bodies here are constants: nothing to copy */
	r = mhd.create_response_from_buffer(len, (void *)body,
					    MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (hname)
		mhd.add_response_header(r, hname, hvalue);
	if (status == MHD_HTTP_UNAUTHORIZED)
		ret = mhd.basic_auth_fail(c, "pstat", r);
	else
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

/* GET /metrics: the latest exposition, as the client asked. */
static enum MHD_Result respond_metrics(struct serve_http *h,
				       struct MHD_Connection *c)
{
	const char *accept = mhd.lookup_connection_value(c, MHD_HEADER_KIND,
							 "Accept");
	const char *ae = mhd.lookup_connection_value(c, MHD_HEADER_KIND,
						     "Accept-Encoding");
	int f = serve_wants_openmetrics(accept) ? FMT_OM : FMT_TEXT;
	int gz = serve_wants_gzip(ae);
	struct conn *cn = conn_of(c);
	struct rendering *r;
	struct MHD_Response *resp = NULL;
	enum MHD_Result ret;

	pthread_mutex_lock(&h->lock);
	r = h->renderings && h->renderings->current ? h->renderings : NULL;
	if (!r) {
		pthread_mutex_unlock(&h->lock);
		return respond_text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
				    "the counters have not been read yet\n",
				    MHD_HTTP_HEADER_RETRY_AFTER, "1");
	}
	if (gz)
		resp = rendering_gzip(r, f);
	if (!resp)
		resp = r->resp[f][ENC_IDENTITY];
	ret = mhd.queue_response(c, MHD_HTTP_OK, resp);
	if (ret == MHD_YES && cn) {
		conn_unpin(h, cn);
		cn->serving = r;
		r->pins++;
	}
	pthread_mutex_unlock(&h->lock);
	return ret;
}

/* Whether the request carries one of the users' names and passwords. */
static int authorized(struct serve_http *h, struct MHD_Connection *c)
{
	char *user, *pass = NULL;
	int ok;

	if (!h->web || !h->web->nusers)
		return 1;
	user = mhd.basic_auth_get(c, &pass);
	ok = user && serve_web_check(h->web, user, pass);
	mhd.free(user);
	mhd.free(pass);
	return ok;
}

/*
 * Each request. libmicrohttpd calls this first when the headers are in,
 * then again for each piece of a body, if any, and once more at its end:
 * answering at the first call would close the connection (it cannot
 * tell whether a body follows), so a GET is answered at the last, and
 * the connection kept for the next scrape (HEAD too). A body (a GET may
 * have one, chunked too) is read and dropped; only then, after
 * "100 Continue" where the client expects it, is the answer sent. Any
 * other method is answered at once: libmicrohttpd then discards the
 * body and closes.
 */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **req_cls)
{
	static int seen;
	struct serve_http *h = cls;
	struct conn *cn;

	if (!*req_cls && (!strcmp(method, "GET") || !strcmp(method, "HEAD"))) {
		*req_cls = &seen;
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	/* arrived in full: from now on only the idle timeout applies */
	cn = conn_of(c);
	if (cn) {
		pthread_mutex_lock(&h->lock);
		cn->deadline = 0;
		pthread_mutex_unlock(&h->lock);
	}
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return respond_text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
				    "method not allowed\n",
				    MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	if (!authorized(h, c))
		return respond_text(c, MHD_HTTP_UNAUTHORIZED,
				    "unauthorized\n", NULL, NULL);
	if (!strcmp(url, "/metrics"))
		return respond_metrics(h, c);
	if (!strcmp(url, "/"))
		return respond(c, MHD_HTTP_OK, "text/html; charset=utf-8",
			       page, sizeof(page) - 1, NULL, NULL);
	return respond_text(c, MHD_HTTP_NOT_FOUND, "not found\n", NULL,
			    NULL);
}

static size_t on_unescape(void *cls, struct MHD_Connection *c, char *s)
{
	return serve_unescape(s);
}

/*
 * The connection limit: SERVE_MAX_CONNECTIONS, or the descriptor limit
 * less SERVE_FD_RESERVE where that is fewer.
 */
static unsigned int connection_limit(rlim_t limit)
{
	if (limit == RLIM_INFINITY ||
	    limit >= SERVE_MAX_CONNECTIONS + SERVE_FD_RESERVE)
		return SERVE_MAX_CONNECTIONS;
	return limit > 3 * SERVE_FD_RESERVE / 2 ?
		       (unsigned int)(limit - SERVE_FD_RESERVE) :
		       SERVE_FD_RESERVE / 2;
}

int serve_http_start(struct serve_http **out,
		     const struct serve_http_cfg *cfg, char *why, size_t len)
{
	struct serve_http *h;
	struct serve_web *web = cfg->web;
	int tls = web && web->cert;
	unsigned int flags = MHD_USE_POLL_INTERNAL_THREAD;
	struct rlimit rl;
	pthread_condattr_t ca;
	sigset_t all, old;
	struct MHD_OptionItem no_opts[] = { { MHD_OPTION_END, 0, NULL } };
	struct MHD_OptionItem tls_opts[] = {
		{ MHD_OPTION_HTTPS_MEM_KEY, 0, web ? web->key : NULL },
		{ MHD_OPTION_HTTPS_MEM_CERT, 0, web ? web->cert : NULL },
		{ MHD_OPTION_END, 0, NULL },
	};

	if (mhd_load(why, len)) {
		close(cfg->fd);
		return -ENOENT;
	}
	if (tls && mhd.is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		close(cfg->fd);
		snprintf(why, len, "this libmicrohttpd was built without TLS");
		return -ENOTSUP;
	}
	h = xcalloc(1, sizeof(*h));
	h->web = web;
	pthread_mutex_init(&h->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->wake, &ca);
	pthread_condattr_destroy(&ca);
	h->fd_limit = getrlimit(RLIMIT_NOFILE, &rl) ? RLIM_INFINITY
						      : rl.rlim_cur;
	/*
	 * A connection past the limit is closed here at once: at its own
	 * limit libmicrohttpd stops accepting, and the client waits unanswered
	 * in the backlog until a connection ends. Its limit is above ours,
	 * for the moment those closed here still take.
	 */
	h->max_conns = connection_limit(h->fd_limit);
	/*
	 * poll(2), not libmicrohttpd's default of edge-triggered epoll, with
	 * which (0.9.75) a request and the client's FIN read in one go leave
	 * the end of the stream unseen: the connection then waits out its
	 * timeout. 512 descriptors are nothing to poll.
	 */
	if (tls)
		flags |= MHD_USE_TLS;
	/*
	 * The daemon's threads take no signals: SIGTERM, SIGINT and
	 * SIGCHLD are the counting loop's, which waits for them.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	h->have_watchdog = !pthread_create(&h->watchdog, NULL, watchdog, h);
	h->daemon = mhd.start_daemon(
		flags, 0, NULL, NULL, on_request, h,
		MHD_OPTION_LISTEN_SOCKET, cfg->fd,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)SERVE_REQUEST_SECONDS,
		MHD_OPTION_CONNECTION_LIMIT, h->max_conns + SERVE_FD_RESERVE,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT,
		(unsigned int)SERVE_MAX_PER_CLIENT,
		MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
		MHD_OPTION_UNESCAPE_CALLBACK, on_unescape, h,
		MHD_OPTION_ARRAY, tls ? tls_opts : no_opts, MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->daemon) {
		close(cfg->fd);
		snprintf(why, len, tls ? "libmicrohttpd could not start (is the key the certificate's?)"
				       : "libmicrohttpd could not start");
		h->daemon = NULL;
		serve_http_stop(h);
		return -EIO;
	}
	*out = h;
	return 0;
}

void serve_http_publish(struct serve_http *h, char *om, size_t om_len,
			char *text, size_t text_len)
{
	struct rendering *r = xcalloc(1, sizeof(*r)), *old, *p;
	struct MHD_Response *drop[4] = { NULL };
	unsigned int kept = 0;
	int f;

	r->h = h;
	r->current = 1;
	r->body[FMT_OM][ENC_IDENTITY] = om;
	r->len[FMT_OM][ENC_IDENTITY] = om_len;
	r->body[FMT_TEXT][ENC_IDENTITY] = text;
	r->len[FMT_TEXT][ENC_IDENTITY] = text_len;
	for (f = 0; f < 2; f++)
		if (rendering_respond(r, f, ENC_IDENTITY)) {
			/* out of memory: the last exposition stays */
			r->current = 0;
			if (r->resp[FMT_TEXT][ENC_IDENTITY]) {
				/* its release frees the rest */
				mhd.destroy_response(r->resp[FMT_TEXT][ENC_IDENTITY]);
				return;
			}
			free(om);
			free(text);
			free(r);
			return;
		}
	pthread_mutex_lock(&h->lock);
	old = h->renderings && h->renderings->current ? h->renderings : NULL;
	if (old)
		rendering_retire(old, drop);
	r->next = h->renderings;
	h->renderings = r;
	/* too many kept alive by slow readers: close theirs */
	for (p = r->next; p; p = p->next) {
		struct conn *c;

		if (++kept <= SERVE_OLD_RENDERINGS || !p->pins)
			continue;
		for (c = h->conns; c; c = c->next)
			if (c->serving == p && c->fd >= 0)
				shutdown(c->fd, SHUT_RDWR);
	}
	pthread_mutex_unlock(&h->lock);
	for (f = 0; f < 4; f++)
		if (drop[f])
			mhd.destroy_response(drop[f]);
}

void serve_http_stop(struct serve_http *h)
{
	struct MHD_Response *drop[4] = { NULL };
	int f;

	if (!h)
		return;
	if (h->daemon)
		mhd.stop_daemon(h->daemon);
	pthread_mutex_lock(&h->lock);
	h->stopping = 1;
	pthread_cond_signal(&h->wake);
	pthread_mutex_unlock(&h->lock);
	if (h->have_watchdog)
		pthread_join(h->watchdog, NULL);
	if (h->renderings && h->renderings->current)
		rendering_retire(h->renderings, drop);
	/* the daemon is gone: these were the last references */
	for (f = 0; f < 4; f++)
		if (drop[f])
			mhd.destroy_response(drop[f]);
	pthread_cond_destroy(&h->wake);
	pthread_mutex_destroy(&h->lock);
	free(h);
}
