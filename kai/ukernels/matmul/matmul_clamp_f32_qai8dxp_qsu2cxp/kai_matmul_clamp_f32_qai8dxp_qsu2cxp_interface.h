//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// Interface of the matmul_clamp_f32_qai8dxp_qsu2cxp family (dynamic int8 activations x 2-bit
/// per-channel weights through a 4-entry look-up table, f32 output): one function-pointer type per function and the ukernel
/// struct, members in KleidiAI's order.

#ifndef KAI_MATMUL_CLAMP_F32_QAI8DXP_QSU2CXP_INTERFACE_H
#define KAI_MATMUL_CLAMP_F32_QAI8DXP_QSU2CXP_INTERFACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef size_t (*kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_m_step_func_t)(void);
typedef size_t (*kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_n_step_func_t)(void);
typedef size_t (*kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_mr_func_t)(void);
typedef size_t (*kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_nr_func_t)(void);
typedef size_t (*kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_kr_func_t)(void);
typedef size_t (*kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_sr_func_t)(void);
typedef size_t (*kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_lhs_packed_offset_func_t)(size_t m_idx, size_t k);
typedef size_t (*kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_rhs_packed_offset_func_t)(size_t n_idx, size_t k);
typedef size_t (*kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_dst_offset_func_t)(
    size_t m_idx, size_t n_idx, size_t dst_stride);
typedef size_t (*kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_dst_size_func_t)(size_t m, size_t n);
typedef void (*kai_matmul_clamp_f32_qai8dxp_qsu2cxp_run_matmul_func_t)(
    size_t m, size_t n, size_t k, const void* lhs_p, const void* rhs_p, float* dst, size_t dst_stride_row,
    size_t dst_stride_col, float scalar_min, float scalar_max, const int32_t* lut);

/// The functions of one variant of the family, in KleidiAI's member order.
struct kai_matmul_clamp_f32_qai8dxp_qsu2cxp_ukernel {
    kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_m_step_func_t get_m_step;
    kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_n_step_func_t get_n_step;
    kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_mr_func_t get_mr;
    kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_nr_func_t get_nr;
    kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_kr_func_t get_kr;
    kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_sr_func_t get_sr;
    kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_lhs_packed_offset_func_t get_lhs_packed_offset;
    kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_rhs_packed_offset_func_t get_rhs_packed_offset;
    kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_dst_offset_func_t get_dst_offset;
    kai_matmul_clamp_f32_qai8dxp_qsu2cxp_get_dst_size_func_t get_dst_size;
    kai_matmul_clamp_f32_qai8dxp_qsu2cxp_run_matmul_func_t run_matmul;
};

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_F32_QAI8DXP_QSU2CXP_INTERFACE_H
