/* SPDX-License-Identifier: MIT */
/*
 * A PMU's sysfs format/ files: "config1:0-7,32-35" parsed into bit
 * fields, and a term's value scattered into the attr's config words
 * through them (see pmu.h).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/pmu.h"

/*
 * A bit number of a format: decimal, up to 63. Returns it, or -1 when p
 * holds no digit (*end untouched) and 64 for anything larger than 63.
 */
static int format_bit(const char *p, const char **end)
{
	int v = 0;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++)
		if (v < 64)
			v = v * 10 + (*p - '0');
	*end = p;
	return v < 64 ? v : 64;
}

int pmu_format_parse(const char *text, struct pstat_pmu_format *f,
		     struct pstat_error *err)
{
	const char *p = text;
	uint64_t seen = 0;
	int field, n = 0, nbits = 0;

	for (const char *q = text; *q; q++)
		if (!isprint((unsigned char)*q) && !isspace((unsigned char)*q))
			return error_set(err, -1, "the file is not text");
	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return error_set(err, -1, "the file is empty");
	if (!str_starts_with(p, "config"))
		goto bad;
	p += strlen("config");
	if (*p == ':') {
		field = 0;
	} else if ((*p == '1' || *p == '2') && p[1] == ':') {
		field = *p - '0';
		p++;
	} else if (isdigit((unsigned char)*p)) {
		/* a newer kernel's config3: a real field, not one pstat has */
		return error_set(err, -1,
				 "'%s' uses a field pstat cannot encode (config, config1 and config2 only)",
				 text);
	} else {
		goto bad;
	}
	p++;
	for (;;) {
		int lo, hi;
		uint64_t mask;

		lo = format_bit(p, &p);
		if (lo < 0)
			goto bad;
		hi = lo;
		if (*p == '-') {
			hi = format_bit(p + 1, &p);
			if (hi < 0)
				goto bad;
		}
		if (lo > 63 || hi > 63)
			return error_set(err, -1,
					 "bit ranges in '%s' go past bit 63",
					 text);
		if (lo > hi)
			return error_set(err, -1,
					 "bit range %d-%d in '%s' runs backwards",
					 lo, hi, text);
		if (n == PMU_FORMAT_MAX_RANGES)
			return error_set(err, -1,
					 "more than %d bit ranges in '%s'",
					 PMU_FORMAT_MAX_RANGES, text);
		mask = (hi - lo == 63 ? ~0ull : ((1ull << (hi - lo + 1)) - 1))
		       << lo;
		if (seen & mask)
			return error_set(err, -1,
					 "bit ranges in '%s' overlap", text);
		seen |= mask;
		f->ranges[n].lo = (uint8_t)lo;
		f->ranges[n].hi = (uint8_t)hi;
		nbits += hi - lo + 1;
		n++;
		if (*p != ',')
			break;
		p++;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		goto bad;

	/*
	 * perf and the kernel treat a format as a bit mask and fill it from
	 * the lowest bit up, whatever order the ranges are written in.
	 */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && f->ranges[j].lo < f->ranges[j - 1].lo;
		     j--) {
			uint8_t lo = f->ranges[j].lo, hi = f->ranges[j].hi;

			f->ranges[j] = f->ranges[j - 1];
			f->ranges[j - 1].lo = lo;
			f->ranges[j - 1].hi = hi;
		}
	f->field = field;
	f->nranges = n;
	f->nbits = nbits;
	return 0;
bad:
	return error_set(err, -1, "'%s' is not configN:LO-HI[,LO-HI...]",
			 text);
}

int pmu_format_apply(const char *pmu, const struct pstat_pmu_format *f,
		     uint64_t value, uint64_t config[3],
		     struct pstat_error *err)
{
	uint64_t word;

	if (f->nbits < 64 && value >> f->nbits)
		return error_set(err, -1,
				 "value 0x%" PRIx64
				 " too large for '%s' of PMU '%s' (%d bit%s)",
				 value, f->name, pmu, f->nbits,
				 f->nbits == 1 ? "" : "s");
	word = config[f->field];
	for (int i = 0; i < f->nranges; i++) {
		unsigned width = f->ranges[i].hi - f->ranges[i].lo + 1u;
		uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;

		word &= ~(mask << f->ranges[i].lo);
		word |= (value & mask) << f->ranges[i].lo;
		value = width == 64 ? 0 : value >> width;
	}
	config[f->field] = word;
	return 0;
}
