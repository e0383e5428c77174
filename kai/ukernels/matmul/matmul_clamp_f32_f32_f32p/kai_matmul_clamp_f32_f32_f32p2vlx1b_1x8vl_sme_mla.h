//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla: f32 GEMV (M = 1) with streaming-SVE FMLA (SME, no SME2
/// instruction), 8 streaming vectors of output per step. The LHS row is read
/// unpacked; the packed RHS (with bias) is the buffer of kai_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme, the same
/// one the f32 MOPA GEMMs read. See docs/matmul_sme.md.
///
/// Vector length: VL = SVL / 32 f32 lanes of the streaming vector of the CPU that calls (16 at SVL 512); every
/// getter reads it (RDSVL) on each call, so n_step (8 * VL) and nr (2 * VL) report the length the kernel
/// assumes. Packed buffers are valid only at the SVL they were packed at: query the getters and pack on the
/// machine and thread that run the kernel (after any prctl(PR_SME_SET_VL)); never reuse a buffer across SVLs.
///
/// Calling convention: an ordinary (non-streaming, ZA-less) AAPCS64 function; it enters and leaves streaming mode
/// itself (SMSTART/SMSTOP), keeps d8-d15 and x19-x28, never touches x18, and is safe from any number of threads.
/// If the caller has a pending lazy ZA save (TPIDR2_EL0 != 0, AAPCS64 SME lazy-save protocol), the kernel commits
/// it first: it stores the ZA slices the TPIDR2 block names to its buffer and clears TPIDR2_EL0, as
/// __arm_tpidr2_save does, without needing that routine. ZA and ZT0 contents do not survive the call. Must not be
/// called in streaming mode. The CPU must have FEAT_SME (runtime dispatch is the caller's).

#ifndef KAI_MATMUL_CLAMP_F32_F32_F32P2VLX1B_1X8VL_SME_MLA_H
#define KAI_MATMUL_CLAMP_F32_F32_F32P2VLX1B_1X8VL_SME_MLA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the m step, 1.
size_t kai_get_m_step_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(void);

/// Returns the n step, 8 * SVL / 32: the columns one step of the kernel computes. Sub-tiles may start at any
/// multiple of nr (the n step is what the fast path covers at once).
size_t kai_get_n_step_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(void);

/// Returns nr, 2 * SVL / 32: the value to pass to the RHS packer.
size_t kai_get_nr_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(void);

/// Returns kr, 1: the value to pass to the RHS packer.
size_t kai_get_kr_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(void);

/// Returns sr, 1: the value to pass to the RHS packer.
size_t kai_get_sr_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(void);

/// Returns the byte offset of LHS row m_idx in the unpacked LHS: 0.
/// @param[in] m_idx Row index; must be 0.
/// @param[in] k     Depth.
size_t kai_get_lhs_offset_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(size_t m_idx, size_t k);

/// Returns the byte offset of RHS column n_idx in the packed RHS: n_idx * (1 + k) * 4.
/// @param[in] n_idx Column index; must be a multiple of nr.
/// @param[in] k     Depth.
size_t kai_get_rhs_packed_offset_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(size_t n_idx, size_t k);

/// Returns the byte offset of DST element (m_idx, n_idx): n_idx * 4.
/// @param[in] m_idx      Row index; must be 0.
/// @param[in] n_idx      Column index; must be a multiple of nr.
/// @param[in] dst_stride Row stride of DST in bytes.
size_t kai_get_dst_offset_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(size_t m_idx, size_t n_idx, size_t dst_stride);

/// Returns the size in bytes of a dense m x n DST: m * n * 4.
size_t kai_get_dst_size_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(size_t m, size_t n);

/// Computes dst[0][j] = min(max(acc, clamp_min), clamp_max) for 0 <= j < n, where acc = bias[j], then
/// acc = fma(lhs[k], rhs[j][k], acc) for k = 0 ... k - 1 in order: one fused multiply-add per k, bit-identical to
/// that C loop and to the f32 MOPA GEMMs on the same packed RHS. The clamp is KleidiAI's for this kernel: FMIN
/// with clamp_max, then FMAX with clamp_min, so a NaN acc stays NaN and clamp_min > clamp_max gives clamp_min.
/// Writes exactly the n outputs and reads nothing beyond the k LHS values and the packed blocks covering them.
/// n == 0 returns at once.
/// @param[in]  m              Rows; must be 1.
/// @param[in]  n              Columns of DST.
/// @param[in]  k              Depth; the same k the RHS was packed with.
/// @param[in]  lhs            The f32 LHS row, k values; not NULL.
/// @param[in]  lhs_stride     Row stride of the LHS in bytes (unused: m is 1).
/// @param[in]  rhs_packed     Packed RHS (at get_rhs_packed_offset(n_idx, k) for a sub-tile); not NULL.
/// @param[out] dst            DST (at get_dst_offset(0, n_idx, dst_stride_row)); not NULL.
/// @param[in]  dst_stride_row Row stride of DST in bytes (unused: m is 1).
/// @param[in]  dst_stride_col Must be 4.
/// @param[in]  clamp_min      Lower clamp bound.
/// @param[in]  clamp_max      Upper clamp bound.
void kai_run_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(
    size_t m, size_t n, size_t k, const void* lhs, size_t lhs_stride, const void* rhs_packed, void* dst,
    size_t dst_stride_row, size_t dst_stride_col, float clamp_min, float clamp_max);

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_F32_F32_F32P2VLX1B_1X8VL_SME_MLA_H
