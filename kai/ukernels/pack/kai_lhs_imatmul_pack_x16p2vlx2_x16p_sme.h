//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_lhs_imatmul_pack_x16p2vlx2_x16p_sme: packs the LHS of an indirect GEMM with 16-bit elements (f16) for
/// kai_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa and
/// kai_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa. Each output row is k_chunk_count chunks of
/// k_chunk_length values, every chunk read through its own pointer of a table (docs/imatmul.md; layout:
/// docs/formats.md, "Indirect GEMM packed layouts").
///
/// The pointer table is in blocks of mr = m_step rows: the pointer of chunk c of row i = b * mr + y (block b, row
/// y of the block) is lhs_ptrs[b * mr * k_chunk_count + c * mr + y]. A pointer equal to pad_ptr is read as it is;
/// any other pointer p is read at (uintptr_t)p + lhs_ptr_offset (bytes). Packing rows from m_idx (a multiple of
/// m_step): pass
/// lhs_ptrs + m_idx * k_chunk_count and lhs_packed + get_lhs_packed_offset(m_idx, ...).
///
/// Vector length: mr = 2 * SVL / 32, read with RDSVL on every call. A buffer packed at one SVL must not be used
/// at another. Needs FEAT_SME: the call enters and leaves streaming mode and ZA itself (SMSTART / SMSTOP, after
/// committing a pending lazy ZA save of the caller), so it must not be called in streaming mode; ZA contents do
/// not survive it; it keeps d8-d15.

#ifndef KAI_LHS_IMATMUL_PACK_X16P2VLX2_X16P_SME_H
#define KAI_LHS_IMATMUL_PACK_X16P2VLX2_X16P_SME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the m step, mr = 2 * SVL / 32: the row origin of a packed range must be a multiple of it.
size_t kai_get_m_step_lhs_imatmul_pack_x16p2vlx2_x16p_sme(void);

/// Returns the byte offset of row m_idx in the packed LHS: m_idx * k_chunk_count * roundup(k_chunk_length, 2) * 2.
/// @param[in] m_idx          Row index; must be a multiple of the m step.
/// @param[in] k_chunk_count  Chunks per row.
/// @param[in] k_chunk_length Values per chunk.
size_t kai_get_lhs_packed_offset_lhs_imatmul_pack_x16p2vlx2_x16p_sme(
    size_t m_idx, size_t k_chunk_count, size_t k_chunk_length);

/// Returns the size in bytes of the packed LHS of m rows: roundup(m, mr) * k_chunk_count *
/// roundup(k_chunk_length, 2) * 2.
/// @param[in] m              Rows.
/// @param[in] k_chunk_count  Chunks per row.
/// @param[in] k_chunk_length Values per chunk.
size_t kai_get_lhs_packed_size_lhs_imatmul_pack_x16p2vlx2_x16p_sme(
    size_t m, size_t k_chunk_count, size_t k_chunk_length);

/// Packs m rows: for each block of mr rows and each chunk c, roundup(k_chunk_length, 2) / 2 pairs, a pair the mr
/// rows' values k and k + 1 of the chunk (row 0's two values first); the pad of an odd chunk and the rows of the
/// last block past m are 0. Writes exactly
/// get_lhs_packed_size(m, ...) bytes from lhs_packed and reads k_chunk_length * 2 bytes per chunk pointer.
/// m == 0 returns at once.
/// @param[in]  m              Rows to pack.
/// @param[in]  k_chunk_count  Chunks per row.
/// @param[in]  k_chunk_length Values (16-bit) per chunk.
/// @param[in]  lhs_ptrs       The pointer table (layout above); not NULL. An entry may be an offset (even 0) that
///                            lhs_ptr_offset turns into an address.
/// @param[in]  lhs_ptr_offset Bytes added to every pointer that is not pad_ptr.
/// @param[in]  pad_ptr        The padding chunk (k_chunk_length values), read without the offset; may be NULL
///                            when no pointer of the table equals it.
/// @param[out] lhs_packed     Packed LHS; not NULL.
void kai_run_lhs_imatmul_pack_x16p2vlx2_x16p_sme(
    size_t m, size_t k_chunk_count, size_t k_chunk_length, const void* const* lhs_ptrs, size_t lhs_ptr_offset,
    const void* pad_ptr, void* lhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_LHS_IMATMUL_PACK_X16P2VLX2_X16P_SME_H
