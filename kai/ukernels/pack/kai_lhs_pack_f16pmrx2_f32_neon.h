//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_lhs_pack_f16pmrx2_f32_neon: converts an f32 LHS to f16 (round to nearest even, FCVT) and interleaves it in
/// blocks of mr rows by pairs of k values: the layout of kai_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa
/// (mr = its get_mr(), VL = SVL / 32; kr = 4, sr = 2). See docs/matmul_q4_0.md. AArch64 NEON (no SME).
///
/// Layout: block b (rows b * mr .. b * mr + mr - 1) at b * mr * k * 2 bytes; inside it, element (r, k) is the f16
/// at halfword ((k / 2) * mr + r % mr) * 2 + k % 2: for each pair of k values, the mr rows' two values.
/// kr and bl do not change the layout. Memory: reads, per row r < m, the k floats at lhs + r * lhs_stride bytes;
/// writes the lanes of rows 0 .. m - 1 (the lanes of rows past m in the last block are not written).

#ifndef KAI_LHS_PACK_F16PMRX2_F32_NEON_H
#define KAI_LHS_PACK_F16PMRX2_F32_NEON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the row granularity at which packing may be split: mr.
/// @param[in] mr Rows interleaved per packed block.
size_t kai_get_m_step_lhs_pack_f16pmrx2_f32_neon(size_t mr);

/// Returns the byte offset of row m_idx in the unpacked f32 LHS: m_idx * lhs_stride.
/// @param[in] m_idx      Row index.
/// @param[in] lhs_stride Row stride of the LHS in bytes.
size_t kai_get_lhs_offset_lhs_pack_f16pmrx2_f32_neon(size_t m_idx, size_t lhs_stride);

/// Returns the byte offset of the packed block holding row m_idx: (m_idx / mr) * mr * k * 2.
/// @param[in] m_idx Row index; must be a multiple of mr.
/// @param[in] k     Depth; must be even, a multiple of kr and of bl.
/// @param[in] bl    Block length of the weights; must be non-zero.
/// @param[in] mr    Rows per block; must be non-zero.
/// @param[in] kr    Must be non-zero (4 for the SME2 kernel).
/// @param[in] sr    Ignored here (2 for the SME2 kernel).
size_t kai_get_lhs_packed_offset_lhs_pack_f16pmrx2_f32_neon(size_t m_idx, size_t k, size_t bl, size_t mr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed LHS: ceil(m / mr) * mr * k * 2.
/// Parameters as kai_get_lhs_packed_offset_lhs_pack_f16pmrx2_f32_neon (m: rows).
size_t kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon(size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr);

/// Converts and packs m rows. Row r is read at lhs + r * lhs_stride bytes and written to lane r % mr of block r / mr;
/// m_idx_start is ignored, as by KleidiAI's packer (a row chunk starting at a multiple m0 of mr is packed with lhs
/// at row m0 and lhs_packed + get_lhs_packed_offset(m0, ...)). KleidiAI's packer reads row r at lhs + r * k * 4
/// whatever lhs_stride is; kai honours lhs_stride, which gives the same bytes for dense rows. Returns at once when
/// m == 0.
/// @param[in]  m           Rows to pack.
/// @param[in]  k           Depth; must be even.
/// @param[in]  bl          Ignored by the layout.
/// @param[in]  mr          Rows per block; must be non-zero.
/// @param[in]  kr          Ignored by the layout.
/// @param[in]  sr          Must be 2.
/// @param[in]  m_idx_start Ignored.
/// @param[in]  lhs         f32 LHS; must not be NULL when m > 0.
/// @param[in]  lhs_stride  Row stride of the LHS in bytes; at least k * sizeof(float) when m > 1.
/// @param[out] lhs_packed  Packed LHS, get_lhs_packed_size bytes; must not be NULL when m > 0.
void kai_run_lhs_pack_f16pmrx2_f32_neon(
    size_t m, size_t k, size_t bl, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs,
    size_t lhs_stride, void* lhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_LHS_PACK_F16PMRX2_F32_NEON_H
