// SPDX-License-Identifier: Apache-2.0
// Reference of the qsi8cxp family (int8 per-channel weights), written from docs/formats.md, "qsi8cxp matmul" in plain C++:
// the RHS packers (nxk and kxn, byte for byte, padded channels included) and the matmul (integer
// accumulation and f32 epilogue in exactly the spec's order, bit-exact).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "test/reference/qai8dxp_ref.h"

namespace kai_ref {

// Block stride nr * (roundup(k, 32) + 12) and packed size ceil(n / nr) * stride.
size_t qsi8cxp_block_stride(size_t k, size_t nr);
size_t qsi8cxp_packed_size(size_t n, size_t k, size_t nr);

// Weights n x k (row j = channel j) read from an nxk input (n rows of k bytes) or a kxn input
// (k rows of n bytes).
std::vector<int8_t> qsi8_nxk_values(const int8_t* rhs, size_t n, size_t k);
std::vector<int8_t> qsi8_kxn_values(const int8_t* rhs, size_t n, size_t k);

// Packs like kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon (docs/formats.md, "qsi8cxp RHS") from the n x k weights w (either
// layout's values): groups of kr values per lane, 0 past k, then lhs_zero_point * sum, scale, bias
// (0 without); padded lanes copy channel n - 1. The kxn packer's bytes are the same (docs/formats.md, "qsi8cxp RHS").
std::vector<uint8_t> pack_qsi8cxp(size_t n, size_t k, size_t nr, size_t kr, const int8_t* w, const float* bias,
                                  const float* scale, int32_t lhs_zero_point);

// Quantises f32 weights (n rows of k values) to this family's input: symmetric int8 per output
// channel, scale_j = max_k |w_jk| / 127 (1 when the row is all zero),
// q = clamp(round_half_away(w / scale_j), -127, 127). Writes n scales; returns n x k int8 (nxk).
std::vector<int8_t> quantize_qsi8cx_nxk(const float* w, size_t n, size_t k, float* scales);

// docs/formats.md, "qsi8cxp matmul" for the m x n output from a packed LHS read back with unpack_qai8dxp (m rows) and
// int8 weights w (n x k), per-channel scales and optional bias (nullptr: 0): bit-exact.
// Returns m x n floats, row-major. fused_scale_bias: steps 5 and 6 as one fused multiply-add, y = fmaf(f32(T),
// s, b_j), the epilogue of the SME / SME2 DOT GEMVs (docs/formats.md, "SME matmul recipes"); otherwise each rounded on its own (docs/formats.md, "qsi8cxp matmul").
// fclamp: step 7 is the SME2 kernels' FCLAMP (KleidiAI's), minNum(maxNum(y, clamp_min), clamp_max), so a NaN y
// gives clamp_min (clamp_max when below it); otherwise FMAX / FMIN, where NaN stays NaN.
std::vector<float> matmul_qai8dxp_qsi8cx(const Qai8dxpUnpacked& lhs, size_t n, size_t k, const int8_t* w,
                                         const float* scale, const float* bias, float clamp_min, float clamp_max,
                                         bool fused_scale_bias = false, bool fclamp = false);

}  // namespace kai_ref
