/* SPDX-License-Identifier: MIT */
/*
 * The results file of -o and --append (see cli/output.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/output.h"
#include "report/print.h"
#include "run/target.h"

void output_wait_signals(sigset_t *set)
{
	struct sigaction old;

	target_ending_signals(set);
	/* one ignored when pstat started (nohup's SIGHUP) does not end it */
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(set, sig) && sig != SIGINT && sig != SIGQUIT &&
		    sig != SIGTERM && !sigaction(sig, NULL, &old) &&
		    old.sa_handler == SIG_IGN)
			sigdelset(set, sig);
}

int output_open(struct output *o, const char *path, int append, int stream,
		unsigned long timeout_ms)
{
	sigset_t ending;
	struct outfile_wait w = { &ending, timeout_ms, 0,
				  output_wait_signals };
	enum outfile_how how;
	int r;

	memset(o, 0, sizeof(*o));
	if (!path) {
		o->f = stderr;
		return 0;
	}
	/* "-o -": the standard output, for a pipe into jq */
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	how = stream ? (append ? OUTFILE_STREAM_APPEND : OUTFILE_STREAM) :
		       (append ? OUTFILE_APPEND : OUTFILE_REPLACE);
	r = outfile_open(&o->file, path, how, &w);
	if (r) {
		char why[128];

		msg_error("cannot open output file '%s': %s", path,
			  outfile_open_reason(r, &w, why, sizeof(why)));
		return outfile_open_status(r, &w);
	}
	o->f = o->file.f;
	o->path = xstrdup(path);
	return 0;
}

int output_open_fd(struct output *o, int fd, int append)
{
	int flags = fcntl(fd, F_GETFL);

	memset(o, 0, sizeof(*o));
	if (flags >= 0 && append && !(flags & O_APPEND) &&
	    fcntl(fd, F_SETFL, flags | O_APPEND) < 0)
		flags = -1;
	if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY ||
	    !(o->f = fdopen(fd, "w"))) {
		msg_error("cannot write the results to descriptor %d (--log-fd): %s",
			  fd, strerror(flags < 0 ? errno : EBADF));
		return EXIT_PSTAT_FAILED;
	}
	return 0;
}

int output_close(struct output *o, int ok)
{
	int r;

	/* each report was written whole as it came (rewrite_commit) */
	if (o->rewrite) {
		outfile_commit(&o->file, 0);
		free(o->path);
		memset(o, 0, sizeof(*o));
		return 0;
	}

	if (!o->f)
		return 0;
	if (!o->path) {
		/* (a failed run's stderr or stdout, a closed pipe: said
		 * already) */
		return fflush(o->f) == EOF && ok ? -1 : 0;
	}
	r = outfile_commit(&o->file, ok);
	if (r)
		msg_error("cannot write the results to '%s': %s", o->path,
			  strerror(-r));
	free(o->path);
	o->path = NULL;
	o->f = NULL;
	return r ? -1 : 0;
}

int output_open_rewrite(struct output *o, const char *path,
			unsigned long timeout_ms)
{
	/*
	 * A regular file is replaced report by report (a new one appears
	 * with the first report, never empty); anything else (a FIFO, a
	 * tty) is written as the reports come.
	 */
	int r = output_open(o, path, 0, 0, timeout_ms);

	if (!r && o->path)
		o->rewrite = o->file.buffered;
	return r;
}

struct rewrite {
	struct pstat_printer *inner;
	struct output *o;
};

/* Replace o's file with the report just printed. Returns 0 or -errno. */
static int rewrite_commit(struct output *o)
{
	return outfile_rewrite(&o->file);
}

static void rewrite_summary(struct pstat_printer *p,
			    const struct pstat_report *r)
{
	struct rewrite *w = p->priv;

	p->err = printer_summary(w->inner, r);
	if (!p->err)
		p->err = rewrite_commit(w->o);
}

static void rewrite_interval(struct pstat_printer *p,
			     const struct pstat_report *r)
{
	struct rewrite *w = p->priv;

	p->err = printer_interval(w->inner, r);
	if (!p->err)
		p->err = rewrite_commit(w->o);
}

static void rewrite_free(struct pstat_printer *p)
{
	struct rewrite *w = p->priv;

	if (!w)
		return;
	printer_free(w->inner);
	free(w);
	p->priv = NULL;
}

static const struct pstat_printer_ops rewrite_ops = {
	.summary = rewrite_summary,
	.interval = rewrite_interval,
	.free = rewrite_free,
};

struct pstat_printer *output_rewrite_printer(struct output *o,
					     struct pstat_printer *inner)
{
	struct pstat_printer *p = xcalloc(1, sizeof(*p));
	struct rewrite *w = xcalloc(1, sizeof(*w));

	w->inner = inner;
	w->o = o;
	p->ops = &rewrite_ops;
	p->cfg = inner->cfg;
	p->out = inner->out;
	p->priv = w;
	return p;
}
