//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon: packs f16 weights stored K x N (k rows of n values, row stride
/// rhs_stride bytes) and an f16 bias into the bf16p12x4biasf16 RHS layout of
/// kai_matmul_clamp_f16_bf16p8x4_bf16p12x4b_8x12_neon_mmla: blocks of 12 columns of 24 + 24 * roundup(k, 4)
/// bytes (12 f16 bias values, then the bf16 weights). Each weight is widened to f32 exactly and rounded to bf16,
/// to nearest with ties to even (FCVTL then BFCVTN, as KleidiAI). Needs FEAT_BF16 and FEAT_FP16
/// (-march=armv8.6-a+bf16+fp16). kai_rhs_pack_nxk_bf16p12x4biasf16_f16_neon gives the same bytes from N x K
/// weights. See docs/matmul_bf16.md for the layout.

#ifndef KAI_RHS_PACK_KXN_BF16P12X4BIASF16_F16_NEON_H
#define KAI_RHS_PACK_KXN_BF16P12X4BIASF16_F16_NEON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the packer's n step, 12: the column origin of a packed range must be a multiple of it.
size_t kai_get_n_step_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(void);

/// Returns the byte offset of column n_idx inside a row of the unpacked K x N RHS: n_idx * 2.
/// @param[in] n_idx Column index; must be a multiple of 12.
size_t kai_get_rhs_offset_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(size_t n_idx);

/// Returns the byte offset of column n_idx in the f16 bias vector: n_idx * 2.
/// @param[in] n_idx Column index (a multiple of 12 to start a packed range).
size_t kai_get_bias_offset_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(size_t n_idx);

/// Returns the size in bytes of one packed block of 12 columns: 12 * (2 + roundup(k, 4) * 2).
/// @param[in] k Depth.
size_t kai_get_rhs_packed_stride_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(size_t k);

/// Returns the byte offset of column n_idx in the packed RHS: n_idx * (2 + roundup(k, 4) * 2).
/// @param[in] n_idx Column index; must be a multiple of 12.
/// @param[in] k     Depth.
size_t kai_get_rhs_packed_offset_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(size_t n_idx, size_t k);

/// Returns the size in bytes of the packed RHS: roundup(n, 12) * (2 + roundup(k, 4) * 2).
/// Aborts in every build when the size does not fit in size_t.
/// @param[in] n Columns (output channels).
/// @param[in] k Depth.
size_t kai_get_rhs_packed_size_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(size_t n, size_t k);

/// Packs n columns. Each block of 12 columns holds 12 f16 bias values, then for each group of 4
/// k values 12 columns x 4 bf16. k >= K holds copies of k = 0; columns past n hold zeros and
/// their bias slots are left unwritten. With bias NULL the bias of the valid columns is 0.
/// To pack columns [n0, n0 + n) on their own (n0 a multiple of 12), pass rhs + n0 * 2,
/// bias + n0 and rhs_packed + get_rhs_packed_offset(n0, k).
/// @param[in]  num_groups  Must be 1.
/// @param[in]  n           Columns to pack (0 returns at once).
/// @param[in]  k           Depth.
/// @param[in]  nr          Must be 12.
/// @param[in]  kr          Must be 4.
/// @param[in]  sr          Must be 1.
/// @param[in]  rhs_stride  Row stride of rhs in bytes; at least n * 2 when k > 1.
/// @param[in]  rhs         f16 weights, K x N; not NULL.
/// @param[in]  bias        n f16 values, or NULL for no bias.
/// @param[in]  scale       Must be NULL.
/// @param[out] rhs_packed  Packed RHS, get_rhs_packed_size(n, k) bytes; not NULL.
/// @param[in]  extra_bytes Must be 0.
/// @param[in]  params      Must be NULL.
void kai_run_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride, const void* rhs,
    const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes, const void* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_KXN_BF16P12X4BIASF16_F16_NEON_H
