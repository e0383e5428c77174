/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in <string.h> for tools/check_platforms.py: the declarations kai uses (C99 7.21). */
#ifndef KAI_STUB_STRING_H
#define KAI_STUB_STRING_H
#include <stddef.h>
void* memcpy(void* dst, const void* src, size_t n);
void* memset(void* dst, int c, size_t n);
int strcmp(const char* a, const char* b);
char* strstr(const char* haystack, const char* needle);
size_t strlen(const char* s);
#endif
