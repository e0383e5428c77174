//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// The argument and interface structs of KleidiAI's generic matmul micro-kernel API (v1.30.0): one struct
/// kai_matmul_uker_api per kernel, filled by a function of the kernel's name (kai/ukernels/matmul/kai_matmul.h),
/// whose run() takes every operand in one kai_matmul_uker_args. Same struct names, members, member order and
/// types as KleidiAI's, so that code written against them compiles and passes the same bytes. See
/// docs/integration.md, "Generic API headers".

#ifndef KAI_UKERNELS_MATMUL_KAI_MATMUL_TYPES_H
#define KAI_UKERNELS_MATMUL_KAI_MATMUL_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Data-format parameters of a kernel: the quantisation block length (0 or ignored where a kernel has none).
struct kai_matmul_uker_format_config {
    size_t bl;
};

/// A kernel's configuration, passed to every member of kai_matmul_uker_api.
struct kai_matmul_uker_config {
    struct kai_matmul_uker_format_config format;
};

/// Sizes, steps or coordinates in M, N and K.
struct kai_matmul_uker_dim_args {
    size_t m;
    size_t n;
    size_t k;
};

/// Sizes or coordinates of the LHS (M x K).
struct kai_matmul_uker_lhs_dim_args {
    size_t m;
    size_t k;
};

/// Byte stride of the LHS from one row to the next.
struct kai_matmul_uker_lhs_stride_args {
    size_t m;
};

/// The LHS operand: its (packed or plain) buffer and stride.
struct kai_matmul_uker_lhs_args {
    const void* ptr;
    struct kai_matmul_uker_lhs_stride_args stride;
};

/// Sizes or coordinates of the RHS (N x K).
struct kai_matmul_uker_rhs_dim_args {
    size_t n;
    size_t k;
};

/// Byte stride of the RHS from one column block to the next.
struct kai_matmul_uker_rhs_stride_args {
    size_t n;
};

/// The RHS operand: its packed buffer and stride.
struct kai_matmul_uker_rhs_args {
    const void* ptr;
    struct kai_matmul_uker_rhs_stride_args stride;
};

/// Sizes or coordinates of the destination (M x N).
struct kai_matmul_uker_dst_dim_args {
    size_t m;
    size_t n;
};

/// Byte stride of the destination from one row to the next.
struct kai_matmul_uker_dst_stride_args {
    size_t m;
};

/// The destination operand: its buffer and stride.
struct kai_matmul_uker_dst_args {
    void* ptr;
    struct kai_matmul_uker_dst_stride_args stride;
};

/// One bias added to every accumulator.
struct kai_matmul_uker_acc_bias_global_args {
    const void* ptr;
};

/// One accumulator bias per row (M values).
struct kai_matmul_uker_acc_bias_m_args {
    const void* ptr;
};

/// One accumulator bias per column (N values).
struct kai_matmul_uker_acc_bias_n_args {
    const void* ptr;
};

/// One bias applied after scaling, for the whole output.
struct kai_matmul_uker_scale_bias_global_args {
    const void* ptr;
};

/// One bias applied after scaling, per row.
struct kai_matmul_uker_scale_bias_m_args {
    const void* ptr;
};

/// One bias applied after scaling, per column.
struct kai_matmul_uker_scale_bias_n_args {
    const void* ptr;
};

/// Every bias a kernel may read; each kernel documents the ones it uses (NULL for the others).
struct kai_matmul_uker_bias_args {
    struct kai_matmul_uker_acc_bias_global_args acc_bias_global;
    struct kai_matmul_uker_acc_bias_m_args acc_bias_m;
    struct kai_matmul_uker_acc_bias_n_args acc_bias_n;
    struct kai_matmul_uker_scale_bias_global_args scale_bias_global;
    struct kai_matmul_uker_scale_bias_m_args scale_bias_m;
    struct kai_matmul_uker_scale_bias_n_args scale_bias_n;
};

/// One scale for every accumulator.
struct kai_matmul_uker_acc_scale_global_args {
    const void* ptr;
};

/// One accumulator scale per row.
struct kai_matmul_uker_acc_scale_m_args {
    const void* ptr;
};

/// One accumulator scale per column.
struct kai_matmul_uker_acc_scale_n_args {
    const void* ptr;
};

/// Every scale a kernel may read; each kernel documents the ones it uses (NULL for the others).
struct kai_matmul_uker_scale_args {
    struct kai_matmul_uker_acc_scale_global_args acc_scale_global;
    struct kai_matmul_uker_acc_scale_m_args acc_scale_m;
    struct kai_matmul_uker_acc_scale_n_args acc_scale_n;
};

/// The clamp bounds, each pointing to one value of the output type; read when
/// KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP is set.
struct kai_matmul_uker_clamp_args {
    const void* min_ptr;
    const void* max_ptr;
};

/// The activation fused into the output: a clamp.
struct kai_matmul_uker_activation_args {
    struct kai_matmul_uker_clamp_args clamp;
};

/// Every operand of a call.
struct kai_matmul_uker_operand_args {
    struct kai_matmul_uker_dst_args dst;
    struct kai_matmul_uker_lhs_args lhs;
    struct kai_matmul_uker_rhs_args rhs;
    struct kai_matmul_uker_bias_args bias;
    struct kai_matmul_uker_scale_args scale;
};

/// The arguments of run(): flags (KAI_MATMUL_UKER_FLAGS_ARGS_*), the shape of the (sub-)problem, the operands
/// and the activation.
struct kai_matmul_uker_args {
    uint64_t flags;
    struct kai_matmul_uker_dim_args shape;
    struct kai_matmul_uker_operand_args operand;
    struct kai_matmul_uker_activation_args activation;
};

/// Flags of kai_matmul_uker_args.
enum kai_matmul_uker_flags_args {
    KAI_MATMUL_UKER_FLAGS_ARGS_CLAMP = 0x10000,  ///< clamp the output to activation.clamp's bounds
};

/// A kernel's functions. get_step() gives, per dimension, the multiple a sub-problem's start must be (0: the
/// dimension must not be split); the stride getters give the byte strides of buffers of a shape, the offset
/// getters the byte offset of a coordinate in a buffer of a stride, get_dst_size() the bytes of an output.
struct kai_matmul_uker_api {
    void (*run)(const struct kai_matmul_uker_config* config, const struct kai_matmul_uker_args* args);
    struct kai_matmul_uker_dim_args (*get_step)(const struct kai_matmul_uker_config* config);
    struct kai_matmul_uker_lhs_stride_args (*get_lhs_stride)(
        const struct kai_matmul_uker_config* config, const struct kai_matmul_uker_lhs_dim_args* shape);
    size_t (*get_lhs_offset)(
        const struct kai_matmul_uker_config* config, const struct kai_matmul_uker_lhs_dim_args* index,
        const struct kai_matmul_uker_lhs_stride_args* stride);
    struct kai_matmul_uker_rhs_stride_args (*get_rhs_stride)(
        const struct kai_matmul_uker_config* config, const struct kai_matmul_uker_rhs_dim_args* shape);
    size_t (*get_rhs_offset)(
        const struct kai_matmul_uker_config* config, const struct kai_matmul_uker_rhs_dim_args* index,
        const struct kai_matmul_uker_rhs_stride_args* stride);
    struct kai_matmul_uker_dst_stride_args (*get_dst_stride)(
        const struct kai_matmul_uker_config* config, const struct kai_matmul_uker_dst_dim_args* shape);
    size_t (*get_dst_offset)(
        const struct kai_matmul_uker_config* config, const struct kai_matmul_uker_dst_dim_args* index,
        const struct kai_matmul_uker_dst_stride_args* stride);
    size_t (*get_dst_size)(
        const struct kai_matmul_uker_config* config, const struct kai_matmul_uker_dst_dim_args* shape,
        const struct kai_matmul_uker_dst_stride_args* stride);
};

#ifdef __cplusplus
}
#endif

#endif  // KAI_UKERNELS_MATMUL_KAI_MATMUL_TYPES_H
