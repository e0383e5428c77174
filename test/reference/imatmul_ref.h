// SPDX-License-Identifier: Apache-2.0
// Reference packers and recipe of the f32 indirect GEMM (family imatmul_f32p), written from docs/formats.md,
// "Indirect GEMM packed layouts" in portable C++ (no kai code). mr / nr are parameters: 2 * SVL / 32 on the
// machine that runs the kernels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kai_ref {

// The address of chunk c of row i read through the pointer table (blocks of mr rows; pad_ptr read as it is,
// any other entry plus lhs_ptr_offset).
const uint8_t* imatmul_chunk(const void* const* lhs_ptrs, size_t i, size_t c, size_t k_chunk_count, size_t mr,
                             size_t lhs_ptr_offset, const void* pad_ptr);

// The gathered LHS: m rows of K = k_chunk_count * k_chunk_length f32, row i the concatenation of its chunks.
std::vector<float> imatmul_gather_f32(const void* const* lhs_ptrs, size_t m, size_t k_chunk_count,
                                      size_t k_chunk_length, size_t mr, size_t lhs_ptr_offset, const void* pad_ptr);

// x32p2vlx1 LHS: blocks of mr rows; in a block, for each k < K, the mr 32-bit values of column k; rows >= m are 0.
std::vector<uint8_t> imatmul_pack_lhs_x32p2vlx1(const void* const* lhs_ptrs, size_t m, size_t k_chunk_count,
                                                size_t k_chunk_length, size_t mr, size_t lhs_ptr_offset,
                                                const void* pad_ptr);

// x32p2vlx1b RHS from K x N 32-bit values (row stride rhs_stride bytes) and n biases: blocks of nr columns, the nr
// biases then for each k the nr values; columns >= n are 0.
std::vector<uint8_t> imatmul_pack_rhs_x32p2vlx1b(const uint8_t* rhs_kxn, size_t rhs_stride, const uint8_t* bias,
                                                 size_t n, size_t k, size_t nr);

enum class ImatmulClamp {
    fclamp,   // SME2: minNum(maxNum(acc, lo), hi); NaN -> lo
    min_max,  // SME: max(min(acc, hi), lo) with NaN propagation; lo > hi -> lo
};

// The f32 recipe: acc = bias[j]; acc = fmaf(a[i][k], w[k][j], acc) for k in order; then the clamp. a is m x k
// (dense), w_kxn k x n (dense).
std::vector<float> imatmul_f32_fma(const float* a, const float* w_kxn, const float* bias, size_t m, size_t n, size_t k,
                                   float lo, float hi, ImatmulClamp clamp);

// ---- f16 (family imatmul_f16p): every chunk padded to an even length, kcp = roundup(k_chunk_length, 2) ----

// The gathered LHS with each chunk padded: m rows of Kp = k_chunk_count * kcp f16 bit patterns, row i the
// concatenation of its chunks, each followed by one 0 when k_chunk_length is odd.
std::vector<uint16_t> imatmul_gather_f16_padded(const void* const* lhs_ptrs, size_t m, size_t k_chunk_count,
                                                size_t k_chunk_length, size_t mr, size_t lhs_ptr_offset,
                                                const void* pad_ptr);

// The K x N RHS (row stride rhs_stride bytes) with each chunk of rows padded the same way: Kp x N, dense.
std::vector<uint16_t> imatmul_pad_rhs_f16(const uint8_t* rhs_kxn, size_t rhs_stride, size_t n, size_t k_chunk_count,
                                          size_t k_chunk_length);

// x16p2vlx2 LHS of the padded gather: blocks of mr rows; in a block, for each pair p of the padded depth, the mr
// rows' values 2p and 2p + 1 (halfword (p * mr + y) * 2 + k % 2 of the block); rows >= m are 0.
std::vector<uint8_t> imatmul_pack_lhs_x16p2vlx2(const void* const* lhs_ptrs, size_t m, size_t k_chunk_count,
                                                size_t k_chunk_length, size_t mr, size_t lhs_ptr_offset,
                                                const void* pad_ptr);

// x16p2vlx2b RHS: blocks of nr columns, the nr f16 biases, then for each pair p of the padded depth the nr
// columns' values 2p and 2p + 1; columns >= n are 0.
std::vector<uint8_t> imatmul_pack_rhs_x16p2vlx2b(const uint8_t* rhs_kxn, size_t rhs_stride, const uint8_t* bias,
                                                 size_t n, size_t k_chunk_count, size_t k_chunk_length, size_t nr);

}  // namespace kai_ref
