//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla: f32 GEMM with NEON FMLA (Armv8.0, no extension),
/// 6 rows x 8 columns per step, K unrolled by 4. The LHS is read unpacked (f32 rows with a stride); the RHS is the
/// f32p8x1biasf32 buffer of kai_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon (bias included). Any M, including the
/// GEMV case M = 1. See docs/matmul_f32.md.

#ifndef KAI_MATMUL_CLAMP_F32_F32_F32P8X1BIASF32_6X8X4_NEON_MLA_H
#define KAI_MATMUL_CLAMP_F32_F32_F32P8X1BIASF32_6X8X4_NEON_MLA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the m step, 6: a sub-tile's first row must be a multiple of it.
size_t kai_get_m_step_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(void);

/// Returns the n step, 8: a sub-tile's first column must be a multiple of it.
size_t kai_get_n_step_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(void);

/// Returns nr, 8: the value to pass to the RHS packer.
size_t kai_get_nr_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(void);

/// Returns kr, 1: the value to pass to the RHS packer.
size_t kai_get_kr_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(void);

/// Returns sr, 1: the value to pass to the RHS packer.
size_t kai_get_sr_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(void);

/// Returns the byte offset of LHS row m_idx: m_idx * stride.
/// @param[in] m_idx  Row index; must be a multiple of the m step (6).
/// @param[in] stride Row stride of the LHS in bytes.
size_t kai_get_lhs_offset_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(size_t m_idx, size_t stride);

/// Returns the byte offset of column n_idx in the packed RHS: n_idx * (1 + k) * 4.
/// @param[in] n_idx Column index; must be a multiple of nr (8).
/// @param[in] k     Depth.
size_t kai_get_rhs_packed_offset_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(size_t n_idx, size_t k);

/// Returns the byte offset of DST element (m_idx, n_idx): m_idx * stride + n_idx * 4.
/// @param[in] m_idx  Row index; must be a multiple of the m step (6).
/// @param[in] n_idx  Column index; must be a multiple of the n step (8).
/// @param[in] stride Row stride of DST in bytes.
size_t kai_get_dst_offset_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(size_t m_idx, size_t n_idx, size_t stride);

/// Returns the size in bytes of a dense m x n DST: m * n * 4.
size_t kai_get_dst_size_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(size_t m, size_t n);

/// Computes dst[i][j] = max(min(acc, clamp_max), clamp_min) for 0 <= i < m, 0 <= j < n, where acc = bias[j], then
/// acc = fma(lhs[i][k], rhs[k][j], acc) for k = 0 ... k - 1 in order: one fused multiply-add per k, bit-identical to
/// that C loop (docs/formats.md, "f32 NEON matmul"). The clamp is FMIN then FMAX, as KleidiAI's: a NaN acc stays
/// NaN, and clamp_min > clamp_max gives clamp_min. Writes exactly the m x n outputs and reads nothing beyond the
/// m rows of k LHS values and the packed blocks covering the n columns.
/// m == 0 or n == 0 returns at once.
/// @param[in]  m              Rows of LHS and DST.
/// @param[in]  n              Columns of DST.
/// @param[in]  k              Depth; the k the RHS was packed with (0 gives the clamped bias).
/// @param[in]  lhs            f32 LHS, m rows of k values (at get_lhs_offset(m_idx, lhs_stride) for a sub-tile); not NULL.
/// @param[in]  lhs_stride     Row stride of the LHS in bytes; a multiple of 4, at least k * 4 when m > 1.
/// @param[in]  rhs_packed     Packed RHS (at get_rhs_packed_offset(n_idx, k) for a sub-tile); not NULL.
/// @param[out] dst            DST (at get_dst_offset(m_idx, n_idx, dst_stride_row)); not NULL.
/// @param[in]  dst_stride_row Row stride of DST in bytes; a multiple of 4, at least n * 4 when m > 1.
/// @param[in]  dst_stride_col Must be 4.
/// @param[in]  clamp_min      Lower clamp bound.
/// @param[in]  clamp_max      Upper clamp bound.
void kai_run_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla(
    size_t m, size_t n, size_t k, const void* lhs, size_t lhs_stride, const void* rhs_packed, void* dst,
    size_t dst_stride_row, size_t dst_stride_col, float clamp_min, float clamp_max);

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_F32_F32_F32P8X1BIASF32_6X8X4_NEON_MLA_H
