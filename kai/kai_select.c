//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Run-time kernel selection (kai/kai_select.h). Compiled for baseline Armv8-A: it only takes the
// addresses of the kernels' functions and calls their getters (plain C, no feature instructions),
// so it is safe on every CPU; the kernels themselves run only when the caller's mask has their
// features.
//
// The tables: one X-macro list per family, in preference order (kai_select.h explains the order).
// test/tests/kai_select_test.cc checks each list against kai/kernels.bzl (through the generated
// registry): same kernels, same features, each once.

#include "kai/kai_select.h"

#include <string.h>

#include "kai/ukernels/matmul/matmul_clamp_bf16_bf16p_bf16p/kai_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot.h"
#include "kai/ukernels/matmul/matmul_clamp_bf16_bf16p_bf16p/kai_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p/kai_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p/kai_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_12x4x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_16x4x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm.h"

#define DOTPROD KAI_CPU_FEATURE_DOTPROD
#define I8MM KAI_CPU_FEATURE_I8MM
#define BF16 KAI_CPU_FEATURE_BF16

// X(family, interface struct, stem, features, gemv_only), best first within GEMMs and GEMVs.
#define KAI_SELECT_TABLE(X)                                                                                          \
    X(bf16, kai_matmul_clamp_f32_bf16p_bf16p_ukernel, matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla, BF16, 0)   \
    X(bf16, kai_matmul_clamp_f32_bf16p_bf16p_ukernel, matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot, BF16, 1)    \
    X(bf16o, kai_matmul_clamp_bf16_bf16p_bf16p_ukernel, matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla, BF16,   \
      0)                                                                                                             \
    X(bf16o, kai_matmul_clamp_bf16_bf16p_bf16p_ukernel, matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot, BF16, 1) \
    X(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel,                                                         \
      matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_16x4x32_neon_i8mm, I8MM, 0)                                             \
    X(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel, matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm, \
      I8MM, 0)                                                                                                       \
    X(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel, matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm, \
      I8MM, 0)                                                                                                       \
    X(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel,                                                         \
      matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod, DOTPROD, 0)                                        \
    X(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel,                                                         \
      matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod, DOTPROD, 0)                                        \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                       \
      matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_12x4x32_neon_i8mm, I8MM, 0)                                            \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                       \
      matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm, I8MM, 0)                                            \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                       \
      matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm, I8MM, 0)                                             \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                       \
      matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod, DOTPROD, 0)                                       \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                       \
      matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod, DOTPROD, 0)                                       \
    X(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel,                                                      \
      matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm, I8MM, 0)                                              \
    X(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel,                                                      \
      matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm, I8MM, 0)                                            \
    X(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel,                                                      \
      matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod, DOTPROD, 0)                                        \
    X(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel,                                                      \
      matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod, DOTPROD, 0)                                         \
    X(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel,                                                      \
      matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod, DOTPROD, 0)

// One interface struct per kernel, members in the interface's order.
#define KAI_SELECT_DEFINE(family, type, stem, features, gemv_only)                                         \
    static const struct type uk_##stem = {                                                                  \
        kai_get_m_step_##stem,       kai_get_n_step_##stem,         kai_get_mr_##stem,                      \
        kai_get_nr_##stem,           kai_get_kr_##stem,             kai_get_sr_##stem,                      \
        kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem, kai_get_dst_offset_##stem,      \
        kai_get_dst_size_##stem,     kai_run_##stem};
KAI_SELECT_TABLE(KAI_SELECT_DEFINE)
#undef KAI_SELECT_DEFINE

#define KAI_SELECT_ENTRY(family, type, stem, features, gemv_only) \
    {#family, "kai_" #stem, (features), (gemv_only), &uk_##stem},
static const struct kai_select_entry kTable[] = {KAI_SELECT_TABLE(KAI_SELECT_ENTRY)};
#undef KAI_SELECT_ENTRY

enum { kTableSize = sizeof(kTable) / sizeof(kTable[0]) };

size_t kai_select_entries(const struct kai_select_entry** entries) {
    *entries = kTable;
    return kTableSize;
}

const char* kai_select_name(const void* ukernel) {
    if (ukernel == NULL) return "(none)";
    for (size_t i = 0; i < kTableSize; ++i) {
        if (kTable[i].ukernel == ukernel) return kTable[i].name;
    }
    return "(unknown)";
}

// The selection rule, written once for every family (the interface structs of the families all
// start with get_m_step, get_n_step, get_mr, get_nr, get_kr, get_sr; each function below reads
// them through its own family's type).
#define KAI_SELECT_FUNCTIONS(fam, type)                                                                     \
    static const struct type* pick_##fam(uint64_t features, size_t m, int want_gemv) {                      \
        for (size_t i = 0; i < kTableSize; ++i) {                                                             \
            const struct kai_select_entry* e = &kTable[i];                                                     \
            if (strcmp(e->family, #fam) != 0 || !kai_cpu_has(features, e->features)) continue;             \
            if (e->gemv_only && m > 1) continue;                                                               \
            const struct type* uk = (const struct type*)e->ukernel;                                            \
            if ((uk->get_m_step() == 1) == (want_gemv != 0)) return uk;                                        \
        }                                                                                                      \
        return NULL;                                                                                           \
    }                                                                                                          \
    static const struct type* select_##fam(uint64_t features, size_t m) {                                   \
        if (m == 0) m = 1;                                                                                     \
        const struct type* first = pick_##fam(features, m, m == 1);                                         \
        return first != NULL ? first : pick_##fam(features, m, m != 1);                                     \
    }                                                                                                          \
    static const struct type* pair_pick_##fam(uint64_t features, size_t nr, size_t kr, size_t sr, int gemv) { \
        for (size_t i = 0; i < kTableSize; ++i) {                                                             \
            const struct kai_select_entry* e = &kTable[i];                                                     \
            if (strcmp(e->family, #fam) != 0 || !kai_cpu_has(features, e->features)) continue;             \
            const struct type* uk = (const struct type*)e->ukernel;                                            \
            if ((uk->get_m_step() == 1) != (gemv != 0)) continue;                                              \
            if (uk->get_nr() == nr && uk->get_kr() == kr && uk->get_sr() == sr) return uk;                     \
        }                                                                                                      \
        return NULL;                                                                                           \
    }                                                                                                          \
    struct kai_select_pair_##fam kai_select_pair_##fam(uint64_t features, size_t nr, size_t kr, size_t sr) { \
        struct kai_select_pair_##fam p;                                                                     \
        p.gemv = pair_pick_##fam(features, nr, kr, sr, 1);                                                  \
        p.gemm = pair_pick_##fam(features, nr, kr, sr, 0);                                                  \
        return p;                                                                                              \
    }

KAI_SELECT_FUNCTIONS(bf16, kai_matmul_clamp_f32_bf16p_bf16p_ukernel)
KAI_SELECT_FUNCTIONS(bf16o, kai_matmul_clamp_bf16_bf16p_bf16p_ukernel)
KAI_SELECT_FUNCTIONS(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel)
KAI_SELECT_FUNCTIONS(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel)
KAI_SELECT_FUNCTIONS(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel)

// The block-wise families share the bl preconditions of every one of their kernels.
static int block_shape_ok(size_t k, size_t bl) {
    return k != 0 && bl != 0 && bl % 32 == 0 && k % bl == 0;
}

const struct kai_matmul_clamp_f32_bf16p_bf16p_ukernel* kai_select_bf16(uint64_t features, size_t m, size_t n, size_t k) {
    (void)n;
    return k != 0 ? select_bf16(features, m) : NULL;
}

const struct kai_matmul_clamp_bf16_bf16p_bf16p_ukernel* kai_select_bf16o(uint64_t features, size_t m, size_t n, size_t k) {
    (void)n;
    return k != 0 ? select_bf16o(features, m) : NULL;
}

const struct kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel* kai_select_qsi4cxp(uint64_t features, size_t m, size_t n, size_t k) {
    (void)n;
    return k != 0 ? select_qsi4cxp(features, m) : NULL;
}

const struct kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel* kai_select_qsi4c32p(
    uint64_t features, size_t m, size_t n, size_t k, size_t bl) {
    (void)n;
    return block_shape_ok(k, bl) ? select_qsi4c32p(features, m) : NULL;
}

const struct kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel* kai_select_qsi8d32p(
    uint64_t features, size_t m, size_t n, size_t k, size_t bl) {
    (void)n;
    return block_shape_ok(k, bl) ? select_qsi8d32p(features, m) : NULL;
}
