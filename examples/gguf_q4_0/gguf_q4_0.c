//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// GGUF Q4_0 with kai, the way a llama.cpp-style engine wires it (docs/matmul_q4_0.md):
//   1. quantise an f32 weight tensor (N rows of K) to Q4_0 blocks exactly as a GGUF writer does;
//   2. repack it once with kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0 ("model load");
//   3. prompt processing: a batch of M activation rows through a GEMM kernel, split over N in
//      n_step chunks as threads would take them;
//   4. token generation: one activation row through a GEMV kernel;
//   5. check both against the engine's own scalar path: Q8_0-quantised activations dotted with the
//      Q4_0 blocks, block by block (ggml's vec_dot_q4_0_q8_0), and print the largest difference
//      and the bound it must stay within.
// Exits 0 when every output is within its bound, 1 otherwise (it runs in CI as a test).

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/auxv.h>
#endif

#include "kai/kai_common.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_interface.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32p_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0.h"
#include "examples/common/ggml_q4_0_ref.h"

enum { M = 13, N = 72, K = 512 };  // a prompt of 13 tokens; a 72 x 512 weight

#define UKERNEL(v)                                                                                            \
    {kai_get_m_step_##v, kai_get_n_step_##v, kai_get_mr_##v, kai_get_nr_##v, kai_get_kr_##v, kai_get_sr_##v, \
     kai_get_lhs_packed_offset_##v, kai_get_rhs_packed_offset_##v, kai_get_dst_offset_##v,                   \
     kai_get_dst_size_##v, kai_run_##v}

static const struct kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel gemm_i8mm =
    UKERNEL(matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm);
static const struct kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel gemm_dotprod =
    UKERNEL(matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod);
static const struct kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel gemv_i8mm_cpu =
    UKERNEL(matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod);
static const struct kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel gemv_dotprod =
    UKERNEL(matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod);

// --- Helpers. ---------------------------------------------------------------------------------

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static float frand(void) {  // uniform in [-1, 1)
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (float)(rng_state >> 40) / (float)(1u << 23) - 1.0f;
}

static void* xmalloc(size_t n) {
    void* p = malloc(n != 0 ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

int main(void) {
    int has_dotprod = 0;
    int has_i8mm = 0;
#if defined(__linux__) && defined(__aarch64__)
    has_dotprod = (getauxval(AT_HWCAP) & (1ul << 20)) != 0;  // HWCAP_ASIMDDP
    has_i8mm = (getauxval(AT_HWCAP2) & (1ul << 13)) != 0;    // HWCAP2_I8MM
#endif
    if (!has_dotprod) {
        printf("gguf_q4_0: this CPU has no FEAT_DotProd; nothing to run\n");
        return 0;
    }
    // Dispatch as llama.cpp's KleidiAI backend does: i8mm GEMM + 1x4x32 GEMV on i8mm CPUs, else
    // the dotprod 16x4 GEMM and the 1x4 GEMV. (llama.cpp feeds the i8mm GEMM from the 4x8sb
    // packer, whose ties round to even; the scalar packer used here rounds ties away, as Q8_0 does.)
    const struct kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel* gemm = has_i8mm ? &gemm_i8mm : &gemm_dotprod;
    const struct kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel* gemv = has_i8mm ? &gemv_i8mm_cpu : &gemv_dotprod;
    const size_t bl = QK;

    // 1. Weights and activations; Q4_0 as a GGUF file stores it.
    float* w = xmalloc(sizeof(float) * N * K);
    float* x = xmalloc(sizeof(float) * M * K);
    for (size_t i = 0; i < (size_t)N * K; ++i) w[i] = frand() * 0.05f;
    for (size_t i = 0; i < (size_t)M * K; ++i) x[i] = frand() * 4.0f;
    // A few blocks that GGUF writers treat specially: all zero, and a largest value that is positive.
    for (size_t j = 0; j < QK; ++j) w[j] = 0.0f;
    w[K + 3] = 0.2f;
    uint8_t* q4 = xmalloc((size_t)N * (K / QK) * Q4_BLOCK);
    for (size_t j = 0; j < N; ++j) quantize_row_q4_0(w + j * K, q4 + j * (K / QK) * Q4_BLOCK, K);

    // 2. Model load: repack the Q4_0 tensor for each kernel (nr, kr, sr come from the kernel).
    const struct kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    const struct kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel* uks[2] = {gemm, gemv};
    void* rhs_packed[2];
    for (int u = 0; u < 2; ++u) {
        const size_t nr = uks[u]->get_nr(), kr = uks[u]->get_kr(), sr = uks[u]->get_sr();
        rhs_packed[u] = xmalloc(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(N, K, nr, kr, bl));
        kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(1, N, K, nr, kr, sr, bl, q4, NULL, rhs_packed[u], 0, &params);
    }

    // 3. Prompt: quantise + pack the M rows, then run the GEMM over column chunks of a multiple of
    //    n_step, as two threads would (each with its own rhs/dst offsets).
    float* dst = xmalloc(sizeof(float) * M * N);
    {
        const size_t mr = gemm->get_mr(), kr = gemm->get_kr(), sr = gemm->get_sr();
        void* lhs_packed = xmalloc(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32(M, K, bl, mr, kr, sr));
        kai_run_lhs_quant_pack_qsi8d32p_f32(M, K, bl, mr, kr, sr, 0, x, K * sizeof(float), lhs_packed);
        const size_t n_step = gemm->get_n_step();
        const size_t chunk = (N / 2 + n_step - 1) / n_step * n_step;
        for (size_t n0 = 0; n0 < N; n0 += chunk) {
            const size_t nw = N - n0 < chunk ? N - n0 : chunk;
            gemm->run_matmul(M, nw, K, bl, lhs_packed, (const uint8_t*)rhs_packed[0] + gemm->get_rhs_packed_offset(n0, K, bl),
                             (float*)(void*)((uint8_t*)dst + gemm->get_dst_offset(0, n0, N * sizeof(float))),
                             N * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
        }
        free(lhs_packed);
    }

    // 4. Generation: one new token's activations through the GEMV (mr = 1: rows are Q8_0 blocks).
    float* dst1 = xmalloc(sizeof(float) * N);
    const float* x1 = x + (M - 1) * K;
    {
        const size_t mr = gemv->get_mr(), kr = gemv->get_kr(), sr = gemv->get_sr();
        void* lhs_packed = xmalloc(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32(1, K, bl, mr, kr, sr));
        kai_run_lhs_quant_pack_qsi8d32p_f32(1, K, bl, mr, kr, sr, 0, x1, K * sizeof(float), lhs_packed);
        gemv->run_matmul(1, N, K, bl, lhs_packed, rhs_packed[1], dst1, N * sizeof(float), sizeof(float), -FLT_MAX,
                         FLT_MAX);
        free(lhs_packed);
    }

    // 5. The engine's scalar path on the same data.
    uint8_t* q8 = xmalloc((size_t)M * (K / QK) * Q8_BLOCK);
    for (size_t i = 0; i < M; ++i) quantize_row_q8_0(x + i * K, q8 + i * (K / QK) * Q8_BLOCK, K);
    printf("gguf_q4_0: GEMM %s, GEMV %s\n", has_i8mm ? "16x4 i8mm" : "16x4 dotprod",
           has_i8mm ? "1x4x32 dotprod" : "1x4 dotprod");
    int bad = ggml_q4_0_compare("GEMM", dst, q4, q8, M, N, K);
    bad += ggml_q4_0_compare("GEMV", dst1, q4, q8 + (M - 1) * (K / QK) * Q8_BLOCK, 1, N, K);

    free(w);
    free(x);
    free(q4);
    free(q8);
    free(dst);
    free(dst1);
    free(rhs_packed[0]);
    free(rhs_packed[1]);
    return bad == 0 ? 0 : 1;
}
