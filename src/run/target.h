/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_TARGET_H
#define PSTAT_TARGET_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

/*
 * The measured command: the only module that forks, execs, waits and
 * sends signals.
 *
 * The child is forked first and blocks reading a pipe (the go-pipe)
 * until the parent has opened every counter on its pid; only then does
 * it exec. Counters opened with enable_on_exec therefore start exactly at
 * the exec, and count nothing of pstat's own setup. A second pipe, closed
 * by a successful exec (O_CLOEXEC), carries the errno of a failed one.
 */
struct pstat_child {
	pid_t pid;
	int go_fd;     /* write end of the go-pipe */
	int err_fd;    /* read end of the exec-error pipe */
};

/*
 * Fork the child for argv; it waits for target_start. In the child,
 * signal dispositions and the mask are reset to the defaults whatever
 * pstat set for itself. Unless keep_on_exit, the child gets SIGKILL
 * should pstat die first (PR_SET_PDEATHSIG). Returns 0, or -errno when
 * fork or pipe failed.
 */
int target_fork(char *const argv[], int keep_on_exit,
		struct pstat_child *ch);

/*
 * Ignore SIGPIPE in pstat, so that a closed output shows as EPIPE, and
 * SIGALRM, as perf does; the command gets back the dispositions pstat
 * was started with.
 */
void target_ignore_signals(void);

/*
 * The signals that end a run as SIGTERM does (passed on to the command,
 * the report printed, exit 128 + N): every catchable signal whose
 * default action ends a process, except SIGPIPE and SIGALRM (ignored,
 * target_ignore_signals) and the faults (SIGSEGV, SIGBUS, SIGILL,
 * SIGFPE, SIGTRAP, SIGSYS), which are pstat's own bugs. Fills set.
 */
void target_ending_signals(sigset_t *set);

/*
 * pstat raised its RLIMIT_NOFILE from *before: the command gets *before
 * back, as if pstat had not been there.
 */
void target_nofile_raised(const struct rlimit *before);

/*
 * What the commands forked from now on get as standard input, output
 * and error: descriptors of pstat's (close-on-exec is fine), or -1 for
 * pstat's own. `pstat bench` sends the commands' output to /dev/null.
 */
void target_set_stdio(int in_fd, int out_fd, int err_fd);

/*
 * Whether the commands forked from now on get a process group of their
 * own (`pstat bench`), so that target_end_group can end what one left
 * behind. The terminal's signals then reach pstat alone, which passes
 * them on to the command.
 */
void target_set_own_group(int on);

/*
 * After the last command forked in a group of its own has been reaped:
 * SIGKILL to what is left in its group (`sleep 9 & true` leaves the
 * sleep), reaping those that are pstat's. Returns how many were alive.
 */
size_t target_end_group(void);

/*
 * Let the child exec. Returns 0 once the exec succeeded, or the positive
 * errno of a failed exec (the child has then exited 127 for ENOENT, 126
 * otherwise, and has been reaped into *status).
 */
int target_start(struct pstat_child *ch, int *status);

/*
 * Wait for the child. Returns 0 with its wait status and rusage, or
 * -EINTR when a signal arrived first (call again), or -errno.
 */
int target_wait(struct pstat_child *ch, int *status, struct rusage *ru);

/* Non-blocking wait: 1 when reaped, 0 while it runs, -errno. */
int target_poll(struct pstat_child *ch, int *status, struct rusage *ru);

/* Send sig to the child if it is still ours to signal. */
void target_kill(const struct pstat_child *ch, int sig);

/*
 * sig to the command and to every process descended from it (found
 * through /proc), so that ending a command at --timeout does not leave
 * its children running. Races with processes starting meanwhile.
 */
void target_kill_tree(const struct pstat_child *ch, int sig);

/* Close the pipes; kills and reaps a child that never started. */
void target_release(struct pstat_child *ch);

/*
 * The exit status a shell would report for wait status st: the exit
 * code, or 128 + the signal number.
 */
int target_exit_code(int st);


/*
 * The threads of process pid from /proc/<pid>/task, as a new sorted array.
 * Returns 0, or -errno (-ESRCH when the process does not exist).
 */
int target_list_threads(pid_t pid, pid_t **tids, size_t *n);

/*
 * Every thread of every process in /proc now, kernel threads too (-a
 * --per-thread, as perf), as a new sorted array. Returns 0 or -errno.
 */
int target_list_all_threads(pid_t **tids, size_t *n);

/* "comm-tid" for a thread (new string); "?-tid" when comm is gone. */
char *target_thread_name(pid_t tid);

/* Whether a process or thread still exists (not a zombie). */
int target_alive(pid_t tid);

/* Whether pid is a kernel thread (PF_KTHREAD in /proc/PID/stat). */
int target_is_kernel_thread(pid_t pid);

/* Whether any thread of process pid is alive (not a zombie). */
int target_process_alive(pid_t pid);

/* The real uid owning a thread (from /proc). Returns 0 or -errno. */
int target_owner(pid_t tid, uid_t *uid);

/*
 * Close fds[0..n-1] in a detached process, so that the caller need not
 * wait while the kernel tears the counters down: closing a tracepoint
 * counter takes tens of milliseconds (a synchronous RCU grace period per
 * event), seconds for a few hundred. A grandchild in a session of its own
 * keeps only those descriptors (it closes stdio, output files and pipes
 * at once, so no reader waits on it), closes them, and exits. The last
 * close of a counter is the one that pays: the grandchild waits until the
 * caller has closed its own copies (cheap while the grandchild holds
 * them) and then closed the descriptor returned here. Returns that
 * descriptor (>= 0) once handed over, or -errno (the caller closes the
 * counters itself, slowly).
 */
int target_close_detached(const int *fds, size_t n);

/*
 * Make pstat the reaper of the command's orphans (PR_SET_CHILD_SUBREAPER),
 * so that target_leftovers can see processes a run left behind. 0 or
 * -errno.
 */
int target_be_subreaper(void);

/*
 * After the command was reaped: whether processes it started still run
 * (as pstat's children, pstat being their subreaper). Orphans that have
 * exited are reaped on the way.
 */
int target_leftovers(void);

/* A pidfd for pid (pidfd_open), or -errno. */
int target_pidfd(pid_t pid);

#endif
