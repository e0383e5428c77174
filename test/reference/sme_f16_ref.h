// SPDX-License-Identifier: Apache-2.0
// Reference packers and matmul of the f16 SME/SME2 kernels (family f16p_f16p), written from docs/formats.md,
// "x16p2vlx2", "x16p2vlx2b" and "f16 SME matmul", in portable C++ (no kai code). mr / nr are parameters:
// 2 * SVL / 32 on the machine that runs the kernels. 16-bit data are bit patterns (f16).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kai_ref {

// x16p2vlx2 LHS: m rows of k halfwords (row stride lhs_stride halfwords) in blocks of mr rows x Kp = roundup(k, 2);
// element (r, k) at halfword ((k / 2) * mr + r) * 2 + k % 2 of its block; the pad column and rows >= m are 0.
std::vector<uint8_t> sme_pack_lhs_x16p2vlx2(const uint16_t* lhs, size_t m, size_t k, size_t lhs_stride, size_t mr);

// x16p2vlx2b RHS: blocks of nr channels, nr biases then for each k pair and channel the two halfwords; the odd-k
// pad and channels >= n are 0. kxn: rhs is K rows of N (row stride rhs_stride halfwords); otherwise N rows of K.
std::vector<uint8_t> sme_pack_rhs_x16p2vlx2b(const uint16_t* rhs, bool kxn, size_t rhs_stride, const uint16_t* bias,
                                             size_t n, size_t k, size_t nr);

// The f16 kernels' operands exactly: exact[i][j] = bias[j] + sum_k a[i][k] * w[k][j] in double (f16 products and
// their sums are exact in double for k < 2^20 or so), abs_sum = |bias[j]| + sum_k |a * w|. rhs_kxn is K x N.
void sme_matmul_f16_exact(const uint16_t* lhs, const uint16_t* rhs_kxn, const uint16_t* bias, size_t m, size_t n,
                          size_t k, std::vector<double>* exact, std::vector<double>* abs_sum);

// The output recipe: y = f16(x) (ties to even, overflow to infinity), then the clamp in f16 against lo16 =
// f16(lo), hi16 = f16(hi): fclamp (SME2, FCLAMP): minNum(maxNum(y, lo16), hi16), a NaN gives lo16;
// otherwise (SME, FMIN then FMAX): max(min(y, hi16), lo16), a NaN stays NaN. Returns the f16 bits.
uint16_t sme_f16_output(double x, float lo, float hi, bool fclamp);

// Bound on |kernel - reference| for one output (both f16), derived in sme_f16_ref.cc: the f32 accumulation of
// the kernel is within (k + 2) * 2^-24 * abs_sum of exact, and the two f16 roundings add at most one f16 ulp
// of the larger magnitude.
double sme_f16_error_bound(double abs_sum, size_t k, double magnitude);

}  // namespace kai_ref
