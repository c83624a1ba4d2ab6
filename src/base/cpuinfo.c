/* SPDX-License-Identifier: MIT */
/*
 * The CPU's identity from /proc/cpuinfo (or a fixture tree's copy), and
 * the TSC frequency from CPUID or the model name.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "base/cpuinfo.h"
#include "base/secure.h"
#include "base/util.h"

/* More than any processor's lines: a file that never ends one is cut. */
#define CPUINFO_FIRST_MAX (64 * 1024)

char *cpuinfo_first(const char *root)
{
	char *path = root ? xasprintf("%s/proc/cpuinfo", root) :
			    xstrdup("/proc/cpuinfo");
	char *text = NULL, *line = NULL;
	size_t len = 0, alloc = 0, cap = 0;
	struct stat st;
	FILE *f = NULL;
	int fd, e = 0;

	if (root && secure_mode()) {
		free(path);
		errno = EPERM;
		return NULL;
	}
	/* not a FIFO planted in a tree: that open would wait for a writer */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st))
		e = errno;
	else if (!S_ISREG(st.st_mode))
		e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
	else if (!(f = fdopen(fd, "r")))
		e = errno;
	if (e) {
		close(fd);
		errno = e;
		return NULL;
	}
	/* the kernel ends each processor's lines with an empty one */
	for (ssize_t n; (n = getline(&line, &cap, f)) > 0 && line[0] != '\n';) {
		if (len + (size_t)n >= CPUINFO_FIRST_MAX)
			break;
		xgrow((void **)&text, &alloc, len + (size_t)n + 1, 1);
		memcpy(text + len, line, (size_t)n + 1);
		len += (size_t)n;
	}
	e = ferror(f) ? EIO : 0;
	free(line);
	fclose(f);
	if (!len || e) {
		free(text);
		errno = e ? e : ENODATA;
		return NULL;
	}
	return text;
}

int cpuinfo_field(const char *text, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l) {
		const char *colon, *p = l + klen;
		size_t n;

		if (strncmp(l, key, klen))
			continue;
		p += strspn(p, " \t");
		if (*p != ':')
			continue;
		colon = p + 1 + strspn(p + 1, " \t");
		n = strcspn(colon, "\n");
		snprintf(out, len, "%.*s", (int)n, colon);
		return 0;
	}
	return -1;
}

static int field_int(const char *text, const char *key)
{
	char buf[32];
	uint64_t v;

	if (cpuinfo_field(text, key, buf, sizeof(buf)) ||
	    parse_u64(buf, 0xffff, &v))
		return -1;
	return (int)v;
}

/*
 * arm64's /proc/cpuinfo has no model name: its CPU is the implementer
 * and part of its MIDR_EL1, "CPU implementer 0x41 part 0xd0c", taken from
 * cpuinfo's lines, or else from sysfs's copy of the register (bits 31:24
 * the implementer, 15:4 the part).
 */
static void arm64_model(const char *root, const char *text, char *out,
			size_t len)
{
	char impl[16], part[16], *path, *midr;
	uint64_t v;

	if (text && !cpuinfo_field(text, "CPU implementer", impl, sizeof(impl)) &&
	    !cpuinfo_field(text, "CPU part", part, sizeof(part))) {
		snprintf(out, len, "CPU implementer %s part %s", impl, part);
		return;
	}
	if (root && secure_mode())
		return;
	path = xasprintf("%s/devices/system/cpu/cpu0/regs/identification/midr_el1",
			 root ? root : "/sys");
	midr = read_file_max(AT_FDCWD, path, 64);
	free(path);
	if (midr && !parse_u64_base(midr, 16, UINT64_MAX, &v))
		snprintf(out, len, "CPU implementer %#04x part %#05x",
			 (unsigned)(v >> 24) & 0xff,
			 (unsigned)(v >> 4) & 0xfff);
	free(midr);
}

int cpuinfo_load(const char *root, struct pstat_cpuinfo *ci)
{
	char *text = cpuinfo_first(root);
	int e = errno;

	memset(ci, 0, sizeof(*ci));
	ci->family = ci->model = ci->stepping = -1;
	ci->implementer = ci->variant = ci->part = ci->revision = -1;
	if (!text) {
		arm64_model(root, NULL, ci->model_name, sizeof(ci->model_name));
		return -e;
	}
	if (cpuinfo_field(text, "vendor_id", ci->vendor, sizeof(ci->vendor)))
		ci->vendor[0] = '\0';
	ci->family = field_int(text, "cpu family");
	ci->model = field_int(text, "model");
	ci->stepping = field_int(text, "stepping");
	ci->implementer = field_int(text, "CPU implementer");
	ci->variant = field_int(text, "CPU variant");
	ci->part = field_int(text, "CPU part");
	ci->revision = field_int(text, "CPU revision");
	/* 32-bit Arm's kernels named it Processor, MIPS's cpu model */
	if (cpuinfo_field(text, "model name", ci->model_name,
			  sizeof(ci->model_name)) &&
	    cpuinfo_field(text, "Processor", ci->model_name,
			  sizeof(ci->model_name)) &&
	    cpuinfo_field(text, "cpu model", ci->model_name,
			  sizeof(ci->model_name)))
		arm64_model(root, text, ci->model_name, sizeof(ci->model_name));
	free(text);
	return 0;
}

int cpuinfo_midr(const char *root, int cpu, struct pstat_cpuinfo *ci)
{
	char *path, *s;
	uint64_t v;
	int r;

	if (root && secure_mode())
		return -EPERM;
	path = xasprintf("%s/devices/system/cpu/cpu%d/regs/identification/midr_el1",
			 root ? root : "/sys", cpu);
	s = read_file_str(path);
	r = s ? 0 : -errno;
	free(path);
	if (!s)
		return r ? r : -EIO;
	r = parse_u64(str_trim(s), 0xffffffffULL, &v);
	free(s);
	if (r)
		return r;
	/* MIDR_EL1: implementer 31:24, variant 23:20, part 15:4, revision 3:0 */
	ci->implementer = (int)(v >> 24 & 0xff);
	ci->variant = (int)(v >> 20 & 0xf);
	ci->part = (int)(v >> 4 & 0xfff);
	ci->revision = (int)(v & 0xf);
	return 0;
}

/*
 * "@ 2.40GHz": digits read by hand, as strtod would take the decimal
 * point of the user's locale.
 */
double cpuinfo_name_hz(const char *model_name)
{
	const char *p = strstr(model_name, " @ ");
	double v = 0, scale = 1;
	int digits = 0;

	if (!p)
		return NAN;
	for (p += 3; *p >= '0' && *p <= '9'; p++, digits++)
		v = v * 10 + (*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, digits++)
			v += (*p - '0') * (scale /= 10);
	if (!digits || strncmp(p, "GHz", 3) || v <= 0)
		return NAN;
	return v * 1e9;
}

#if defined(__x86_64__) || defined(__i386__)
/*
 * Intel's CPUID leaf 0x15: EAX and EBX the TSC to crystal clock ratio,
 * ECX the crystal's Hz; a zero in any means not enumerated. Other
 * vendors do not define the leaf.
 */
static double cpuid_tsc_hz(const struct pstat_cpuinfo *ci)
{
	unsigned a, b, c, d;

	if (strcmp(ci->vendor, "GenuineIntel") || __get_cpuid_max(0, NULL) < 0x15 ||
	    !__get_cpuid_count(0x15, 0, &a, &b, &c, &d) || !a || !b || !c)
		return NAN;
	return (double)c * b / a;
}
#endif

double cpuinfo_tsc_hz(const char *root, const struct pstat_cpuinfo *ci)
{
	if (root)
		return cpuinfo_name_hz(ci->model_name);
#if defined(__x86_64__) || defined(__i386__)
	double hz = cpuid_tsc_hz(ci);

	return isnan(hz) ? cpuinfo_name_hz(ci->model_name) : hz;
#else
	return NAN;
#endif
}
