//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// RHS packer of the qsi4cxp family, nxk input: int4 weights (signed, or unsigned with zero point 8),
/// two per byte (s1s0: even index in the low nibble), one f32 scale per output channel and an
/// optional f32 bias, packed in blocks of nr channels for the
/// matmul_clamp_f32_qai8dxp_qsi4cxp kernels. Layout: docs/matmul_int4_channelwise.md, docs/formats.md, "qsi4cxp RHS".

#ifndef KAI_RHS_PACK_NXK_QSI4CXP_QS4CXS1S0_H
#define KAI_RHS_PACK_NXK_QSI4CXP_QS4CXS1S0_H

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The parameter struct of this packer (KleidiAI spelling): `struct kai_rhs_pack_qs4cxs1s0_param`.
#define kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0_params kai_rhs_pack_qs4cxs1s0_param

/// Returns the column granularity at which packing may be started and split: nr.
///
/// @param[in] nr Channels per packed block.
///
/// @return nr.
size_t kai_get_n_step_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(size_t nr);

/// Returns the byte offset of channel n_idx in the unpacked nxk input.
///
/// @param[in] n_idx      Channel index.
/// @param[in] rhs_stride Bytes per channel row: ceil(k / 2).
///
/// @return n_idx * rhs_stride.
size_t kai_get_rhs_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(size_t n_idx, size_t rhs_stride);

/// Returns the size in bytes of one packed block of nr channels: nr * (roundup(k, 32) / 2 + 12).
///
/// @param[in] k  Depth K; must be at least 1.
/// @param[in] nr Channels per block; must be at least 1.
/// @param[in] kr K elements per inner loop of the kernel; must be a multiple of sr.
/// @param[in] sr Number of kr splits; must be at least 1.
///
/// @return The block stride in bytes.
size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(size_t k, size_t nr, size_t kr, size_t sr);

/// Returns the byte offset of the packed block holding channel n_idx.
///
/// @param[in] n_idx Channel index; must be a multiple of nr.
/// @param[in] k     Depth K; must be at least 1.
/// @param[in] nr    Channels per block; must be at least 1.
/// @param[in] kr    K elements per inner loop; must be a multiple of sr.
/// @param[in] sr    Number of kr splits; must be at least 1.
///
/// @return (n_idx / nr) * packed stride.
size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed RHS: ceil(n / nr) * packed stride.
///
/// @param[in] n  Number of channels (N).
/// @param[in] k  Depth K; must be at least 1.
/// @param[in] nr Channels per block; must be at least 1.
/// @param[in] kr K elements per inner loop; must be a multiple of sr.
/// @param[in] sr Number of kr splits; must be at least 1.
///
/// @return The packed size in bytes.
size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(size_t n, size_t k, size_t nr, size_t kr, size_t sr);

/// Packs int4 weights, per-channel scales and an optional bias into blocks of nr channels (docs/formats.md, "qsi4cxp RHS"):
/// nibble pairs (k, k + 16) of each 32-K chunk in groups of kr / sr bytes per channel, then per channel
/// the int32 16 * sum(w), the f32 scale * 0.0625 and the f32 bias (0 when bias is NULL).
///
/// Input: n rows of ceil(k / 2) bytes (the stride is implied); element (j, k) in byte
/// j * ceil(k / 2) + k / 2, low nibble for even k. Any channel range can be packed by pointing rhs,
/// bias, scale and rhs_packed at its first channel (a multiple of nr). Channels past n in the last
/// block repeat channel n - 1.
///
/// @param[in]  num_groups  Number of groups; must be 1.
/// @param[in]  n           Number of channels (N). Returns at once when 0.
/// @param[in]  k           Depth K; must be at least 1.
/// @param[in]  nr          Channels per block; must be at least 1.
/// @param[in]  kr          K elements per inner loop; must be a non-zero multiple of sr, and kr / sr must divide 16.
/// @param[in]  sr          Number of kr splits; must be at least 1.
/// @param[in]  rhs         The int4 weights (layout above); must not be NULL.
/// @param[in]  bias        n f32 biases, or NULL for zeros.
/// @param[in]  scale       n f32 per-channel scales; must not be NULL.
/// @param[out] rhs_packed  The packed block of the first channel; must not be NULL.
/// @param[in]  extra_bytes Must be 0.
/// @param[in]  params      lhs_zero_point must be 1; rhs_zero_point 8 (unsigned nibbles, value = nibble - 8)
///                         or 0 (signed two's-complement nibbles). Must not be NULL.
void kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, const uint8_t* rhs, const float* bias,
    const float* scale, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0_params* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_NXK_QSI4CXP_QS4CXS1S0_H
