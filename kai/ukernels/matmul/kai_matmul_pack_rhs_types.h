//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// The argument and interface structs of KleidiAI's generic RHS packer API (v1.30.0): one struct
/// kai_matmul_pack_rhs_uker_api per packer (kai/ukernels/matmul/kai_matmul_pack_rhs.h). Same struct names,
/// members, member order and types as KleidiAI's. See docs/integration.md, "Generic API headers".

#ifndef KAI_UKERNELS_MATMUL_KAI_MATMUL_PACK_RHS_TYPES_H
#define KAI_UKERNELS_MATMUL_KAI_MATMUL_PACK_RHS_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Packed-format parameters: columns per block, K values per chunk, the interleave and the block length.
struct kai_matmul_pack_rhs_uker_format_config {
    size_t nr;
    size_t kr;
    size_t sr;
    size_t bl;
};

/// A packer's configuration, passed to every member of kai_matmul_pack_rhs_uker_api.
struct kai_matmul_pack_rhs_uker_config {
    struct kai_matmul_pack_rhs_uker_format_config format;
};

/// Sizes, steps or coordinates of the problem in N and K.
struct kai_matmul_pack_rhs_uker_dim_args {
    size_t n;
    size_t k;
};

/// Sizes or coordinates of the plain RHS.
struct kai_matmul_pack_rhs_uker_rhs_dim_args {
    size_t n;
    size_t k;
};

/// Byte strides of the plain RHS along N and along K (which one is the row stride depends on the layout).
struct kai_matmul_pack_rhs_uker_rhs_stride_args {
    size_t n;
    size_t k;
};

/// The plain RHS: buffer and strides.
struct kai_matmul_pack_rhs_uker_rhs_args {
    const void* ptr;
    struct kai_matmul_pack_rhs_uker_rhs_stride_args stride;
};

/// Sizes or coordinates of the packed RHS.
struct kai_matmul_pack_rhs_uker_rhs_packed_dim_args {
    size_t n;
    size_t k;
};

/// Byte stride of the packed RHS from one column block to the next.
struct kai_matmul_pack_rhs_uker_rhs_packed_stride_args {
    size_t n;
};

/// The packed RHS: buffer and stride.
struct kai_matmul_pack_rhs_uker_rhs_packed_args {
    void* ptr;
    struct kai_matmul_pack_rhs_uker_rhs_packed_stride_args stride;
};

/// Coordinate of a per-column bias.
struct kai_matmul_pack_rhs_uker_bias_n_dim_args {
    size_t n;
};

/// One bias per column (N values).
struct kai_matmul_pack_rhs_uker_bias_n_args {
    const void* ptr;
};

/// One scale of the column sums over K, for the whole matrix.
struct kai_matmul_pack_rhs_uker_k_sum_scale_global_args {
    const void* ptr;
};

/// Coordinate of a per-column scale.
struct kai_matmul_pack_rhs_uker_scale_n_dim_args {
    size_t n;
};

/// One scale per column (N values).
struct kai_matmul_pack_rhs_uker_scale_n_args {
    const void* ptr;
};

/// One scale for the whole matrix.
struct kai_matmul_pack_rhs_uker_scale_global_args {
    const void* ptr;
};

/// Every operand a packer may read or write; each packer documents the ones it uses (NULL for the others).
struct kai_matmul_pack_rhs_uker_operand_args {
    struct kai_matmul_pack_rhs_uker_rhs_args rhs;
    struct kai_matmul_pack_rhs_uker_rhs_packed_args rhs_packed;
    struct kai_matmul_pack_rhs_uker_bias_n_args bias_n;
    struct kai_matmul_pack_rhs_uker_k_sum_scale_global_args k_sum_scale_global;
    struct kai_matmul_pack_rhs_uker_scale_n_args scale_n;
    struct kai_matmul_pack_rhs_uker_scale_global_args scale_global;
};

/// The arguments of run(): flags, the shape to pack and the operands.
struct kai_matmul_pack_rhs_uker_args {
    uint64_t flags;
    struct kai_matmul_pack_rhs_uker_dim_args shape;
    struct kai_matmul_pack_rhs_uker_operand_args operand;
};

/// A packer's functions: run, the split step per dimension (0: do not split), strides and offsets of the plain
/// and the packed RHS, the packed size, and the offsets of a column's bias and scale.
struct kai_matmul_pack_rhs_uker_api {
    void (*run)(const struct kai_matmul_pack_rhs_uker_config* config, const struct kai_matmul_pack_rhs_uker_args* args);
    struct kai_matmul_pack_rhs_uker_dim_args (*get_step)(const struct kai_matmul_pack_rhs_uker_config* config);
    struct kai_matmul_pack_rhs_uker_rhs_stride_args (*get_rhs_stride)(
        const struct kai_matmul_pack_rhs_uker_config* config, const struct kai_matmul_pack_rhs_uker_rhs_dim_args* shape);
    size_t (*get_rhs_offset)(
        const struct kai_matmul_pack_rhs_uker_config* config, const struct kai_matmul_pack_rhs_uker_rhs_dim_args* index,
        const struct kai_matmul_pack_rhs_uker_rhs_stride_args* stride);
    struct kai_matmul_pack_rhs_uker_rhs_packed_stride_args (*get_rhs_packed_stride)(
        const struct kai_matmul_pack_rhs_uker_config* config,
        const struct kai_matmul_pack_rhs_uker_rhs_packed_dim_args* shape);
    size_t (*get_rhs_packed_offset)(
        const struct kai_matmul_pack_rhs_uker_config* config,
        const struct kai_matmul_pack_rhs_uker_rhs_packed_dim_args* index,
        const struct kai_matmul_pack_rhs_uker_rhs_packed_stride_args* stride);
    size_t (*get_rhs_packed_size)(
        const struct kai_matmul_pack_rhs_uker_config* config,
        const struct kai_matmul_pack_rhs_uker_rhs_packed_dim_args* shape,
        const struct kai_matmul_pack_rhs_uker_rhs_packed_stride_args* stride);
    size_t (*get_bias_n_offset)(
        const struct kai_matmul_pack_rhs_uker_config* config, const struct kai_matmul_pack_rhs_uker_bias_n_dim_args* index);
    size_t (*get_scale_n_offset)(
        const struct kai_matmul_pack_rhs_uker_config* config,
        const struct kai_matmul_pack_rhs_uker_scale_n_dim_args* index);
};

#ifdef __cplusplus
}
#endif

#endif  // KAI_UKERNELS_MATMUL_KAI_MATMUL_PACK_RHS_TYPES_H
