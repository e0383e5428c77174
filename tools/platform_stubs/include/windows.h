/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in <windows.h> for tools/check_platforms.py: IsProcessorFeaturePresent (processthreadsapi.h)
   and no PF_ constant, as an SDK predating them all: kai/kai_cpu.h must supply what it uses. */
#ifndef KAI_STUB_WINDOWS_H
#define KAI_STUB_WINDOWS_H
typedef int BOOL;
typedef unsigned long DWORD;
BOOL IsProcessorFeaturePresent(DWORD ProcessorFeature);
#endif
