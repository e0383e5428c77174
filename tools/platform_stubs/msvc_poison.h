/* SPDX-License-Identifier: Apache-2.0 */
/* Forced-included by tools/check_platforms.py for its cl.exe approximation (clang for
   aarch64-pc-windows-msvc with __clang__ and __GNUC__ undefined). cl.exe has no GNU inline
   assembly, no __attribute__, no GNU builtins, no __typeof__ and no __extension__: after the
   intrinsics headers are read (cl.exe has its own arm_neon.h; clang's uses these spellings in its
   macros, which poisoning does not reach), any use of them in kai's code is an error. */
#include <arm_neon.h>
#pragma GCC poison __asm__ asm __asm __attribute__ __typeof__ typeof __extension__ __inline__
#pragma GCC poison __builtin_trap __builtin_unreachable __builtin_expect __builtin_prefetch __builtin_memcpy
#pragma GCC poison __builtin_assume_aligned __builtin_clz __builtin_ctz __builtin_popcount __restrict__
