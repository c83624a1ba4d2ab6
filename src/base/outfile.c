/* SPDX-License-Identifier: MIT */
/*
 * Results files, opened so that they cannot be turned against their
 * owner (see outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/outfile.h"
#include "base/secure.h"
#include "base/util.h"

/* How often a FIFO without a reader is tried again. */
#define FIFO_RETRY_MS 20

/*
 * An entry of a sticky directory that others can write to, owned by
 * neither us nor the directory's owner: someone may have planted it.
 * The rule of the kernel's protected_symlinks/_regular/_fifos.
 */
static int planted(const struct stat *dir, const struct stat *entry)
{
	return (dir->st_mode & S_ISVTX) &&
	       (dir->st_mode & (S_IWOTH | S_IWGRP)) &&
	       entry->st_uid != geteuid() && entry->st_uid != dir->st_uid;
}

/* The directory of path, opened; o->name its last component. */
static int open_dir(struct outfile *o, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir;

	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return -EISDIR;
	dir = !slash ? xstrdup(".") : slash == path ? xstrdup("/") :
		       xstrndup(path, (size_t)(slash - path));
	o->dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (o->dirfd < 0)
		return -errno;
	o->name = xstrdup(base);
	return 0;
}

/* A signal of set that is pending (blocked until now), or 0. */
static int pending_signal(const sigset_t *set)
{
	sigset_t pending;

	if (sigpending(&pending))
		return 0;
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(set, sig) && sigismember(&pending, sig))
			return sig;
	return 0;
}

/*
 * Open a FIFO that has no reader yet: try again until one comes, a
 * signal of w arrives, or w's time is up. The signals stay blocked
 * (sigtimedwait would unblock them, and one ignored would be lost):
 * they are looked for as pending. Without w, block in open(2).
 */
static int wait_fifo(struct outfile *o, int flags, struct outfile_wait *w)
{
	uint64_t start = now_ns();

	for (;;) {
		struct timespec ts = { 0, FIFO_RETRY_MS * 1000000L };
		int fd = openat(o->dirfd, o->name, flags), sig;

		if (fd >= 0 || errno != ENXIO)
			return fd < 0 ? -errno : fd;
		if (!w || !w->signals) {
			fd = openat(o->dirfd, o->name, flags & ~O_NONBLOCK);
			return fd < 0 ? -errno : fd;
		}
		if (w->fill) {
			w->fill(w->signals);
			w->fill = NULL;
		}
		sig = pending_signal(w->signals);
		if (sig) {
			w->sig = sig;
			return -EINTR;
		}
		if (w->timeout_ms &&
		    now_ns() - start >= w->timeout_ms * 1000000ull)
			return -ETIMEDOUT;
		nanosleep(&ts, NULL);
	}
}

static int make_tmp(struct outfile *o, mode_t mode, int exact);

/*
 * Open the entry: returns the descriptor or -errno. dst is the
 * directory's stat.
 */
static int open_entry(struct outfile *o, int flags, const struct stat *dst,
		      struct outfile_wait *w)
{
	struct stat lst;
	int fd, follow = 0;

	for (int tries = 0; tries < 8; tries++) {
		fd = openat(o->dirfd, o->name, flags | O_NOFOLLOW);
		if (fd >= 0)
			return fd;
		if (errno == ENOENT && o->how == OUTFILE_REPLACE) {
			/*
			 * A new file appears whole, by rename(2), never
			 * empty: the temporary stands in for it until then.
			 */
			int r = make_tmp(o, 0666, 0);

			if (r)
				return r;
			fd = fcntl(o->tmpfd, F_DUPFD_CLOEXEC, 0);
			if (fd < 0)
				return -errno;
			o->created = 1;
			return fd;
		}
		if (errno == ENOENT) {
			fd = openat(o->dirfd, o->name,
				    flags | O_CREAT | O_EXCL, 0666);
			if (fd >= 0) {
				o->created = 1;
				return fd;
			}
			if (errno == EEXIST)
				continue; /* made meanwhile: open that */
			return -errno;
		}
		if (errno != ELOOP && errno != ENXIO)
			return -errno;
		if (fstatat(o->dirfd, o->name, &lst, AT_SYMLINK_NOFOLLOW))
			return errno == ENOENT ? -EAGAIN : -errno;
		if (planted(dst, &lst))
			return -EACCES;
		if (S_ISLNK(lst.st_mode)) {
			follow = 1;
			break;
		}
		if (S_ISFIFO(lst.st_mode))
			return wait_fifo(o, flags | O_NOFOLLOW, w);
		return errno == ELOOP ? -ELOOP : -ENXIO;
	}
	if (!follow)
		return -EAGAIN;
	/* a symlink of ours or of the directory's owner: open(2) follows */
	fd = openat(o->dirfd, o->name, flags);
	if (fd < 0 && errno == ENOENT) /* dangling: create what it names */
		fd = openat(o->dirfd, o->name, flags | O_CREAT, 0666);
	if (fd < 0 && errno == ENXIO)
		return wait_fifo(o, flags, w);
	return fd < 0 ? -errno : fd;
}

/*
 * A temporary file next to o->name, to replace it by rename(2). Its
 * name stays within NAME_MAX however long o->name is. exact: mode is
 * the replaced file's, kept whatever the umask; otherwise the umask
 * applies, as to any new file.
 */
static int make_tmp(struct outfile *o, mode_t mode, int exact)
{
	size_t keep = strlen(o->name);

	if (keep > NAME_MAX - 16)
		keep = NAME_MAX - 16;
	for (int tries = 0; tries < 16; tries++) {
		o->tmp = xasprintf(".%.*s.%06lx", (int)keep, o->name,
				   (unsigned long)(now_ns() ^ (uint64_t)getpid() *
				   2654435761u) & 0xffffff);
		o->tmpfd = openat(o->dirfd, o->tmp,
				  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
					  O_CLOEXEC, mode);
		if (o->tmpfd >= 0) {
			/* the umask applied at creation; mode is the file's */
			if (exact)
				fchmod(o->tmpfd, mode);
			return 0;
		}
		free(o->tmp);
		o->tmp = NULL;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

static void outfile_free(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmpfd >= 0)
		close(o->tmpfd);
	if (o->dirfd >= 0)
		close(o->dirfd);
	free(o->name);
	free(o->tmp);
	free(o->buf);
	memset(o, 0, sizeof(*o));
	o->fd = o->tmpfd = o->dirfd = -1;
}

/* Remove the file pstat created, if it is still that (empty) file. */
static void remove_created(struct outfile *o)
{
	struct stat now;

	if (o->created &&
	    !fstatat(o->dirfd, o->name, &now, AT_SYMLINK_NOFOLLOW) &&
	    now.st_ino == o->st.st_ino && now.st_dev == o->st.st_dev &&
	    S_ISREG(now.st_mode) && now.st_size == 0)
		unlinkat(o->dirfd, o->name, 0);
}

static int open_file(struct outfile *o, const char *path,
		     enum outfile_how how, struct outfile_wait *w);

int outfile_open(struct outfile *o, const char *path, enum outfile_how how,
		 struct outfile_wait *w)
{
	int r;

	/* set-user-ID: only where the user who ran pstat may write */
	secure_user_files_begin();
	r = open_file(o, path, how, w);
	secure_user_files_end();
	return r;
}

static int open_file(struct outfile *o, const char *path,
		     enum outfile_how how, struct outfile_wait *w)
{
	int flags = O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	int append = how == OUTFILE_APPEND || how == OUTFILE_STREAM_APPEND;
	int stream = how == OUTFILE_STREAM || how == OUTFILE_STREAM_APPEND;
	struct stat dst, lst;
	int r;

	memset(o, 0, sizeof(*o));
	o->fd = o->tmpfd = o->dirfd = -1;
	o->how = how;
	if (!*path)
		return -ENOENT;
	r = open_dir(o, path);
	if (r)
		goto fail;
	if (fstat(o->dirfd, &dst)) {
		r = -errno;
		goto fail;
	}
	r = open_entry(o, flags | (append ? O_APPEND : 0), &dst, w);
	if (r < 0)
		goto fail;
	o->fd = r;
	/* opened without blocking (a FIFO); written to blocking */
	if (fstat(o->fd, &o->st) ||
	    fcntl(o->fd, F_SETFL, fcntl(o->fd, F_GETFL) & ~O_NONBLOCK)) {
		r = -errno;
		goto fail;
	}
	/* (a symlink let through above names a file elsewhere) */
	if (!o->created && planted(&dst, &o->st) &&
	    !fstatat(o->dirfd, o->name, &lst, AT_SYMLINK_NOFOLLOW) &&
	    !S_ISLNK(lst.st_mode)) {
		r = -EACCES;
		goto fail;
	}
	if (S_ISREG(o->st.st_mode) && !stream) {
		/* the report in memory until it is complete */
		o->buffered = 1;
		o->f = open_memstream(&o->buf, &o->len);
		if (!o->f) {
			r = -errno;
			goto fail;
		}
		/* ours, one link, named directly: replaced atomically */
		if (!append && !o->tmp && o->st.st_uid == geteuid() &&
		    o->st.st_nlink == 1 && !fstatat(o->dirfd, o->name, &lst,
						    AT_SYMLINK_NOFOLLOW) &&
		    lst.st_ino == o->st.st_ino && lst.st_dev == o->st.st_dev)
			make_tmp(o, o->st.st_mode & 0777, 1);
		return 0;
	}
	if (S_ISREG(o->st.st_mode)) {
		if (o->st.st_mode & (S_ISUID | S_ISGID))
			fchmod(o->fd, o->st.st_mode & 01777);
		if (!append && ftruncate(o->fd, 0)) {
			r = -errno;
			goto fail;
		}
	}
	o->f = fdopen(o->fd, "w");
	if (!o->f) {
		r = -errno;
		goto fail;
	}
	o->fd = -1; /* f's now */
	return 0;
fail:
	remove_created(o);
	outfile_free(o);
	return r;
}

static int write_all(int fd, const char *buf, size_t len, off_t at)
{
	while (len) {
		ssize_t n = at < 0 ? write(fd, buf, len) :
				     pwrite(fd, buf, len, at);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
		if (at >= 0)
			at += n;
	}
	return 0;
}

/*
 * Room for len bytes at off, so that a full disk fails the write before
 * it changed anything. File systems without fallocate(2) are written
 * to regardless.
 */
static int reserve(int fd, int mode, off_t off, size_t len)
{
	if (!len || !fallocate(fd, mode, off, (off_t)len))
		return 0;
	return errno == ENOSPC || errno == EDQUOT || errno == EFBIG ? -errno :
									     0;
}

/* Write the buffered report where it belongs. */
static int write_buffered(struct outfile *o)
{
	int r;

	if (o->tmp) {
		r = write_all(o->tmpfd, o->buf, o->len, -1);
		if (!r && close(o->tmpfd))
			r = -errno;
		o->tmpfd = -1;
		if (!r && renameat(o->dirfd, o->tmp, o->dirfd, o->name))
			r = -errno;
		if (r)
			unlinkat(o->dirfd, o->tmp, 0);
		return r;
	}
	/* set-id bits go, as they would for a write by anyone but root */
	if (o->st.st_mode & (S_ISUID | S_ISGID))
		fchmod(o->fd, o->st.st_mode & 01777);
	if (o->how == OUTFILE_APPEND) {
		off_t end = lseek(o->fd, 0, SEEK_END);

		r = reserve(o->fd, FALLOC_FL_KEEP_SIZE, end < 0 ? 0 : end,
			    o->len);
		return r ? r : write_all(o->fd, o->buf, o->len, -1);
	}
	r = reserve(o->fd, 0, 0, o->len);
	if (!r)
		r = write_all(o->fd, o->buf, o->len, 0);
	if (!r && ftruncate(o->fd, (off_t)o->len))
		r = -errno;
	return r;
}

int outfile_commit(struct outfile *o, int keep)
{
	int r = 0;

	if (o->buffered) {
		r = fclose(o->f) ? -errno : 0;
		o->f = NULL;
		/* a run that printed nothing (its command did not start) */
		if (!r && keep && o->len)
			r = write_buffered(o);
		else if (!r && keep)
			keep = 0;
	} else {
		if (fflush(o->f))
			r = -errno;
		if (fclose(o->f) && !r)
			r = -errno;
		o->f = NULL;
	}
	if (!keep || r) {
		if (o->tmp && o->tmpfd >= 0)
			unlinkat(o->dirfd, o->tmp, 0);
		remove_created(o);
	}
	outfile_free(o);
	return r;
}

const char *outfile_open_reason(int r, const struct outfile_wait *w,
				char *buf, size_t len)
{
	if (r == -EINTR && w && w->sig)
		snprintf(buf, len, "no reader yet when SIG%s came",
			 sigabbrev_np(w->sig) ? sigabbrev_np(w->sig) : "?");
	else if (r == -ETIMEDOUT && w)
		snprintf(buf, len, "no reader within the %lu ms of --timeout",
			 w->timeout_ms);
	else
		snprintf(buf, len, "%s", strerror(-r));
	return buf;
}

int outfile_open_status(int r, const struct outfile_wait *w)
{
	if (r == -EINTR && w && w->sig)
		return 128 + w->sig;
	return r == -ETIMEDOUT && w ? 124 : 125;
}

int outfile_rewrite(struct outfile *o)
{
	int r;

	if (!o->buffered)
		return fflush(o->f) ? -errno : 0;
	if (fflush(o->f))
		return -errno;
	if (!o->len)
		return 0;
	secure_user_files_begin();
	r = write_buffered(o);
	if (o->tmp) {
		/* renamed (or removed): the next report needs another */
		free(o->tmp);
		o->tmp = NULL;
		if (!r)
			o->created = 0;
		make_tmp(o, o->st.st_mode & 0777, 1);
	}
	secure_user_files_end();
	/* the next report starts the buffer again */
	fseeko(o->f, 0, SEEK_SET);
	return r;
}
