//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot: f32 = clamp((int8 LHS, per-row asymmetric) x (int4 RHS, per-channel symmetric) + bias), SME
/// (GEMV, streaming SVE SDOT, a 1 x 4VL tile; m > 1 runs row by row). LHS from kai_lhs_quant_pack_qai8dxp_f32 with mr = 1, kr = 8, sr = 2; RHS from
/// kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0 or kai_rhs_pack_kxn_qsi4cxp_qs4cxs1s0 with nr = SVL / 8 (4VL), kr = 8,
/// sr = 2 (the NEON "qsi4cxp RHS" layout, not the SME2 kernels' qsi4cxps1s0 one; params->lhs_zero_point = 1).
/// See docs/matmul_int4_channelwise.md and docs/matmul_sme.md.
///
/// Vector length: VL = SVL / 32 int32 lanes of the streaming vector of the CPU that calls (16 at SVL 512); every
/// getter reads the SVL (RDSVL) on each call, so m_step, n_step, mr and nr report the length the kernel assumes.
/// Packed buffers are valid only at the SVL they were packed at: query the getters and pack on the machine and
/// thread that run the kernel (after any prctl(PR_SME_SET_VL)); never reuse a buffer across SVLs.
///
/// Calling convention: an ordinary (non-streaming, ZA-less) AAPCS64 function; it enters and leaves streaming mode
/// itself (SMSTART/SMSTOP), keeps d8-d15 and x19-x28, never touches x18, and is safe from any number of threads.
/// If the caller has a pending lazy ZA save (TPIDR2_EL0 != 0, AAPCS64 SME lazy-save protocol), the kernel commits
/// it first: it stores the ZA slices the TPIDR2 block names to its buffer and clears TPIDR2_EL0, as
/// __arm_tpidr2_save does, without needing that routine. ZA and ZT0 contents do not survive the call. Must not be
/// called in streaming mode. The CPU must have FEAT_SME (runtime dispatch is the caller's).

#ifndef KAI_MATMUL_CLAMP_F32_QAI8DXP1X4_QSI4CXP4VLX4_1X4VL_SME_DOT_H
#define KAI_MATMUL_CLAMP_F32_QAI8DXP1X4_QSI4CXP4VLX4_1X4VL_SME_DOT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the row granularity at which a tile may start: 1.
size_t kai_get_m_step_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(void);

/// Returns the column granularity at which a tile may start: SVL / 8 (4VL, 64 at SVL 512).
size_t kai_get_n_step_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(void);

/// Returns mr, the rows per packed LHS block to pass to the LHS packer: 1.
size_t kai_get_mr_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(void);

/// Returns nr, the columns per packed RHS block to pass to the RHS packer: SVL / 8 (4VL).
size_t kai_get_nr_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(void);

/// Returns kr to pass to the packers: 8.
size_t kai_get_kr_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(void);

/// Returns sr to pass to the packers: 2.
size_t kai_get_sr_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(void);

/// Returns the byte offset of the packed LHS block holding row m_idx.
///
/// @param[in] m_idx Row index; must be a multiple of mr (1).
/// @param[in] k     Depth K; must be at least 1.
///
/// @return (m_idx / mr) * mr * (roundup(k, 32) + 8).
size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(size_t m_idx, size_t k);

/// Returns the byte offset of the packed RHS block holding column n_idx.
///
/// @param[in] n_idx Column index; must be a multiple of nr (SVL / 8).
/// @param[in] k     Depth K; must be at least 1.
///
/// @return (n_idx / nr) * nr * (roundup(k, 32) / 2 + 12).
size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(size_t n_idx, size_t k);

/// Returns the byte offset of element (m_idx, n_idx) of the destination.
///
/// @param[in] m_idx      Row index; must be a multiple of m_step (1).
/// @param[in] n_idx      Column index; must be a multiple of n_step (SVL / 8).
/// @param[in] dst_stride Row stride of the destination in bytes.
///
/// @return m_idx * dst_stride + n_idx * sizeof(float).
size_t kai_get_dst_offset_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(size_t m_idx, size_t n_idx, size_t dst_stride);

/// Returns the size in bytes of an m x n f32 destination: m * n * sizeof(float).
///
/// @param[in] m Rows.
/// @param[in] n Columns.
///
/// @return The size in bytes.
size_t kai_get_dst_size_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(size_t m, size_t n);

/// Computes dst[i][j] = clamp(ls_i * rs_j * sum_k (q[i][k] - ZP_i) * w[j][k] + bias_j) for an m x n tile,
/// with the integer accumulation of docs/formats.md, "qsi4cxp matmul" (w the signed nibble) and the epilogue of docs/formats.md, "SME matmul recipes" for the DOT GEMVs: y = f32(A + S16_j *
/// off_i), s = rs_j * ls_i, y = fmaf(y, s, b_j) (one fused multiply-add for scale and bias, KleidiAI's
/// bits); this equals the NEON kernels' unfused result wherever b_j = 0 (no bias). Clamp: FMAX with scalar_min, then FMIN with scalar_max (a NaN stays NaN). Writes exactly the m x n
/// elements; returns at once when m or n is 0. Both packed buffers must come from this thread's SVL.
///
/// @param[in]  m              Rows of the tile (any value; the packed LHS must hold them).
/// @param[in]  n              Columns of the tile (any value; the packed RHS must hold them).
/// @param[in]  k              Depth K the operands were packed with; must be at least 1.
/// @param[in]  lhs_packed     Packed LHS at the block of the tile's first row; not NULL.
/// @param[in]  rhs_packed     Packed RHS at the block of the tile's first column; not NULL.
/// @param[out] dst            Element (0, 0) of the tile; not NULL.
/// @param[in]  dst_stride_row Row stride of dst in bytes; at least n * dst_stride_col when m > 1.
/// @param[in]  dst_stride_col Column stride of dst in bytes; must be sizeof(float).
/// @param[in]  scalar_min     Lower clamp bound (applied first, with FMAX).
/// @param[in]  scalar_max     Upper clamp bound (applied second, with FMIN).
void kai_run_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(
    size_t m, size_t n, size_t k, const void* lhs_packed, const void* rhs_packed, float* dst, size_t dst_stride_row,
    size_t dst_stride_col, float scalar_min, float scalar_max);

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_F32_QAI8DXP1X4_QSI4CXP4VLX4_1X4VL_SME_DOT_H
