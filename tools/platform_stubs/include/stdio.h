/* SPDX-License-Identifier: Apache-2.0 */
/* Stand-in <stdio.h> for tools/check_platforms.py: the declarations kai uses (C99 7.19). */
#ifndef KAI_STUB_STDIO_H
#define KAI_STUB_STDIO_H
#include <stddef.h>
typedef struct kai_stub_file FILE;
extern FILE* stdout;
extern FILE* stderr;
int fflush(FILE* stream);
int fprintf(FILE* stream, const char* format, ...);
int printf(const char* format, ...);
#endif
