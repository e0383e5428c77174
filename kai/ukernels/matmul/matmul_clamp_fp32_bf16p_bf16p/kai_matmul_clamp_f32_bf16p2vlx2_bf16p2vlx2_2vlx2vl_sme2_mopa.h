//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa: bf16 GEMM with f32 output (SME2, widening BFMOPA into
/// the four
/// 32-bit ZA tiles, a 2VL x 2VL tile). Packed LHS from kai_lhs_pack_bf16p2vlx2_f32_sme; packed RHS (with bias)
/// from kai_rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme. ggml uses it for M = 1 too, where a MOPA does 1/(2VL) useful
/// work: for decode prefer the GEMV of docs/matmul_sme.md when there is one. See docs/matmul_sme.md.
///
/// Vector length: VL = SVL / 32 f32 lanes of the streaming vector of the CPU that calls (16 at SVL 512); every
/// getter reads it (RDSVL) on each call, so m_step, n_step, mr and nr (all 2 * VL) report the length the
/// kernel assumes. Packed buffers are valid only at the SVL they were packed at: query the getters and pack on
/// the machine and thread that run the kernel (after any prctl(PR_SME_SET_VL)); never reuse a buffer across SVLs.
///
/// Calling convention: an ordinary (non-streaming, ZA-less) AAPCS64 function; it enters and leaves streaming mode
/// itself (SMSTART/SMSTOP), keeps d8-d15 and x19-x28, never touches x18, and is safe from any number of threads.
/// If the caller has a pending lazy ZA save (TPIDR2_EL0 != 0, AAPCS64 SME lazy-save protocol), the kernel commits
/// it first: it stores the ZA slices the TPIDR2 block names to its buffer and clears TPIDR2_EL0, as
/// __arm_tpidr2_save does, without needing that routine. ZA and ZT0 contents do not survive the call. Must not be
/// called in streaming mode. The CPU must have FEAT_SME2 (runtime dispatch is the caller's).

#ifndef KAI_MATMUL_CLAMP_F32_BF16P2VLX2_BF16P2VLX2_2VLX2VL_SME2_MOPA_H
#define KAI_MATMUL_CLAMP_F32_BF16P2VLX2_BF16P2VLX2_2VLX2VL_SME2_MOPA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the m step, 2 * SVL / 32: the row origin of a sub-tile must be a multiple of it.
size_t kai_get_m_step_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(void);

/// Returns the n step, 2 * SVL / 32: the column origin of a sub-tile must be a multiple of it.
size_t kai_get_n_step_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(void);

/// Returns mr, 2 * SVL / 32: the value to pass to the LHS packer.
size_t kai_get_mr_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(void);

/// Returns nr, 2 * SVL / 32: the value to pass to the RHS packer.
size_t kai_get_nr_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(void);

/// Returns kr, 2: the value to pass to the packers.
size_t kai_get_kr_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(void);

/// Returns sr, 1: the value to pass to the packers.
size_t kai_get_sr_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(void);

/// Returns the byte offset of LHS row m_idx in the packed LHS: m_idx * roundup(k, 2) * 2.
/// @param[in] m_idx Row index; must be a multiple of the m step.
/// @param[in] k     Depth.
size_t kai_get_lhs_packed_offset_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(size_t m_idx, size_t k);

/// Returns the byte offset of RHS column n_idx in the packed RHS: n_idx * (4 + roundup(k, 2) * 2).
/// @param[in] n_idx Column index; must be a multiple of the n step.
/// @param[in] k     Depth.
size_t kai_get_rhs_packed_offset_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(size_t n_idx, size_t k);

/// Returns the byte offset of DST element (m_idx, n_idx): m_idx * dst_stride_row + n_idx * 4.
/// @param[in] m_idx          Row index; must be a multiple of the m step.
/// @param[in] n_idx          Column index; must be a multiple of the n step.
/// @param[in] dst_stride_row Row stride of DST in bytes.
size_t kai_get_dst_offset_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(
    size_t m_idx, size_t n_idx, size_t dst_stride_row);

/// Returns the size in bytes of a dense m x n DST: m * n * 4.
size_t kai_get_dst_size_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(size_t m, size_t n);

/// Computes dst[i][j] = min(max(acc, clamp_min), clamp_max) for 0 <= i < m, 0 <= j < n, where
/// acc = 0 + 1 * bias[j], then for each pair p of k values acc += a[2p] * b[2p] + a[2p + 1] * b[2p + 1] (BFMOPA),
/// a and b the bf16 operands as packed (the LHS pad of an odd k is 0). The architecture leaves the rounding inside
/// a pair to the implementation, so the bits may differ between CPUs (docs/matmul_sme.md gives the bound the tests
/// use); the accumulation is in f32. The clamp is KleidiAI's FCLAMP, minNum(maxNum(acc, clamp_min),
/// clamp_max): a NaN acc gives clamp_min (then capped by clamp_max); when clamp_min > clamp_max every
/// output is clamp_max.
/// Writes exactly the m x n outputs and reads nothing beyond the packed blocks covering them.
/// m == 0 or n == 0 returns at once.
/// @param[in]  m              Rows of DST.
/// @param[in]  n              Columns of DST.
/// @param[in]  k              Depth; the same k the operands were packed with.
/// @param[in]  lhs_packed     Packed LHS (at get_lhs_packed_offset(m_idx, k) for a sub-tile); not NULL.
/// @param[in]  rhs_packed     Packed RHS (at get_rhs_packed_offset(n_idx, k) for a sub-tile); not NULL.
/// @param[out] dst            DST (at get_dst_offset(m_idx, n_idx, dst_stride_row)); not NULL.
/// @param[in]  dst_stride_row Row stride of DST in bytes; at least n * 4 when m > 1.
/// @param[in]  dst_stride_col Must be 4.
/// @param[in]  clamp_min      Lower clamp bound.
/// @param[in]  clamp_max      Upper clamp bound.
void kai_run_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(
    size_t m, size_t n, size_t k, const void* lhs_packed, const void* rhs_packed, void* dst, size_t dst_stride_row,
    size_t dst_stride_col, float clamp_min, float clamp_max);

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_F32_BF16P2VLX2_BF16P2VLX2_2VLX2VL_SME2_MOPA_H
