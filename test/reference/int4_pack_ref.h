// SPDX-License-Identifier: Apache-2.0
// References of the second set of int4 packers (docs/formats.md, "qsi4cxps1s0 RHS", "qsi4c32p RHS", "qsi4c32ps1s0nrx4 RHS" and "Q4_0 layouts of the SME kernels"), written from
// the spec in plain C++, element by element: the qsi4c32p layout with the row sums rounded once per
// 32-value chunk (the nrx4 / nrx8 NEON packers), the s1s0 layouts of KleidiAI's SME-side packers
// (qsi4cxps1s0, qsi4c32ps1s0 nxk and kxn, the two Q4_0 layouts) and the qsi8d32p LHS layout with
// the scales after the data. The oracle of qsi4cxp_pack_test, qsi4c32p_pack_test, qsi8d32p_pack_test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "test/reference/qsi8d32p_ref.h"

namespace kai_ref {

// docs/formats.md, "qsi4c32p RHS": the qsi4c32p layout of pack_qsi4c32p_nxk (nxk input, channels past n copy channel
// n - 1), but each lane's f32 row sum is rounded once per 32-value chunk: sum = f32(sum + G * d_b)
// with G the exact sum of the chunk's 32 signed values.
std::vector<uint8_t> pack_qsi4c32p_nxk_chunk_sums(size_t n, size_t k, size_t nr, size_t kbl, size_t bl,
                                                  const uint8_t* rhs, size_t rhs_stride, const float* bias,
                                                  const uint8_t* scale, size_t scale_stride);

// docs/formats.md, "qsi4c32ps1s0nrx4 RHS": the qsi4c32ps1s0 layout. nxk: n rows of rhs_stride bytes, sums rounded per 32-chunk,
// channels past n copy channel n - 1. kxn: k rows of rhs_stride bytes, sums rounded per group of 4
// K rows; lane j = 16q + t of the block at n0 reads nibble t % 2 of byte kk * rhs_stride + f / 2 + t / 2
// (f = min(n0 + 16q, n - 1)), 0 for bytes at or past (k - 1) * rhs_stride + ceil(n / 2); scale and
// bias of channels past n are those of n - 1.
std::vector<uint8_t> pack_qsi4c32ps1s0_nxk(size_t n, size_t k, size_t nr, size_t bl, const uint8_t* rhs,
                                           size_t rhs_stride, const float* bias, const uint8_t* scale,
                                           size_t scale_stride);
std::vector<uint8_t> pack_qsi4c32ps1s0_kxn(size_t n, size_t k, size_t nr, size_t bl, const uint8_t* rhs,
                                           size_t rhs_stride, const float* bias, const uint8_t* scale,
                                           size_t scale_stride);

// docs/formats.md, "qsi4cxps1s0 RHS": the qsi4cxps1s0 layout, nr * (roundup(k, 32) / 2 + 12) bytes per block; input n rows of
// ceil(k / 2) bytes; rhs_zero_point 8 (unsigned) or 0 (signed); lanes past n all zero.
std::vector<uint8_t> pack_qsi4cxps1s0(size_t n, size_t k, size_t nr, size_t kr, const uint8_t* rhs, const float* bias,
                                      const float* scale, int rhs_zero_point);

// docs/formats.md, "Q4_0 layouts of the SME kernels": the two Q4_0 layouts for the SME kernels from Q4_0-style rows (q4_0_row_bytes each).
// Lanes past n are zero (KleidiAI leaves them unwritten; kai writes zeros).
std::vector<uint8_t> pack_qsi4c32ps1s0scalef16(size_t n, size_t k, size_t bl, size_t nr, const uint8_t* rows);
std::vector<uint8_t> pack_qsi4c32ps4s0sf16(size_t n, size_t k, size_t bl, size_t nr, const uint8_t* rows);

// docs/formats.md, "Q4_0 layouts of the SME kernels": quantised rows (quantize_qsi8d32, ties away) in the layout with the data of whole
// rows in groups of 4 and the scales after it. Unwritten lanes (rows >= m) keep `fill`; mask gets
// 1 for written bytes.
std::vector<uint8_t> pack_qsi8d32p_scales_last(const Qsi8d32& q, size_t mr, uint8_t fill, std::vector<uint8_t>* mask);

}  // namespace kai_ref
