//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon: packs an f32 RHS given as K rows of N (kxn) and an f32 bias into
/// the f32p8x1biasf32 layout of kai_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla (docs/formats.md,
/// "f32p8x1biasf32 RHS"). Armv8.0 NEON. See docs/matmul_f32.md.

#ifndef KAI_RHS_PACK_KXN_F32P8X1BIASF32_F32_F32_NEON_H
#define KAI_RHS_PACK_KXN_F32P8X1BIASF32_F32_F32_NEON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the packer's n step, nr = 8: the column origin of a packed range must be a multiple of it.
size_t kai_get_n_step_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(void);

/// Returns the byte offset of column n_idx in a row of the unpacked kxn RHS: n_idx * 4.
/// @param[in] n_idx Column index; must be a multiple of nr (8).
size_t kai_get_rhs_offset_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(size_t n_idx);

/// Returns the byte offset of channel n_idx in the bias: n_idx * 4.
/// @param[in] n_idx Channel index.
size_t kai_get_bias_offset_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(size_t n_idx);

/// Returns the byte offset of column n_idx in the packed RHS: n_idx * (1 + k) * 4.
/// @param[in] n_idx Column index; must be a multiple of nr (8).
/// @param[in] k     Depth.
size_t kai_get_rhs_packed_offset_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(size_t n_idx, size_t k);

/// Returns the size in bytes of the packed RHS: roundup(n, 8) * (1 + k) * 4.
/// @param[in] n Columns (output channels).
/// @param[in] k Depth.
size_t kai_get_rhs_packed_size_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(size_t n, size_t k);

/// Packs n columns. Each block of 8 columns holds 8 f32 biases, then for each k the 8 values rhs[k][j]. Columns
/// past n in the last block are 0.0, biases included (KleidiAI leaves those bias slots unwritten; the kernel never
/// uses them). To pack columns [n0, n0 + n) on their own (n0 a multiple of 8), pass rhs + n0, bias + n0 and
/// rhs_packed + get_rhs_packed_offset(n0, k), with the full matrix's rhs_stride.
/// @param[in]  num_groups  Must be 1.
/// @param[in]  n           Columns (0 returns at once).
/// @param[in]  k           Depth.
/// @param[in]  nr          Must be 8.
/// @param[in]  kr          Must be 1.
/// @param[in]  sr          Must be 1.
/// @param[in]  rhs_stride  Row stride of rhs in bytes; a multiple of 4, at least n * 4 when k > 1.
/// @param[in]  rhs         f32 RHS, k rows of n values; not NULL.
/// @param[in]  bias        n f32 biases; not NULL (pass zeros for no bias).
/// @param[in]  scale       Must be NULL.
/// @param[out] rhs_packed  Packed RHS, get_rhs_packed_size(n, k) bytes; not NULL.
/// @param[in]  extra_bytes Must be 0.
/// @param[in]  params      Must be NULL.
void kai_run_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride, const void* rhs,
    const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes, const void* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_KXN_F32P8X1BIASF32_F32_F32_NEON_H
