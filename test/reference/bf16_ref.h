// SPDX-License-Identifier: Apache-2.0
// Reference packers and matmul of the BF16 family (matmul_clamp_{f32,bf16}_bf16p_bf16p), written
// from docs/formats.md, "bf16 matmul" in portable C++ (no intrinsics, no kai code).
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

// The clamp of the BF16 kernels: min(x, max) first, then max(., min) (docs/formats.md, "Output clamp").
double bf16_clamp(double x, float min, float max);

// Bound on |kernel - exact| for one output with error scale abs_sum (= |bias| + sum |a * b|),
// derived in bf16_ref.cc: f32 accumulation through BFMMLA/BFDOT, plus the final bf16 rounding when
// bf16_output.
double bf16_error_bound(double abs_sum, double exact_clamped, size_t k, bool bf16_output);

// ---- f16 data (family bf16f16: matmul_clamp_f16_bf16p_bf16p and the f16-input packers, docs/formats.md, "bf16p12x4biasf16 RHS").

// The bf16 pattern of the f16 pattern h: widened to f32 exactly (FCVTL: NaNs quietened, payload
// kept) then rounded to nearest even (BFCVTN).
uint16_t bf16_from_f16(uint16_t h);

// The bf16p12x4biasf16 packed RHS of the K x N bf16 patterns `rhs_kxn` (dense) and `bias_f16` (n f16
// patterns, or nullptr = zeros): the layout of bf16_pack_rhs with 12 f16 bias values (24 bytes) at
// the start of each block instead of 12 f32 ones. `mask` as for bf16_pack_rhs.
std::vector<uint8_t> bf16_pack_rhs_biasf16(const uint16_t* rhs_kxn, const uint16_t* bias_f16, size_t n, size_t k,
                                           std::vector<uint8_t>* mask);

// The f16 pattern nearest to x (an f32 result of the kernel), ties to even; |x| >= 65520 gives an
// infinity, NaN a quiet NaN (FCVTN under the default FPCR).
uint16_t f16_from_f32_rne(float x);

// The interval of f16 results the f16-output kernel may give for an output whose exact value
// (in double, before the clamp) is `exact`, with |f32 accumulation - exact| <= f32_bound (from
// bf16_error_bound(..., false)): the kernel clamps its f32 value (monotonic: min(., max) then
// max(., min)) and rounds it to f16 (monotonic), so its result lies between the f16 roundings of
// clamp(exact - f32_bound) and clamp(exact + f32_bound), taken outward to f32 first. Returns the
// two ends as f32 values (possibly infinite). A NaN exact gives NaN ends; an infinite one (an
// infinite input) the rounding of its clamp.
void f16_output_interval(double exact, double f32_bound, float min, float max, float* lo, float* hi);

}  // namespace kai_ref
