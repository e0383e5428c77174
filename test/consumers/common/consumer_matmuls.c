// SPDX-License-Identifier: Apache-2.0
// The program of the CMake consumer projects (docs/cmake.md): as an engine would, it packs a
// GGUF Q4_0 weight tensor and an int4 per-channel weight tensor, runs a GEMM and a GEMV on each,
// and checks every output against a plain f32 matmul of the dequantised weights that it computes
// itself (nothing from kai's tests). The tolerance is the activation quantisation error bound:
// kai quantises activations to int8 and the reference does not.
//
// KAI_CONSUMER_FLAT_INCLUDES: include headers by basename, with the family directories on the
// include path (as ggml, MNN and PyTorch do); otherwise by path from the root.
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __linux__
#include <sys/auxv.h>
#endif

#ifdef KAI_CONSUMER_FLAT_INCLUDES
#include "kai_common.h"
#include "kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai_lhs_quant_pack_qsi8d32p_f32.h"
#include "kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod.h"
#include "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm.h"
#include "kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod.h"
#include "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm.h"
#include "kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0.h"
#include "kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"
#else
#include "kai/kai_common.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32p_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"
#endif

static uint32_t rng = 12345u;
static float frand(void) {  // uniform in [-1, 1)
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / 8388608.0f - 1.0f;
}

// IEEE binary16 <-> binary32 for normal values and zero (all this program produces).
static float f16_to_f32(uint16_t h) {
    const int e = (h >> 10) & 0x1f;
    const float m = (float)(h & 0x3ff);
    const float v = e == 0 ? ldexpf(m, -24) : ldexpf(1.0f + m / 1024.0f, e - 15);
    return (h & 0x8000) ? -v : v;
}
static uint16_t f32_to_f16(float f) {
    const uint16_t sign = signbit(f) ? 0x8000 : 0;
    f = fabsf(f);
    if (f < ldexpf(1.0f, -14)) return sign;  // flush (not reached for these inputs but zero)
    int e;
    const float m = frexpf(f, &e);                  // f = m * 2^e, m in [0.5, 1)
    long q = lrintf(ldexpf(m, 11));                 // 11 significant bits, ties to even
    if (q == 2048) { q = 1024; ++e; }
    return (uint16_t)(sign | ((e + 14) << 10) | (q - 1024));
}

static int failures = 0;
static void check(const char* what, size_t m, size_t n, const float* got, const double* ref, const double* bound) {
    double worst = 0;
    for (size_t i = 0; i < m * n; ++i) {
        const double err = fabs((double)got[i] - ref[i]);
        if (!(err <= bound[i])) {
            if (failures < 10) {
                fprintf(stderr, "FAIL %s: element (%zu, %zu): kai %.9g, reference %.9g, bound %.3g\n", what, i / n,
                        i % n, (double)got[i], ref[i], bound[i]);
            }
            ++failures;
        }
        if (bound[i] > 0 && err / bound[i] > worst) worst = err / bound[i];
    }
    printf("%-60s %zux%zu: max error %.2f of the bound\n", what, m, n, worst);
}

// GGUF Q4_0: ggml's quantize_row_q4_0_ref per block of 32, then the kai GEMM (i8mm) and GEMV
// (dotprod) with the Q8_0-style activation packer.
static void q4_0(int have_i8mm) {
    enum { M = 19, N = 13, K = 128, BL = 32, NB = K / BL };
    static float x[M][K], w[N][K];
    static uint8_t q4[N][NB * (BL / 2 + 2)];
    static double wd[N][K];
    for (size_t i = 0; i < M; ++i)
        for (size_t k = 0; k < K; ++k) x[i][k] = frand() * 3.0f;
    for (size_t j = 0; j < N; ++j)
        for (size_t k = 0; k < K; ++k) w[j][k] = frand();
    for (size_t j = 0; j < N; ++j) {
        for (size_t b = 0; b < NB; ++b) {
            float amax = 0, max = 0;
            for (size_t t = 0; t < BL; ++t) {
                const float v = w[j][b * BL + t];
                if (fabsf(v) > amax) { amax = fabsf(v); max = v; }
            }
            const float d = max / -8.0f;
            const float id = d != 0 ? 1.0f / d : 0.0f;
            uint8_t* blk = &q4[j][b * (BL / 2 + 2)];
            const uint16_t d16 = f32_to_f16(d);
            blk[0] = (uint8_t)(d16 & 0xff);
            blk[1] = (uint8_t)(d16 >> 8);
            for (size_t t = 0; t < BL / 2; ++t) {
                int u0 = (int)(int8_t)(w[j][b * BL + t] * id + 8.5f);
                int u1 = (int)(int8_t)(w[j][b * BL + t + BL / 2] * id + 8.5f);
                u0 = u0 > 15 ? 15 : u0;
                u1 = u1 > 15 ? 15 : u1;
                blk[2 + t] = (uint8_t)(u0 | (u1 << 4));
                wd[j][b * BL + t] = (double)(u0 - 8) * f16_to_f32(d16);
                wd[j][b * BL + t + BL / 2] = (double)(u1 - 8) * f16_to_f32(d16);
            }
        }
    }
    // Reference and bound: per block, each activation is off by at most half a step of its int8
    // grid plus the f16 rounding of the scale (127 steps times 2^-11 of a step).
    static double ref[M][N], bound[M][N];
    for (size_t i = 0; i < M; ++i)
        for (size_t j = 0; j < N; ++j) {
            double s = 0, e = 0, mag = 0;
            for (size_t b = 0; b < NB; ++b) {
                double amax = 0, wsum = 0;
                for (size_t t = 0; t < BL; ++t) {
                    const size_t k = b * BL + t;
                    s += (double)x[i][k] * wd[j][k];
                    mag += fabs((double)x[i][k] * wd[j][k]);
                    if (fabs((double)x[i][k]) > amax) amax = fabs((double)x[i][k]);
                    wsum += fabs(wd[j][k]);
                }
                e += amax / 127.0 * (0.5 + 127.0 / 2048.0 + 1e-3) * wsum;
            }
            ref[i][j] = s;
            bound[i][j] = e + 1e-5 * mag + 1e-6;
        }

    struct kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    const size_t nr = kai_get_nr_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm();
    const size_t kr = kai_get_kr_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm();
    const size_t sr = kai_get_sr_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm();
    // The GEMV kernel shares the packed weights (same nr, kr, sr).
    if (nr != kai_get_nr_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod() ||
        kr != kai_get_kr_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod()) {
        fprintf(stderr, "FAIL: Q4_0 GEMM and GEMV kernels disagree on nr/kr\n");
        ++failures;
        return;
    }
    void* rhs_p = malloc(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(N, K, nr, kr, BL));
    kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(1, N, K, nr, kr, sr, BL, &q4[0][0], NULL, rhs_p, 0, &params);

    static float dst[M][N];
    if (have_i8mm) {
        const size_t mr = kai_get_mr_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm();
        void* lhs_p = malloc(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32(M, K, BL, mr, kr, sr));
        kai_run_lhs_quant_pack_qsi8d32p_f32(M, K, BL, mr, kr, sr, 0, &x[0][0], K * sizeof(float), lhs_p);
        kai_run_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm(
            M, N, K, BL, lhs_p, rhs_p, &dst[0][0], N * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
        check("Q4_0 GEMM kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm", M, N, &dst[0][0], &ref[0][0],
              &bound[0][0]);
        free(lhs_p);
    }
    {
        const size_t mr = kai_get_mr_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod();
        void* lhs_p = malloc(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32(1, K, BL, mr, kr, sr));
        kai_run_lhs_quant_pack_qsi8d32p_f32(1, K, BL, mr, kr, sr, 0, &x[0][0], K * sizeof(float), lhs_p);
        kai_run_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod(
            1, N, K, BL, lhs_p, rhs_p, &dst[0][0], N * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
        check("Q4_0 GEMV kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod", 1, N, &dst[0][0],
              &ref[0][0], &bound[0][0]);
        free(lhs_p);
    }
    free(rhs_p);
}

// int4 per channel: symmetric int4 weights with one f32 scale per output channel, a bias, and
// dynamically quantised (asymmetric int8 per row) activations.
static void int4_per_channel(int have_i8mm) {
    enum { M = 11, N = 21, K = 80, KB = (K + 1) / 2 };
    static float x[M][K], w[N][K], scale[N], bias[N];
    static uint8_t q4[N][KB];
    static double wd[N][K];
    for (size_t i = 0; i < M; ++i)
        for (size_t k = 0; k < K; ++k) x[i][k] = frand() * 2.0f + 0.25f;
    for (size_t j = 0; j < N; ++j) {
        float amax = 0;
        for (size_t k = 0; k < K; ++k) {
            w[j][k] = frand() * 0.5f;
            if (fabsf(w[j][k]) > amax) amax = fabsf(w[j][k]);
        }
        scale[j] = amax > 0 ? amax / 7.0f : 1.0f;
        bias[j] = frand();
        for (size_t k = 0; k < K; ++k) {
            long q = lroundf(w[j][k] / scale[j]);
            q = q < -8 ? -8 : q > 7 ? 7 : q;
            q4[j][k / 2] = (uint8_t)(q4[j][k / 2] | ((q + 8) << ((k % 2) ? 4 : 0)));
            wd[j][k] = (double)q * scale[j];
        }
    }
    // Bound: per row, each activation is off by at most one step (range / 255) of its int8 grid
    // (half a step of rounding, half a step of zero-point rounding).
    static double ref[M][N], bound[M][N];
    for (size_t i = 0; i < M; ++i) {
        double lo = 0, hi = 0;
        for (size_t k = 0; k < K; ++k) {
            if (x[i][k] < lo) lo = x[i][k];
            if (x[i][k] > hi) hi = x[i][k];
        }
        const double step = (hi - lo) / 255.0;
        for (size_t j = 0; j < N; ++j) {
            double s = bias[j], wsum = 0, mag = fabs((double)bias[j]);
            for (size_t k = 0; k < K; ++k) {
                s += (double)x[i][k] * wd[j][k];
                mag += fabs((double)x[i][k] * wd[j][k]);
                wsum += fabs(wd[j][k]);
            }
            ref[i][j] = s;
            bound[i][j] = step * 1.01 * wsum + 1e-5 * mag + 1e-6;
        }
    }

    struct kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    const size_t nr = kai_get_nr_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm();
    const size_t kr = kai_get_kr_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm();
    const size_t sr = kai_get_sr_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm();
    if (nr != kai_get_nr_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod() ||
        kr != kai_get_kr_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod()) {
        fprintf(stderr, "FAIL: int4 GEMM and GEMV kernels disagree on nr/kr\n");
        ++failures;
        return;
    }
    void* rhs_p = malloc(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(N, K, nr, kr, sr));
    kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(1, N, K, nr, kr, sr, &q4[0][0], bias, scale, rhs_p, 0, &params);

    static float dst[M][N];
    if (have_i8mm) {
        const size_t mr = kai_get_mr_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm();
        void* lhs_p = malloc(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(M, K, mr, kr, sr));
        kai_run_lhs_quant_pack_qai8dxp_f32(M, K, mr, kr, sr, 0, &x[0][0], K * sizeof(float), lhs_p);
        kai_run_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm(
            M, N, K, lhs_p, rhs_p, &dst[0][0], N * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
        check("int4/channel GEMM kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm", M, N, &dst[0][0],
              &ref[0][0], &bound[0][0]);
        free(lhs_p);
    }
    {
        const size_t mr = kai_get_mr_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod();
        void* lhs_p = malloc(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(1, K, mr, kr, sr));
        kai_run_lhs_quant_pack_qai8dxp_f32(1, K, mr, kr, sr, 0, &x[0][0], K * sizeof(float), lhs_p);
        kai_run_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod(
            1, N, K, lhs_p, rhs_p, &dst[0][0], N * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);
        check("int4/channel GEMV kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod", 1, N, &dst[0][0],
              &ref[0][0], &bound[0][0]);
        free(lhs_p);
    }
    free(rhs_p);
}

int main(void) {
    int have_dotprod = 1, have_i8mm = 1;
#ifdef __linux__
    have_dotprod = (getauxval(AT_HWCAP) & (1ul << 20)) != 0;
    have_i8mm = (getauxval(AT_HWCAP2) & (1ul << 13)) != 0;
#endif
    if (!have_dotprod) {
        fprintf(stderr, "FAIL: this CPU has no DotProd; the consumer check needs it (run under qemu -cpu max)\n");
        return 1;
    }
    if (!have_i8mm) printf("note: no I8MM on this CPU: GEMM kernels not run, GEMV only\n");
    printf("kai %s (KleidiAI %s compatible)\n", kai_get_version(), KAI_KLEIDIAI_COMPAT_VERSION);
    q4_0(have_i8mm);
    int4_per_channel(have_i8mm);
    if (failures) {
        fprintf(stderr, "%d outputs outside the bound\n", failures);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
