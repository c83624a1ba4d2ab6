/* SPDX-License-Identifier: MIT */
/*
 * Where `pstat serve` listens: --listen's ADDR:PORT, [ADDR6]:PORT,
 * HOST:PORT or :PORT (the Go exporters' spelling of every address) made
 * a listening socket.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/secure.h"
#include "base/util.h"
#include "cli/serve_listen.h"

/*
 * The lowest port anyone may bind (net.ipv4.ip_unprivileged_port_start,
 * 1024 unless the administrator lowered it).
 */
static unsigned int unprivileged_port_start(void)
{
	char *s = read_file_str("/proc/sys/net/ipv4/ip_unprivileged_port_start");
	uint64_t v = 1024;

	if (s && parse_u64_base(s, 10, 65536, &v))
		v = 1024;
	free(s);
	return (unsigned int)v;
}

static int bind_one(int family, const struct sockaddr *sa, socklen_t len,
		    int *err)
{
	int fd, one = 1, zero = 0;

	fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	/* a restart must not wait for the old connections to time out */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* [::] takes IPv4 too, whatever net.ipv6.bindv6only says */
	if (family == AF_INET6 &&
	    !memcmp(&((const struct sockaddr_in6 *)sa)->sin6_addr,
		    &in6addr_any, sizeof(in6addr_any)))
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (!bind(fd, sa, len) && !listen(fd, 128))
		return fd;
	*err = errno;
	close(fd);
	return -1;
}

/* Every address: [::] for IPv6 and IPv4, 0.0.0.0 without IPv6. */
static int listen_every(unsigned int port, int *err)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6,
				   .sin6_port = htons((uint16_t)port),
				   .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in s4 = { .sin_family = AF_INET,
				  .sin_port = htons((uint16_t)port),
				  .sin_addr.s_addr = htonl(INADDR_ANY) };
	int fd = bind_one(AF_INET6, (struct sockaddr *)&s6, sizeof(s6), err);

	if (fd < 0 && (*err == EAFNOSUPPORT || *err == EADDRNOTAVAIL))
		fd = bind_one(AF_INET, (struct sockaddr *)&s4, sizeof(s4), err);
	return fd;
}

int serve_listen(const char *spec, int *every)
{
	struct addrinfo hints = { 0 }, *ai = NULL, *a;
	const char *colon = strrchr(spec, ':');
	char *host = NULL;
	uint64_t port;
	int fd = -1, r, err = 0;

	*every = 0;
	if (!colon || !colon[1]) {
		msg_error("invalid --listen '%s': give ADDR:PORT or :PORT", spec);
		msg_hint("127.0.0.1:PORT answers this machine only, :PORT every address");
		return -1;
	}
	if (parse_u64_base(colon + 1, 10, 65535, &port)) {
		msg_error("invalid --listen '%s': the port is a number from 0 to 65535",
			  spec);
		return -1;
	}
	/*
	 * Set-user-ID or with file capabilities, pstat could bind what the
	 * user who ran it could not: a privileged port.
	 */
	if (secure_mode() && port && getuid() != 0 &&
	    port < unprivileged_port_start()) {
		msg_error("cannot listen on %s: port %u is privileged, and the user who ran pstat may not bind it",
			  spec, (unsigned int)port);
		msg_hint("pick a port from %u up", unprivileged_port_start());
		return -1;
	}
	if (colon == spec) {
		fd = listen_every((unsigned int)port, &err);
		goto out;
	}
	if (spec[0] == '[' && colon[-1] == ']' && colon - spec >= 2)
		host = xstrndup(spec + 1, (size_t)(colon - spec - 2));
	else
		host = xstrndup(spec, (size_t)(colon - spec));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	r = getaddrinfo(host, colon + 1, &hints, &ai);
	free(host);
	if (r) {
		msg_error("invalid --listen '%s': %s", spec,
			  r == EAI_SYSTEM ? strerror(errno) : gai_strerror(r));
		return -1;
	}
	for (a = ai; a && fd < 0; a = a->ai_next)
		fd = bind_one(a->ai_family, a->ai_addr, a->ai_addrlen, &err);
	freeaddrinfo(ai);
out:
	if (fd < 0) {
		msg_error("cannot listen on %s: %s", spec, strerror(err));
		return -1;
	}
	*every = serve_listens_everywhere(fd);
	return fd;
}

int serve_listens_everywhere(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len))
		return 0;
	if (ss.ss_family == AF_INET)
		return ((struct sockaddr_in *)&ss)->sin_addr.s_addr ==
		       htonl(INADDR_ANY);
	return ss.ss_family == AF_INET6 &&
	       !memcmp(&((struct sockaddr_in6 *)&ss)->sin6_addr, &in6addr_any,
		       sizeof(in6addr_any));
}

void serve_say_where(int fd, int tls)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char host[NI_MAXHOST], port[NI_MAXSERV];
	int v6;

	if (getsockname(fd, (struct sockaddr *)&ss, &len) ||
	    getnameinfo((struct sockaddr *)&ss, len, host, sizeof(host), port,
			sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV))
		return;
	v6 = ss.ss_family == AF_INET6;
	msg_debug(0, "serving http%s://%s%s%s:%s/metrics", tls ? "s" : "",
		  v6 ? "[" : "", host, v6 ? "]" : "", port);
}
