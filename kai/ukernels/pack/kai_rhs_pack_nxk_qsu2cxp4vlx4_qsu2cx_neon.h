//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// RHS packer of the qsu2cxp family for the SME2 kernels, nxk input: unsigned 2-bit weight codes
/// (four per byte, the first K index in the low bits), one f32 scale per output channel and an
/// optional f32 bias, packed in blocks of nr = 4VL channels (the kernels' nr at the running SVL) with
/// each channel's sum of look-up values, for the matmul_clamp_f32_qai8dxp_qsu2cxp *_sme2_* kernels. A code c stands for the weight
/// lut[c] (default {-2, -1, 0, 1}: c - 2, the zero point 2). Layout: docs/formats.md,
/// "qsu2cxp4vlx4 RHS"; docs/matmul_int2_channelwise.md. The parameter struct (KleidiAI's
/// kai_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon_params) is struct kai_rhs_pack_qs4cxs1s0_param of
/// kai/kai_common.h.

#ifndef KAI_RHS_PACK_NXK_QSU2CXP4VLX4_QSU2CX_NEON_H
#define KAI_RHS_PACK_NXK_QSU2CXP4VLX4_QSU2CX_NEON_H

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef kai_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon_params
#define kai_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon_params kai_rhs_pack_qs4cxs1s0_param
#endif

/// Returns the channel granularity at which packing may be started: nr.
///
/// @param[in] nr Channels per packed block.
///
/// @return nr.
size_t kai_get_n_step_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(size_t nr);

/// Returns the byte offset of channel n_idx in the unpacked nxk input.
///
/// @param[in] n_idx      Channel index.
/// @param[in] rhs_stride Bytes per channel row: k / 4.
///
/// @return n_idx * rhs_stride.
size_t kai_get_rhs_offset_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(size_t n_idx, size_t rhs_stride);

/// Returns the size in bytes of one packed block of nr channels: nr * (roundup(k, 32) / 4 + 12).
///
/// @param[in] k  Depth K; must be at least 1.
/// @param[in] nr Channels per block; must be at least 1.
/// @param[in] kr Not used (KleidiAI's signature).
/// @param[in] sr Not used (KleidiAI's signature).
///
/// @return The block stride in bytes.
size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(size_t k, size_t nr, size_t kr, size_t sr);

/// Returns the byte offset of the packed block holding channel n_idx.
///
/// @param[in] n_idx Channel index; must be a multiple of nr.
/// @param[in] k     Depth K; must be at least 1.
/// @param[in] nr    Channels per block; must be at least 1.
/// @param[in] kr    Not used.
/// @param[in] sr    Not used.
///
/// @return (n_idx / nr) * packed stride.
size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(
    size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed RHS of n channels: ceil(n / nr) * packed stride.
///
/// @param[in] n  Channels (N); must be at least 1.
/// @param[in] k  Depth K; must be at least 1.
/// @param[in] nr Channels per block; must be at least 1.
/// @param[in] kr Not used.
/// @param[in] sr Not used.
///
/// @return The packed size in bytes.
size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(
    size_t n, size_t k, size_t nr, size_t kr, size_t sr);

/// Packs n channels of 2-bit codes (docs/formats.md, "qsu2cxp4vlx4 RHS"): per input byte b of the rows (the
/// codes of K = 4b .. 4b + 3) nr bytes, channel j's byte at j, unchanged; after the data the nr channels' int32
/// sums of lut[code], f32 scales and f32 biases. Channels past n (in the last block) repeat channel n - 1's
/// bytes and sum, with scale and bias 0. Writes exactly the packed size.
///
/// @param[in]  num_groups  Must be 1.
/// @param[in]  n           Channels (N); must be at least 1.
/// @param[in]  k           Depth K; must be a positive multiple of 32.
/// @param[in]  nr          A positive multiple of 8 (the kernel's nr, 4VL).
/// @param[in]  kr          Must be sr * 4.
/// @param[in]  sr          Must be at least 1.
/// @param[in]  rhs         n rows of k / 4 bytes, four codes per byte (K index 4b + i in bits 2i, 2i + 1); not NULL.
/// @param[in]  bias        n f32 biases, or NULL for 0.
/// @param[in]  scale       n f32 scales; not NULL.
/// @param[out] rhs_packed  Destination, at least the packed size; not NULL.
/// @param[in]  extra_bytes Must be 0.
/// @param[in]  params      Must not be NULL; lhs_zero_point must be 1 and rhs_zero_point 2.
/// @param[in]  lut_arg     The 4 weights of the codes 0-3, each in [-64, 63], or NULL for {-2, -1, 0, 1}.
void kai_run_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, const uint8_t* rhs, const float* bias,
    const float* scale, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon_params* params, const int32_t* lut_arg);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_NXK_QSU2CXP4VLX4_QSU2CX_NEON_H
