//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// RHS packer of the GGUF Q4_0 family (docs/matmul_q4_0.md): takes N rows of Q4_0-style blocks
/// (per block of bl values: an f16 scale, then bl/2 bytes whose byte j holds element j in the low
/// nibble and element j + bl/2 in the high nibble, unsigned with offset 8; for bl = 32 exactly a
/// GGUF block_q4_0) and interleaves nr rows. Portable C, with an AArch64 NEON path that writes
/// identical bytes.

#ifndef KAI_RHS_PACK_NXK_QSI4C32PSCALEF16_QSU4C32S16S0_H
#define KAI_RHS_PACK_NXK_QSI4C32PSCALEF16_QSU4C32S16S0_H

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the bytes of one packed block of nr rows: nr * (k / bl) * (bl / 2 + 2).
/// @param[in] k  Depth; must be a multiple of bl and of kr.
/// @param[in] nr Rows (output channels) per packed block; must be non-zero.
/// @param[in] kr K values per kernel step; must be even, at most 16 and divide bl.
/// @param[in] bl Block length; must be a non-zero multiple of 32 (checked in every build, as k % bl == 0).
size_t kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(size_t k, size_t nr, size_t kr, size_t bl);

/// Returns the byte offset of row n_idx in the unpacked RHS: n_idx * rhs_stride, where the row
/// stride of Q4_0 rows is (k / bl) * (bl / 2 + 2).
/// @param[in] n_idx      Row (output channel) index.
/// @param[in] rhs_stride Row stride in bytes.
size_t kai_get_rhs_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(size_t n_idx, size_t rhs_stride);

/// Returns the byte offset of the packed block holding row n_idx: (n_idx / nr) * packed stride.
/// @param[in] n_idx Row index; must be a multiple of nr.
/// @param[in] k     Depth, as for the stride (kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0).
/// @param[in] nr    Rows per packed block, as for the stride.
/// @param[in] kr    K values per kernel step, as for the stride.
/// @param[in] bl    Block length, as for the stride.
size_t kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(
    size_t n_idx, size_t k, size_t nr, size_t kr, size_t bl);

/// Returns the size in bytes of the packed RHS: ceil(n / nr) * packed stride.
/// Aborts in every build when the size does not fit in size_t.
/// @param[in] n  Number of rows (output channels).
/// @param[in] k  Depth, as for the stride (kai_get_rhs_packed_stride_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0).
/// @param[in] nr Rows per packed block, as for the stride.
/// @param[in] kr K values per kernel step, as for the stride.
/// @param[in] bl Block length, as for the stride.
size_t kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(size_t n, size_t k, size_t nr, size_t kr, size_t bl);

/// Packs n Q4_0 rows. Per block of nr rows and quantisation block: the nr f16 scales copied
/// verbatim, then for each segment of kr/2 input bytes, the segment of each row in turn with
/// every byte XOR 0x88 (unsigned nibble u becomes the int4 u - 8). Lanes past n repeat row n - 1.
/// Every byte of the packed buffer is written.
/// @param[in]  num_groups  Must be 1.
/// @param[in]  n           Number of rows (output channels).
/// @param[in]  k           Depth; must be a multiple of bl and of kr.
/// @param[in]  nr          Rows per packed block; must be non-zero.
/// @param[in]  kr          K values per kernel step; must be even, at most 16 and divide bl.
/// @param[in]  sr          Must be 2.
/// @param[in]  bl          Block length; must be a non-zero multiple of 32 (checked in every build, as k % bl == 0).
/// @param[in]  rhs         n rows of (k / bl) blocks of bl / 2 + 2 bytes; must not be NULL when n > 0.
/// @param[in]  bias        Must be NULL: this family takes no bias.
/// @param[out] rhs_packed  Packed RHS; must not be NULL when n > 0.
/// @param[in]  extra_bytes Must be 0.
/// @param[in]  params      Must not be NULL; lhs_zero_point must be 1 and rhs_zero_point 8.
void kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(
    size_t num_groups, size_t n, size_t k, size_t nr, size_t kr, size_t sr, size_t bl, const uint8_t* rhs,
    const float* bias, void* rhs_packed, size_t extra_bytes, const struct kai_rhs_pack_qs4cxs1s0_param* params);

#ifdef __cplusplus
}
#endif

#endif  // KAI_RHS_PACK_NXK_QSI4C32PSCALEF16_QSU4C32S16S0_H
