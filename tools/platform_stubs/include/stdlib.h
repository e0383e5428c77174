/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in <stdlib.h> for tools/check_platforms.py: the declarations kai uses (C99 7.20). */
#ifndef KAI_STUB_STDLIB_H
#define KAI_STUB_STDLIB_H
#include <stddef.h>
void abort(void);
void* malloc(size_t size);
void free(void* ptr);
#endif
