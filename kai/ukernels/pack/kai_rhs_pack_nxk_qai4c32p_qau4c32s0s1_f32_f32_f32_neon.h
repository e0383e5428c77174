//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon: packs N x K unsigned 4-bit weights with
/// an f32 scale and an f32 zero offset per block of bl values (weight = scale * (u - 8) + zero) for
/// the NEON kernels kai_matmul_clamp_{f32,f16}_qsi8d32p*_qai4c32p*. See docs/matmul_int4_asymmetric.md.
/// AArch64 NEON.
///
/// Memory: reads, per row n < N, bytes [n * k / 2, (n + 1) * k / 2) of rhs and floats
/// [n * nb, (n + 1) * nb) of scale and zero (nb = k / bl), and bias[0, n) when not NULL; writes
/// exactly the packed size, every byte of it.

#ifndef KAI_RHS_PACK_NXK_QAI4C32P_QAU4C32S0S1_F32_F32_F32_NEON_H
#define KAI_RHS_PACK_NXK_QAI4C32P_QAU4C32S0S1_F32_F32_F32_NEON_H

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The parameter struct of this packer (KleidiAI spelling): `struct kai_rhs_pack_qs4cxs1s0_param`.
#ifndef kai_rhs_pack_nxk_qai4c32p_params
#define kai_rhs_pack_nxk_qai4c32p_params kai_rhs_pack_qs4cxs1s0_param
#endif

/// Returns the byte offset of row n_idx in the unpacked RHS: n_idx * rhs_stride (rhs_stride = k / 2).
/// @param[in] n_idx      Row (output channel) index.
/// @param[in] rhs_stride Row stride in bytes.
size_t kai_get_rhs_offset_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon(size_t n_idx, size_t rhs_stride);

/// Returns the bytes of one packed block of nr rows: nr * (nb * (bl / 2 + 8) + 4), nb = k / bl.
/// @param[in] k  Depth; must be even and a multiple of kr and of bl.
/// @param[in] nr Rows (output channels) per packed block; must be non-zero.
/// @param[in] kr K values per kernel step; must be non-zero.
/// @param[in] bl Block length; must be a non-zero multiple of 32.
size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon(
    size_t k, size_t nr, size_t kr, size_t bl);

/// Returns the byte offset of the packed block holding row n_idx: (n_idx / nr) * packed stride.
/// @param[in] n_idx Row index; must be a multiple of nr.
/// Other parameters as kai_get_rhs_packed_stride_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon.
size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon(
    size_t n_idx, size_t k, size_t nr, size_t kr, size_t bl);

/// Returns the size in bytes of the packed RHS: ceil(n / nr) * packed stride.
/// Parameters as kai_get_rhs_packed_stride_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon.
size_t kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon(
    size_t n, size_t k, size_t nr, size_t kr, size_t bl);

/// Packs n rows into blocks of nr rows. Input: row n holds k unsigned nibbles, s0s1 order (element
/// 2t in the high nibble of byte t, element 2t + 1 in the low nibble). Per block b of a block of nr
/// rows, at b * nr * (bl / 2 + 8): nr * bl / 2 data bytes (for lane j, value k of the block at
/// 32-chunk c = k / 32, p = k % 32: byte c * 16 * nr + ((p % 16) / kbl) * nr * kbl + j * kbl + p % kbl,
/// low nibble if p < 16, as the signed nibble u - 8; kbl = kr / sr), then nr f32 zero values, then nr
/// f32 scale * 0.0625. After all blocks: nr f32 bias values (0 when bias is NULL). Lanes past n are
/// copies of row n - 1. Any row range can be packed by pointing rhs, scale, zero and bias at its first
/// row (a multiple of nr).
/// @param[in]  num_groups  Must be 1.
/// @param[in]  n           Number of rows (output channels).
/// @param[in]  k           Depth; must be even and a multiple of kr and of bl.
/// @param[in]  nr          Rows per packed block; must be non-zero.
/// @param[in]  kr          K values per kernel step; 1 to 16, a multiple of sr.
/// @param[in]  sr          Must be 2.
/// @param[in]  bl          Block length; must be a non-zero multiple of 32.
/// @param[in]  rhs         n rows of k / 2 bytes; must not be NULL.
/// @param[in]  zero        n * nb f32 zero offsets (row n at n * nb); must not be NULL.
/// @param[in]  bias        n f32 values, or NULL.
/// @param[in]  scale       n * nb f32 scales (row n at n * nb); must not be NULL.
/// @param[out] rhs_packed  Packed RHS; must not be NULL.
/// @param[in]  extra_bytes Must be 0.
/// @param[in]  params      Must not be NULL; lhs_zero_point must be 1 and rhs_zero_point 8.
void kai_run_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, const uint8_t* rhs,
    const void* zero, const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_nxk_qai4c32p_params* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_NXK_QAI4C32P_QAU4C32S0S1_F32_F32_F32_NEON_H
