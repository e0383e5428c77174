//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// The matmul path of a llama.cpp-like engine on kai (docs/integration.md, "llm_engine"):
//
//   load:     the model's GGUF Q4_0 weight tensors (generated here as a GGUF writer would store
//             them) are repacked ONCE for the kernel chosen at run time, each tensor split over
//             the thread pool by column range (multiples of nr);
//   prompt:   M = 64 activation rows through the GEMM;
//   token:    M = 1 through the GEMV that reads the same packed weights (kai_select_pair_*);
//   dispatch: kai_cpu_get_features() -> kai_select_qsi8d32p() -> kai_select_pair_qsi8d32p();
//   threads:  a static pool; work is handed out as n_step-multiple column chunks from an atomic
//             counter, the last chunk ragged, for any N and any thread count.
//
// Every output is checked against the engine's own scalar Q4_0 x Q8_0 path
// (examples/common/ggml_q4_0_ref.h). Exits 0 when all outputs are within their bound (or when the
// CPU runs no Q4_0 kernel, which it reports), 1 otherwise.
//
//   llm_engine [threads]   (default 4)
#define _POSIX_C_SOURCE 200809L

#include <float.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "examples/common/ggml_q4_0_ref.h"
#include "examples/common/thread_pool.h"
#include "kai/kai_common.h"
#include "kai/kai_cpu.h"
#include "kai/kai_select.h"
#include "kai/kai_threading.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d32p_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0.h"

enum { PROMPT = 64 };

// ------------------------------------------------------------------ the model

typedef struct kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel ukernel;

struct tensor {
    const char* name;
    size_t n, k;       // out_features x in_features
    uint8_t* q4;       // GGUF Q4_0 rows, as stored in the model file
    uint8_t* packed;   // kai's packed layout for the chosen kernels
};

struct engine {
    struct pool pool;
    const ukernel* gemm;  // prompt
    const ukernel* gemv;  // token; reads the same packed weights
    size_t nr, kr, sr;    // the packed layout both read
};

static void* xmalloc(size_t n) {
    void* p = malloc(n != 0 ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "llm_engine: out of memory\n");
        exit(2);
    }
    return p;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static float frand(void) {  // uniform in [-1, 1)
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (float)(rng_state >> 40) / (float)(1u << 23) - 1.0f;
}

// Load: pack one tensor, thread t taking columns [b, e) (multiples of nr, last ragged).
struct pack_job {
    const struct engine* e;
    struct tensor* t;
};

static void pack_chunk(void* ctx, size_t chunk) {
    const struct pack_job* j = ctx;
    const struct engine* e = j->e;
    struct tensor* t = j->t;
    size_t b, end;
    kai_split_range(t->n, e->nr, e->pool.nthreads, chunk, &b, &end);
    if (end <= b) return;
    const size_t row_bytes = (t->k / QK) * Q4_BLOCK;
    const struct kai_rhs_pack_qs4cxs1s0_param params = {1, 8};
    kai_run_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(
        1, end - b, t->k, e->nr, e->kr, e->sr, QK, t->q4 + b * row_bytes, NULL,
        t->packed + kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(b, t->k, e->nr, e->kr, QK), 0,
        &params);
}

static void load_tensor(struct engine* e, struct tensor* t) {
    float* w = xmalloc(sizeof(float) * t->n * t->k);
    for (size_t i = 0; i < t->n * t->k; ++i) w[i] = frand() * 0.05f;
    const size_t row_bytes = (t->k / QK) * Q4_BLOCK;
    t->q4 = xmalloc(t->n * row_bytes);
    for (size_t j = 0; j < t->n; ++j) quantize_row_q4_0(w + j * t->k, t->q4 + j * row_bytes, t->k);
    free(w);
    t->packed = xmalloc(kai_get_rhs_packed_size_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0(t->n, t->k, e->nr, e->kr, QK));
    struct pack_job job = {e, t};
    pool_run(&e->pool, e->pool.nthreads, pack_chunk, &job);  // one column range per thread
}

// Forward: y (m x n) = x (m x k) W^T with `uk`, columns handed out in chunks of n_step multiples.
struct mm_job {
    const ukernel* uk;
    const struct tensor* t;
    size_t m, chunk;
    const uint8_t* lhs_packed;
    float* y;
};

static void mm_chunk(void* ctx, size_t c) {
    const struct mm_job* j = ctx;
    const size_t n0 = c * j->chunk;
    const size_t nw = KAI_MIN(j->chunk, j->t->n - n0);
    const size_t stride = j->t->n * sizeof(float);
    j->uk->run_matmul(j->m, nw, j->t->k, QK, j->lhs_packed + j->uk->get_lhs_packed_offset(0, j->t->k, QK),
                      j->t->packed + j->uk->get_rhs_packed_offset(n0, j->t->k, QK),
                      (float*)(void*)((uint8_t*)j->y + j->uk->get_dst_offset(0, n0, stride)), stride, sizeof(float),
                      -FLT_MAX, FLT_MAX);
}

static void forward(struct engine* e, const ukernel* uk, const struct tensor* t, const float* x, size_t m, float* y) {
    const size_t mr = uk->get_mr(), kr = uk->get_kr(), sr = uk->get_sr();
    uint8_t* lhs_packed = xmalloc(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d32p_f32(m, t->k, QK, mr, kr, sr));
    kai_run_lhs_quant_pack_qsi8d32p_f32(m, t->k, QK, mr, kr, sr, 0, x, t->k * sizeof(float), lhs_packed);
    // About four chunks per thread, each a multiple of n_step: load balance without tiny calls.
    const size_t n_step = uk->get_n_step();
    const size_t units = kai_split_chunks(t->n, n_step);
    const size_t per = KAI_MAX((size_t)1, units / (4 * e->pool.nthreads));
    struct mm_job job = {uk, t, m, per * n_step, lhs_packed, y};
    pool_run(&e->pool, kai_split_chunks(t->n, job.chunk), mm_chunk, &job);
    free(lhs_packed);
}

int main(int argc, char** argv) {
    const long nthreads = argc > 1 ? strtol(argv[1], NULL, 10) : 4;
    if (nthreads < 1 || nthreads > POOL_MAX_THREADS) {
        fprintf(stderr, "llm_engine: threads must be 1..%d\n", POOL_MAX_THREADS);
        return 2;
    }
    // Dispatch once at start-up: the best GEMM for prompts, then the GEMV that reads its buffer.
    const uint64_t features = kai_cpu_get_features();
    struct engine e;
    memset(&e, 0, sizeof(e));
    e.gemm = kai_select_qsi8d32p(features, PROMPT, 4096, 4096, QK);
    if (e.gemm == NULL) {
        printf("llm_engine: no kai Q4_0 kernel runs on this CPU (features 0x%llx; the plain ones need AdvSIMD); "
               "an engine keeps its own scalar path here\n",
               (unsigned long long)features);
        return 0;
    }
    e.nr = e.gemm->get_nr(), e.kr = e.gemm->get_kr(), e.sr = e.gemm->get_sr();
    const struct kai_select_pair_qsi8d32p pair = kai_select_pair_qsi8d32p(features, e.nr, e.kr, e.sr);
    e.gemv = pair.gemv != NULL ? pair.gemv : e.gemm;  // every GEMM also accepts m = 1
    printf("llm_engine: %ld threads\n  prompt GEMM: %s\n  token GEMV:  %s\n  packed layout nr=%zu kr=%zu sr=%zu\n",
           nthreads, KAI_SELECT_NAME(e.gemm), KAI_SELECT_NAME(e.gemv), e.nr, e.kr, e.sr);
    pool_start(&e.pool, (size_t)nthreads);

    // Load: two tensors with N not a multiple of the chunk (ragged last chunks).
    struct tensor tensors[2] = {{"blk.0.attn_qkv", 150, 256, NULL, NULL}, {"blk.0.ffn_up", 344, 512, NULL, NULL}};
    for (int i = 0; i < 2; ++i) load_tensor(&e, &tensors[i]);

    int bad = 0;
    for (int i = 0; i < 2; ++i) {
        const struct tensor* t = &tensors[i];
        float* x = xmalloc(sizeof(float) * PROMPT * t->k);
        for (size_t v = 0; v < PROMPT * t->k; ++v) x[v] = frand() * 4.0f;
        float* y = xmalloc(sizeof(float) * PROMPT * t->n);
        float* y1 = xmalloc(sizeof(float) * t->n);
        forward(&e, e.gemm, t, x, PROMPT, y);                        // prompt processing
        forward(&e, e.gemv, t, x + (PROMPT - 1) * t->k, 1, y1);      // next token
        // The engine's scalar path on the same data: Q8_0 activations, ggml's dot product.
        const size_t q8_row = (t->k / QK) * Q8_BLOCK;
        uint8_t* q8 = xmalloc(PROMPT * q8_row);
        for (size_t r = 0; r < PROMPT; ++r) quantize_row_q8_0(x + r * t->k, q8 + r * q8_row, t->k);
        printf("%s (%zu x %zu):\n", t->name, t->n, t->k);
        bad += ggml_q4_0_compare("GEMM", y, t->q4, q8, PROMPT, t->n, t->k);
        bad += ggml_q4_0_compare("GEMV", y1, t->q4, q8 + (PROMPT - 1) * q8_row, 1, t->n, t->k);
        free(x);
        free(y);
        free(y1);
        free(q8);
    }
    pool_stop(&e.pool);
    for (int i = 0; i < 2; ++i) {
        free(tensors[i].q4);
        free(tensors[i].packed);
    }
    printf("llm_engine: %s\n", bad == 0 ? "all outputs within bound" : "OUTPUTS OUT OF BOUND");
    return bad == 0 ? 0 : 1;
}
