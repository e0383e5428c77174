//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// LHS packer of the bf16-activation int4 kernels (matmul_clamp_bf16_qai8dxp_qsi4cxp and
/// _qsi4c32p): quantises each bf16 row to asymmetric int8 with one (scale, zero point) per row
/// and interleaves mr rows in blocks of kr/sr = 8 bytes. The layout is the one of
/// kai_lhs_quant_pack_qai8dxp_f32 (docs/formats.md, "qai8dxp LHS"), so any qai8dxp kernel with the same mr and kr/sr
/// reads it. Needs AArch64 NEON only. Layout and maths: docs/matmul_int4_channelwise.md
/// ("bf16 activations and outputs") and docs/formats.md, "qai8dxp LHS from bf16 and f16".

#ifndef KAI_LHS_QUANT_PACK_QAI8DXP_BF16_NEON_H
#define KAI_LHS_QUANT_PACK_QAI8DXP_BF16_NEON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the row granularity at which packing may be started and split: mr.
///
/// @param[in] mr Number of rows interleaved in one packed block.
///
/// @return mr.
size_t kai_get_m_step_lhs_quant_pack_qai8dxp_bf16_neon(size_t mr);

/// Returns the byte offset of row m_idx in the unpacked bf16 LHS.
///
/// @param[in] m_idx      Row index.
/// @param[in] lhs_stride Row stride of the LHS in bytes.
///
/// @return m_idx * lhs_stride.
size_t kai_get_lhs_offset_lhs_quant_pack_qai8dxp_bf16_neon(size_t m_idx, size_t lhs_stride);

/// Returns the byte offset of the packed block holding row m_idx: floor(m_idx / mr) * mr * (Kp + 8),
/// with Kp = roundup(k, 32). A row index that is not a multiple of mr rounds down to its block.
///
/// @param[in] m_idx Row index.
/// @param[in] k     Number of columns (K) of the LHS; must be at least 1.
/// @param[in] mr    Rows per packed block; must be at least 1.
/// @param[in] kr    K elements per inner loop of the matmul kernel; not used (run needs kr / sr = 8).
/// @param[in] sr    Number of kr splits; not used.
///
/// @return The byte offset.
size_t kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_bf16_neon(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed LHS: ceil(m / mr) * mr * (Kp + 8), Kp = roundup(k, 32).
///
/// @param[in] m  Number of rows (M).
/// @param[in] k  Number of columns (K); must be at least 1.
/// @param[in] mr Rows per packed block; must be at least 1.
/// @param[in] kr K elements per inner loop; not used (run needs kr / sr = 8).
/// @param[in] sr Number of kr splits; not used.
///
/// @return The packed size in bytes.
size_t kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_bf16_neon(size_t m, size_t k, size_t mr, size_t kr, size_t sr);

/// Quantises m rows of a bf16 matrix to asymmetric int8 (per row) and packs them.
///
/// Each bf16 value is widened to f32 exactly; the row's range, scale, zero point and stored
/// offset/scale are those of kai_lhs_quant_pack_qai8dxp_f32 (docs/formats.md, "qai8dxp LHS"). The data rounding is
/// KleidiAI's (docs/formats.md, "qai8dxp LHS from bf16 and f16"): K positions in full groups of 8 (k < 8 * floor(K / 8)) round
/// x * scale half to even, the last partial group and the K padding k..Kp-1 (which repeats the
/// last real element) round half away from zero. So the padding bytes can differ from q[K-1]
/// by one when x[K-1] * scale is an exact tie.
///
/// Row i of the input goes to lane (i + m_idx_start) % mr; the output pointer moves to the next
/// block after lane mr - 1. Lanes of rows past m in the last block are not written. KleidiAI's
/// own four-row path (mr = 4) gives the same bytes when m_idx_start is a multiple of 4 (it is
/// 0 in practice); for other m_idx_start it writes lanes this packer does not.
///
/// Special rows (a NaN or an infinity, bf16 patterns with exponent 0xFF; a range that overflows f32
/// or is below 255 / FLT_MAX) are packed byte for byte as KleidiAI packs them, with the rules of
/// kai_lhs_quant_pack_qai8dxp_f32 (docs/reliability.md, "Special inputs"): -inf with a finite
/// maximum gives data 127, offset -127, scale 0; +inf gives -128, 128, 0; a NaN a finite
/// quantisation.
///
/// @param[in]  m           Number of rows to pack. Returns at once when 0.
/// @param[in]  k           Number of columns (K); must be at least 1.
/// @param[in]  mr          Rows per packed block; must be at least 1.
/// @param[in]  kr          K elements per inner loop; must be a multiple of sr with kr / sr = 8.
/// @param[in]  sr          Number of kr splits; must be at least 1.
/// @param[in]  m_idx_start Lane of the first row is m_idx_start % mr (normally 0).
/// @param[in]  lhs         The bf16 LHS (uint16_t bit patterns), row i at lhs + i * lhs_stride
///                         bytes; must not be NULL.
/// @param[in]  lhs_stride  Row stride in bytes; must be at least k * 2.
/// @param[out] lhs_packed  The block holding row m_idx_start; must not be NULL.
void kai_run_lhs_quant_pack_qai8dxp_bf16_neon(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride,
    void* lhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_LHS_QUANT_PACK_QAI8DXP_BF16_NEON_H
