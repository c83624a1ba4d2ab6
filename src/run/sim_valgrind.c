/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/secure.h"
#include "base/util.h"
#include "events/sim_events.h"
#include "run/sim_valgrind.h"

const char *const sim_cache_levels[3] = { "I1", "D1", "LL" };

/* The words of line after its key ("events:"), split in place. */
static size_t split_words(char *s, char **w, size_t max)
{
	size_t n = 0;
	char *save = NULL;

	for (char *t = strtok_r(s, " \t\r\n", &save); t;
	     t = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == max)
			return max + 1;
		w[n++] = t;
	}
	return n;
}

int sim_parse_out(FILE *f, struct pstat_sim_totals *t)
{
	char *line = NULL, *w[SIM_MAX_COUNTS + 1];
	size_t cap = 0, nnames = 0, nvals = 0;
	int have_events = 0, have_summary = 0, r = -EINVAL;
	uint64_t vals[SIM_MAX_COUNTS];

	memset(t, 0, sizeof(*t));
	while (getline(&line, &cap, f) > 0) {
		size_t n;

		if (!have_events && !strncmp(line, "events:", 7)) {
			n = split_words(line + 7, w, SIM_MAX_COUNTS);
			if (!n || n > SIM_MAX_COUNTS)
				goto out;
			for (size_t i = 0; i < n; i++) {
				if (strlen(w[i]) >= sizeof(t->names[i]))
					goto out;
				strcpy(t->names[i], w[i]);
			}
			nnames = n;
			have_events = 1;
		} else if (!have_summary && !strncmp(line, "summary:", 8)) {
			n = split_words(line + 8, w, SIM_MAX_COUNTS);
			if (!n || n > SIM_MAX_COUNTS)
				goto out;
			for (size_t i = 0; i < n; i++)
				if (parse_u64(w[i], UINT64_MAX, &vals[i]))
					goto out;
			nvals = n;
			have_summary = 1;
		}
	}
	/* a summary may leave out trailing zeros, never have more */
	if (!have_events || !have_summary || nvals > nnames)
		goto out;
	for (size_t i = 0; i < nnames; i++)
		t->val[i] = i < nvals ? vals[i] : 0;
	t->n = nnames;
	r = 0;
out:
	free(line);
	if (r)
		memset(t, 0, sizeof(*t));
	return r;
}

int sim_totals_add(struct pstat_sim_totals *sum,
		   const struct pstat_sim_totals *t)
{
	for (size_t i = 0; i < t->n; i++) {
		size_t k = 0;

		while (k < sum->n && strcmp(sum->names[k], t->names[i]))
			k++;
		if (k == sum->n) {
			if (sum->n == SIM_MAX_COUNTS)
				return -E2BIG;
			strcpy(sum->names[sum->n], t->names[i]);
			sum->val[sum->n++] = 0;
		}
		sum->val[k] += t->val[i];
	}
	return 0;
}

uint64_t sim_totals_get(const struct pstat_sim_totals *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->names[i], name))
			return t->val[i];
	return 0;
}

/*
 * Where the run's directory goes: $TMPDIR when it is an absolute path
 * and pstat runs with no privileges it was not started with, else /tmp.
 */
static const char *tmp_base(void)
{
	const char *t = secure_mode() ? NULL : getenv("TMPDIR");

	return t && t[0] == '/' ? t : "/tmp";
}

int sim_run_begin(const struct pstat_sim_cfg *cfg, char *const *cmd,
		  struct pstat_sim_run *run)
{
	const int callgrind = cfg->ntoggles > 0;
	size_t ncmd = 0, n = 0;
	char *dir;

	memset(run, 0, sizeof(*run));
	run->dfd = -1;
	dir = xasprintf("%s/pstat-sim.XXXXXX", tmp_base());
	if (!mkdtemp(dir)) {
		int e = errno;

		free(dir);
		return -e;
	}
	run->dir = dir;
	run->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (run->dfd < 0) {
		int e = errno;

		rmdir(dir);
		free(dir);
		run->dir = NULL;
		return -e;
	}
	/* a set-user-ID pstat runs the command as the user: theirs to write */
	if (secure_mode() && fchown(run->dfd, getuid(), getgid())) {
		int e = errno;

		sim_run_end(run);
		return -e;
	}
	while (cmd[ncmd])
		ncmd++;
	run->argv = xcalloc(16 + cfg->ntoggles + ncmd, sizeof(*run->argv));
	run->argv[n++] = xstrdup(cfg->valgrind);
	run->argv[n++] = xstrdup(callgrind ? "--tool=callgrind"
					   : "--tool=cachegrind");
	/* not ~/.valgrindrc, ./.valgrindrc nor $VALGRIND_OPTS */
	run->argv[n++] = xstrdup("--command-line-only=yes");
	run->argv[n++] = xstrdup(cfg->no_children ? "--trace-children=no"
						  : "--trace-children=yes");
	run->argv[n++] = xasprintf("--log-file=%s/log.%%p", dir);
	run->argv[n++] = xasprintf("--%s-out-file=%s/out.%%p",
				   callgrind ? "callgrind" : "cachegrind", dir);
	run->argv[n++] = xasprintf("--cache-sim=%s",
				   cfg->cache_sim ? "yes" : "no");
	run->argv[n++] = xasprintf("--branch-sim=%s",
				   cfg->branch_sim ? "yes" : "no");
	for (size_t i = 0; i < 3; i++)
		if (cfg->cache_sim && cfg->cache[i])
			run->argv[n++] = xasprintf("--%s=%s",
						   sim_cache_levels[i],
						   cfg->cache[i]);
	for (size_t i = 0; i < cfg->ntoggles; i++)
		run->argv[n++] = xasprintf("--toggle-collect=%s",
					   cfg->toggles[i]);
	run->argv[n++] = xstrdup("--");
	for (size_t i = 0; i < ncmd; i++)
		run->argv[n++] = xstrdup(cmd[i]);
	run->argv[n] = NULL;
	return 0;
}

/* Whether path names a file this user may execute. 0 or errno. */
static int executable(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return errno;
	if (S_ISDIR(st.st_mode))
		return EACCES;
	return access(path, X_OK) ? errno : 0;
}

int sim_command_check(const char *cmd)
{
	const char *path = getenv("PATH"), *p;
	int e = ENOENT;

	if (!*cmd)
		return ENOENT;
	if (strchr(cmd, '/'))
		return executable(cmd);
	/* as execvp: the first executable in $PATH (its default without) */
	if (!path)
		path = "/bin:/usr/bin";
	for (p = path;; p++) {
		const char *end = strchrnul(p, ':');
		char *full = end == p ? xasprintf("%s", cmd) :
					xasprintf("%.*s/%s", (int)(end - p), p,
						  cmd);
		int r = executable(full);

		free(full);
		if (!r)
			return 0;
		if (r == EACCES)
			e = EACCES;
		if (!*end)
			return e;
		p = end;
	}
}

/* "out.PID" and the like: the pid, or -1. */
static long name_pid(const char *name, const char *prefix)
{
	size_t k = strlen(prefix);
	uint64_t pid;

	if (strncmp(name, prefix, k) || parse_u64(name + k, INT_MAX, &pid))
		return -1;
	return (long)pid;
}

/* Open file name of the run's directory for reading, as a stream. */
static FILE *open_in(const struct pstat_sim_run *run, const char *name)
{
	int fd = openat(run->dfd, name,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "r"))) {
		close(fd);
		return NULL;
	}
	return f;
}

/*
 * What the log of process pid says about how Valgrind ran it: an
 * instruction it could not emulate, or its own failure. Into run->why.
 */
static void read_log(struct pstat_sim_run *run, long pid, int failed)
{
	char name[32], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	snprintf(name, sizeof(name), "log.%ld", pid);
	f = open_in(run, name);
	if (!f)
		return;
	while ((len = getline(&line, &cap, f)) > 0) {
		const char *s;

		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		if ((s = strstr(line, "unhandled instruction bytes:"))) {
			snprintf(run->why, sizeof(run->why),
				 "valgrind cannot emulate an instruction of the command (%.190s)",
				 s);
			break;
		}
		/* "==PID== valgrind: ..." and the like: Valgrind's own */
		if (failed && !run->why[0] && (s = strstr(line, "valgrind: ")))
			snprintf(run->why, sizeof(run->why), "%.240s", s);
	}
	free(line);
	fclose(f);
}

int sim_run_collect(struct pstat_sim_run *run, pid_t top,
		    const struct pstat_evlist *evl, uint64_t *vals)
{
	struct pstat_sim_totals sum = { .n = 0 }, t;
	int dfd = dup(run->dfd), found = 0, r = 0;
	struct dirent *de;
	DIR *d;

	run->why[0] = '\0';
	if (dfd < 0)
		return -errno;
	d = fdopendir(dfd);
	if (!d) {
		r = -errno;
		close(dfd);
		return r;
	}
	rewinddir(d); /* the offset is shared with run->dfd */
	while ((de = readdir(d)) && !r) {
		long pid = name_pid(de->d_name, "out.");
		FILE *f;

		if (pid < 0 || !(f = open_in(run, de->d_name)))
			continue;
		if (!sim_parse_out(f, &t)) {
			r = sim_totals_add(&sum, &t);
			found |= pid == top;
		}
		fclose(f);
	}
	closedir(d);
	if (r)
		return r;
	read_log(run, top, !found);
	if (!found)
		return -ENOEXEC;
	for (size_t i = 0; i < evl->n; i++) {
		const struct pstat_event *ev = &evl->ev[i];
		const struct pstat_sim_event *se;

		vals[i] = 0;
		if (ev->attr.type != PSTAT_SIM_TYPE ||
		    !(se = sim_event_get(ev->attr.config)))
			continue;
		for (size_t k = 0; se->parts[k]; k++)
			vals[i] += sim_totals_get(&sum, se->parts[k]);
	}
	return 0;
}

void sim_run_end(struct pstat_sim_run *run)
{
	if (!run)
		return;
	if (run->dfd >= 0) {
		int dfd = dup(run->dfd);
		DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
		struct dirent *de;

		if (!d && dfd >= 0)
			close(dfd);
		if (d)
			rewinddir(d);
		while (d && (de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				unlinkat(run->dfd, de->d_name, 0);
		if (d)
			closedir(d);
		close(run->dfd);
		rmdir(run->dir);
	}
	free(run->dir);
	for (size_t i = 0; run->argv && run->argv[i]; i++)
		free(run->argv[i]);
	free(run->argv);
	memset(run, 0, sizeof(*run));
	run->dfd = -1;
}
