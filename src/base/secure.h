/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_SECURE_H
#define PSTAT_SECURE_H

/*
 * pstat run with privileges it was not started with: a set-user-ID or
 * set-group-ID binary, or file capabilities (getauxval(AT_SECURE), as
 * glibc's secure_getenv decides). The user who ran it must not gain
 * through it what they could not do themselves.
 */
int secure_mode(void);

/*
 * In secure mode, remove from the environment, with a warning each, the
 * variables that load code or redirect what pstat reads: PSTAT_* (the
 * fixture roots, PSTAT_LIBPFM) and LIBPFM_* (libpfm4's event files and
 * forced tables). Does nothing otherwise.
 */
void secure_scrub_env(void);

/*
 * In secure mode, check files with the real user's identity
 * (setfsuid/setfsgid) until secure_user_files_end: a file they could not
 * open themselves is not opened for them, and a file created is theirs.
 * Does nothing otherwise.
 */
void secure_user_files_begin(void);
void secure_user_files_end(void);

/*
 * The one way pstat opens a file or FIFO a user named for it to read or
 * to talk through: --metrics-file, --control fifo:, compare's run files
 * and --baseline, and whatever option comes next. (Results files go
 * through outfile_open, which holds the same identity over its whole
 * open, creation included.) path is:
 *
 * - looked up and opened as the user who ran pstat, in secure mode
 *   (secure_user_files_begin): what they may not read or write is not
 *   read or written for them, and an error says no more than their own
 *   open would;
 * - looked up with O_PATH first, which opens nothing, and reopened only
 *   when it is of a type in types, so that a device (/dev/zero, a tape,
 *   a terminal) is never opened by mistake or on purpose;
 * - opened with flags | O_NOCTTY | O_CLOEXEC. A caller whose signals are
 *   blocked passes O_NONBLOCK, so that a FIFO never waits in open(2)
 *   for its other end, where no signal could end the wait.
 *
 * Returns the descriptor, or -errno: -ENODEV when path is of a type not
 * in types (-EISDIR for a directory).
 */
#define SECURE_OPEN_REG  1u     /* a regular file */
#define SECURE_OPEN_FIFO 2u     /* a FIFO or a pipe (/dev/fd/N of <(...)) */
int secure_open_user(const char *path, int flags, unsigned types);

/*
 * Read the file or FIFO path names (secure_open_user, O_NONBLOCK) whole,
 * up to max bytes, into a new NUL-terminated buffer (*len bytes, which
 * may hold NUL bytes). A FIFO is read while its writers write: one that
 * none has opened reads as empty, and while waiting for a slow one, a
 * signal that is pending (blocked) ends the wait. Returns 0, or -errno:
 * -EFBIG past max bytes, -EINTR for a pending signal.
 */
int secure_read_user(const char *path, unsigned types, size_t max,
		     char **buf, size_t *len);

#endif
