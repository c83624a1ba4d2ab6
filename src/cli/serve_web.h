/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_SERVE_WEB_H
#define PSTAT_SERVE_WEB_H

#include <stdbool.h>
#include <stddef.h>

/*
 * `pstat serve --web.config.file`: the web configuration file of the
 * Prometheus exporters (exporter-toolkit's format), read with libyaml,
 * and its basic_auth_users' bcrypt hashes checked with crypt(3)
 * (libxcrypt). Both libraries are loaded with dlopen, by serve only.
 */
struct serve_web_user {
	char *name, *hash;          /* the hash as given ($2y$...) */
	char *ok;                   /* the password last checked right */
};

struct serve_web {
	char *cert, *key;           /* PEM text of tls_server_config, or NULL */
	size_t nusers;
	struct serve_web_user *users;
};

/*
 * Read the file at path (its cert_file and key_file relative to its
 * directory), as the real user under AT_SECURE. Returns 0 with *out
 * (new) set, or -1 with why (len bytes) filled.
 */
int serve_web_load(const char *path, struct serve_web **out, char *why,
		   size_t len);

/*
 * Parse a configuration's text (len bytes; dir: the directory its
 * relative paths are in). As serve_web_load; the fuzz target calls it.
 */
int serve_web_parse(const char *text, size_t len, const char *dir,
		    struct serve_web **out, char *why, size_t why_len);

/*
 * Whether user and password (NULL: none given) are one of w's users and
 * that user's password. Thread-safe.
 */
bool serve_web_check(struct serve_web *w, const char *user,
		     const char *password);

/* Free w. NULL is fine. */
void serve_web_free(struct serve_web *w);

#endif
