/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_CONTROL_H
#define PSTAT_CONTROL_H

#include <stddef.h>
#include <stdint.h>

#include "base/msg.h"

/*
 * The control channel of --control, in perf's protocol: a harness
 * writes commands, one per line ('\n' or a NUL ends one), and with an
 * ack channel reads "ack\n" and a NUL byte (the five bytes perf writes)
 * once a command has taken effect. This module owns the channel: its
 * descriptors, reading and splitting what arrives, and the acks; what a
 * command does is the session's (session_wait.c).
 */

/*
 * The longest command line takes CONTROL_LINE_MAX - 1 bytes (without its
 * terminator); longer ones are cut and refused.
 */
#define CONTROL_LINE_MAX 256

/*
 * The most warnings about the channel (unknown commands, events not
 * found) printed in a second: a writer of garbage (/dev/urandom) must
 * not flood stderr. Those held back are counted and said in one line.
 */
#define CONTROL_WARN_MAX 10

struct pstat_control_spec {
	int is_fifo;        /* fifo:CTL[,ACK] rather than fd:CTL[,ACK] */
	char *ctl_path;     /* fifo: the paths, as given (ack may be NULL) */
	char *ack_path;
	int ctl_fd;         /* fd: the descriptors (ack -1 when none) */
	int ack_fd;
};

/*
 * Parse a --control argument: "fd:CTL[,ACK]" (descriptor numbers) or
 * "fifo:CTL[,ACK]" (paths). Returns 0 with spec filled (free it with
 * control_spec_free), or -1 with err set.
 */
int control_parse(const char *arg, struct pstat_control_spec *spec,
		  struct pstat_error *err);

/* Free what spec holds; accepts NULL. */
void control_spec_free(struct pstat_control_spec *spec);

enum control_cmd_kind {
	CONTROL_ENABLE,     /* "enable" or "enable NAME" */
	CONTROL_DISABLE,    /* "disable" or "disable NAME" */
	CONTROL_SNAPSHOT,
	CONTROL_PING,
	CONTROL_STOP,
	CONTROL_UNKNOWN,
};

struct pstat_control_cmd {
	enum control_cmd_kind kind;
	const char *arg;    /* enable/disable NAME: the name, else NULL */
	char line[CONTROL_LINE_MAX];  /* the command as received */
	int too_long;       /* longer than CONTROL_LINE_MAX - 1 bytes: line
			       is its start, kind CONTROL_UNKNOWN */
};

/*
 * Parse one command line (without its terminator; trailing blanks are
 * ignored) into cmd. Pure: used for what the channel receives.
 */
void control_parse_cmd(const char *line, struct pstat_control_cmd *cmd);

/* The control name of a command kind: "enable", ... */
const char *control_cmd_name(enum control_cmd_kind kind);

struct pstat_control {
	int fd;             /* commands come from here, -1 once closed */
	int ack_fd;         /* acks go here, or -1 */
	int own;            /* the descriptors were opened here (fifo:) */
	/* a line of CONTROL_LINE_MAX - 1 bytes, its terminator, a NUL */
	char buf[CONTROL_LINE_MAX + 1];
	size_t len;         /* bytes of an unfinished line in buf */
	int skipping;       /* dropping the rest of an overlong line */
	unsigned long acks_dropped;  /* acks the full ack channel lost */
	uint64_t warn_since;         /* the second warnings are counted in */
	unsigned warn_count;         /* warnings printed in it */
	unsigned long warn_held;     /* warnings held back, not yet said */
};

/*
 * Whether a warning about the channel may be printed at now (ns, any
 * monotonic clock): at most CONTROL_WARN_MAX a second. When it may,
 * *held is how many were held back before it (to say first), else it
 * is counted as held back.
 */
int control_warn_ok(struct pstat_control *c, uint64_t now,
		    unsigned long *held);

/*
 * Open the channel spec describes: fifo: paths must name FIFOs, opened
 * read-write and non-blocking (so a writer may come and go without the
 * channel ever reaching its end, and opening never waits for one), and
 * close-on-exec; fd: descriptors must be open for reading (CTL) and
 * writing (ACK), and are left as they are, the command inheriting them
 * as with perf. Returns 0, or -1 with err set.
 */
int control_open(struct pstat_control *c,
		 const struct pstat_control_spec *spec,
		 struct pstat_error *err);

/*
 * Read what the channel holds now, with one read(): call it when poll()
 * says the descriptor is readable or hung up, so that it never blocks.
 * Returns 1 when bytes arrived, 0 when the channel has ended (its
 * writers closed it: c->fd is -1 then, and the caller stops polling it),
 * or -errno (EAGAIN: nothing there).
 */
int control_read(struct pstat_control *c);

/*
 * The next complete command among what was read: 1 with cmd filled, 0
 * when none is complete yet.
 */
int control_next(struct pstat_control *c, struct pstat_control_cmd *cmd);

/*
 * Write the acknowledgement, without blocking: 0 (also when there is no
 * ack channel), -EAGAIN when its reader has let it fill up (the ack is
 * dropped), or -errno (-EPIPE: no reader any more), after which the ack
 * channel is given up (c->ack_fd is -1).
 */
int control_ack(struct pstat_control *c);

/* Close what control_open opened; accepts NULL. */
void control_close(struct pstat_control *c);

#endif
