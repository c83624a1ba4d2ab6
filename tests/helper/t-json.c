/* SPDX-License-Identifier: MIT */
/*
 * pstat-test jansson-real: each line of stdin a JSON number, read by
 * jansson's parser (as pstat compare reads documents), printed as a hex
 * float (%a), one a line; "error" where jansson refuses it.
 */
#include <jansson.h>
#include <stdio.h>

#include "test-tool.h"

int t_jansson_real(int argc, char **argv)
{
	char line[256];

	(void)argc;
	(void)argv;
	while (fgets(line, sizeof(line), stdin)) {
		json_t *v = json_loads(line, JSON_DECODE_ANY, NULL);

		if (v && json_is_number(v))
			printf("%a\n", json_number_value(v));
		else
			puts("error");
		json_decref(v);
	}
	return 0;
}
