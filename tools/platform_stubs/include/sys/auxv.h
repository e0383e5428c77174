/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in <sys/auxv.h> (Linux, Android API >= 18) for tools/check_platforms.py. */
#ifndef KAI_STUB_SYS_AUXV_H
#define KAI_STUB_SYS_AUXV_H
#define AT_HWCAP 16
#define AT_HWCAP2 26
unsigned long getauxval(unsigned long type);
#endif
