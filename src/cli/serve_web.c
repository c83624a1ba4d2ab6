/* SPDX-License-Identifier: MIT */
/*
 * The Prometheus exporters' web configuration file (exporter-toolkit's
 * format), as far as pstat serve implements it:
 *
 *   tls_server_config:
 *     cert_file: server.crt      # PEM, relative to the file's directory
 *     key_file: server.key
 *   basic_auth_users:
 *     alice: $2y$10$...          # bcrypt
 *
 * Any other key is refused by name, as exporter-toolkit refuses keys it
 * does not know: a setting silently ignored (client certificates, a TLS
 * version) would be a hole the user thinks closed. The YAML goes through
 * libyaml's document loader, which shares aliased nodes rather than
 * copying them; the passwords through crypt(3) of libxcrypt, which
 * checks bcrypt's $2y$, $2b$ and $2a$. Both are loaded with dlopen.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <crypt.h>
#include <yaml.h>

#include "cli/serve_web.h"
#include "base/secure.h"
#include "base/util.h"

/* A configuration, a certificate or a key longer than this is refused. */
#define WEB_FILE_MAX (1 << 20)

static struct {
	void *yaml, *crypt;
	int (*init)(yaml_parser_t *);
	void (*set_input)(yaml_parser_t *, const unsigned char *, size_t);
	int (*load)(yaml_parser_t *, yaml_document_t *);
	yaml_node_t *(*root)(yaml_document_t *);
	yaml_node_t *(*node)(yaml_document_t *, int);
	void (*doc_delete)(yaml_document_t *);
	void (*parser_delete)(yaml_parser_t *);
	char *(*crypt_r)(const char *, const char *, struct crypt_data *);
} lib;

static pthread_mutex_t lib_lock = PTHREAD_MUTEX_INITIALIZER;

static int web_libs_load(char *why, size_t len)
{
	int r = 0;

	pthread_mutex_lock(&lib_lock);
	if (lib.yaml)
		goto out;
	lib.yaml = dlopen("libyaml-0.so.2", RTLD_NOW | RTLD_LOCAL);
	lib.crypt = dlopen("libcrypt.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib.yaml || !lib.crypt) {
		snprintf(why, len, "cannot load %s (Debian: %s)",
			 lib.yaml ? "libcrypt.so.1" : "libyaml-0.so.2",
			 lib.yaml ? "libcrypt1" : "libyaml-0-2");
		goto fail;
	}
	*(void **)&lib.init = dlsym(lib.yaml, "yaml_parser_initialize");
	*(void **)&lib.set_input = dlsym(lib.yaml, "yaml_parser_set_input_string");
	*(void **)&lib.load = dlsym(lib.yaml, "yaml_parser_load");
	*(void **)&lib.root = dlsym(lib.yaml, "yaml_document_get_root_node");
	*(void **)&lib.node = dlsym(lib.yaml, "yaml_document_get_node");
	*(void **)&lib.doc_delete = dlsym(lib.yaml, "yaml_document_delete");
	*(void **)&lib.parser_delete = dlsym(lib.yaml, "yaml_parser_delete");
	*(void **)&lib.crypt_r = dlsym(lib.crypt, "crypt_r");
	if (lib.init && lib.set_input && lib.load && lib.root && lib.node &&
	    lib.doc_delete && lib.parser_delete && lib.crypt_r)
		goto out;
	snprintf(why, len, "libyaml or libcrypt lacks a function pstat needs");
fail:
	if (lib.yaml)
		dlclose(lib.yaml);
	if (lib.crypt)
		dlclose(lib.crypt);
	memset(&lib, 0, sizeof(lib));
	r = -1;
out:
	pthread_mutex_unlock(&lib_lock);
	return r;
}

/* A scalar's text, or NULL when n is not a scalar. */
static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ?
		       (const char *)n->data.scalar.value : NULL;
}

/*
 * A file named in the configuration (under key, for the message; NULL:
 * the configuration itself), relative to its directory.
 */
static char *read_named(const char *dir, const char *name, const char *key,
			size_t *n, char *why, size_t len)
{
	char *path = name[0] == '/' || !dir ? xstrdup(name)
					    : xasprintf("%s/%s", dir, name);
	char *text = NULL;
	int r;

	r = secure_read_user(path, SECURE_OPEN_REG | SECURE_OPEN_FIFO,
			     WEB_FILE_MAX, &text, n);
	if (r && key)
		snprintf(why, len, "%s '%s': %s", key, path,
			 r == -EFBIG ? "larger than 1 MiB" : strerror(-r));
	else if (r)
		snprintf(why, len, "%s",
			 r == -EFBIG ? "larger than 1 MiB" : strerror(-r));
	free(path);
	return r ? NULL : text;
}

static int parse_tls(yaml_document_t *d, yaml_node_t *m, const char *dir,
		     struct serve_web *w, char *why, size_t len)
{
	const char *cert = NULL, *key = NULL;
	yaml_node_pair_t *p;
	size_t n;

	if (m->type != YAML_MAPPING_NODE) {
		snprintf(why, len, "tls_server_config is not a mapping");
		return -1;
	}
	for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top;
	     p++) {
		const char *k = scalar(lib.node(d, p->key));
		const char *v = scalar(lib.node(d, p->value));

		if (!k || !v) {
			snprintf(why, len, "tls_server_config: %s is not a string",
				 k ? k : "a key");
			return -1;
		}
		if ((!strcmp(k, "cert_file") && cert) ||
		    (!strcmp(k, "key_file") && key)) {
			snprintf(why, len, "tls_server_config: '%s' given twice", k);
			return -1;
		}
		if (!strcmp(k, "cert_file"))
			cert = v;
		else if (!strcmp(k, "key_file"))
			key = v;
		else {
			snprintf(why, len, "tls_server_config: '%s' is not supported by pstat serve (only cert_file and key_file)",
				 k);
			return -1;
		}
	}
	if (!cert || !key || !*cert || !*key) {
		snprintf(why, len, "tls_server_config needs both cert_file and key_file");
		return -1;
	}
	w->cert = read_named(dir, cert, "cert_file", &n, why, len);
	if (!w->cert)
		return -1;
	w->key = read_named(dir, key, "key_file", &n, why, len);
	return w->key ? 0 : -1;
}

static int parse_users(yaml_document_t *d, yaml_node_t *m,
		       struct serve_web *w, char *why, size_t len)
{
	yaml_node_pair_t *p;
	size_t n, i;

	if (m->type == YAML_SCALAR_NODE && !*scalar(m))
		return 0;
	if (m->type != YAML_MAPPING_NODE) {
		snprintf(why, len, "basic_auth_users is not a mapping");
		return -1;
	}
	n = (size_t)(m->data.mapping.pairs.top - m->data.mapping.pairs.start);
	w->users = xcalloc(n ? n : 1, sizeof(*w->users));
	for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top;
	     p++) {
		const char *k = scalar(lib.node(d, p->key));
		const char *v = scalar(lib.node(d, p->value));

		if (!k || !v) {
			snprintf(why, len, "basic_auth_users: %s is not a string",
				 k ? k : "a user name");
			return -1;
		}
		/* bcrypt, as exporter-toolkit requires */
		if (strncmp(v, "$2y$", 4) && strncmp(v, "$2b$", 4) &&
		    strncmp(v, "$2a$", 4)) {
			snprintf(why, len, "basic_auth_users: the password of '%s' is not a bcrypt hash ($2y$...)",
				 k);
			return -1;
		}
		for (i = 0; i < w->nusers; i++)
			if (!strcmp(w->users[i].name, k)) {
				snprintf(why, len, "basic_auth_users: '%s' given twice",
					 k);
				return -1;
			}
		w->users[w->nusers].name = xstrdup(k);
		w->users[w->nusers].hash = xstrdup(v);
		w->nusers++;
	}
	return 0;
}

int serve_web_parse(const char *text, size_t len, const char *dir,
		    struct serve_web **out, char *why, size_t why_len)
{
	struct serve_web *w;
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_node_t *root;
	yaml_node_pair_t *p;
	int r = -1;

	*out = NULL;
	if (web_libs_load(why, why_len))
		return -1;
	w = xcalloc(1, sizeof(*w));
	if (!lib.init(&parser)) {
		snprintf(why, why_len, "out of memory");
		free(w);
		return -1;
	}
	lib.set_input(&parser, (const unsigned char *)text, len);
	if (!lib.load(&parser, &doc)) {
		snprintf(why, why_len, "not YAML: %s at line %zu",
			 parser.problem ? parser.problem : "an error",
			 parser.problem_mark.line + 1);
		lib.parser_delete(&parser);
		free(w);
		return -1;
	}
	root = lib.root(&doc);
	/* an empty file: neither TLS nor users, as for exporter-toolkit */
	if (!root || (root->type == YAML_SCALAR_NODE && !*scalar(root))) {
		r = 0;
		goto out;
	}
	if (root->type != YAML_MAPPING_NODE) {
		snprintf(why, why_len, "not a mapping of settings");
		goto out;
	}
	for (p = root->data.mapping.pairs.start;
	     p < root->data.mapping.pairs.top; p++) {
		const char *k = scalar(lib.node(&doc, p->key));
		yaml_node_t *v = lib.node(&doc, p->value);
		struct serve_web_user *users = w->users;

		if (k && v &&
		    ((!strcmp(k, "tls_server_config") && w->cert) ||
		     (!strcmp(k, "basic_auth_users") && users))) {
			snprintf(why, why_len, "'%s' given twice", k);
			goto out;
		}
		if (k && v && !strcmp(k, "tls_server_config")) {
			if (parse_tls(&doc, v, dir, w, why, why_len))
				goto out;
		} else if (k && v && !strcmp(k, "basic_auth_users")) {
			if (parse_users(&doc, v, w, why, why_len))
				goto out;
		} else {
			snprintf(why, why_len, "'%s' is not supported by pstat serve (only tls_server_config and basic_auth_users)",
				 k ? k : "a key that is not a string");
			goto out;
		}
	}
	r = 0;
out:
	lib.doc_delete(&doc);
	lib.parser_delete(&parser);
	if (r)
		serve_web_free(w);
	else
		*out = w;
	return r;
}

int serve_web_load(const char *path, struct serve_web **out, char *why,
		   size_t len)
{
	const char *slash = strrchr(path, '/');
	char *text, *dir;
	size_t n;
	int r;

	dir = slash ? xstrndup(path, (size_t)(slash - path + (slash == path)))
		    : NULL;
	text = read_named(NULL, path, NULL, &n, why, len);
	if (!text) {
		free(dir);
		return -1;
	}
	r = serve_web_parse(text, n, dir, out, why, len);
	free(text);
	free(dir);
	return r;
}

/* Compare a and b in a time that does not depend on where they differ. */
static bool same(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i;
	unsigned char d = la != lb;

	for (i = 0; i < la && i < lb; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return !d;
}

/*
 * A valid bcrypt hash of nothing anyone knows, checked for an unknown
 * user so that the answer takes as long as for a known one.
 */
static const char decoy[] =
	"$2y$10$UHN0YXRQc3RhdFBzdGF0UOsDCKFBeaiuX71YapdOiYel4Wv91KCWe";

bool serve_web_check(struct serve_web *w, const char *user,
		     const char *password)
{
	struct serve_web_user *u = NULL;
	struct crypt_data *cd;
	const char *got;
	bool ok;
	size_t i;

	if (!password)
		password = "";
	for (i = 0; i < w->nusers; i++)
		if (user && !strcmp(w->users[i].name, user))
			u = &w->users[i];
	/*
	 * bcrypt is slow by design (tens of ms): a password checked right
	 * is remembered, as exporter-toolkit does, so that a scrape every
	 * few seconds does not pay it each time.
	 */
	pthread_mutex_lock(&lib_lock);
	ok = u && u->ok && same(u->ok, password);
	pthread_mutex_unlock(&lib_lock);
	if (ok)
		return true;
	cd = xcalloc(1, sizeof(*cd));
	got = lib.crypt_r(password, u ? u->hash : decoy, cd);
	ok = u && got && got[0] != '*' && same(got, u->hash);
	free(cd);
	if (ok) {
		pthread_mutex_lock(&lib_lock);
		free(u->ok);
		u->ok = xstrdup(password);
		pthread_mutex_unlock(&lib_lock);
	}
	return ok;
}

void serve_web_free(struct serve_web *w)
{
	size_t i;

	if (!w)
		return;
	for (i = 0; i < w->nusers; i++) {
		free(w->users[i].name);
		free(w->users[i].hash);
		free(w->users[i].ok);
	}
	free(w->users);
	free(w->cert);
	free(w->key);
	free(w);
}
