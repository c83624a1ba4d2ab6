/* SPDX-License-Identifier: MIT */
/*
 * The cgroups -G and --for-each-cgroup count (see cgroup.h): the mount
 * from /proc/self/mountinfo, directories opened below it, and names
 * matched by a pattern.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "run/cgroup.h"

/* How deep cgroup_match walks: the kernel's default allows any depth. */
#define CGROUP_MAX_DEPTH 64

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static int unescape(const char *s, size_t n, char *out, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\\' && i + 3 < n && s[i + 1] >= '0' &&
		    s[i + 1] <= '3' && s[i + 2] >= '0' && s[i + 2] <= '7' &&
		    s[i + 3] >= '0' && s[i + 3] <= '7') {
			c = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 +
				   (s[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= len)
			return -ENAMETOOLONG;
		out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

/* Whether the comma-separated list s[0..n) holds the word w. */
static int has_word(const char *s, size_t n, const char *w)
{
	size_t wl = strlen(w);

	for (size_t i = 0; i + wl <= n; i++)
		if ((i == 0 || s[i - 1] == ',') && !strncmp(s + i, w, wl) &&
		    (i + wl == n || s[i + wl] == ','))
			return 1;
	return 0;
}

/*
 * One mountinfo line: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAGS...]
 * - FSTYPE SOURCE SUPEROPTS". Fills the mount point's span and returns
 * 2 for cgroup v1 with perf_event, 1 for cgroup2, 0 for anything else.
 */
static int classify(const char *line, size_t len, const char **mp,
		    size_t *mplen)
{
	const char *f[5], *p = line, *end = line + len, *sep, *fs, *so;
	size_t fl[5];

	for (int i = 0; i < 5; i++) {
		while (p < end && *p == ' ')
			p++;
		f[i] = p;
		while (p < end && *p != ' ')
			p++;
		fl[i] = (size_t)(p - f[i]);
		if (!fl[i])
			return 0;
	}
	sep = memmem(p, (size_t)(end - p), " - ", 3);
	if (!sep)
		return 0;
	fs = sep + 3;
	p = memchr(fs, ' ', (size_t)(end - fs));
	if (!p)
		return 0;
	*mp = f[4];
	*mplen = fl[4];
	if ((size_t)(p - fs) == 7 && !strncmp(fs, "cgroup2", 7))
		return 1;
	if ((size_t)(p - fs) != 6 || strncmp(fs, "cgroup", 6))
		return 0;
	/* the source, then the super options */
	so = memchr(p + 1, ' ', (size_t)(end - p - 1));
	if (!so)
		return 0;
	so++;
	return has_word(so, (size_t)(end - so), "perf_event") ? 2 : 0;
}

int cgroup_mount_parse(const char *mountinfo, char *out, size_t len,
		       int *v1)
{
	const char *best = NULL, *line = mountinfo;
	size_t bestlen = 0;
	int bestkind = 0;

	while (*line) {
		const char *nl = strchr(line, '\n'), *mp;
		size_t ll = nl ? (size_t)(nl - line) : strlen(line), mplen;
		int kind = classify(line, ll, &mp, &mplen);

		/* v1's perf_event owns the controller: it comes first */
		if (kind > bestkind) {
			best = mp;
			bestlen = mplen;
			bestkind = kind;
		}
		line += ll + (nl != NULL);
	}
	if (!best)
		return -ENOENT;
	*v1 = bestkind == 2;
	return unescape(best, bestlen, out, len);
}

int cgroup_mount_find(char *out, size_t len, int *v1,
		      struct pstat_error *err)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *text = NULL;
	size_t cap = 0, n = 0;
	int r;

	if (!f)
		return error_set(err, -1, "cannot read /proc/self/mountinfo: %s",
				 strerror(errno));
	for (;;) {
		size_t got;

		xgrow((void **)&text, &cap, n + 4097, 1);
		got = fread(text + n, 1, 4096, f);
		n += got;
		if (got < 4096)
			break;
	}
	fclose(f);
	text[n] = '\0';
	r = cgroup_mount_parse(text, out, len, v1);
	free(text);
	if (r == -ENOENT)
		return error_set(err, -1,
				 "no cgroup hierarchy counts perf events here: neither cgroup2 nor cgroup v1's perf_event is mounted");
	if (r)
		return error_set(err, -1, "the cgroup mount point is too long");
	return 0;
}

/* Whether name has a ".." component, which would leave the mount. */
static int leaves_mount(const char *name)
{
	for (const char *p = name; (p = strstr(p, "..")); p += 2)
		if ((p == name || p[-1] == '/') && (!p[2] || p[2] == '/'))
			return 1;
	return 0;
}

int cgroup_open(const char *mount, const char *name,
		struct pstat_error *err)
{
	const char *rel = name;
	int mfd, fd, e;

	while (*rel == '/')
		rel++;
	if (leaves_mount(rel))
		return error_set(err, -1,
				 "invalid cgroup '%s': a cgroup is named below the cgroup mount, without '..'",
				 name);
	mfd = open(mount, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0)
		return error_set(err, -1, "cannot open the cgroup mount '%s': %s",
				 mount, strerror(errno));
	/* cgroupfs holds no symlinks: a path through one is not a cgroup */
	fd = openat(mfd, *rel ? rel : ".",
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	e = errno;
	close(mfd);
	if (fd < 0)
		return error_set(err, -1, "cannot open cgroup '%s' (in %s): %s",
				 name, mount, strerror(e));
	return fd;
}

int cgroup_is_pattern(const char *name)
{
	return strpbrk(name, "*?[]^$+()|{}\\") != NULL;
}

struct walk {
	regex_t re;
	char **names;
	size_t n, alloc;
};

/* a + b and a * b, stopping at CGROUP_PATTERN_MAX + 1 */
static size_t sat_add(size_t a, size_t b)
{
	return a + b > CGROUP_PATTERN_MAX ? CGROUP_PATTERN_MAX + 1 : a + b;
}

static size_t sat_mul(size_t a, size_t b)
{
	return b && a > (CGROUP_PATTERN_MAX + 1) / b ? CGROUP_PATTERN_MAX + 1 :
						      a * b;
}

/* p past a bracket expression ([a-z], []x], [[:alpha:]]) that starts at p */
static const char *skip_bracket(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	while (*p && *p != ']') {
		if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
			char c = p[1];

			for (p += 2; *p && !(*p == c && p[1] == ']'); p++)
				;
			p += *p ? 2 : 0;
		} else {
			p++;
		}
	}
	return *p ? p + 1 : p;
}

/*
 * The size of extended regular expression re with its repetitions
 * {m,n} written out, as regcomp does before it builds its automaton:
 * (((.{255}){255}){255}) is sixteen million atoms, 12 s and 3.3 GB in
 * glibc's regcomp. Each character, escape or bracket expression counts
 * one; a repetition multiplies what it repeats by its largest count.
 * Stops counting past CGROUP_PATTERN_MAX.
 */
size_t cgroup_pattern_size(const char *re)
{
	size_t outer[64], sum = 0, last = 0, depth = 0;
	const char *p = re;

	while (*p && sum <= CGROUP_PATTERN_MAX) {
		if (*p == '(') {
			if (depth == ARRAY_SIZE(outer))
				return CGROUP_PATTERN_MAX + 1;
			outer[depth++] = sum;
			sum = last = 0;
			p++;
		} else if (*p == ')' && depth) {
			last = sum ? sum : 1;
			sum = sat_add(outer[--depth], last);
			p++;
		} else if (*p == '{' && last) {
			char *end;
			unsigned long m = strtoul(p + 1, &end, 10), n = m;

			if (*end == ',' && end[1] == '}')
				n = m + 1;
			else if (*end == ',')
				n = strtoul(end + 1, &end, 10);
			while (*end && *end != '}')
				end++;
			p = *end ? end + 1 : end;
			n = n > m ? n : m;
			if (n > 1) {
				sum = sat_add(sum, sat_mul(last, n - 1));
				last = sat_mul(last, n);
			}
		} else {
			/* an atom; or what repeats none: * + ? | ^ $ */
			last = strchr("*+?|^$", *p) ? 0 : 1;
			p = *p == '[' ? skip_bracket(p) :
					p + (*p == '\\' && p[1] ? 2 : 1);
			sum = sat_add(sum, 1);
		}
	}
	return sum;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Whether re matches all of s. The pattern is compiled as written, not
 * wrapped in ^(...)$, which would shift its groups' numbers (\\1 would
 * name the wrapper): the leftmost-longest match must span s.
 */
static int whole_match(const regex_t *re, const char *s)
{
	regmatch_t m[1];

	return !regexec(re, s, 1, m, 0) && m[0].rm_so == 0 &&
	       (size_t)m[0].rm_eo == strlen(s);
}

/* Match rel (the cgroup at dfd), then walk its children. */
static void walk_dir(struct walk *w, int dfd, const char *rel, int depth)
{
	DIR *d;
	struct dirent *de;

	if (whole_match(&w->re, *rel ? rel : "/")) {
		xgrow((void **)&w->names, &w->alloc, w->n + 1,
		      sizeof(*w->names));
		w->names[w->n++] = xstrdup(*rel ? rel : "/");
	}
	if (depth >= CGROUP_MAX_DEPTH || !(d = fdopendir(dfd))) {
		close(dfd);
		return;
	}
	while ((de = readdir(d))) {
		char *sub;
		int cfd;

		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") ||
		    !strcmp(de->d_name, ".."))
			continue;
		cfd = openat(dirfd(d), de->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (cfd < 0)
			continue;
		sub = *rel ? xasprintf("%s/%s", rel, de->d_name)
			   : xstrdup(de->d_name);
		walk_dir(w, cfd, sub, depth + 1);
		free(sub);
	}
	closedir(d);
}

int cgroup_match(const char *mount, const char *re, char ***names,
		 size_t *n, struct pstat_error *err)
{
	struct walk w = { 0 };
	char msg[128];
	int r, fd;

	*names = NULL;
	*n = 0;
	if (cgroup_pattern_size(re) > CGROUP_PATTERN_MAX)
		return error_set(err, -1,
				 "cgroup pattern '%.64s%s' is too large: more than %d characters with its {m,n} repeats written out",
				 re, strlen(re) > 64 ? "..." : "",
				 CGROUP_PATTERN_MAX);
	r = regcomp(&w.re, re, REG_EXTENDED);
	if (r) {
		regerror(r, &w.re, msg, sizeof(msg));
		return error_set(err, -1, "invalid cgroup pattern '%s': %s",
				 re, msg);
	}
	fd = open(mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		regfree(&w.re);
		return error_set(err, -1, "cannot open the cgroup mount '%s': %s",
				 mount, strerror(errno));
	}
	walk_dir(&w, fd, "", 0);
	regfree(&w.re);
	if (w.n)
		qsort(w.names, w.n, sizeof(*w.names), cmp_names);
	*names = w.names;
	*n = w.n;
	return 0;
}

int cgroup_open_events(const struct pstat_evlist *evl, int **fds,
		       struct pstat_error *err)
{
	char mount[4096];
	int v1, *f;

	*fds = NULL;
	for (size_t i = 0; i < evl->n && !*fds; i++)
		if (evl->ev[i].cgroup)
			*fds = xmalloc(evl->n * sizeof(**fds));
	if (!*fds)
		return 0;
	f = *fds;
	for (size_t i = 0; i < evl->n; i++)
		f[i] = -1;
	if (cgroup_mount_find(mount, sizeof(mount), &v1, err))
		goto fail;
	for (size_t i = 0; i < evl->n; i++) {
		const char *name = evl->ev[i].cgroup;

		if (!name)
			continue;
		for (size_t k = 0; k < i && f[i] < 0; k++)
			if (evl->ev[k].cgroup && !strcmp(evl->ev[k].cgroup, name))
				f[i] = f[k];
		if (f[i] < 0 && (f[i] = cgroup_open(mount, name, err)) < 0)
			goto fail;
	}
	return 0;
fail:
	cgroup_close_events(evl, f);
	*fds = NULL;
	return -1;
}

void cgroup_close_events(const struct pstat_evlist *evl, int *fds)
{
	if (!fds)
		return;
	for (size_t i = 0; i < evl->n; i++) {
		int shared = 0;

		for (size_t k = 0; k < i && !shared; k++)
			shared = fds[k] == fds[i];
		if (fds[i] >= 0 && !shared)
			close(fds[i]);
	}
	free(fds);
}

static int cmp_str_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t cgroup_count_dirs(const struct pstat_evlist *evl)
{
	const char **v = xcalloc(evl->n + 1, sizeof(*v));
	size_t n = 0, distinct = 0;

	for (size_t i = 0; i < evl->n; i++)
		if (evl->ev[i].cgroup)
			v[n++] = evl->ev[i].cgroup;
	qsort(v, n, sizeof(*v), cmp_str_ptr);
	for (size_t i = 0; i < n; i++)
		distinct += !i || strcmp(v[i - 1], v[i]);
	free(v);
	return distinct;
}
