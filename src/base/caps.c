/* SPDX-License-Identifier: MIT */
/*
 * Capabilities pstat holds only while it needs them (caps.h). The
 * capget/capset system calls directly: libcap is a dependency for two
 * calls.
 */
#include <errno.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/caps.h"

int caps_drop_read_search(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	const unsigned bit = 1u << (CAP_DAC_READ_SEARCH % 32);
	const int w = CAP_DAC_READ_SEARCH / 32;

	if (geteuid() == 0)
		return 0;
	if (syscall(SYS_capget, &h, d))
		return -errno;
	if (!((d[w].permitted | d[w].effective | d[w].inheritable) & bit))
		return 0;
	/* ambient first: the kernel keeps it only while permitted has it */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_LOWER, CAP_DAC_READ_SEARCH,
		  0, 0) && errno != EINVAL)
		return -errno;
	d[w].permitted &= ~bit;
	d[w].effective &= ~bit;
	d[w].inheritable &= ~bit;
	if (syscall(SYS_capset, &h, d))
		return -errno;
	return 1;
}
