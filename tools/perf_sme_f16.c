// SPDX-License-Identifier: Apache-2.0
// Driver for docs/performance.md (section "f16 SME / SME2 kernels"): packs f16 operands and calls one f16 SME kernel
// once, so that an instruction tracer under qemu (tools/perf/kai_perf.py is the tree's own) can count that call's instructions. Built against kai's sources or
// KleidiAI's (same names and signatures).
// Usage: perf_sme_f16 KERNEL M N K, KERNEL one of f16_sme2_mopa, f16_sme_mopa, f16_sme2_dot, f16_sme_mla (the GEMVs
// take M = 1).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kai_lhs_pack_x16p2vlx2_x16_sme.h"
#include "kai_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot.h"
#include "kai_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla.h"
#include "kai_matmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa.h"
#include "kai_matmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa.h"
#include "kai_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme.h"

// f16 bit patterns of small values in [-1, 1): sign, exponent 14 (0.5 .. 1) or 13, 10 mantissa bits.
static uint16_t* values(size_t n, unsigned seed) {
    uint16_t* v = malloc(n * sizeof(uint16_t) + 16);
    for (size_t i = 0; i < n; ++i) {
        const unsigned r = (unsigned)(i * 2654435761u + seed) >> 12;
        v[i] = (uint16_t)((r & 0x8000u) | ((13u + (r >> 10 & 1u)) << 10) | (r & 0x3ffu));
    }
    return v;
}

int main(int argc, char** argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s KERNEL M N K\n", argv[0]);
        return 2;
    }
    const char* which = argv[1];
    const size_t m = (size_t)atol(argv[2]), n = (size_t)atol(argv[3]), k = (size_t)atol(argv[4]);
    uint16_t* lhs = values(m * k, 1);
    uint16_t* rhs = values(n * k, 2);  // K x N
    uint16_t* bias = values(n, 3);
    uint16_t* dst = malloc(m * n * sizeof(uint16_t));
    const size_t nr = kai_get_n_step_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme();
    void* rp = malloc(kai_get_rhs_packed_size_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme(n, k));
    kai_run_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme(1, n, k, nr, 2, 1, n * 2, rhs, bias, NULL, rp, 0, NULL);
    if (!strcmp(which, "f16_sme2_dot")) {
        kai_run_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot(1, n, k, lhs, k * 2, rp, dst, n * 2, 2, -65504.0f, 65504.0f);
    } else if (!strcmp(which, "f16_sme_mla")) {
        kai_run_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla(1, n, k, lhs, k * 2, rp, dst, n * 2, 2, -65504.0f, 65504.0f);
    } else {
        const size_t mr = kai_get_mr_matmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa();
        void* lp = malloc(kai_get_lhs_packed_size_lhs_pack_x16p2vlx2_x16_sme(m, k, mr, 2, 1));
        kai_run_lhs_pack_x16p2vlx2_x16_sme(m, k, mr, 2, 1, 0, lhs, k * 2, lp);
        if (!strcmp(which, "f16_sme2_mopa")) {
            kai_run_matmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa(m, n, k, lp, rp, dst, n * 2, 2, -65504.0f, 65504.0f);
        } else if (!strcmp(which, "f16_sme_mopa")) {
            kai_run_matmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa(m, n, k, lp, rp, dst, n * 2, 2, -65504.0f, 65504.0f);
        } else {
            fprintf(stderr, "unknown kernel %s\n", which);
            return 2;
        }
    }
    unsigned sum = 0;
    for (size_t i = 0; i < m * n; ++i) sum += dst[i];
    printf("%u\n", sum);
    return 0;
}
