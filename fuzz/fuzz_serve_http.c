/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the request path of `pstat serve`. Each input is
 * sent, as it is, down a TCP connection on 127.0.0.1 to a running
 * serve_http (libmicrohttpd with pstat's handlers, limits and watchdog),
 * the writing side shut, and what is answered read until the server
 * closes. The first byte picks the server: even, open; odd, one
 * that asks for a password (basic_auth_users, bcrypt at the lowest
 * cost). Every 64 inputs a new exposition is published, so that
 * renderings are retired while connections may hold them.
 *
 * The same bytes also go through the pure parts directly: the Accept and
 * Accept-Encoding negotiation and the path unescaping.
 *
 * An answer, when there is one, must be HTTP/1.x; the server must close
 * within 5 s of the request's end (a hang is a finding).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli/serve_http.h"
#include "cli/serve_web.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char config[] =
	"basic_auth_users:\n"
	"  alice: $2y$04$abcdefghijklmnopqrstuuLZYjhNQAOdpbzt4WxWlUHjv1wsyH5DG\n";

static struct server {
	struct serve_http *h;
	struct serve_web *web;
	uint16_t port;
} servers[2];

static unsigned long inputs;

static char *dup_text(const char *s, size_t *len)
{
	*len = strlen(s);
	return strdup(s);
}

static void publish(struct serve_http *h, unsigned long n)
{
	char om[128], text[128];
	size_t om_len, text_len;

	snprintf(om, sizeof(om),
		 "# TYPE x counter\nx_total %lu\n# EOF\n", n);
	snprintf(text, sizeof(text), "# TYPE x_total counter\nx_total %lu\n", n);
	serve_http_publish(h, dup_text(om, &om_len), om_len,
			   dup_text(text, &text_len), text_len);
}

static void start(struct server *s, int auth)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	struct serve_http_cfg cfg = { 0 };
	char why[256];
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(fd, 128) || getsockname(fd, (struct sockaddr *)&sa, &len))
		abort();
	if (auth && serve_web_parse(config, sizeof(config) - 1, NULL, &s->web,
				    why, sizeof(why))) {
		fprintf(stderr, "fuzz_serve_http: %s\n", why);
		abort();
	}
	cfg.fd = fd;
	cfg.web = s->web;
	if (serve_http_start(&s->h, &cfg, why, sizeof(why))) {
		fprintf(stderr, "fuzz_serve_http: %s\n", why);
		abort();
	}
	s->port = ntohs(sa.sin_port);
	publish(s->h, 0);
}

/*
 * From 127.0.0.2 to 127.0.0.251 in turn: the server closes first, and
 * its TIME_WAIT would soon use up one source address's ports.
 */
static int connect_to(uint16_t port)
{
	struct sockaddr_in src = { .sin_family = AF_INET }, dst = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	src.sin_addr.s_addr = htonl(0x7f000002u + (uint32_t)(inputs % 250));
	if (fd < 0)
		abort();
	if (bind(fd, (struct sockaddr *)&src, sizeof(src)) ||
	    connect(fd, (struct sockaddr *)&dst, sizeof(dst))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Send all of data (the server may close early: then stop). */
static void send_all(int fd, const uint8_t *data, size_t size)
{
	while (size) {
		ssize_t n = send(fd, data, size, MSG_NOSIGNAL);

		if (n <= 0)
			return;
		data += n;
		size -= (size_t)n;
	}
}

/*
 * Read what the server answers until it closes: with the request's end
 * seen, it has nothing to wait for. 5 s without the close is a hang.
 */
static void read_answer(int fd)
{
	char buf[8192], head[8];
	size_t got = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 5000) != 1) {
			fprintf(stderr, "fuzz_serve_http: no close within 5 s of the request's end\n");
			abort();
		}
		n = recv(fd, buf, sizeof(buf), 0);
		if (n <= 0)
			break;
		if (got < sizeof(head)) {
			size_t k = (size_t)n < sizeof(head) - got ?
					   (size_t)n :
					   sizeof(head) - got;

			memcpy(head + got, buf, k);
			got += k;
		}
	}
	if (got >= 7 && memcmp(head, "HTTP/1.", 7)) {
		fprintf(stderr, "fuzz_serve_http: an answer not HTTP/1.x\n");
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct server *s;
	char *text;
	int fd;

	if (!size || size > 65536)
		return 0;
	if (!servers[0].h) {
		signal(SIGPIPE, SIG_IGN);
		start(&servers[0], 0);
		start(&servers[1], 1);
	}
	s = &servers[data[0] & 1];
	inputs++;
	if (inputs % 64 == 0)
		publish(s->h, inputs);

	/* the pure parts, on the bytes as a string */
	text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	serve_wants_openmetrics(text);
	serve_wants_gzip(text);
	serve_unescape(text);
	free(text);

	fd = connect_to(s->port);
	if (fd < 0)
		return 0;
	send_all(fd, data + 1, size - 1);
	shutdown(fd, SHUT_WR);
	read_answer(fd);
	/* a reset: no TIME_WAIT left on this side */
	setsockopt(fd, SOL_SOCKET, SO_LINGER, &(struct linger){ 1, 0 },
		   sizeof(struct linger));
	close(fd);
	return 0;
}
