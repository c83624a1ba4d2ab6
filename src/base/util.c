/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/util.h"

static void *oom(void)
{
	msg_error("out of memory");
	exit(125);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : oom();
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	return p ? p : oom();
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	return p ? p : oom();
}

void xgrow(void **p, size_t *alloc, size_t n, size_t sz)
{
	size_t want;

	if (n <= *alloc)
		return;
	want = *alloc ? *alloc * 2 : 8;
	if (want < n)
		want = n;
	if (want > SIZE_MAX / sz)
		oom();
	*p = xrealloc(*p, want * sz);
	*alloc = want;
}

void xgrow_aligned(void **p, size_t *alloc, size_t n, size_t sz)
{
	size_t want;
	void *q;

	if (n <= *alloc)
		return;
	want = *alloc ? *alloc * 2 : 8;
	if (want < n)
		want = n;
	if (want > SIZE_MAX / sz || posix_memalign(&q, 64, want * sz))
		oom();
	if (*alloc)
		memcpy(q, *p, *alloc * sz);
	free(*p);
	*p = q;
	*alloc = want;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	return p ? p : oom();
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	return p ? p : oom();
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		oom();
	return s;
}

int parse_u64_base(const char *s, int base, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (end == s || *end)
		return -EINVAL;
	if (errno == ERANGE || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	/* Base 0 would read a leading 0 as octal, which nobody means here. */
	if (s && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return s[2] ? parse_u64_base(s + 2, 16, max, out) : -EINVAL;
	return parse_u64_base(s, 10, max, out);
}

char *read_file_max(int dirfd, const char *path, size_t max)
{
	size_t len = 0, alloc = max < 4096 ? max + 1 : 4096;
	char *buf;
	struct stat st;
	ssize_t n = 0;
	int e, fd;

	/*
	 * O_NONBLOCK: a FIFO planted where a sysfs file should be opens at
	 * once, and is then refused, rather than wait for a writer.
	 */
	fd = openat(dirfd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		close(fd);
		errno = e;
		return NULL;
	}
	buf = xmalloc(alloc);
	for (;;) {
		if (len == alloc - 1) {
			if (alloc > max) {
				/* max bytes read: one more says it is longer */
				char c;

				do
					n = read(fd, &c, 1);
				while (n < 0 && errno == EINTR);
				if (n > 0)
					errno = EFBIG, n = -1;
				break;
			}
			alloc = alloc * 2 > max + 1 ? max + 1 : alloc * 2;
			buf = xrealloc(buf, alloc);
		}
		n = read(fd, buf + len, alloc - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	e = errno;
	close(fd);
	if (n < 0) {
		free(buf);
		errno = e;
		return NULL;
	}
	buf[len] = '\0';
	while (len && isspace((unsigned char)buf[len - 1]))
		buf[--len] = '\0';
	return buf;
}

char *read_file_at(int dirfd, const char *path)
{
	return read_file_max(dirfd, path, READ_FILE_MAX);
}

char *read_file_str(const char *path)
{
	return read_file_at(AT_FDCWD, path);
}

char *str_trim(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

bool str_starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool str_is_hex(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return false;
	return true;
}

const char *str_raw_hex(const char *s)
{
	const char *p = s + 1;

	if (s[0] != 'r')
		return NULL;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	return str_is_hex(p) ? p : NULL;
}

static bool same_letter(char a, char b)
{
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

/* Rows i-2, i-1 and i of the classic table, rotated. */
size_t str_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), rows[3][64];
	size_t *pp = rows[0], *prev = rows[1], *cur = rows[2], *t;

	if (la >= 63 || lb >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] +
				     !same_letter(a[i - 1], b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins)
					   : (del < ins ? del : ins);
			if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) &&
			    same_letter(a[i - 2], b[j - 1]) &&
			    pp[j - 2] + 1 < cur[j])
				cur[j] = pp[j - 2] + 1;
		}
		t = pp;
		pp = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

void str_suggest_init(struct str_suggest *s, const char *want)
{
	s->want = want;
	s->best = NULL;
	s->dist = (size_t)-1;
}

void str_suggest_offer(struct str_suggest *s, const char *name,
		       const char *shown)
{
	size_t d = str_edit_distance(s->want, name);

	if (d < s->dist) {
		s->dist = d;
		free(s->best);
		s->best = xstrdup(shown ? shown : name);
	}
}

void str_suggest_cb(const char *name, void *arg)
{
	str_suggest_offer(arg, name, NULL);
}

bool str_suggest_close(const struct str_suggest *s, size_t max_dist)
{
	size_t len = strlen(s->want);

	return s->best && s->dist <= max_dist &&
	       s->dist <= (len > 3 ? len : 3) / 3;
}

char *str_suggest_take(struct str_suggest *s)
{
	char *best = s->best;

	if (!str_suggest_close(s, 3)) {
		free(best);
		best = NULL;
	}
	str_suggest_init(s, s->want);
	return best;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One word into h: a multiply, and the high half folded back down. */
static uint64_t hash_word(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 32);
}

uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	uint64_t w = 0;

	/* a word at a time: names of threads are hashed by the thousand */
	for (; n >= 8; c += 8, n -= 8) {
		memcpy(&w, c, 8);
		h = hash_word(h, w);
	}
	w = (uint64_t)n << 56;
	for (size_t i = 0; i < n; i++)
		w |= (uint64_t)c[i] << (8 * i);
	return hash_word(h, w);
}

uint64_t hash_str(uint64_t h, const char *s)
{
	/* the length goes in too: "ab" + "c" and "a" + "bc" differ */
	return s ? hash_bytes(h, s, strlen(s)) : hash_word(h, UINT64_MAX);
}

const char *env_root(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

char *str_escape(const char *s)
{
	size_t len = strlen(s), o = 0;
	char *out = xmalloc(4 * len + 1);

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else if (*p < 0x20 || *p == 0x7f) {
			o += (size_t)sprintf(out + o, "\\x%02x", *p);
		} else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			/* a C1 control in UTF-8 (U+009B is a CSI) */
			o += (size_t)sprintf(out + o, "\\xc2\\x%02x", p[1]);
			p++;
		} else {
			out[o++] = (char)*p;
		}
	}
	out[o] = '\0';
	return out;
}
