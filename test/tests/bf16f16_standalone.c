// SPDX-License-Identifier: Apache-2.0
// Standalone use of family bf16f16 (BF16 GEMM on f16 data): this program includes only
// kai/kai_common.h and the family's headers, and is linked with only the kernel's .c and the five
// f16-input packers' .c (the bf16f16_standalone_* targets in BUILD.bazel, which have no other
// dependency). It checks the packed bytes against plain C loops (KxN and NxK give the same bytes,
// the biasf32 layout too), runs the kernel tile by tile and in one call, and checks the f16 result
// against a double-precision loop. Its targets build it with the kernels' flags, with the kernel's
// intrinsics instead of its assembly (-DKAI_BF16_NO_ASM), and at -O3.

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
#include "kai/ukernels/matmul/matmul_clamp_f16_bf16p_bf16p/kai_matmul_clamp_f16_bf16p8x4_bf16p12x4b_8x12_neon_mmla.h"
#include "kai/ukernels/pack/kai_lhs_pack_bf16p8x4_f16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_kxn_bf16p12x4biasf32_f16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_bf16p12x4biasf16_f16_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_bf16p12x4biasf32_f16_neon.h"

#define M 19
#define N 53
#define K 37
#define KP 40

#define KERNEL(f) kai_##f##_matmul_clamp_f16_bf16p8x4_bf16p12x4b_8x12_neon_mmla

static uint16_t value(unsigned i) {
    // Multiples of 1/64 in [-100/64, 100/64], plus every 7th value with the low mantissa bits
    // 100 (a bf16 rounding tie).
    uint16_t h = kai_cast_f16_f32((float)((int)((i * 2654435761u) >> 20) % 201 - 100) / 64.0F);
    if (i % 7 == 0 && (h & 0x7C00u) != 0) h = (uint16_t)((h & ~0x7u) | 0x4u);
    return h;
}

static uint16_t bf16_of(uint16_t h) {
    return kai_cast_bf16_f32(kai_cast_f32_f16(h));
}

int main(void) {
#if defined(__linux__) && defined(AT_HWCAP2)
    if ((getauxval(AT_HWCAP2) & (1UL << 14)) == 0 || (getauxval(AT_HWCAP) & (1UL << 10)) == 0) {
        printf("SKIP: the CPU lacks FEAT_BF16 or FEAT_FP16\n");  // HWCAP2_BF16, HWCAP_ASIMDHP
        return 0;
    }
#endif
    static uint16_t lhs[M * K], rhs_kxn[K * N], rhs_nxk[N * K], bias16[N];
    static float bias32[N];
    for (unsigned t = 0; t < M * K; ++t) lhs[t] = value(t);
    for (unsigned j = 0; j < N; ++j) {
        bias16[j] = value(9000 + j);
        bias32[j] = kai_cast_f32_f16(bias16[j]);
        for (unsigned kk = 0; kk < K; ++kk) {
            rhs_kxn[kk * N + j] = value(5000 + j * K + kk);
            rhs_nxk[j * K + kk] = rhs_kxn[kk * N + j];
        }
    }
    int bad = 0;

    // LHS: blocks of 8 rows; rows past M repeat the block's first row; k >= K is 0.
    const size_t lhs_size = kai_get_lhs_packed_size_lhs_pack_bf16p8x4_f16_neon(M, K, 8, 4, 1);
    uint8_t* lhs_packed = malloc(lhs_size);
    kai_run_lhs_pack_bf16p8x4_f16_neon(M, K, 8, 4, 1, 0, lhs, K * 2, lhs_packed);
    for (size_t i = 0; i < (M + 7) / 8 * 8; ++i) {
        const size_t src = i < M ? i : i / 8 * 8;
        for (size_t kk = 0; kk < KP; ++kk) {
            const uint16_t want = kk < K ? bf16_of(lhs[src * K + kk]) : 0;
            uint16_t got;
            memcpy(&got, lhs_packed + (i / 8) * 16 * KP + (kk / 4) * 64 + (i % 8) * 8 + (kk % 4) * 2, 2);
            if (got != want) {
                printf("packed LHS (%zu, %zu) = 0x%04x, expected 0x%04x\n", i, kk, got, want);
                bad = 1;
            }
        }
    }

    // RHS: blocks of 12 columns, 12 bias values (f16 or f32), then 12 x 4 bf16 per group of 4 k;
    // k >= K repeats k = 0, columns past N are 0.
    const size_t rhs_size = kai_get_rhs_packed_size_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(N, K);
    const size_t rhs32_size = kai_get_rhs_packed_size_rhs_pack_kxn_bf16p12x4biasf32_f16_neon(N, K);
    uint8_t* rhs_packed = calloc(rhs_size, 1);
    uint8_t* rhs_packed_nxk = calloc(rhs_size, 1);
    uint8_t* rhs32 = calloc(rhs32_size, 1);
    uint8_t* rhs32_nxk = calloc(rhs32_size, 1);
    kai_run_rhs_pack_kxn_bf16p12x4biasf16_f16_neon(1, N, K, 12, 4, 1, N * 2, rhs_kxn, bias16, NULL, rhs_packed, 0, NULL);
    kai_run_rhs_pack_nxk_bf16p12x4biasf16_f16_neon(1, N, K, 12, 4, 1, K * 2, rhs_nxk, bias16, NULL, rhs_packed_nxk, 0, NULL);
    kai_run_rhs_pack_kxn_bf16p12x4biasf32_f16_neon(1, N, K, 12, 4, 1, N * 2, rhs_kxn, bias32, NULL, rhs32, 0, NULL);
    kai_run_rhs_pack_nxk_bf16p12x4biasf32_f16_neon(1, N, K, 12, 4, 1, K * 2, rhs_nxk, bias32, NULL, rhs32_nxk, 0, NULL);
    if (memcmp(rhs_packed, rhs_packed_nxk, rhs_size) != 0 || memcmp(rhs32, rhs32_nxk, rhs32_size) != 0) {
        printf("the nxk packers differ from the kxn ones\n");
        bad = 1;
    }
    for (size_t j = 0; j < (N + 11) / 12 * 12; ++j) {
        for (int f32 = 0; f32 < 2; ++f32) {
            const size_t bias_bytes = f32 ? 4 : 2;
            const uint8_t* block = (f32 ? rhs32 : rhs_packed) + (j / 12) * 12 * (bias_bytes + KP * 2);
            if (j < N && memcmp(block + (j % 12) * bias_bytes, f32 ? (const void*)&bias32[j] : (const void*)&bias16[j],
                                bias_bytes) != 0) {
                printf("packed bias %zu (%s) differs\n", j, f32 ? "f32" : "f16");
                bad = 1;
            }
            for (size_t kk = 0; kk < KP; ++kk) {
                const uint16_t want = j < N ? bf16_of(rhs_kxn[(kk < K ? kk : 0) * N + j]) : 0;
                uint16_t got;
                memcpy(&got, block + 12 * bias_bytes + (kk / 4) * 96 + (j % 12) * 8 + (kk % 4) * 2, 2);
                if (got != want) {
                    printf("packed RHS (%zu, %zu) (%s bias) = 0x%04x, expected 0x%04x\n", kk, j, f32 ? "f32" : "f16", got,
                           want);
                    bad = 1;
                }
            }
        }
    }

    // The kernel, tile by tile (8 x 12), then in one call (4 x 24 tiles inside).
    static uint16_t dst[M * N], whole[M * N];
    const size_t es = 2;
    for (size_t m0 = 0; m0 < M; m0 += KERNEL(get_m_step)()) {
        for (size_t n0 = 0; n0 < N; n0 += KERNEL(get_n_step)()) {
            const size_t mh = M - m0 < 8 ? M - m0 : 8, nw = N - n0 < 12 ? N - n0 : 12;
            KERNEL(run)(mh, nw, K, lhs_packed + KERNEL(get_lhs_packed_offset)(m0, K),
                        rhs_packed + KERNEL(get_rhs_packed_offset)(n0, K), (uint8_t*)dst + KERNEL(get_dst_offset)(m0, n0, N * es),
                        N * es, es, -FLT_MAX, FLT_MAX);
        }
    }
    for (size_t i = 0; i < M; ++i) {
        for (size_t j = 0; j < N; ++j) {
            double s = (double)bias32[j], sa = fabs(s);
            for (size_t kk = 0; kk < K; ++kk) {
                const double p = (double)kai_cast_f32_bf16(bf16_of(lhs[i * K + kk])) *
                                 (double)kai_cast_f32_bf16(bf16_of(rhs_kxn[kk * N + j]));
                s += p;
                sa += fabs(p);
            }
            // f32 accumulation (KP + 4 roundings of at most one f32 ulp each), then the f16
            // rounding (half an f16 ulp: 2^-11 relative, 2^-25 absolute below the normal range).
            const double f32_bound = (KP + 8) * ldexp(sa, -23);
            const double bound = f32_bound + ldexp(fabs(s) + f32_bound, -11) + ldexp(1.0, -25);
            const double got = (double)kai_cast_f32_f16(dst[i * N + j]);
            if (!(fabs(got - s) <= bound)) {
                printf("dst[%zu][%zu] = %g, expected %g +- %g\n", i, j, got, s, bound);
                bad = 1;
            }
        }
    }
    KERNEL(run)(M, N, K, lhs_packed, rhs_packed, whole, N * es, es, -FLT_MAX, FLT_MAX);
    if (memcmp(whole, dst, sizeof(dst)) != 0) {
        printf("the whole-matrix call differs from the tile-by-tile calls\n");
        bad = 1;
    }
    // A clamp that bites: min(., max) then max(., min) in f32, then the f16 rounding. The bounds
    // are not f16 values; the unclamped results are (the tiles above), so the clamped ones follow.
    KERNEL(run)(M, N, K, lhs_packed, rhs_packed, whole, N * es, es, -0.5003F, 0.7502F);
    for (size_t t = 0; t < M * N; ++t) {
        float v = kai_cast_f32_f16(dst[t]);
        v = v < 0.7502F ? v : 0.7502F;
        v = v > -0.5003F ? v : -0.5003F;
        if (whole[t] != kai_cast_f16_f32(v)) {
            printf("clamped dst[%zu] = 0x%04x, expected 0x%04x\n", t, whole[t], kai_cast_f16_f32(v));
            bad = 1;
        }
    }
    free(lhs_packed);
    free(rhs_packed);
    free(rhs_packed_nxk);
    free(rhs32);
    free(rhs32_nxk);
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad;
}
