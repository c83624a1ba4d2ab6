/* SPDX-License-Identifier: MIT */
/*
 * Running with privileges pstat was not started with (see secure.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/secure.h"
#include "base/util.h"

extern char **environ;

int secure_mode(void)
{
	return getauxval(AT_SECURE) != 0;
}

void secure_scrub_env(void)
{
	static const char *const prefixes[] = { "PSTAT_", "LIBPFM_" };

	if (!secure_mode())
		return;
again:
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');

		for (size_t i = 0; eq && i < sizeof(prefixes) / sizeof(*prefixes);
		     i++) {
			char *name;

			if (strncmp(*e, prefixes[i], strlen(prefixes[i])))
				continue;
			name = xstrndup(*e, (size_t)(eq - *e));
			msg_warn("ignoring %s: pstat runs with privileges it was not started with",
				 name);
			unsetenv(name);
			free(name);
			goto again; /* environ changed under us */
		}
	}
}

static uid_t saved_fsuid;
static gid_t saved_fsgid;
static int switched;

void secure_user_files_begin(void)
{
	if (!secure_mode() || switched)
		return;
	saved_fsgid = (gid_t)setfsgid(getgid());
	saved_fsuid = (uid_t)setfsuid(getuid());
	switched = 1;
}

void secure_user_files_end(void)
{
	if (!switched)
		return;
	setfsuid(saved_fsuid);
	setfsgid(saved_fsgid);
	switched = 0;
}

static int open_typed(const char *path, int flags, unsigned types)
{
	char proc[64];
	struct stat st;
	int pfd, fd, r;

	pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	if (fstat(pfd, &st)) {
		r = -errno;
		close(pfd);
		return r;
	}
	if (!((S_ISREG(st.st_mode) && (types & SECURE_OPEN_REG)) ||
	      (S_ISFIFO(st.st_mode) && (types & SECURE_OPEN_FIFO)))) {
		close(pfd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -ENODEV;
	}
	/*
	 * The very file looked at, reopened through its O_PATH descriptor
	 * (the kernel checks the access again): not whatever the path
	 * names by now.
	 */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	fd = open(proc, flags | O_NOCTTY | O_CLOEXEC);
	r = fd < 0 ? -errno : fd;
	close(pfd);
	return r;
}

int secure_open_user(const char *path, int flags, unsigned types)
{
	int r;

	secure_user_files_begin();
	r = open_typed(path, flags, types);
	secure_user_files_end();
	return r;
}

/* Whether a signal is pending: blocked, it would end pstat's wait. */
static int signal_pending(void)
{
	sigset_t set;

	return !sigpending(&set) && !sigisemptyset(&set);
}

int secure_read_user(const char *path, unsigned types, size_t max,
		     char **buf, size_t *len)
{
	size_t n = 0, alloc = 0;
	char *b = NULL;
	int fd, r = 0;

	*buf = NULL;
	*len = 0;
	fd = secure_open_user(path, O_RDONLY | O_NONBLOCK, types);
	if (fd < 0)
		return fd;
	for (;;) {
		ssize_t got;

		xgrow((void **)&b, &alloc, n + 65536 + 2, 1);
		/* one byte past max says the file is longer */
		got = read(fd, b + n, alloc - 1 - n < max + 1 - n ?
					      alloc - 1 - n : max + 1 - n);
		if (got > 0) {
			n += (size_t)got;
			if (n > max) {
				r = -EFBIG;
				break;
			}
			continue;
		}
		if (got == 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN) {
			r = -errno;
			break;
		}
		/* a FIFO whose writer is slow */
		if (signal_pending()) {
			r = -EINTR;
			break;
		}
		poll(&(struct pollfd){ fd, POLLIN, 0 }, 1, 50);
	}
	close(fd);
	if (r) {
		free(b);
		return r;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}
