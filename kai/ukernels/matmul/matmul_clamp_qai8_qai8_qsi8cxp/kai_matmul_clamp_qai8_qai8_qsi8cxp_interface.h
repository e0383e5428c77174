//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// Interface of the static int8 GEMV kernels with an unpacked LHS row (int8 in, int8 out, requantized; KleidiAI's
/// matmul_clamp_qai8_qai8_qsi8cxp family): function-pointer types and the ukernel struct, names and member order
/// as KleidiAI (whose struct of this header is spelled kai_matmul_clamp_qai8_qai8p_qsi8cxp_ukernel). See
/// docs/matmul_int8_static.md.

#ifndef KAI_MATMUL_CLAMP_QAI8_QAI8_QSI8CXP_INTERFACE_H
#define KAI_MATMUL_CLAMP_QAI8_QAI8_QSI8CXP_INTERFACE_H

#include <stddef.h>

#include "kai/kai_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef size_t (*kai_matmul_clamp_qai8_qai8_qsi8cxp_get_m_step_func_t)(void);
typedef size_t (*kai_matmul_clamp_qai8_qai8_qsi8cxp_get_n_step_func_t)(void);
typedef size_t (*kai_matmul_clamp_qai8_qai8_qsi8cxp_get_nr_func_t)(void);
typedef size_t (*kai_matmul_clamp_qai8_qai8_qsi8cxp_get_kr_func_t)(void);
typedef size_t (*kai_matmul_clamp_qai8_qai8_qsi8cxp_get_sr_func_t)(void);
typedef size_t (*kai_matmul_clamp_qai8_qai8_qsi8cxp_get_lhs_offset_func_t)(size_t m_idx, size_t k);
typedef size_t (*kai_matmul_clamp_qai8_qai8_qsi8cxp_get_rhs_packed_offset_func_t)(size_t n_idx, size_t k);
typedef size_t (*kai_matmul_clamp_qai8_qai8_qsi8cxp_get_dst_offset_func_t)(
    size_t m_idx, size_t n_idx, size_t dst_stride);
typedef size_t (*kai_matmul_clamp_qai8_qai8_qsi8cxp_get_dst_size_func_t)(size_t m, size_t n);
typedef void (*kai_matmul_clamp_qai8_qai8_qsi8cxp_run_matmul_func_t)(
    size_t m, size_t n, size_t k, const void* lhs, const void* rhs_packed, void* dst, size_t dst_stride_row,
    size_t dst_stride_col, const struct kai_matmul_requantize32_params* params);

/// The interface every kernel of the family fills (KleidiAI's name, with "qai8p").
struct kai_matmul_clamp_qai8_qai8p_qsi8cxp_ukernel {
    kai_matmul_clamp_qai8_qai8_qsi8cxp_get_m_step_func_t get_m_step;
    kai_matmul_clamp_qai8_qai8_qsi8cxp_get_n_step_func_t get_n_step;
    kai_matmul_clamp_qai8_qai8_qsi8cxp_get_nr_func_t get_nr;
    kai_matmul_clamp_qai8_qai8_qsi8cxp_get_kr_func_t get_kr;
    kai_matmul_clamp_qai8_qai8_qsi8cxp_get_sr_func_t get_sr;
    kai_matmul_clamp_qai8_qai8_qsi8cxp_get_lhs_offset_func_t get_lhs_offset;
    kai_matmul_clamp_qai8_qai8_qsi8cxp_get_rhs_packed_offset_func_t get_rhs_packed_offset;
    kai_matmul_clamp_qai8_qai8_qsi8cxp_get_dst_offset_func_t get_dst_offset;
    kai_matmul_clamp_qai8_qai8_qsi8cxp_get_dst_size_func_t get_dst_size;
    kai_matmul_clamp_qai8_qai8_qsi8cxp_run_matmul_func_t run_matmul;
};

#ifdef __cplusplus
}
#endif

#endif  // KAI_MATMUL_CLAMP_QAI8_QAI8_QSI8CXP_INTERFACE_H
