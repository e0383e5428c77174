//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa: static int8 GEMM (int8 LHS and
/// RHS, int8 output requantized with per-channel scales) with SMOPA and SME2 multi-vector instructions (FEAT_SME2), a 2VL x 2VL tile
/// (VL = SVL / 32). LHS packed by kai_lhs_pack_x8p2vlx4_x8_sme, RHS by
/// kai_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme. See docs/matmul_int8_static.md.
///
/// dst[i][j] = clamp(rne(f32(acc[i][j]) * s[j]) + output_zero_point, min_value, max_value), acc = the packed bias
/// plus the int32 dot product of LHS row i and RHS column j, s the packed scale (docs/formats.md, "Static int8
/// requantization"); bit-identical to KleidiAI v1.30.0.
///
/// Vector length: every getter reads the calling thread's SVL (RDSVL); packed buffers are valid only at the SVL
/// they were packed at. Calling convention: an ordinary (non-streaming, ZA-less) AAPCS64 function that enters and
/// leaves streaming mode itself, keeps d8-d15 and x19-x28, never touches x18, commits a pending lazy ZA save of
/// the caller first (TPIDR2_EL0) and is safe from any number of threads. Must not be called in streaming mode.

#ifndef KAI_MATMUL_CLAMP_QAI8_QAI8P2VLX4_QSI8CXPSB2VLX4_2VLX2VL_SME2_MOPA_H
#define KAI_MATMUL_CLAMP_QAI8_QAI8P2VLX4_QSI8CXPSB2VLX4_2VLX2VL_SME2_MOPA_H

#include <stddef.h>

#include "kai/kai_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the m step, 2 * SVL / 32.
size_t kai_get_m_step_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(void);

/// Returns the n step, 2 * SVL / 32.
size_t kai_get_n_step_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(void);

/// Returns mr, 2 * SVL / 32: the value to pass to the LHS packer.
size_t kai_get_mr_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(void);

/// Returns nr, 2 * SVL / 32: the value to pass to the RHS packer.
size_t kai_get_nr_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(void);

/// Returns kr, 4.
size_t kai_get_kr_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(void);

/// Returns sr, 1.
size_t kai_get_sr_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(void);

/// Returns the byte offset of row m_idx in the packed LHS: m_idx * roundup(k, 4).
/// @param[in] m_idx Row index; must be a multiple of mr.
/// @param[in] k     Depth.
size_t kai_get_lhs_packed_offset_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(size_t m_idx, size_t k);

/// Returns the byte offset of column n_idx in the packed RHS: n_idx / nr * nr * (roundup(k, 4) + 8).
/// @param[in] n_idx Column index; must be a multiple of nr.
/// @param[in] k     Depth.
size_t kai_get_rhs_packed_offset_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(size_t n_idx, size_t k);

/// Returns the byte offset of DST element (m_idx, n_idx): m_idx * dst_stride_row + n_idx.
/// @param[in] m_idx          Row index; must be a multiple of the m step.
/// @param[in] n_idx          Column index; must be a multiple of the n step.
/// @param[in] dst_stride_row Bytes between two DST rows.
size_t kai_get_dst_offset_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(size_t m_idx, size_t n_idx, size_t dst_stride_row);

/// Returns the size in bytes of an m x n DST: m * n.
size_t kai_get_dst_size_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(size_t m, size_t n);

/// Computes an m x n tile of DST (m or n 0: nothing).
/// @param[in]  m              Rows.
/// @param[in]  n              Columns.
/// @param[in]  k              Depth, as given to both packers.
/// @param[in]  lhs_packed     The packed LHS at the tile's first row; not NULL.
/// @param[in]  rhs_packed     The packed RHS at the tile's first column; not NULL.
/// @param[out] dst            DST at the tile's first element; not NULL.
/// @param[in]  dst_stride_row Bytes between two DST rows; at least n when m > 1.
/// @param[in]  dst_stride_col Must be 1 (sizeof(int8_t)).
/// @param[in]  params         Output zero point and clamp; not NULL; -128 <= min_value <= max_value <= 127.
void kai_run_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa(
    size_t m, size_t n, size_t k, const void* lhs_packed, const void* rhs_packed, void* dst, size_t dst_stride_row,
    size_t dst_stride_col, const struct kai_matmul_requantize32_params* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_QAI8_QAI8P2VLX4_QSI8CXPSB2VLX4_2VLX2VL_SME2_MOPA_H
