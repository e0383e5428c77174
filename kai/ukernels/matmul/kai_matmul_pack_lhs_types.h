//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// The argument and interface structs of KleidiAI's generic LHS packer API (v1.30.0): one struct
/// kai_matmul_pack_lhs_uker_api per packer (kai/ukernels/matmul/kai_matmul_pack_lhs.h). Same struct names,
/// members, member order and types as KleidiAI's. See docs/integration.md, "Generic API headers".

#ifndef KAI_UKERNELS_MATMUL_KAI_MATMUL_PACK_LHS_TYPES_H
#define KAI_UKERNELS_MATMUL_KAI_MATMUL_PACK_LHS_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Packed-format parameters: rows per block, K values per chunk and the interleave.
struct kai_matmul_pack_lhs_uker_format_config {
    size_t mr;
    size_t kr;
    size_t sr;
};

/// A packer's configuration, passed to every member of kai_matmul_pack_lhs_uker_api.
struct kai_matmul_pack_lhs_uker_config {
    struct kai_matmul_pack_lhs_uker_format_config format;
};

/// Sizes, steps or coordinates of the problem in M and K.
struct kai_matmul_pack_lhs_uker_dim_args {
    size_t m;
    size_t k;
};

/// Sizes or coordinates of the plain LHS.
struct kai_matmul_pack_lhs_uker_lhs_dim_args {
    size_t m;
    size_t k;
};

/// Byte stride of the plain LHS from one row to the next.
struct kai_matmul_pack_lhs_uker_lhs_stride_args {
    size_t m;
};

/// The plain LHS: buffer and stride.
struct kai_matmul_pack_lhs_uker_lhs_args {
    const void* ptr;
    struct kai_matmul_pack_lhs_uker_lhs_stride_args stride;
};

/// Sizes or coordinates of the packed LHS.
struct kai_matmul_pack_lhs_uker_lhs_packed_dim_args {
    size_t m;
    size_t k;
};

/// Byte stride of the packed LHS from one row block to the next.
struct kai_matmul_pack_lhs_uker_lhs_packed_stride_args {
    size_t m;
};

/// The packed LHS: buffer and stride.
struct kai_matmul_pack_lhs_uker_lhs_packed_args {
    void* ptr;
    struct kai_matmul_pack_lhs_uker_lhs_packed_stride_args stride;
};

/// Both operands of a call: destination first.
struct kai_matmul_pack_lhs_uker_operand_args {
    struct kai_matmul_pack_lhs_uker_lhs_packed_args lhs_packed;
    struct kai_matmul_pack_lhs_uker_lhs_args lhs;
};

/// The arguments of run(): flags, the shape to pack and the operands.
struct kai_matmul_pack_lhs_uker_args {
    uint64_t flags;
    struct kai_matmul_pack_lhs_uker_dim_args shape;
    struct kai_matmul_pack_lhs_uker_operand_args operand;
};

/// A packer's functions: run, the split step per dimension (0: do not split), strides and offsets of the plain
/// and the packed LHS, and the packed size.
struct kai_matmul_pack_lhs_uker_api {
    void (*run)(const struct kai_matmul_pack_lhs_uker_config* config, const struct kai_matmul_pack_lhs_uker_args* args);
    struct kai_matmul_pack_lhs_uker_dim_args (*get_step)(const struct kai_matmul_pack_lhs_uker_config* config);
    struct kai_matmul_pack_lhs_uker_lhs_stride_args (*get_lhs_stride)(
        const struct kai_matmul_pack_lhs_uker_config* config, const struct kai_matmul_pack_lhs_uker_lhs_dim_args* shape);
    size_t (*get_lhs_offset)(
        const struct kai_matmul_pack_lhs_uker_config* config, const struct kai_matmul_pack_lhs_uker_lhs_dim_args* index,
        const struct kai_matmul_pack_lhs_uker_lhs_stride_args* stride);
    struct kai_matmul_pack_lhs_uker_lhs_packed_stride_args (*get_lhs_packed_stride)(
        const struct kai_matmul_pack_lhs_uker_config* config,
        const struct kai_matmul_pack_lhs_uker_lhs_packed_dim_args* shape);
    size_t (*get_lhs_packed_offset)(
        const struct kai_matmul_pack_lhs_uker_config* config,
        const struct kai_matmul_pack_lhs_uker_lhs_packed_dim_args* index,
        const struct kai_matmul_pack_lhs_uker_lhs_packed_stride_args* stride);
    size_t (*get_lhs_packed_size)(
        const struct kai_matmul_pack_lhs_uker_config* config,
        const struct kai_matmul_pack_lhs_uker_lhs_packed_dim_args* shape,
        const struct kai_matmul_pack_lhs_uker_lhs_packed_stride_args* stride);
};

#ifdef __cplusplus
}
#endif

#endif  // KAI_UKERNELS_MATMUL_KAI_MATMUL_PACK_LHS_TYPES_H
