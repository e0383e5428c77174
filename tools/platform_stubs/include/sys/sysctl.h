/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in <sys/sysctl.h> (macOS, iOS) for tools/check_platforms.py: sysctlbyname(3). */
#ifndef KAI_STUB_SYS_SYSCTL_H
#define KAI_STUB_SYS_SYSCTL_H
#include <stddef.h>
int sysctlbyname(const char* name, void* oldp, size_t* oldlenp, void* newp, size_t newlen);
#endif
