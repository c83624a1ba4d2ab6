/* SPDX-License-Identifier: MIT */
/*
 * Running with privileges pstat was not started with (see secure.h).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/fsuid.h>
#include <unistd.h>

#include "base/msg.h"
#include "base/secure.h"
#include "base/util.h"

extern char **environ;

int secure_mode(void)
{
	return getauxval(AT_SECURE) != 0;
}

void secure_scrub_env(void)
{
	static const char *const prefixes[] = { "PSTAT_", "LIBPFM_" };

	if (!secure_mode())
		return;
again:
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');

		for (size_t i = 0; eq && i < sizeof(prefixes) / sizeof(*prefixes);
		     i++) {
			char *name;

			if (strncmp(*e, prefixes[i], strlen(prefixes[i])))
				continue;
			name = xstrndup(*e, (size_t)(eq - *e));
			msg_warn("ignoring %s: pstat runs with privileges it was not started with",
				 name);
			unsetenv(name);
			free(name);
			goto again; /* environ changed under us */
		}
	}
}

static uid_t saved_fsuid;
static gid_t saved_fsgid;
static int switched;

void secure_user_files_begin(void)
{
	if (!secure_mode() || switched)
		return;
	saved_fsgid = (gid_t)setfsgid(getgid());
	saved_fsuid = (uid_t)setfsuid(getuid());
	switched = 1;
}

void secure_user_files_end(void)
{
	if (!switched)
		return;
	setfsuid(saved_fsuid);
	setfsgid(saved_fsgid);
	switched = 0;
}
