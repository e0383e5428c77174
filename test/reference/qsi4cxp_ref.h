// SPDX-License-Identifier: Apache-2.0
// Reference of the qsi4cxp family (int4 per-channel weights), written from docs/formats.md, "qsi4cxp matmul" in plain
// C++: the RHS packers (nxk and kxn, byte for byte, padded channels included) and the matmul
// (integer accumulation and f32 epilogue in exactly the spec's order, bit-exact).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "test/reference/qai8dxp_ref.h"

namespace kai_ref {

// Signed value (-8..7) of a nibble stored with zero point rhs_zero_point (8: unsigned, 0: signed).
int8_t qs4_value(uint8_t nibble, uint8_t rhs_zero_point);

// Weights n x k (signed int4 values) read from an nxk input: n rows of ceil(k/2) bytes, element
// (j, k) in byte j*ceil(k/2) + k/2, low nibble for even k.
std::vector<int8_t> qs4_nxk_values(const uint8_t* rhs, size_t n, size_t k, uint8_t rhs_zero_point);
// The same from a kxn input: k rows of ceil(n/2) bytes, element (k, j) in byte k*ceil(n/2) + j/2.
std::vector<int8_t> qs4_kxn_values(const uint8_t* rhs, size_t n, size_t k, uint8_t rhs_zero_point);

// Block stride nr * (roundup(k, 32)/2 + 12) and packed size ceil(n/nr) * stride.
size_t qsi4cxp_block_stride(size_t k, size_t nr);
size_t qsi4cxp_packed_size(size_t n, size_t k, size_t nr);

// Packs like kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0 / ..._kxn_... (docs/formats.md, "qsi4cxp RHS"), whole matrix.
std::vector<uint8_t> pack_qsi4cxp_nxk(size_t n, size_t k, size_t nr, size_t kr, size_t sr, const uint8_t* rhs,
                                      const float* bias, const float* scale, uint8_t rhs_zero_point);
std::vector<uint8_t> pack_qsi4cxp_kxn(size_t n, size_t k, size_t nr, size_t kr, size_t sr, const uint8_t* rhs,
                                      const float* bias, const float* scale, uint8_t rhs_zero_point);

// Quantises f32 weights (n rows of k values, row-major "nxk") to this family's input: symmetric
// int4 per output channel, scale_j = max_k |w_jk| / 7 (1 when the row is all zero),
// q = clamp(round_half_away(w / scale_j), -8, 7), stored as unsigned nibbles q + 8 (rhs_zero_point
// 8), two per byte, even k in the low nibble, rows of ceil(k/2) bytes. Writes n scales.
std::vector<uint8_t> quantize_qs4cx_nxk(const float* w, size_t n, size_t k, float* scales);

// NEON FMAX / FMIN semantics (NaN propagates; max(-0, +0) = +0, min(-0, +0) = -0).
float arm_fmax(float a, float b);
float arm_fmin(float a, float b);

// docs/formats.md, "qsi4cxp matmul" for the m x n output from a packed LHS read back with unpack_qai8dxp (m rows) and
// signed weights w (n x k), per-channel scales and optional bias (nullptr: 0): bit-exact.
// Returns m x n floats, row-major.
std::vector<float> matmul_qai8dxp_qsi4cx(const Qai8dxpUnpacked& lhs, size_t n, size_t k, const int8_t* w,
                                         const float* scale, const float* bias, float clamp_min, float clamp_max);

// The bf16-output kernels (docs/formats.md, "16-bit outputs"): the f32 result above (clamped in f32) rounded once to bf16,
// nearest even. Returns m x n bf16 patterns, row-major.
std::vector<uint16_t> matmul_qai8dxp_qsi4cx_bf16(const Qai8dxpUnpacked& lhs, size_t n, size_t k, const int8_t* w,
                                                 const float* scale, const float* bias, float clamp_min, float clamp_max);

}  // namespace kai_ref
