//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// Interface of the GGUF Q6_K family matmul_clamp_f32_qsi8d256p_q6kp: f32 output of int8 activations
/// quantized per 256 values (f32 scale) times GGUF Q6_K weights, plus bias, clamped
/// (docs/matmul_gguf_kquants.md). The block length is fixed by the format (256), so the offset
/// getters take no bl.

#ifndef KAI_MATMUL_CLAMP_F32_QSI8D256P_Q6KP_INTERFACE_H
#define KAI_MATMUL_CLAMP_F32_QSI8D256P_Q6KP_INTERFACE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef size_t (*kai_matmul_clamp_f32_qsi8d256p_q6kp_get_step_func_t)(void);
typedef size_t (*kai_matmul_clamp_f32_qsi8d256p_q6kp_get_packed_offset_func_t)(size_t idx, size_t k);
typedef size_t (*kai_matmul_clamp_f32_qsi8d256p_q6kp_get_dst_offset_func_t)(size_t m_idx, size_t n_idx, size_t dst_stride);
typedef size_t (*kai_matmul_clamp_f32_qsi8d256p_q6kp_get_dst_size_func_t)(size_t m, size_t n);
typedef void (*kai_matmul_clamp_f32_qsi8d256p_q6kp_run_matmul_func_t)(
    size_t m, size_t n, size_t k, const void* lhs_p, const void* rhs_p, float* dst, size_t dst_stride_row,
    size_t dst_stride_col, float scalar_min, float scalar_max);

/// The functions of one kernel variant, in the member order of kai's other families.
struct kai_matmul_clamp_f32_qsi8d256p_q6kp_ukernel {
    kai_matmul_clamp_f32_qsi8d256p_q6kp_get_step_func_t get_m_step;
    kai_matmul_clamp_f32_qsi8d256p_q6kp_get_step_func_t get_n_step;
    kai_matmul_clamp_f32_qsi8d256p_q6kp_get_step_func_t get_mr;
    kai_matmul_clamp_f32_qsi8d256p_q6kp_get_step_func_t get_nr;
    kai_matmul_clamp_f32_qsi8d256p_q6kp_get_step_func_t get_kr;
    kai_matmul_clamp_f32_qsi8d256p_q6kp_get_step_func_t get_sr;
    kai_matmul_clamp_f32_qsi8d256p_q6kp_get_packed_offset_func_t get_lhs_packed_offset;
    kai_matmul_clamp_f32_qsi8d256p_q6kp_get_packed_offset_func_t get_rhs_packed_offset;
    kai_matmul_clamp_f32_qsi8d256p_q6kp_get_dst_offset_func_t get_dst_offset;
    kai_matmul_clamp_f32_qsi8d256p_q6kp_get_dst_size_func_t get_dst_size;
    kai_matmul_clamp_f32_qsi8d256p_q6kp_run_matmul_func_t run_matmul;
};

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_F32_QSI8D256P_Q6KP_INTERFACE_H
