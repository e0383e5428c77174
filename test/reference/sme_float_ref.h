// SPDX-License-Identifier: Apache-2.0
// Reference packers and matmuls of the f32 and bf16 SME/SME2 kernels (families f32p_f32p, f32_f32p,
// bf16p_sme), written from docs/formats.md, "SME packed layouts" and "SME matmul recipes" in portable C++ (no kai code).
// mr / nr are parameters: 2 * SVL / 32 on the machine that runs the kernels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kai_ref {

// f32p2vlx1 LHS: blocks of mr rows; in a block, for each k the mr values of column k; rows >= m are 0.0.
// lhs is m rows of k f32 with a row stride of lhs_stride elements.
std::vector<uint8_t> sme_pack_lhs_f32p2vlx1(const float* lhs, size_t m, size_t k, size_t lhs_stride, size_t mr);

// f32p2vlx1biasf32 RHS from N x K f32 (row stride rhs_stride elements) and n biases: blocks of nr channels,
// nr biases then for each k the nr values; channels >= n are 0.
std::vector<uint8_t> sme_pack_rhs_nxk_f32p2vlx1biasf32(const float* rhs_nxk, size_t rhs_stride, const float* bias,
                                                       size_t n, size_t k, size_t nr);

// bf16p2vlx2 LHS: blocks of mr rows x Kp = roundup(k, 2) bf16 (RNE); element (r, k) at halfword
// ((k / 2) * mr + r) * 2 + k % 2 of its block; the pad column and rows >= m are 0.
std::vector<uint8_t> sme_pack_lhs_bf16p2vlx2(const float* lhs, size_t m, size_t k, size_t lhs_stride, size_t mr);

// bf16p2vlx2b RHS from K x N f32 (row stride rhs_stride elements) and n biases: blocks of nr channels, nr f32
// biases then for each k pair and channel two bf16 (RNE); the odd-k pad repeats row 0; channels >= n are 0.
std::vector<uint8_t> sme_pack_rhs_kxn_bf16p2vlx2b(const float* rhs_kxn, size_t rhs_stride, const float* bias,
                                                  size_t n, size_t k, size_t nr);

// The f32 kernels' recipe (docs/formats.md, "SME matmul recipes"): acc = bias[j]; for k in order acc = fmaf(a[i][k], w[j][k], acc); then
// sme_clamp(acc, lo, hi, fclamp). rhs_nxk is N x K (dense), lhs m x k (dense).
std::vector<float> sme_matmul_f32_fma(const float* lhs, const float* rhs_nxk, const float* bias, size_t m, size_t n,
                                      size_t k, float lo, float hi, bool fclamp = false);

// The bf16 kernel's operands as it sees them, exactly: out = bias[j] + sum_k bf16(a[i][k]) * bf16(w[k][j]) in
// double, and abs_sum = |bias[j]| + sum_k |bf16(a) * bf16(w)|. rhs_kxn is K x N (dense).
void sme_matmul_bf16_exact(const float* lhs, const float* rhs_kxn, const float* bias, size_t m, size_t n, size_t k,
                           std::vector<double>* out, std::vector<double>* abs_sum);

// Clamp of the SME kernels: max(x, lo) first, then min(., hi) (so lo > hi gives hi). fclamp = false: the SME
// kernels' FMAX / FMIN, a NaN x stays NaN; fclamp = true: the SME2 kernels' FCLAMP (as KleidiAI's), maxNum and
// minNum, so a NaN x gives lo (or hi when lo > hi), and a NaN bound is ignored.
double sme_clamp(double x, float lo, float hi, bool fclamp = false);

// Bound on |kernel - exact| for the bf16 kernel, derived in sme_float_ref.cc.
double sme_bf16_error_bound(double abs_sum, size_t k);

}  // namespace kai_ref
