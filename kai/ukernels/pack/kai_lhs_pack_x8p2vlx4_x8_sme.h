//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_lhs_pack_x8p2vlx4_x8_sme: packs 8-bit LHS rows (int8 or uint8, copied as bytes) into the x8p2vlx4 layout
/// the static int8 SME/SME2 MOPA kernels read (docs/formats.md, "x8p2vlx4 LHS"; docs/matmul_int8_static.md):
/// blocks of mr = 2 * SVL / 32 rows; inside a block, for each group of 4 K values, the 4 bytes of every row of the
/// block in turn. K is padded to a multiple of 4 and the rows past m to mr with zero bytes.
///
/// Vector length: mr depends on the streaming vector length of the calling thread (read with RDSVL on each call);
/// a packed buffer is valid only at the SVL it was packed at. The packer does not enter streaming mode and does not
/// touch ZA; it needs FEAT_SME only for RDSVL.

#ifndef KAI_LHS_PACK_X8P2VLX4_X8_SME_H
#define KAI_LHS_PACK_X8P2VLX4_X8_SME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the m step, mr.
/// @param[in] mr Must be 2 * SVL / 32 (the kernel's get_mr()).
size_t kai_get_m_step_lhs_pack_x8p2vlx4_x8_sme(size_t mr);

/// Returns the byte offset of LHS row m_idx: m_idx * lhs_stride_row.
/// @param[in] m_idx          Row index; must be a multiple of mr.
/// @param[in] lhs_stride_row Bytes between two LHS rows.
size_t kai_get_lhs_offset_lhs_pack_x8p2vlx4_x8_sme(size_t m_idx, size_t lhs_stride_row);

/// Returns the byte offset of row m_idx in the packed LHS: m_idx * roundup(k, 4).
/// @param[in] m_idx Row index; must be a multiple of mr.
/// @param[in] k     Depth.
/// @param[in] mr    Must be 2 * SVL / 32.
/// @param[in] kr    Must be 4.
/// @param[in] sr    Must be 1.
size_t kai_get_lhs_packed_offset_lhs_pack_x8p2vlx4_x8_sme(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed LHS: roundup(m, mr) * roundup(k, 4).
/// @param[in] m  Rows.
/// @param[in] k  Depth.
/// @param[in] mr Must be 2 * SVL / 32.
/// @param[in] kr Must be 4.
/// @param[in] sr Must be 1.
size_t kai_get_lhs_packed_size_lhs_pack_x8p2vlx4_x8_sme(size_t m, size_t k, size_t mr, size_t kr, size_t sr);

/// Packs m rows of k bytes. Writes exactly kai_get_lhs_packed_size_lhs_pack_x8p2vlx4_x8_sme(m, k, ...) bytes.
/// @param[in]  m              Rows (0 writes nothing).
/// @param[in]  k              Depth.
/// @param[in]  mr             Must be 2 * SVL / 32.
/// @param[in]  kr             Must be 4.
/// @param[in]  sr             Must be 1.
/// @param[in]  m_idx_start    Must be 0 (offset lhs and lhs_packed with the getters instead).
/// @param[in]  lhs            The LHS, m rows of k bytes; not NULL when m > 0.
/// @param[in]  lhs_stride_row Bytes between two LHS rows; at least k when m > 1.
/// @param[out] lhs_packed     The packed LHS; not NULL when m > 0.
void kai_run_lhs_pack_x8p2vlx4_x8_sme(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride_row,
    void* lhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_LHS_PACK_X8P2VLX4_X8_SME_H
