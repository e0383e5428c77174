//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme: packs a 16-bit RHS given as K rows of N (kxn) with a 16-bit
/// bias (f16, or any 16-bit data: the values are copied) for the f16 SME/SME2 kernels of families f16p_f16p and
/// f16_f16p. See docs/formats.md, "x16p2vlx2b", and docs/matmul_sme.md.
///
/// Vector length: nr = 2 * SVL / 32, read with RDSVL on every call. A buffer packed at one SVL must not be used
/// at another: pack on the machine (and thread, after any prctl(PR_SME_SET_VL)) that runs the kernel, and never
/// cache packed data across SVLs. Needs FEAT_SME (RDSVL); does not enter streaming mode.

#ifndef KAI_RHS_PACK_KXN_X16P2VLX2B_X16_X16_SME_H
#define KAI_RHS_PACK_KXN_X16P2VLX2B_X16_X16_SME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the packer's n step, nr = 2 * SVL / 32: the column origin of a packed range must be a multiple of it.
size_t kai_get_n_step_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme(void);

/// Returns the byte offset of column n_idx in a row of the unpacked kxn RHS: n_idx * 2.
/// @param[in] n_idx Column index; must be a multiple of nr.
size_t kai_get_rhs_offset_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme(size_t n_idx);

/// Returns the byte offset of channel n_idx in the bias: n_idx * 2.
/// @param[in] n_idx Channel index.
size_t kai_get_bias_offset_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme(size_t n_idx);

/// Returns the bytes of one packed block of nr channels: nr * (2 + 2 * roundup(k, 2)).
/// @param[in] k Depth.
size_t kai_get_rhs_packed_stride_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme(size_t k);

/// Returns the byte offset of channel n_idx in the packed RHS: (n_idx / nr) * get_rhs_packed_stride(k).
/// @param[in] n_idx Channel index; must be a multiple of nr.
/// @param[in] k     Depth.
size_t kai_get_rhs_packed_offset_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme(size_t n_idx, size_t k);

/// Returns the size in bytes of the packed RHS: ceil(n / nr) * get_rhs_packed_stride(k).
/// @param[in] n Output channels.
/// @param[in] k Depth.
size_t kai_get_rhs_packed_size_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme(size_t n, size_t k);

/// Packs n channels. Each block of nr channels holds nr 16-bit biases, then for each pair p of k values and each
/// channel c the values w[2p][c] and w[2p + 1][c]. The pad slot of an odd k is 0, and channels past n are 0 (bias and
/// data). To pack channels [n0, n0 + n) on their own (n0 a multiple of nr), pass rhs + n0 * 2, bias + n0 * 2 and
/// rhs_packed + get_rhs_packed_offset(n0, k).
/// @param[in]  num_groups  Must be 1.
/// @param[in]  n           Output channels (0 returns at once).
/// @param[in]  k           Depth.
/// @param[in]  nr          Must be 2 * SVL / 32 (the kernel's get_nr()).
/// @param[in]  kr          Must be 2.
/// @param[in]  sr          Must be 1.
/// @param[in]  rhs_stride  Row stride of rhs in bytes; at least n * 2 when k > 1.
/// @param[in]  rhs         16-bit RHS, k rows of n values; not NULL.
/// @param[in]  bias        n 16-bit biases; not NULL (pass zeros for no bias).
/// @param[in]  scale       Must be NULL.
/// @param[out] rhs_packed  Packed RHS, get_rhs_packed_size(n, k) bytes; not NULL.
/// @param[in]  extra_bytes Must be 0.
/// @param[in]  params      Must be NULL.
void kai_run_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t rhs_stride, const void* rhs,
    const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes, const void* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_KXN_X16P2VLX2B_X16_X16_SME_H
