/* SPDX-License-Identifier: MIT */
/*
 * `pstat serve`: count continuously and answer Prometheus's scrapes.
 *
 * The counting is the ordinary session with intervals (-I, 1 s by
 * default) and no command; its printer here keeps running totals of the
 * interval rows (report/totals.h, so that counters never go backwards)
 * and after each interval renders them, with the interval's metric
 * values, in both exposition formats, which
 * the HTTP side (serve_http.c) hands out until the next ones. A scrape
 * thus never waits for the counters.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/options.h"
#include "cli/serve.h"
#include "cli/serve_http.h"
#include "cli/serve_listen.h"
#include "cli/serve_web.h"
#include "report/print.h"
#include "report/totals.h"
#include "run/session.h"

struct serve {
	const char *listen;         /* --listen, as given */
	const char *web_config;     /* --web.config.file, or NULL */
	struct serve_web *web;
	char **argv;                /* what options_parse read */
	int fd;                     /* the listening socket, until started */
	struct serve_http *http;
	struct pstat_totals *totals;
	int attached;               /* -p: the session ends with them */
	uint64_t timeout_ms;        /* --timeout, from serve_start */
	uint64_t started_ns;
};

static const char SERVE_USAGE[] =
	"usage: pstat serve [--listen ADDR:PORT] [--web.config.file FILE] [-e LIST [-G CGROUPS]]... [-a | -C LIST | -p PID] [-A] [--per-thread] [-I MS] [--timeout MS] [-M METRICS] [--metric NAME=EXPR]... [--metrics-file FILE]";

static void serve_help(void)
{
	printf("%s\n"
	       "\n"
	       "Count continuously and answer GET /metrics with the running totals,\n"
	       "and the metrics' values over the last interval, as OpenMetrics or\n"
	       "the Prometheus text format 0.0.4 (whichever the client's Accept\n"
	       "header prefers), for Prometheus to scrape.\n"
	       "\n"
	       "      --listen ADDR:PORT   where to answer (default " SERVE_DEFAULT_LISTEN ");\n"
	       "                           :PORT (or 0.0.0.0:PORT, [::]:PORT) for every\n"
	       "                           address\n"
	       "      --web.config.file FILE  TLS and basic authentication, in the\n"
	       "                           Prometheus exporters' web configuration format\n"
	       "  -e, --event LIST         events to count (repeatable)\n"
	       "  -G, --cgroup LIST        the events before it count only tasks in\n"
	       "                           these cgroups, in order\n"
	       "      --for-each-cgroup LIST  every event once per cgroup (names or\n"
	       "                           regular expressions)\n"
	       "  -M, --metrics LIST       metrics and metric groups of the built-in\n"
	       "                           library (pstat list metrics)\n"
	       "      --metric NAME=EXPR   a metric of your own (repeatable)\n"
	       "      --metrics-file FILE  metrics of your own, one a line\n"
	       "  -a, --all-cpus           count on every online CPU (the default)\n"
	       "  -C, --cpu LIST           count on these CPUs (0-3,5)\n"
	       "  -p, --pid PID[,PID...]   count these processes\n"
	       "  -A, --no-aggr            one series per CPU\n"
	       "      --per-thread         one series per thread (-p, or -a), labelled\n"
	       "                           comm and tid\n"
	       "  -I, --interval MS        read the counters every MS milliseconds\n"
	       "                           (default 1000)\n"
	       "      --timeout MS         stop after MS milliseconds\n"
	       "  -v, --verbose            say how events were resolved\n"
	       "  -h, --help               this help\n"
	       "\n"
	       "SIGTERM or SIGINT stops it, with status 0.\n",
	       SERVE_USAGE);
}

/* Sorted by long name. */
static const struct option serve_opts[] = {
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "cgroup", required_argument, NULL, 'G' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "event", required_argument, NULL, 'e' },
	{ "for-each-cgroup", required_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ "interval", required_argument, NULL, 'I' },
	{ "listen", required_argument, NULL, 'L' },
	{ "metric", required_argument, NULL, 'm' },
	{ "metrics", required_argument, NULL, 'M' },
	{ "metrics-file", required_argument, NULL, 'f' },
	{ "no-aggr", no_argument, NULL, 'A' },
	{ "per-thread", no_argument, NULL, 'T' },
	{ "pid", required_argument, NULL, 'p' },
	{ "timeout", required_argument, NULL, 'O' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "web.config.file", required_argument, NULL, 'W' },
	{ NULL, 0, NULL, 0 },
};

/* The option serve read, spelt for options_parse. */
static const char *serve_spelling(int c)
{
	switch (c) {
	case 'T':
		return "--per-thread";
	case 'O':
		return "--timeout";
	case 'a':
		return "-a";
	case 'A':
		return "-A";
	case 'C':
		return "-C";
	case 'e':
		return "-e";
	case 'F':
		return "--for-each-cgroup";
	case 'G':
		return "-G";
	case 'I':
		return "-I";
	case 'm':
		return "--metric";
	case 'M':
		return "-M";
	case 'f':
		return "--metrics-file";
	case 'p':
		return "-p";
	}
	return "-v";
}

int serve_options_parse(int argc, char **argv, struct pstat_opts *o,
			struct serve **out)
{
	struct serve *s = xcalloc(1, sizeof(*s));
	size_t n = 1;
	int c, r, target = 0, interval = 0;

	*out = NULL;
	/* the caller frees o whatever happens */
	memset(o, 0, sizeof(*o));
	s->fd = -1;
	s->listen = SERVE_DEFAULT_LISTEN;
	/* at most two words per option, "pstat", -I and -a of our own */
	s->argv = xcalloc((size_t)argc * 2 + 5, sizeof(*s->argv));
	s->argv[0] = (char *)"pstat";
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:aAC:e:G:hI:M:p:v", serve_opts,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			serve_help();
			serve_free(s);
			return 1;
		case 'L':
			s->listen = optarg;
			continue;
		case 'W':
			s->web_config = optarg;
			continue;
		case ':':
		case '?':
			msg_bad_option(c, optopt, argv[optind - 1],
				       "pstat serve", SERVE_USAGE);
			goto fail;
		case 'a':
		case 'C':
		case 'p':
			target = 1;
			break;
		case 'I':
			interval = 1;
			break;
		}
		s->argv[n++] = (char *)serve_spelling(c);
		if (optarg && c != 'a' && c != 'A' && c != 'T' && c != 'v')
			s->argv[n++] = optarg;
	}
	if (optind < argc) {
		msg_error("'pstat serve' runs no command: '%s'", argv[optind]);
		msg_hint("%s", SERVE_USAGE);
		goto fail;
	}
	/* a machine's counters, by default, every second */
	if (!target)
		s->argv[n++] = (char *)"-a";
	if (!interval) {
		s->argv[n++] = (char *)"-I";
		s->argv[n++] = (char *)"1000";
	}
	r = options_parse((int)n, s->argv, o);
	if (r) {
		options_free(o);
		serve_free(s);
		return r;
	}
	s->attached = o->pids != NULL;
	s->timeout_ms = o->timeout_ms;
	*out = s;
	return 0;
fail:
	serve_free(s);
	return -1;
}

/* Render rows in both formats and hand them to the HTTP side. */
static int serve_publish(struct serve *s, const struct pstat_row *rows,
			 size_t n, const struct pstat_metric_value *m,
			 size_t nm)
{
	char *om = NULL, *text = NULL;
	size_t om_len = 0, text_len = 0;
	FILE *f;
	int r = 0;

	f = open_memstream(&om, &om_len);
	if (!f)
		return -errno;
	r = openmetrics_write(f, OM_OPENMETRICS, rows, n, m, nm);
	if (fclose(f) && !r)
		r = -EIO;
	f = r ? NULL : open_memstream(&text, &text_len);
	if (!r && !f)
		r = -errno;
	if (f) {
		r = openmetrics_write(f, OM_PROMETHEUS, rows, n, m, nm);
		if (fclose(f) && !r)
			r = -EIO;
	}
	if (r) {
		free(om);
		free(text);
		return r;
	}
	serve_http_publish(s->http, om, om_len, text, text_len);
	return 0;
}

int serve_start(struct serve *s)
{
	struct serve_http_cfg cfg = { 0 };
	char why[512];
	int r, every;

	s->started_ns = now_ns();
	if (s->web_config &&
	    serve_web_load(s->web_config, &s->web, why, sizeof(why))) {
		msg_error("invalid --web.config.file '%s': %s", s->web_config,
			  why);
		return -1;
	}
	s->fd = serve_listen(s->listen, &every);
	if (s->fd < 0)
		return -1;
	if (every && !(s->web && s->web->nusers))
		msg_warn("listening on every address (%s): whoever can reach this machine can read its counters",
			 s->listen);
	if (s->web && s->web->nusers && !s->web->cert)
		msg_warn("basic authentication without TLS: passwords cross the network in clear");
	serve_say_where(s->fd, s->web && s->web->cert);
	cfg.fd = s->fd;
	cfg.web = s->web;
	r = serve_http_start(&s->http, &cfg, why, sizeof(why));
	s->fd = -1;
	if (r) {
		msg_error("cannot serve: %s", why);
		if (r == -ENOENT)
			msg_hint("install libmicrohttpd (Debian: libmicrohttpd12)");
		return -1;
	}
	/*
	 * Nothing is published until the first interval's reading: a scrape
	 * before it gets 503 with Retry-After, not an exposition that would
	 * pass for counts (the counters are not even open yet).
	 */
	s->totals = totals_new();
	return 0;
}

static void serve_interval(struct pstat_printer *p,
			   const struct pstat_report *r)
{
	struct serve *s = p->priv;
	const struct pstat_row *rows;
	size_t n;

	totals_add(s->totals, r->rows, r->nrows);
	rows = totals_rows(s->totals, &n);
	/* counts as running totals, metrics over the last interval */
	p->err = serve_publish(s, rows, n, r->metrics, r->nmetrics);
}

/* The summary at the end adds nothing: the last interval had it all. */
static void serve_summary(struct pstat_printer *p,
			  const struct pstat_report *r)
{
}

static const struct pstat_printer_ops serve_ops = {
	.summary = serve_summary,
	.interval = serve_interval,
};

struct pstat_printer *serve_printer_new(struct serve *s, FILE *out)
{
	struct pstat_printer *p = xcalloc(1, sizeof(*p));

	p->ops = &serve_ops;
	p->cfg.format = FORMAT_OPENMETRICS;
	p->out = out;
	p->priv = s;
	return p;
}

/*
 * The processes of -p are gone and the session with them: keep the last
 * totals on offer (Prometheus sees them stop growing, then go stale when
 * the exporter goes) until SIGTERM or SIGINT, or what is left of
 * --timeout.
 */
static int serve_linger(struct serve *s)
{
	uint64_t end = s->timeout_ms ? s->started_ns + s->timeout_ms * 1000000ull
				     : 0;
	sigset_t set;

	msg_debug(0, "the processes counted have exited: serving their last counts until SIGTERM");
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	for (;;) {
		uint64_t now = now_ns(), left = 3600ull * 1000000000ull;
		struct timespec ts;
		int sig;

		if (end && now >= end)
			return 0;
		if (end && end - now < left)
			left = end - now;
		ts.tv_sec = (time_t)(left / 1000000000ull);
		ts.tv_nsec = (long)(left % 1000000000ull);
		sig = sigtimedwait(&set, NULL, &ts);
		if (sig == SIGHUP)
			return 128 + SIGHUP;
		if (sig > 0)
			return 0;
	}
}

int serve_finish(struct serve *s, int status)
{
	/* stopped as asked: a service that ends well */
	if (status == 128 + SIGTERM || status == 128 + SIGINT)
		return 0;
	if (status == 0 && s->attached && s->http &&
	    (!s->timeout_ms ||
	     now_ns() - s->started_ns < s->timeout_ms * 1000000ull))
		return serve_linger(s);
	return status;
}

void serve_free(struct serve *s)
{
	if (!s)
		return;
	serve_http_stop(s->http);
	if (s->fd >= 0)
		close(s->fd);
	totals_free(s->totals);
	serve_web_free(s->web);
	free(s->argv);
	free(s);
}
