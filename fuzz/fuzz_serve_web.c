/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: `pstat serve --web.config.file`'s parser
 * (serve_web_parse: libyaml's document, then the settings pstat takes).
 * The input is the file. Its cert_file and key_file are looked for in a
 * directory that does not exist, so that no file of the machine is
 * read. A configuration that parses has its users checked with a
 * password (crypt(3)), only where the hash's bcrypt cost is 4 or 5:
 * a cost of 31 would take days, and is the user's own choice.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/serve_web.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct serve_web *w = NULL;
	char why[512], *text;
	size_t i;

	if (size > 65536)
		return 0;
	/* exactly size bytes, no terminator: an overread is a finding */
	text = malloc(size ? size : 1);
	memcpy(text, data, size);
	if (!serve_web_parse(text, size, "/nonexistent/pstat-fuzz", &w, why,
			     sizeof(why))) {
		for (i = 0; i < w->nusers; i++) {
			const char *h = w->users[i].hash;

			if (strlen(h) > 7 && h[4] == '0' &&
			    (h[5] == '4' || h[5] == '5'))
				serve_web_check(w, w->users[i].name, "s3cret");
		}
		serve_web_free(w);
	} else if (!memchr(why, '\0', sizeof(why)) || !why[0]) {
		/* a failure always says why */
		abort();
	}
	free(text);
	return 0;
}
