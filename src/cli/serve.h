/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_SERVE_H
#define PSTAT_SERVE_H

#include <stdio.h>

/*
 * `pstat serve`, the Prometheus exporter (serve.c): main.c parses its
 * options here, runs the ordinary session with the printer made here,
 * and maps its status.
 */
#define SERVE_DEFAULT_LISTEN "127.0.0.1:9456"

struct pstat_opts;
struct pstat_printer;
struct serve;

/*
 * Parse `pstat serve`'s argv (argv[0] "serve") into o, as options_parse
 * would the same counting options, with -a and -I 1000 unless a target
 * or an interval was given, and *out (new) with the rest. Returns 0, 1
 * when --help was printed, or -1 after a usage error (said).
 */
int serve_options_parse(int argc, char **argv, struct pstat_opts *o,
			struct serve **out);

/*
 * Listen where --listen says and start answering (with an exposition of
 * no counters until the first interval). Says where it listens on
 * stderr. Returns 0, or -1 after saying why.
 */
int serve_start(struct serve *s);

/*
 * The session's printer: each interval's rows go into s's running
 * totals, published to the scrapers. s is borrowed; out (for the
 * session's flushes) too.
 */
struct pstat_printer *serve_printer_new(struct serve *s, FILE *out);

/*
 * pstat's status for the session's: 0 for SIGTERM and SIGINT. When the
 * processes of -p have all exited, it first goes on answering with their
 * last totals until SIGTERM, SIGINT or the end of --timeout (then 0).
 */
int serve_finish(struct serve *s, int status);

/* Stop answering and free s. NULL is fine. */
void serve_free(struct serve *s);

#endif
