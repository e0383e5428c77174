// SPDX-License-Identifier: Apache-2.0
// Driver for docs/performance.md (section "SME / SME2 float kernels"): packs random operands and calls one f32 /
// bf16 SME kernel once, so that ../shared/perf/qtrace.py can count that call's instructions.
// Usage: perf_sme_float KERNEL M N K, KERNEL one of f32_sme2_mopa, f32_sme_mopa, f32_sme2_mla, bf16_sme2_mopa,
// bf16_sme2_dot (the last two read the same packed RHS; the GEMVs take M = 1).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kai_lhs_pack_bf16p2vlx2_f32_sme.h"
#include "kai_lhs_pack_f32p2vlx1_f32_sme.h"
#include "kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa.h"
#include "kai_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot.h"
#include "kai_matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla.h"
#include "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa.h"
#include "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa.h"
#include "kai_rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme.h"
#include "kai_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme.h"

static float* values(size_t n, unsigned seed) {
    float* v = malloc(n * sizeof(float) + 16);
    for (size_t i = 0; i < n; ++i) v[i] = (float)((i * 2654435761u + seed) >> 20 & 1023) / 512.0f - 1.0f;
    return v;
}

int main(int argc, char** argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s KERNEL M N K\n", argv[0]);
        return 2;
    }
    const char* which = argv[1];
    const size_t m = (size_t)atol(argv[2]), n = (size_t)atol(argv[3]), k = (size_t)atol(argv[4]);
    float* lhs = values(m * k, 1);
    float* rhs = values(n * k, 2);  // N x K for the f32 packer, K x N for the bf16 one
    float* bias = values(n, 3);
    float* dst = malloc(m * n * sizeof(float));
    if (!strcmp(which, "bf16_sme2_dot")) {
        const size_t nr = kai_get_nr_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot();
        void* rp = malloc(kai_get_rhs_packed_size_rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme(n, k));
        kai_run_rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme(1, n, k, nr, 2, 1, n * 4, rhs, bias, NULL, rp, 0, NULL);
        kai_run_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot(1, n, k, lhs, k * 4, rp, dst, n * 4, 4, -1e30f, 1e30f);
    } else if (!strcmp(which, "bf16_sme2_mopa")) {
        const size_t mr = kai_get_mr_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa();
        void* lp = malloc(kai_get_lhs_packed_size_lhs_pack_bf16p2vlx2_f32_sme(m, k, mr, 2, 1));
        void* rp = malloc(kai_get_rhs_packed_size_rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme(n, k));
        kai_run_lhs_pack_bf16p2vlx2_f32_sme(m, k, mr, 2, 1, 0, lhs, k * 4, lp);
        kai_run_rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme(1, n, k, mr, 2, 1, n * 4, rhs, bias, NULL, rp, 0, NULL);
        kai_run_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa(m, n, k, lp, rp, dst, n * 4, 4, -1e30f, 1e30f);
    } else {
        const size_t nr = kai_get_n_step_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme();
        void* rp = malloc(kai_get_rhs_packed_size_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme(n, k));
        kai_run_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme(1, n, k, nr, 1, 1, k * 4, rhs, bias, NULL, rp, 0, NULL);
        if (!strcmp(which, "f32_sme2_mla")) {
            kai_run_matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla(1, n, k, lhs, k * 4, rp, dst, n * 4, 4, -1e30f, 1e30f);
        } else {
            void* lp = malloc(kai_get_lhs_packed_size_lhs_pack_f32p2vlx1_f32_sme(m, k, nr, 1, 1));
            kai_run_lhs_pack_f32p2vlx1_f32_sme(m, k, nr, 1, 1, 0, lhs, k * 4, lp);
            if (!strcmp(which, "f32_sme2_mopa")) {
                kai_run_matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa(m, n, k, lp, rp, dst, n * 4, 4, -1e30f, 1e30f);
            } else {
                kai_run_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa(m, n, k, lp, rp, dst, n * 4, 4, -1e30f, 1e30f);
            }
        }
    }
    printf("%g\n", (double)dst[m * n - 1]);
    return 0;
}
