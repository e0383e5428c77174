//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// A minimal custom runtime embedding kai (docs/integration_runtime.md, "custom_runtime"):
//
//   compile:  a two-layer MLP graph (Linear + bias + ReLU, twice), f32 tensors in and out. For each
//             node the runtime picks the BF16 kernel once (kai_select_bf16), packs the weights and
//             bias once (bf16, with the f32 bias inside the packed RHS), and builds a static
//             per-thread tile schedule: slot t of the pool always computes the same rectangle
//             (kai_split_grid / kai_split_get_tile), so execution has no scheduling decisions;
//   execute:  per node, pack the activations (f32 -> bf16, split by rows over the pool), then every
//             slot runs its tile with the clamp [0, +inf) that is the ReLU.
//   batch 1:  the same graph at M = 1 selects the GEMV, which reads the same packed weights
//             (kai_select_pair_bf16) — no second copy of the weights.
//
// Every layer's output is checked against a plain double-precision reference on the bf16-rounded
// operands. Exits 0 when all are within bound (or when the CPU has no FEAT_BF16, which it reports).
//
//   custom_runtime [threads]   (default 4)
#define _POSIX_C_SOURCE 200809L

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "examples/common/thread_pool.h"
#include "kai/kai_common.h"
#include "kai/kai_cpu.h"
#include "kai/kai_select.h"
#include "kai/kai_threading.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_bf16p1x4_f32_neon.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_bf16p8x4_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon.h"

typedef struct kai_matmul_clamp_f32_bf16p_bf16p_ukernel ukernel;

static void* xmalloc(size_t n) {
    void* p = malloc(n != 0 ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "custom_runtime: out of memory\n");
        exit(2);
    }
    return p;
}

static uint64_t rng_state = 0xD1B54A32D192ED03ull;
static float frand(void) {  // uniform in [-1, 1)
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (float)(rng_state >> 40) / (float)(1u << 23) - 1.0f;
}

// ------------------------------------------------------------------ the runtime

// One Linear + bias + ReLU node: y (m x n) = max(x (m x k) W (k x n) + b, 0).
struct node {
    size_t k, n;
    const float* w;     // K x N f32 (the framework's tensor), kept for the check only
    const float* bias;  // N
    uint8_t* rhs_packed;
};

// A compiled plan for one batch size m.
struct plan {
    size_t m;
    const ukernel* uk;
    size_t rows, cols;  // the static grid of tiles: slot t -> kai_split_get_tile(..., t)
};

struct runtime {
    struct pool pool;
    const ukernel* gemm;
    const ukernel* gemv;
    struct node nodes[2];
};

struct pack_rhs_job {
    const struct runtime* rt;
    struct node* nd;
};

// Weights are packed once, each pool slot taking a column range in multiples of nr.
static void pack_rhs_slot(void* ctx, size_t t) {
    const struct pack_rhs_job* j = ctx;
    const ukernel* uk = j->rt->gemm;
    const size_t nr = uk->get_nr(), kr = uk->get_kr(), sr = uk->get_sr();
    size_t b, e;
    kai_split_range(j->nd->n, nr, j->rt->pool.nthreads, t, &b, &e);
    if (e <= b) return;
    kai_run_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(
        1, e - b, j->nd->k, nr, kr, sr, j->nd->n * sizeof(float), j->nd->w + b, j->nd->bias + b, NULL,
        j->nd->rhs_packed + kai_get_rhs_packed_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(b, j->nd->k, nr, kr), 0,
        NULL);
}

static void compile_node(struct runtime* rt, struct node* nd) {
    const ukernel* uk = rt->gemm;
    nd->rhs_packed = xmalloc(kai_get_rhs_packed_size_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(nd->n, nd->k, uk->get_nr(), uk->get_kr()));
    struct pack_rhs_job job = {rt, nd};
    pool_run(&rt->pool, rt->pool.nthreads, pack_rhs_slot, &job);
}

static struct plan compile_plan(const struct runtime* rt, size_t m, size_t n) {
    struct plan p;
    p.m = m;
    p.uk = m == 1 ? rt->gemv : rt->gemm;
    kai_split_grid(m, n, p.uk->get_m_step(), p.uk->get_n_step(), rt->pool.nthreads, &p.rows, &p.cols);
    return p;
}

struct exec_job {
    const struct runtime* rt;
    const struct plan* p;
    const struct node* nd;
    const float* x;
    uint8_t* lhs_packed;
    float* y;
};

static void pack_lhs_slot(void* ctx, size_t t) {
    const struct exec_job* j = ctx;
    const ukernel* uk = j->p->uk;
    const size_t mr = uk->get_mr(), kr = uk->get_kr(), sr = uk->get_sr(), k = j->nd->k;
    size_t b, e;
    kai_split_range(j->p->m, mr, j->rt->pool.nthreads, t, &b, &e);
    if (e <= b) return;
    if (mr == 1) {
        kai_run_lhs_quant_pack_bf16p1x4_f32_neon(e - b, k, mr, kr, sr, 0, j->x + b * k, k * sizeof(float),
                                                  j->lhs_packed);
    } else {
        kai_run_lhs_quant_pack_bf16p8x4_f32_neon(
            e - b, k, mr, kr, sr, 0, j->x + b * k, k * sizeof(float),
            j->lhs_packed + kai_get_lhs_packed_offset_lhs_quant_pack_bf16p8x4_f32_neon(b, k, mr, kr, sr));
    }
}

static void matmul_slot(void* ctx, size_t t) {
    const struct exec_job* j = ctx;
    const ukernel* uk = j->p->uk;
    const size_t k = j->nd->k, n = j->nd->n;
    const struct kai_split_tile tl =
        kai_split_get_tile(j->p->m, n, uk->get_m_step(), uk->get_n_step(), j->p->rows, j->p->cols, t);
    if (tl.m == 0 || tl.n == 0) return;
    const size_t stride = n * sizeof(float);
    // scalar_min = 0 is the ReLU; no upper bound.
    uk->run_matmul(tl.m, tl.n, k, j->lhs_packed + uk->get_lhs_packed_offset(tl.m0, k),
                   j->nd->rhs_packed + uk->get_rhs_packed_offset(tl.n0, k),
                   (uint8_t*)j->y + uk->get_dst_offset(tl.m0, tl.n0, stride), stride, sizeof(float), 0.0f, FLT_MAX);
}

static void execute_node(struct runtime* rt, const struct plan* p, const struct node* nd, const float* x, float* y) {
    const ukernel* uk = p->uk;
    const size_t mr = uk->get_mr(), kr = uk->get_kr(), sr = uk->get_sr();
    const size_t size = mr == 1 ? kai_get_lhs_packed_size_lhs_quant_pack_bf16p1x4_f32_neon(p->m, nd->k, mr, kr, sr)
                                : kai_get_lhs_packed_size_lhs_quant_pack_bf16p8x4_f32_neon(p->m, nd->k, mr, kr, sr);
    struct exec_job job = {rt, p, nd, x, xmalloc(size), y};
    pool_run(&rt->pool, rt->pool.nthreads, pack_lhs_slot, &job);
    pool_run(&rt->pool, rt->pool.nthreads, matmul_slot, &job);  // slot t: its static tile
    free(job.lhs_packed);
}

// ------------------------------------------------------------------ the check

static double bf16_value(float v) {
    return (double)kai_cast_f32_bf16(kai_cast_bf16_f32(v));
}

// Plain reference: max(b + sum_k bf16(x) bf16(w), 0) in double. Bound: the kernel multiplies bf16
// operands exactly and accumulates in f32 (BFMMLA/BFDOT; the order and the pairwise rounding are the
// implementation's), so |kai - ref| <= (k + 2) * 2^-23 * (|b| + sum_k |x w|): one f32 rounding per
// addition with a factor 2 of margin for the unspecified pairwise rounding. ReLU cannot increase it.
static int check_node(const char* what, const struct node* nd, size_t m, const float* x, const float* y) {
    int bad = 0;
    double worst = 0.0;
    for (size_t i = 0; i < m; ++i) {
        for (size_t j = 0; j < nd->n; ++j) {
            double acc = nd->bias[j], mag = fabs((double)nd->bias[j]);
            for (size_t kk = 0; kk < nd->k; ++kk) {
                const double t = bf16_value(x[i * nd->k + kk]) * bf16_value(nd->w[kk * nd->n + j]);
                acc += t;
                mag += fabs(t);
            }
            const double ref = acc > 0.0 ? acc : 0.0;
            const double bound = (double)(nd->k + 2) * ldexp(mag, -23) + 1e-30;
            const double err = fabs((double)y[i * nd->n + j] - ref);
            if (!(err <= bound)) ++bad;
            if (err / bound > worst) worst = err / bound;
        }
    }
    printf("  %-8s %3zu x %3zu x %3zu: worst |kai - reference| %.1f%% of its bound; %s\n", what, m, nd->n, nd->k,
           100.0 * worst, bad == 0 ? "ok" : "OUT OF BOUND");
    return bad;
}

int main(int argc, char** argv) {
    const long nthreads = argc > 1 ? strtol(argv[1], NULL, 10) : 4;
    if (nthreads < 1 || nthreads > POOL_MAX_THREADS) {
        fprintf(stderr, "custom_runtime: threads must be 1..%d\n", POOL_MAX_THREADS);
        return 2;
    }
    const uint64_t features = kai_cpu_get_features();
    struct runtime rt;
    memset(&rt, 0, sizeof(rt));
    rt.gemm = kai_select_bf16(features, 64, 1, 1);
    if (rt.gemm == NULL) {
        printf("custom_runtime: no kai BF16 kernel runs on this CPU (features 0x%llx; they need FEAT_BF16); "
               "the runtime keeps its f32 path here\n",
               (unsigned long long)features);
        return 0;
    }
    // The batch-1 kernel must read the GEMM's packed weights: take it from the pair.
    const struct kai_select_pair_bf16 pair =
        kai_select_pair_bf16(features, rt.gemm->get_nr(), rt.gemm->get_kr(), rt.gemm->get_sr());
    rt.gemv = pair.gemv != NULL ? pair.gemv : rt.gemm;
    printf("custom_runtime: %ld threads\n  batched: %s\n  batch 1: %s\n", nthreads, KAI_SELECT_NAME(rt.gemm),
           KAI_SELECT_NAME(rt.gemv));
    pool_start(&rt.pool, (size_t)nthreads);

    // The graph: 96 -> 130 -> 45, f32 weights as the framework holds them (K x N).
    const size_t dims[3] = {96, 130, 45};
    float* params[4];
    for (int l = 0; l < 2; ++l) {
        const size_t k = dims[l], n = dims[l + 1];
        float* w = xmalloc(sizeof(float) * k * n);
        float* b = xmalloc(sizeof(float) * n);
        for (size_t i = 0; i < k * n; ++i) w[i] = frand() * 0.2f;
        for (size_t i = 0; i < n; ++i) b[i] = frand() * 0.5f;
        params[2 * l] = w;
        params[2 * l + 1] = b;
        rt.nodes[l] = (struct node){k, n, w, b, NULL};
        compile_node(&rt, &rt.nodes[l]);
    }

    int bad = 0;
    const size_t batches[2] = {37, 1};
    for (int bi = 0; bi < 2; ++bi) {
        const size_t m = batches[bi];
        float* x = xmalloc(sizeof(float) * m * dims[0]);
        float* h = xmalloc(sizeof(float) * m * dims[1]);
        float* y = xmalloc(sizeof(float) * m * dims[2]);
        for (size_t i = 0; i < m * dims[0]; ++i) x[i] = frand();
        const struct plan p1 = compile_plan(&rt, m, dims[1]);
        const struct plan p2 = compile_plan(&rt, m, dims[2]);
        printf("batch %zu: slot grids %zu x %zu (layer 1) and %zu x %zu (layer 2), %s\n", m, p1.rows, p1.cols, p2.rows, p2.cols,
               KAI_SELECT_NAME(p1.uk));
        execute_node(&rt, &p1, &rt.nodes[0], x, h);
        execute_node(&rt, &p2, &rt.nodes[1], h, y);
        bad += check_node("layer 1", &rt.nodes[0], m, x, h);
        bad += check_node("layer 2", &rt.nodes[1], m, h, y);
        free(x);
        free(h);
        free(y);
    }
    pool_stop(&rt.pool);
    for (int l = 0; l < 2; ++l) free(rt.nodes[l].rhs_packed);
    for (int i = 0; i < 4; ++i) free(params[i]);
    printf("custom_runtime: %s\n", bad == 0 ? "all outputs within bound" : "OUTPUTS OUT OF BOUND");
    return bad == 0 ? 0 : 1;
}
