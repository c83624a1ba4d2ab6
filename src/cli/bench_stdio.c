/* SPDX-License-Identifier: MIT */
/*
 * `pstat bench --input` and `--output`: what the commands read and
 * where their output goes (bench_stdio.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/secure.h"
#include "cli/bench_stdio.h"

/* --output pipe: read what the commands write, and drop it. */
static void *drain(void *arg)
{
	const struct bench_stdio *s = arg;
	char buf[65536];

	for (;;) {
		ssize_t r = read(s->pipe_rd, buf, sizeof(buf));

		if (r == 0 || (r < 0 && errno != EINTR))
			return NULL;
	}
}

/*
 * --input FILE, opened as the user who ran pstat could open it, without
 * waiting on a FIFO's writer: a regular file only, as it is rewound.
 */
static int open_input(struct bench_stdio *s, const char *path)
{
	int fd = secure_open_user(path, O_RDONLY | O_NONBLOCK, SECURE_OPEN_REG);

	if (fd == -ENODEV || fd == -EISDIR) {
		msg_error("cannot use '%s' as --input: not a regular file",
			  path);
		return -1;
	}
	if (fd < 0) {
		msg_error("cannot open the input file '%s': %s", path,
			  strerror(-fd));
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	s->input_fd = fd;
	s->fds[0] = fd;
	return 0;
}

static int open_output(struct bench_stdio *s, const char *where)
{
	sigset_t all, old;
	int p[2], r;

	if (!strcmp(where, "null"))
		return 0;
	if (!strcmp(where, "inherit")) {
		s->fds[1] = s->fds[2] = -1;
		return 0;
	}
	if (!strcmp(where, "pipe")) {
		if (pipe2(p, O_CLOEXEC)) {
			msg_error("cannot make a pipe for --output pipe: %s",
				  strerror(errno));
			return -1;
		}
		s->pipe_rd = p[0];
		s->pipe_wr = p[1];
		/*
		 * With every signal blocked, which it keeps: pstat's
		 * waits take SIGCHLD and the ending signals in ppoll's
		 * mask, and one taken by this thread would never wake them.
		 */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		r = pthread_create(&s->drain, NULL, drain, s);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (r) {
			msg_error("cannot start reading --output pipe: %s",
				  strerror(r));
			return -1;
		}
		s->draining = 1;
		s->fds[1] = p[1];
		return 0;
	}
	/* a file: written as the runs go, one after the other */
	if (output_open(&s->file, where, 0, 1, 0))
		return -1;
	s->fds[1] = fileno(s->file.f);
	return 0;
}

int bench_stdio_open(struct bench_stdio *s, const char *input,
		     const char *where)
{
	memset(s, 0, sizeof(*s));
	s->input_fd = s->pipe_rd = s->pipe_wr = -1;
	s->null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (s->null_fd < 0) {
		msg_error("cannot open /dev/null: %s", strerror(errno));
		return -1;
	}
	s->fds[0] = s->fds[1] = s->fds[2] = s->null_fd;
	if ((input && open_input(s, input)) ||
	    (where && open_output(s, where))) {
		bench_stdio_close(s, 0);
		return -1;
	}
	return 0;
}

void bench_stdio_rewind(const struct bench_stdio *s)
{
	if (s->input_fd >= 0)
		lseek(s->input_fd, 0, SEEK_SET);
}

void bench_stdio_close(struct bench_stdio *s, int ok)
{
	if (s->pipe_wr >= 0)
		close(s->pipe_wr);
	/*
	 * Not waiting for EOF: what --setup started in the background may
	 * hold the write end for ever. read() is a cancellation point.
	 */
	if (s->draining) {
		pthread_cancel(s->drain);
		pthread_join(s->drain, NULL);
	}
	if (s->pipe_rd >= 0)
		close(s->pipe_rd);
	if (s->file.f)
		output_close(&s->file, ok);
	if (s->input_fd >= 0)
		close(s->input_fd);
	if (s->null_fd >= 0)
		close(s->null_fd);
	memset(s, 0, sizeof(*s));
	s->input_fd = s->pipe_rd = s->pipe_wr = s->null_fd = -1;
}
