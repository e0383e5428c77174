/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in <sys/prctl.h> (Linux, Android) for tools/check_platforms.py. */
#ifndef KAI_STUB_SYS_PRCTL_H
#define KAI_STUB_SYS_PRCTL_H
int prctl(int option, ...);
#endif
