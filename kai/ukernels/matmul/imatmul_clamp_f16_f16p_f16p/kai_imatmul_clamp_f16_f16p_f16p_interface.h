//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// Interface of the imatmul_clamp_f16_f16p_f16p family: f16 indirect GEMM, f16 output from an f16 LHS gathered
/// through a pointer table and packed by kai_lhs_imatmul_pack_x16p2vlx2_x16p_sme, and an f16 RHS with f16 bias
/// packed by kai_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme (SME/SME2 widening MOPA kernels). The depth is given as
/// k_chunk_count chunks of k_chunk_length values. Every kernel of the family provides these functions; see
/// docs/imatmul.md.

#ifndef KAI_IMATMUL_CLAMP_F16_F16P_F16P_INTERFACE_H
#define KAI_IMATMUL_CLAMP_F16_F16P_F16P_INTERFACE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the granularity of the row origin of a sub-tile (m_idx must be a multiple of it).
typedef size_t (*kai_imatmul_clamp_f16_f16p_f16p_get_m_step_func_t)(void);
/// Returns the granularity of the column origin of a sub-tile (n_idx must be a multiple of it).
typedef size_t (*kai_imatmul_clamp_f16_f16p_f16p_get_n_step_func_t)(void);
/// Returns the byte offset of LHS row m_idx in the packed LHS.
typedef size_t (*kai_imatmul_clamp_f16_f16p_f16p_get_lhs_packed_offset_func_t)(
    size_t m_idx, size_t k_chunk_count, size_t k_chunk_length);
/// Returns the byte offset of RHS column n_idx in the packed RHS.
typedef size_t (*kai_imatmul_clamp_f16_f16p_f16p_get_rhs_packed_offset_func_t)(
    size_t n_idx, size_t k_chunk_count, size_t k_chunk_length);
/// Returns the byte offset of DST element (m_idx, n_idx).
typedef size_t (*kai_imatmul_clamp_f16_f16p_f16p_get_dst_offset_func_t)(size_t m_idx, size_t n_idx, size_t dst_stride);
/// Returns the size in bytes of a dense m x n DST.
typedef size_t (*kai_imatmul_clamp_f16_f16p_f16p_get_dst_size_func_t)(size_t m, size_t n);
/// Computes an m x n tile of DST.
typedef void (*kai_imatmul_clamp_f16_f16p_f16p_run_imatmul_func_t)(
    size_t m, size_t n, size_t k_chunk_count, size_t k_chunk_length, const void* lhs_packed, const void* rhs_packed,
    void* dst, size_t dst_stride_row, float clamp_min, float clamp_max);

/// The functions of one kernel of the family, in KleidiAI's member order.
struct kai_imatmul_clamp_f16_f16p_f16p_ukernel {
    kai_imatmul_clamp_f16_f16p_f16p_get_m_step_func_t get_m_step;
    kai_imatmul_clamp_f16_f16p_f16p_get_n_step_func_t get_n_step;
    kai_imatmul_clamp_f16_f16p_f16p_get_lhs_packed_offset_func_t get_lhs_packed_offset;
    kai_imatmul_clamp_f16_f16p_f16p_get_rhs_packed_offset_func_t get_rhs_packed_offset;
    kai_imatmul_clamp_f16_f16p_f16p_get_dst_offset_func_t get_dst_offset;
    kai_imatmul_clamp_f16_f16p_f16p_get_dst_size_func_t get_dst_size;
    kai_imatmul_clamp_f16_f16p_f16p_run_imatmul_func_t run_imatmul;
};

#ifdef __cplusplus
}
#endif

#endif  // KAI_IMATMUL_CLAMP_F16_F16P_F16P_INTERFACE_H
