// SPDX-License-Identifier: Apache-2.0
// Reference packers and matmul of the BF16 family (matmul_clamp_{f32,bf16}_bf16p_bf16p), written
// from ../shared/spec/kleidiai_formats.md §4 in portable C++ (no intrinsics, no kai code).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kai_ref {

// The bf16p8x4 (mr = 8) or bf16p1x4 (mr = 1) packed LHS of m rows of k bf16 patterns (dense,
// row-major): blocks of mr rows, for each group of 4 k values mr rows x 4 bf16; k >= K is 0; rows
// past m in the last block copy the block's first row.
std::vector<uint8_t> bf16_pack_lhs(const uint16_t* lhs, size_t m, size_t k, size_t mr);

// The bf16p12x4biasf32 packed RHS of the K x N bf16 patterns `rhs_kxn` (dense) and `bias` (n f32,
// or nullptr = zeros): blocks of 12 columns, 12 f32 bias then, for each group of 4 k values,
// 12 columns x 4 bf16; k >= K copies k = 0; columns past n are 0. `mask` receives 1 for every byte
// the layout specifies and 0 for the bias slots of padded columns (left unwritten by KleidiAI).
std::vector<uint8_t> bf16_pack_rhs(const uint16_t* rhs_kxn, const float* bias, size_t n, size_t k,
                                   std::vector<uint8_t>* mask);

// out[i][j] = bias[j] + sum_k A[i][k] * B[k][j] in double and abs_sum[i][j] = |bias[j]| +
// sum_k |A[i][k] * B[k][j]| (the scale of the error bound), for the bf16 patterns A (m x k) and
// B (k x n), both dense. bias may be nullptr.
void bf16_matmul(const uint16_t* a, const uint16_t* b, const float* bias, size_t m, size_t n, size_t k,
                 std::vector<double>* out, std::vector<double>* abs_sum);

// The clamp of the BF16 kernels: min(x, max) first, then max(., min) (spec §1.4).
double bf16_clamp(double x, float min, float max);

// Bound on |kernel - exact| for one output with error scale abs_sum (= |bias| + sum |a * b|),
// derived in bf16_ref.cc: f32 accumulation through BFMMLA/BFDOT, plus the final bf16 rounding when
// bf16_output.
double bf16_error_bound(double abs_sum, double exact_clamped, size_t k, bool bf16_output);

}  // namespace kai_ref
