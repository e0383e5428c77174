//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// Interface of the f16 x GGUF Q4_0 family matmul_clamp_f32_f16p_qsi4c32p (docs/matmul_q4_0.md, docs/formats.md, "SME packed layouts"): f32
/// activations packed to f16, Q4_0 weights packed with their f16 block scales, f32 output. The members are those
/// of KleidiAI's struct, in its order; the block length bl is an argument of the offset getters and of run_matmul.

#ifndef KAI_MATMUL_CLAMP_F32_F16P_QSI4C32P_INTERFACE_H
#define KAI_MATMUL_CLAMP_F32_F16P_QSI4C32P_INTERFACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef size_t (*kai_matmul_clamp_f32_f16p_qsi4c32p_get_m_step_func_t)(void);
typedef size_t (*kai_matmul_clamp_f32_f16p_qsi4c32p_get_n_step_func_t)(void);
typedef size_t (*kai_matmul_clamp_f32_f16p_qsi4c32p_get_mr_func_t)(void);
typedef size_t (*kai_matmul_clamp_f32_f16p_qsi4c32p_get_nr_func_t)(void);
typedef size_t (*kai_matmul_clamp_f32_f16p_qsi4c32p_get_kr_func_t)(void);
typedef size_t (*kai_matmul_clamp_f32_f16p_qsi4c32p_get_sr_func_t)(void);
typedef size_t (*kai_matmul_clamp_f32_f16p_qsi4c32p_get_lhs_packed_offset_func_t)(size_t m_idx, size_t k, size_t bl);
typedef size_t (*kai_matmul_clamp_f32_f16p_qsi4c32p_get_rhs_packed_offset_func_t)(size_t n_idx, size_t k, size_t bl);
typedef size_t (*kai_matmul_clamp_f32_f16p_qsi4c32p_get_dst_offset_func_t)(size_t m_idx, size_t n_idx, size_t dst_stride);
typedef size_t (*kai_matmul_clamp_f32_f16p_qsi4c32p_get_dst_size_func_t)(size_t m, size_t n);
typedef void (*kai_matmul_clamp_f32_f16p_qsi4c32p_run_matmul_func_t)(
    size_t m, size_t n, size_t k, size_t bl, const void* lhs_p, const void* rhs_p, float* dst, size_t dst_stride_row,
    size_t dst_stride_col, float scalar_min, float scalar_max);

/// The members of every kernel of the family, in KleidiAI's order.
struct kai_matmul_clamp_f32_f16p_qsi4c32p_ukernel {
    kai_matmul_clamp_f32_f16p_qsi4c32p_get_m_step_func_t get_m_step;
    kai_matmul_clamp_f32_f16p_qsi4c32p_get_n_step_func_t get_n_step;
    kai_matmul_clamp_f32_f16p_qsi4c32p_get_mr_func_t get_mr;
    kai_matmul_clamp_f32_f16p_qsi4c32p_get_nr_func_t get_nr;
    kai_matmul_clamp_f32_f16p_qsi4c32p_get_kr_func_t get_kr;
    kai_matmul_clamp_f32_f16p_qsi4c32p_get_sr_func_t get_sr;
    kai_matmul_clamp_f32_f16p_qsi4c32p_get_lhs_packed_offset_func_t get_lhs_packed_offset;
    kai_matmul_clamp_f32_f16p_qsi4c32p_get_rhs_packed_offset_func_t get_rhs_packed_offset;
    kai_matmul_clamp_f32_f16p_qsi4c32p_get_dst_offset_func_t get_dst_offset;
    kai_matmul_clamp_f32_f16p_qsi4c32p_get_dst_size_func_t get_dst_size;
    kai_matmul_clamp_f32_f16p_qsi4c32p_run_matmul_func_t run_matmul;
};

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_F32_F16P_QSI4C32P_INTERFACE_H
