/* SPDX-License-Identifier: MIT */
/*
 * The results file of -o and --append (see cli/output.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/util.h"
#include "cli/output.h"
#include "report/print.h"

/* A temporary file next to target, with the mode target has or would get. */
static int output_tmp(struct output *o, const struct stat *st, int exists)
{
	const char *slash = strrchr(o->target, '/');
	mode_t mask;
	int fd;

	o->tmp = slash ? xasprintf("%.*s/.%s.XXXXXX",
				   (int)(slash - o->target), o->target,
				   slash + 1)
		       : xasprintf(".%s.XXXXXX", o->target);
	fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (exists) {
		fchmod(fd, st->st_mode & 07777);
	} else {
		/* mkostemp makes it 0600; give it the mode open(2) would */
		mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	return fd;
}

int output_open(struct output *o, const char *path, int append, int stream)
{
	struct stat st;
	int fd, exists;

	memset(o, 0, sizeof(*o));
	o->append_at = -1;
	if (!path) {
		o->f = stderr;
		return 0;
	}
	/* "-o -": the standard output, for a pipe into jq */
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (!*path) {
		msg_error("cannot open output file '': %s", strerror(ENOENT));
		return -1;
	}
	o->path = xstrdup(path);
	o->target = NULL;
	/* a symlink: the file it names is the one replaced */
	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		o->target = realpath(path, NULL);
	if (!o->target)
		o->target = xstrdup(path);
	exists = stat(o->target, &st) == 0;
	/* the rename below would replace a file we may not write */
	if (exists && S_ISREG(st.st_mode) && access(o->target, W_OK) < 0) {
		msg_error("cannot open output file '%s': %s", path,
			  strerror(errno));
		goto fail;
	}
	if (!append && !stream && (!exists || S_ISREG(st.st_mode))) {
		fd = output_tmp(o, &st, exists);
	} else {
		o->created = !exists;
		fd = open(o->target, O_WRONLY | O_CREAT | O_CLOEXEC |
					     (append ? O_APPEND : O_TRUNC),
			  0666);
		if (fd >= 0 && append && !fstat(fd, &st) &&
		    S_ISREG(st.st_mode))
			o->append_at = st.st_size;
	}
	if (fd < 0) {
		msg_error("cannot open output file '%s': %s", path,
			  strerror(errno));
		goto fail;
	}
	o->f = fdopen(fd, append ? "a" : "w");
	if (!o->f) {
		msg_error("cannot open output file '%s': %s", path,
			  strerror(errno));
		close(fd);
		if (o->tmp)
			unlink(o->tmp);
		goto fail;
	}
	return 0;
fail:
	free(o->tmp);
	free(o->path);
	free(o->target);
	o->tmp = o->path = o->target = NULL;
	return -1;
}

/* Finish the output: keep it when ok, else remove what was written. */
int output_close(struct output *o, int ok)
{
	int r = 0;

	if (!o->path) {
		/* (a failed run's stderr or stdout, a closed pipe: said
		 * already) */
		if (fflush(o->f) == EOF && ok)
			r = -1;
		return r;
	}
	/* each report was written whole as it came (output_commit) */
	if (o->rewrite) {
		fclose(o->f);
		free(o->mem);
		free(o->path);
		free(o->target);
		return 0;
	}
	/* a run that printed nothing (the command did not start) */
	if (ok && (o->tmp || o->append_at >= 0) &&
	    ftello(o->f) <= (o->tmp ? 0 : o->append_at))
		ok = 0;
	if (fflush(o->f) == EOF && ok) {
		msg_error("cannot write the results to '%s': %s", o->path,
			  strerror(errno));
		ok = 0;
		r = -1;
	}
	/* appended: back to what the file held before */
	if (!ok && o->append_at >= 0 &&
	    ftruncate(fileno(o->f), o->append_at) < 0)
		msg_warn("cannot cut '%s' back to its %lld bytes: %s", o->path,
			 (long long)o->append_at, strerror(errno));
	if (fclose(o->f) == EOF && ok) {
		msg_error("cannot write the results to '%s': %s", o->path,
			  strerror(errno));
		ok = 0;
		r = -1;
	}
	/* a stream that failed before its first line: no file */
	if (!ok && o->created && !o->tmp && o->append_at <= 0) {
		struct stat st;

		if (!stat(o->target, &st) && S_ISREG(st.st_mode) &&
		    st.st_size == 0)
			unlink(o->target);
	}
	if (o->tmp) {
		if (ok && rename(o->tmp, o->target) < 0) {
			msg_error("cannot write the results to '%s': %s",
				  o->path, strerror(errno));
			r = -1;
			ok = 0;
		}
		if (!ok)
			unlink(o->tmp);
	}
	free(o->tmp);
	free(o->path);
	free(o->target);
	return r;
}

int output_open_rewrite(struct output *o, const char *path)
{
	struct stat st;
	int fd;

	if (!path || !*path || !strcmp(path, "-") ||
	    (!stat(path, &st) && !S_ISREG(st.st_mode)))
		return output_open(o, path, 0, 1);
	memset(o, 0, sizeof(*o));
	o->append_at = -1;
	o->path = xstrdup(path);
	/* a symlink: the file it names is the one replaced */
	if (!lstat(path, &st) && S_ISLNK(st.st_mode))
		o->target = realpath(path, NULL);
	if (!o->target)
		o->target = xstrdup(path);
	/* the directory must take the temporary files: try one now */
	if (!stat(o->target, &st) && access(o->target, W_OK) < 0)
		fd = -1;
	else
		fd = output_tmp(o, &st, 0);
	if (fd < 0) {
		msg_error("cannot open output file '%s': %s", path,
			  strerror(errno));
		goto fail;
	}
	close(fd);
	unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	o->f = open_memstream(&o->mem, &o->memlen);
	if (!o->f) {
		msg_error("cannot open output file '%s': %s", path,
			  strerror(errno));
		goto fail;
	}
	o->rewrite = 1;
	return 0;
fail:
	free(o->tmp);
	free(o->path);
	free(o->target);
	o->tmp = o->path = o->target = NULL;
	return -1;
}

/* Replace o's file with the report in o->mem. Returns 0 or -errno. */
static int output_commit(struct output *o)
{
	struct stat st;
	size_t done = 0;
	int fd, r = 0, exists;

	if (fflush(o->f) == EOF)
		return -(errno ? errno : EIO);
	if (!o->memlen)
		return 0;
	exists = stat(o->target, &st) == 0 && S_ISREG(st.st_mode);
	fd = output_tmp(o, &st, exists);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	while (done < o->memlen) {
		ssize_t n = write(fd, o->mem + done, o->memlen - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			break;
		}
		done += (size_t)n;
	}
	if (close(fd) < 0 && !r)
		r = -errno;
	if (!r && rename(o->tmp, o->target) < 0)
		r = -errno;
	if (r)
		unlink(o->tmp);
out:
	free(o->tmp);
	o->tmp = NULL;
	/* the next report starts the buffer again */
	fseeko(o->f, 0, SEEK_SET);
	return r;
}

struct rewrite {
	struct pstat_printer *inner;
	struct output *o;
};

static void rewrite_summary(struct pstat_printer *p,
			    const struct pstat_report *r)
{
	struct rewrite *w = p->priv;

	p->err = printer_summary(w->inner, r);
	if (!p->err)
		p->err = output_commit(w->o);
}

static void rewrite_interval(struct pstat_printer *p,
			     const struct pstat_report *r)
{
	struct rewrite *w = p->priv;

	p->err = printer_interval(w->inner, r);
	if (!p->err)
		p->err = output_commit(w->o);
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
