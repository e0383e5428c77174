//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// The Q4_K_M matmul path of a llama.cpp-like engine on kai (docs/matmul_gguf_kquants.md, "Recipe"):
//
//   model:    one layer of a Q4_K_M model: Q4_K for attn_qkv and ffn_up, Q6_K for ffn_down (GGUF blocks
//             as a GGUF file stores them, generated here);
//   load:     each tensor packed ONCE by its format's RHS packer, split over the thread pool by column
//             range (multiples of 4); the packed buffer serves the GEMV and both GEMMs of the format;
//   dispatch: kai_cpu_get_features(): M = 1 -> the DotProd GEMV; M > 1 -> the I8MM GEMM when the CPU
//             has FEAT_I8MM, else the DotProd GEMM; no FEAT_DotProd -> the engine's own path;
//   threads:  column chunks of n_step multiples handed out from the pool's atomic counter.
//
// Every output is checked against the engine's scalar path: the GGUF weights dequantized as ggml does
// times the f32 activations in double, within the bound of the activation quantization (amax / 254
// per value times the sum of |w| per 256 values, plus f32 rounding). Exits 0 when all are within it
// (or when the CPU has no FEAT_DotProd, which it reports), 1 otherwise.
//
//   llm_engine_q4_k_m [threads]   (default 4)
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
#include "kai/kai_threading.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp/kai_matmul_clamp_f32_qsi8d256p1x8_q4kp4x8_1x8_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp/kai_matmul_clamp_f32_qsi8d256p4x4_q4kp4x8_4x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp/kai_matmul_clamp_f32_qsi8d256p4x8_q4kp4x8_4x4_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp/kai_matmul_clamp_f32_qsi8d256p1x8_q6kp4x8_1x8_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp/kai_matmul_clamp_f32_qsi8d256p4x4_q6kp4x8_4x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp/kai_matmul_clamp_f32_qsi8d256p4x8_q6kp4x8_4x4_neon_i8mm.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qsi8d256p_f32_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_q4kp_q4k_neon.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_q6kp_q6k_neon.h"

enum { PROMPT = 24, QK_K = 256 };
enum format { Q4_K, Q6_K };

// The kernel functions the engine calls (the two families' interface structs have the same members).
struct kernel {
    const char* name;
    size_t (*n_step)(void);
    size_t (*mr)(void);
    size_t (*kr)(void);
    size_t (*lhs_offset)(size_t m_idx, size_t k);
    size_t (*rhs_offset)(size_t n_idx, size_t k);
    size_t (*dst_offset)(size_t m_idx, size_t n_idx, size_t stride);
    void (*run)(size_t m, size_t n, size_t k, const void* lhs, const void* rhs, float* dst, size_t stride_row,
                size_t stride_col, float lo, float hi);
};
#define KERNEL(stem)                                                                                               \
    {"kai_" #stem, kai_get_n_step_##stem, kai_get_mr_##stem, kai_get_kr_##stem, kai_get_lhs_packed_offset_##stem, \
     kai_get_rhs_packed_offset_##stem, kai_get_dst_offset_##stem, kai_run_##stem}

// [format][0: GEMV (DotProd), 1: GEMM (DotProd), 2: GEMM (I8MM)]
static const struct kernel kernels[2][3] = {
    {KERNEL(matmul_clamp_f32_qsi8d256p1x8_q4kp4x8_1x8_neon_dotprod), KERNEL(matmul_clamp_f32_qsi8d256p4x4_q4kp4x8_4x4_neon_dotprod),
     KERNEL(matmul_clamp_f32_qsi8d256p4x8_q4kp4x8_4x4_neon_i8mm)},
    {KERNEL(matmul_clamp_f32_qsi8d256p1x8_q6kp4x8_1x8_neon_dotprod), KERNEL(matmul_clamp_f32_qsi8d256p4x4_q6kp4x8_4x4_neon_dotprod),
     KERNEL(matmul_clamp_f32_qsi8d256p4x8_q6kp4x8_4x4_neon_i8mm)},
};

static const struct kernel* pick(enum format f, uint64_t features, size_t m) {
    if (m == 1) return &kernels[f][0];
    return (features & KAI_CPU_FEATURE_I8MM) ? &kernels[f][2] : &kernels[f][1];
}

// ------------------------------------------------------------------ the model

struct tensor {
    const char* name;
    enum format f;
    size_t n, k;      // out_features x in_features
    uint8_t* gguf;    // n rows of k / 256 blocks, as in the file
    uint8_t* packed;  // kai's packed layout, shared by the format's kernels
};

static size_t block_bytes(enum format f) { return f == Q4_K ? 144 : 210; }
static size_t row_bytes(const struct tensor* t) { return t->k / QK_K * block_bytes(t->f); }

static void* xmalloc(size_t n) {
    void* p = malloc(n != 0 ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "llm_engine_q4_k_m: out of memory\n");
        exit(2);
    }
    return p;
}

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint32_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 32);
}
static float frand(void) { return (float)(rnd() >> 8) / (float)(1u << 23) - 1.0f; }  // [-1, 1)

// GGUF blocks: random quants and scales (every bit pattern is a valid block), f16 d / dmin near 0.003.
static void make_gguf(struct tensor* t) {
    const size_t rb = row_bytes(t), bb = block_bytes(t->f);
    t->gguf = xmalloc(t->n * rb);
    for (size_t i = 0; i < t->n * rb; ++i) t->gguf[i] = (uint8_t)rnd();
    for (size_t r = 0; r < t->n; ++r) {
        for (size_t b = 0; b < t->k / QK_K; ++b) {
            uint8_t* blk = t->gguf + r * rb + b * bb;
            const uint16_t d = kai_cast_f16_f32(0.003f * (1.0f + 0.5f * frand()));
            const uint16_t dmin = kai_cast_f16_f32(0.003f * (1.0f + 0.5f * frand()));
            uint8_t* at = t->f == Q4_K ? blk : blk + 208;
            memcpy(at, &d, 2);
            if (t->f == Q4_K) memcpy(blk + 2, &dmin, 2);
        }
    }
}

// ggml's dequantization of one block (dequantize_row_q4_K / dequantize_row_q6_K), the engine's own code.
static void dequant_block(enum format f, const uint8_t* blk, float* y) {
    if (f == Q4_K) {
        uint16_t h[2];
        memcpy(h, blk, 4);
        const float d = kai_cast_f32_f16(h[0]), dmin = kai_cast_f32_f16(h[1]);
        const uint8_t* s = blk + 4;
        for (int j = 0; j < 8; ++j) {
            const int sc = j < 4 ? (s[j] & 63) : ((s[j + 4] & 0xF) | ((s[j - 4] >> 6) << 4));
            const int m = j < 4 ? (s[j + 4] & 63) : ((s[j + 4] >> 4) | ((s[j] >> 6) << 4));
            for (int l = 0; l < 32; ++l) {
                const uint8_t byte = blk[16 + 32 * (j / 2) + l];
                const int q = (j % 2) ? (byte >> 4) : (byte & 0xF);
                y[32 * j + l] = d * (float)sc * (float)q - dmin * (float)m;
            }
        }
        return;
    }
    uint16_t h;
    memcpy(&h, blk + 208, 2);
    const float d = kai_cast_f32_f16(h);
    for (int half = 0; half < 2; ++half) {
        const uint8_t* ql = blk + 64 * half;
        const uint8_t* qh = blk + 128 + 32 * half;
        const int8_t* sc = (const int8_t*)(blk + 192 + 8 * half);
        for (int l = 0; l < 32; ++l) {
            const int is = l / 16;
            const int q1 = ((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
            const int q2 = ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
            const int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
            const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
            y[128 * half + l] = d * (float)sc[is] * (float)q1;
            y[128 * half + l + 32] = d * (float)sc[is + 2] * (float)q2;
            y[128 * half + l + 64] = d * (float)sc[is + 4] * (float)q3;
            y[128 * half + l + 96] = d * (float)sc[is + 6] * (float)q4;
        }
    }
}

struct job {
    const struct tensor* t;
    size_t nthreads;
    const struct kernel* kn;
    size_t m, chunk;
    const uint8_t* lhs_packed;
    float* y;
};

static void pack_chunk(void* ctx, size_t c) {
    const struct job* j = ctx;
    const struct tensor* t = j->t;
    size_t b, e;
    kai_split_range(t->n, 4, j->nthreads, c, &b, &e);
    if (e <= b) return;
    const uint8_t* src = t->gguf + b * row_bytes(t);
    if (t->f == Q4_K) {
        kai_run_rhs_pack_nxk_q4kp_q4k_neon(e - b, t->k, 4, 8, 1, src, row_bytes(t), NULL,
                                           t->packed + kai_get_rhs_packed_offset_rhs_pack_nxk_q4kp_q4k_neon(b, t->k, 4, 8, 1));
    } else {
        kai_run_rhs_pack_nxk_q6kp_q6k_neon(e - b, t->k, 4, 8, 1, src, row_bytes(t), NULL,
                                           t->packed + kai_get_rhs_packed_offset_rhs_pack_nxk_q6kp_q6k_neon(b, t->k, 4, 8, 1));
    }
}

static void load(struct pool* pool, struct tensor* t) {
    make_gguf(t);
    const size_t size = t->f == Q4_K ? kai_get_rhs_packed_size_rhs_pack_nxk_q4kp_q4k_neon(t->n, t->k, 4, 8, 1)
                                     : kai_get_rhs_packed_size_rhs_pack_nxk_q6kp_q6k_neon(t->n, t->k, 4, 8, 1);
    t->packed = xmalloc(size);
    struct job j = {t, pool->nthreads, NULL, 0, 0, NULL, NULL};
    pool_run(pool, pool->nthreads, pack_chunk, &j);  // one column range per thread
}

static void mm_chunk(void* ctx, size_t c) {
    const struct job* j = ctx;
    const size_t n0 = c * j->chunk, nw = KAI_MIN(j->chunk, j->t->n - n0), k = j->t->k;
    const size_t stride = j->t->n * sizeof(float);
    j->kn->run(j->m, nw, k, j->lhs_packed + j->kn->lhs_offset(0, k), j->t->packed + j->kn->rhs_offset(n0, k),
               (float*)(void*)((uint8_t*)j->y + j->kn->dst_offset(0, n0, stride)), stride, sizeof(float), -FLT_MAX,
               FLT_MAX);
}

static void forward(struct pool* pool, const struct kernel* kn, const struct tensor* t, const float* x, size_t m, float* y) {
    const size_t mr = kn->mr(), kr = kn->kr();
    uint8_t* lhs_packed = xmalloc(kai_get_lhs_packed_size_lhs_quant_pack_qsi8d256p_f32_neon(m, t->k, mr, kr, 1));
    kai_run_lhs_quant_pack_qsi8d256p_f32_neon(m, t->k, mr, kr, 1, 0, x, t->k * sizeof(float), lhs_packed);
    const size_t n_step = kn->n_step();
    const size_t per = KAI_MAX((size_t)1, kai_split_chunks(t->n, n_step) / (4 * pool->nthreads));
    struct job j = {t, pool->nthreads, kn, m, per * n_step, lhs_packed, y};
    pool_run(pool, kai_split_chunks(t->n, j.chunk), mm_chunk, &j);
    free(lhs_packed);
}

// The engine's scalar path and the bound (see the top of the file); returns the number of outputs out of it.
static int check(const char* what, const struct tensor* t, const float* x, size_t m, const float* y) {
    float* w = xmalloc(sizeof(float) * t->k);
    int bad = 0;
    double worst = 0.0;
    for (size_t c = 0; c < t->n; ++c) {
        for (size_t b = 0; b < t->k / QK_K; ++b) dequant_block(t->f, t->gguf + c * row_bytes(t) + b * block_bytes(t->f), w + b * QK_K);
        for (size_t i = 0; i < m; ++i) {
            double exact = 0.0, bound = 0.0, mag = 0.0;
            for (size_t b = 0; b < t->k / QK_K; ++b) {
                double amax = 0.0, wsum = 0.0;
                for (size_t e = b * QK_K; e < (b + 1) * QK_K; ++e) {
                    exact += (double)x[i * t->k + e] * w[e];
                    mag += fabs((double)x[i * t->k + e] * w[e]);
                    amax = fmax(amax, fabs((double)x[i * t->k + e]));
                    wsum += fabs((double)w[e]);
                }
                bound += wsum * amax / 254.0;
            }
            bound += 4.0 * (double)t->k * FLT_EPSILON * mag;
            const double err = fabs((double)y[i * t->n + c] - exact);
            worst = fmax(worst, err / bound);
            if (!(err <= bound)) ++bad;
        }
    }
    free(w);
    printf("  %-5s %-4s %s  max error / bound %.3f%s\n", t->f == Q4_K ? "Q4_K" : "Q6_K", what, t->name, worst,
           bad ? "  OUT OF BOUND" : "");
    return bad;
}

int main(int argc, char** argv) {
    const long nthreads = argc > 1 ? strtol(argv[1], NULL, 10) : 4;
    if (nthreads < 1 || nthreads > POOL_MAX_THREADS) {
        fprintf(stderr, "llm_engine_q4_k_m: threads must be 1..%d\n", POOL_MAX_THREADS);
        return 2;
    }
    const uint64_t features = kai_cpu_get_features();
    if (!(features & KAI_CPU_FEATURE_DOTPROD)) {
        printf("llm_engine_q4_k_m: no kai K-quant kernel runs on this CPU (features 0x%llx; they need FEAT_DotProd); "
               "an engine keeps its own path here\n",
               (unsigned long long)features);
        return 0;
    }
    struct pool pool;
    memset(&pool, 0, sizeof(pool));
    pool_start(&pool, (size_t)nthreads);
    printf("llm_engine_q4_k_m: %ld threads\n", nthreads);
    for (int f = 0; f < 2; ++f) {
        printf("  %s: prompt %s\n        token  %s\n", f == Q4_K ? "Q4_K" : "Q6_K", pick((enum format)f, features, PROMPT)->name,
               pick((enum format)f, features, 1)->name);
    }
    // N not a multiple of the chunks (ragged last chunks); K a multiple of 256 as GGUF requires.
    struct tensor tensors[3] = {{"blk.0.attn_qkv", Q4_K, 150, 512, NULL, NULL},
                                {"blk.0.ffn_up", Q4_K, 344, 256, NULL, NULL},
                                {"blk.0.ffn_down", Q6_K, 130, 768, NULL, NULL}};
    for (int i = 0; i < 3; ++i) load(&pool, &tensors[i]);

    int bad = 0;
    for (int i = 0; i < 3; ++i) {
        const struct tensor* t = &tensors[i];
        float* x = xmalloc(sizeof(float) * PROMPT * t->k);
        for (size_t v = 0; v < PROMPT * t->k; ++v) x[v] = frand() * 4.0f;
        float* y = xmalloc(sizeof(float) * PROMPT * t->n);
        float* y1 = xmalloc(sizeof(float) * t->n);
        forward(&pool, pick(t->f, features, PROMPT), t, x, PROMPT, y);           // prompt processing
        forward(&pool, pick(t->f, features, 1), t, x + (PROMPT - 1) * t->k, 1, y1);  // next token
        bad += check("GEMM", t, x, PROMPT, y);
        bad += check("GEMV", t, x + (PROMPT - 1) * t->k, 1, y1);
        free(x);
        free(y);
        free(y1);
    }
    pool_stop(&pool);
    for (int i = 0; i < 3; ++i) {
        free(tensors[i].gguf);
        free(tensors[i].packed);
    }
    printf("llm_engine_q4_k_m: %s\n", bad == 0 ? "all outputs within bound" : "OUTPUTS OUT OF BOUND");
    return bad == 0 ? 0 : 1;
}
