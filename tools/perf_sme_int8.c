// SPDX-License-Identifier: Apache-2.0
// Driver for docs/performance.md (section "SME / SME2 int8 kernels"): packs random operands and calls one
// qsi8cxp SME kernel once, so that ../shared/perf/qtrace.py can count that call's instructions.
// Usage: perf_sme_int8 KERNEL M N K, KERNEL one of sme2_mopa, sme_mopa, sme2_dot, sme_dot (all four read the same
// packed RHS; the GEMVs are measured at M = 1).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa.h"
#include "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa.h"
#include "kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot.h"
#include "kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot.h"
#include "kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon.h"

struct kernel {
    const char* name;
    size_t (*get_mr)(void);
    size_t (*get_nr)(void);
    void (*run)(size_t, size_t, size_t, const void*, const void*, float*, size_t, size_t, float, float);
};

#define KAI_K(tag, stem) \
    {tag, kai_get_mr_matmul_clamp_f32_##stem, kai_get_nr_matmul_clamp_f32_##stem, kai_run_matmul_clamp_f32_##stem}

static const struct kernel kernels[] = {
    KAI_K("sme2_mopa", qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa),
    KAI_K("sme_mopa", qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa),
    KAI_K("sme2_dot", qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot),
    KAI_K("sme_dot", qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot),
};

int main(int argc, char** argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s KERNEL M N K\n", argv[0]);
        return 2;
    }
    const struct kernel* kn = NULL;
    for (size_t i = 0; i < sizeof(kernels) / sizeof(kernels[0]); ++i)
        if (!strcmp(argv[1], kernels[i].name)) kn = &kernels[i];
    if (kn == NULL) {
        fprintf(stderr, "unknown kernel %s\n", argv[1]);
        return 2;
    }
    const size_t m = (size_t)atol(argv[2]), n = (size_t)atol(argv[3]), k = (size_t)atol(argv[4]);
    const size_t mr = kn->get_mr(), nr = kn->get_nr();
    float* lhs = malloc(m * k * sizeof(float));
    int8_t* rhs = malloc(n * k);
    float* scale = malloc(n * sizeof(float));
    float* bias = malloc(n * sizeof(float));
    float* dst = malloc(m * n * sizeof(float));
    for (size_t i = 0; i < m * k; ++i) lhs[i] = (float)((i * 2654435761u) >> 20 & 1023) / 512.0f - 1.0f;
    for (size_t i = 0; i < n * k; ++i) rhs[i] = (int8_t)((i * 2246822519u) >> 24);
    for (size_t j = 0; j < n; ++j) {
        scale[j] = 0.001f * (float)(1 + j % 7);
        bias[j] = 0.25f * (float)(j % 5) - 0.5f;
    }
    void* lp = malloc(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, 4, 1));
    void* rp = malloc(kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n, k, nr, 4, 1));
    const struct kai_rhs_pack_qsi8cx_params params = {1, 1.0f};
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, 4, 1, 0, lhs, k * sizeof(float), lp);
    kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(1, n, k, nr, 4, 1, rhs, bias, scale, rp, 0, &params);
    kn->run(m, n, k, lp, rp, dst, n * sizeof(float), sizeof(float), -1e30f, 1e30f);
    double sum = 0;
    for (size_t i = 0; i < m * n; ++i) sum += dst[i];
    printf("%s %zux%zux%zu checksum %.6g\n", kn->name, m, n, k, sum);
    return 0;
}
