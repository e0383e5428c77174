// SPDX-License-Identifier: Apache-2.0
// Reference of the qsi4c32p family (int4 weights with one bf16 scale per block of bl values
// along K), written from docs/formats.md, "qsi4c32p matmul" in plain C++: the RHS packers (nxk and kxn, byte for byte,
// padded channels and the fixed row-sum order included) and the matmul recipe of docs/formats.md, "qsi4c32p matmul"
// (integer block sums, one fused multiply-add per block, then the f32 epilogue), bit-exact.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "test/reference/qai8dxp_ref.h"

namespace kai_ref {

// Unsigned nibble (0..15) of element (j, k) of an nxk input (n rows of rhs_stride bytes) and of
// element (k, j) of a kxn input (k rows of rhs_stride bytes); low nibble for even k (nxk) or even
// j (kxn).
uint8_t qsu4_nxk_nibble(const uint8_t* rhs, size_t rhs_stride, size_t j, size_t k);
uint8_t qsu4_kxn_nibble(const uint8_t* rhs, size_t rhs_stride, size_t j, size_t k);

// Block stride nr * ((k / bl) * (bl / 2 + 2) + 8) and packed size ceil(n / nr) * stride.
size_t qsi4c32p_block_stride(size_t k, size_t nr, size_t bl);
size_t qsi4c32p_packed_size(size_t n, size_t k, size_t nr, size_t bl);

// Packs like kai_run_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0 / ..._kxn_... (docs/formats.md, "qsi4c32p RHS"), n channels, any
// kr / sr dividing 16. scale: bf16 patterns, channel j's block b at byte j * scale_stride + 2b.
std::vector<uint8_t> pack_qsi4c32p_nxk(size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl,
                                       const uint8_t* rhs, size_t rhs_stride, const float* bias,
                                       const uint8_t* scale, size_t scale_stride);
std::vector<uint8_t> pack_qsi4c32p_kxn(size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl,
                                       const uint8_t* rhs, size_t rhs_stride, const float* bias,
                                       const uint8_t* scale, size_t scale_stride);

// The f32 row sum of docs/formats.md, "qsi4c32p RHS" of one channel: w (k signed values), d (k / bl block scales),
// groups of 2 * kbl nibbles in packing order.
float qsi4c32p_row_sum(const int8_t* w, const float* d, size_t k, size_t bl, size_t kbl);

// docs/formats.md, "qsi4c32p matmul" for the m x n output from a packed LHS read back with unpack_qai8dxp (m rows),
// signed weights w (n x k), block scales d (n x k / bl, f32 values of the bf16 scales), row sums
// (n) and optional bias (nullptr: 0). Returns m x n floats, row-major, bit-exact.
std::vector<float> matmul_qai8dxp_qsi4c32(const Qai8dxpUnpacked& lhs, size_t n, size_t k, size_t bl, const int8_t* w,
                                          const float* d, const float* row_sum, const float* bias, float clamp_min,
                                          float clamp_max);

// docs/formats.md, "qsi4c32p SME2 matmul" (kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa): the same
// inputs as above; per block F = f32(I) of the plain int32 sum, the first block's F * d rounded, later blocks fused
// onto the running sum, then the fused offset term, the rounded LHS scale and bias, and FCLAMP (a NaN gives
// clamp_min). Returns m x n floats, row-major, bit-exact.
std::vector<float> matmul_qai8dxp_qsi4c32_sme2(const Qai8dxpUnpacked& lhs, size_t n, size_t k, size_t bl,
                                               const int8_t* w, const float* d, const float* row_sum,
                                               const float* bias, float clamp_min, float clamp_max);

// The bf16-output kernels (docs/formats.md, "16-bit outputs"): the f32 result above (clamped in f32) rounded once to bf16,
// nearest even. Returns m x n bf16 patterns, row-major.
std::vector<uint16_t> matmul_qai8dxp_qsi4c32_bf16(const Qai8dxpUnpacked& lhs, size_t n, size_t k, size_t bl,
                                                  const int8_t* w, const float* d, const float* row_sum,
                                                  const float* bias, float clamp_min, float clamp_max);

}  // namespace kai_ref
