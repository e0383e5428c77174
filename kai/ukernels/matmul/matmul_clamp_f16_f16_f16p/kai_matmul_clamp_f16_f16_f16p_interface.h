//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// Interface of the matmul_clamp_f16_f16_f16p family: f16 output from an unpacked f16 LHS row and an f16 RHS with
/// f16 bias packed by kai_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme or kai_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme (SME/SME2
/// GEMVs). There is no get_mr: the LHS is not packed. As in KleidiAI, the member reading the LHS offset is named
/// get_lhs_packed_offset although the LHS is not packed. See docs/matmul_sme.md.

#ifndef KAI_MATMUL_CLAMP_F16_F16_F16P_INTERFACE_H
#define KAI_MATMUL_CLAMP_F16_F16_F16P_INTERFACE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the granularity of the row origin of a sub-tile.
typedef size_t (*kai_matmul_clamp_f16_f16_f16p_get_m_step_func_t)(void);
/// Returns the granularity of the column origin of a sub-tile.
typedef size_t (*kai_matmul_clamp_f16_f16_f16p_get_n_step_func_t)(void);
/// Returns the nr to pass to the RHS packer.
typedef size_t (*kai_matmul_clamp_f16_f16_f16p_get_nr_func_t)(void);
/// Returns the kr to pass to the RHS packer.
typedef size_t (*kai_matmul_clamp_f16_f16_f16p_get_kr_func_t)(void);
/// Returns the sr to pass to the RHS packer.
typedef size_t (*kai_matmul_clamp_f16_f16_f16p_get_sr_func_t)(void);
/// Returns the byte offset of LHS row m_idx in the unpacked LHS.
typedef size_t (*kai_matmul_clamp_f16_f16_f16p_get_lhs_offset_func_t)(size_t m_idx, size_t k);
/// Returns the byte offset of RHS column n_idx in the packed RHS.
typedef size_t (*kai_matmul_clamp_f16_f16_f16p_get_rhs_packed_offset_func_t)(size_t n_idx, size_t k);
/// Returns the byte offset of DST element (m_idx, n_idx).
typedef size_t (*kai_matmul_clamp_f16_f16_f16p_get_dst_offset_func_t)(size_t m_idx, size_t n_idx, size_t dst_stride);
/// Returns the size in bytes of a dense m x n DST.
typedef size_t (*kai_matmul_clamp_f16_f16_f16p_get_dst_size_func_t)(size_t m, size_t n);
/// Computes an m x n tile of DST.
typedef void (*kai_matmul_clamp_f16_f16_f16p_run_matmul_func_t)(
    size_t m, size_t n, size_t k, const void* lhs, size_t lhs_stride, const void* rhs_packed, void* dst,
    size_t dst_stride_row, size_t dst_stride_col, float scalar_min, float scalar_max);

/// The functions of one kernel of the family, in KleidiAI's member order.
struct kai_matmul_clamp_f16_f16_f16p_ukernel {
    kai_matmul_clamp_f16_f16_f16p_get_m_step_func_t get_m_step;
    kai_matmul_clamp_f16_f16_f16p_get_n_step_func_t get_n_step;
    kai_matmul_clamp_f16_f16_f16p_get_nr_func_t get_nr;
    kai_matmul_clamp_f16_f16_f16p_get_kr_func_t get_kr;
    kai_matmul_clamp_f16_f16_f16p_get_sr_func_t get_sr;
    kai_matmul_clamp_f16_f16_f16p_get_lhs_offset_func_t get_lhs_packed_offset;
    kai_matmul_clamp_f16_f16_f16p_get_rhs_packed_offset_func_t get_rhs_packed_offset;
    kai_matmul_clamp_f16_f16_f16p_get_dst_offset_func_t get_dst_offset;
    kai_matmul_clamp_f16_f16_f16p_get_dst_size_func_t get_dst_size;
    kai_matmul_clamp_f16_f16_f16p_run_matmul_func_t run_matmul;
};

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_F16_F16_F16P_INTERFACE_H
