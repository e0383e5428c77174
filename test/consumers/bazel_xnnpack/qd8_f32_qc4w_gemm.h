// SPDX-License-Identifier: Apache-2.0
// An engine's int4-weight GEMM (XNNPACK calls it qd8-f32-qc4w) written against KleidiAI's API.
#ifndef QD8_F32_QC4W_GEMM_H
#define QD8_F32_QC4W_GEMM_H

#include <stddef.h>
#include <stdint.h>

/// The kernels this consumer can run.
enum qc4w_kernel { QC4W_I8MM_8X8, QC4W_DOTPROD_1X8 };

/// dst (m x n f32, row stride n) = clamp(x (m x k f32) times w^T + bias), w being n rows of k signed
/// int4 values stored as unsigned nibbles (value + 8), two per byte, low nibble first, each row
/// ceil(k / 2) bytes, with one f32 scale per row. Returns 0, or -1 when memory runs out.
int qd8_f32_qc4w_gemm(enum qc4w_kernel kernel, size_t m, size_t n, size_t k, const float* x, const uint8_t* w,
                      const float* scale, const float* bias, float* dst);

/// The kernel's name (KleidiAI's).
const char* qd8_f32_qc4w_kernel_name(enum qc4w_kernel kernel);

#endif
