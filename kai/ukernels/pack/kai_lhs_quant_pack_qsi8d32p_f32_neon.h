//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_lhs_quant_pack_qsi8d32p_f32_neon: quantises an f32 LHS to int8 with one f16 scale per block
/// of bl values (the maths of kai_lhs_quant_pack_qsi8d32p_f32: ties away from zero) into the layout
/// that KleidiAI's SME Q4_0 kernels (..._qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa, ..._sme_mopa,
/// ..._qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot, ..._sme_dot) read: per block of mr rows, the int8
/// data of the whole rows in groups of 4 values, then all the scales. No NEON kernel reads this
/// buffer. See docs/matmul_q4_0.md. AArch64 NEON.
///
/// Memory: reads, per row r < m, the k floats at lhs + r * lhs_stride bytes; writes the data and
/// scales of the lanes of rows 0 .. m - 1 inside the packed size (the lanes of rows past m in the last
/// block are not written).

#ifndef KAI_LHS_QUANT_PACK_QSI8D32P_F32_NEON_H
#define KAI_LHS_QUANT_PACK_QSI8D32P_F32_NEON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the row granularity at which packing may be split: mr.
/// @param[in] mr Rows interleaved per packed block.
size_t kai_get_m_step_lhs_quant_pack_qsi8d32p_f32_neon(size_t mr);

/// Returns the byte offset of row m_idx in the unpacked f32 LHS: m_idx * lhs_stride.
/// @param[in] m_idx      Row index.
/// @param[in] lhs_stride Row stride of the LHS in bytes.
size_t kai_get_lhs_offset_lhs_quant_pack_qsi8d32p_f32_neon(size_t m_idx, size_t lhs_stride);

/// Returns the byte offset of the packed block holding row m_idx: (m_idx / mr) * mr * (k / bl) * (bl + 2).
/// @param[in] m_idx Row index; must be a multiple of mr.
/// @param[in] k     Depth; must be a multiple of bl and of kr.
/// @param[in] bl    Block length; must be a non-zero multiple of 32.
/// @param[in] mr    Rows per packed block; must be non-zero.
/// @param[in] kr    K values per kernel step; must be non-zero (the run needs 4).
/// @param[in] sr    Split of kr; does not enter the layout.
size_t kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32_neon(
    size_t m_idx, size_t k, size_t bl, size_t mr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed LHS: ceil(m / mr) * mr * (k / bl) * (bl + 2).
/// Preconditions on k, bl, mr, kr and sr as kai_get_lhs_packed_offset_lhs_quant_pack_qsi8d32p_f32_neon.
/// @param[in] m  Number of rows.
/// @param[in] k  Depth.
/// @param[in] bl Block length.
/// @param[in] mr Rows per packed block.
/// @param[in] kr K values per kernel step.
/// @param[in] sr Split of kr.
size_t kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon(size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr);

/// Quantises and packs m rows. Row r is read at lhs + r * lhs_stride bytes and written to lane r % mr
/// of packed block r / mr (block stride S = mr * (k / bl) * (bl + 2)); m_idx_start is ignored, as by
/// KleidiAI's packer of this name, so a row chunk starts at a multiple of mr with lhs at its first
/// row and lhs_packed at kai_get_lhs_packed_offset_...(m0, ...). Within a block: q[r][k] at byte
/// (k / 4) * mr * 4 + (r % mr) * 4 + k % 4, for all k of the row; then the f16 scale of (lane, block b)
/// at mr * k + (b * mr + lane) * 2. Per row and block: amax = max|x|, scale = amax / 127 stored as f16
/// (ties to even), q = round(x * (1 / scale)) with ties away from zero (0 when amax == 0).
/// KleidiAI's packer reads row r at lhs + r * k * sizeof(float) whatever lhs_stride is; kai honours
/// lhs_stride, which gives the same bytes for dense rows (lhs_stride = k * sizeof(float)).
/// Lanes of rows beyond m in the last block are not written. Returns after the checks when m == 0.
/// Degenerate blocks (byte for byte as KleidiAI): a block of zeros (or of values whose amax / 127
/// underflows to 0) has scale 0 and q = 0; a tiny block (0 < amax / 127 < 2^-128, amax below about
/// 3.7e-37) has an infinite reciprocal and packs scale +0 with q = -1 for x > 0 and 0 otherwise (it
/// dequantises to 0); a block with amax >= about 8.3e6 quantises exactly but its f16 scale is +inf
/// (the format's limit, kept as KleidiAI has it). NaN and infinities are not supported.
/// @param[in]  m           Number of rows to pack.
/// @param[in]  k           Depth; must be a multiple of bl.
/// @param[in]  bl          Block length; must be a non-zero multiple of 32 and a multiple of kr.
/// @param[in]  mr          Rows per packed block; must be non-zero.
/// @param[in]  kr          K values per kernel step; must be 4.
/// @param[in]  sr          Split of kr; ignored.
/// @param[in]  m_idx_start Ignored.
/// @param[in]  lhs         f32 LHS; must not be NULL when m > 0.
/// @param[in]  lhs_stride  Row stride of the LHS in bytes; at least k * sizeof(float) when m > 1.
/// @param[out] lhs_packed  Packed LHS; must not be NULL when m > 0.
void kai_run_lhs_quant_pack_qsi8d32p_f32_neon(
    size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const float* lhs,
    size_t lhs_stride, void* lhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_LHS_QUANT_PACK_QSI8D32P_F32_NEON_H
