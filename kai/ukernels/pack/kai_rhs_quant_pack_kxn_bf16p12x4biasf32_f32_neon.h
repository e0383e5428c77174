//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon: packs f32 weights stored K x N (k rows of n values, row stride rhs_stride bytes)
/// and an f32 bias into the bf16p12x4biasf32 RHS layout of the BF16 kernels, rounding each weight to bf16 (nearest, ties to even).
/// All four RHS packers of the family produce the same bytes for the same weights.
/// See docs/matmul_bf16.md for the layout.

#ifndef KAI_RHS_QUANT_PACK_KXN_BF16P12X4BIASF32_F32_NEON_H
#define KAI_RHS_QUANT_PACK_KXN_BF16P12X4BIASF32_F32_NEON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the packer's n step, 12: the column origin of a packed range must be a multiple of it.
size_t kai_get_n_step_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(void);

/// Returns the byte offset of column n_idx inside a row of the unpacked K x N RHS: n_idx * 4.
/// @param[in] n_idx Column index; must be a multiple of 12.
size_t kai_get_rhs_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(size_t n_idx);

/// Returns the byte offset of column n_idx in the bias vector: n_idx * 4.
/// @param[in] n_idx Column index; must be a multiple of 12.
size_t kai_get_bias_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(size_t n_idx);

/// Returns the byte offset of column n_idx in the packed RHS: n_idx * (4 + roundup(k, 4) * 2).
/// @param[in] n_idx Column index; must be a multiple of nr.
/// @param[in] k     Depth.
/// @param[in] nr    Must be 12.
/// @param[in] kr    Must be 4.
size_t kai_get_rhs_packed_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(size_t n_idx, size_t k, size_t nr, size_t kr);

/// Returns the size in bytes of the packed RHS: roundup(n, 12) * (4 + roundup(k, 4) * 2).
/// Aborts in every build when the size does not fit in size_t.
/// @param[in] n  Columns (output channels).
/// @param[in] k  Depth.
/// @param[in] nr Must be 12.
/// @param[in] kr Must be 4.
size_t kai_get_rhs_packed_size_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(size_t n, size_t k, size_t nr, size_t kr);

/// Packs n columns. Each block of 12 columns holds 12 f32 bias values, then for each group of 4
/// k values 12 columns x 4 bf16. k >= K holds copies of k = 0; columns past n hold zeros and
/// their bias slots are left unwritten. With bias NULL the bias of the valid columns is 0.
/// To pack columns [n0, n0 + n) on their own (n0 a multiple of 12), pass rhs + n0 * 4,
/// bias + n0 and rhs_packed + get_rhs_packed_offset(n0, k, 12, 4).
/// @param[in]  num_groups  Must be 1.
/// @param[in]  n           Columns to pack (0 returns at once).
/// @param[in]  k           Depth.
/// @param[in]  nr          Must be 12.
/// @param[in]  kr          Must be 4.
/// @param[in]  sr          Must be 1.
/// @param[in]  rhs_stride  Row stride of rhs in bytes.
/// @param[in]  rhs         f32 weights, K x N; not NULL.
/// @param[in]  bias        n f32 values, or NULL for no bias.
/// @param[in]  scale       Must be NULL.
/// @param[out] rhs_packed  Packed RHS, get_rhs_packed_size(n, k, 12, 4) bytes; not NULL.
/// @param[in]  extra_bytes Must be 0.
/// @param[in]  params      Must be NULL.
void kai_run_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride, const void* rhs,
    const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes, const void* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_QUANT_PACK_KXN_BF16P12X4BIASF32_F32_NEON_H
