//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_lhs_pack_bf16p8x4_f16_neon: packs an f16 LHS (IEEE binary16 patterns) into the 8x4 bf16 layout of the BF16
/// GEMM kernels (kai_matmul_clamp_{f32,bf16,f16}_bf16p8x4_bf16p12x4b_8x12_neon_mmla). Each value is widened to
/// f32 exactly and rounded to bf16, to nearest with ties to even (FCVTL then BFCVTN, as KleidiAI). Needs
/// FEAT_BF16 and FEAT_FP16 (-march=armv8.6-a+bf16+fp16). See docs/matmul_bf16.md for the layout.

#ifndef KAI_LHS_PACK_BF16P8X4_F16_NEON_H
#define KAI_LHS_PACK_BF16P8X4_F16_NEON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the packer's m step: the row origin of a packed range must be a multiple of it.
/// @param[in] mr Rows per packed block; must be 8.
size_t kai_get_m_step_lhs_pack_bf16p8x4_f16_neon(size_t mr);

/// Returns the byte offset of row m_idx in the unpacked LHS: m_idx * lhs_stride.
/// @param[in] m_idx      Row index; must be a multiple of 8.
/// @param[in] lhs_stride Row stride of the unpacked LHS in bytes.
size_t kai_get_lhs_offset_lhs_pack_bf16p8x4_f16_neon(size_t m_idx, size_t lhs_stride);

/// Returns the byte offset of row m_idx in the packed LHS: m_idx * roundup(k, 4) * 2.
/// @param[in] m_idx Row index; must be a multiple of mr.
/// @param[in] k     Depth.
/// @param[in] mr    Must be 8.
/// @param[in] kr    Must be 4.
/// @param[in] sr    Must be 1.
size_t kai_get_lhs_packed_offset_lhs_pack_bf16p8x4_f16_neon(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed LHS: roundup(m, 8) * roundup(k, 4) * 2.
/// @param[in] m  Rows.
/// @param[in] k  Depth.
/// @param[in] mr Must be 8.
/// @param[in] kr Must be 4.
/// @param[in] sr Must be 1.
size_t kai_get_lhs_packed_size_lhs_pack_bf16p8x4_f16_neon(size_t m, size_t k, size_t mr, size_t kr, size_t sr);

/// Packs m rows of an f16 LHS. Each block of 8 rows holds, for each group of 4 k values, 8 rows x
/// 4 bf16; k >= K is 0 and the rows past m in the last block repeat the block's first row.
/// Infinities stay infinities, NaNs stay NaNs (quietened), f16 subnormals are converted exactly
/// before the rounding to bf16.
/// To pack rows [m0, m0 + m) on their own (m0 a multiple of 8), pass lhs + m0 * lhs_stride and
/// lhs_packed + get_lhs_packed_offset(m0, k, ...).
/// @param[in]  m           Rows to pack (0 returns at once).
/// @param[in]  k           Depth.
/// @param[in]  mr          Must be 8.
/// @param[in]  kr          Must be 4.
/// @param[in]  sr          Must be 1.
/// @param[in]  m_idx_start Must be 0.
/// @param[in]  lhs         f16 LHS, m rows of k values; not NULL.
/// @param[in]  lhs_stride  Row stride of lhs in bytes; at least k * 2 when m > 1.
/// @param[out] lhs_packed  Packed LHS, get_lhs_packed_size(m, k, ...) bytes; not NULL.
void kai_run_lhs_pack_bf16p8x4_f16_neon(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride,
    void* lhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_LHS_PACK_BF16P8X4_F16_NEON_H
