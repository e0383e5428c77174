//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_lhs_quant_pack_qsi8d32pscalef32_f16_neon: quantises f16 LHS rows to int8 per block of bl
/// values (symmetric, scale 127 / amax) and packs them for the asymmetric int4 kernels
/// (kai_matmul_clamp_{f32,f16}_qsi8d32p*_qai4c32p*). See docs/matmul_int4_asymmetric.md. AArch64 NEON with FEAT_FP16.
///
/// Memory: reads, per row r < m, f16 values [0, k) at lhs + (m_idx_start + r) * lhs_stride; writes
/// lanes m_idx_start % mr onwards of the blocks of mr rows at lhs_packed (lanes past m are not
/// written).

#ifndef KAI_LHS_QUANT_PACK_QSI8D32PSCALEF32_F16_NEON_H
#define KAI_LHS_QUANT_PACK_QSI8D32PSCALEF32_F16_NEON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the row granularity of the packed LHS: mr.
/// @param[in] mr Rows per packed block.
size_t kai_get_m_step_lhs_quant_pack_qsi8d32pscalef32_f16_neon(size_t mr);

/// Returns the byte offset of row m_idx in the unpacked LHS: m_idx * lhs_stride.
/// @param[in] m_idx      Row index.
/// @param[in] lhs_stride Row stride in bytes.
size_t kai_get_lhs_offset_lhs_quant_pack_qsi8d32pscalef32_f16_neon(size_t m_idx, size_t lhs_stride);

/// Returns the byte offset of the packed block holding row m_idx: (m_idx / mr) * mr * nb * (bl + 8),
/// nb = k / bl.
/// @param[in] m_idx Row index; must be a multiple of mr.
/// @param[in] k     Depth; must be even and a multiple of kr and of bl.
/// @param[in] bl    Block length; must be a non-zero multiple of 32.
/// @param[in] mr    Rows per packed block; must be non-zero.
/// @param[in] kr    K values per kernel step.
/// @param[in] sr    Split of kr (not used by the size).
size_t kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32pscalef32_f16_neon(
    size_t m_idx, size_t k, size_t bl, size_t mr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed LHS: ceil(m / mr) * mr * nb * (bl + 8).
/// Parameters as kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32pscalef32_f16_neon.
size_t kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32pscalef32_f16_neon(
    size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr);

/// Quantises and packs m rows. Per row and block b of bl values: amax = max |x|,
/// scale = amax == 0 ? 0 : 127 / amax, recip = scale ? 1 / scale : 0, q = round(x * scale) (ties away
/// from zero; x widened to f32 first). Block b of a block of mr rows sits at b * mr * (bl + 8): the int8 data (for each group g of
/// kbl = kr / sr values and lane r, kbl values at g * mr * kbl + r * kbl), then mr f32
/// f32(sum q) * recip, then mr f32 recip.
/// @param[in]  m           Rows to pack (returns at once when 0).
/// @param[in]  k           Depth; must be even and a multiple of kr and of bl.
/// @param[in]  bl          Block length; must be a non-zero multiple of 32 and of kr.
/// @param[in]  mr          Rows per packed block; must be non-zero.
/// @param[in]  kr          K values per kernel step; kr / sr must be 4 or 8.
/// @param[in]  sr          Split of kr; must divide kr.
/// @param[in]  m_idx_start Index of the first row; it goes to lane m_idx_start % mr of lhs_packed's
///                         first block.
/// @param[in]  lhs         The f16 LHS, as raw bits (row m_idx_start + r at lhs + (m_idx_start + r) * lhs_stride).
/// @param[in]  lhs_stride  Row stride in bytes.
/// @param[out] lhs_packed  The packed block that holds row m_idx_start.
void kai_run_lhs_quant_pack_qsi8d32pscalef32_f16_neon(
    size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs,
    size_t lhs_stride, void* lhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_LHS_QUANT_PACK_QSI8D32PSCALEF32_F16_NEON_H
