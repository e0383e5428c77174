//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// GGUF Q8_0 weights through kai's int8 per-channel family (docs/matmul_int8_channelwise.md,
// "Feeding GGUF Q8_0 weights"):
//   1. make an LLM-like f32 weight tensor (N rows of K: per-row spread, heavy-tailed values, a few
//      outliers) and quantise it to Q8_0 as a GGUF writer does (blocks of 32, d = amax / 127 stored
//      as f16, q = round(x / d));
//   2. fold the per-block scales into one scale per output channel: dequantise the row
//      (f16(d) * q), scale_j = max |w| / 127, q' = round(w / scale_j), as ggml's KleidiAI path
//      does to feed these kernels;
//   3. pack once with kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon and run M activation rows through
//      the GEMM (M > 1) or the GEMV (M = 1);
//   4. print the accuracy cost of the folding (against the Q8_0 weights) and of the whole path
//      (folding plus dynamic int8 activations), both as relative RMS errors of the outputs, and
//      check that every kai output is within the error bound of docs/matmul_int8_channelwise.md
//      against the f64 product of the f32 activations with the folded weights.
//
// Usage: gguf_q8_0 [N K [M]]   (default 96 x 512, M = 5: the CI test; the doc's figures come from
// `bazel run //examples/gguf_q8_0 -- 4096 4096 4` and `... -- 4096 4096 1`). Exits 0 when every
// output is within its bound and the folded weights' error (against the f32 weights) is at most
// that of Q8_0 and of direct per-channel int8 added in quadrature (+10 %), 1 otherwise.

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
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp_qsi8cxp_interface.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon.h"

#define QK 32  // GGUF Q8_0 block length

#define UKERNEL(v)                                                                                            \
    {kai_get_m_step_##v, kai_get_n_step_##v, kai_get_mr_##v, kai_get_nr_##v, kai_get_kr_##v, kai_get_sr_##v, \
     kai_get_lhs_packed_offset_##v, kai_get_rhs_packed_offset_##v, kai_get_dst_offset_##v,                   \
     kai_get_dst_size_##v, kai_run_##v}

// DotProd kernels only, so that the example runs on every Armv8.2+ core (QEMU_CPU=neoverse-n1 too).
static const struct kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel gemm =
    UKERNEL(matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod);
static const struct kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel gemv =
    UKERNEL(matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod);

// Reproducible pseudo-random numbers (xorshift64*).
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static double uniform01(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 0x2545F4914F6CDD1Dull) >> 11) * (1.0 / 9007199254740992.0);
}
// Approximately normal (sum of 4 uniforms, unit variance).
static double normalish(void) {
    return (uniform01() + uniform01() + uniform01() + uniform01() - 2.0) * 1.7320508075688772;
}

int main(int argc, char** argv) {
    size_t n = 96, k = 512, m = 5;
    if (argc >= 3) {
        n = (size_t)strtoul(argv[1], NULL, 10);
        k = (size_t)strtoul(argv[2], NULL, 10);
        if (argc >= 4) m = (size_t)strtoul(argv[3], NULL, 10);
    }
#if defined(__linux__)
    if ((getauxval(AT_HWCAP) & (1ul << 20)) == 0) {  // HWCAP_ASIMDDP
        printf("gguf_q8_0: skipped: the CPU lacks FEAT_DotProd, which both kernels here need\n");
        return 0;
    }
#endif
    if (n == 0 || m == 0 || k == 0 || k % QK != 0) {
        fprintf(stderr, "gguf_q8_0: N, M >= 1 and K a positive multiple of %d\n", QK);
        return 2;
    }

    // 1. LLM-like weights: row scales spread over 4x, a Student-like tail (normal / sqrt of a
    //    uniform mixture) and one outlier per ~1000 values, 8x the row scale.
    float* w = malloc(n * k * sizeof(float));
    for (size_t j = 0; j < n; ++j) {
        const double row = 0.02 * exp2(2.0 * uniform01() - 1.0);
        for (size_t kk = 0; kk < k; ++kk) {
            double v = normalish() * row * (uniform01() < 0.1 ? 2.5 : 1.0);
            if (uniform01() < 0.001) v = (uniform01() < 0.5 ? -8.0 : 8.0) * row;
            w[j * k + kk] = (float)v;
        }
    }
    // Q8_0 (per 32-block d = amax / 127 as f16, q = round(x / d)), and its dequantised values.
    int8_t* q8 = malloc(n * k);
    float* w_q8 = malloc(n * k * sizeof(float));
    for (size_t b = 0; b < n * k / QK; ++b) {
        float amax = 0.0f;
        for (size_t t = 0; t < QK; ++t) amax = fmaxf(amax, fabsf(w[b * QK + t]));
        const float d = amax / 127.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        const float d16 = kai_cast_f32_f16(kai_cast_f16_f32(d));
        for (size_t t = 0; t < QK; ++t) {
            q8[b * QK + t] = (int8_t)roundf(w[b * QK + t] * id);
            w_q8[b * QK + t] = d16 * (float)q8[b * QK + t];
        }
    }

    // 2. Fold to one scale per output channel: requantise each dequantised row.
    int8_t* qc = malloc(n * k);
    float* scale = malloc(n * sizeof(float));
    float* w_fold = malloc(n * k * sizeof(float));
    for (size_t j = 0; j < n; ++j) {
        float amax = 0.0f;
        for (size_t kk = 0; kk < k; ++kk) amax = fmaxf(amax, fabsf(w_q8[j * k + kk]));
        const float s = amax > 0.0f ? amax / 127.0f : 1.0f;
        scale[j] = s;
        for (size_t kk = 0; kk < k; ++kk) {
            long v = lroundf(w_q8[j * k + kk] / s);
            v = v > 127 ? 127 : (v < -127 ? -127 : v);
            qc[j * k + kk] = (int8_t)v;
            w_fold[j * k + kk] = (float)v * s;
        }
    }

    // 3. Pack once, run the batch.
    const struct kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel* uk = m == 1 ? &gemv : &gemm;
    const size_t mr = uk->get_mr(), nr = uk->get_nr(), kr = uk->get_kr(), sr = uk->get_sr();
    const struct kai_rhs_pack_qsi8cx_params params = {1, 1.0f};
    void* rhs_p = malloc(kai_get_rhs_packed_size_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(n, k, nr, kr, sr));
    kai_run_rhs_pack_nxk_qsi8cxp_qsi8cx_neon(1, n, k, nr, kr, sr, qc, NULL, scale, rhs_p, 0, &params);
    float* x = malloc(m * k * sizeof(float));
    for (size_t i = 0; i < m * k; ++i) x[i] = (float)(normalish() * (uniform01() < 0.01 ? 6.0 : 1.0));
    void* lhs_p = malloc(kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr));
    kai_run_lhs_quant_pack_qai8dxp_f32(m, k, mr, kr, sr, 0, x, k * sizeof(float), lhs_p);
    float* y = malloc(m * n * sizeof(float));
    uk->run_matmul(m, n, k, lhs_p, rhs_p, y, n * sizeof(float), sizeof(float), -FLT_MAX, FLT_MAX);

    // 4. Errors against f64 products of the f32 activations with the three weight versions.
    // Per-channel int8 straight from the f32 weights (what a native int8 checkpoint would hold),
    // to tell the folding's cost from per-channel quantisation's own.
    float* w_pc = malloc(n * k * sizeof(float));
    for (size_t j = 0; j < n; ++j) {
        float amax = 0.0f;
        for (size_t kk = 0; kk < k; ++kk) amax = fmaxf(amax, fabsf(w[j * k + kk]));
        const float s = amax > 0.0f ? amax / 127.0f : 1.0f;
        for (size_t kk = 0; kk < k; ++kk) w_pc[j * k + kk] = (float)lroundf(w[j * k + kk] / s) * s;
    }
    double e_q8 = 0, e_fold = 0, e_kai = 0, e_pc = 0, e_fold_f32 = 0, ref2 = 0, worst = 0;
    size_t bad = 0;
    for (size_t i = 0; i < m; ++i) {
        // ls_i of the bound: the stored LHS scale of row i (mr = 1 or 4, kr = 4 or 8, sr = 1).
        const uint8_t* blk = (const uint8_t*)lhs_p + (i / mr) * mr * (k + 8);
        float ls;
        memcpy(&ls, blk + mr * k + 4 * mr + 4 * (i % mr), sizeof(ls));
        for (size_t j = 0; j < n; ++j) {
            double yf = 0, yq = 0, yc = 0, yp = 0, sw = 0, sxw = 0;
            for (size_t kk = 0; kk < k; ++kk) {
                const double xv = x[i * k + kk];
                yf += xv * w[j * k + kk];
                yq += xv * w_q8[j * k + kk];
                yc += xv * w_fold[j * k + kk];
                yp += xv * w_pc[j * k + kk];
                sw += fabs((double)w_fold[j * k + kk]);
                sxw += fabs(xv * w_fold[j * k + kk]);
            }
            const double got = y[i * n + j];
            ref2 += yq * yq;
            e_q8 += (yq - yf) * (yq - yf);
            e_fold += (yc - yq) * (yc - yq);
            e_kai += (got - yq) * (got - yq);
            e_pc += (yp - yf) * (yp - yf);
            e_fold_f32 += (yc - yf) * (yc - yf);
            // The bound of docs/matmul_int8_channelwise.md, "Numerics" (no bias here).
            const double bound = 1.01 * ls * sw + 8.0 * FLT_EPSILON * sxw;
            const double err = fabs(got - yc);
            if (err > bound) ++bad;
            if (err / bound > worst) worst = err / bound;
        }
    }
    const double rms = sqrt(ref2 / (double)(m * n));
    const double rel_q8 = sqrt(e_q8 / (double)(m * n)) / rms;
    const double rel_fold = sqrt(e_fold / (double)(m * n)) / rms;
    const double rel_kai = sqrt(e_kai / (double)(m * n)) / rms;
    const double rel_pc = sqrt(e_pc / (double)(m * n)) / rms;
    const double rel_fold_f32 = sqrt(e_fold_f32 / (double)(m * n)) / rms;
    printf("gguf_q8_0: N = %zu, K = %zu, M = %zu (%s), outputs relative to the Q8_0 result (RMS):\n", n, k, m,
           m == 1 ? "GEMV 1x8 dotprod" : "GEMM 16x4 dotprod");
    printf("  Q8_0 itself vs f32 weights           %.3e\n", rel_q8);
    printf("  folded per-channel int8 weights       %.3e   (the folding cost)\n", rel_fold);
    printf("  kai (folded weights, int8 activations) %.3e\n", rel_kai);
    printf("  against the f32 weights: Q8_0 folded %.3e, per-channel int8 from f32 %.3e\n", rel_fold_f32, rel_pc);
    printf("  kai vs f64 with folded weights: %zu of %zu outside the bound, worst %.2f of the bound\n", bad, m * n,
           worst);
    free(w);
    free(q8);
    free(w_q8);
    free(qc);
    free(scale);
    free(w_fold);
    free(rhs_p);
    free(x);
    free(lhs_p);
    free(y);
    free(w_pc);
    // The folding must cost no more than the two quantisations it chains (Q8_0, then per channel)
    // would independently (errors add in quadrature), with 10 % margin.
    const int fold_ok = rel_fold_f32 <= 1.1 * sqrt(rel_q8 * rel_q8 + rel_pc * rel_pc);
    return bad == 0 && fold_ok ? 0 : 1;
}
