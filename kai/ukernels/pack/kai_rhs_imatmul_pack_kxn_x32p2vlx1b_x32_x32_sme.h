//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme: packs the RHS of an indirect GEMM, K = k_chunk_count *
/// k_chunk_length rows of N 32-bit values (kxn, f32), and N 32-bit biases, for
/// kai_imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_{sme2,sme}_mopa (docs/imatmul.md; layout: docs/formats.md,
/// "Indirect GEMM packed layouts"). Values are copied as 32-bit patterns.
///
/// Vector length: nr = 2 * SVL / 32, read with RDSVL on every call. A buffer packed at one SVL must not be used
/// at another. Needs FEAT_SME (RDSVL); does not enter streaming mode.

#ifndef KAI_RHS_IMATMUL_PACK_KXN_X32P2VLX1B_X32_X32_SME_H
#define KAI_RHS_IMATMUL_PACK_KXN_X32P2VLX1B_X32_X32_SME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the n step, nr = 2 * SVL / 32: the column origin of a packed range must be a multiple of it.
size_t kai_get_n_step_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(void);

/// Returns the byte offset of column n_idx in the unpacked kxn RHS: n_idx * 4.
/// @param[in] n_idx Column index; must be a multiple of the n step.
size_t kai_get_rhs_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(size_t n_idx);

/// Returns the byte offset of column n_idx in the bias: n_idx * 4.
/// @param[in] n_idx Column index.
size_t kai_get_bias_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(size_t n_idx);

/// Returns the bytes of one packed block of nr columns: nr * (1 + k_chunk_count * k_chunk_length) * 4.
/// @param[in] k_chunk_count  Chunks per LHS row.
/// @param[in] k_chunk_length Values per chunk.
size_t kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(
    size_t k_chunk_count, size_t k_chunk_length);

/// Returns the byte offset of column n_idx in the packed RHS: n_idx / nr blocks.
/// @param[in] n_idx          Column index; must be a multiple of the n step.
/// @param[in] k_chunk_count  Chunks per LHS row.
/// @param[in] k_chunk_length Values per chunk.
size_t kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(
    size_t n_idx, size_t k_chunk_count, size_t k_chunk_length);

/// Returns the size in bytes of the packed RHS of n columns: roundup(n, nr) / nr blocks.
/// @param[in] n              Columns.
/// @param[in] k_chunk_count  Chunks per LHS row.
/// @param[in] k_chunk_length Values per chunk.
size_t kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length);

/// Packs n columns: for each block of nr columns, the nr biases, then for each k < K the nr values of row k;
/// columns past n are 0 (biases and values). Writes exactly get_rhs_packed_size(n, ...) bytes.
/// n == 0 returns at once.
/// @param[in]  n              Columns to pack.
/// @param[in]  k_chunk_count  Chunks per LHS row.
/// @param[in]  k_chunk_length Values per chunk.
/// @param[in]  rhs_stride_row Row stride of the RHS in bytes; at least n * 4 when K > 1.
/// @param[in]  rhs            K x n values (at get_rhs_offset(n_idx) for a column range); not NULL.
/// @param[in]  bias           n biases (at get_bias_offset(n_idx)); not NULL (pass zeros for no bias).
/// @param[out] rhs_packed     Packed RHS (at get_rhs_packed_offset(n_idx, ...)); not NULL.
void kai_run_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length, size_t rhs_stride_row, const void* rhs, const void* bias,
    void* rhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_IMATMUL_PACK_KXN_X32P2VLX1B_X32_X32_SME_H
