//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_lhs_quant_pack_qsi8d256p_f32_neon: quantizes f32 LHS rows to int8 per block of 256 values
/// (symmetric, one f32 scale per block, as GGUF's Q8_K) with the int16 sum of each 32-value
/// sub-block, and packs them for the GGUF K-quant kernels (kai_matmul_clamp_f32_qsi8d256p*_q4kp* and
/// *_q6kp*). Layout in docs/matmul_gguf_kquants.md. AArch64 NEON.
///
/// Memory: reads, per row r < m, floats [0, k) at lhs + r * lhs_stride; writes lane
/// (m_idx_start + r) % mr of the blocks of mr rows at lhs_packed (the other lanes are not written).

#ifndef KAI_LHS_QUANT_PACK_QSI8D256P_F32_NEON_H
#define KAI_LHS_QUANT_PACK_QSI8D256P_F32_NEON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the row granularity of the packed LHS: mr.
/// @param[in] mr Rows per packed block.
size_t kai_get_m_step_lhs_quant_pack_qsi8d256p_f32_neon(size_t mr);

/// Returns the byte offset of row m_idx in the unpacked LHS: m_idx * lhs_stride.
/// @param[in] m_idx      Row index.
/// @param[in] lhs_stride Row stride in bytes.
size_t kai_get_lhs_offset_lhs_quant_pack_qsi8d256p_f32_neon(size_t m_idx, size_t lhs_stride);

/// Returns the byte offset of the packed block holding row m_idx: (m_idx / mr) * mr * (k / 256) * 276.
/// @param[in] m_idx Row index; must be a multiple of mr.
/// @param[in] k     Depth; must be a non-zero multiple of 256.
/// @param[in] mr    Rows per packed block; must be 1, 2, 4 or 8.
/// @param[in] kr    K values per kernel step; must be 4 or 8.
/// @param[in] sr    Split of kr; must be 1.
size_t kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d256p_f32_neon(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed LHS: ceil(m / mr) * mr * (k / 256) * 276.
/// Parameters as kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d256p_f32_neon.
size_t kai_get_lhs_packed_size_lhs_quant_pack_qsi8d256p_f32_neon(size_t m, size_t k, size_t mr, size_t kr, size_t sr);

/// Quantizes and packs m rows. Per row and block of 256 values: amax = max |x|,
/// scale = amax / 127 (0 when amax is 0), q = round(x * (127 / amax)) (ties to even; 0 when amax is 0),
/// s_j = sum of q over values 32j..32j+31. Block b of a block of mr rows sits at b * mr * 276: mr f32
/// scale (lane r at 4r), then 8 x mr int16 s_j (at 4mr + 2(j mr + r)), then the int8 q: for each group g
/// of kr values and lane r, kr values at 20mr + (g mr + r) kr.
/// @param[in]  m           Rows to pack (returns at once when 0).
/// @param[in]  k           Depth; must be a non-zero multiple of 256.
/// @param[in]  mr          Rows per packed block; must be 1, 2, 4 or 8.
/// @param[in]  kr          K values per kernel step; must be 4 or 8.
/// @param[in]  sr          Split of kr; must be 1.
/// @param[in]  m_idx_start Index of the first row; it goes to lane m_idx_start % mr of lhs_packed's
///                         first block (lhs_packed points at the block holding that row).
/// @param[in]  lhs         f32 rows; must not be NULL when m > 0. Finite values.
/// @param[in]  lhs_stride  Row stride in bytes; at least k * sizeof(float) when m > 1.
/// @param[out] lhs_packed  Packed output; must not be NULL when m > 0.
void kai_run_lhs_quant_pack_qsi8d256p_f32_neon(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const float* lhs, size_t lhs_stride,
    void* lhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_LHS_QUANT_PACK_QSI8D256P_F32_NEON_H
