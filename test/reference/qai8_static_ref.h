// SPDX-License-Identifier: Apache-2.0
// Portable reference of the static int8 SME family (qai8p_qsi8cxpsb), written from docs/formats.md, "x8p2vlx4
// LHS", "qsi8cxp2vlx4sb RHS" and "Static int8 requantization".
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kai_ref {

// The x8p2vlx4 packed LHS of m rows of k bytes (row stride `stride`), mr rows per block.
std::vector<uint8_t> pack_lhs_x8p2vlx4(size_t m, size_t k, size_t mr, const uint8_t* lhs, size_t stride);

// The qsi8cxp2vlx4sb packed RHS of a K x N int8 matrix (row stride `stride`), nr channels per block.
std::vector<uint8_t> pack_rhs_qsi8cxp2vlx4sb(size_t n, size_t k, size_t nr, const int8_t* rhs, size_t stride,
                                             const int32_t* bias, const float* scale, int32_t lhs_zero_point,
                                             float scale_multiplier);

// The indirect x8p2vlx4 LHS: chunk c of row i is the k_chunk_length bytes at rows[i * k_chunk_count + c].
std::vector<uint8_t> pack_lhs_indirect_x8p2vlx4(size_t m, size_t k_chunk_count, size_t k_chunk_length, size_t mr,
                                                const std::vector<const uint8_t*>& rows);

// The indirect qsi8cxp2vlx4sb RHS: K = k_chunk_count * k_chunk_length rows, each chunk padded to a multiple of 4.
std::vector<uint8_t> pack_rhs_indirect_qsi8cxp2vlx4sb(size_t n, size_t k_chunk_count, size_t k_chunk_length, size_t nr,
                                                      const int8_t* rhs, size_t stride, const int32_t* bias,
                                                      const float* scale, int32_t lhs_zero_point,
                                                      float scale_multiplier);

struct Qai8Params {
    int32_t lhs_zero_point;
    float scale_multiplier;
    int32_t output_zero_point;
    int32_t min_value;
    int32_t max_value;
};

// dst (m x n, row-major, dense) from the unpacked inputs: lhs m x k, rhs k x n.
std::vector<int8_t> matmul_qai8_static(size_t m, size_t n, size_t k, const int8_t* lhs, const int8_t* rhs,
                                       const int32_t* bias, const float* scale, const Qai8Params& p);

}  // namespace kai_ref
