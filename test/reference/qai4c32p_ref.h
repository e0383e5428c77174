// SPDX-License-Identifier: Apache-2.0
// Reference of the asymmetric int4 family (docs/formats.md, "qai4c32p matmul"): the qsi8d32pscalef32 LHS quantiser and packer
// (f32 input ties to even, f16 input ties away), the qai4c32p RHS packer of the NEON kernels, the
// qai4c32ps1s0nrx4 packers of KleidiAI's SME2 kernels, and the matmul recipe with its two fused
// multiply-adds per block, written in plain C++ (no intrinsics): the oracle of the qai4c32p tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kai_ref {

// Per-block symmetric int8 quantisation (docs/formats.md, "qsi8d32pscalef32 LHS") of an m x k matrix: q is m x k int8; sum and
// recip are m x (k / bl) f32 (sum = f32(sum q) * recip, the packed "S").
struct Qsi8d32s {
    size_t m = 0, k = 0, bl = 0;
    std::vector<int8_t> q;
    std::vector<float> sum, recip;
};
// f32 input (row i at lhs + i * lhs_stride bytes): q = round-half-even(x * scale).
Qsi8d32s quantize_qsi8d32s_f32(size_t m, size_t k, size_t bl, const float* lhs, size_t lhs_stride);
// f16 input (bit patterns, row i at lhs + i * lhs_stride bytes): q = round-half-away(f32(x) * scale).
Qsi8d32s quantize_qsi8d32s_f16(size_t m, size_t k, size_t bl, const uint16_t* lhs, size_t lhs_stride);

// Packed LHS (docs/formats.md, "qsi8d32pscalef32 LHS" layout): ceil(m / mr) * mr * (k / bl) * (bl + 8) bytes; unwritten lanes
// (rows >= m) keep `fill`, and mask (same size) gets 0 there and 1 elsewhere.
std::vector<uint8_t> pack_qsi8d32pscalef32(const Qsi8d32s& q, size_t mr, size_t kbl, uint8_t fill,
                                           std::vector<uint8_t>* mask);

// The unsigned nibble u of element (j, kk) of n x k rows of k / 2 bytes, s0s1 (even element in
// the high nibble) or s1s0.
int qau4_nibble(const uint8_t* rows, size_t k, size_t j, size_t kk, bool s0s1);

// Packed RHS of the NEON kernels (docs/formats.md, "qai4c32p RHS"): every byte written. scale and zero are n x (k / bl);
// bias has n values or is NULL.
size_t qai4c32p_packed_size(size_t n, size_t k, size_t bl, size_t nr);
std::vector<uint8_t> pack_qai4c32p(size_t n, size_t k, size_t bl, size_t nr, size_t kr, const uint8_t* rows_s0s1,
                                   const float* scale, const float* zero, const float* bias);

// Packed RHS of KleidiAI's SME2 kernels (kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32{s0s1,s1s0}_...):
// per nr rows and block, the nibbles in 16-value chunks of 4-value pieces, s1s0 and unsigned, then
// nr zero, nr scale (verbatim); bias after all blocks (0 for rows >= n). Same size as above.
std::vector<uint8_t> pack_qai4c32ps1s0nrx4(size_t n, size_t k, size_t bl, size_t nr, const uint8_t* rows,
                                           bool input_s0s1, const float* scale, const float* zero,
                                           const float* bias);

// The matmul recipe of docs/formats.md, "qai4c32p matmul" on the unpacked operands: for each block,
// acc = fmaf(zero, S, acc), acc = fmaf(f32(sum q * 16 (u - 8)), (scale * 0.0625f) * recip, acc);
// then y = acc + bias, max(min), min(max). dst is m x n dense f32.
std::vector<float> matmul_qsi8d32p_qai4c32p(const Qsi8d32s& lhs, size_t n, const uint8_t* rows_s0s1,
                                            const float* scale, const float* zero, const float* bias, float clamp_min,
                                            float clamp_max);

// The SME2 kernels' recipe (docs/formats.md, "qai4c32p SME2 matmul") on the unpacked operands: for each block,
// t = fmaf(zero, S, acc) (kMopa / kMopaF16: the first block's t is the rounded product zero * S), then
// acc = fmaf(f32(sum q * (u - 8)), scale * recip, t); kMopaF16 rounds acc to f16 and back after every block.
// Then y = acc + bias and FCLAMP minNum(maxNum(y, min), max) (a NaN y gives the bound). dst is m x n dense f32
// (the f16 kernels' output is its f16 rounding).
enum class Sme2Recipe { kDot, kMopa, kMopaF16 };
std::vector<float> matmul_qsi8d32p_qai4c32p_sme2(const Qsi8d32s& lhs, size_t n, const uint8_t* rows_s0s1,
                                                 const float* scale, const float* zero, const float* bias,
                                                 float clamp_min, float clamp_max, Sme2Recipe recipe);

// The weights the kernels reconstruct, W[j][kk] = scale * (u - 8) + zero, in double (n x k).
std::vector<double> dequantize_qai4c32(size_t n, size_t k, size_t bl, const uint8_t* rows_s0s1, const float* scale,
                                       const float* zero);

}  // namespace kai_ref
