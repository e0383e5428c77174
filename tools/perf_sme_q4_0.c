// SPDX-License-Identifier: Apache-2.0
// Driver for docs/performance.md (section "SME2 Q4_0 kernels"): packs random f32 activations and random Q4_0
// weights and calls one SME2 Q4_0 kernel once, so that ../shared/perf/qtrace.py can count that call's instructions.
// Usage: perf_sme_q4_0 KERNEL M N K, KERNEL one of sme2_sdot, sme_dot (GEMVs, M = 1), f16_sme2_mopa; bl = 32.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kai_lhs_quant_pack_qsi8d32p_f32_neon.h"
#include "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot.h"
#include "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot.h"
#include "kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon.h"
#include "kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon.h"
#ifdef KAI_PERF_F16
#include "kai_lhs_pack_f16pmrx2_f32_neon.h"
#include "kai_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa.h"
#endif

static float* values(size_t n, unsigned seed) {
    float* v = malloc(n * sizeof(float) + 16);
    for (size_t i = 0; i < n; ++i) v[i] = (float)((i * 2654435761u + seed) >> 20 & 1023) / 512.0f - 1.0f;
    return v;
}

// n rows of k / 32 Q4_0 blocks: scale 1/64 (f16 0x2400), pseudo-random nibbles.
static uint8_t* q4_0_rows(size_t n, size_t k) {
    const size_t bytes = n * (k / 32) * 18;
    uint8_t* r = malloc(bytes);
    for (size_t i = 0; i < bytes; ++i) r[i] = (uint8_t)((i * 2654435761u) >> 13);
    for (size_t b = 0; b < n * (k / 32); ++b) {
        r[b * 18] = 0x00;
        r[b * 18 + 1] = 0x24;
    }
    return r;
}

int main(int argc, char** argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s KERNEL M N K\n", argv[0]);
        return 2;
    }
    const char* which = argv[1];
    const size_t m = (size_t)atol(argv[2]), n = (size_t)atol(argv[3]), k = (size_t)atol(argv[4]), bl = 32;
    float* lhs = values(m * k, 1);
    uint8_t* rows = q4_0_rows(n, k);
    float* dst = malloc(m * n * sizeof(float));
    const struct kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    if (!strcmp(which, "sme2_sdot")) {
        const size_t nr = kai_get_nr_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot();
        void* lp = malloc(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon(m, k, bl, 1, 4, 2));
        void* rp = malloc(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(n, k, nr, 4, bl));
        kai_run_lhs_quant_pack_qsi8d32p_f32_neon(m, k, bl, 1, 4, 2, 0, lhs, k * 4, lp);
        kai_run_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(1, n, k, nr, 4, 2, bl, rows, NULL, rp, 0, &params);
        kai_run_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot(m, n, k, bl, lp, rp, dst, n * 4, 4, -1e30f, 1e30f);
    } else if (!strcmp(which, "sme_dot")) {
        const size_t nr = kai_get_nr_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot();
        void* lp = malloc(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32_neon(m, k, bl, 1, 4, 2));
        void* rp = malloc(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon(n, k, nr, 4, bl));
        kai_run_lhs_quant_pack_qsi8d32p_f32_neon(m, k, bl, 1, 4, 2, 0, lhs, k * 4, lp);
        kai_run_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon(1, n, k, nr, 4, 2, bl, rows, NULL, rp, 0, &params);
        kai_run_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(m, n, k, bl, lp, rp, dst, n * 4, 4, -1e30f, 1e30f);
#ifdef KAI_PERF_F16
    } else if (!strcmp(which, "f16_sme2_mopa")) {
        const size_t mr = kai_get_mr_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa();
        const size_t nr = kai_get_nr_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa();
        void* lp = malloc(kai_get_lhs_packed_size_lhs_pack_f16pmrx2_f32_neon(m, k, bl, mr, 4, 2));
        void* rp = malloc(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(n, k, nr, 4, bl));
        kai_run_lhs_pack_f16pmrx2_f32_neon(m, k, bl, mr, 4, 2, 0, lhs, k * 4, lp);
        kai_run_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon(1, n, k, nr, 4, 2, bl, rows, NULL, rp, 0, &params);
        kai_run_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(m, n, k, bl, lp, rp, dst, n * 4, 4, -1e30f, 1e30f);
#endif
    } else {
        fprintf(stderr, "unknown kernel %s\n", which);
        return 2;
    }
    printf("%g\n", (double)dst[m * n / 2]);
    return 0;
}
