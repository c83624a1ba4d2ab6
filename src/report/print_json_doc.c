/* SPDX-License-Identifier: MIT */
/*
 * The JSON documents other than the run report: --dry-run -j, pstat list
 * -j and pstat doctor -j (pstat compare's are compare/print_json_compare.c).
 * The layouts are described by the schemas under schema/;
 * print_json_priv.h has the helpers this file shares with print_json.c
 * and print_json_compare.c.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/util.h"
#include "report/print.h"
#include "report/print_json_priv.h"

#define JSON_SCHEMA_DRYRUN "pstat-dryrun/1"
#define JSON_SCHEMA_LIST "pstat-list/1"
#define JSON_SCHEMA_DOCTOR "pstat-doctor/1"
#define JSON_SCHEMA_METRICS "pstat-metrics/1"

/* 64-bit attr fields as "0x..." text: not every reader keeps 64 bits. */
static json_t *jhex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
}

static json_t *json_attr(const struct perf_event_attr *a)
{
	json_t *o = json_object();

	json_object_set_new(o, "type", json_integer(a->type));
	json_object_set_new(o, "config", jhex(a->config));
	json_object_set_new(o, "config1", jhex(a->config1));
	json_object_set_new(o, "config2", jhex(a->config2));
	json_object_set_new(o, "exclude_user", json_boolean(a->exclude_user));
	json_object_set_new(o, "exclude_kernel",
			    json_boolean(a->exclude_kernel));
	json_object_set_new(o, "exclude_hv", json_boolean(a->exclude_hv));
	json_object_set_new(o, "exclude_host", json_boolean(a->exclude_host));
	json_object_set_new(o, "exclude_guest",
			    json_boolean(a->exclude_guest));
	json_object_set_new(o, "exclude_idle", json_boolean(a->exclude_idle));
	json_object_set_new(o, "pinned", json_boolean(a->pinned));
	json_object_set_new(o, "exclusive", json_boolean(a->exclusive));
	json_object_set_new(o, "bp_type", json_integer(a->bp_type));
	/* bp_addr and bp_len share storage with config1 and config2. */
	json_object_set_new(o, "bp_addr", jhex(a->bp_addr));
	json_object_set_new(o, "bp_len", jhex(a->bp_len));
	return o;
}

static json_t *json_cpus(const int *cpus, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_integer(cpus[i]));
	return a;
}

const char *print_json_library_version(void)
{
	return jansson_version_str();
}

int print_json_dryrun(FILE *out, const struct pstat_dryrun_event *ev,
		      size_t n)
{
	json_t *doc, *events;

	doc = json_doc_new(JSON_SCHEMA_DRYRUN, NULL, NULL, false);
	events = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_object();

		json_object_set_new(e, "name", jstr(ev[i].name));
		json_object_set_new(e, "pmu", jstr(ev[i].pmu));
		json_object_set_new(e, "resolver", jstr(ev[i].resolver));
		json_object_set_new(e, "group", json_integer(ev[i].group));
		if (ev[i].group_name)
			json_object_set_new(e, "group_name",
					    jstr(ev[i].group_name));
		json_object_set_new(e, "leader", json_boolean(ev[i].leader));
		if (ev[i].weak)
			json_object_set_new(e, "weak", json_true());
		json_object_set_new(e, "scale", jreal(ev[i].scale));
		json_object_set_new(e, "unit",
				    jstr(ev[i].unit ? ev[i].unit : ""));
		json_object_set_new(e, "cpus", ev[i].cpus ?
				    json_cpus(ev[i].cpus, ev[i].ncpus) :
				    json_null());
		if (ev[i].core_cpus)
			json_object_set_new(e, "core_cpus",
					    json_cpus(ev[i].core_cpus,
						      ev[i].ncore_cpus));
		json_object_set_new(e, "attr", ev[i].attr ?
				    json_attr(ev[i].attr) : json_null());
		if (ev[i].cgroup)
			json_object_set_new(e, "cgroup", jstr(ev[i].cgroup));
		json_array_append_new(events, e);
	}
	json_object_set_new(doc, "events", events);
	return json_write(out, doc, JSON_PRETTY);
}

static json_t *json_list_pmu(const struct pstat_list_pmu *pmu)
{
	json_t *o = json_object();

	json_object_set_new(o, "name", jstr(pmu->name));
	json_object_set_new(o, "source", jstr(pmu->source));
	json_object_set_new(o, "type", json_integer(pmu->type));
	json_object_set_new(o, "kernel_exposed",
			    json_boolean(pmu->kernel_exposed));
	json_object_set_new(o, "is_core", json_boolean(pmu->is_core));
	return o;
}

static json_t *json_list_entry(const struct pstat_list_entry *e)
{
	json_t *o = json_object();
	json_t *umasks = json_array();

	json_object_set_new(o, "section", jstr(e->section));
	json_object_set_new(o, "pmu", jstr(e->pmu));
	json_object_set_new(o, "name", jstr(e->name));
	json_object_set_new(o, "desc", jstr(e->desc));
	json_object_set_new(o, "unit", jstr(e->unit));
	json_object_set_new(o, "encoding", jstr(e->encoding));
	json_object_set_new(o, "scale", jreal(e->scale ? e->scale : 1.0));
	for (size_t i = 0; e->umasks && i < e->numasks; i++) {
		json_t *u = json_object();

		json_object_set_new(u, "name", jstr(e->umasks[i]));
		json_object_set_new(u, "description",
				    jstr(e->umask_descs && e->umask_descs[i] ?
					 e->umask_descs[i] : ""));
		json_array_append_new(umasks, u);
	}
	json_object_set_new(o, "umasks", umasks);
	return o;
}

int print_json_list(FILE *out, const struct pstat_list *l)
{
	json_t *doc, *pmus, *events;

	doc = json_doc_new(JSON_SCHEMA_LIST, NULL, NULL, false);
	pmus = json_array();
	events = json_array();
	json_object_set_new(doc, "core_pmu_exposed",
			    json_boolean(l->core_pmu_exposed));
	for (size_t i = 0; i < l->npmus; i++)
		json_array_append_new(pmus, json_list_pmu(&l->pmus[i]));
	json_object_set_new(doc, "pmus", pmus);
	for (size_t i = 0; i < l->nentries; i++)
		json_array_append_new(events,
				      json_list_entry(&l->entries[i]));
	json_object_set_new(doc, "events", events);
	return json_write(out, doc, JSON_PRETTY);
}

/* groups ("a;b") as a JSON array of strings (new). */
static json_t *group_array(const char *groups)
{
	json_t *a = json_array();

	while (groups && *groups) {
		size_t len = strcspn(groups, ";");

		if (len)
			json_array_append_new(a, json_stringn(groups, len));
		groups += len;
		groups += *groups == ';';
	}
	return a;
}

int print_json_list_metrics(FILE *out, const struct pstat_list_metric *m,
			    size_t n, const struct pstat_list_left_out *lo,
			    size_t nlo, int topdown_levels,
			    const char *why_not)
{
	json_t *doc, *arr, *td;

	doc = json_doc_new(JSON_SCHEMA_METRICS, NULL, NULL, true);
	arr = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "name", jstr(m[i].name));
		json_object_set_new(o, "group", jstr(m[i].group));
		json_object_set_new(o, "groups", group_array(m[i].groups));
		json_object_set_new(o, "expr", jstr(m[i].expr));
		json_object_set_new(o, "unit", jstr(m[i].unit));
		json_object_set_new(o, "desc", jstr(m[i].desc));
		json_object_set_new(o, "threshold", jstr(m[i].threshold));
		json_object_set_new(o, "higher_is_better",
				    m[i].higher_is_better < 0 ?
					    json_null() :
					    json_boolean(m[i].higher_is_better));
		json_object_set_new(o, "source", jstr(m[i].source));
		json_array_append_new(arr, o);
	}
	json_object_set_new(doc, "metrics", arr);
	arr = json_array();
	for (size_t i = 0; i < nlo; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "name", jstr(lo[i].name));
		json_object_set_new(o, "groups", group_array(lo[i].groups));
		json_object_set_new(o, "why", jstr(lo[i].why));
		json_array_append_new(arr, o);
	}
	json_object_set_new(doc, "left_out", arr);
	td = json_object();
	json_object_set_new(td, "levels", json_integer(topdown_levels));
	json_object_set_new(td, "why_not", jstr(why_not));
	json_object_set_new(doc, "topdown", td);
	return json_write(out, doc, JSON_PRETTY);
}

int print_json_doctor(FILE *out, const struct pstat_doctor_check *c,
		      size_t n, const struct pstat_doctor_verdict *v)
{
	json_t *doc, *checks;

	doc = json_doc_new(JSON_SCHEMA_DOCTOR, NULL, NULL, true);
	checks = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "name", jstr(c[i].name));
		json_object_set_new(o, "status", jstr(c[i].status));
		json_object_set_new(o, "detail", jstr(c[i].detail));
		json_object_set_new(o, "fix", jstr(c[i].fix));
		json_array_append_new(checks, o);
	}
	json_object_set_new(doc, "checks", checks);
	json_object_set_new(doc, "software_counting",
			    json_boolean(v->software_counting));
	json_object_set_new(doc, "hardware_counting",
			    json_boolean(v->hardware_counting));
	json_object_set_new(doc, "result", jstr(v->result));
	json_object_set_new(doc, "exit_status", json_integer(v->exit_status));
	return json_write(out, doc, JSON_PRETTY);
}
