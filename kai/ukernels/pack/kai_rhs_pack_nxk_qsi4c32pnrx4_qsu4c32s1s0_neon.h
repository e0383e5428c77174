//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon: the NEON packer of KleidiAI's name for kr / sr = 4. It writes the
/// qsi4c32p layout of kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0 (N x K unsigned int4 weights, value =
/// nibble - 8, one bf16 scale per block of bl values along K, optional f32 bias) for the
/// matmul_clamp_f32_qai8dxp_qsi4c32p kernels with kr / sr = 4, with one difference: each f32 row sum
/// is rounded once per 32-value chunk of K (as KleidiAI's packer of this name does), not once per
/// kr / sr byte group, so the last bit of a row sum can differ from the portable packer's. The
/// kernels read either buffer. See docs/matmul_int4_blockwise.md. AArch64 NEON.
///
/// Memory: reads, per channel n < N, bytes [n * rhs_stride, n * rhs_stride + k / 2) of rhs, the
/// k / bl scales of the channel and bias[n]; writes exactly the packed size, every byte of it.

#ifndef KAI_RHS_PACK_NXK_QSI4C32PNRX4_QSU4C32S1S0_NEON_H
#define KAI_RHS_PACK_NXK_QSI4C32PNRX4_QSU4C32S1S0_NEON_H

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the n step of the packer, nr: a column chunk packed on its own must start at a
/// multiple of it.
/// @param[in] nr Number of columns per packed block.
size_t kai_get_n_step_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon(size_t nr);

/// Returns the byte offset of row (channel) n_idx in the unpacked N x K input: n_idx * rhs_stride.
/// @param[in] n_idx      Channel index.
/// @param[in] rhs_stride Row stride of the input in bytes.
size_t kai_get_rhs_offset_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon(size_t n_idx, size_t rhs_stride);

/// Returns the size in bytes of one packed block of nr channels:
/// nr * ((k / bl) * (bl / 2 + 2) + 8).
/// @param[in] k        Depth; must be a multiple of bl.
/// @param[in] nr       Channels per block; must be a non-zero multiple of 4.
/// @param[in] kr       K per inner step of the kernel; non-zero, and bl must be a multiple of it.
/// @param[in] sr       Split of kr: non-zero, kr must be a multiple of sr and kr / sr must be 4.
/// @param[in] bl       Block length; must be a non-zero multiple of 32.
/// @param[in] scale_dt Type of the block scales; must be kai_dt_bf16.
size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon(
    size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt);

/// Returns the byte offset of the packed block holding channel n_idx: (n_idx / nr) * stride.
/// @param[in] n_idx Channel index; must be a multiple of nr.
/// Other parameters as kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon.
size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon(
    size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt);

/// Returns the size in bytes of the packed RHS for n channels: ceil(n / nr) * stride.
/// Parameters as kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon.
size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon(
    size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt);

/// Packs n channels. Per block of nr channels and per quantisation block b: the nr * bl / 2 bytes
/// of signed nibbles (u XOR 8), then the nr bf16 scales of block b; after the last block the nr
/// f32 row sums sum_b d_b * sum_{k in b} (u - 8), accumulated per lane from 0.0f by
/// sum = f32(sum + G * d_b) over the 32-value chunks of K in order (G = the exact sum of the
/// chunk's 32 values), then the nr f32 biases. Channels past n in the last block
/// are copies of channel n - 1. Every byte of the packed size is written.
///
/// A column chunk [n0, n0 + count) with n0 % nr == 0 can be packed on its own: pass
/// rhs + n0 * rhs_stride, bias + n0 (or NULL), scale + n0 * scale_stride, n = count and
/// rhs_packed + kai_get_rhs_packed_offset_...(n0, ...).
///
/// The parameter checks on bl, k and scale_dt are made in every build (abort with a message in
/// debug builds); the others in debug builds only.
///
/// @param[in]  num_groups   Number of groups; must be 1.
/// @param[in]  n            Number of channels (rows of the input).
/// @param[in]  k            Depth; must be a multiple of bl.
/// @param[in]  nr           Channels per packed block; must be a non-zero multiple of 4.
/// @param[in]  kr           K per inner step of the kernel; bl must be a multiple of it.
/// @param[in]  sr           Split of kr: kr must be a multiple of sr and kr / sr must be 4.
/// @param[in]  bl           Block length; must be a non-zero multiple of 32.
/// @param[in]  rhs          Input: n rows of rhs_stride bytes, element (n, k) in byte
///                          n * rhs_stride + k / 2 (low nibble for even k); not NULL.
/// @param[in]  rhs_stride   Row stride of the input in bytes; at least k / 2.
/// @param[in]  bias         n f32 biases, or NULL for zeros.
/// @param[in]  scale        bf16 block scales (raw uint16_t): channel n at scale + n * scale_stride
///                          bytes, block b at +2b; not NULL.
/// @param[in]  scale_stride Row stride of the scales in bytes; at least 2 * (k / bl).
/// @param[out] rhs_packed   Packed output of kai_get_rhs_packed_size_...(n, ...) bytes; not NULL.
/// @param[in]  extra_bytes  Must be 0.
/// @param[in]  params       Not NULL; lhs_zero_point must be 1, rhs_zero_point 8, scale_dt kai_dt_bf16.
void kai_run_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, const uint8_t* rhs,
    size_t rhs_stride, const float* bias, const void* scale, size_t scale_stride, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0_params* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_NXK_QSI4C32PNRX4_QSU4C32S1S0_NEON_H
