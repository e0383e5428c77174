//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon: packs N x K unsigned 4-bit weights (s0s1: value 2t in the high nibble of byte t) with an f32 scale and an f32
/// zero offset per block of bl values into the qai4c32ps1s0nrx4 layout that KleidiAI's SME2
/// kernels (..._qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa, ..._qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot)
/// read. No NEON kernel reads this buffer. See docs/matmul_int4_asymmetric.md. AArch64 NEON.
///
/// Memory: reads, per row n < N, bytes [n * k / 2, (n + 1) * k / 2) of rhs and floats
/// [n * nb, (n + 1) * nb) of scale and zero (nb = k / bl), and bias[0, n) when not NULL; writes
/// exactly the packed size, every byte of it.

#ifndef KAI_RHS_PACK_NXK_QAI4C32PS1S0NRX4_QAU4C32S0S1_F32_F32_F32_NEON_H
#define KAI_RHS_PACK_NXK_QAI4C32PS1S0NRX4_QAU4C32S0S1_F32_F32_F32_NEON_H

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
size_t kai_get_rhs_offset_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon(size_t n_idx, size_t rhs_stride);

/// Returns the byte offset of the packed block holding row n_idx: (n_idx / nr) * nr * (nb * (bl / 2 + 8) + 4).
/// @param[in] n_idx Row index; must be a multiple of nr.
/// @param[in] k     Depth; must be even and a multiple of kr and of bl.
/// @param[in] nr    Rows per packed block; must be a non-zero multiple of 4.
/// @param[in] kr    K values per kernel step; must be non-zero.
/// @param[in] bl    Block length; must be a non-zero multiple of 32 and of kr.
size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon(
    size_t n_idx, size_t k, size_t nr, size_t kr, size_t bl);

/// Returns the size in bytes of the packed RHS: ceil(n / nr) * nr * (nb * (bl / 2 + 8) + 4).
/// Parameters as kai_get_rhs_packed_offset_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon.
size_t kai_get_rhs_packed_size_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon(
    size_t n, size_t k, size_t nr, size_t kr, size_t bl);

/// Packs n rows into blocks of nr rows. Per block b of a block of nr rows, at b * nr * (bl / 2 + 8):
/// nr * bl / 2 data bytes, then nr f32 zero values, then nr f32 scales (both verbatim). Data: for each
/// 16-value chunk c of the block, each 4-value piece q (0-3) and lane j, the 2 bytes of values
/// 16c + 4q .. 16c + 4q + 3 of row j at c * 8 * nr + q * 2 * nr + j * 2, s1s0 (value 2t in the low
/// nibble of byte t), unsigned. After all blocks: nr f32 bias values (rows past n, or all when bias
/// is NULL, 0). Data, zero and scale of lanes past n are copies of row n - 1.
/// @param[in]  num_groups  Must be 1.
/// @param[in]  n           Number of rows (output channels).
/// @param[in]  k           Depth; must be even and a multiple of kr and of bl.
/// @param[in]  nr          Rows per packed block; must be a non-zero multiple of 4.
/// @param[in]  kr          K values per kernel step; kr / sr must be 4.
/// @param[in]  sr          Must be 2.
/// @param[in]  bl          Block length; must be a non-zero multiple of 32.
/// @param[in]  rhs         n rows of k / 2 bytes, s0s1: value 2t in the high nibble of byte t; must not be NULL.
/// @param[in]  zero        n * nb f32 zero offsets (row n at n * nb); must not be NULL.
/// @param[in]  bias        n f32 values, or NULL.
/// @param[in]  scale       n * nb f32 scales (row n at n * nb); must not be NULL.
/// @param[out] rhs_packed  Packed RHS; must not be NULL.
/// @param[in]  extra_bytes Must be 0.
/// @param[in]  params      Must not be NULL; lhs_zero_point must be 1 and rhs_zero_point 8.
void kai_run_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, const uint8_t* rhs,
    const void* zero, const void* bias, const void* scale, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_nxk_qai4c32p_params* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_NXK_QAI4C32PS1S0NRX4_QAU4C32S0S1_F32_F32_F32_NEON_H
