//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// LHS packer of the f16-activation integer kernels (matmul_clamp_f16_qai8dxp_qsi4cxp and
/// matmul_clamp_f16_qai8dxp_qsi8cxp): quantises each f16 row to asymmetric int8 with one (scale,
/// zero point) per row and interleaves mr rows in blocks of kr/sr bytes, in the layout of
/// kai_lhs_quant_pack_qai8dxp_f32 (docs/formats.md, "qai8dxp LHS"). Needs FEAT_FP16. The quantised bytes follow
/// KleidiAI's f16 packer, whose data rounding depends on the position and on the path a row takes
/// (docs/formats.md, "qai8dxp LHS from bf16 and f16"; docs/matmul_int4_channelwise.md, "f16 activations and outputs").

#ifndef KAI_LHS_QUANT_PACK_QAI8DXP_F16_NEON_H
#define KAI_LHS_QUANT_PACK_QAI8DXP_F16_NEON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the row granularity at which packing may be started and split: mr.
///
/// @param[in] mr Number of rows interleaved in one packed block.
///
/// @return mr.
size_t kai_get_m_step_lhs_quant_pack_qai8dxp_f16_neon(size_t mr);

/// Returns the byte offset of row m_idx in the unpacked f16 LHS.
///
/// @param[in] m_idx      Row index.
/// @param[in] lhs_stride Row stride of the LHS in bytes.
///
/// @return m_idx * lhs_stride.
size_t kai_get_lhs_offset_lhs_quant_pack_qai8dxp_f16_neon(size_t m_idx, size_t lhs_stride);

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
size_t kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f16_neon(
    size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed LHS: ceil(m / mr) * mr * (Kp + 8), Kp = roundup(k, 32).
///
/// @param[in] m  Number of rows (M).
/// @param[in] k  Number of columns (K); must be at least 1.
/// @param[in] mr Rows per packed block; must be at least 1.
/// @param[in] kr K elements per inner loop; must be a multiple of sr.
/// @param[in] sr Number of kr splits; must be at least 1.
///
/// @return The packed size in bytes.
size_t kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f16_neon(size_t m, size_t k, size_t mr, size_t kr, size_t sr);

/// Quantises m rows of an f16 matrix to asymmetric int8 (per row) and packs them, byte for byte as
/// KleidiAI v1.30.0's kai_run_lhs_quant_pack_qai8dxp_f16_neon.
///
/// Each value is widened to f32 exactly; the row's range, multiplier, zero point, stored offset
/// and scale follow docs/formats.md, "qai8dxp LHS" (f32 arithmetic, zero point rounded half to even). The data
/// rounding of x * multiplier depends on where the value sits (docs/formats.md, "qai8dxp LHS from bf16 and f16"):
/// - rows packed four at a time (mr == 4: every complete group of 4 rows, i.e. all rows but the
///   last m % 4): truncation toward zero for k < 8 * floor(k_total / 8), half away from zero
///   after that;
/// - the other rows (mr != 4, or the last m % 4 rows): half to even for k < 8 * (floor(K / 8) - 1)
///   (kr / sr = 8) or k < 4 * (floor(K / 4) - 2) (kr / sr = 4), half away from zero after that.
/// So the same row can pack to different bytes depending on m and mr. The K padding repeats the
/// last real value, rounded half away from zero.
///
/// Special inputs, as KleidiAI: a row that holds a NaN is quantised with multiplier 1 and zero
/// point 127 (FMIN/FMAX propagate the NaN, and the range is then [0, 0]); a row with an infinity
/// and no NaN gets multiplier 0, scale 0 and data -128 (127 when its minimum is -inf and its maximum
/// finite), so its outputs are the bias.
///
/// Row i of the input goes to lane (i + m_idx_start) % mr; the output pointer moves to the next
/// block after lane mr - 1. Lanes of rows past m in the last block are not written.
///
/// @param[in]  m           Number of rows to pack. Returns at once when 0.
/// @param[in]  k           Number of columns (K); must be at least 1.
/// @param[in]  mr          Rows per packed block; must be at least 1.
/// @param[in]  kr          K elements per inner loop; kr / sr must be 4 or 8.
/// @param[in]  sr          Number of kr splits; kr must be a multiple of sr.
/// @param[in]  m_idx_start Lane of the first row is m_idx_start % mr (normally 0); with mr == 4 and
///                         m >= 4 it must be a multiple of 4 (KleidiAI's four-row path moves to the
///                         next block after every 4 rows).
/// @param[in]  lhs         The f16 LHS (IEEE binary16), row i at lhs + i * lhs_stride bytes; must not
///                         be NULL.
/// @param[in]  lhs_stride  Row stride in bytes; must be even and at least k * 2.
/// @param[out] lhs_packed  The block holding row m_idx_start; must not be NULL.
void kai_run_lhs_quant_pack_qai8dxp_f16_neon(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride,
    void* lhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_LHS_QUANT_PACK_QAI8DXP_F16_NEON_H
