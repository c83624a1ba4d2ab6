/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>

#include "base/msg.h"

int msg_verbose;
int msg_quiet;
int msg_errors;

static void PSTAT_FMT(2, 0) vmsg(const char *prefix, const char *fmt,
				   va_list ap)
{
	/*
	 * Build the line first and write it with one call, so a message is
	 * never interleaved with the measured program's stderr.
	 */
	char buf[2048], line[4 * sizeof(buf)];
	int n = snprintf(buf, sizeof(buf), "pstat: %s", prefix);
	size_t o = 0;

	if (n < 0)
		return;
	vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	/*
	 * One message, one line: a control character of a name (a newline
	 * in a file or command name) is written escaped, \n or \xHH.
	 */
	for (const unsigned char *p = (const unsigned char *)buf; *p; p++) {
		if (*p == '\n')
			o += (size_t)snprintf(line + o, sizeof(line) - o, "\\n");
		else if (*p < 0x20 || *p == 0x7f)
			o += (size_t)snprintf(line + o, sizeof(line) - o,
					      "\\x%02x", *p);
		else
			line[o++] = (char)*p;
	}
	line[o] = '\0';
	fprintf(stderr, "%s\n", line);
	fflush(stderr);         /* main may have made stderr buffered */
}

void msg_error(const char *fmt, ...)
{
	va_list ap;

	msg_errors++;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void msg_usage(const char *fmt, ...)
{
	va_list ap;

	msg_errors++;
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
