/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/secure.h"
#include "base/util.h"
#include "run/target.h"

/*
 * What pstat changed for itself, undone in the child: SIGPIPE, which
 * pstat ignores to notice a closed output as EPIPE, and SIGALRM, which
 * it ignores as perf does (target_ignore_signals), and, just before the
 * exec, the mask. Until then the signals pstat blocks stay blocked: one
 * sent to the process group while the counters open waits, and ends the
 * child only once it is let go, so pstat still reports (see session.c).
 * The handlers pstat installed are not reset one by one (some 45
 * system calls on the way to every exec): exec resets them, and one that
 * runs in the child between the unblocking and the exec gives the
 * signal its default action (session_wait.c). Dispositions pstat
 * inherited, such as nohup's ignored SIGHUP or a SIGPIPE ignored by the
 * caller, pass on to the command untouched.
 */
static int sigpipe_was_ignored = -1;    /* -1: pstat left it alone */
static int sigalrm_was_ignored = -1;
/* the soft RLIMIT_NOFILE pstat started with, when it raised its own */
static struct rlimit nofile_before;
static int nofile_raised;
/* target_set_stdio: what the command's 0, 1 and 2 become (-1: as ours) */
static int stdio_fds[3] = { -1, -1, -1 };
/* target_set_own_group: each command a process group of its own */
static int own_group;
static pid_t last_group;

void target_set_stdio(int in_fd, int out_fd, int err_fd)
{
	stdio_fds[0] = in_fd;
	stdio_fds[1] = out_fd;
	stdio_fds[2] = err_fd;
}

void target_set_own_group(int on)
{
	own_group = on;
}

/* The processes of group pgid that are alive (not zombies). */
static size_t group_alive(pid_t pgid)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t n = 0;

	while (d && (de = readdir(d))) {
		char path[64], *st, *p, state;
		int pg;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/stat", de->d_name);
		st = read_file_str(path);
		p = st ? strrchr(st, ')') : NULL;
		/* state(3) ppid(4) pgrp(5) */
		if (p && sscanf(p + 1, " %c %*d %d", &state, &pg) == 2 &&
		    pg == pgid && state != 'Z')
			n++;
		free(st);
	}
	if (d)
		closedir(d);
	return n;
}

size_t target_end_group(void)
{
	pid_t pg = last_group;
	size_t n;

	last_group = 0;
	/* (one system call when, as nearly always, nothing is left) */
	if (pg <= 0 || kill(-pg, 0) < 0)
		return 0;
	n = group_alive(pg);
	kill(-pg, SIGKILL);
	/* those pstat adopted as a subreaper are its to reap */
	while (waitpid(-pg, NULL, 0) > 0 || errno == EINTR)
		;
	return n;
}

void target_nofile_raised(const struct rlimit *before)
{
	nofile_before = *before;
	nofile_raised = 1;
}

void target_ending_signals(sigset_t *set)
{
	static const int sigs[] = {
		SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGUSR1, SIGUSR2, SIGTERM,
		SIGSTKFLT, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR,
	};

	sigemptyset(set);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(set, sigs[i]);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(set, sig);
}

static int ignore(int sig)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	if (sigaction(sig, &sa, &old))
		return -1;
	return old.sa_handler == SIG_IGN;
}

void target_ignore_signals(void)
{
	sigpipe_was_ignored = ignore(SIGPIPE);
	sigalrm_was_ignored = ignore(SIGALRM);
}

static void reset_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	if (sigpipe_was_ignored == 0)
		sigaction(SIGPIPE, &sa, NULL);
	if (sigalrm_was_ignored == 0)
		sigaction(SIGALRM, &sa, NULL);
}

int target_fork(char *const argv[], int keep_on_exit,
		struct pstat_child *ch)
{
	pid_t parent = getpid(), pid;
	int go[2], er[2];

	ch->pid = -1;
	ch->go_fd = ch->err_fd = -1;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(er, O_CLOEXEC)) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		return -e;
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(er[0]);
		close(er[1]);
		return -e;
	}
	if (pid == 0) {
		sigset_t none;
		char c;
		int e;
		ssize_t r;

		close(go[1]);
		close(er[0]);
		/*
		 * Should pstat die of SIGKILL (a CI job's timeout), the
		 * kernel kills the command too rather than leave it running
		 * unmeasured. Not the processes it starts, and not across
		 * the exec of a set-user-ID program (the kernel clears it).
		 */
		if (!keep_on_exit &&
		    (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent))
			_exit(125); /* pstat is already gone */
		reset_signals();
		if (own_group)
			setpgid(0, 0);
		/*
		 * A set-user-ID pstat counts as root, but runs the command
		 * as the user who ran it, never with privileges they lack.
		 */
		if (secure_mode() && (setresgid(getgid(), getgid(), getgid()) ||
				      setresuid(getuid(), getuid(), getuid())))
			_exit(126);
		do
			r = read(go[0], &c, 1);
		while (r < 0 && errno == EINTR);
		if (r != 1)
			_exit(125); /* pstat went away before starting us */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (nofile_raised)
			setrlimit(RLIMIT_NOFILE, &nofile_before);
		for (int fd = 0; fd < 3; fd++)
			if (stdio_fds[fd] >= 0 && stdio_fds[fd] != fd &&
			    dup2(stdio_fds[fd], fd) < 0)
				_exit(126);
		execvp(argv[0], argv);
		e = errno;
		if (write(er[1], &e, sizeof(e)) < 0) {
			/* nothing more can be said */
		}
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(er[1]);
	if (own_group) {
		/* (both sides: whichever runs first) */
		setpgid(pid, pid);
		last_group = pid;
	}
	ch->pid = pid;
	ch->go_fd = go[1];
	ch->err_fd = er[0];
	return 0;
}

int target_start(struct pstat_child *ch, int *status)
{
	int e = 0;
	ssize_t r;

	r = write(ch->go_fd, "g", 1);
	close(ch->go_fd);
	ch->go_fd = -1;
	if (r != 1)
		return EPIPE;
	do
		r = read(ch->err_fd, &e, sizeof(e));
	while (r < 0 && errno == EINTR);
	close(ch->err_fd);
	ch->err_fd = -1;
	if (r != (ssize_t)sizeof(e))
		return 0; /* EOF: the exec closed the pipe */
	while (waitpid(ch->pid, status, 0) < 0 && errno == EINTR)
		;
	ch->pid = -1;
	return e ? e : EIO;
}

int target_wait(struct pstat_child *ch, int *status, struct rusage *ru)
{
	pid_t r = wait4(ch->pid, status, 0, ru);

	if (r < 0)
		return -errno;
	ch->pid = -1;
	return 0;
}

int target_poll(struct pstat_child *ch, int *status, struct rusage *ru)
{
	pid_t r = wait4(ch->pid, status, WNOHANG, ru);

	if (r < 0)
		return -errno;
	if (r == 0)
		return 0;
	ch->pid = -1;
	return 1;
}

/*
 * What /proc/PID/stat says after the comm (which may hold ')' and
 * blanks): the state letter, the parent and the flags. 0, or -1 when
 * the task is gone.
 */
static int proc_stat(pid_t pid, char *state, pid_t *ppid,
		     unsigned long *flags)
{
	char path[64], *st, *p;
	int pp = -1, r = -1;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	st = read_file_str(path);
	if (!st)
		return -1;
	p = strrchr(st, ')');
	/* state(3) ppid(4) pgrp session tty_nr tpgid flags(9) */
	if (p && p[1] == ' ' && p[2] &&
	    sscanf(p + 3, "%d %*d %*d %*d %*d %lu", &pp, flags) == 2) {
		*state = p[2];
		*ppid = (pid_t)pp;
		r = 0;
	}
	free(st);
	return r;
}

int target_is_kernel_thread(pid_t pid)
{
	char state;
	pid_t ppid;
	unsigned long flags;

	return !proc_stat(pid, &state, &ppid, &flags) &&
	       (flags & 0x00200000); /* PF_KTHREAD */
}

void target_kill_tree(const struct pstat_child *ch, int sig)
{
	pid_t *tree, *pids = NULL, *ppids = NULL;
	size_t ntree = 1, n = 0, alloc_p = 0, alloc_pp = 0;
	DIR *d = opendir("/proc");
	struct dirent *de;

	if (ch->pid <= 0)
		return;
	/* every process and its parent, then the command's descendants */
	while (d && (de = readdir(d))) {
		unsigned long flags;
		pid_t pp;
		char state;

		if (de->d_name[0] < '1' || de->d_name[0] > '9' ||
		    proc_stat((pid_t)atoi(de->d_name), &state, &pp, &flags) ||
		    pp <= 0)
			continue;
		xgrow((void **)&pids, &alloc_p, n + 1, sizeof(*pids));
		xgrow((void **)&ppids, &alloc_pp, n + 1, sizeof(*ppids));
		pids[n] = (pid_t)atoi(de->d_name);
		ppids[n++] = pp;
	}
	if (d)
		closedir(d);
	tree = xmalloc((n + 1) * sizeof(*tree));
	tree[0] = ch->pid;
	for (size_t k = 0; k < ntree; k++)
		for (size_t i = 0; i < n; i++)
			if (ppids[i] == tree[k] && pids[i] != tree[k])
				tree[ntree++] = pids[i];
	/* all at once: a shell that dies first orphans the rest */
	for (size_t k = 0; k < ntree; k++)
		kill(tree[k], sig);
	free(tree);
	free(pids);
	free(ppids);
}

void target_kill(const struct pstat_child *ch, int sig)
{
	if (ch->pid > 0)
		kill(ch->pid, sig);
}

void target_release(struct pstat_child *ch)
{
	if (ch->go_fd >= 0)
		close(ch->go_fd); /* the child reads EOF and exits 125 */
	if (ch->err_fd >= 0)
		close(ch->err_fd);
	ch->go_fd = ch->err_fd = -1;
	if (ch->pid > 0) {
		int st;

		while (waitpid(ch->pid, &st, 0) < 0 && errno == EINTR)
			;
		ch->pid = -1;
	}
}

int target_exit_code(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 125;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* A list read from /proc, sorted, as *tids (or -ESRCH when empty). */
static int pid_list_done(pid_t *out, size_t cnt, pid_t **tids, size_t *n)
{
	if (!cnt) {
		free(out);
		return -ESRCH;
	}
	qsort(out, cnt, sizeof(*out), cmp_pid);
	*tids = out;
	*n = cnt;
	return 0;
}

int target_list_all_threads(pid_t **tids, size_t *n)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t *out = NULL;
	size_t cnt = 0, alloc = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		uint64_t p;
		pid_t *th;
		size_t nth;

		/* a process that ended since: not counted, as perf */
		if (parse_u64(de->d_name, INT32_MAX, &p) ||
		    target_list_threads((pid_t)p, &th, &nth))
			continue;
		xgrow((void **)&out, &alloc, cnt + nth, sizeof(*out));
		memcpy(out + cnt, th, nth * sizeof(*th));
		cnt += nth;
		free(th);
	}
	closedir(d);
	return pid_list_done(out, cnt, tids, n);
}

int target_list_threads(pid_t pid, pid_t **tids, size_t *n)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	pid_t *out = NULL;
	size_t cnt = 0, alloc = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((de = readdir(d))) {
		uint64_t t;

		if (parse_u64(de->d_name, INT32_MAX, &t))
			continue;
		xgrow((void **)&out, &alloc, cnt + 1, sizeof(*out));
		out[cnt++] = (pid_t)t;
	}
	closedir(d);
	return pid_list_done(out, cnt, tids, n);
}

char *target_thread_name(pid_t tid)
{
	char path[64], *comm;
	char *name;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	comm = read_file_str(path);
	name = xasprintf("%s-%d", comm ? comm : "?", (int)tid);
	free(comm);
	return name;
}

int target_alive(pid_t tid)
{
	char state;
	pid_t ppid;
	unsigned long flags;

	return !proc_stat(tid, &state, &ppid, &flags) && state != 'Z' &&
	       state != 'X';
}

int target_process_alive(pid_t pid)
{
	pid_t *th;
	size_t n;
	int alive = 0;

	/* its main thread may have exited (pthread_exit) while others run */
	if (target_list_threads(pid, &th, &n))
		return 0;
	for (size_t i = 0; i < n && !alive; i++)
		alive = target_alive(th[i]);
	free(th);
	return alive;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* In the grandchild: close every descriptor not in keep (sorted). */
static void close_all_but(const int *keep, size_t n)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int dfd;

	if (!d) {
		for (int fd = 0; fd < 3; fd++)
			close(fd);
		return;
	}
	dfd = dirfd(d);
	while ((de = readdir(d))) {
		int fd = atoi(de->d_name); /* the kernel's own listing */

		if (de->d_name[0] == '.' || fd == dfd)
			continue;
		if (!bsearch(&fd, keep, n, sizeof(*keep), cmp_int))
			close(fd);
	}
	closedir(d);
}

int target_be_subreaper(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1) ? -errno : 0;
}

int target_leftovers(void)
{
	siginfo_t si;

	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
			return 0; /* ECHILD: none */
		if (!si.si_pid)
			return 1; /* children, none of them exited */
		/* an orphan that has exited since: reap it, look again */
		while (waitpid(si.si_pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
}

int target_close_detached(const int *fds, size_t n)
{
	int *keep = malloc((n + 1) * sizeof(*keep));
	int go[2];
	pid_t pid;
	int st, subreaper = 0;

	if (!keep)
		return -ENOMEM;
	if (pipe2(go, O_CLOEXEC)) {
		int e = errno;

		free(keep);
		return -e;
	}
	memcpy(keep, fds, n * sizeof(*keep));
	keep[n] = go[0];
	qsort(keep, n + 1, sizeof(*keep), cmp_int);
	/* the closer goes to init, not to pstat should it be a subreaper */
	if (!prctl(PR_GET_CHILD_SUBREAPER, &subreaper) && subreaper)
		prctl(PR_SET_CHILD_SUBREAPER, 0);
	pid = fork();
	if (pid < 0) {
		int e = errno;

		free(keep);
		close(go[0]);
		close(go[1]);
		return -e;
	}
	if (pid == 0) {
		sigset_t all;
		char c;

		/* a session of its own: no terminal signal reaches it */
		setsid();
		sigfillset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		if (fork() != 0) {
			free(keep);
			_exit(0); /* the grandchild belongs to init now */
		}
		close_all_but(keep, n + 1);
		free(keep);
		/* the caller's copies first (EOF: it closed them), then ours */
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		close(go[0]);
		for (size_t i = 0; i < n; i++)
			close(fds[i]);
		_exit(0);
	}
	free(keep);
	close(go[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (subreaper)
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		close(go[1]);
		return -ECHILD;
	}
	return go[1];
}

int target_owner(pid_t tid, uid_t *uid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", (int)tid);
	if (stat(path, &st) < 0)
		return -errno;
	*uid = st.st_uid;
	return 0;
}

int target_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	return fd < 0 ? -errno : fd;
#else
	return -ENOSYS;
#endif
}
