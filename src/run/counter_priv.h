/* SPDX-License-Identifier: MIT */
/* What counter.c and counter_read.c share, and nobody else. */
#ifndef PSTAT_RUN_COUNTER_PRIV_H
#define PSTAT_RUN_COUNTER_PRIV_H

#include <sys/types.h>

/* read(2) of a counter's descriptor, or the fake kernel's (tests). */
ssize_t counter_read_fd(int fd, void *buf, size_t n);

#endif
