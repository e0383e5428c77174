// SPDX-License-Identifier: Apache-2.0
// Reference of the f16 x GGUF Q4_0 SME2 kernel (family f16p_qsi4c32p, docs/formats.md, "SME packed layouts" / docs/formats.md, "SME matmul recipes") and its LHS packer
// kai_lhs_pack_f16pmrx2_f32_neon, written from the spec in plain C++ (no intrinsics, no kai code).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kai_ref {

// f16pmrx2 LHS: blocks of mr rows, block stride mr * k * 2 bytes; element (r, k) is f16(a[r][k]) (round to nearest
// even) at halfword ((k / 2) * mr + r % mr) * 2 + k % 2. Lanes of rows >= m keep `fill`; mask gets 1 for written
// bytes. lhs row r at lhs + r * lhs_stride bytes.
std::vector<uint8_t> pack_lhs_f16pmrx2(const float* lhs, size_t m, size_t k, size_t lhs_stride, size_t mr, uint8_t fill,
                                       std::vector<uint8_t>* mask);

// The weight the kernel multiplies, as an f16 bit pattern: f16((u - 8) * d), round to nearest even, for Q4_0-style
// rows (docs/formats.md, "qsi4c32pscalef16 RHS" input; u = nibble, d = the block's f16 scale).
uint16_t f16_q4_0_weight(const uint8_t* rows, size_t k, size_t bl, size_t j, size_t kk);

// The kernel's operands as it sees them, summed exactly: exact[i][j] = sum_k f16(a[i][k]) * w[j][k] (double),
// abs_sum[i][j] = sum_k |f16(a) * w|; both m x n dense.
void matmul_f16_q4_0_exact(const float* lhs, size_t lhs_stride, size_t m, size_t k, size_t bl, const uint8_t* rows,
                           size_t n, std::vector<double>* exact, std::vector<double>* abs_sum);

// Bound on |kernel - exact| before the clamp: widening FMOPA adds each pair of products into the f32 accumulator
// with at most two roundings (the architecture leaves the pair's intermediate rounding to the implementation), so
// after k / 2 steps the result is within k * 2^-24 * abs_sum of the exact sum (each rounding is off by at most
// 2^-24 of a partial sum <= abs_sum); twice that plus two more roundings' worth of margin: 2 (k + 2) 2^-24 abs_sum.
// The inputs' own precision (f16 activations, f16 weights) is not in it: the reference uses the same f16 operands.
double f16_q4_0_error_bound(double abs_sum, size_t k);

// The kernel's FCLAMP: minNum(maxNum(x, lo), hi), so a NaN x gives the bound (lo, or hi when lo > hi).
double clamp_f16_q4_0(double x, float lo, float hi);

}  // namespace kai_ref
