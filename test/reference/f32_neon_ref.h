// SPDX-License-Identifier: Apache-2.0
// Reference packer and matmul of the f32 NEON GEMM (family f32_neon), written from docs/formats.md,
// "f32p8x1biasf32 RHS" and "f32 NEON matmul", in portable C++ (no kai code, no intrinsics).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kai_ref {

// f32pNx1biasf32 RHS from K x N f32 (row stride rhs_stride elements) and n biases: blocks of nr columns, nr biases
// then for each k the nr values rhs[k][j]; columns >= n are 0.0 (biases included).
std::vector<uint8_t> f32_pack_rhs_kxn_bias(const float* rhs_kxn, size_t rhs_stride, const float* bias, size_t n,
                                           size_t k, size_t nr);

// The recipe: acc = bias[j] (0 when bias is NULL); acc = fmaf(lhs[i][kk], rhs[kk][j], acc) for kk in order; then
// f32_clamp_min_max. lhs is m rows (stride lhs_stride elements), rhs_kxn k rows (stride rhs_stride elements).
std::vector<float> f32_matmul_fma(const float* lhs, size_t lhs_stride, const float* rhs_kxn, size_t rhs_stride,
                                  const float* bias, size_t m, size_t n, size_t k, float lo, float hi);

// The NEON clamp: FMIN with hi first, then FMAX with lo. NaN x stays NaN; lo > hi gives lo.
float f32_clamp_min_max(float x, float lo, float hi);

// The exact value in double, and the scale |bias[j]| + sum_k |lhs[i][k] * rhs[k][j]| of the error bound.
void f32_matmul_exact(const float* lhs, size_t lhs_stride, const float* rhs_kxn, size_t rhs_stride, const float* bias,
                      size_t m, size_t n, size_t k, std::vector<double>* out, std::vector<double>* abs_sum);

// Bound on |fma chain - exact| for depth k: k + 1 roundings (k FMAs; the bias enters exactly), each off by at most
// 2^-24 of the running |sum|, itself at most abs_sum * (1 + 2^-24)^k; so (k + 1) * 2^-24 * abs_sum * (1 + 2^-24)^k,
// rounded up here to (k + 2) * 2^-24 * abs_sum for k < 2^20.
double f32_error_bound(double abs_sum, size_t k);

}  // namespace kai_ref
