/* SPDX-License-Identifier: MIT */
/*
 * The --control channel (see control.h): perf's forms fd:CTL[,ACK] and
 * fifo:CTL[,ACK], its commands and its acknowledgement.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/secure.h"
#include "base/util.h"
#include "run/control.h"

/* What perf writes for an ack: the string and its terminating NUL. */
static const char control_ack_bytes[] = "ack\n";

static int parse_fd(const char *s, size_t len, int *fd)
{
	char num[16];
	uint64_t v;

	if (!len || len >= sizeof(num))
		return -1;
	memcpy(num, s, len);
	num[len] = '\0';
	if (parse_u64(num, INT_MAX, &v))
		return -1;
	*fd = (int)v;
	return 0;
}

int control_parse(const char *arg, struct pstat_control_spec *spec,
		  struct pstat_error *err)
{
	const char *rest, *comma;

	memset(spec, 0, sizeof(*spec));
	spec->ctl_fd = spec->ack_fd = -1;
	if (!strncmp(arg, "fifo:", 5)) {
		rest = arg + 5;
		comma = strchr(rest, ',');
		if (!*rest || comma == rest)
			goto bad;
		spec->is_fifo = 1;
		spec->ctl_path = comma ? xstrndup(rest, (size_t)(comma - rest))
				       : xstrdup(rest);
		/* "fifo:CTL," has no ack fifo, as with perf */
		if (comma && comma[1])
			spec->ack_path = xstrdup(comma + 1);
		return 0;
	}
	if (!strncmp(arg, "fd:", 3)) {
		rest = arg + 3;
		comma = strchr(rest, ',');
		if (parse_fd(rest, comma ? (size_t)(comma - rest) : strlen(rest),
			     &spec->ctl_fd) ||
		    (comma && parse_fd(comma + 1, strlen(comma + 1),
				       &spec->ack_fd)))
			goto bad;
		return 0;
	}
bad:
	control_spec_free(spec);
	return error_set(err, -1,
			 "invalid --control '%s': use fd:CTL-FD[,ACK-FD] or fifo:CTL-FIFO[,ACK-FIFO]",
			 arg);
}

void control_spec_free(struct pstat_control_spec *spec)
{
	if (!spec)
		return;
	free(spec->ctl_path);
	free(spec->ack_path);
	spec->ctl_path = spec->ack_path = NULL;
}

static const char *const cmd_names[] = {
	[CONTROL_ENABLE] = "enable",
	[CONTROL_DISABLE] = "disable",
	[CONTROL_SNAPSHOT] = "snapshot",
	[CONTROL_PING] = "ping",
	[CONTROL_STOP] = "stop",
	[CONTROL_UNKNOWN] = "unknown",
};

const char *control_cmd_name(enum control_cmd_kind kind)
{
	return cmd_names[kind];
}

void control_parse_cmd(const char *line, struct pstat_control_cmd *cmd)
{
	size_t len = strlen(line);

	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' ||
		       line[len - 1] == '\r'))
		len--;
	if (len >= sizeof(cmd->line))
		len = sizeof(cmd->line) - 1;
	memcpy(cmd->line, line, len);
	cmd->line[len] = '\0';
	cmd->arg = NULL;
	cmd->kind = CONTROL_UNKNOWN;
	cmd->too_long = 0;
	for (size_t k = 0; k < CONTROL_UNKNOWN; k++) {
		size_t n = strlen(cmd_names[k]);

		if (strncmp(cmd->line, cmd_names[k], n))
			continue;
		if (!cmd->line[n]) {
			cmd->kind = (enum control_cmd_kind)k;
		} else if ((k == CONTROL_ENABLE || k == CONTROL_DISABLE) &&
			   cmd->line[n] == ' ' && cmd->line[n + 1] &&
			   cmd->line[n + 1] != ' ') {
			/* "enable NAME": one event */
			cmd->kind = (enum control_cmd_kind)k;
			cmd->arg = cmd->line + n + 1;
		}
		break;
	}
}

/*
 * Open a FIFO by path without opening anything else (secure_open_user:
 * looked up with O_PATH, which opens no file, and only a FIFO reopened),
 * so that pstat, often root, never opens a device or a file the path
 * was switched to, nor a FIFO the user who ran it may not use.
 */
static int open_fifo(const char *path, const char *what,
		     struct pstat_error *err)
{
	int fd = secure_open_user(path, O_RDWR | O_NONBLOCK,
				  SECURE_OPEN_FIFO);

	if (fd == -ENODEV || fd == -EISDIR)
		return error_set(err, -1,
				 "cannot use '%s' as the %s FIFO: not a FIFO (make one with mkfifo)",
				 path, what);
	if (fd < 0)
		return error_set(err, -1, "cannot open the %s FIFO '%s': %s",
				 what, path, strerror(-fd));
	return fd;
}

static int check_fd(int fd, int write, const char *what,
		    struct pstat_error *err)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return error_set(err, -1,
				 "cannot use descriptor %d as the %s channel: %s",
				 fd, what, strerror(errno));
	if ((fl & O_ACCMODE) == (write ? O_RDONLY : O_WRONLY))
		return error_set(err, -1,
				 "cannot use descriptor %d as the %s channel: not open for %s",
				 fd, what, write ? "writing" : "reading");
	return 0;
}

int control_open(struct pstat_control *c,
		 const struct pstat_control_spec *spec,
		 struct pstat_error *err)
{
	memset(c, 0, sizeof(*c));
	c->fd = c->ack_fd = -1;
	if (!spec->is_fifo) {
		if (check_fd(spec->ctl_fd, 0, "control", err) ||
		    (spec->ack_fd >= 0 &&
		     check_fd(spec->ack_fd, 1, "ack", err)))
			return -1;
		c->fd = spec->ctl_fd;
		c->ack_fd = spec->ack_fd;
		return 0;
	}
	c->own = 1;
	c->fd = open_fifo(spec->ctl_path, "control", err);
	if (c->fd < 0)
		return -1;
	if (spec->ack_path) {
		c->ack_fd = open_fifo(spec->ack_path, "ack", err);
		if (c->ack_fd < 0) {
			control_close(c);
			return -1;
		}
	}
	return 0;
}

int control_read(struct pstat_control *c)
{
	ssize_t r;

	if (c->fd < 0)
		return 0;
	do
		r = read(c->fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	if (r == 0) {
		/* every writer has closed it: the channel is over */
		if (c->own)
			close(c->fd);
		c->fd = -1;
		return 0;
	}
	c->len += (size_t)r;
	return 1;
}

int control_next(struct pstat_control *c, struct pstat_control_cmd *cmd)
{
	for (;;) {
		size_t end = 0, used;
		int found, cut, skipped;

		while (end < c->len && c->buf[end] != '\n' && c->buf[end])
			end++;
		found = end < c->len;
		/* a line too long to hold is cut here, the rest dropped */
		cut = !found && c->len == sizeof(c->buf) - 1;
		/* a channel that has ended: its last, unterminated words */
		if (!found && !cut && (c->fd >= 0 || !c->len))
			return 0;
		c->buf[end] = '\0';
		skipped = c->skipping;
		c->skipping = cut;
		if (!skipped) {
			control_parse_cmd(c->buf, cmd);
			cmd->too_long = cut;
			if (cut)
				cmd->kind = CONTROL_UNKNOWN;
		}
		used = found ? end + 1 : end;
		memmove(c->buf, c->buf + used, c->len - used);
		c->len -= used;
		/* empty lines are no commands */
		if (!skipped && cmd->line[0])
			return 1;
	}
}

int control_ack(struct pstat_control *c)
{
	struct pollfd p;
	ssize_t r;

	if (c->ack_fd < 0)
		return 0;
	/*
	 * A descriptor given with fd: may block, and pstat waits with its
	 * signals blocked: write only when the ack fits (a pipe that polls
	 * writable has room for PIPE_BUF bytes, written at once).
	 */
	p = (struct pollfd){ c->ack_fd, POLLOUT, 0 };
	if (poll(&p, 1, 0) < 0)
		return -errno;
	if (!(p.revents & POLLOUT) && !(p.revents & (POLLERR | POLLHUP)))
		return -EAGAIN;
	do
		r = write(c->ack_fd, control_ack_bytes,
			  sizeof(control_ack_bytes));
	while (r < 0 && errno == EINTR);
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return -EAGAIN;
	if (r == (ssize_t)sizeof(control_ack_bytes))
		return 0;
	/* a broken ack channel is given up: no more acks */
	r = r < 0 ? -errno : -EIO;
	if (c->own)
		close(c->ack_fd);
	c->ack_fd = -1;
	return (int)r;
}

void control_close(struct pstat_control *c)
{
	if (!c || !c->own)
		return;
	if (c->fd >= 0)
		close(c->fd);
	if (c->ack_fd >= 0)
		close(c->ack_fd);
	c->fd = c->ack_fd = -1;
}

int control_warn_ok(struct pstat_control *c, uint64_t now,
		    unsigned long *held)
{
	if (!c->warn_count || now - c->warn_since >= 1000000000ull) {
		c->warn_since = now;
		c->warn_count = 0;
	}
	if (c->warn_count >= CONTROL_WARN_MAX) {
		c->warn_held++;
		return 0;
	}
	c->warn_count++;
	*held = c->warn_held;
	c->warn_held = 0;
	return 1;
}
