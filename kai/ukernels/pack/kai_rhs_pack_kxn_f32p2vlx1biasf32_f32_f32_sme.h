//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme: packs an f32 RHS given as K rows of N (kxn) and an f32 bias
/// for the f32 SME/SME2 kernels, into the same f32p2vlx1biasf32 layout as kai_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme
/// (docs/formats.md, "SME packed layouts"): the kernels that read one read the other. See docs/matmul_sme.md.
///
/// Vector length: nr = 2 * SVL / 32, read with RDSVL on every call. A buffer packed at one SVL must not be used
/// at another: pack on the machine (and thread, after any prctl(PR_SME_SET_VL)) that runs the kernel, and never
/// cache packed data across SVLs. Needs FEAT_SME (RDSVL); does not enter streaming mode.

#ifndef KAI_RHS_PACK_KXN_F32P2VLX1BIASF32_F32_F32_SME_H
#define KAI_RHS_PACK_KXN_F32P2VLX1BIASF32_F32_F32_SME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the packer's n step, nr = 2 * SVL / 32: the column origin of a packed range must be a multiple of it.
size_t kai_get_n_step_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme(void);

/// Returns the byte offset of column n_idx in a row of the unpacked kxn RHS: n_idx * 4.
/// @param[in] n_idx Column index; must be a multiple of nr.
size_t kai_get_rhs_offset_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme(size_t n_idx);

/// Returns the byte offset of channel n_idx in the bias: n_idx * 4.
/// @param[in] n_idx Channel index.
size_t kai_get_bias_offset_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme(size_t n_idx);

/// Returns the bytes of one packed block of nr channels: nr * (4 + 4 * k) (as KleidiAI's packer; the nxk packer's
/// stride getter gives the bytes of one channel).
/// @param[in] k Depth.
size_t kai_get_rhs_packed_stride_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme(size_t k);

/// Returns the byte offset of channel n_idx in the packed RHS: n_idx * (4 + 4 * k).
/// @param[in] n_idx Channel index; must be a multiple of nr.
/// @param[in] k     Depth.
size_t kai_get_rhs_packed_offset_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme(size_t n_idx, size_t k);

/// Returns the size in bytes of the packed RHS: roundup(n, nr) * (4 + 4 * k).
/// @param[in] n Output channels.
/// @param[in] k Depth.
size_t kai_get_rhs_packed_size_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme(size_t n, size_t k);

/// Packs n channels. Each block of nr channels holds nr f32 biases, then for each k the nr values rhs[k][n].
/// Channels past n in the last block are 0 (bias and data). To pack channels [n0, n0 + n) on their own (n0 a
/// multiple of nr), pass rhs + n0 (the same rhs_stride), bias + n0 and rhs_packed + get_rhs_packed_offset(n0, k).
/// @param[in]  num_groups     Must be 1.
/// @param[in]  n              Output channels (0 returns at once).
/// @param[in]  k              Depth.
/// @param[in]  nr             Must be 2 * SVL / 32 (the kernel's get_nr()).
/// @param[in]  kr             Must be 1.
/// @param[in]  sr             Must be 1.
/// @param[in]  rhs_stride_row Row stride of rhs in bytes; at least n * 4 when k > 1.
/// @param[in]  rhs            f32 RHS, k rows of n values; not NULL.
/// @param[in]  bias           n f32 biases; not NULL (pass zeros for no bias).
/// @param[in]  scale          Must be NULL.
/// @param[out] rhs_packed     Packed RHS, get_rhs_packed_size(n, k) bytes; not NULL.
/// @param[in]  extra_bytes    Must be 0.
/// @param[in]  params         Must be NULL.
void kai_run_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride_row, const void* rhs,
    const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes, const void* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_KXN_F32P2VLX1BIASF32_F32_F32_SME_H
