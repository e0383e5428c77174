//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon: packs N x K int4 weights (signed, or unsigned with
/// zero point 8), two per byte (even k in the low nibble), one f32 scale per output channel and an
/// optional f32 bias into the qsi4cxps1s0 layout that KleidiAI's SME2 kernels
/// (..._qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa, ..._qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot) read: the
/// block size of the qsi4cxp layout, but consecutive K values share a byte, and the sums and scales
/// are stored plain. No NEON kernel reads this buffer. See docs/matmul_int4_channelwise.md. AArch64 NEON.
///
/// Memory: reads, per channel n < N, bytes [n * ceil(k / 2), (n + 1) * ceil(k / 2)) of rhs, scale[n]
/// and bias[n]; writes exactly the packed size, every byte of it.

#ifndef KAI_RHS_PACK_NXK_QSI4CXPS1S0_QSU4CXS1S0_NEON_H
#define KAI_RHS_PACK_NXK_QSI4CXPS1S0_QSU4CXS1S0_NEON_H

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The parameter struct of this packer (KleidiAI spelling): `struct kai_rhs_pack_qs4cxs1s0_param`.
#define kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon_params kai_rhs_pack_qs4cxs1s0_param

/// Returns the column granularity at which packing may be started and split: nr.
/// @param[in] nr Channels per packed block.
size_t kai_get_n_step_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(size_t nr);

/// Returns the byte offset of channel n_idx in the unpacked nxk input: n_idx * rhs_stride.
/// @param[in] n_idx      Channel index.
/// @param[in] rhs_stride Bytes per channel row: ceil(k / 2).
size_t kai_get_rhs_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(size_t n_idx, size_t rhs_stride);

/// Returns the size in bytes of one packed block of nr channels: nr * (roundup(k, 32) / 2 + 12).
/// @param[in] k  Depth K; must be at least 1.
/// @param[in] nr Channels per block; must be at least 1.
/// @param[in] kr K elements per inner loop of the kernel; must be a multiple of sr.
/// @param[in] sr Number of kr splits; must be at least 1.
size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(size_t k, size_t nr, size_t kr, size_t sr);

/// Returns the byte offset of the packed block holding channel n_idx: (n_idx / nr) * packed stride.
/// @param[in] n_idx Channel index; must be a multiple of nr.
/// Other parameters as kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon.
size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(
    size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed RHS: ceil(n / nr) * packed stride.
/// Parameters as kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon.
size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(
    size_t n, size_t k, size_t nr, size_t kr, size_t sr);

/// Packs n channels into blocks of nr channels, Kp = roundup(k, 32). Per block: for each group
/// g = 0 .. Kp / kr - 1 and lane j, kr / 2 bytes at g * nr * kr / 2 + j * kr / 2, byte t holding the
/// signed nibbles of elements g * kr + 2t (low) and g * kr + 2t + 1 (high) of the lane's channel
/// (elements k >= K are 0; for odd K the unused high nibble of the row's last byte is ignored); then
/// per lane the int32 sum of the channel's signed weights, the f32 scale and the f32 bias (0 when
/// bias is NULL). sr does not enter the layout. Lanes past n in the last block are all zero (data,
/// sum, scale and bias). Any channel range can be packed by pointing rhs, bias, scale and
/// rhs_packed at its first channel (a multiple of nr).
///
/// @param[in]  num_groups  Number of groups; must be 1.
/// @param[in]  n           Number of channels (N). Returns at once when 0.
/// @param[in]  k           Depth K; must be at least 1.
/// @param[in]  nr          Channels per block; must be at least 1.
/// @param[in]  kr          K elements per group; must be an even, non-zero multiple of sr, and roundup(k, 32)
///                         must be a multiple of it.
/// @param[in]  sr          Number of kr splits; must be at least 1.
/// @param[in]  rhs         n rows of ceil(k / 2) bytes (the stride is implied), element (j, k) in byte
///                         j * ceil(k / 2) + k / 2, low nibble for even k; must not be NULL.
/// @param[in]  bias        n f32 biases, or NULL for zeros.
/// @param[in]  scale       n f32 per-channel scales; must not be NULL.
/// @param[out] rhs_packed  Packed output of kai_get_rhs_packed_size_...(n, ...) bytes; must not be NULL.
/// @param[in]  extra_bytes Must be 0.
/// @param[in]  params      lhs_zero_point must be 1; rhs_zero_point 8 (unsigned nibbles, value = nibble - 8)
///                         or 0 (signed two's-complement nibbles). Must not be NULL.
void kai_run_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, const uint8_t* rhs, const float* bias,
    const float* scale, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon_params* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_NXK_QSI4CXPS1S0_QSU4CXS1S0_NEON_H
