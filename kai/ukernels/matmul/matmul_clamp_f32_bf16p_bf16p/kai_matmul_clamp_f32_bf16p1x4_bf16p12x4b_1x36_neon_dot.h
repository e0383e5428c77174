//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot: BF16 GEMV (m = 1) with f32 output (BFDOT, 1x36 tile). Packed LHS from kai_lhs_quant_pack_bf16p1x4_f32_neon or kai_lhs_pack_bf16p1x4_bf16_neon; packed RHS from any kai_rhs_*_bf16p12x4biasf32_* packer.
/// See docs/matmul_bf16.md for the packed layouts and the numerics.

#ifndef KAI_MATMUL_CLAMP_F32_BF16P1X4_BF16P12X4B_1X36_NEON_DOT_H
#define KAI_MATMUL_CLAMP_F32_BF16P1X4_BF16P12X4B_1X36_NEON_DOT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the m step, 1: the row origin of a sub-tile must be a multiple of it.
size_t kai_get_m_step_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot(void);

/// Returns the n step, 36: the column origin of a sub-tile must be a multiple of it.
size_t kai_get_n_step_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot(void);

/// Returns mr, 1: the value to pass to the LHS packer.
size_t kai_get_mr_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot(void);

/// Returns nr, 12: the value to pass to the RHS packer.
size_t kai_get_nr_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot(void);

/// Returns kr, 4: the value to pass to the packers.
size_t kai_get_kr_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot(void);

/// Returns sr, 1: the value to pass to the packers.
size_t kai_get_sr_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot(void);

/// Returns the byte offset of LHS row m_idx in the packed LHS: m_idx * roundup(k, 4) * 2.
/// @param[in] m_idx Row index; must be a multiple of mr (1, so 0).
/// @param[in] k     Depth (number of LHS columns).
size_t kai_get_lhs_packed_offset_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot(size_t m_idx, size_t k);

/// Returns the byte offset of RHS column n_idx in the packed RHS: n_idx * (4 + roundup(k, 4) * 2).
/// @param[in] n_idx Column index; must be a multiple of nr (12).
/// @param[in] k     Depth.
size_t kai_get_rhs_packed_offset_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot(size_t n_idx, size_t k);

/// Returns the byte offset of DST element (m_idx, n_idx): m_idx * dst_stride + n_idx * 4.
/// @param[in] m_idx      Row index; must be a multiple of the m step (1).
/// @param[in] n_idx      Column index; must be a multiple of the n step (36).
/// @param[in] dst_stride Row stride of DST in bytes.
size_t kai_get_dst_offset_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot(size_t m_idx, size_t n_idx, size_t dst_stride);

/// Returns the size in bytes of a dense m x n DST: m * n * 4.
size_t kai_get_dst_size_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot(size_t m, size_t n);

/// Computes dst[i][j] = clamp(bias[j] + sum_k lhs[i][k] * rhs[k][j], scalar_min, scalar_max)
/// for 0 <= i < m, 0 <= j < n, from packed bf16 operands, accumulating in f32.
/// Writes exactly the m x n outputs and reads nothing beyond the packed blocks covering them.
/// m == 0 or n == 0 returns at once.
///
/// @param[in]  m              Rows of DST; must be 1 (GEMV only; m == 0 returns).
/// @param[in]  n              Columns of DST.
/// @param[in]  k              Depth (k == 0 gives the clamped bias).
/// @param[in]  lhs_packed     Packed LHS (at get_lhs_packed_offset(m_idx, k)); not NULL.
/// @param[in]  rhs_packed     Packed RHS (at get_rhs_packed_offset(n_idx, k)); not NULL.
/// @param[out] dst            DST element (m_idx, n_idx) (at get_dst_offset); not NULL.
/// @param[in]  dst_stride_row Row stride of DST in bytes (ignored: m is 1).
/// @param[in]  dst_stride_col Column stride of DST in bytes; must be 4 (sizeof(float)).
/// @param[in]  scalar_min     Lower clamp bound (-FLT_MAX or -INFINITY for none).
/// @param[in]  scalar_max     Upper clamp bound (FLT_MAX or INFINITY for none).
void kai_run_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot(
    size_t m, size_t n, size_t k, const void* lhs_packed, const void* rhs_packed, void* dst,
    size_t dst_stride_row, size_t dst_stride_col, float scalar_min, float scalar_max);

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_F32_BF16P1X4_BF16P12X4B_1X36_NEON_DOT_H
