/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_OUTFILE_H
#define PSTAT_OUTFILE_H

#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>

/*
 * A file pstat writes results to (-o, --append, compare -o,
 * --compare-output). pstat usually runs as root, often on a path in a
 * directory others can write to (/tmp), so the file is opened the way
 * the kernel can police it and never through a path pstat resolved
 * itself:
 *
 * - the directory is opened, then the name in it, the last component
 *   with O_NOFOLLOW; in a sticky directory others may write to, an entry
 *   (a symlink, a file, a FIFO) owned by neither pstat's user nor the
 *   directory's owner is refused with EACCES, as the kernel does when
 *   fs.protected_symlinks, protected_regular and protected_fifos are on
 *   (whatever they are set to here);
 * - a symlink otherwise is followed by open(2) itself;
 * - a FIFO is opened without blocking: until a reader comes, the wait
 *   ends on a signal or a timeout;
 * - an existing file keeps its owner: it is written in place, after the
 *   report is complete, never replaced by a file of pstat's user; only
 *   a file of pstat's own user with one link, named directly, is
 *   replaced atomically through a temporary file and rename(2). Its
 *   permission bits are kept; set-user-ID and set-group-ID bits never
 *   survive a write. A new file gets 0666 & ~umask; one written whole
 *   (OUTFILE_REPLACE) appears only then, by rename(2), never empty.
 *
 * The report (or the comparison) is gathered in memory and written when
 * it is complete, so a failed run leaves the file as it was; --append
 * adds it with one write(2) at the end of the file, never cutting what
 * other writers added. Streams (-I) and special files (a pipe, a tty,
 * /dev/full) are written as the report goes.
 */
enum outfile_how {
	OUTFILE_REPLACE,        /* the whole report, once complete */
	OUTFILE_APPEND,         /* the whole report, appended once complete */
	OUTFILE_STREAM,         /* written as it goes, the file emptied */
	OUTFILE_STREAM_APPEND,  /* written as it goes, appended */
};

/* How a FIFO without a reader is waited for. */
struct outfile_wait {
	sigset_t *signals;        /* signals, blocked, whose arrival ends
				     the wait; NULL: block in open(2) */
	unsigned long timeout_ms; /* 0: no limit */
	int sig;                  /* out: the signal that ended it */
	/*
	 * When set, fills *signals the first time a wait needs them:
	 * finding which signals were ignored at start costs a system
	 * call per signal, and most outputs are no FIFO.
	 */
	void (*fill)(sigset_t *signals);
};

struct outfile {
	FILE *f;                /* where to write: memory or the file */
	int fd;                 /* the file */
	int dirfd;              /* its directory */
	char *name;             /* its name in dirfd */
	char *tmp;              /* the temporary that replaces it, or NULL */
	int tmpfd;
	char *buf;              /* the memory f writes to */
	size_t len;
	struct stat st;         /* the file as opened */
	enum outfile_how how;
	int buffered;           /* f is memory, written at commit */
	int created;            /* pstat created it: removed on failure */
};

/*
 * Open path. Returns 0, or -errno: -EINTR when a signal of w->signals
 * ended the wait for a FIFO's reader (its number in w->sig), -ETIMEDOUT
 * after w->timeout_ms of it. w may be NULL.
 */
int outfile_open(struct outfile *o, const char *path, enum outfile_how how,
		 struct outfile_wait *w);

/*
 * Make what f holds since the last call the file's whole content, now,
 * and start f again: reports that each replace the last. Returns 0 or
 * -errno (the file is then as it was).
 */
int outfile_rewrite(struct outfile *o);

/*
 * Why outfile_open failed (r its return), for "cannot open output file
 * 'F': <reason>", written into buf; and the status pstat exits with:
 * 128 + the signal that ended the wait, 124 (timeout(1)'s, --timeout's)
 * when time was up, 125 otherwise.
 */
const char *outfile_open_reason(int r, const struct outfile_wait *w,
				char *buf, size_t len);
int outfile_open_status(int r, const struct outfile_wait *w);

/*
 * Finish o. keep: write what f holds (when it holds anything) and keep
 * it; otherwise leave the file as it was and remove a file pstat
 * created. Frees what o holds. Returns 0 or -errno of the failed write
 * (the file is then as it was, except a stream or special file, which
 * has what was written, and an append cut short by a full disk).
 */
int outfile_commit(struct outfile *o, int keep);

#endif
