/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in <sys/types.h> for tools/check_platforms.py. */
#ifndef KAI_STUB_SYS_TYPES_H
#define KAI_STUB_SYS_TYPES_H
#include <stddef.h>
#endif
