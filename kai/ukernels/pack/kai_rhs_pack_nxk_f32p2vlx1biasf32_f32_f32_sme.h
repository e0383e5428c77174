//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme: packs an f32 RHS given as N rows of K (nxk) and an f32 bias
/// for the f32 SME/SME2 kernels (kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1{biasf32_sme2,b_2vlx2vl_sme}_mopa and
/// kai_matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla share the buffer). See docs/matmul_sme.md.
///
/// Vector length: nr = 2 * SVL / 32, read with RDSVL on every call. A buffer packed at one SVL must not be used
/// at another: pack on the machine (and thread, after any prctl(PR_SME_SET_VL)) that runs the kernel, and never
/// cache packed data across SVLs. Needs FEAT_SME (RDSVL); does not enter streaming mode.

#ifndef KAI_RHS_PACK_NXK_F32P2VLX1BIASF32_F32_F32_SME_H
#define KAI_RHS_PACK_NXK_F32P2VLX1BIASF32_F32_F32_SME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the packer's n step, nr = 2 * SVL / 32: the column origin of a packed range must be a multiple of it.
size_t kai_get_n_step_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme(void);

/// Returns the byte offset of row (output channel) n_idx in the unpacked nxk RHS: n_idx * rhs_stride.
/// @param[in] n_idx      Channel index.
/// @param[in] rhs_stride Row stride of the RHS in bytes.
size_t kai_get_rhs_offset_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme(size_t n_idx, size_t rhs_stride);

/// Returns the byte offset of channel n_idx in the bias: n_idx * 4.
/// @param[in] n_idx Channel index.
size_t kai_get_bias_offset_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme(size_t n_idx);

/// Returns the packed bytes per output channel: 4 + 4 * k (a block of nr channels takes nr times that).
/// @param[in] k Depth.
size_t kai_get_rhs_packed_stride_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme(size_t k);

/// Returns the byte offset of channel n_idx in the packed RHS: n_idx * (4 + 4 * k).
/// @param[in] n_idx Channel index; must be a multiple of nr.
/// @param[in] k     Depth.
size_t kai_get_rhs_packed_offset_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme(size_t n_idx, size_t k);

/// Returns the size in bytes of the packed RHS: roundup(n, nr) * (4 + 4 * k).
/// @param[in] n Output channels.
/// @param[in] k Depth.
size_t kai_get_rhs_packed_size_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme(size_t n, size_t k);

/// Packs n channels. Each block of nr channels holds nr f32 biases, then for each k the nr values w[n][k].
/// Channels past n in the last block are 0 (bias and data). To pack channels [n0, n0 + n) on their own (n0 a
/// multiple of nr), pass rhs + n0 * rhs_stride, bias + n0 and rhs_packed + get_rhs_packed_offset(n0, k).
/// @param[in]  num_groups  Must be 1.
/// @param[in]  n           Output channels (0 returns at once).
/// @param[in]  k           Depth.
/// @param[in]  nr          Must be 2 * SVL / 32 (the kernel's get_nr()).
/// @param[in]  kr          Must be 1.
/// @param[in]  sr          Must be 1.
/// @param[in]  rhs_stride  Row stride of rhs in bytes; at least k * 4 when n > 1.
/// @param[in]  rhs         f32 RHS, n rows of k values; not NULL.
/// @param[in]  bias        n f32 biases; not NULL (pass zeros for no bias).
/// @param[in]  scale       Must be NULL.
/// @param[out] rhs_packed  Packed RHS, get_rhs_packed_size(n, k) bytes; not NULL.
/// @param[in]  extra_bytes Must be 0.
/// @param[in]  params      Must be NULL.
void kai_run_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride, const void* rhs,
    const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes, const void* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_NXK_F32P2VLX1BIASF32_F32_F32_SME_H
