// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//
// GGUF K-quants: ggml's own CPU mul_mat with Q4_K and Q6_K weights against kai's K-quant
// kernels on the same GGUF bytes. The blocks come from ggml's own quantizer (ggml_quantize_chunk,
// i.e. quantize_row_q4_K / quantize_row_q6_K) on random data; ggml multiplies them from a plain CPU
// buffer (its vec_dot_q4_K_q8_K / vec_dot_q6_K_q8_K path), kai packs the same bytes with
// kai_rhs_pack_nxk_{q4kp_q4k,q6kp_q6k}_neon and runs its GEMV (M = 1) and GEMM (M > 1: the I8MM one
// when the CPU has FEAT_I8MM, else the DotProd one). Both quantize the activations per 256 values
// with one scale (Q8_K and kai's qsi8d256p), so the results agree up to f32 rounding: the check
// requires a relative RMS difference under 1e-4. Built and run by run.sh; not part of kai's CI.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp/kai_matmul_clamp_f32_qsi8d256p1x8_q4kp4x8_1x8_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp/kai_matmul_clamp_f32_qsi8d256p4x4_q4kp4x8_4x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp/kai_matmul_clamp_f32_qsi8d256p4x8_q4kp4x8_4x4_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp/kai_matmul_clamp_f32_qsi8d256p1x8_q6kp4x8_1x8_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp/kai_matmul_clamp_f32_qsi8d256p4x4_q6kp4x8_4x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp/kai_matmul_clamp_f32_qsi8d256p4x8_q6kp4x8_4x4_neon_i8mm.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d256p_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_q4kp_q4k_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_q6kp_q6k_neon.h"

typedef void (*run_fn)(size_t, size_t, size_t, const void*, const void*, float*, size_t, size_t, float, float);
struct kern {
    const char* name;
    size_t mr, kr;
    run_fn run;
};
#define K(stem, mr, kr) {"kai_" #stem, mr, kr, kai_run_##stem}
static const struct kern kernels[2][3] = {
    {K(matmul_clamp_f32_qsi8d256p1x8_q4kp4x8_1x8_neon_dotprod, 1, 8), K(matmul_clamp_f32_qsi8d256p4x4_q4kp4x8_4x4_neon_dotprod, 4, 4),
     K(matmul_clamp_f32_qsi8d256p4x8_q4kp4x8_4x4_neon_i8mm, 4, 8)},
    {K(matmul_clamp_f32_qsi8d256p1x8_q6kp4x8_1x8_neon_dotprod, 1, 8), K(matmul_clamp_f32_qsi8d256p4x4_q6kp4x8_4x4_neon_dotprod, 4, 4),
     K(matmul_clamp_f32_qsi8d256p4x8_q6kp4x8_4x4_neon_i8mm, 4, 8)},
};

static float frand(unsigned* s) {
    *s = *s * 1664525u + 1013904223u;
    return (float)((*s >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}

// ggml: y[m x n] = mul_mat(W [k x n] holding the GGUF rows wq, X [k x m]) on the CPU backend.
static int ggml_matmul(ggml_backend_t be, enum ggml_type t, int n, int m, int k, const void* wq, const float* x, float* y) {
    struct ggml_init_params wp = {ggml_tensor_overhead() * 4, NULL, true};
    struct ggml_context* wctx = ggml_init(wp);
    struct ggml_tensor* W = ggml_new_tensor_2d(wctx, t, k, n);
    ggml_backend_buffer_t wbuf = ggml_backend_alloc_ctx_tensors_from_buft(wctx, ggml_backend_cpu_buffer_type());
    ggml_backend_tensor_set(W, wq, 0, ggml_row_size(t, k) * (size_t)n);
    struct ggml_init_params gp = {ggml_tensor_overhead() * 8 + ggml_graph_overhead(), NULL, true};
    struct ggml_context* gctx = ggml_init(gp);
    struct ggml_tensor* X = ggml_new_tensor_2d(gctx, GGML_TYPE_F32, k, m);
    struct ggml_tensor* Y = ggml_mul_mat(gctx, W, X);
    struct ggml_cgraph* g = ggml_new_graph(gctx);
    ggml_build_forward_expand(g, Y);
    ggml_backend_buffer_t gbuf = ggml_backend_alloc_ctx_tensors(gctx, be);
    ggml_backend_tensor_set(X, x, 0, sizeof(float) * (size_t)k * m);
    int rc = ggml_backend_graph_compute(be, g) == GGML_STATUS_SUCCESS ? 0 : -2;
    ggml_backend_tensor_get(Y, y, 0, sizeof(float) * (size_t)n * m);
    ggml_backend_buffer_free(gbuf);
    ggml_free(gctx);
    ggml_backend_buffer_free(wbuf);
    ggml_free(wctx);
    return rc;
}

// kai on the same GGUF rows: pack once, quantize the activations, run the kernel over the whole output.
static void kai_matmul(int q6, const struct kern* kn, int n, int m, int k, const uint8_t* wq, size_t row_bytes,
                       const float* x, float* y) {
    const size_t rs = q6 ? kai_get_rhs_packed_size_rhs_pack_nxk_q6kp_q6k_neon((size_t)n, (size_t)k, 4, 8, 1)
                         : kai_get_rhs_packed_size_rhs_pack_nxk_q4kp_q4k_neon((size_t)n, (size_t)k, 4, 8, 1);
    void* rp = malloc(rs);
    if (q6) {
        kai_run_rhs_pack_nxk_q6kp_q6k_neon((size_t)n, (size_t)k, 4, 8, 1, wq, row_bytes, NULL, rp);
    } else {
        kai_run_rhs_pack_nxk_q4kp_q4k_neon((size_t)n, (size_t)k, 4, 8, 1, wq, row_bytes, NULL, rp);
    }
    void* lp = malloc(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d256p_f32_neon((size_t)m, (size_t)k, kn->mr, kn->kr, 1));
    kai_run_lhs_quant_pack_qsi8d256p_f32_neon((size_t)m, (size_t)k, kn->mr, kn->kr, 1, 0, x, sizeof(float) * (size_t)k, lp);
    kn->run((size_t)m, (size_t)n, (size_t)k, lp, rp, y, sizeof(float) * (size_t)n, sizeof(float), -INFINITY, INFINITY);
    free(lp);
    free(rp);
}

int main(void) {
    const unsigned long hw = getauxval(AT_HWCAP), hw2 = getauxval(AT_HWCAP2);
    const int dotprod = (hw >> 20) & 1, i8mm = (hw2 >> 13) & 1;
    if (!dotprod) {
        printf("SKIP: the CPU lacks FEAT_DotProd (kai's K-quant kernels need it)\n");
        return 0;
    }
    ggml_backend_t be = ggml_backend_cpu_init();
    ggml_backend_cpu_set_n_threads(be, 2);
    const enum ggml_type types[2] = {GGML_TYPE_Q4_K, GGML_TYPE_Q6_K};
    const int shapes[][3] = {{1, 96, 256}, {5, 72, 512}, {37, 200, 1024}, {1, 1024, 4096}, {64, 256, 2048}};
    int failures = 0;
    unsigned seed = 2026u;
    for (int q6 = 0; q6 < 2; ++q6) {
        for (size_t si = 0; si < sizeof(shapes) / sizeof(shapes[0]); ++si) {
            const int m = shapes[si][0], n = shapes[si][1], k = shapes[si][2];
            const struct kern* kn = &kernels[q6][m == 1 ? 0 : (i8mm ? 2 : 1)];
            float* w = malloc(sizeof(float) * (size_t)n * k);
            float* x = malloc(sizeof(float) * (size_t)m * k);
            float* yk = malloc(sizeof(float) * (size_t)m * n);
            float* yg = malloc(sizeof(float) * (size_t)m * n);
            for (size_t i = 0; i < (size_t)n * k; ++i) w[i] = frand(&seed) * 0.05f;
            for (size_t i = 0; i < (size_t)m * k; ++i) x[i] = frand(&seed);
            const size_t row_bytes = ggml_row_size(types[q6], k);
            uint8_t* wq = malloc(row_bytes * (size_t)n);
            ggml_quantize_chunk(types[q6], w, wq, 0, n, k, NULL);
            const int rc = ggml_matmul(be, types[q6], n, m, k, wq, x, yg);
            kai_matmul(q6, kn, n, m, k, wq, row_bytes, x, yk);
            double num = 0, den = 0;
            int nonfinite = 0;
            for (size_t i = 0; i < (size_t)m * n; ++i) {
                if (!isfinite(yk[i])) nonfinite++;
                num += (double)(yk[i] - yg[i]) * (yk[i] - yg[i]);
                den += (double)yg[i] * yg[i];
            }
            const double rel = sqrt(num / (den > 0 ? den : 1));
            const int ok = rc == 0 && nonfinite == 0 && rel < 1e-4;
            failures += !ok;
            printf("%-4s m=%-3d n=%-4d k=%-4d  rel_rms=%.2e  %s  (%s)\n", ggml_type_name(types[q6]), m, n, k, rel,
                   ok ? "ok" : "FAIL", kn->name);
            free(w);
            free(x);
            free(yk);
            free(yg);
            free(wq);
        }
    }
    ggml_backend_free(be);
    printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
