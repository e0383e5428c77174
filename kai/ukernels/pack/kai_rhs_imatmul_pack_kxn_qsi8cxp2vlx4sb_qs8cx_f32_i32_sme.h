//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme: packs the int8 RHS of an indirect matmul, K x N with
/// K = k_chunk_count * k_chunk_length rows taken as k_chunk_count chunks of k_chunk_length rows, with per-channel
/// f32 scales and int32 biases, into the qsi8cxp2vlx4sb layout with each chunk padded to a multiple of 4 rows
/// (docs/formats.md, "qsi8cxp2vlx4sb RHS", "Indirect qsi8cxp2vlx4sb RHS"; docs/matmul_int8_static.md). Blocks of
/// nr = 2 * SVL / 32 channels: nr int32 biases bias[j] - lhs_zero_point * sum_k rhs[k][j] (wrapping), the chunks'
/// data, nr f32 scales scale[j] * scale_multiplier.
///
/// The parameter struct, struct kai_rhs_pack_qsi8cx_params, is declared in kai/kai_common.h (as in KleidiAI).
/// Vector length: nr depends on the streaming vector length of the calling thread (read with RDSVL on each call);
/// a packed buffer is valid only at the SVL it was packed at. The packer does not enter streaming mode.

#ifndef KAI_RHS_IMATMUL_PACK_KXN_QSI8CXP2VLX4SB_QS8CX_F32_I32_SME_H
#define KAI_RHS_IMATMUL_PACK_KXN_QSI8CXP2VLX4SB_QS8CX_F32_I32_SME_H

#include <stddef.h>

#include "kai/kai_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the n step, nr = 2 * SVL / 32.
size_t kai_get_n_step_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(void);

/// Returns the byte offset of RHS column n_idx: n_idx.
/// @param[in] n_idx Column index; must be a multiple of the n step.
size_t kai_get_rhs_offset_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n_idx);

/// Returns the byte offset of bias n_idx: n_idx * 4.
/// @param[in] n_idx Column index.
size_t kai_get_bias_offset_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n_idx);

/// Returns the bytes of one packed block: nr * (4 + k_chunk_count * roundup(k_chunk_length, 4) + 4).
/// @param[in] k_chunk_count  Chunks.
/// @param[in] k_chunk_length Rows per chunk.
size_t kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(
    size_t k_chunk_count, size_t k_chunk_length);

/// Returns the byte offset of scale n_idx: n_idx * 4.
/// @param[in] n_idx Column index.
size_t kai_get_scale_offset_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(size_t n_idx);

/// Returns the byte offset of channel n_idx in the packed RHS: n_idx / nr * stride.
/// @param[in] n_idx          Column index; must be a multiple of the n step.
/// @param[in] k_chunk_count  Chunks.
/// @param[in] k_chunk_length Rows per chunk.
size_t kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(
    size_t n_idx, size_t k_chunk_count, size_t k_chunk_length);

/// Returns the size in bytes of the packed RHS: roundup(n, nr) / nr * stride.
/// @param[in] n              Columns.
/// @param[in] k_chunk_count  Chunks.
/// @param[in] k_chunk_length Rows per chunk.
size_t kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length);

/// Packs the RHS. Writes exactly the packed size.
/// @param[in]  n              Columns (0 writes nothing).
/// @param[in]  k_chunk_count  Chunks.
/// @param[in]  k_chunk_length Rows per chunk.
/// @param[in]  rhs_stride_row Bytes between two RHS rows; at least n when there is more than one row.
/// @param[in]  rhs            int8 K x N RHS; not NULL.
/// @param[in]  bias           n int32 biases; not NULL.
/// @param[in]  scale          n f32 per-channel scales; not NULL.
/// @param[out] rhs_packed     The packed RHS; not NULL.
/// @param[in]  params         lhs_zero_point and scale_multiplier; not NULL.
void kai_run_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length, size_t rhs_stride_row, const void* rhs, const void* bias,
    const void* scale, void* rhs_packed, const struct kai_rhs_pack_qsi8cx_params* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_IMATMUL_PACK_KXN_QSI8CXP2VLX4SB_QS8CX_F32_I32_SME_H
