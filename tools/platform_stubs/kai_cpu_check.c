/* SPDX-License-Identifier: Apache-2.0 */
/* Compiled by tools/check_platforms.py for every target: kai/kai_cpu.h picks the target's path
   (Linux/Android getauxval, Apple sysctlbyname, Windows IsProcessorFeaturePresent) from the
   compiler's predefined macros, and must compile against the target's (stand-in) headers. */
#include "kai/kai_cpu.h"

unsigned long long kai_cpu_check_features(void);
unsigned long long kai_cpu_check_features(void) {
    return (unsigned long long)kai_cpu_get_features();
}
