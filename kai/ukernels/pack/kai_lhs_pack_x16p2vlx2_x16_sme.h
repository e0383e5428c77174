//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_lhs_pack_x16p2vlx2_x16_sme: packs a 16-bit LHS (f16, or any 16-bit data: the values are copied) for the
/// f16 SME/SME2 GEMMs (kai_matmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa, ..._2vlx2vl_sme_mopa): blocks of
/// mr = 2 * SVL / 32 rows, pairs of k values interleaved by row. See docs/formats.md, "x16p2vlx2", and
/// docs/matmul_sme.md.
///
/// Vector length: mr is read with RDSVL on every call. A buffer packed at one SVL must not be used at another:
/// pack on the machine (and thread, after any prctl(PR_SME_SET_VL)) that runs the kernel, and never cache
/// packed data across SVLs. Needs FEAT_SME (RDSVL); does not enter streaming mode.

#ifndef KAI_LHS_PACK_X16P2VLX2_X16_SME_H
#define KAI_LHS_PACK_X16P2VLX2_X16_SME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the packer's m step, mr: the row origin of a packed range must be a multiple of it.
/// @param[in] mr Rows per packed block; must be 2 * SVL / 32 (the kernel's get_mr()).
size_t kai_get_m_step_lhs_pack_x16p2vlx2_x16_sme(size_t mr);

/// Returns the byte offset of row m_idx in the unpacked LHS: m_idx * lhs_stride_row.
/// @param[in] m_idx          Row index; must be a multiple of mr.
/// @param[in] lhs_stride_row Row stride of the unpacked LHS in bytes.
size_t kai_get_lhs_offset_lhs_pack_x16p2vlx2_x16_sme(size_t m_idx, size_t lhs_stride_row);

/// Returns the byte offset of row m_idx in the packed LHS: m_idx * roundup(k, 2) * 2.
/// @param[in] m_idx Row index; must be a multiple of mr.
/// @param[in] k     Depth.
/// @param[in] mr    Must be 2 * SVL / 32.
/// @param[in] kr    Must be 2.
/// @param[in] sr    Must be 1.
size_t kai_get_lhs_packed_offset_lhs_pack_x16p2vlx2_x16_sme(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed LHS: roundup(m, mr) * roundup(k, 2) * 2.
/// @param[in] m  Rows.
/// @param[in] k  Depth.
/// @param[in] mr Must be 2 * SVL / 32.
/// @param[in] kr Must be 2.
/// @param[in] sr Must be 1.
size_t kai_get_lhs_packed_size_lhs_pack_x16p2vlx2_x16_sme(size_t m, size_t k, size_t mr, size_t kr, size_t sr);

/// Packs m rows. In block b (rows b * mr ...), element (r, k) is the 16-bit value at halfword ((k / 2) * mr + r) * 2 + k % 2:
/// for each pair of k values, for each row, the two values. The pad k = k (odd k) and rows past m are 0.
/// To pack rows [m0, m0 + m) on their own (m0 a multiple of mr), pass lhs + m0 * lhs_stride_row and
/// lhs_packed + get_lhs_packed_offset(m0, k, ...).
/// @param[in]  m              Rows to pack (0 returns at once).
/// @param[in]  k              Depth.
/// @param[in]  mr             Must be 2 * SVL / 32.
/// @param[in]  kr             Must be 2.
/// @param[in]  sr             Must be 1.
/// @param[in]  m_idx_start    Must be 0.
/// @param[in]  lhs            16-bit LHS, m rows of k values; not NULL.
/// @param[in]  lhs_stride_row Row stride of lhs in bytes; at least k * 2 when m > 1.
/// @param[out] lhs_packed     Packed LHS, get_lhs_packed_size(m, k, ...) bytes; not NULL.
void kai_run_lhs_pack_x16p2vlx2_x16_sme(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride_row,
    void* lhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_LHS_PACK_X16P2VLX2_X16_SME_H
