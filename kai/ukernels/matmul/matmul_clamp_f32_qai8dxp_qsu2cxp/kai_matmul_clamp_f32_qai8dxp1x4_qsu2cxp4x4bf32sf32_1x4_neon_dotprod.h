//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod: f32 = clamp((int8 LHS, per-row asymmetric) x
/// (2-bit RHS codes through a 4-entry look-up table, per-channel f32 scale) + bias), tile 1x4 (GEMV: m must
/// be 1), needs FEAT_DotProd (SDOT). LHS from kai_lhs_quant_pack_qai8dxp_f32 with mr = 1, kr = 4, sr = 1; RHS
/// from kai_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon with nr = 4, kr = 4, sr = 1. See
/// docs/matmul_int2_channelwise.md.

#ifndef KAI_MATMUL_CLAMP_F32_QAI8DXP1X4_QSU2CXP4X4BF32SF32_1X4_NEON_DOTPROD_H
#define KAI_MATMUL_CLAMP_F32_QAI8DXP1X4_QSU2CXP4X4BF32SF32_1X4_NEON_DOTPROD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the row granularity at which a tile may start: 1.
size_t kai_get_m_step_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(void);

/// Returns the column granularity at which a tile may start: 4.
size_t kai_get_n_step_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(void);

/// Returns mr, the rows per packed LHS block to pass to the LHS packer: 1.
size_t kai_get_mr_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(void);

/// Returns nr, the columns per packed RHS block to pass to the RHS packer: 4.
size_t kai_get_nr_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(void);

/// Returns kr to pass to the packers: 4.
size_t kai_get_kr_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(void);

/// Returns sr to pass to the packers: 1.
size_t kai_get_sr_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(void);

/// Returns the byte offset of the packed LHS block holding row m_idx.
///
/// @param[in] m_idx Row index; must be a multiple of mr (1).
/// @param[in] k     Depth K; must be at least 1.
///
/// @return (m_idx / mr) * mr * (roundup(k, 32) + 8).
size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(size_t m_idx, size_t k);

/// Returns the byte offset of the packed RHS block holding column n_idx.
///
/// @param[in] n_idx Column index; must be a multiple of nr (4).
/// @param[in] k     Depth K; must be at least 1.
///
/// @return (n_idx / nr) * nr * (roundup(k, 32) / 4 + 12).
size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(size_t n_idx, size_t k);

/// Returns the byte offset of element (m_idx, n_idx) of the destination.
///
/// @param[in] m_idx      Row index; must be a multiple of m_step (1).
/// @param[in] n_idx      Column index; must be a multiple of n_step (4).
/// @param[in] dst_stride Row stride of the destination in bytes.
///
/// @return m_idx * dst_stride + n_idx * sizeof(float).
size_t kai_get_dst_offset_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(
    size_t m_idx, size_t n_idx, size_t dst_stride);

/// Returns the size in bytes of an m x n f32 destination: m * n * sizeof(float).
///
/// @param[in] m Rows.
/// @param[in] n Columns.
///
/// @return The size in bytes.
size_t kai_get_dst_size_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(size_t m, size_t n);

/// Computes dst[i][j] = clamp(ls_i * rs_j * sum_k (q[i][k] - ZP_i) * lut[c[j][k]] + bias_j) for an m x n
/// tile, with the integer accumulation and the f32 epilogue of docs/formats.md, "qsu2cxp matmul" (bit-exact; the
/// two scales multiplied first). Writes exactly the m x n elements.
///
/// @param[in]  m              Rows of the tile; must be 1.
/// @param[in]  n              Columns of the tile; must be at least 1 (the packed RHS must hold them).
/// @param[in]  k              Depth K the operands were packed with; must be a positive multiple of 32.
/// @param[in]  lhs_packed     Packed LHS at the block of the tile's row; not NULL.
/// @param[in]  rhs_packed     Packed RHS at the block of the tile's first column; not NULL.
/// @param[out] dst            Element (0, 0) of the tile; not NULL.
/// @param[in]  dst_stride_row Row stride of dst in bytes (not read: m is 1).
/// @param[in]  dst_stride_col Column stride of dst in bytes; must be sizeof(float).
/// @param[in]  scalar_min     Lower clamp bound (applied first, with FMAX).
/// @param[in]  scalar_max     Upper clamp bound (applied second, with FMIN).
/// @param[in]  lut            The 4 weights of the codes 0-3, each in [-64, 63] and the same the RHS was packed
///                            with, or NULL for {-2, -1, 0, 1}.
void kai_run_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod(
    size_t m, size_t n, size_t k, const void* lhs_packed, const void* rhs_packed, float* dst, size_t dst_stride_row,
    size_t dst_stride_col, float scalar_min, float scalar_max, const int32_t* lut);

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_F32_QAI8DXP1X4_QSU2CXP4X4BF32SF32_1X4_NEON_DOTPROD_H
