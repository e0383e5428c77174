//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa: f32 = clamp((int8 LHS, per-row asymmetric) x (int4 RHS with a bf16 scale per block of bl K values) + bias),
/// SME2 (GEMM, SMOPA into the four 32-bit ZA tiles, a VL x 4VL tile). LHS from kai_lhs_quant_pack_qai8dxp_f32 with
/// mr = SVL / 32 (VL), kr = 8, sr = 2; RHS from kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon or
/// kai_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon (docs/formats.md, "qsi4c32ps1s0nrx4 RHS") with nr = SVL / 8
/// (4VL), kr = 8, sr = 2 and the same bl. See docs/matmul_int4_blockwise.md and docs/matmul_sme.md.
///
/// Vector length: VL = SVL / 32 int32 lanes of the streaming vector of the CPU that calls (16 at SVL 512); every
/// getter reads the SVL (RDSVL) on each call. Packed buffers are valid only at the SVL they were packed at.
///
/// Calling convention: an ordinary (non-streaming, ZA-less) AAPCS64 function; it enters and leaves streaming mode
/// itself (SMSTART/SMSTOP), keeps d8-d15 and x19-x28, never touches x18, and is safe from any number of threads.
/// A pending lazy ZA save of the caller (TPIDR2_EL0 != 0) is committed first. ZA and ZT0 contents do not survive
/// the call. Must not be called in streaming mode. The CPU must have FEAT_SME2 (runtime dispatch is the caller's).

#ifndef KAI_MATMUL_CLAMP_F32_QAI8DXP1VLX4_QSI4C32P4VLX4_1VLX4VL_SME2_MOPA_H
#define KAI_MATMUL_CLAMP_F32_QAI8DXP1VLX4_QSI4C32P4VLX4_1VLX4VL_SME2_MOPA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the row granularity at which a tile may start: SVL / 32 (VL, 16 at SVL 512).
size_t kai_get_m_step_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(void);

/// Returns the column granularity at which a tile may start: SVL / 8 (4VL, 64 at SVL 512).
size_t kai_get_n_step_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(void);

/// Returns mr, the rows per packed LHS block to pass to the LHS packer: SVL / 32 (VL).
size_t kai_get_mr_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(void);

/// Returns nr, the columns per packed RHS block to pass to the RHS packer: SVL / 8 (4VL).
size_t kai_get_nr_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(void);

/// Returns kr to pass to the packers: 8.
size_t kai_get_kr_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(void);

/// Returns sr to pass to the packers: 2.
size_t kai_get_sr_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(void);

/// Returns the byte offset of the packed LHS block holding row m_idx.
///
/// @param[in] m_idx Row index; must be a multiple of mr (SVL / 32).
/// @param[in] k     Depth K; must be at least 1.
///
/// @return (m_idx / mr) * mr * (roundup(k, 32) + 8).
size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(size_t m_idx, size_t k);

/// Returns the byte offset of the packed RHS block holding column n_idx.
///
/// @param[in] n_idx Column index; must be a multiple of nr (SVL / 8).
/// @param[in] k     Depth K; must be a positive multiple of bl.
/// @param[in] bl    Block length; must be a positive multiple of 32.
///
/// @return (n_idx / nr) * nr * ((k / bl) * (bl / 2 + 2) + 8).
size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(size_t n_idx, size_t k, size_t bl);

/// Returns the byte offset of element (m_idx, n_idx) of the destination.
///
/// @param[in] m_idx      Row index; must be a multiple of m_step (SVL / 32).
/// @param[in] n_idx      Column index; must be a multiple of n_step (SVL / 8).
/// @param[in] dst_stride Row stride of the destination in bytes.
///
/// @return m_idx * dst_stride + n_idx * sizeof(float).
size_t kai_get_dst_offset_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(size_t m_idx, size_t n_idx, size_t dst_stride);

/// Returns the size in bytes of an m x n f32 destination: m * n * sizeof(float).
///
/// @param[in] m Rows.
/// @param[in] n Columns.
size_t kai_get_dst_size_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(size_t m, size_t n);

/// Runs the matmul: dst (m x n f32) = clamp(lhs x rhs + bias, scalar_min, scalar_max), the numerics of
/// docs/formats.md, "qsi4c32p SME2 matmul". m = 0 or n = 0 writes nothing. The destination also holds the running
/// per-block sums during the call, so it must not overlap the packed inputs. The checks of bl,
/// k and dst_stride_col (here and in get_rhs_packed_offset) abort in every build; the others are debug-build checks.
///
/// @param[in]  m              Rows of the output (any, tiled by the kernel).
/// @param[in]  n              Columns of the output (any, tiled by the kernel).
/// @param[in]  k              Depth K; must be a positive multiple of bl.
/// @param[in]  bl             Block length; must be a positive multiple of 32 (the packers' bl).
/// @param[in]  lhs_packed     Packed LHS (at get_lhs_packed_offset of the first row); not NULL.
/// @param[in]  rhs_packed     Packed RHS (at get_rhs_packed_offset of the first column); not NULL.
/// @param[out] dst            Output; not NULL.
/// @param[in]  dst_stride_row Bytes between rows; at least n * sizeof(float) when m > 1.
/// @param[in]  dst_stride_col Bytes between columns; must be sizeof(float).
/// @param[in]  scalar_min     Lower clamp bound (a NaN result gives it: FCLAMP).
/// @param[in]  scalar_max     Upper clamp bound.
void kai_run_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(
    size_t m, size_t n, size_t k, size_t bl, const void* lhs_packed, const void* rhs_packed, float* dst,
    size_t dst_stride_row, size_t dst_stride_col, float scalar_min, float scalar_max);

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_F32_QAI8DXP1VLX4_QSI4C32P4VLX4_1VLX4VL_SME2_MOPA_H
