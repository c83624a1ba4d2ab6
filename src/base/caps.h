/* SPDX-License-Identifier: MIT */
#ifndef PSTAT_CAPS_H
#define PSTAT_CAPS_H

/*
 * Capabilities pstat holds only while it needs them.
 *
 * tracefs is root's alone (its root directory 0700, each event's id file
 * 0440 root:root), so a user who may count tracepoints (CAP_PERFMON)
 * still cannot name one: the id that perf_event_open takes is in a file
 * they cannot read. A service user is given CAP_DAC_READ_SEARCH beside
 * CAP_PERFMON for that (the systemd unit in contrib/systemd does), and
 * pstat gives it up once its events are resolved: counting, serving
 * and writing results then happen without it.
 *
 * caps_drop_read_search: unless pstat runs as root (whose other
 * capabilities read every file anyway), remove CAP_DAC_READ_SEARCH from
 * the ambient, effective, permitted and inheritable sets, for good.
 * Returns 1 when it was held and is dropped, 0 when it was not held (or
 * for root), or -errno when it could not be dropped.
 */
int caps_drop_read_search(void);

#endif
