//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot: dst = clamp(lhs x rhs) in f32 for the GGUF Q4_0
/// family (docs/matmul_q4_0.md), a GEMV in 1 x 4VL tiles with streaming-SVE SDOT (FEAT_SME, no SME2: the twin of
/// ..._sme2_sdot for SME-only CPUs). VL = SVL / 32, the f32 lanes of a streaming vector (16 at SVL 512). kai also
/// accepts m > 1, row by row (KleidiAI asserts m == 1).
/// LHS packed by kai_lhs_quant_pack_qsi8d32p_f32_neon (mr = 1, kr = 4, sr = 2); RHS packed by
/// kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon (nr = 4VL, kr = 4, sr = 2: signed nibbles, f16 scales
/// pre-divided by 16).
/// Per output and block: acc = fmaf(f32(16 * sum_block(q * w)), lhs_scale * rhs_scale16, acc) with rhs_scale16 =
/// f16(d / 16) as packed, which equals fmaf(sum_block(q * w), lhs_scale * 16 * rhs_scale16, acc); then
/// max(acc, scalar_min), min(., scalar_max) (FMAX / FMIN: NaN propagates). Bit-identical to the NEON kernels of the
/// family on the same inputs whenever d / 16 is exact in f16 (|d| >= 2^-10); below that, as if each scale d were
/// 16 * f16(d / 16). No bias.
///
/// Vector length: nr, n_step and every RHS offset depend on the SVL of the calling thread (read on each call). A
/// buffer packed at one SVL must not be used at another (query the getters and pack on the thread that runs the
/// kernel; a repack cache must be keyed on the SVL).
/// Calling convention: an ordinary (non-streaming, ZA-less) function; it enters and leaves streaming mode itself,
/// commits a pending lazy ZA save of the caller, keeps d8-d15 / x19-x28, never touches x18; must not be called in
/// streaming mode. Run-time dispatch (HWCAP2_SME) is the caller's.

#ifndef KAI_MATMUL_CLAMP_F32_QSI8D32P1X4_QSI4C32P4VLX4_1X4VL_SME_DOT_H
#define KAI_MATMUL_CLAMP_F32_QSI8D32P1X4_QSI4C32P4VLX4_1X4VL_SME_DOT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the granularity of the row origin of a tile: 1.
size_t kai_get_m_step_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(void);

/// Returns the granularity of the column origin of a tile: 4VL (64 at SVL 512).
size_t kai_get_n_step_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(void);

/// Returns the mr to pass to the LHS packer: 1.
size_t kai_get_mr_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(void);

/// Returns the nr to pass to the RHS packer: 4VL (64 at SVL 512).
size_t kai_get_nr_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(void);

/// Returns the kr to pass to the packers: 4.
size_t kai_get_kr_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(void);

/// Returns the sr to pass to the packers: 2.
size_t kai_get_sr_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(void);

/// Returns the byte offset in the packed LHS of row m_idx: m_idx * (k / bl) * (bl + 2).
/// @param[in] m_idx Row index (mr = 1).
/// @param[in] k     Depth; must be a multiple of bl.
/// @param[in] bl    Block length; must be a non-zero multiple of 32 (checked in every build, as k % bl == 0).
size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(size_t m_idx, size_t k, size_t bl);

/// Returns the byte offset in the packed RHS of the block holding column n_idx: (n_idx / nr) * nr * (k / bl) * (bl / 2 + 2).
/// @param[in] n_idx Column (output channel) index; must be a multiple of nr (4VL).
/// @param[in] k     Depth; must be a multiple of bl.
/// @param[in] bl    Block length; must be a non-zero multiple of 32 (checked in every build, as k % bl == 0).
size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(size_t n_idx, size_t k, size_t bl);

/// Returns the byte offset of dst element (m_idx, n_idx): m_idx * dst_stride + n_idx * sizeof(float).
/// @param[in] m_idx      Row index (m_step = 1).
/// @param[in] n_idx      Column index; must be a multiple of n_step (4VL).
/// @param[in] dst_stride Row stride of dst in bytes.
size_t kai_get_dst_offset_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(size_t m_idx, size_t n_idx, size_t dst_stride);

/// Returns the size in bytes of an m x n f32 dst: m * n * sizeof(float).
/// @param[in] m Rows.
/// @param[in] n Columns.
size_t kai_get_dst_size_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(size_t m, size_t n);

/// Computes the m x n tile dst = clamp(lhs x rhs). Writes exactly m x n floats; returns at once when m == 0 or
/// n == 0. Reads whole nr-column blocks of the packed RHS (the packed size covers them). For a sub-tile, pass the
/// packed pointers advanced by the offset getters.
/// @param[in]  m              Rows of dst (1 for a GEMV; larger m is computed row by row).
/// @param[in]  n              Columns of dst.
/// @param[in]  k              Depth; must be a multiple of bl.
/// @param[in]  bl             Block length; must be a non-zero multiple of 32 (checked in every build, as k % bl == 0).
/// @param[in]  lhs_packed     Packed LHS (see above); must not be NULL when m, n > 0.
/// @param[in]  rhs_packed     Packed RHS, packed at this thread's SVL; must not be NULL when m, n > 0.
/// @param[out] dst            Output, m rows of n floats; must not be NULL when m, n > 0.
/// @param[in]  dst_stride_row Row stride of dst in bytes; at least n * sizeof(float) when m > 1.
/// @param[in]  dst_stride_col Column stride of dst in bytes; must be sizeof(float).
/// @param[in]  scalar_min     Lower clamp bound (-FLT_MAX for none).
/// @param[in]  scalar_max     Upper clamp bound (FLT_MAX for none).
void kai_run_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(
    size_t m, size_t n, size_t k, size_t bl, const void* lhs_packed, const void* rhs_packed, float* dst,
    size_t dst_stride_row, size_t dst_stride_col, float scalar_min, float scalar_max);

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_F32_QSI8D32P1X4_QSI4C32P4VLX4_1X4VL_SME_DOT_H
