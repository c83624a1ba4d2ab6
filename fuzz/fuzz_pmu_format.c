/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the sysfs format and alias file parsers and the PMU
 * term encoder. The input is lines, each a file of a made-up PMU:
 *
 *   f<name> <text>   format/<name> holding <text> (pmu_format_parse)
 *   a<name> <text>   events/<name> holding <text> (evspec_parse_terms)
 *   e <terms>        an event pmu/<terms>/ to encode (pmu_encode)
 *
 * Every format that parses is also checked on its own: a value that
 * fits its width must come back out of the config word unchanged, and
 * no bit outside its ranges may change.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "events/evspec.h"
#include "events/pmu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FILES 16

static int cmp_format(const void *a, const void *b)
{
	return strcmp(((const struct pstat_pmu_format *)a)->name,
		      ((const struct pstat_pmu_format *)b)->name);
}

static uint64_t extract(const struct pstat_pmu_format *f, uint64_t word)
{
	uint64_t v = 0;
	unsigned shift = 0;

	for (int i = 0; i < f->nranges; i++) {
		unsigned width = f->ranges[i].hi - f->ranges[i].lo + 1u;
		uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;

		v |= ((word >> f->ranges[i].lo) & mask) << shift;
		shift += width;
	}
	return v;
}

static uint64_t range_mask(const struct pstat_pmu_format *f)
{
	uint64_t m = 0;

	for (int i = 0; i < f->nranges; i++) {
		unsigned width = f->ranges[i].hi - f->ranges[i].lo + 1u;

		m |= (width == 64 ? ~0ull : (1ull << width) - 1)
		     << f->ranges[i].lo;
	}
	return m;
}

static void check_format(const struct pstat_pmu_format *f, uint64_t seed)
{
	static const uint64_t fill[] = { 0, ~0ull, 0x5555555555555555ull };
	uint64_t values[] = { 0, 1, ~0ull, seed, seed * 0x9e3779b97f4a7c15ull };
	struct pstat_error err;

	if (f->field < 0 || f->field > 2 || f->nranges < 1 ||
	    f->nranges > PMU_FORMAT_MAX_RANGES || f->nbits < 1 ||
	    f->nbits > 64)
		abort();
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		uint64_t v = values[i];
		int fits = f->nbits == 64 || !(v >> f->nbits);

		for (size_t j = 0; j < sizeof(fill) / sizeof(fill[0]); j++) {
			uint64_t cfg[3] = { fill[j], fill[j], fill[j] };
			int r = pmu_format_apply("fuzz", f, v, cfg, &err);

			if (r != (fits ? 0 : -1))
				abort();
			if (!fits)
				continue;
			if (extract(f, cfg[f->field]) != v)
				abort();
			if ((cfg[f->field] ^ fill[j]) & ~range_mask(f))
				abort();
			for (int k = 0; k < 3; k++)
				if (k != f->field && cfg[k] != fill[j])
					abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pstat_pmu_format formats[MAX_FILES];
	struct pstat_pmu_alias aliases[MAX_FILES];
	static char name[] = "fuzz";
	struct pstat_pmu pmu = { 0 };
	char *buf, *line, *next, *event = NULL;
	uint64_t seed = 0;

	if (size > 4096)
		return 0;
	for (size_t i = 0; i < size && i < 8; i++)
		seed = seed << 8 | data[i];
	buf = malloc(size + 1);
	memcpy(buf, data, size);
	buf[size] = '\0';
	pmu.name = name;
	pmu.type = 99;
	pmu.formats = formats;
	pmu.aliases = aliases;
	for (line = buf; line; line = next) {
		char *sp;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp++ = '\0';
		if (line[0] == 'f' && pmu.nformats < MAX_FILES) {
			struct pstat_pmu_format *f = &formats[pmu.nformats];
			struct pstat_error err;

			memset(f, 0, sizeof(*f));
			if (pmu_format_parse(sp, f, &err)) {
				if (!err.msg[0])
					abort();
				continue;
			}
			f->name = line + 1;
			check_format(f, seed);
			pmu.nformats++;
		} else if (line[0] == 'a' && pmu.naliases < MAX_FILES) {
			struct pstat_pmu_alias *a = &aliases[pmu.naliases++];
			struct pstat_term *terms;
			struct pstat_error err;
			size_t n;

			a->name = line + 1;
			a->terms = sp;
			a->scale = 1.0;
			a->unit = name + 4;
			a->snapshot = false;
			if (!evspec_parse_terms(sp, &terms, &n, &err))
				evspec_terms_free(terms, n);
		} else if (line[0] == 'e') {
			event = sp;
		}
	}
	qsort(formats, pmu.nformats, sizeof(*formats), cmp_format);
	if (event) {
		struct pstat_term *terms;
		struct pstat_error err;
		size_t n;

		if (!evspec_parse_terms(event, &terms, &n, &err)) {
			struct pstat_pmu_encoding enc;

			if (!pmu_encode(&pmu, terms, n, &enc, &err))
				pmu_encoding_release(&enc);
			evspec_terms_free(terms, n);
		}
	}
	free(buf);
	return 0;
}
