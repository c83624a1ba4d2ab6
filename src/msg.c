/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>

#include "msg.h"

int msg_verbose;
int msg_quiet;

static void PSTAT_FMT(2, 0) vmsg(const char *prefix, const char *fmt,
				   va_list ap)
{
	/*
	 * Build the line first and write it with one call, so a message is
	 * never interleaved with the measured program's stderr.
	 */
	char buf[2048];
	int n = snprintf(buf, sizeof(buf), "pstat: %s", prefix);

	if (n < 0)
		return;
	vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	fprintf(stderr, "%s\n", buf);
	fflush(stderr);         /* main may have made stderr buffered */
}

void msg_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void msg_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	msg_hint("see 'pstat --help'");
}

void msg_warn(const char *fmt, ...)
{
	va_list ap;

	if (msg_quiet)
		return;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void msg_hint(const char *fmt, ...)
{
	va_list ap;

	if (msg_quiet)
		return;
	va_start(ap, fmt);
	vmsg("hint: ", fmt, ap);
	va_end(ap);
}

void msg_debug(int level, const char *fmt, ...)
{
	va_list ap;

	if (msg_verbose < level)
		return;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

int error_set(struct pstat_error *err, long offset, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	err->offset = offset;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}
