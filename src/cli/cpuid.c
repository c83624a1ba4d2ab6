/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpuinfo.h"
#include "base/util.h"
#include "cli/cpuid.h"

char *cpuid_describe(void)
{
	char *text = cpuinfo_first(NULL);
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
