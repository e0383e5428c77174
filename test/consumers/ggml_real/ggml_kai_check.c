// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//
// Runs ggml's matrix multiplication through ggml's KleidiAI backend (the CPU_KLEIDIAI extra buffer
// type, built from a kai checkout) and through ggml's own CPU code on the same weights and
// activations, and compares. Weight types: Q4_0, Q8_0 and F32 (the types ggml's KleidiAI backend
// repacks); M = 1 (decode, the GEMV kernels) and M > 1 (prefill, the GEMM kernels).
//
// Built with the --wrap trampolines of CMakeLists.txt (KAI_GGML_WRAP), it also prints which kai
// functions each case ran, and fails a Q4_0 or Q8_0 case in which no kai matmul ran or a reference
// case (plain CPU buffer) in which any kai function ran.
//
// Exit status 0 when every case used the KleidiAI buffer and agrees with ggml's own path within a
// relative RMS error of 1 % (both paths quantize the activations, to different formats, so the
// results are close, not equal). Built and run by run.sh; not part of kai's CI (it needs a ggml
// source tree).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml.h"

#ifdef KAI_GGML_WRAP
// Set by the --wrap trampolines CMakeLists.txt generates: one flag per kai_run_* function ggml names.
extern unsigned char kai_wrap_hits[];
extern const char* const kai_wrap_names[];
extern const int kai_wrap_count;
// Names of the kai functions run since the last call, into ran (without "kai_run_"); clears the flags.
static void take_kai_ran(char* ran, size_t cap) {
    size_t len = 0;
    ran[0] = 0;
    for (int i = 0; i < kai_wrap_count; ++i) {
        if (kai_wrap_hits[i] && len + 1 < cap) {
            len += (size_t)snprintf(ran + len, cap - len, " %s", kai_wrap_names[i] + 8);
            if (len >= cap) len = cap - 1;
        }
        kai_wrap_hits[i] = 0;
    }
    if (!ran[0]) snprintf(ran, cap, " (none)");
}
#else
static void take_kai_ran(char* ran, size_t cap) { snprintf(ran, cap, " (not instrumented)"); }
#endif

static float frand(unsigned* s) {
    *s = *s * 1664525u + 1013904223u;
    return (float)((*s >> 8) & 0xFFFF) / 32768.0f - 1.0f;
}

static ggml_backend_buffer_type_t kleidiai_buft(void) {
    ggml_backend_reg_t reg = ggml_backend_cpu_reg();
    ggml_backend_dev_t dev = ggml_backend_reg_dev_get(reg, 0);
    ggml_backend_dev_get_extra_bufts_t get =
        (ggml_backend_dev_get_extra_bufts_t)ggml_backend_reg_get_proc_address(reg, "ggml_backend_dev_get_extra_bufts");
    if (!get) return NULL;
    for (ggml_backend_buffer_type_t* b = get(dev); b && *b; ++b) {
        if (strstr(ggml_backend_buft_name(*b), "KLEIDIAI")) return *b;
    }
    return NULL;
}

// y[n x m] = mul_mat(w [k x n] of type t, x [k x m]) with w in buffer type wbuft.
static int matmul(ggml_backend_t be, ggml_backend_buffer_type_t wbuft, enum ggml_type t, int n, int m, int k,
                  const float* w, const float* x, float* y) {
    struct ggml_init_params wp = {ggml_tensor_overhead() * 4, NULL, true};
    struct ggml_context* wctx = ggml_init(wp);
    struct ggml_tensor* W = ggml_new_tensor_2d(wctx, t, k, n);
    ggml_backend_buffer_t wbuf = ggml_backend_alloc_ctx_tensors_from_buft(wctx, wbuft);
    if (!wbuf) return -1;
    ggml_backend_buffer_set_usage(wbuf, GGML_BACKEND_BUFFER_USAGE_WEIGHTS);
    size_t wbytes = ggml_row_size(t, k) * (size_t)n;
    void* wq = malloc(wbytes);
    if (t == GGML_TYPE_F32) {
        memcpy(wq, w, wbytes);
    } else {
        ggml_quantize_chunk(t, w, wq, 0, n, k, NULL);
    }
    ggml_backend_tensor_set(W, wq, 0, wbytes);
    free(wq);

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

int main(void) {
    ggml_backend_t be = ggml_backend_cpu_init();
    ggml_backend_cpu_set_n_threads(be, 2);
    ggml_backend_buffer_type_t kbuft = kleidiai_buft();
    if (!kbuft) {
        printf("FAIL: ggml has no CPU_KLEIDIAI buffer type (built without GGML_CPU_KLEIDIAI?)\n");
        return 1;
    }
    ggml_backend_buffer_type_t cbuft = ggml_backend_cpu_buffer_type();
    printf("buffer types: %s vs %s\n", ggml_backend_buft_name(kbuft), ggml_backend_buft_name(cbuft));
    const enum ggml_type types[] = {GGML_TYPE_Q4_0, GGML_TYPE_Q8_0, GGML_TYPE_F32};
    const int shapes[][3] = {{1, 96, 256}, {5, 72, 128}, {37, 200, 512}, {1, 4096, 1024}, {64, 256, 2048}};
    int failures = 0;
    unsigned seed = 12345u;
    for (size_t ti = 0; ti < sizeof(types) / sizeof(types[0]); ++ti) {
        for (size_t si = 0; si < sizeof(shapes) / sizeof(shapes[0]); ++si) {
            const int m = shapes[si][0], n = shapes[si][1], k = shapes[si][2];
            float* w = malloc(sizeof(float) * (size_t)n * k);
            float* x = malloc(sizeof(float) * (size_t)m * k);
            float* yk = malloc(sizeof(float) * (size_t)m * n);
            float* yc = malloc(sizeof(float) * (size_t)m * n);
            for (size_t i = 0; i < (size_t)n * k; ++i) w[i] = frand(&seed);
            for (size_t i = 0; i < (size_t)m * k; ++i) x[i] = frand(&seed);
            char ran_k[1024], ran_c[256];
            take_kai_ran(ran_k, sizeof(ran_k));
            int rk = matmul(be, kbuft, types[ti], n, m, k, w, x, yk);
            take_kai_ran(ran_k, sizeof(ran_k));
            int rc = matmul(be, cbuft, types[ti], n, m, k, w, x, yc);
            take_kai_ran(ran_c, sizeof(ran_c));
            double num = 0, den = 0;
            int nonfinite = 0, identical = 1;
            for (size_t i = 0; i < (size_t)m * n; ++i) {
                if (!isfinite(yk[i])) nonfinite++;
                if (yk[i] != yc[i]) identical = 0;
                num += (double)(yk[i] - yc[i]) * (yk[i] - yc[i]);
                den += (double)yc[i] * yc[i];
            }
            double rel = sqrt(num / (den > 0 ? den : 1));
            int ok = rk == 0 && rc == 0 && nonfinite == 0 && rel < 0.01;
#ifdef KAI_GGML_WRAP
            // ggml has kernels for Q4_0 and Q8_0 on every CPU with DotProd: they must be kai's.
            // (F32 goes to kai only on SME2; elsewhere ggml runs its own code, which is fine.)
            if (types[ti] != GGML_TYPE_F32 && !strstr(ran_k, "matmul_clamp_")) ok = 0;
            // The reference must be ggml's own code, not kai again.
            if (strcmp(ran_c, " (none)") != 0) ok = 0;
#endif
            failures += !ok;
            printf("%-4s m=%-3d n=%-4d k=%-4d  rel_rms=%.2e%s  %s\n", ggml_type_name(types[ti]), m, n, k, rel,
                   identical ? " (bit-identical)" : "", ok ? "ok" : "FAIL");
            printf("    kai functions run, CPU_KLEIDIAI:%s; CPU:%s\n", ran_k, ran_c);
            free(w);
            free(x);
            free(yk);
            free(yc);
        }
    }
    ggml_backend_free(be);
    printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
