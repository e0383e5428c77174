//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon: packs a K x N matrix of unsigned int4 weights
/// (value = nibble - 8, two per byte, even n in the low nibble) with one bf16 scale per block of bl
/// values along K and an optional f32 bias into the qsi4c32ps1s0 layout that KleidiAI's SME2
/// kernels read (the layout of kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon). No NEON kernel
/// reads this buffer. See docs/matmul_int4_blockwise.md. AArch64 NEON.
///
/// Memory: reads bytes [0, (k - 1) * rhs_stride + ceil(n / 2)) of rhs and nothing past them (KleidiAI's
/// packer of this name reads 8 bytes per K row for every 16 channels, up to 8 bytes past that end),
/// the k / bl scales of channels 0..n-1 and bias[0..n-1]; writes exactly the packed size, every byte.

#ifndef KAI_RHS_PACK_KXN_QSI4C32PS1S0NRX4_QSU4C32S1S0_NEON_H
#define KAI_RHS_PACK_KXN_QSI4C32PS1S0NRX4_QSU4C32S1S0_NEON_H

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the n step of the packer, nr: a column chunk packed on its own must start at a
/// multiple of it.
/// @param[in] nr Number of columns per packed block.
size_t kai_get_n_step_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(size_t nr);

/// Returns the byte offset of column (channel) n_idx in a row of the unpacked K x N input: n_idx / 2.
/// @param[in] n_idx      Channel index; must be even.
/// @param[in] rhs_stride Row stride of the input in bytes (unused).
size_t kai_get_rhs_offset_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(size_t n_idx, size_t rhs_stride);

/// Returns the size in bytes of one packed block of nr channels:
/// nr * ((k / bl) * (bl / 2 + 2) + 8).
/// @param[in] k        Depth; must be a multiple of bl.
/// @param[in] nr       Channels per block; must be a non-zero multiple of 4.
/// @param[in] kr       K per inner step of the kernel; non-zero, and bl must be a multiple of it.
/// @param[in] sr       Split of kr: non-zero, kr must be a multiple of sr and kr / sr must be 4.
/// @param[in] bl       Block length; must be a non-zero multiple of 32.
/// @param[in] scale_dt Type of the block scales; must be kai_dt_bf16.
size_t kai_get_rhs_packed_stride_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(
    size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt);

/// Returns the byte offset of the packed block holding channel n_idx: (n_idx / nr) * stride.
/// @param[in] n_idx Channel index; must be a multiple of nr.
/// Other parameters as kai_get_rhs_packed_stride_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon.
size_t kai_get_rhs_packed_offset_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(
    size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt);

/// Returns the size in bytes of the packed RHS for n channels: ceil(n / nr) * stride.
/// Parameters as kai_get_rhs_packed_stride_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon.
size_t kai_get_rhs_packed_size_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(
    size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, enum kai_datatype scale_dt);

/// Packs n channels. Per block of nr channels and per quantisation block b: nr * bl / 2 bytes of
/// signed nibbles (u XOR 8), then the nr bf16 scales of block b; after the last block the nr f32
/// row sums, then the nr f32 biases. Inside block b, for each 32-value chunk c of the block and each
/// group g of 4 K rows of the chunk, lane j holds 2 bytes at c * 16 * nr + g * 2 * nr + j * 2: byte 0
/// = (k = 4g, low nibble; 4g + 1, high nibble), byte 1 = (4g + 2, 4g + 3), k counted from the chunk
/// start. Row sum of a lane: sum = 0.0f, then sum = f32(sum + G * d_b) for every group of 4 K rows in
/// K order (G = the exact sum of the group's 4 values), as KleidiAI's packer rounds it.
///
/// Channels past n in the last block (as KleidiAI's, which loads 8 bytes of each K row per group of
/// 16 lanes): scale and bias of channel n - 1; lane j = 16q + t (t < 16) of the block of channels
/// [n0, n0 + nr) takes nibble t % 2 of input byte kk * rhs_stride + f / 2 + t / 2 of K row kk, where
/// f = min(n0 + 16q, n - 1); for lanes of real channels that is their own nibble, for the others the
/// bytes after the row's last channel (which may belong to the next row). Bytes at or past
/// (k - 1) * rhs_stride + ceil(n / 2) are not read and count as 0. The row sums follow that data.
/// Only bytes that depend on memory past the input can differ from KleidiAI's.
///
/// A column chunk [n0, n0 + count) with n0 % nr == 0 can be packed on its own: pass
/// rhs + n0 / 2, bias + n0 (or NULL), scale + n0 * scale_stride, n = count and
/// rhs_packed + kai_get_rhs_packed_offset_...(n0, ...).
///
/// The parameter checks on bl, k and scale_dt are made in every build (abort with a message in
/// debug builds); the others in debug builds only.
///
/// @param[in]  num_groups   Number of groups; must be 1.
/// @param[in]  n            Number of channels (columns of the input).
/// @param[in]  k            Depth; must be a multiple of bl.
/// @param[in]  nr           Channels per packed block; must be a non-zero multiple of 4.
/// @param[in]  kr           K per inner step of the kernel; bl must be a multiple of it.
/// @param[in]  sr           Split of kr: kr must be a multiple of sr and kr / sr must be 4.
/// @param[in]  bl           Block length; must be a non-zero multiple of 32.
/// @param[in]  rhs          Input: k rows of rhs_stride bytes, element (k, n) in byte
///                          k * rhs_stride + n / 2 (low nibble for even n); not NULL.
/// @param[in]  rhs_stride   Row stride of the input in bytes; at least ceil(n / 2).
/// @param[in]  bias         n f32 biases, or NULL for zeros.
/// @param[in]  scale        bf16 block scales (raw uint16_t): channel n at scale + n * scale_stride
///                          bytes, block b at +2b; not NULL.
/// @param[in]  scale_stride Row stride of the scales in bytes; at least 2 * (k / bl).
/// @param[out] rhs_packed   Packed output of kai_get_rhs_packed_size_...(n, ...) bytes; not NULL.
/// @param[in]  extra_bytes  Must be 0.
/// @param[in]  params       Not NULL; lhs_zero_point must be 1, rhs_zero_point 8, scale_dt kai_dt_bf16.
void kai_run_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, const uint8_t* rhs,
    size_t rhs_stride, const float* bias, const void* scale, size_t scale_stride, void* rhs_packed, size_t extra_bytes,
    const struct kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0_params* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_KXN_QSI4C32PS1S0NRX4_QSU4C32S1S0_NEON_H
