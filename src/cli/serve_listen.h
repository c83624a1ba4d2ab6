/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_SERVE_LISTEN_H
#define PSTAT_SERVE_LISTEN_H

/*
 * A listening socket where spec (--listen) says: ADDR:PORT,
 * [ADDR6]:PORT, HOST:PORT, or :PORT for every address (IPv6 and IPv4).
 * The port is decimal, 0 to 65535 (0: the kernel picks). Under AT_SECURE
 * a privileged port is refused unless the real user is root. Sets *every
 * when the socket answers every address. Returns the socket, or -1
 * after saying why.
 */
int serve_listen(const char *spec, int *every);

/* Whether the listening socket fd is bound to every address. */
int serve_listens_everywhere(int fd);

/*
 * Say where fd really listens ("pstat: serving
 * http://127.0.0.1:9456/metrics", https with tls).
 */
void serve_say_where(int fd, int tls);

#endif
