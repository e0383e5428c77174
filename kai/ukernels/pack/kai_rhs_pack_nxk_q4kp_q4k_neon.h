//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_pack_nxk_q4kp_q4k_neon: packs GGUF Q4_K weights, as they sit in the file (n rows of
/// k / 256 blocks block_q4_K of 144 bytes), with an f32 bias, for the kernels
/// kai_matmul_clamp_f32_qsi8d256p*_q4kp4x8_*. The packed weights are the GGUF weights exactly: the
/// nibbles are moved, not changed; the 6-bit scales and mins are unpacked to int16; d and dmin are
/// widened from f16 to f32. Layout in docs/matmul_gguf_kquants.md. AArch64 NEON.
///
/// Memory: reads n rows of k / 256 * 144 bytes at rhs + i * rhs_stride and n floats of bias; writes
/// ceil(n / nr) packed blocks of 4 columns (padding columns are zero).

#ifndef KAI_RHS_PACK_NXK_Q4KP_Q4K_NEON_H
#define KAI_RHS_PACK_NXK_Q4KP_Q4K_NEON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the column granularity of the packed RHS: nr.
/// @param[in] nr Columns per packed block.
size_t kai_get_n_step_rhs_pack_nxk_q4kp_q4k_neon(size_t nr);

/// Returns the byte offset of row n_idx in the GGUF input: n_idx * rhs_stride.
/// @param[in] n_idx      Row (output channel) index.
/// @param[in] rhs_stride Bytes per row (k / 256 * 144 for a tightly packed GGUF tensor).
size_t kai_get_rhs_offset_rhs_pack_nxk_q4kp_q4k_neon(size_t n_idx, size_t rhs_stride);

/// Returns the bytes of one packed block of nr columns: nr * (k / 256 * 168 + 4).
/// @param[in] k  Depth; must be a non-zero multiple of 256.
/// @param[in] nr Columns per packed block; must be 4.
/// @param[in] kr K values per LHS step of the kernel; must be 4 or 8 (the layout is the same).
/// @param[in] sr Split of kr; must be 1.
size_t kai_get_rhs_packed_stride_rhs_pack_nxk_q4kp_q4k_neon(size_t k, size_t nr, size_t kr, size_t sr);

/// Returns the byte offset of the packed block holding column n_idx: (n_idx / nr) * stride.
/// @param[in] n_idx Column index; must be a multiple of nr. Other parameters as the stride getter.
size_t kai_get_rhs_packed_offset_rhs_pack_nxk_q4kp_q4k_neon(size_t n_idx, size_t k, size_t nr, size_t kr, size_t sr);

/// Returns the size in bytes of the packed RHS: ceil(n / nr) * stride.
/// @param[in] n Columns. Other parameters as the stride getter.
size_t kai_get_rhs_packed_size_rhs_pack_nxk_q4kp_q4k_neon(size_t n, size_t k, size_t nr, size_t kr, size_t sr);

/// Packs n columns. Per block of 4 columns and super-block b (at b * 672): f32 d[4], f32 dmin[4],
/// int16 sc[8][4], int16 m[8][4] (sub-block j's scale and min of get_scale_min_k4, column c at
/// [j][c]), then for each 64-value chunk h, 8 registers of 16 bytes (step s = 0..3, column pair
/// p = 0..1): the 8 GGUF bytes qs[32h + 8s .. 32h + 8s + 7] of column 2p, then those of column 2p + 1
/// (low nibbles: sub-block 2h, high nibbles: sub-block 2h + 1). After all super-blocks: f32 bias[4].
/// @param[in]  n          Columns (GGUF rows) to pack (returns at once when 0).
/// @param[in]  k          Depth; must be a non-zero multiple of 256.
/// @param[in]  nr         Must be 4.
/// @param[in]  kr         Must be 4 or 8 (the layout is the same).
/// @param[in]  sr         Must be 1.
/// @param[in]  rhs        GGUF Q4_K rows; must not be NULL when n > 0.
/// @param[in]  rhs_stride Bytes per row; at least k / 256 * 144 when n > 1.
/// @param[in]  bias       n f32 biases, or NULL for zeros.
/// @param[out] rhs_packed Packed output (size from the size getter); must not be NULL when n > 0.
void kai_run_rhs_pack_nxk_q4kp_q4k_neon(
    size_t n, size_t k, size_t nr, size_t kr, size_t sr, const void* rhs, size_t rhs_stride, const float* bias,
    void* rhs_packed);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_NXK_Q4KP_Q4K_NEON_H
