//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa: f16 indirect GEMM with f16 output (SME2; widening
/// FMOPA into the four 32-bit ZA tiles, a 2VL x 2VL tile). Packed LHS from kai_lhs_imatmul_pack_x16p2vlx2_x16p_sme
/// (rows gathered through a pointer table); packed RHS (with f16 bias) from
/// kai_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme. See docs/imatmul.md.
///
/// The depth is given as k_chunk_count chunks of k_chunk_length values. The packers pad every chunk to an even
/// length (kr = 2) with zeros, so the packed depth is Kp = k_chunk_count * roundup(k_chunk_length, 2); every
/// getter and the kernel take the two factors, as the packers do.
///
/// Vector length: VL = SVL / 32 (16 at SVL 512); every getter reads it (RDSVL) on each call, so m_step and n_step
/// (both 2 * VL) report the length the kernel assumes. Packed buffers are valid only at the SVL they were packed
/// at: query the getters and pack on the machine and thread that run the kernel; never reuse a buffer across SVLs.
///
/// Calling convention: an ordinary (non-streaming, ZA-less) AAPCS64 function; it enters and leaves streaming mode
/// itself (SMSTART/SMSTOP), keeps d8-d15 and x19-x28, never touches x18, and is safe from any number of threads.
/// A pending lazy ZA save of the caller (TPIDR2_EL0 != 0) is committed first. ZA contents do not survive the call.
/// Must not be called in streaming mode. The CPU must have FEAT_SME2 (runtime dispatch is the caller's).

#ifndef KAI_IMATMUL_CLAMP_F16_F16P2VLX2_F16P2VLX2_2VLX2VL_SME2_MOPA_H
#define KAI_IMATMUL_CLAMP_F16_F16P2VLX2_F16P2VLX2_2VLX2VL_SME2_MOPA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the m step, 2 * SVL / 32: the row origin of a sub-tile must be a multiple of it.
size_t kai_get_m_step_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa(void);

/// Returns the n step, 2 * SVL / 32: the column origin of a sub-tile must be a multiple of it.
size_t kai_get_n_step_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa(void);

/// Returns the byte offset of LHS row m_idx in the packed LHS: m_idx * Kp * 2.
/// @param[in] m_idx          Row index; must be a multiple of the m step.
/// @param[in] k_chunk_count  Chunks per output row.
/// @param[in] k_chunk_length Values per chunk.
size_t kai_get_lhs_packed_offset_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa(
    size_t m_idx, size_t k_chunk_count, size_t k_chunk_length);

/// Returns the byte offset of RHS column n_idx in the packed RHS: n_idx * (1 + Kp) * 2.
/// @param[in] n_idx          Column index; must be a multiple of the n step.
/// @param[in] k_chunk_count  Chunks per output row.
/// @param[in] k_chunk_length Values per chunk.
size_t kai_get_rhs_packed_offset_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa(
    size_t n_idx, size_t k_chunk_count, size_t k_chunk_length);

/// Returns the byte offset of DST element (m_idx, n_idx): m_idx * dst_stride_row + n_idx * 2.
/// @param[in] m_idx          Row index; must be a multiple of the m step.
/// @param[in] n_idx          Column index; must be a multiple of the n step.
/// @param[in] dst_stride_row Row stride of DST in bytes.
size_t kai_get_dst_offset_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa(
    size_t m_idx, size_t n_idx, size_t dst_stride_row);

/// Returns the size in bytes of a dense m x n f16 DST: m * n * 2.
size_t kai_get_dst_size_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa(size_t m, size_t n);

/// Computes dst[i][j] = clamp(f16(acc)) for 0 <= i < m, 0 <= j < n, where acc (f32) = 0 + 1 * bias[j], then for
/// each pair p of the packed depth acc += a[2p] * w[2p] + a[2p + 1] * w[2p + 1] (widening FMOPA; a[i] is the
/// concatenation of row i's chunks, each padded with one 0 when k_chunk_length is odd), f16() rounds to nearest
/// even, and the clamp is done in f16 with the bounds rounded to f16, as KleidiAI does:
/// FCLAMP, minNum(maxNum(y, min16), max16): a NaN acc gives min16 (then capped by max16).
/// The bits may differ between CPUs by the rounding inside a FMOPA pair (docs/matmul_sme.md gives the bound).
/// Writes exactly the m x n outputs and reads nothing beyond the packed blocks covering them.
/// m == 0 or n == 0 returns at once.
/// @param[in]  m              Rows of DST.
/// @param[in]  n              Columns of DST.
/// @param[in]  k_chunk_count  Chunks per output row; the value the operands were packed with.
/// @param[in]  k_chunk_length Values per chunk; the value the operands were packed with.
/// @param[in]  lhs_packed     Packed LHS (at get_lhs_packed_offset(m_idx, ...) for a sub-tile); not NULL.
/// @param[in]  rhs_packed     Packed RHS (at get_rhs_packed_offset(n_idx, ...) for a sub-tile); not NULL.
/// @param[out] dst            DST, f16 (at get_dst_offset(m_idx, n_idx, dst_stride_row)); not NULL.
/// @param[in]  dst_stride_row Row stride of DST in bytes; at least n * 2 when m > 1.
/// @param[in]  clamp_min      Lower clamp bound (rounded to f16).
/// @param[in]  clamp_max      Upper clamp bound (rounded to f16).
void kai_run_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa(
    size_t m, size_t n, size_t k_chunk_count, size_t k_chunk_length, const void* lhs_packed, const void* rhs_packed,
    void* dst, size_t dst_stride_row, float clamp_min, float clamp_max);

#ifdef __cplusplus
}
#endif

#endif  // KAI_IMATMUL_CLAMP_F16_F16P2VLX2_F16P2VLX2_2VLX2VL_SME2_MOPA_H
