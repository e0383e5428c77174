//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_lhs_imatmul_pack_x8p2vlx4_x8p_sme: packs the 8-bit LHS of an indirect matmul (convolution as GEMM), given as a
/// table of pointers to K chunks, into the x8p2vlx4 layout of the static int8 SME kernels, chunk by chunk
/// (docs/formats.md, "x8p2vlx4 LHS", "Indirect x8p2vlx4 LHS"; docs/matmul_int8_static.md). Bytes are copied.
///
/// Pointer table: blocks of mr = 2 * SVL / 32 rows; for row i and chunk c the entry is
/// lhs_ptrs[(i / mr * k_chunk_count + c) * mr + i % mr] (KleidiAI's order), so the table spans
/// roundup(m, mr) * k_chunk_count entries of which those of rows past m are never read. Each entry points
/// lhs_ptr_offset bytes before the chunk's k_chunk_length bytes, or equals pad_ptr, whose chunk is read as is.
///
/// Vector length: mr depends on the streaming vector length of the calling thread (read with RDSVL on each call);
/// a packed buffer is valid only at the SVL it was packed at. The packer does not enter streaming mode.

#ifndef KAI_LHS_IMATMUL_PACK_X8P2VLX4_X8P_SME_H
#define KAI_LHS_IMATMUL_PACK_X8P2VLX4_X8P_SME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the m step, mr = 2 * SVL / 32.
size_t kai_get_m_step_lhs_imatmul_pack_x8p2vlx4_x8p_sme(void);

/// Returns the byte offset of row m_idx in the packed LHS: m_idx * k_chunk_count * roundup(k_chunk_length, 4).
/// @param[in] m_idx          Row index; must be a multiple of the m step.
/// @param[in] k_chunk_count  Chunks per row.
/// @param[in] k_chunk_length Bytes per chunk.
size_t kai_get_lhs_packed_offset_lhs_imatmul_pack_x8p2vlx4_x8p_sme(
    size_t m_idx, size_t k_chunk_count, size_t k_chunk_length);

/// Returns the size in bytes of the packed LHS: roundup(m, mr) * k_chunk_count * roundup(k_chunk_length, 4).
/// @param[in] m              Rows.
/// @param[in] k_chunk_count  Chunks per row.
/// @param[in] k_chunk_length Bytes per chunk.
size_t kai_get_lhs_packed_size_lhs_imatmul_pack_x8p2vlx4_x8p_sme(size_t m, size_t k_chunk_count, size_t k_chunk_length);

/// Packs m rows. Writes exactly kai_get_lhs_packed_size_lhs_imatmul_pack_x8p2vlx4_x8p_sme(m, ...) bytes.
/// @param[in]  m              Rows (0 writes nothing).
/// @param[in]  k_chunk_count  Chunks per row.
/// @param[in]  k_chunk_length Bytes per chunk.
/// @param[in]  lhs_ptrs       The pointer table (layout above); not NULL.
/// @param[in]  lhs_ptr_offset Added to every entry that is not pad_ptr.
/// @param[in]  pad_ptr        The padding chunk's address as it appears in the table (may be NULL when unused).
/// @param[out] lhs_packed     The packed LHS; not NULL.
void kai_run_lhs_imatmul_pack_x8p2vlx4_x8p_sme(
    size_t m, size_t k_chunk_count, size_t k_chunk_length, const void* const* lhs_ptrs, size_t lhs_ptr_offset,
    const void* pad_ptr, void* lhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_LHS_IMATMUL_PACK_X8P2VLX4_X8P_SME_H
