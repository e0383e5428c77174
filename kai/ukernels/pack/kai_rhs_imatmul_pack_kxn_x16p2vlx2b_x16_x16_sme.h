//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme: packs the RHS of an indirect GEMM, K = k_chunk_count *
/// k_chunk_length rows of N 16-bit values (kxn, f16), and N 16-bit biases, for
/// kai_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa and
/// kai_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa (docs/imatmul.md; layout: docs/formats.md,
/// "Indirect GEMM packed layouts"). Values are copied as 16-bit patterns.
///
/// Vector length: nr = 2 * SVL / 32, read with RDSVL on every call. A buffer packed at one SVL must not be used
/// at another. Needs FEAT_SME: the call enters and leaves streaming mode itself (SMSTART SM / SMSTOP SM, no ZA
/// state), so it must not be called in streaming mode; it keeps d8-d15.

#ifndef KAI_RHS_IMATMUL_PACK_KXN_X16P2VLX2B_X16_X16_SME_H
#define KAI_RHS_IMATMUL_PACK_KXN_X16P2VLX2B_X16_X16_SME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the n step, nr = 2 * SVL / 32: the column origin of a packed range must be a multiple of it.
size_t kai_get_n_step_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(void);

/// Returns the byte offset of column n_idx in the unpacked kxn RHS: n_idx * 2.
/// @param[in] n_idx Column index; must be a multiple of the n step.
size_t kai_get_rhs_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(size_t n_idx);

/// Returns the byte offset of column n_idx in the bias: n_idx * 2.
/// @param[in] n_idx Column index.
size_t kai_get_bias_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(size_t n_idx);

/// Returns the bytes of one packed block of nr columns: nr * (1 + k_chunk_count * roundup(k_chunk_length, 2)) * 2.
/// @param[in] k_chunk_count  Chunks per LHS row.
/// @param[in] k_chunk_length Values per chunk.
size_t kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(
    size_t k_chunk_count, size_t k_chunk_length);

/// Returns the byte offset of column n_idx in the packed RHS: n_idx / nr blocks.
/// @param[in] n_idx          Column index; must be a multiple of the n step.
/// @param[in] k_chunk_count  Chunks per LHS row.
/// @param[in] k_chunk_length Values per chunk.
size_t kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(
    size_t n_idx, size_t k_chunk_count, size_t k_chunk_length);

/// Returns the size in bytes of the packed RHS of n columns: roundup(n, nr) / nr blocks.
/// @param[in] n              Columns.
/// @param[in] k_chunk_count  Chunks per LHS row.
/// @param[in] k_chunk_length Values per chunk.
size_t kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length);

/// Packs n columns: for each block of nr columns, the nr biases, then for each chunk c its roundup(k_chunk_length,
/// 2) / 2 pairs, a pair the nr columns' values of rows c * k_chunk_length + 2p and + 2p + 1 (column 0's two values
/// first); the pad of an odd chunk and the columns past n are 0 (biases and values). Writes exactly get_rhs_packed_size(n, ...) bytes.
/// n == 0 returns at once.
/// @param[in]  n              Columns to pack.
/// @param[in]  k_chunk_count  Chunks per LHS row.
/// @param[in]  k_chunk_length Values per chunk.
/// @param[in]  rhs_stride_row Row stride of the RHS in bytes; at least n * 2 when K > 1.
/// @param[in]  rhs            K x n values (at get_rhs_offset(n_idx) for a column range); not NULL.
/// @param[in]  bias           n biases (at get_bias_offset(n_idx)); not NULL (pass zeros for no bias).
/// @param[out] rhs_packed     Packed RHS (at get_rhs_packed_offset(n_idx, ...)); not NULL.
void kai_run_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length, size_t rhs_stride_row, const void* rhs, const void* bias,
    void* rhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_IMATMUL_PACK_KXN_X16P2VLX2B_X16_X16_SME_H
