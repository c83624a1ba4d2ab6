/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "events/encode_priv.h"
#include "events/legacy.h"
#include "events/pfm.h"
#include "events/sim_events.h"
#include "events/tracepoint.h"

/*
 * Whether s is a raw event "rNNNN": 1 with *config set, 0 when it is not
 * spelled so, -1 with err filled when it is but does not fit in 64 bits.
 */
static int is_raw(const char *s, uint64_t *config, struct pstat_error *err)
{
	const char *hex = str_raw_hex(s);

	if (!hex)
		return 0;
	if (parse_u64_base(hex, 16, UINT64_MAX, config))
		return error_set(err, -1,
				 "invalid raw event '%s': 0x%s is too large (the config is 64 bits)",
				 s, hex);
	return 1;
}

/* mem:ADDR[/LEN][:rwx] */
static int parse_breakpoint(const char *name, struct perf_event_attr *attr,
			    struct pstat_error *err)
{
	char *s = xstrdup(name + 4), *access, *len;
	uint64_t addr, blen = 0;
	unsigned type = 0;
	int r = -1;

	access = strchr(s, ':');
	if (access)
		*access++ = '\0';
	len = strchr(s, '/');
	if (len)
		*len++ = '\0';
	if (parse_u64(s, UINT64_MAX, &addr)) {
		error_set(err, -1, "invalid breakpoint address '%s' in '%s'",
			  s, name);
		goto out;
	}
	/*
	 * Any of r, w and x once each, as perf's grammar takes them. Like
	 * perf, the attr is built even for what this CPU cannot watch (x
	 * with r or w, a length other than 1, 2, 4 or 8 on x86): the
	 * kernel is the judge, and other architectures take more.
	 */
	for (const char *p = access; p && *p; p++) {
		unsigned bit = *p == 'r' ? HW_BREAKPOINT_R :
			       *p == 'w' ? HW_BREAKPOINT_W :
			       *p == 'x' ? HW_BREAKPOINT_X : 0;

		if (!bit || (type & bit)) {
			error_set(err, -1,
				  "invalid breakpoint access '%s' in '%s' (r, w and x, each at most once)",
				  access, name);
			goto out;
		}
		type |= bit;
	}
	if (access && !*access) {
		error_set(err, -1, "empty breakpoint access in '%s'", name);
		goto out;
	}
	if (!type)
		type = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	if (len && parse_u64(len, UINT64_MAX, &blen)) {
		error_set(err, -1,
			  "invalid breakpoint length '%s' in '%s' (a number of bytes)",
			  len, name);
		goto out;
	}
	/* a length of 0 is the default, as in perf */
	if (!blen)
		blen = type == HW_BREAKPOINT_X ? sizeof(long) : 4;
	attr->type = PERF_TYPE_BREAKPOINT;
	attr->config = 0;
	attr->bp_type = type;
	attr->bp_addr = addr;
	attr->bp_len = blen;
	r = 0;
out:
	free(s);
	return r;
}

/* libpfm4's "pmu::EVENT" names: a typo of either the whole or the event. */
static void offer_pfm_name(const char *name, void *arg)
{
	const char *sep = strstr(name, "::");

	str_suggest_offer(arg, name, NULL);
	if (sep)
		str_suggest_offer(arg, sep + 2, name);
}

struct tp_offer {
	struct str_suggest *s;
	char buf[256];
};

/*
 * A bare tracepoint event name ("sched_switch") for its full name: the
 * event directories are offered one by one, none is read.
 */
static bool offer_tracepoint(const char *sys, const char *ev, void *arg)
{
	struct tp_offer *o = arg;
	int n = snprintf(o->buf, sizeof(o->buf), "%s:%s", sys, ev);

	if (n > 0 && (size_t)n < sizeof(o->buf))
		str_suggest_offer(o->s, ev, o->buf);
	return false;
}

/* The closest known name, or NULL when nothing is close (new string). */
static char *suggest_name(struct encoder *e, const char *want)
{
	struct str_suggest s;
	const struct pstat_pmu **pmus = NULL;
	size_t n;

	str_suggest_init(&s, want);
	legacy_foreach_name(str_suggest_cb, &s);
	n = pmus_all(e->ctx->pmus, &pmus);
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < pmus[i]->naliases; j++) {
			char *full = xasprintf("%s/%s/", pmus[i]->name,
					       pmus[i]->aliases[j].name);

			str_suggest_offer(&s, pmus[i]->aliases[j].name, full);
			free(full);
		}
	}
	free(pmus);
	/*
	 * A tracepoint's event without its subsystem; only when nothing
	 * cheaper matched (this lists every subsystem's directory).
	 */
	if (!strpbrk(want, ":/*?[") && !str_suggest_close(&s, 1)) {
		struct tp_offer o = { .s = &s };
		struct pstat_tracepoint *none = NULL;

		tracepoint_filter(e->ctx->tracefs_root, offer_tracepoint, &o,
				  &none);
		free(none);
	}
	/* libpfm4 only when nothing cheaper came close */
	if (!str_suggest_close(&s, 2))
		pfm_foreach_name(offer_pfm_name, &s);
	return str_suggest_take(&s);
}

/*
 * The closest tracepoint to "sys:event": an event of sys, or of the
 * subsystem closest to sys. Only names of one or two directories are
 * listed, never every id, and nothing at all for names of another shape
 * (NULL then, or when nothing is close; else a new string).
 */
static char *suggest_tracepoint(struct encoder *e, const char *want)
{
	const char *colon = strchr(want, ':');
	struct str_suggest s;
	char *sys, *best, *ev, *hint = NULL;

	if (!colon || strchr(colon + 1, ':') || strpbrk(want, "*?[/"))
		return NULL;
	sys = xstrndup(want, (size_t)(colon - want));
	str_suggest_init(&s, sys);
	tracepoint_foreach_name(e->ctx->tracefs_root, NULL, str_suggest_cb,
				&s);
	best = str_suggest_take(&s);
	free(sys);
	if (!best)
		return NULL;
	sys = best;
	str_suggest_init(&s, colon + 1);
	tracepoint_foreach_name(e->ctx->tracefs_root, sys, str_suggest_cb, &s);
	ev = str_suggest_take(&s);
	if (ev) {
		struct pstat_tracepoint *tps = NULL;
		long n;

		/* an event directory without an id cannot be opened */
		hint = xasprintf("%s:%s", sys, ev);
		n = tracepoint_resolve(e->ctx->tracefs_root, hint, &tps);
		tracepoint_list_free(tps, n > 0 ? (size_t)n : 0);
		if (n != 1) {
			free(hint);
			hint = NULL;
		}
	}
	free(sys);
	free(ev);
	return hint;
}

static void set_hint(struct pstat_encode_ctx *ctx, const char *fmt, ...)
	PSTAT_FMT(2, 3);

static int unknown_event(struct encoder *e, const struct pstat_evspec *sp)
{
	const char *name = sp->name ? sp->name : sp->text;
	char *what, *hint;
	int r;

	if (e->tracefs_err == ENOENT && strchr(sp->text, ':')) {
		set_hint(e->ctx, "mount it (as root): mount -t tracefs nodev /sys/kernel/tracing");
		return error_set(e->err, sp->off,
				 "unknown event '%s': tracefs is not mounted, so tracepoints cannot be named",
				 sp->text);
	}
	if (e->tracefs_err == EACCES && strchr(sp->text, ':')) {
		set_hint(e->ctx, "as root: mount -o remount,mode=755 %s, or count as root, or give this user CAP_DAC_READ_SEARCH (pstat drops it once its events are resolved)",
			 tracepoint_root(e->ctx->tracefs_root) ?
			 tracepoint_root(e->ctx->tracefs_root) : "/sys/kernel/tracing");
		return error_set(e->err, sp->off,
				 "tracepoint '%s' is not readable: tracefs refuses this user (%s)",
				 sp->text, strerror(EACCES));
	}
	if (e->tracefs_err && strchr(sp->text, ':'))
		return error_set(e->err, sp->off,
				 "unknown event '%s' (tracefs cannot be read: %s)",
				 sp->text, strerror(e->tracefs_err));
	hint = suggest_tracepoint(e, name);
	if (!hint)
		hint = suggest_name(e, name);
	what = xasprintf("unknown event '%s'", sp->text);
	r = encode_not_found(e, sp->off, hint, name, what);
	free(what);
	return r;
}

/* The letters encode_apply_mods takes (evspec splits off the same). */
static const char MOD_LETTERS[] = "ukhGHIDpPSWeb";

/*
 * "cycles:x", "r1a8:q", "sched:sched_switch:q": the parser splits only
 * valid letters off as modifiers, so a name with a bad one arrives whole
 * and would reach libpfm4, which (knowing generic names too) would blame
 * its own attributes. When what comes before the last ':' resolves as a
 * generic, raw or tracepoint name, say which modifier is wrong instead.
 * Returns -1 with err filled when name is such a name, else 0.
 */
static int bad_mods(struct encoder *e, const struct pstat_evspec *sp,
		    const char *name)
{
	const char *colon = strrchr(name, ':'), *bad;
	struct pstat_tracepoint *tps = NULL;
	struct pstat_error scratch;
	uint32_t type;
	uint64_t config;
	char *base;
	bool known;
	long n;

	if (!colon || colon == name || colon[-1] == ':' || strstr(name, "::"))
		return 0;
	bad = colon + 1 + strspn(colon + 1, MOD_LETTERS);
	if (!*bad)
		return 0;
	base = xstrndup(name, (size_t)(colon - name));
	known = legacy_lookup(base, &type, &config) ||
		is_raw(base, &config, &scratch) > 0 ||
		encode_alias_known(e, base);
	if (!known && strchr(base, ':')) {
		n = tracepoint_resolve(e->ctx->tracefs_root, base, &tps);
		tracepoint_list_free(tps, n > 0 ? (size_t)n : 0);
		known = n > 0;
	}
	free(base);
	if (!known)
		return 0;
	return error_set(e->err, sp->off,
			 "invalid modifier '%c' in '%s' (valid modifiers: %s)",
			 *bad, sp->text, MOD_LETTERS);
}

/*
 * perf's tool events: their values come from pstat's own clock and
 * rusage, not from a counter, and pstat prints those without being asked.
 */
static const char *tool_event(const char *name)
{
	if (!strcmp(name, "duration_time"))
		return "the elapsed time";
	if (!strcmp(name, "user_time") || !strcmp(name, "system_time"))
		return "the user and system times";
	return NULL;
}

/* Fill ctx->hint, cut to its size. */
static void set_hint(struct pstat_encode_ctx *ctx, const char *fmt, ...)
	PSTAT_FMT(2, 3);
static void set_hint(struct pstat_encode_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	char *h;
	size_t n;

	va_start(ap, fmt);
	if (vasprintf(&h, fmt, ap) < 0)
		h = NULL;
	va_end(ap);
	if (!h)
		return;
	n = strlen(h);
	if (n >= sizeof(ctx->hint))
		n = sizeof(ctx->hint) - 1;
	memcpy(ctx->hint, h, n);
	ctx->hint[n] = '\0';
	free(h);
}

/*
 * Whether name is plainly meant for libpfm4: "pmu::EVENT", or
 * "EVENT:UMASK" in libpfm4's capitals. Only such names mention that
 * libpfm4 is missing; for the others a missing libpfm4 is "not found".
 */
static bool looks_pfm(const char *name)
{
	const char *colon = strchr(name, ':');

	if (strstr(name, "::"))
		return true;
	if (!colon)
		return false;
	for (const char *p = name; p < colon; p++)
		if (*p >= 'A' && *p <= 'Z')
			return true;
	return false;
}

/*
 * A tracepoint name or glob (sys:event): one event per match. Returns 0,
 * 1 when tracefs has no such tracepoint (the name may be something
 * else), or -1 with e->err filled.
 */
static int encode_tracepoints(struct encoder *e, const struct pstat_evspec *sp,
			      const char *name, const char *gmods)
{
	struct pstat_event *ev;
	struct pstat_tracepoint *tps = NULL;
	long n = tracepoint_resolve(e->ctx->tracefs_root, name, &tps);

	if (n == -ENOENT && !e->ctx->tracefs_root && !e->mount_tried &&
	    e->ctx->tracefs_mount) {
		e->mount_tried = 1;
		if (!e->ctx->tracefs_mount())
			n = tracepoint_resolve(NULL, name, &tps);
	}
	/* no tracefs mounted at all: say that, not "unknown" */
	if (n == -ENOENT && !e->ctx->tracefs_root && !tracepoint_root(NULL))
		e->tracefs_err = ENOENT;
	else if (n < 0 && n != -ENOENT)
		e->tracefs_err = (int)-n;

	for (long i = 0; i < n; i++) {
		/* a glob names each match; a plain name as written */
		int glob = strpbrk(name, "*?[") != NULL;
		char *disp = glob && sp->mods ?
			xasprintf("%s:%s", tps[i].name, sp->mods) :
			xstrdup(glob ? tps[i].name : sp->text);

		ev = encode_add_event(e, disp, "tracepoint", "tracepoint");
		free(disp);
		ev->attr.type = PERF_TYPE_TRACEPOINT;
		ev->attr.config = tps[i].id;
		ev->einval_unsupported = tps[i].format_id;
		if (encode_mods(e, ev, sp, gmods)) {
			tracepoint_list_free(tps, (size_t)n);
			return -1;
		}
	}
	tracepoint_list_free(tps, n > 0 ? (size_t)n : 0);
	if (n > 0)
		return 0;
	if (strpbrk(name, "*?["))
		return error_set(e->err, sp->off,
				 "no tracepoint matches '%s'", name);
	return 1;
}

/*
 * The last resort: libpfm4's name for a vendor event. Returns 0, 1 when
 * libpfm4 does not know it (or is not here), or -1 with e->err filled.
 */
static int encode_pfm(struct encoder *e, const struct pstat_evspec *sp,
		      const char *name, const char *gmods)
{
	struct perf_event_attr attr = { 0 };
	struct pstat_event *ev;
	char *pfm_pmu = NULL;
	int r = pfm_encode(name, &attr, &pfm_pmu, e->err);

	if (r == -ELIBACC || r == -ENOENT) {
		/* the vendor's own tables know the CPUs libpfm4 does not */
		int v = encode_vendor_event(e, sp, name, gmods);

		if (v != 1)
			return v;
	}
	if (r == -ELIBACC) {
		/*
		 * No libpfm4 here: not found, like any name nobody knows,
		 * and only a libpfm4-looking name hears why.
		 */
		if (looks_pfm(name))
			set_hint(e->ctx, "'%s' is a libpfm4 name, but %s",
				 name, e->err->msg);
		return 1;
	}
	if (r == -ENOENT)
		return 1;
	if (r) {
		e->err->offset = sp->off;
		return -1;
	}
	ev = encode_add_event(e, sp->text, pfm_pmu, "libpfm4");
	free(pfm_pmu);
	ev->attr.type = attr.type;
	ev->attr.config = attr.config;
	ev->attr.config1 = attr.config1;
	ev->attr.config2 = attr.config2;
	ev->attr.exclude_user = attr.exclude_user;
	ev->attr.exclude_kernel = attr.exclude_kernel;
	ev->attr.exclude_hv = attr.exclude_hv;
	ev->attr.exclude_guest = attr.exclude_guest;
	ev->attr.exclude_host = attr.exclude_host;
	ev->attr.pinned = attr.pinned;
	ev->attr.exclusive = attr.exclusive;
	/* sp->mods is NULL here: only a group's modifiers are perf's */
	return encode_mods(e, ev, sp, gmods);
}

/* Try the resolvers that take a bare name; 1 when none matched. */
static int encode_name(struct encoder *e, const struct pstat_evspec *sp,
		       const char *name, const char *gmods)
{
	struct perf_event_attr attr = { 0 };
	struct pstat_event *ev;
	uint32_t type;
	uint64_t config;
	int r;

	if (legacy_lookup(name, &type, &config)) {
		if (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE)
			return encode_core_event(e, sp, type, config,
						 "generic", gmods);
		ev = encode_add_event(e, sp->text,
			       type == PERF_TYPE_SOFTWARE ? "software" : "cpu",
			       "generic");
		ev->attr.type = type;
		ev->attr.config = config;
		return encode_mods(e, ev, sp, gmods);
	}
	if (encode_is_numeric(name, &type, &config)) {
		ev = encode_add_event(e, sp->text, encode_type_pmu(e, type),
				      "numeric");
		ev->attr.type = type;
		ev->attr.config = config;
		return encode_mods(e, ev, sp, gmods);
	}
	if (sp->nterms && strncmp(name, "mem:", 4) && !str_raw_hex(name))
		return error_set(e->err, sp->off,
				 "event '%s' takes no terms: only PMUs, generic, raw, TYPE:CONFIG and mem: events do",
				 sp->text);
	if (tool_event(name))
		return error_set(e->err, sp->off,
				 "cannot count '%s': it is a perf tool event, which pstat does not support (its report shows %s)",
				 name, tool_event(name));
	if (!strncmp(name, "mem:", 4)) {
		if (parse_breakpoint(name, &attr, e->err)) {
			e->err->offset = sp->off;
			return -1;
		}
		ev = encode_add_event(e, sp->text, "breakpoint", "breakpoint");
		ev->attr.type = attr.type;
		ev->attr.bp_type = attr.bp_type;
		ev->attr.bp_addr = attr.bp_addr;
		ev->attr.bp_len = attr.bp_len;
		return encode_mods(e, ev, sp, gmods);
	}
	if (strchr(name, ':') && !strstr(name, "::")) {
		r = encode_tracepoints(e, sp, name, gmods);
		if (r != 1)
			return r;
	}
	r = is_raw(name, &config, e->err);
	if (r < 0) {
		e->err->offset = sp->off;
		return -1;
	}
	if (r)
		return encode_core_event(e, sp, PERF_TYPE_RAW, config, "raw",
					 gmods);
	/* after the generic names, like perf: "tsc" is msr/tsc/ */
	if (!strstr(name, "::")) {
		r = encode_alias_event(e, sp, name, gmods);
		if (r != 1)
			return r;
	}
	/*
	 * perf's spelling of a vendor event (inst_retired.any, an Arm
	 * core's stall_frontend_flush), which takes perf's modifiers
	 */
	if (!strchr(name, ':')) {
		r = encode_vendor_event(e, sp, name, gmods);
		if (r != 1)
			return r;
	}
	/* settled before libpfm4, which would blame its own attributes */
	if (bad_mods(e, sp, name))
		return -1;
	/*
	 * libpfm4 takes the name whole: its modifiers are not perf's (":e"
	 * is the edge bit, ":i" inversion), so what the parser split off
	 * goes back on, in encode_event's second try.
	 */
	if (sp->mods)
		return 1;
	return encode_pfm(e, sp, name, gmods);
}

static bool pmu_known(struct encoder *e, const char *name)
{
	const struct pstat_pmu **pmus = NULL;
	size_t n = pmus_match(e->ctx->pmus, name, &pmus);

	free(pmus);
	return n > 0;
}

static int encode_event(struct encoder *e, const struct pstat_evspec *sp,
			const char *gmods)
{
	int r;

	if (sp->pmu && encode_takes_terms(sp->pmu) && !pmu_known(e, sp->pmu)) {
		/* "cpu-cycles/name=x/": a generic name with terms */
		struct pstat_evspec named = *sp;

		named.name = sp->pmu;
		named.pmu = NULL;
		r = encode_name(e, &named, named.name, gmods);
		return r == 1 ? unknown_event(e, sp) : r;
	}
	/* the simulated PMU, unless a real one is called so */
	if (sp->pmu && !strcmp(sp->pmu, PSTAT_SIM_PMU) && !pmu_known(e, sp->pmu))
		return encode_sim_event(e, sp, gmods);
	if (sp->pmu)
		return encode_pmu_event(e, sp, gmods);
	r = encode_name(e, sp, sp->name, gmods);
	if (r == 1 && sp->mods) {
		/*
		 * What looked like modifiers may belong to the name (a
		 * tracepoint spelled with modifier letters), and a name for
		 * libpfm4 goes to it whole, with its own modifiers.
		 */
		struct pstat_evspec whole = *sp;
		char *full = xasprintf("%s:%s", sp->name, sp->mods);

		whole.mods = NULL;
		r = encode_name(e, &whole, full, gmods);
		free(full);
	}
	if (r == 1)
		return unknown_event(e, sp);
	return r;
}

/* Whether events a and b are opened on the same CPUs (see ev->cpus). */
static int same_placement(const struct pstat_event *a,
			  const struct pstat_event *b)
{
	return a->ncpus == b->ncpus &&
	       (!a->ncpus ||
		!memcmp(a->cpus, b->cpus, a->ncpus * sizeof(*a->cpus)));
}

/*
 * Intel's PERF_METRICS (Ice Lake and later) are read through the slots
 * event, which must lead a group holding topdown-* events: the kernel
 * refuses the group otherwise. As perf does, slots is moved to the
 * front when it was listed later (its row, and so where it is printed,
 * stays). The kernel's encodings (arch/x86/events/intel/core.c): slots
 * is event=0x00,umask=0x4 and the metric events event=0x00 with umask
 * 0x80 to 0x87, on the core PMU (cpu, or cpu_core on hybrids).
 */
static void slots_first(struct pstat_evlist *out, size_t first, size_t end)
{
	size_t slots = end;
	int metric = 0;
	struct pstat_event tmp;

	for (size_t i = first; i < end; i++) {
		const struct pstat_event *ev = &out->ev[i];
		uint64_t cfg = ev->attr.config;

		if (!ev->pmu || (strcmp(ev->pmu, "cpu") &&
				 strcmp(ev->pmu, "cpu_core")))
			continue;
		if (cfg == 0x0400 && slots == end)
			slots = i;
		else if (cfg >= 0x8000 && cfg <= 0x87ff && !(cfg & 0xff))
			metric = 1;
	}
	if (slots == end || slots == first || !metric)
		return;
	tmp = out->ev[slots];
	memmove(&out->ev[first + 1], &out->ev[first],
		(slots - first) * sizeof(*out->ev));
	out->ev[first] = tmp;
}

/*
 * Settle the group out->ev[first..end): its number, its leader and
 * read_format, refusing what the kernel would refuse obscurely. braced:
 * it was written in braces (a lone event is a group of one).
 */
static int settle_group(struct pstat_evlist *out, size_t first, size_t end,
			int group, const struct pstat_evgroup *grp,
			struct pstat_error *err)
{
	size_t n = end - first;

	if (n > PSTAT_MAX_GROUP)
		return error_set(err, grp->off,
				 "group of %zu events is too large (at most %d)",
				 n, PSTAT_MAX_GROUP);
	slots_first(out, first, end);
	for (size_t i = first + 1; i < end; i++) {
		const struct pstat_event *a = &out->ev[first];
		const struct pstat_event *b = &out->ev[i];

		if (!same_placement(a, b))
			return error_set(err, grp->off,
					 "cannot group '%s' with '%s': PMU '%s' counts on its own CPUs, system-wide",
					 a->name, b->name,
					 a->cpus ? a->pmu : b->pmu);
	}
	for (size_t i = first; i < end; i++) {
		struct perf_event_attr *a = &out->ev[i].attr;

		out->ev[i].group = group;
		out->ev[i].leader = n > 1 ? (int)first : (int)i;
		out->ev[i].weak = n > 1 && grp->mods && strchr(grp->mods, 'W');
		if (grp->name && !out->ev[i].group_name)
			out->ev[i].group_name = xstrdup(grp->name);
		/* a real group reads all members at once */
		a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				 PERF_FORMAT_TOTAL_TIME_RUNNING;
		if (n > 1)
			a->read_format |= PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		/*
		 * :D and :e belong to the group, through its leader: the
		 * kernel refuses them on a member, and perf sets them on the
		 * leader alone
		 */
		if (i > first)
			a->pinned = a->exclusive = 0;
	}
	return 0;
}

int encode_string(const char *s, struct pstat_encode_ctx *ctx,
		  struct pstat_evlist *out, struct pstat_error *err)
{
	struct pstat_evtree tree = { 0 };
	int r = evspec_parse(s, &tree, err) ? -1 :
					       encode_evlist(&tree, ctx, out, err);

	evspec_tree_free(&tree);
	return r;
}

int encode_evlist(const struct pstat_evtree *tree,
		  struct pstat_encode_ctx *ctx, struct pstat_evlist *out,
		  struct pstat_error *err)
{
	/* out may hold the events of an earlier -e: continue its numbering */
	struct encoder e = { .ctx = ctx, .out = out, .err = err,
			     .alloc = out->n, .row = out->nrows };
	int ngroups = out->ngroups;

	ctx->hint[0] = '\0';
	for (size_t g = 0; g < tree->ngroups; g++) {
		const struct pstat_evgroup *grp = &tree->groups[g];
		size_t first = out->n, *bounds;
		int nsub;

		for (size_t i = 0; i < grp->nevs; i++) {
			if (encode_event(&e, &grp->evs[i], grp->mods))
				goto fail;
		}
		if (!grp->braced) {
			/* a glob's or a PMU prefix's matches: groups of one */
			for (size_t i = first; i < out->n; i++)
				if (settle_group(out, i, i + 1, ngroups++, grp,
						 err))
					goto fail;
			continue;
		}
		nsub = encode_split_cores(&e, first, grp->off, &bounds);
		if (!nsub)
			nsub = encode_split_instances(&e, first, grp->off,
						      &bounds);
		if (nsub < 0)
			goto fail;
		for (int k = 0; k < nsub; k++) {
			if (settle_group(out, bounds[k], bounds[k + 1],
					 ngroups++, grp, err)) {
				free(bounds);
				goto fail;
			}
		}
		free(bounds);
	}
	out->ngroups = ngroups;
	out->nrows = e.row;
	encode_cores_release(&e);
	return 0;
fail:
	encode_cores_release(&e);
	return -1;
}
