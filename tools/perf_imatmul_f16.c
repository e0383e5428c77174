// SPDX-License-Identifier: Apache-2.0
// Driver for docs/performance.md (section "SME / SME2 f16 indirect GEMM"): one call of each f16 indirect GEMM unit
// on an M x (K_CHUNK_COUNT x K_CHUNK_LENGTH) problem, for an instruction tracer under qemu (tools/perf/kai_perf.py is the tree's own). Every row's chunks are
// read through a table of their addresses (lhs_ptr_offset 0; no padding chunk, pad_ptr NULL). It names only KleidiAI's
// API, so the same file builds against KleidiAI v1.30.0 for the comparison.
// Usage: perf_imatmul_f16 M N K_CHUNK_COUNT K_CHUNK_LENGTH SME2 (SME2 = 1: the sme2 kernel, 0: the sme one).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kai_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa.h"
#include "kai_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa.h"
#include "kai_lhs_imatmul_pack_x16p2vlx2_x16p_sme.h"
#include "kai_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme.h"

// f16 bit patterns of small multiples of 1/8 (exact in f16): 0x3000 is 0.125.
static uint16_t small_f16(size_t i, size_t period) {
    return (uint16_t)(i % period == 0 ? 0 : 0x3000 + (i % period) * 0x400);
}

int main(int argc, char** argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s M N K_CHUNK_COUNT K_CHUNK_LENGTH SME2\n", argv[0]);
        return 2;
    }
    const size_t m = strtoul(argv[1], NULL, 10), n = strtoul(argv[2], NULL, 10);
    const size_t kcc = strtoul(argv[3], NULL, 10), kcl = strtoul(argv[4], NULL, 10);
    const int sme2 = atoi(argv[5]);
    const size_t k = kcc * kcl, mr = kai_get_m_step_lhs_imatmul_pack_x16p2vlx2_x16p_sme();
    const size_t rows = (m + mr - 1) / mr * mr;
    uint16_t* lhs = calloc(m * k + 8, 2);
    uint16_t* rhs = calloc(k * n + 8, 2);
    uint16_t* bias = calloc(n + 8, 2);
    uint16_t* dst = calloc(m * n + 8, 2);
    const void** ptrs = calloc(rows * kcc + 8, sizeof(void*));
    for (size_t i = 0; i < m * k; ++i) lhs[i] = small_f16(i, 7);
    for (size_t i = 0; i < k * n; ++i) rhs[i] = small_f16(i, 5);
    for (size_t r = 0; r < rows; ++r) {  // entry of chunk c of row r: block (r / mr), then c, then r % mr
        for (size_t c = 0; c < kcc; ++c) {
            const size_t src_row = r < m ? r : 0;
            ptrs[(r / mr) * mr * kcc + c * mr + r % mr] = lhs + src_row * k + c * kcl;
        }
    }
    void* lp = malloc(kai_get_lhs_packed_size_lhs_imatmul_pack_x16p2vlx2_x16p_sme(m, kcc, kcl));
    void* rp = malloc(kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(n, kcc, kcl));
    kai_run_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(n, kcc, kcl, n * 2, rhs, bias, rp);
    kai_run_lhs_imatmul_pack_x16p2vlx2_x16p_sme(m, kcc, kcl, ptrs, 0, NULL, lp);
    if (sme2)
        kai_run_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa(m, n, kcc, kcl, lp, rp, dst, n * 2, -6e4f, 6e4f);
    else
        kai_run_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa(m, n, kcc, kcl, lp, rp, dst, n * 2, -6e4f, 6e4f);
    printf("dst bits [%zu][%zu] = 0x%04x\n", m - 1, n - 1, dst[m * n - 1]);
    return 0;
}
