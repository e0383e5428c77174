//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// LHS packer shared by the int4 families (qsi4cxp, qsi4c32p): quantises each f32 row to
/// asymmetric int8 with one (scale, zero point) per row and interleaves mr rows in blocks of
/// kr/sr bytes. Layout and maths: docs/matmul_int4_channelwise.md and docs/formats.md, "qai8dxp LHS".

#ifndef KAI_LHS_QUANT_PACK_QAI8DXP_F32_H
#define KAI_LHS_QUANT_PACK_QAI8DXP_F32_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the row granularity at which packing may be started and split: mr.
///
/// @param[in] mr Number of rows interleaved in one packed block.
///
/// @return mr.
size_t kai_get_m_step_lhs_quant_pack_qai8dxp_f32(size_t mr);

/// Returns the byte offset of row m_idx in the unpacked f32 LHS.
///
/// @param[in] m_idx      Row index.
/// @param[in] lhs_stride Row stride of the LHS in bytes.
///
/// @return m_idx * lhs_stride.
size_t kai_get_lhs_offset_lhs_quant_pack_qai8dxp_f32(size_t m_idx, size_t lhs_stride);

/// Returns the byte offset of the packed block holding row m_idx: floor(m_idx / mr) * mr * (Kp + 8),
/// with Kp = roundup(k, 32). A row index that is not a multiple of mr rounds down to its block.
///
/// @param[in] m_idx Row index.
/// @param[in] k     Number of columns (K) of the LHS; must be at least 1.
/// @param[in] mr    Rows per packed block; must be at least 1.
/// @param[in] kr    K elements per inner loop of the matmul kernel; must be a multiple of sr.
/// @param[in] sr    Number of kr splits; must be at least 1.
///
/// @return The byte offset.
size_t kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed LHS: ceil(m / mr) * mr * (Kp + 8), Kp = roundup(k, 32).
///
/// @param[in] m  Number of rows (M).
/// @param[in] k  Number of columns (K); must be at least 1.
/// @param[in] mr Rows per packed block; must be at least 1.
/// @param[in] kr K elements per inner loop; must be a multiple of sr.
/// @param[in] sr Number of kr splits; must be at least 1.
///
/// @return The packed size in bytes.
size_t kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(size_t m, size_t k, size_t mr, size_t kr, size_t sr);

/// Quantises m rows of an f32 matrix to asymmetric int8 (per row) and packs them.
///
/// Row i of the input goes to lane (i + m_idx_start) % mr; the output pointer moves to the next
/// block after lane mr - 1. Lanes of rows past m in the last block are not written. K positions
/// k..Kp-1 repeat the quantised value of the last real element.
///
/// Special rows are packed byte for byte as KleidiAI v1.30.0's AArch64 build packs them, in every
/// build (docs/reliability.md, "Special inputs"; IEEE f32 arithmetic of docs/formats.md, "qai8dxp LHS"):
/// - a row with -inf and a finite maximum: data 127, offset -127, scale 0; with +inf (or both
///   infinities): data -128, offset 128, scale 0 (255 / inf = 0). Its outputs are the bias;
/// - a finite row whose range overflows f32 (e.g. +-3.39e38): data 127, offset -127, scale 0;
/// - a row whose range is below 255 / FLT_MAX (every |x| below about 7.5e-37): data 127 for
///   x != 0 and -128 for x = +-0, offset 128, scale 0;
/// - a row with a NaN: a finite quantisation. KleidiAI's range skips a quiet NaN among the last
///   K mod 8 values (fminf / fmaxf) and otherwise becomes [0, 0] (multiplier 1, ZP 127), where
///   values beyond int16 saturate and wrap as its NEON code does (kai_pack_row_special in the .c).
///
/// @param[in]  m           Number of rows to pack. Returns at once when 0.
/// @param[in]  k           Number of columns (K); must be at least 1.
/// @param[in]  mr          Rows per packed block; must be at least 1.
/// @param[in]  kr          K elements per inner loop; must be a non-zero multiple of sr, and kr / sr
///                         must divide 32.
/// @param[in]  sr          Number of kr splits; must be at least 1.
/// @param[in]  m_idx_start Lane of the first row is m_idx_start % mr (normally 0).
/// @param[in]  lhs         The f32 LHS, row i at lhs + i * lhs_stride bytes; must not be NULL.
/// @param[in]  lhs_stride  Row stride in bytes; must be at least k * sizeof(float).
/// @param[out] lhs_packed  The block holding row m_idx_start; must not be NULL.
void kai_run_lhs_quant_pack_qai8dxp_f32(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const float* lhs, size_t lhs_stride,
    void* lhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_LHS_QUANT_PACK_QAI8DXP_F32_H
