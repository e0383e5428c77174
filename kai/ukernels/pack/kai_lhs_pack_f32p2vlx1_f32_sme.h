//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_lhs_pack_f32p2vlx1_f32_sme: packs an f32 LHS for the f32 SME/SME2 MOPA kernels
/// (kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1{biasf32_sme2,b_2vlx2vl_sme}_mopa): blocks of mr = 2 * SVL / 32
/// rows, column-major inside a block, values copied unchanged. See docs/matmul_sme.md.
///
/// Vector length: mr is twice the number of f32 lanes of the streaming vector (SVL) of the CPU that
/// runs the call (read with RDSVL each time; 32 at SVL 512). A buffer packed at one SVL must not be
/// used at another: pack on the machine (and thread, after any prctl(PR_SME_SET_VL)) that runs the
/// kernel, and never cache packed data across SVLs. The functions need FEAT_SME (RDSVL) but do not
/// enter streaming mode.

#ifndef KAI_LHS_PACK_F32P2VLX1_F32_SME_H
#define KAI_LHS_PACK_F32P2VLX1_F32_SME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the packer's m step, mr: the row origin of a packed range must be a multiple of it.
/// @param[in] mr Rows per packed block; must be 2 * SVL / 32 (the kernel's get_mr()).
size_t kai_get_m_step_lhs_pack_f32p2vlx1_f32_sme(size_t mr);

/// Returns the byte offset of row m_idx in the unpacked LHS: m_idx * lhs_stride_row.
/// @param[in] m_idx          Row index.
/// @param[in] lhs_stride_row Row stride of the unpacked LHS in bytes.
size_t kai_get_lhs_offset_lhs_pack_f32p2vlx1_f32_sme(size_t m_idx, size_t lhs_stride_row);

/// Returns the byte offset of row m_idx in the packed LHS: m_idx * k * 4.
/// @param[in] m_idx Row index; must be a multiple of mr.
/// @param[in] k     Depth.
/// @param[in] mr    Must be 2 * SVL / 32.
/// @param[in] kr    Must be 1.
/// @param[in] sr    Must be 1.
size_t kai_get_lhs_packed_offset_lhs_pack_f32p2vlx1_f32_sme(size_t m_idx, size_t k, size_t mr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed LHS: roundup(m, mr) * k * 4.
/// @param[in] m  Rows.
/// @param[in] k  Depth.
/// @param[in] mr Must be 2 * SVL / 32.
/// @param[in] kr Must be 1.
/// @param[in] sr Must be 1.
size_t kai_get_lhs_packed_size_lhs_pack_f32p2vlx1_f32_sme(size_t m, size_t k, size_t mr, size_t kr, size_t sr);

/// Packs m rows of an f32 LHS. Block b holds rows b * mr ... b * mr + mr - 1; element (r, k) of a block is
/// the f32 at byte (k * mr + r) * 4 of the block. Rows past m in the last block are 0.0.
/// To pack rows [m0, m0 + m) on their own (m0 a multiple of mr), pass lhs + m0 * lhs_stride_row and
/// lhs_packed + get_lhs_packed_offset(m0, k, ...).
/// @param[in]  m              Rows to pack (0 returns at once).
/// @param[in]  k              Depth.
/// @param[in]  mr             Must be 2 * SVL / 32.
/// @param[in]  kr             Must be 1.
/// @param[in]  sr             Must be 1.
/// @param[in]  m_idx_start    Must be 0.
/// @param[in]  lhs            f32 LHS, m rows of k values; not NULL.
/// @param[in]  lhs_stride_row Row stride of lhs in bytes; at least k * 4 when m > 1.
/// @param[out] lhs_packed     Packed LHS, get_lhs_packed_size(m, k, ...) bytes; not NULL.
void kai_run_lhs_pack_f32p2vlx1_f32_sme(
    size_t m, size_t k, size_t mr, size_t kr, size_t sr, size_t m_idx_start, const void* lhs, size_t lhs_stride_row,
    void* lhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_LHS_PACK_F32P2VLX1_F32_SME_H
