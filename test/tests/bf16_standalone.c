// SPDX-License-Identifier: Apache-2.0
// Standalone use of the BF16 family: this program includes only kai/kai_common.h and the family's
// headers, and is linked with only one kernel's .c and its packers' .c (see the bf16_standalone_*
// targets in BUILD.bazel, which have no other dependency). It packs, runs the kernel over threads'
// worth of tiles and checks the result against a plain C loop. The bf16-output GEMM is also run
// as one whole-matrix call (its 4 x 24 paths), which must give the same bits as the tiles; its
// targets build it with and without its assembly (-DKAI_BF16_NO_ASM).

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

#ifdef KAI_STANDALONE_GEMV
#include "kai/ukernels/matmul/matmul_clamp_bf16_bf16p_bf16p/kai_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot.h"
#include "kai/ukernels/pack/kai_lhs_pack_bf16p1x4_bf16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_bf16p12x4biasf32_bf16_neon.h"
#define M 1
#define N 77
#define K 301
#elif defined(KAI_STANDALONE_BF16O_GEMM)
#include "kai/ukernels/matmul/matmul_clamp_bf16_bf16p_bf16p/kai_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_bf16p8x4_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon.h"
#define M 19
#define N 53
#define K 37
#else
#include "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p/kai_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_bf16p8x4_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon.h"
#define M 19
#define N 29
#define K 37
#endif

static float value(unsigned i) {
    return (float)((int)((i * 2654435761u) >> 20) % 201 - 100) / 64.0F;
}

int main(void) {
#if defined(__linux__) && defined(AT_HWCAP2)
    if ((getauxval(AT_HWCAP2) & (1UL << 14)) == 0) {  // HWCAP2_BF16
        printf("SKIP: the CPU lacks FEAT_BF16\n");
        return 0;
    }
#endif
    static float lhs[M * K], rhs_nxk[N * K], bias[N];
    static uint16_t lhs16[M * K], rhs16_kxn[K * N];
    for (unsigned t = 0; t < M * K; ++t) {
        lhs[t] = value(t);
        lhs16[t] = kai_cast_bf16_f32(lhs[t]);
    }
    for (unsigned j = 0; j < N; ++j) {
        bias[j] = value(9000 + j);
        for (unsigned kk = 0; kk < K; ++kk) {
            rhs_nxk[j * K + kk] = value(5000 + j * K + kk);
            rhs16_kxn[kk * N + j] = kai_cast_bf16_f32(rhs_nxk[j * K + kk]);
        }
    }

#ifdef KAI_STANDALONE_GEMV
#define KERNEL(f) kai_##f##_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot
    const size_t mr = KERNEL(get_mr)(), nr = KERNEL(get_nr)(), kr = KERNEL(get_kr)(), sr = KERNEL(get_sr)();
    void* lhs_packed = malloc(kai_get_lhs_packed_size_lhs_pack_bf16p1x4_bf16_neon(M, K, mr, kr, sr));
    void* rhs_packed = malloc(kai_get_rhs_packed_size_rhs_pack_kxn_bf16p12x4biasf32_bf16_neon(N, K, nr, kr));
    kai_run_lhs_pack_bf16p1x4_bf16_neon(M, K, mr, kr, sr, 0, lhs16, K * 2, lhs_packed);
    kai_run_rhs_pack_kxn_bf16p12x4biasf32_bf16_neon(1, N, K, nr, kr, sr, N * 2, rhs16_kxn, bias, NULL, rhs_packed, 0, NULL);
    static uint16_t dst[M * N];
    const size_t es = 2;
#elif defined(KAI_STANDALONE_BF16O_GEMM)
#define KERNEL(f) kai_##f##_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla
    const size_t mr = KERNEL(get_mr)(), nr = KERNEL(get_nr)(), kr = KERNEL(get_kr)(), sr = KERNEL(get_sr)();
    void* lhs_packed = malloc(kai_get_lhs_packed_size_lhs_quant_pack_bf16p8x4_f32_neon(M, K, mr, kr, sr));
    void* rhs_packed = malloc(kai_get_rhs_packed_size_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon(N, K, nr, kr));
    kai_run_lhs_quant_pack_bf16p8x4_f32_neon(M, K, mr, kr, sr, 0, lhs, K * 4, lhs_packed);
    kai_run_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon(1, N, K, nr, kr, sr, K * 4, rhs_nxk, bias, NULL, rhs_packed, 0, NULL);
    static uint16_t dst[M * N], whole[M * N];
    const size_t es = 2;
#else
#define KERNEL(f) kai_##f##_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla
    const size_t mr = KERNEL(get_mr)(), nr = KERNEL(get_nr)(), kr = KERNEL(get_kr)(), sr = KERNEL(get_sr)();
    void* lhs_packed = malloc(kai_get_lhs_packed_size_lhs_quant_pack_bf16p8x4_f32_neon(M, K, mr, kr, sr));
    void* rhs_packed = malloc(kai_get_rhs_packed_size_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon(N, K, nr, kr));
    kai_run_lhs_quant_pack_bf16p8x4_f32_neon(M, K, mr, kr, sr, 0, lhs, K * 4, lhs_packed);
    kai_run_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon(1, N, K, nr, kr, sr, K * 4, rhs_nxk, bias, NULL, rhs_packed, 0, NULL);
    static float dst[M * N];
    const size_t es = 4;
#endif
    if (lhs_packed == NULL || rhs_packed == NULL) {
        return 2;
    }
    // One tile per "thread": m_step x n_step rectangles, the last ones ragged.
    const size_t ms = KERNEL(get_m_step)(), ns = KERNEL(get_n_step)();
    for (size_t m0 = 0; m0 < M; m0 += ms) {
        for (size_t n0 = 0; n0 < N; n0 += ns) {
            KERNEL(run)(
                KAI_MIN(ms, M - m0), KAI_MIN(ns, N - n0), K,
                (const uint8_t*)lhs_packed + KERNEL(get_lhs_packed_offset)(m0, K),
                (const uint8_t*)rhs_packed + KERNEL(get_rhs_packed_offset)(n0, K),
                (uint8_t*)dst + KERNEL(get_dst_offset)(m0, n0, N * es), N * es, es, -FLT_MAX, FLT_MAX);
        }
    }

    // Bound: (Kp + 4) f32 roundings of one ulp over sum |terms| (see test/reference/bf16_ref.cc),
    // plus 2^-8 relative for a bf16 result.
    int bad = 0;
    for (size_t i = 0; i < M; ++i) {
        for (size_t j = 0; j < N; ++j) {
            double s = (double)bias[j], sa = fabs((double)bias[j]);
            for (size_t kk = 0; kk < K; ++kk) {
                const double p = (double)kai_cast_f32_bf16(lhs16[i * K + kk]) * (double)kai_cast_f32_bf16(rhs16_kxn[kk * N + j]);
                s += p;
                sa += fabs(p);
            }
#if defined(KAI_STANDALONE_GEMV) || defined(KAI_STANDALONE_BF16O_GEMM)
            const double got = (double)kai_cast_f32_bf16(dst[i * N + j]);
            const double bound = (K + 8) * ldexp(sa, -23) + ldexp(fabs(s), -8);
#else
            const double got = (double)dst[i * N + j];
            const double bound = (K + 8) * ldexp(sa, -23);
#endif
            if (!(fabs(got - s) <= bound)) {
                printf("dst[%zu][%zu] = %g, expected %g +- %g\n", i, j, got, s, bound);
                bad = 1;
            }
        }
    }
#if defined(KAI_STANDALONE_BF16O_GEMM)
    // The whole matrix in one call (column blocks in pairs, the lone last one through scratch).
    KERNEL(run)(M, N, K, lhs_packed, rhs_packed, whole, N * es, es, -FLT_MAX, FLT_MAX);
    if (memcmp(whole, dst, sizeof(dst)) != 0) {
        printf("the whole-matrix call differs from the tile-by-tile calls\n");
        bad = 1;
    }
    // And with a clamp that bites (the clamped assembly path): against the clamped tiles' values.
    KERNEL(run)(M, N, K, lhs_packed, rhs_packed, whole, N * es, es, -0.5F, 0.75F);
    for (size_t t = 0; t < M * N; ++t) {
        float v = kai_cast_f32_bf16(dst[t]);
        v = v < 0.75F ? v : 0.75F;
        v = v > -0.5F ? v : -0.5F;
        if (whole[t] != kai_cast_bf16_f32(v)) {
            printf("clamped dst[%zu] = 0x%04x, expected 0x%04x\n", t, whole[t], kai_cast_bf16_f32(v));
            bad = 1;
        }
    }
#endif
    free(lhs_packed);
    free(rhs_packed);
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad;
}
