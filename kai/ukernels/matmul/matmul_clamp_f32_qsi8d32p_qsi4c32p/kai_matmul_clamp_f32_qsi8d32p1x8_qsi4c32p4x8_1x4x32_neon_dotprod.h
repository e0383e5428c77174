//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod: dst = clamp(lhs x rhs) in f32 for the GGUF Q4_0 family (docs/matmul_q4_0.md), computed
/// in GEMV-shaped 1 x 4 tiles with SDOT (FEAT_DotProd); any m. LHS packed by kai_lhs_quant_pack_qsi8d32p_f32 (mr = 1, kr = 16, sr = 2);
/// RHS packed by kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0 (nr = 4, kr = 16, sr = 2).
/// Per output and block: acc = fmaf(sum_block(q * w), lhs_scale * rhs_scale, acc), then
/// max(acc, scalar_min), min(., scalar_max). There is no bias.

#ifndef KAI_MATMUL_CLAMP_F32_QSI8D32P1X8_QSI4C32P4X8_1X4X32_NEON_DOTPROD_H
#define KAI_MATMUL_CLAMP_F32_QSI8D32P1X8_QSI4C32P4X8_1X4X32_NEON_DOTPROD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the granularity of the row origin of a tile: 1.
size_t kai_get_m_step_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(void);

/// Returns the granularity of the column origin of a tile: 4.
size_t kai_get_n_step_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(void);

/// Returns the mr to pass to the LHS packer: 1.
size_t kai_get_mr_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(void);

/// Returns the nr to pass to the RHS packer: 4.
size_t kai_get_nr_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(void);

/// Returns the kr to pass to the packers: 16.
size_t kai_get_kr_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(void);

/// Returns the sr to pass to the packers: 2.
size_t kai_get_sr_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(void);

/// Returns the byte offset in the packed LHS of the block holding row m_idx: (m_idx / 1) * 1 * (k / bl) * (bl + 2).
/// @param[in] m_idx Row index; must be a multiple of 1.
/// @param[in] k     Depth; must be a multiple of bl.
/// @param[in] bl    Block length; must be a non-zero multiple of 32 (checked in every build, as k % bl == 0).
size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(size_t m_idx, size_t k, size_t bl);

/// Returns the byte offset in the packed RHS of the block holding column n_idx: (n_idx / 4) * 4 * (k / bl) * (bl / 2 + 2).
/// @param[in] n_idx Column (output channel) index; must be a multiple of 4.
/// @param[in] k     Depth; must be a multiple of bl.
/// @param[in] bl    Block length; must be a non-zero multiple of 32 (checked in every build, as k % bl == 0).
size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(size_t n_idx, size_t k, size_t bl);

/// Returns the byte offset of dst element (m_idx, n_idx): m_idx * dst_stride + n_idx * sizeof(float).
/// @param[in] m_idx      Row index; must be a multiple of m_step (1).
/// @param[in] n_idx      Column index; must be a multiple of n_step (4).
/// @param[in] dst_stride Row stride of dst in bytes.
size_t kai_get_dst_offset_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(size_t m_idx, size_t n_idx, size_t dst_stride);

/// Returns the size in bytes of an m x n f32 dst: m * n * sizeof(float).
/// @param[in] m Rows.
/// @param[in] n Columns.
size_t kai_get_dst_size_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(size_t m, size_t n);

/// Computes the m x n tile dst = clamp(lhs x rhs). Writes exactly m x n floats; returns at once
/// when m == 0 or n == 0. For a sub-tile, pass the packed pointers advanced by the offset getters.
/// @param[in]  m              Rows of dst.
/// @param[in]  n              Columns of dst.
/// @param[in]  k              Depth; must be a multiple of bl.
/// @param[in]  bl             Block length; must be a non-zero multiple of 32 (checked in every build, as k % bl == 0).
/// @param[in]  lhs_packed     Packed LHS (see above); must not be NULL when m, n > 0.
/// @param[in]  rhs_packed     Packed RHS; must not be NULL when m, n > 0.
/// @param[out] dst            Output, m rows of n floats; must not be NULL when m, n > 0.
/// @param[in]  dst_stride_row Row stride of dst in bytes; at least n * sizeof(float) when m > 1.
/// @param[in]  dst_stride_col Column stride of dst in bytes; must be sizeof(float).
/// @param[in]  scalar_min     Lower clamp bound (-FLT_MAX for none).
/// @param[in]  scalar_max     Upper clamp bound (FLT_MAX for none).
void kai_run_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(
    size_t m, size_t n, size_t k, size_t bl, const void* lhs_packed, const void* rhs_packed, float* dst,
    size_t dst_stride_row, size_t dst_stride_col, float scalar_min, float scalar_max);

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_F32_QSI8D32P1X8_QSI4C32P4X8_1X4X32_NEON_DOTPROD_H
