//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// LHS packer of the GGUF Q4_0 family (docs/matmul_q4_0.md): quantises f32 rows per block of bl
/// values to symmetric int8 with one f16 scale per block (Q8_0 numerics, data rounded half away
/// from zero) and interleaves mr rows in groups of kr/sr values. Portable C, with an AArch64 NEON
/// path that writes identical bytes.

#ifndef KAI_LHS_QUANT_PACK_QSI8D32P_F32_H
#define KAI_LHS_QUANT_PACK_QSI8D32P_F32_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the row granularity at which packing may be split: mr.
/// @param[in] mr Rows interleaved per packed block (the kernel's get_mr()).
size_t kai_get_m_step_lhs_quant_pack_qsi8d32p_f32(size_t mr);

/// Returns the byte offset of row m_idx in the unpacked f32 LHS: m_idx * lhs_stride.
/// @param[in] m_idx      Row index.
/// @param[in] lhs_stride Row stride of the LHS in bytes.
size_t kai_get_lhs_offset_lhs_quant_pack_qsi8d32p_f32(size_t m_idx, size_t lhs_stride);

/// Returns the byte offset of the packed block holding row m_idx: (m_idx / mr) * mr * (k / bl) * (bl + 2).
/// A row index that is not a multiple of mr rounds down to its block.
/// @param[in] m_idx Row index.
/// @param[in] k     Depth; must be a multiple of bl.
/// @param[in] bl    Block length; must be a non-zero multiple of 32 (checked in every build, as k % bl == 0).
/// @param[in] mr    Rows per packed block; must be non-zero.
/// @param[in] kr    K values per inner step of the kernel; must be a non-zero multiple of sr.
/// @param[in] sr    Split of kr; kr / sr must divide bl.
size_t kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32(
    size_t m_idx, size_t k, size_t bl, size_t mr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed LHS: ceil(m / mr) * mr * (k / bl) * (bl + 2).
/// Preconditions as kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32.
/// @param[in] m  Number of rows.
/// @param[in] k  Depth.
/// @param[in] bl Block length.
/// @param[in] mr Rows per packed block.
/// @param[in] kr K values per inner step.
/// @param[in] sr Split of kr.
size_t kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32(size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr);

/// Quantises and packs m rows. Row r is read at lhs + (m_idx_start + r) * lhs_stride bytes and
/// written to lane (m_idx_start + r) % mr of the packed blocks starting at lhs_packed. Lanes of
/// rows beyond m in the last block are not written. Returns at once when m == 0.
/// Per block: amax = max|x|, scale = amax / 127, stored as f16 (ties to even); q = round(x * (1 / scale)),
/// ties away from zero (0 when amax == 0).
/// Degenerate blocks (byte for byte as KleidiAI): a block of zeros (or of values whose amax / 127
/// underflows to 0) has scale 0 and q = 0; a tiny block (0 < amax / 127 < 2^-128, amax below about
/// 3.7e-37) has an infinite reciprocal and packs scale +0 with q = -1 for x > 0 and 0 otherwise (it
/// dequantises to 0); a block with amax >= about 8.3e6 quantises exactly but its f16 scale is +inf
/// (the format's limit, kept as KleidiAI has it). NaN and infinities are not supported.
/// @param[in]  m           Number of rows to pack.
/// @param[in]  k           Depth; must be a multiple of bl.
/// @param[in]  bl          Block length; must be a non-zero multiple of 32 (checked in every build, as k % bl == 0).
/// @param[in]  mr          Rows per packed block; must be non-zero.
/// @param[in]  kr          K values per kernel step; must be a non-zero multiple of sr.
/// @param[in]  sr          Split of kr; kr / sr must divide bl.
/// @param[in]  m_idx_start Index of the first row (see above).
/// @param[in]  lhs         f32 LHS; must not be NULL when m > 0.
/// @param[in]  lhs_stride  Row stride of the LHS in bytes; at least k * sizeof(float) when m > 1.
/// @param[out] lhs_packed  Packed LHS; must not be NULL when m > 0.
void kai_run_lhs_quant_pack_qsi8d32p_f32(
    size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const float* lhs,
    size_t lhs_stride, void* lhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_LHS_QUANT_PACK_QSI8D32P_F32_H
