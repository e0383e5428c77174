//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_lhs_pack_bf16p1x4_bf16_neon: packs one bf16 LHS row (raw bf16 bit patterns) into the 1x4 bf16 layout of the
/// BF16 GEMV kernels (kai_matmul_clamp_{f32,bf16}_bf16p1x4_bf16p12x4b_1x36_neon_dot): roundup(k, 4)
/// bf16 values in k order, copied unchanged,
/// then zeros. See docs/matmul_bf16.md.

#ifndef KAI_LHS_PACK_BF16P1X4_BF16_NEON_H
#define KAI_LHS_PACK_BF16P1X4_BF16_NEON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the packer's m step, mr.
/// @param[in] mr Rows per packed block; must be 1.
size_t kai_get_m_step_lhs_pack_bf16p1x4_bf16_neon(size_t mr);

/// Returns the byte offset of row m_idx in the unpacked LHS: m_idx * lhs_stride.
/// @param[in] m_idx      Row index.
/// @param[in] lhs_stride Row stride of the unpacked LHS in bytes.
size_t kai_get_lhs_offset_lhs_pack_bf16p1x4_bf16_neon(size_t m_idx, size_t lhs_stride);

/// Returns the byte offset of row m_idx in the packed LHS, 0.
/// @param[in] m_idx Row index; must be 0 (the GEMV takes one row).
/// @param[in] k     Depth.
/// @param[in] mr    Must be 1.
/// @param[in] kr    Must be 4.
/// @param[in] sr    Must be 1.
size_t kai_get_lhs_packed_offset_lhs_pack_bf16p1x4_bf16_neon(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed LHS: m * roundup(k, 4) * 2.
/// @param[in] m  Rows.
/// @param[in] k  Depth.
/// @param[in] mr Must be 1.
/// @param[in] kr Must be 4.
/// @param[in] sr Must be 1.
size_t kai_get_lhs_packed_size_lhs_pack_bf16p1x4_bf16_neon(size_t m, size_t k, size_t mr, size_t kr, size_t sr);

/// Packs the single bf16 LHS row of a GEMV.
/// @param[in]  m           Rows; must be 1 (0 returns at once).
/// @param[in]  k           Depth.
/// @param[in]  mr          Must be 1.
/// @param[in]  kr          Must be 4.
/// @param[in]  sr          Must be 1.
/// @param[in]  m_idx_start Must be 0.
/// @param[in]  lhs         bf16 row of k values; not NULL.
/// @param[in]  lhs_stride  Row stride of lhs in bytes (ignored: one row).
/// @param[out] lhs_packed  Packed LHS, roundup(k, 4) * 2 bytes; not NULL.
void kai_run_lhs_pack_bf16p1x4_bf16_neon(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride,
    void* lhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_LHS_PACK_BF16P1X4_BF16_NEON_H
