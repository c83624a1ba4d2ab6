/*
 * region fifo CTL ACK | region fd CTLFD ACKFD [N [EVENT]]: calls write(2) on
 * /dev/null 3 x N times (N = 1000) and, through a perf-style control
 * channel, enables counting before the second N and disables it after
 * them, waiting for each acknowledgement, so that
 * syscalls:sys_enter_write counts exactly N in the region. The commands
 * go out through writev(2) and the acks come in through read(2), so
 * that the channel itself adds no write(2). ACK "-" sends without
 * waiting. With EVENT, the commands are "enable EVENT" and "disable
 * EVENT". Exits 3 when an acknowledgement is not perf's "ack\n\0".
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static int ctl = -1, ack = -1;

static int send_cmd(const char *cmd)
{
	struct iovec iov = { (void *)cmd, strlen(cmd) };
	char buf[5];
	size_t got = 0;

	if (writev(ctl, &iov, 1) != (ssize_t)iov.iov_len)
		return 2;
	if (ack < 0)
		return 0;
	while (got < sizeof(buf)) {
		ssize_t r = read(ack, buf + got, sizeof(buf) - got);

		if (r <= 0)
			return 2;
		got += (size_t)r;
	}
	return memcmp(buf, "ack\n", sizeof(buf)) ? 3 : 0;
}

static int writes(int fd, long n)
{
	for (long i = 0; i < n; i++)
		if (write(fd, "x", 1) != 1)
			return 2;
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 4 ? atol(argv[4]) : 1000;
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC), r;
	char on[256] = "enable\n", off[256] = "disable\n";

	if (argc < 4 || fd < 0 || n < 0)
		return 2;
	if (!strcmp(argv[1], "fifo")) {
		ctl = open(argv[2], O_WRONLY | O_CLOEXEC);
		if (strcmp(argv[3], "-"))
			ack = open(argv[3], O_RDONLY | O_CLOEXEC);
	} else if (!strcmp(argv[1], "fd")) {
		ctl = atoi(argv[2]);
		if (strcmp(argv[3], "-"))
			ack = atoi(argv[3]);
	}
	if (ctl < 0 || (strcmp(argv[3], "-") && ack < 0))
		return 2;
	if (argc > 5) {
		snprintf(on, sizeof(on), "enable %s\n", argv[5]);
		snprintf(off, sizeof(off), "disable %s\n", argv[5]);
	}
	if ((r = writes(fd, n)) || (r = send_cmd(on)) ||
	    (r = writes(fd, n)) || (r = send_cmd(off)) ||
	    (r = writes(fd, n)))
		return r;
	return 0;
}
