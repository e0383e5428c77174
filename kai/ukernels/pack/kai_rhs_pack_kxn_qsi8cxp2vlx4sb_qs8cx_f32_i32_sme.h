//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme: packs a K x N int8 RHS with per-channel f32 scales and int32
/// biases into the qsi8cxp2vlx4sb layout of the static int8 SME/SME2 kernels (docs/formats.md, "qsi8cxp2vlx4sb
/// RHS"; docs/matmul_int8_static.md). Blocks of nr = 2 * SVL / 32 channels: nr int32 biases with the LHS zero
/// point folded in (bias[j] - lhs_zero_point * sum_k rhs[k][j], wrapping int32), then for each group of 4 K values
/// the 4 bytes of every channel in turn, then nr f32 scales (scale[j] * scale_multiplier, one f32 rounding).
/// K is padded to a multiple of 4 and the channels past n to nr with zeros (bias, data and scale).
///
/// The parameter struct, struct kai_rhs_pack_qsi8cx_params, is declared in kai/kai_common.h (as in KleidiAI).
/// Vector length: nr depends on the streaming vector length of the calling thread (read with RDSVL on each call);
/// a packed buffer is valid only at the SVL it was packed at. The packer does not enter streaming mode.

#ifndef KAI_RHS_PACK_KXN_QSI8CXP2VLX4SB_QS8CX_F32_I32_SME_H
#define KAI_RHS_PACK_KXN_QSI8CXP2VLX4SB_QS8CX_F32_I32_SME_H

#include <stddef.h>

#include "kai/kai_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the n step, nr = 2 * SVL / 32.
size_t kai_get_n_step_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(void);

/// Returns the byte offset of RHS column n_idx: n_idx.
/// @param[in] n_idx Column index; must be a multiple of the n step.
size_t kai_get_rhs_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n_idx);

/// Returns the byte offset of bias n_idx: n_idx * 4.
/// @param[in] n_idx Column index.
size_t kai_get_bias_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n_idx);

/// Returns the byte offset of scale n_idx: n_idx * 4.
/// @param[in] n_idx Column index.
size_t kai_get_scale_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n_idx);

/// Returns the bytes of one packed block of nr channels: nr * (4 + roundup(k, 4) + 4).
/// @param[in] k Depth.
size_t kai_get_rhs_packed_stride_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t k);

/// Returns the byte offset of channel n_idx in the packed RHS: n_idx / nr * stride.
/// @param[in] n_idx Column index; must be a multiple of the n step.
/// @param[in] k     Depth.
size_t kai_get_rhs_packed_offset_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n_idx, size_t k);

/// Returns the size in bytes of the packed RHS: roundup(n, nr) / nr * stride.
/// @param[in] n Columns.
/// @param[in] k Depth.
size_t kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n, size_t k);

/// Packs the RHS. Writes exactly kai_get_rhs_packed_size_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(n, k) bytes.
/// @param[in]  num_groups     Must be 1.
/// @param[in]  n              Columns (0 writes nothing).
/// @param[in]  k              Depth (rows of the K x N RHS).
/// @param[in]  nr             Must be the n step (2 * SVL / 32).
/// @param[in]  kr             Must be 4.
/// @param[in]  sr             Must be 1.
/// @param[in]  rhs_stride_row Bytes between two RHS rows; at least n when k > 1.
/// @param[in]  rhs            int8 K x N RHS; not NULL.
/// @param[in]  bias           n int32 biases; not NULL.
/// @param[in]  scale          n f32 per-channel scales; not NULL.
/// @param[out] rhs_packed     The packed RHS; not NULL.
/// @param[in]  extra_bytes    Must be 0.
/// @param[in]  params         lhs_zero_point and scale_multiplier; not NULL.
void kai_run_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride_row, const void* rhs,
    const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_qsi8cx_params* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_KXN_QSI8CXP2VLX4SB_QS8CX_F32_I32_SME_H
