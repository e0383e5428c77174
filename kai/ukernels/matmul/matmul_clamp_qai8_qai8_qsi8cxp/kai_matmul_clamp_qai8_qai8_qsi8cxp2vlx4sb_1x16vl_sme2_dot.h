//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot: static int8 GEMV (M = 1;
/// int8 LHS row read unpacked, int8 output requantized with per-channel scales) with multi-vector SDOT into the ZA
/// array (FEAT_SME2). RHS packed by kai_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme, the buffer the static int8
/// MOPA GEMMs read. See docs/matmul_int8_static.md.
///
/// dst[j] = clamp(rne(f32(acc[j]) * s[j]) + output_zero_point, min_value, max_value), acc = the packed bias plus
/// the int32 dot product of the LHS row and RHS column j, s the packed scale (docs/formats.md, "Static int8
/// requantization"); bit-identical to KleidiAI v1.30.0.
///
/// Vector length: VL = SVL / 32; nr = 2VL, n step = 16VL (KleidiAI's getters). Every getter reads the calling
/// thread's SVL (RDSVL); packed buffers are valid only at the SVL they were packed at. Calling convention: an
/// ordinary (non-streaming, ZA-less) AAPCS64 function that enters and leaves streaming mode itself, keeps d8-d15
/// and x19-x28, never touches x18, commits a pending lazy ZA save of the caller first (TPIDR2_EL0) and is safe
/// from any number of threads. Must not be called in streaming mode. The CPU must have FEAT_SME2.

#ifndef KAI_MATMUL_CLAMP_QAI8_QAI8_QSI8CXP2VLX4SB_1X16VL_SME2_DOT_H
#define KAI_MATMUL_CLAMP_QAI8_QAI8_QSI8CXP2VLX4SB_1X16VL_SME2_DOT_H

#include <stddef.h>

#include "kai/kai_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the m step, 1.
size_t kai_get_m_step_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(void);

/// Returns the n step, 16 * SVL / 32.
size_t kai_get_n_step_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(void);

/// Returns nr, 2 * SVL / 32: the value to pass to the RHS packer.
size_t kai_get_nr_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(void);

/// Returns kr, 4.
size_t kai_get_kr_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(void);

/// Returns sr, 1.
size_t kai_get_sr_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(void);

/// Returns the byte offset of LHS row m_idx: 0.
/// @param[in] m_idx Row index; must be 0.
/// @param[in] k     Depth.
size_t kai_get_lhs_offset_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(size_t m_idx, size_t k);

/// Returns the byte offset of column n_idx in the packed RHS: n_idx / nr * nr * (roundup(k, 4) + 8).
/// @param[in] n_idx Column index; must be a multiple of nr.
/// @param[in] k     Depth.
size_t kai_get_rhs_packed_offset_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(size_t n_idx, size_t k);

/// Returns the byte offset of DST element (m_idx, n_idx): n_idx.
/// @param[in] m_idx      Row index; must be 0.
/// @param[in] n_idx      Column index; must be a multiple of the n step.
/// @param[in] dst_stride Bytes between two DST rows (unused: one row).
size_t kai_get_dst_offset_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(size_t m_idx, size_t n_idx, size_t dst_stride);

/// Returns the size in bytes of an m x n DST: m * n.
size_t kai_get_dst_size_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(size_t m, size_t n);

/// Computes columns [0, n) of the one DST row (n 0: nothing).
/// @param[in]  m              Must be 1.
/// @param[in]  n              Columns.
/// @param[in]  k              Depth, as given to the RHS packer.
/// @param[in]  lhs            The LHS row, k int8 values; not NULL.
/// @param[in]  rhs_packed     The packed RHS at the first column (a multiple of nr); not NULL.
/// @param[out] dst            n int8 outputs; not NULL.
/// @param[in]  dst_stride_row Unused (one row).
/// @param[in]  dst_stride_col Must be 1 (sizeof(int8_t)).
/// @param[in]  params         Output zero point and clamp; not NULL; -128 <= min_value <= max_value <= 127.
void kai_run_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot(
    size_t m, size_t n, size_t k, const void* lhs, const void* rhs_packed, void* dst, size_t dst_stride_row,
    size_t dst_stride_col, const struct kai_matmul_requantize32_params* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_QAI8_QAI8_QSI8CXP2VLX4SB_1X16VL_SME2_DOT_H
