//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// RHS packer of the qsi8cxp family, nxk input: symmetric int8 weights, one f32 scale per output
/// channel and an optional f32 bias, packed in blocks of nr channels for the
/// matmul_clamp_f32_qai8dxp_qsi8cxp kernels. Layout: docs/matmul_int8_channelwise.md, docs/formats.md, "qsi8cxp RHS".
/// The parameter struct, struct kai_rhs_pack_qsi8cx_params, is declared in kai/kai_common.h (as in
/// KleidiAI).

#ifndef KAI_RHS_PACK_NXK_QSI8CXP_QSI8CX_NEON_H
#define KAI_RHS_PACK_NXK_QSI8CXP_QSI8CX_NEON_H

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the column granularity at which packing may be started: nr.
///
/// @param[in] nr Channels per packed block.
///
/// @return nr.
size_t kai_get_n_step_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(size_t nr);

/// Returns the byte offset of channel n_idx in the unpacked nxk input.
///
/// @param[in] n_idx      Channel index.
/// @param[in] rhs_stride Bytes per channel row: k.
///
/// @return n_idx * rhs_stride.
size_t kai_get_rhs_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(size_t n_idx, size_t rhs_stride);

/// Returns the size in bytes of one packed block of nr channels: nr * (roundup(k, 32) + 12).
///
/// @param[in] k  Depth K; must be at least 1.
/// @param[in] nr Channels per block; must be at least 1.
/// @param[in] kr K values per channel and group; must be at least 1.
/// @param[in] sr Must be 1.
///
/// @return The block stride in bytes.
size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(size_t k, size_t nr, size_t kr, size_t sr);

/// Returns the byte offset of the packed block holding channel n_idx.
///
/// @param[in] n_idx Channel index; must be a multiple of nr.
/// @param[in] k     Depth K; must be at least 1.
/// @param[in] nr    Channels per block; must be at least 1.
/// @param[in] kr    K values per channel and group; must be at least 1.
/// @param[in] sr    Must be 1.
///
/// @return (n_idx / nr) * packed stride.
size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed RHS: ceil(n / nr) * packed stride.
///
/// @param[in] n  Number of channels (N).
/// @param[in] k  Depth K; must be at least 1.
/// @param[in] nr Channels per block; must be at least 1.
/// @param[in] kr K values per channel and group; must be at least 1.
/// @param[in] sr Must be 1.
///
/// @return The packed size in bytes.
size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(size_t n, size_t k, size_t nr, size_t kr, size_t sr);

/// Packs int8 weights, per-channel scales and an optional bias into blocks of nr channels (docs/formats.md, "qsi8cxp RHS"):
/// for each group of kr K values, each channel's kr values (0 for k >= K up to roundup(k, 32)), then
/// per channel the int32 lhs_zero_point * sum_k w[j][k], the f32 scale (verbatim) and the f32 bias (0
/// when bias is NULL). Channels past n in the last block repeat channel n - 1.
///
/// Input: n rows of k int8 values (row stride k, implied); any channel range can be packed by pointing
/// rhs, bias, scale and rhs_packed at its first channel (a multiple of nr).
///
/// @param[in]  num_groups  Number of groups; must be 1.
/// @param[in]  n           Number of channels (N). Returns at once when 0.
/// @param[in]  k           Depth K; must be at least 1.
/// @param[in]  nr          Channels per block; must be at least 1.
/// @param[in]  kr          K values per channel and group; must be at least 1 and divide roundup(k, 32).
/// @param[in]  sr          Must be 1.
/// @param[in]  rhs         The int8 weights (layout above); must not be NULL.
/// @param[in]  bias        n f32 biases, or NULL for zeros.
/// @param[in]  scale       n f32 per-channel scales; must not be NULL.
/// @param[out] rhs_packed  The packed block of the first channel; must not be NULL.
/// @param[in]  extra_bytes Must be 0.
/// @param[in]  params      lhs_zero_point must be 1 (the kernels' zero-point correction assumes it;
///                         KleidiAI multiplies the sums by it without a check); scale_multiplier is
///                         ignored, as in KleidiAI. Must not be NULL.
void kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, const int8_t* rhs, const float* bias,
    const float* scale, void* rhs_packed, size_t extra_bytes, const struct kai_rhs_pack_qsi8cx_params* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_NXK_QSI8CXP_QSI8CX_NEON_H
