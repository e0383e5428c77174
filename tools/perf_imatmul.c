// SPDX-License-Identifier: Apache-2.0
// Driver for docs/performance.md (section "SME / SME2 indirect GEMM"): builds the pointer table of an M x K f32
// matrix read as K_CHUNK_COUNT chunks of K_CHUNK_LENGTH values, packs both operands and calls one f32 imatmul
// kernel once, so that an instruction tracer under qemu (tools/perf/kai_perf.py is the tree's own) can count the packers' and the kernel's instructions. It names
// only KleidiAI's API, so the same file builds against KleidiAI v1.30.0 for the comparison.
// Usage: perf_imatmul M N K_CHUNK_COUNT K_CHUNK_LENGTH SME2 (SME2 = 1: the sme2 kernel, 0: the sme one).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kai_imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme2_mopa.h"
#include "kai_imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa.h"
#include "kai_lhs_imatmul_pack_x32p2vlx1_x32p_sme.h"
#include "kai_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme.h"

int main(int argc, char** argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s M N K_CHUNK_COUNT K_CHUNK_LENGTH SME2\n", argv[0]);
        return 2;
    }
    const size_t m = strtoul(argv[1], NULL, 10), n = strtoul(argv[2], NULL, 10);
    const size_t kcc = strtoul(argv[3], NULL, 10), kcl = strtoul(argv[4], NULL, 10), k = kcc * kcl;
    const int sme2 = atoi(argv[5]);
    const size_t mr = kai_get_m_step_lhs_imatmul_pack_x32p2vlx1_x32p_sme();
    float* a = malloc(m * k * sizeof(float) + 16);
    float* w = malloc(k * n * sizeof(float) + 16);
    float* bias = malloc(n * sizeof(float) + 16);
    float* dst = malloc(m * n * sizeof(float) + 16);
    for (size_t i = 0; i < m * k; ++i) a[i] = (float)(i % 7) * 0.125f;
    for (size_t i = 0; i < k * n; ++i) w[i] = (float)(i % 5) * 0.25f;
    for (size_t i = 0; i < n; ++i) bias[i] = 0.5f;
    // The table in the packer's blocked order (docs/formats.md, "Indirect GEMM packed layouts").
    const size_t entries = (m + mr - 1) / mr * mr * kcc;
    const void** table = malloc(entries * sizeof(void*) + 16);
    for (size_t e = 0; e < entries; ++e) table[e] = a;
    for (size_t i = 0; i < m; ++i)
        for (size_t c = 0; c < kcc; ++c) table[(i / mr) * mr * kcc + c * mr + i % mr] = a + i * k + c * kcl;
    void* lhs_packed = malloc(kai_get_lhs_packed_size_lhs_imatmul_pack_x32p2vlx1_x32p_sme(m, kcc, kcl));
    void* rhs_packed = malloc(kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(n, kcc, kcl));
    kai_run_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(n, kcc, kcl, n * sizeof(float), w, bias, rhs_packed);
    kai_run_lhs_imatmul_pack_x32p2vlx1_x32p_sme(m, kcc, kcl, table, 0, NULL, lhs_packed);
    if (sme2) {
        kai_run_imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme2_mopa(m, n, kcc, kcl, lhs_packed, rhs_packed, dst,
                                                                         n * sizeof(float), -1e30f, 1e30f);
    } else {
        kai_run_imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa(m, n, kcc, kcl, lhs_packed, rhs_packed, dst,
                                                                        n * sizeof(float), -1e30f, 1e30f);
    }
    printf("dst[%zu][%zu] = %g\n", m - 1, n - 1, (double)dst[m * n - 1]);
    return 0;
}
