//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon: packs GGUF Q4_0-style rows (per block of bl values: an f16 scale, then bl / 2 bytes,
/// byte j holding element j in its low nibble and element j + bl / 2 in its high nibble) into the
/// qsi4c32ps1s0scalef16 layout that KleidiAI's SME2 kernels (kai_matmul_clamp_f32_qsi8d32p1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa,
/// ..._qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot) read, with all the scales after
/// the data. No NEON kernel reads this buffer. See docs/matmul_q4_0.md. AArch64 NEON.
///
/// Memory: reads, per row n < N, bytes [n * rhs_stride, (n + 1) * rhs_stride) of rhs with
/// rhs_stride = (k / bl) * (bl / 2 + 2); writes exactly the packed size, every byte of it (KleidiAI's
/// packer leaves the lanes past n unwritten; kai writes them as zeros).

#ifndef KAI_RHS_PACK_NXK_QSI4C32PS1S0SCALEF16_QSU4C32S16S0_NEON_H
#define KAI_RHS_PACK_NXK_QSI4C32PS1S0SCALEF16_QSU4C32S16S0_NEON_H

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the bytes of one packed block of nr rows: nr * (k / bl) * (bl / 2 + 2).
/// @param[in] k  Depth; must be a multiple of bl.
/// @param[in] nr Rows (output channels) per packed block; must be non-zero.
/// @param[in] kr K values per kernel step (the size does not depend on it; the run needs 4).
/// @param[in] bl Block length; must be a non-zero multiple of 32.
size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(size_t k, size_t nr, size_t kr, size_t bl);

/// Returns the byte offset of row n_idx in the unpacked RHS: n_idx * rhs_stride, where the row
/// stride of Q4_0 rows is (k / bl) * (bl / 2 + 2).
/// @param[in] n_idx      Row (output channel) index.
/// @param[in] rhs_stride Row stride in bytes.
size_t kai_get_rhs_offset_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(size_t n_idx, size_t rhs_stride);

/// Returns the byte offset of the packed block holding row n_idx: (n_idx / nr) * packed stride.
/// @param[in] n_idx Row index; must be a multiple of nr.
/// Other parameters as kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon.
size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(size_t n_idx, size_t k, size_t nr, size_t kr, size_t bl);

/// Returns the size in bytes of the packed RHS: ceil(n / nr) * packed stride.
/// Parameters as kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon.
size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(size_t n, size_t k, size_t nr, size_t kr, size_t bl);

/// Packs n Q4_0 rows into blocks of nr rows, nb = k / bl. Per block of nr rows: first the data,
/// for each block b, each group g = 0 .. bl / 4 - 1 of 4 values and each lane i, 2 bytes at
/// ((b * bl / 4 + g) * nr + i) * 2: byte 0 = elements (4g low nibble, 4g + 1 high nibble) of block b,
/// byte 1 = (4g + 2, 4g + 3), the nibbles left unsigned (the kernels subtract 8);
/// then all the f16 scales: (lane i, block b) at nr * nb * bl / 2 + (b * nr + i) * 2, copied verbatim.
/// Lanes past n in the last block are zero (data and scales). Any row range can be packed by
/// pointing rhs and rhs_packed at its first row (a multiple of nr).
/// @param[in]  num_groups  Must be 1.
/// @param[in]  n           Number of rows (output channels).
/// @param[in]  k           Depth; must be a multiple of bl and of kr.
/// @param[in]  nr          Rows per packed block; must be non-zero.
/// @param[in]  kr          K values per kernel step; must be 4.
/// @param[in]  sr          Must be 2.
/// @param[in]  bl          Block length; must be a non-zero multiple of 32, at most 256.
/// @param[in]  rhs         n rows of (k / bl) blocks of bl / 2 + 2 bytes; must not be NULL when n > 0.
/// @param[in]  bias        Must be NULL: this family takes no bias.
/// @param[out] rhs_packed  Packed RHS; must not be NULL when n > 0.
/// @param[in]  extra_bytes Must be 0.
/// @param[in]  params      Must not be NULL; lhs_zero_point must be 1 and rhs_zero_point 8.
void kai_run_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, const uint8_t* rhs,
    const float* bias, void* rhs_packed, size_t extra_bytes, const struct kai_rhs_pack_qs4cxs1s0_param* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_NXK_QSI4C32PS1S0SCALEF16_QSU4C32S16S0_NEON_H
