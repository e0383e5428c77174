//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// kai_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa: dst = clamp(lhs x rhs) in f32 for f16 activations
/// and GGUF Q4_0 weights (docs/matmul_q4_0.md, docs/formats.md, "SME matmul recipes"), a GEMM in VL x 4VL tiles with widening f16 FMOPA
/// (FEAT_SME2). VL = SVL / 32, the f32 lanes of a streaming vector (16 at SVL 512).
/// LHS packed by kai_lhs_pack_f16pmrx2_f32_neon (mr = VL, kr = 4, sr = 2: f16, round to nearest even); RHS packed by
/// kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon (nr = 4VL, kr = 4, sr = 2), the same buffer as
/// kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot's (ggml pairs the two: GEMM and GEMV).
/// Arithmetic: each weight becomes the f16 w = f16((u - 8) * d) (nibble u, block scale d; rounded to nearest even,
/// as KleidiAI's kernel does), and dst[i][j] = clamp(sum_k a[i][k] * w[j][k]) accumulated in f32 by widening FMOPA
/// (the rounding inside each pair of products is the implementation's, so results are not bit-reproducible
/// across CPUs; the tests bound the error by 2 (k + 2) 2^-24 sum |a w|). Clamp: FCLAMP, maxNum(acc, scalar_min) then
/// minNum(., scalar_max), as KleidiAI's kernel: a NaN sum (only from NaN / infinite weight scales) gives the bound.
/// No bias.
///
/// Vector length: m_step, n_step, mr, nr and every offset depend on the SVL of the calling thread (read on each
/// call). A buffer packed at one SVL must not be used at another (query the getters and pack on the thread that
/// runs the kernel; a repack cache must be keyed on the SVL).
/// Calling convention: an ordinary (non-streaming, ZA-less) function; it enters and leaves streaming mode itself,
/// commits a pending lazy ZA save of the caller, keeps d8-d15 / x19-x28, never touches x18; must not be called in
/// streaming mode. Run-time dispatch (HWCAP2_SME2) is the caller's.

#ifndef KAI_MATMUL_CLAMP_F32_F16P1VLX2_QSI4C32P4VLX2_1VLX4VL_SME2_MOPA_H
#define KAI_MATMUL_CLAMP_F32_F16P1VLX2_QSI4C32P4VLX2_1VLX4VL_SME2_MOPA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the granularity of the row origin of a tile: VL (16 at SVL 512).
size_t kai_get_m_step_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(void);

/// Returns the granularity of the column origin of a tile: 4VL (64 at SVL 512).
size_t kai_get_n_step_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(void);

/// Returns the mr to pass to the LHS packer: VL.
size_t kai_get_mr_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(void);

/// Returns the nr to pass to the RHS packer: 4VL.
size_t kai_get_nr_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(void);

/// Returns the kr to pass to the packers: 4.
size_t kai_get_kr_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(void);

/// Returns the sr to pass to the packers: 2.
size_t kai_get_sr_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(void);

/// Returns the byte offset in the packed LHS of the block holding row m_idx: (m_idx / mr) * mr * k * 2.
/// @param[in] m_idx Row index; must be a multiple of mr (VL).
/// @param[in] k     Depth; must be a multiple of bl.
/// @param[in] bl    Block length; must be a non-zero multiple of 32 (checked in every build, as k % bl == 0).
size_t kai_get_lhs_packed_offset_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(size_t m_idx, size_t k, size_t bl);

/// Returns the byte offset in the packed RHS of the block holding column n_idx: (n_idx / nr) * nr * (k / bl) * (bl / 2 + 2).
/// @param[in] n_idx Column (output channel) index; must be a multiple of nr (4VL).
/// @param[in] k     Depth; must be a multiple of bl.
/// @param[in] bl    Block length; must be a non-zero multiple of 32 (checked in every build, as k % bl == 0).
size_t kai_get_rhs_packed_offset_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(size_t n_idx, size_t k, size_t bl);

/// Returns the byte offset of dst element (m_idx, n_idx): m_idx * dst_stride + n_idx * sizeof(float).
/// @param[in] m_idx      Row index; must be a multiple of m_step (VL).
/// @param[in] n_idx      Column index; must be a multiple of n_step (4VL).
/// @param[in] dst_stride Row stride of dst in bytes.
size_t kai_get_dst_offset_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(size_t m_idx, size_t n_idx, size_t dst_stride);

/// Returns the size in bytes of an m x n f32 dst: m * n * sizeof(float).
/// @param[in] m Rows.
/// @param[in] n Columns.
size_t kai_get_dst_size_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(size_t m, size_t n);

/// Computes the m x n tile dst = clamp(lhs x rhs). Writes exactly m x n floats; returns at once when m == 0 or
/// n == 0. Reads whole mr-row LHS blocks and nr-column RHS blocks (the packed sizes cover them). For a sub-tile,
/// pass the packed pointers advanced by the offset getters.
/// @param[in]  m              Rows of dst.
/// @param[in]  n              Columns of dst.
/// @param[in]  k              Depth; must be a multiple of bl.
/// @param[in]  bl             Block length; must be a non-zero multiple of 32 (checked in every build, as k % bl == 0).
/// @param[in]  lhs_packed     Packed LHS, packed at this thread's SVL; must not be NULL when m, n > 0.
/// @param[in]  rhs_packed     Packed RHS, packed at this thread's SVL; must not be NULL when m, n > 0.
/// @param[out] dst            Output, m rows of n floats; must not be NULL when m, n > 0.
/// @param[in]  dst_stride_row Row stride of dst in bytes; at least n * sizeof(float) when m > 1.
/// @param[in]  dst_stride_col Column stride of dst in bytes; must be sizeof(float).
/// @param[in]  scalar_min     Lower clamp bound (-FLT_MAX for none).
/// @param[in]  scalar_max     Upper clamp bound (FLT_MAX for none).
void kai_run_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(
    size_t m, size_t n, size_t k, size_t bl, const void* lhs_packed, const void* rhs_packed, float* dst,
    size_t dst_stride_row, size_t dst_stride_col, float scalar_min, float scalar_max);

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_F32_F16P1VLX2_QSI4C32P4VLX2_1VLX4VL_SME2_MOPA_H
