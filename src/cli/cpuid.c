/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cli/cpuid.h"

/* The value of the first "key : value" line for key, into out. */
static int cpuinfo_field(const char *text, const char *key, char *out,
			 size_t len)
{
	size_t klen = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : l) {
		const char *colon;
		size_t n;

		if (strncmp(l, key, klen) || (l[klen] != ' ' && l[klen] != '\t' &&
					      l[klen] != ':'))
			continue;
		colon = strchr(l, ':');
		if (!colon)
			return -1;
		colon += 1 + strspn(colon + 1, " \t");
		n = strcspn(colon, "\n");
		snprintf(out, len, "%.*s", (int)n, colon);
		return 0;
	}
	return -1;
}

char *cpuid_describe(void)
{
	char *text = read_file_str("/proc/cpuinfo");
	char vendor[64], family[16], model[16], impl[16], part[16];
	char *d = NULL;

	if (!text)
		return NULL;
	if (!cpuinfo_field(text, "vendor_id", vendor, sizeof(vendor)) &&
	    !cpuinfo_field(text, "cpu family", family, sizeof(family)) &&
	    !cpuinfo_field(text, "model", model, sizeof(model)))
		d = xasprintf("%s family %s model %s (%#lx)", vendor, family,
			      model, strtoul(model, NULL, 10));
	else if (!cpuinfo_field(text, "CPU implementer", impl, sizeof(impl)) &&
		 !cpuinfo_field(text, "CPU part", part, sizeof(part)))
		d = xasprintf("CPU implementer %s part %s", impl, part);
	free(text);
	return d;
}
