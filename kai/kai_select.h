//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// Optional run-time kernel selection: for each family, the best kernel a CPU can run for a
/// problem shape, and the GEMV/GEMM pair that reads one packed RHS buffer. Nothing in kai's
/// kernels depends on this file; it links every kernel of the families it selects from
/// (kai/kai_select.c, Bazel target //kai:kai_select). The features argument is the mask of
/// kai/kai_cpu.h (kai_cpu_get_features(), or a mask you build yourself).
///
/// Preference order (docs/integration_runtime.md, "Runtime dispatch"). Each family's table in
/// kai_select.c lists every matmul kernel of that family in kai/kernels.bzl, once, in this order;
/// test/tests/kai_select_test.cc checks that against the generated registry, so a kernel added to
/// kernels.bzl and not to the table (or the reverse) fails the build's tests:
///
/// | family    | GEMM order (m > 1)                          | GEMV order (m == 1)             |
/// |-----------|---------------------------------------------|---------------------------------|
/// | bf16      | 8x12 mmla (bf16)                            | 1x36 dot (bf16)                 |
/// | bf16o     | 8x12 mmla (bf16)                            | 1x36 dot (bf16)                 |
/// | qsi4cxp   | 16x4x32, 8x8x32, 8x4x32 i8mm                | 1x8x32, 1x4x32 dotprod          |
/// | qsi4c32p  | 12x4x32, 16x4x32, 8x4x32 i8mm               | 1x8x32, 1x4x32 dotprod          |
/// | qsi8d32p  | 16x4 i8mm, 8x4x32 i8mm, 16x4 dotprod        | 1x4 dotprod, 1x4x32 dotprod     |
///
/// (The order follows the modelled call efficiency in docs/performance.md.) Rule: for m == 1
/// the first GEMV (m_step 1) in order whose features the CPU has, else the first such GEMM; for
/// m > 1 the first GEMM, else the first GEMV that accepts m > 1 (the bf16 GEMVs do not). A kernel
/// is never returned unless every feature it needs is in `features`: on a CPU with none of them the
/// result is NULL. NULL too when the shape breaks a precondition every kernel of the family has
/// (k == 0; for the block-wise families bl not a non-zero multiple of 32 or k not a multiple of bl).
/// m == 0 is treated as m == 1; n does not change the choice today (it is in the signature so that
/// a future tile choice can use it).

#ifndef KAI_SELECT_H
#define KAI_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_cpu.h"
#include "kai/ukernels/matmul/matmul_clamp_bf16_bf16p_bf16p/kai_matmul_clamp_bf16_bf16p_bf16p_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p/kai_matmul_clamp_f32_bf16p_bf16p_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp_qsi4c32p_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp_qsi4cxp_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_interface.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Best BF16 kernel with f32 output (matmul_clamp_f32_bf16p_bf16p) for an m x n x k problem.
/// @param[in] features Mask of kai/kai_cpu.h.
/// @return The kernel's interface, or NULL when the CPU runs none (all need FEAT_BF16) or k == 0.
const struct kai_matmul_clamp_f32_bf16p_bf16p_ukernel* kai_select_bf16(uint64_t features, size_t m, size_t n, size_t k);

/// Best BF16 kernel with bf16 output (matmul_clamp_bf16_bf16p_bf16p); as kai_select_bf16.
const struct kai_matmul_clamp_bf16_bf16p_bf16p_ukernel* kai_select_bf16o(uint64_t features, size_t m, size_t n, size_t k);

/// Best int4 per-channel kernel (matmul_clamp_f32_qai8dxp_qsi4cxp).
/// @return NULL when the CPU has neither FEAT_DotProd nor FEAT_I8MM, or k == 0.
const struct kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel* kai_select_qsi4cxp(uint64_t features, size_t m, size_t n, size_t k);

/// Best int4 block-wise kernel (matmul_clamp_f32_qai8dxp_qsi4c32p) for block length bl.
/// @return NULL when the CPU has neither FEAT_DotProd nor FEAT_I8MM, k == 0, bl is not a non-zero
///         multiple of 32 or k is not a multiple of bl.
const struct kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel* kai_select_qsi4c32p(
    uint64_t features, size_t m, size_t n, size_t k, size_t bl);

/// Best GGUF Q4_0 kernel (matmul_clamp_f32_qsi8d32p_qsi4c32p) for block length bl (32 for Q4_0).
/// @return NULL under the same conditions as kai_select_qsi4c32p.
const struct kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel* kai_select_qsi8d32p(
    uint64_t features, size_t m, size_t n, size_t k, size_t bl);

/// The GEMV (m_step 1) and the GEMM (m_step > 1) of a family that read the same packed RHS, the
/// one packed with (nr, kr, sr) (spec §18, "interchangeable packed buffers"). Either is NULL when
/// no kernel of that kind reads that layout or the CPU cannot run one. When both are non-NULL, one
/// RHS buffer packed once serves both; each needs its own packed LHS (mr differs).
struct kai_select_pair_bf16 {
    const struct kai_matmul_clamp_f32_bf16p_bf16p_ukernel* gemv;
    const struct kai_matmul_clamp_f32_bf16p_bf16p_ukernel* gemm;
};
struct kai_select_pair_bf16o {
    const struct kai_matmul_clamp_bf16_bf16p_bf16p_ukernel* gemv;
    const struct kai_matmul_clamp_bf16_bf16p_bf16p_ukernel* gemm;
};
struct kai_select_pair_qsi4cxp {
    const struct kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel* gemv;
    const struct kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel* gemm;
};
struct kai_select_pair_qsi4c32p {
    const struct kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel* gemv;
    const struct kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel* gemm;
};
struct kai_select_pair_qsi8d32p {
    const struct kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel* gemv;
    const struct kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel* gemm;
};

/// Returns the best GEMV and GEMM (in the preference order above) that the CPU runs and that read
/// an RHS packed with exactly (nr, kr, sr).
struct kai_select_pair_bf16 kai_select_pair_bf16(uint64_t features, size_t nr, size_t kr, size_t sr);
struct kai_select_pair_bf16o kai_select_pair_bf16o(uint64_t features, size_t nr, size_t kr, size_t sr);
struct kai_select_pair_qsi4cxp kai_select_pair_qsi4cxp(uint64_t features, size_t nr, size_t kr, size_t sr);
struct kai_select_pair_qsi4c32p kai_select_pair_qsi4c32p(uint64_t features, size_t nr, size_t kr, size_t sr);
struct kai_select_pair_qsi8d32p kai_select_pair_qsi8d32p(uint64_t features, size_t nr, size_t kr, size_t sr);

/// One entry of the selection tables, for logging and for the consistency test.
struct kai_select_entry {
    const char* family;     ///< bf16 | bf16o | qsi4cxp | qsi4c32p | qsi8d32p (as in kai/kernels.bzl)
    const char* name;       ///< full kernel name, e.g. "kai_matmul_clamp_f32_..."
    uint64_t features;      ///< KAI_CPU_FEATURE_* bits the kernel needs
    int gemv_only;          ///< 1 when the kernel accepts only m == 1
    const void* ukernel;    ///< pointer to the family's interface struct
};

/// Returns the number of entries of every table, in family then preference order, and sets
/// *entries to the first.
size_t kai_select_entries(const struct kai_select_entry** entries);

/// Returns the name of a kernel returned by any kai_select_* function ("(none)" for NULL,
/// "(unknown)" for a pointer that is not from these tables).
const char* kai_select_name(const void* ukernel);

#ifdef __cplusplus
}
#endif

#endif  // KAI_SELECT_H
