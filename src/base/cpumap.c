/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpumap.h"
#include "base/util.h"

/* CPU numbers above this are typos, not machines. */
#define CPU_MAX 65535

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int cpumap_parse(const char *s, int **cpus, size_t *n,
		 struct pstat_error *err)
{
	char *copy = xstrdup(s), *save = NULL, *tok;
	int *out = NULL;
	size_t cnt = 0, alloc = 0;

	*cpus = NULL;
	*n = 0;
	if (!*s) {
		free(copy);
		return error_set(err, 0, "empty CPU list");
	}
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		uint64_t lo, hi;

		if (dash)
			*dash = '\0';
		if (parse_u64(tok, CPU_MAX, &lo) ||
		    (dash && parse_u64(dash + 1, CPU_MAX, &hi))) {
			error_set(err, -1, "invalid CPU list '%s'", s);
			goto fail;
		}
		if (!dash)
			hi = lo;
		if (hi < lo) {
			error_set(err, -1, "invalid CPU range in '%s'", s);
			goto fail;
		}
		for (uint64_t c = lo; c <= hi; c++) {
			xgrow((void **)&out, &alloc, cnt + 1, sizeof(*out));
			out[cnt++] = (int)c;
		}
	}
	if (!cnt) {
		error_set(err, -1, "empty CPU list '%s'", s);
		goto fail;
	}
	free(copy);
	qsort(out, cnt, sizeof(*out), cmp_int);
	{
		size_t w = 1;

		for (size_t i = 1; i < cnt; i++)
			if (out[i] != out[w - 1])
				out[w++] = out[i];
		cnt = w;
	}
	*cpus = out;
	*n = cnt;
	return 0;
fail:
	free(copy);
	free(out);
	return -1;
}

int cpumap_online(const char *sysfs_root, int **cpus, size_t *n)
{
	char *path = xasprintf("%s/devices/system/cpu/online",
			       sysfs_root ? sysfs_root : "/sys");
	char *s = read_file_str(path);
	struct pstat_error err;
	int r;

	free(path);
	if (!s)
		return -errno;
	r = cpumap_parse(s, cpus, n, &err);
	free(s);
	return r ? -EINVAL : 0;
}

int cpumap_has(const int *cpus, size_t n, int cpu)
{
	return n && bsearch(&cpu, cpus, n, sizeof(cpu), cmp_int) != NULL;
}

char *cpumap_format(const int *cpus, size_t n, char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < n && off < len; i++) {
		size_t j = i;
		int w;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		w = j > i ? snprintf(buf + off, len - off, "%s%d-%d",
				     off ? "," : "", cpus[i], cpus[j])
			  : snprintf(buf + off, len - off, "%s%d",
				     off ? "," : "", cpus[i]);
		off += w > 0 ? (size_t)w : 0;
		i = j;
	}
	return buf;
}
