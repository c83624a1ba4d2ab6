/* SPDX-License-Identifier: MIT */
/*
 * The wait of one run (see session_wait in session_priv.h): signals,
 * timers for -I, --timeout and -D, the attached processes' pidfds, and
 * the command's end, all through one ppoll().
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/util.h"
#include "run/counter.h"
#include "run/session_priv.h"
#include "run/target.h"

/* A command that ignores SIGTERM at --timeout is killed this much later. */
#define KILL_GRACE_MS 2000
/* How often threads given with -t are checked for having exited. */
#define TID_CHECK_MS 100

/*
 * Signals arrive as flags: the handlers only record them, and the run
 * loop acts. They are blocked except inside ppoll(), which unblocks them
 * atomically, so none is lost between a check and the wait.
 */
static volatile sig_atomic_t sig_pending;
static volatile sig_atomic_t sig_forward;
static volatile sig_atomic_t child_exited;

/* pstat's pid: a handler run in the forked command before its exec */
static pid_t session_pid;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (getpid() != session_pid) {
		/*
		 * The command between its unblocking and its exec: the
		 * signal is the command's, with its default action.
		 */
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		sigaction(sig, &dfl, NULL);
		raise(sig);
		return;
	}
	if (sig == SIGCHLD) {
		child_exited = 1;
		return;
	}
	sig_pending = sig;
	/*
	 * Ctrl-C and Ctrl-\ from the terminal reach the whole foreground
	 * process group, the command included; a signal sent to pstat
	 * alone is passed on.
	 */
	sig_forward = !((sig == SIGINT || sig == SIGQUIT) && si &&
			si->si_code == SI_KERNEL);
}

void session_signals_install(sigset_t *waitmask)
{
	struct sigaction sa, old;
	sigset_t ending;

	session_pid = getpid();
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	target_ending_signals(&ending);
	sigaction(SIGCHLD, &sa, NULL);
	for (int sig = 1; sig < NSIG; sig++) {
		if (!sigismember(&ending, sig) || sigaction(sig, &sa, &old))
			continue;
		/*
		 * A signal ignored when pstat started (nohup's SIGHUP, or
		 * SIGUSR1 for a program that must survive it) stays ignored,
		 * by pstat and, as target.c leaves it, by the command: it
		 * must not end a run that was meant to survive it. SIGINT,
		 * SIGQUIT and SIGTERM are caught even when a shell made a
		 * background pstat ignore the first two: `kill -INT` to
		 * pstat ends the run.
		 */
		if (old.sa_handler == SIG_IGN && sig != SIGINT &&
		    sig != SIGQUIT && sig != SIGTERM) {
			sigaction(sig, &old, NULL);
			sigdelset(&ending, sig);
		}
	}
	sigaddset(&ending, SIGCHLD);
	sigprocmask(SIG_BLOCK, &ending, waitmask);
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&ending, sig))
			sigdelset(waitmask, sig);
}

static int make_timer(uint64_t abs_ns, uint64_t period_ns)
{
	struct itimerspec its = { 0 };
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);

	if (fd < 0)
		return -1;
	its.it_value.tv_sec = (time_t)(abs_ns / 1000000000ull);
	its.it_value.tv_nsec = (long)(abs_ns % 1000000000ull);
	its.it_interval.tv_sec = (time_t)(period_ns / 1000000000ull);
	its.it_interval.tv_nsec = (long)(period_ns % 1000000000ull);
	if (timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL)) {
		close(fd);
		return -1;
	}
	return fd;
}

static uint64_t timer_expirations(int fd)
{
	uint64_t n = 0;

	if (read(fd, &n, sizeof(n)) != (ssize_t)sizeof(n))
		return 0;
	return n;
}

/*
 * SIGTERM to the command and its descendants, and a timer for their
 * SIGKILL should the command ignore that for KILL_GRACE_MS.
 */
static int end_command(const struct pstat_child *ch)
{
	target_kill_tree(ch, SIGTERM);
	return make_timer(now_ns() + KILL_GRACE_MS * 1000000ull, 0);
}

/* Forward a pending signal to the command, once per arrival. */
void session_forward_signal(struct session *s, struct pstat_child *ch)
{
	int sig = sig_pending;

	if (!sig)
		return;
	sig_pending = 0;
	s->got_signal = sig;
	if (ch && (sig_forward || s->early_signal))
		target_kill(ch, sig);
	s->early_signal = 0;
}

/*
 * ppoll() runs the handlers of the signals it unblocks only when it is
 * interrupted, not when a descriptor is ready: with intervals that take
 * longer to print than their period, the timer is ready at every call,
 * and the command's end or a SIGINT would never be seen. So pending
 * signals are let in once per turn of the wait loop as well.
 */
static void let_signals_in(const struct session *s)
{
	sigset_t old;

	sigprocmask(SIG_SETMASK, &s->waitmask, &old);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * A signal that arrived before the command existed (Ctrl-C while a long
 * event list was resolved, blocked since main) never reached it: it is
 * passed on whatever its origin, or the command would run on regardless.
 */
void session_note_early_signal(struct session *s)
{
	sigset_t pending, ending;

	if (sigpending(&pending))
		return;
	target_ending_signals(&ending);
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(&ending, sig) && sigismember(&pending, sig))
			s->early_signal = 1;
}

int session_signal_arrived(struct session *s)
{
	let_signals_in(s);
	if (sig_pending) {
		s->got_signal = sig_pending;
		sig_pending = 0;
	}
	return s->got_signal != 0;
}

int session_run_hook(struct session *s, const char *cmd, int *status)
{
	char sh[] = "/bin/sh", dash_c[] = "-c";
	char *argv[] = { sh, dash_c, (char *)cmd, NULL };
	struct pstat_child ch;
	struct rusage ru;
	int r;

	r = target_fork(argv, s->cfg->keep_on_exit, &ch);
	if (r)
		return r;
	r = target_start(&ch, status);
	if (r)
		return -r;
	/*
	 * SIGCHLD is among the signals ppoll lets in, so the wait needs no
	 * descriptor: the hook's end interrupts it, and so does a SIGINT or
	 * SIGTERM, which is passed on to the hook as to the command.
	 */
	while (!(r = target_poll(&ch, status, &ru))) {
		session_forward_signal(s, &ch);
		ppoll(NULL, 0, NULL, &s->waitmask);
	}
	session_forward_signal(s, NULL);
	return r < 0 ? r : 0;
}

/* Most pidfds watched at once; more processes are polled instead. */
#define MAX_PIDFDS 64

/* What one wait watches, beside the signals. */
struct waiter {
	struct session *s;
	struct pstat_child *ch;      /* the command, or NULL (attached) */
	uint64_t t0;                 /* when the run started */
	uint64_t t_on;               /* when counting last started (after -D),
					0 while it is disabled */
	uint64_t on_ns;              /* counted time before t_on (--control) */
	unsigned long snapshots;     /* intervals printed by "snapshot" */
	uint64_t last;               /* end of the last interval printed */
	unsigned long index;         /* intervals printed */
	int fd_interval, fd_timeout, fd_delay, fd_kill;
	int pidfds[MAX_PIDFDS];      /* -p processes; < -1: exited */
	size_t npidfds, alive_pids;
};

/* Where the wait goes after an event: on, or out (0 or -1: the result). */
enum { WAIT_ON = 1 };

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void waiter_init(struct waiter *w, struct session *s,
			struct pstat_child *ch, uint64_t t0, int record)
{
	const struct pstat_session_cfg *cfg = s->cfg;

	memset(w, 0, sizeof(*w));
	w->s = s;
	w->ch = ch;
	w->t0 = t0;
	/*
	 * Elapsed time is the time counted: after -D it leaves the delay
	 * out, with --control the spans disabled.
	 */
	w->t_on = cfg->delay_ms || cfg->start_disabled ? 0 : t0;
	for (size_t i = 0; i < s->evl->n; i++)
		s->ev_on[i] = w->t_on != 0;
	w->fd_interval = w->fd_timeout = w->fd_delay = w->fd_kill = -1;
	if (cfg->interval_ms && record)
		w->fd_interval = make_timer(t0 + cfg->interval_ms * 1000000ull,
					    cfg->interval_ms * 1000000ull);
	if (cfg->timeout_ms)
		w->fd_timeout = make_timer(t0 + cfg->timeout_ms * 1000000ull, 0);
	if (cfg->delay_ms)
		w->fd_delay = make_timer(t0 + cfg->delay_ms * 1000000ull, 0);
	/* more processes than pidfds: watch them all by polling instead */
	if (!ch && cfg->kind == TARGET_PID && cfg->npids <= MAX_PIDFDS) {
		for (size_t i = 0; i < cfg->npids; i++) {
			int fd = target_pidfd(cfg->pids[i]);

			if (fd >= 0) {
				w->pidfds[w->npidfds++] = fd;
			} else if (fd != -ESRCH) {
				/* no pidfds here (ENOSYS): poll them all */
				while (w->npidfds)
					close(w->pidfds[--w->npidfds]);
				break;
			}
		}
	}
	w->alive_pids = w->npidfds;
}

/* -t threads, or processes without pidfds, are checked on a tick. */
static int waiter_ticks(const struct waiter *w)
{
	const struct pstat_session_cfg *cfg = w->s->cfg;

	return !w->ch && (cfg->kind == TARGET_TID ||
			  (cfg->kind == TARGET_PID && !w->npidfds));
}

/* On a tick: whether any of the targets is still alive. */
static int targets_alive(const struct pstat_session_cfg *cfg)
{
	int tid = cfg->kind == TARGET_TID;
	const pid_t *list = tid ? cfg->tids : cfg->pids;
	size_t cnt = tid ? cfg->ntids : cfg->npids;

	for (size_t i = 0; i < cnt; i++)
		if (tid ? target_alive(list[i]) : target_process_alive(list[i]))
			return 1;
	return 0;
}

static size_t waiter_pollset(const struct waiter *w, struct pollfd *pfd)
{
	const int fds[] = { w->fd_interval, w->fd_timeout, w->fd_delay,
			    w->fd_kill };
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		if (fds[i] >= 0)
			pfd[n++] = (struct pollfd){ fds[i], POLLIN, 0 };
	for (size_t i = 0; i < w->npidfds; i++)
		pfd[n++] = (struct pollfd){ w->pidfds[i], POLLIN, 0 };
	if (w->s->ctl.fd >= 0)
		pfd[n++] = (struct pollfd){ w->s->ctl.fd, POLLIN, 0 };
	return n;
}

/* Print the interval from the last one to now. Returns 0 or -1. */
static int print_interval_now(struct waiter *w)
{
	struct session *s = w->s;
	uint64_t now = now_ns() - w->t0;
	int rr = counters_read(&s->ctr, s->cur, s->prev);

	if (rr) {
		msg_error("cannot read counters: %s", strerror(-rr));
		return -1;
	}
	if (session_print_interval(s, ++w->index, w->last, now, 0) &&
	    !s->broken_pipe)
		return -1;
	w->last = now;
	return 0;
}

/* The interval timer fired: print the interval it ends. */
static int on_interval(struct waiter *w)
{
	struct session *s = w->s;
	const struct pstat_session_cfg *cfg = s->cfg;
	uint64_t expired;

	/*
	 * Deadlines missed while pstat could not run (stopped, starved)
	 * are one longer interval: the index stays that of the deadline.
	 */
	expired = timer_expirations(w->fd_interval);
	w->index += expired > 1 ? expired - 1 : 0;
	if (print_interval_now(w))
		return -1;
	if (s->broken_pipe ||
	    (cfg->interval_count &&
	     w->index - w->snapshots >= cfg->interval_count)) {
		close_fd(&w->fd_interval);
		if (!w->ch)
			return 0;
		/* the command has served its purpose */
		s->stopped = 1;
		w->fd_kill = end_command(w->ch);
	}
	return WAIT_ON;
}

static int on_timeout(struct waiter *w)
{
	timer_expirations(w->fd_timeout);
	close_fd(&w->fd_timeout);
	if (!w->ch)
		return 0;
	w->s->timed_out = 1;
	if (w->fd_kill < 0)
		w->fd_kill = end_command(w->ch);
	return WAIT_ON;
}

/*
 * Enable or disable event ev, or all of them (ev -1), keeping the time
 * counted: elapsed time runs while any event is enabled.
 */
static void waiter_toggle(struct waiter *w, long ev, int on)
{
	struct session *s = w->s;
	int before = 0, after = 0, r;
	uint64_t now;

	r = counters_toggle(&s->ctr, ev, on);
	if (r)
		msg_warn("cannot %s the counters: %s",
			 on ? "enable" : "disable", strerror(-r));
	for (size_t i = 0; i < s->evl->n; i++) {
		before |= s->ev_on[i];
		if (ev < 0 || (long)i == ev)
			s->ev_on[i] = on;
		after |= s->ev_on[i];
	}
	now = now_ns();
	if (!before && after) {
		w->t_on = now;
	} else if (before && !after) {
		w->on_ns += now - w->t_on;
		w->t_on = 0;
	}
}

/* -D has passed: counting starts. */
static int on_delay(struct waiter *w)
{
	timer_expirations(w->fd_delay);
	waiter_toggle(w, -1, 1);
	close_fd(&w->fd_delay);
	return WAIT_ON;
}

/*
 * A warning about the control channel: at most CONTROL_WARN_MAX a
 * second, those held back said in one line before the next one printed
 * (and when the wait ends: control_warn_end).
 */
static void control_warn(struct waiter *w, const char *fmt, ...)
	PSTAT_FMT(2, 3);
static void control_warn(struct waiter *w, const char *fmt, ...)
{
	unsigned long held;
	char buf[CONTROL_LINE_MAX + 128];
	va_list ap;

	if (!control_warn_ok(&w->s->ctl, now_ns(), &held))
		return;
	if (held)
		msg_warn("control: %lu more warnings not shown (at most %d a second)",
			 held, CONTROL_WARN_MAX);
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	msg_warn("%s", buf);
}

static void control_warn_end(struct session *s)
{
	if (s->ctl.warn_held)
		msg_warn("control: %lu more warnings not shown (at most %d a second)",
			 s->ctl.warn_held, CONTROL_WARN_MAX);
	s->ctl.warn_held = 0;
}

/* "enable NAME", "disable NAME": every event of that name. */
static void control_toggle_named(struct waiter *w, const char *name, int on)
{
	const struct pstat_evlist *evl = w->s->evl;
	int found = 0;

	for (size_t i = 0; i < evl->n; i++) {
		if (strcmp(evl->ev[i].name, name))
			continue;
		waiter_toggle(w, (long)i, on);
		found = 1;
	}
	if (!found)
		control_warn(w, "control: no event '%s' to %s", name,
			     on ? "enable" : "disable");
	else
		msg_debug(1, "control: event '%s' %s", name,
			  on ? "enabled" : "disabled");
}

/*
 * "stop": counting ends now, and so does the measurement, as when
 * --interval-count is reached: the command gets SIGTERM, and no
 * further run of -r starts.
 */
static int control_stop(struct waiter *w)
{
	struct session *s = w->s;

	waiter_toggle(w, -1, 0);
	s->ctl_stop = 1;
	if (!w->ch)
		return 0;
	s->stopped = 1;
	if (w->fd_kill < 0)
		w->fd_kill = end_command(w->ch);
	return WAIT_ON;
}

/* Carry out one control command, then acknowledge it. */
static int control_do(struct waiter *w, const struct pstat_control_cmd *cmd)
{
	struct session *s = w->s;
	int ret = WAIT_ON, r;

	switch (cmd->kind) {
	case CONTROL_ENABLE:
	case CONTROL_DISABLE:
		/* the harness has taken over from -D */
		close_fd(&w->fd_delay);
		if (cmd->arg) {
			control_toggle_named(w, cmd->arg,
					     cmd->kind == CONTROL_ENABLE);
		} else {
			waiter_toggle(w, -1, cmd->kind == CONTROL_ENABLE);
			msg_debug(1, "control: events %s",
				  cmd->kind == CONTROL_ENABLE ? "enabled"
							      : "disabled");
		}
		break;
	case CONTROL_SNAPSHOT:
		/* with -I: an interval now, beside those of the timer */
		if (w->fd_interval >= 0) {
			if (print_interval_now(w))
				return -1;
			w->snapshots++;
		}
		break;
	case CONTROL_PING:
		break;
	case CONTROL_STOP:
		break;
	case CONTROL_UNKNOWN:
		/* not acknowledged, as with perf */
		if (cmd->too_long)
			control_warn(w, "control command '%.32s...' ignored: longer than %d bytes",
				     cmd->line, CONTROL_LINE_MAX - 1);
		else
			control_warn(w, "unknown control command '%s' ignored: use enable, disable, snapshot, ping or stop",
				     cmd->line);
		return WAIT_ON;
	}
	r = control_ack(&s->ctl);
	/* said once: a harness that reads no acks fills the channel */
	if (r == -EAGAIN) {
		if (!s->ctl.acks_dropped++)
			msg_warn("control: the ack channel is full (nobody reads it?): acks are dropped");
	} else if (r) {
		msg_warn("control: cannot write to the ack channel: %s; no more acks",
			 strerror(-r));
	}
	if (cmd->kind == CONTROL_STOP)
		ret = control_stop(w);
	return ret;
}

/*
 * The control channel is readable (or its writers are gone): carry out
 * the commands that arrived. A channel that ends or fails ends nothing
 * but itself: counting goes on.
 */
static int on_control(struct waiter *w)
{
	struct session *s = w->s;
	struct pstat_control_cmd cmd;
	int ret = WAIT_ON, r = control_read(&s->ctl);

	if (r < 0 && r != -EAGAIN) {
		msg_warn("cannot read the control channel: %s; counting goes on",
			 strerror(-r));
		control_close(&s->ctl);
		s->ctl.fd = -1;
	}
	while (ret == WAIT_ON && control_next(&s->ctl, &cmd) == 1)
		ret = control_do(w, &cmd);
	if (r == 0 && s->ctl.fd < 0)
		msg_debug(1, "control: the channel was closed; counting goes on");
	return ret;
}

/*
 * Commands sent just before the command exited (a last "disable" whose
 * ack nobody waited for) still apply to the counts read after it.
 */
static void control_drain(struct waiter *w)
{
	struct session *s = w->s;

	for (int i = 0; i < 64 && s->ctl.fd >= 0; i++) {
		struct pollfd p = { s->ctl.fd, POLLIN, 0 };

		if (poll(&p, 1, 0) <= 0 || !(p.revents & (POLLIN | POLLHUP)))
			break;
		if (on_control(w) != WAIT_ON)
			break;
	}
}

/* An attached process has exited: the wait ends with the last one. */
static int on_pidfd(struct waiter *w, int fd)
{
	for (size_t k = 0; k < w->npidfds; k++)
		if (w->pidfds[k] == fd)
			w->pidfds[k] = -w->pidfds[k] - 2;
	return --w->alive_pids == 0 ? 0 : WAIT_ON;
}

static int waiter_ready(struct waiter *w, int fd)
{
	if (fd == w->fd_interval)
		return on_interval(w);
	if (fd == w->fd_timeout)
		return on_timeout(w);
	if (fd == w->fd_delay)
		return on_delay(w);
	if (fd == w->s->ctl.fd)
		return on_control(w);
	if (fd == w->fd_kill) {
		close_fd(&w->fd_kill);
		target_kill_tree(w->ch, SIGKILL);
		return WAIT_ON;
	}
	return on_pidfd(w, fd);
}

/* Drop the pidfds of exited processes from the poll set. */
static void waiter_drop_exited(struct waiter *w)
{
	for (size_t k = 0; k < w->npidfds;) {
		if (w->pidfds[k] < -1) {
			close(-w->pidfds[k] - 2);
			w->pidfds[k] = w->pidfds[--w->npidfds];
		} else {
			k++;
		}
	}
}

/* The last, partial interval; then every descriptor closed. */
static int waiter_finish(struct waiter *w, int ret, struct run_result *res)
{
	struct session *s = w->s;
	uint64_t end = now_ns();

	res->elapsed_ns = w->on_ns + (w->t_on ? end - w->t_on : 0);
	if (ret == 0 && w->fd_interval >= 0 && end - w->t0 > w->last) {
		if (counters_read(&s->ctr, s->cur, s->prev) == 0 &&
		    session_print_interval(s, ++w->index, w->last,
					   end - w->t0, 1))
			ret = -1;
	}
	close_fd(&w->fd_interval);
	close_fd(&w->fd_timeout);
	close_fd(&w->fd_delay);
	close_fd(&w->fd_kill);
	for (size_t k = 0; k < w->npidfds; k++)
		close(w->pidfds[k] < -1 ? -w->pidfds[k] - 2 : w->pidfds[k]);
	return ret;
}

/*
 * One turn of the wait, before polling: the command's exit, a pending
 * signal, the targets' liveness. Returns WAIT_ON, or 0 to end the wait.
 */
static int waiter_check(struct waiter *w, struct run_result *res)
{
	struct session *s = w->s;

	let_signals_in(s);
	if (w->ch && child_exited) {
		child_exited = 0;
		if (target_poll(w->ch, &res->status, &res->ru) == 1) {
			res->have_status = 1;
			return 0;
		}
	}
	if (sig_pending) {
		session_forward_signal(s, w->ch);
		if (!w->ch)
			return 0;
	}
	if (waiter_ticks(w) && !targets_alive(s->cfg))
		return 0;
	return WAIT_ON;
}

int session_wait(struct session *s, struct pstat_child *ch, uint64_t t0,
		 int record, struct run_result *res)
{
	struct pollfd pfd[MAX_PIDFDS + 5];
	struct waiter w;
	int ret = WAIT_ON;

	waiter_init(&w, s, ch, t0, record);
	while (ret == WAIT_ON && (ret = waiter_check(&w, res)) == WAIT_ON) {
		struct timespec tick = { 0, TID_CHECK_MS * 1000000L };
		size_t n = waiter_pollset(&w, pfd);
		int pr = ppoll(pfd, n, waiter_ticks(&w) ? &tick : NULL,
			       &s->waitmask);

		if (pr < 0 && errno != EINTR) {
			msg_error("cannot wait for the measurement: %s",
				  strerror(errno));
			ret = -1;
			break;
		}
		for (size_t i = 0; pr > 0 && i < n && ret == WAIT_ON; i++)
			if (pfd[i].revents & (POLLIN | POLLHUP))
				ret = waiter_ready(&w, pfd[i].fd);
		waiter_drop_exited(&w);
	}
	if (ret == 0)
		control_drain(&w);
	control_warn_end(w.s);
	return waiter_finish(&w, ret, res);
}
