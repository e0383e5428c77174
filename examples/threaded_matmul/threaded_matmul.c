// SPDX-License-Identifier: Apache-2.0
//
// Runs one int4 GEMM and one bf16 GEMM over T pthreads with kai's offset API, the way an engine
// splits work, and checks that the result equals the single-threaded one bit for bit.
//
//   threaded_matmul [T]      (default T = 4)
//
// Each thread packs its own rows of the LHS and columns of the RHS, then computes its own
// rectangle of the output. Offsets come from the packers' and the kernels' getters; tile origins
// are multiples of the kernel's m_step / n_step, and only the last tile in a row or column is
// ragged. The kernels are stateless, so no locking is needed: the only synchronisation is a
// barrier between packing and computing.
#define _POSIX_C_SOURCE 200809L  // pthread barriers

#include <float.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kai/kai_common.h"
#include "kai/kai_cpu.h"
#include "kai/kai_threading.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p/kai_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_bf16p8x4_f32_neon.h"
#include "kai/ukernels/pack/kai_lhs_quant_pack_qai8dxp_f32.h"
#include "kai/ukernels/pack/kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0.h"
#include "kai/ukernels/pack/kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon.h"

enum { M = 45, N = 83, K = 200 };

// ------------------------------------------------------------------ work splitting

// Thread t's share of [0, total) in units of `step` (contiguous, possibly empty): kai_threading.h.
static void share(size_t total, size_t step, size_t t, size_t nthreads, size_t* begin, size_t* end) {
    kai_split_range(total, step, nthreads, t, begin, end);
}

// Thread t's rectangle of an M x N output on a rows x cols grid of threads.
static void tile(size_t t, size_t rows, size_t cols, size_t m_step, size_t n_step, size_t* m0, size_t* m1,
                 size_t* n0, size_t* n1) {
    const struct kai_split_tile tl = kai_split_get_tile(M, N, m_step, n_step, rows, cols, t);
    *m0 = tl.m0;
    *m1 = tl.m0 + tl.m;
    *n0 = tl.n0;
    *n1 = tl.n0 + tl.n;
}

// ------------------------------------------------------------------ shared problem

static float lhs[M * K];       // f32 activations, M x K
static float rhs_kxn[K * N];   // f32 weights for bf16, K x N
static float bias[N];
static uint8_t w_nxk[N * (K / 2)];  // int4 weights, N x K, two per byte (low nibble first), +8 offset
static float w_scale[N];

struct job {
    size_t t, nthreads, rows, cols;
    pthread_barrier_t* barrier;
    void* lhs_packed;
    void* rhs_packed;
    float* dst;
    int kind;  // 0 bf16, 1 int4
};

static void run_bf16(const struct job* j) {
    const size_t mr = kai_get_mr_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla();
    const size_t nr = kai_get_nr_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla();
    const size_t kr = kai_get_kr_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla();
    const size_t sr = kai_get_sr_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla();
    const size_t m_step = kai_get_m_step_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla();
    const size_t n_step = kai_get_n_step_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla();
    size_t b, e;
    // 1. Pack this thread's rows of the LHS (chunks of mr rows) and columns of the RHS (of nr).
    share(M, mr, j->t, j->nthreads, &b, &e);
    if (e > b) {
        kai_run_lhs_quant_pack_bf16p8x4_f32_neon(
            e - b, K, mr, kr, sr, 0, lhs + b * K, K * sizeof(float),
            (uint8_t*)j->lhs_packed + kai_get_lhs_packed_offset_lhs_quant_pack_bf16p8x4_f32_neon(b, K, mr, kr, sr));
    }
    share(N, nr, j->t, j->nthreads, &b, &e);
    if (e > b) {
        kai_run_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(
            1, e - b, K, nr, kr, sr, N * sizeof(float), rhs_kxn + b, bias + b, NULL,
            (uint8_t*)j->rhs_packed + kai_get_rhs_packed_offset_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(b, K, nr, kr),
            0, NULL);
    }
    pthread_barrier_wait(j->barrier);
    // 2. Compute this thread's rectangle of the output.
    size_t m0, m1, n0, n1;
    tile(j->t, j->rows, j->cols, m_step, n_step, &m0, &m1, &n0, &n1);
    if (m1 <= m0 || n1 <= n0) return;
    const size_t dst_stride = N * sizeof(float);
    kai_run_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla(
        m1 - m0, n1 - n0, K,
        (const uint8_t*)j->lhs_packed + kai_get_lhs_packed_offset_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla(m0, K),
        (const uint8_t*)j->rhs_packed + kai_get_rhs_packed_offset_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla(n0, K),
        (uint8_t*)j->dst + kai_get_dst_offset_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla(m0, n0, dst_stride),
        dst_stride, sizeof(float), -FLT_MAX, FLT_MAX);
}

static void run_int4(const struct job* j) {
    const size_t mr = kai_get_mr_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm();
    const size_t nr = kai_get_nr_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm();
    const size_t kr = kai_get_kr_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm();
    const size_t sr = kai_get_sr_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm();
    const size_t m_step = kai_get_m_step_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm();
    const size_t n_step = kai_get_n_step_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm();
    size_t b, e;
    share(M, mr, j->t, j->nthreads, &b, &e);
    if (e > b) {
        kai_run_lhs_quant_pack_qai8dxp_f32(
            e - b, K, mr, kr, sr, 0, lhs + b * K, K * sizeof(float),
            (uint8_t*)j->lhs_packed + kai_get_lhs_packed_offset_lhs_quant_pack_qai8dxp_f32(b, K, mr, kr, sr));
    }
    share(N, nr, j->t, j->nthreads, &b, &e);
    if (e > b) {
        const struct kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0_params params = {.lhs_zero_point = 1, .rhs_zero_point = 8};
        kai_run_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(
            1, e - b, K, nr, kr, sr, w_nxk + b * (K / 2), bias + b, w_scale + b,
            (uint8_t*)j->rhs_packed + kai_get_rhs_packed_offset_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(b, K, nr, kr, sr), 0,
            &params);
    }
    pthread_barrier_wait(j->barrier);
    size_t m0, m1, n0, n1;
    tile(j->t, j->rows, j->cols, m_step, n_step, &m0, &m1, &n0, &n1);
    if (m1 <= m0 || n1 <= n0) return;
    const size_t dst_stride = N * sizeof(float);
    kai_run_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm(
        m1 - m0, n1 - n0, K,
        (const uint8_t*)j->lhs_packed + kai_get_lhs_packed_offset_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm(m0, K),
        (const uint8_t*)j->rhs_packed + kai_get_rhs_packed_offset_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm(n0, K),
        (float*)((uint8_t*)j->dst + kai_get_dst_offset_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm(m0, n0, dst_stride)),
        dst_stride, sizeof(float), -FLT_MAX, FLT_MAX);
}

static void* worker(void* arg) {
    const struct job* j = arg;
    if (j->kind == 0) {
        run_bf16(j);
    } else {
        run_int4(j);
    }
    return NULL;
}

// Packs and computes the whole problem with `nthreads` threads into dst.
static void compute(int kind, size_t nthreads, float* dst) {
    size_t lhs_size, rhs_size;
    if (kind == 0) {
        lhs_size = kai_get_lhs_packed_size_lhs_quant_pack_bf16p8x4_f32_neon(M, K, 8, 4, 1);
        rhs_size = kai_get_rhs_packed_size_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon(N, K, 12, 4);
    } else {
        lhs_size = kai_get_lhs_packed_size_lhs_quant_pack_qai8dxp_f32(M, K, 4, 16, 2);
        rhs_size = kai_get_rhs_packed_size_rhs_pack_nxk_qsi4cxp_qs4cxs1s0(N, K, 8, 16, 2);
    }
    void* lhs_packed = calloc(1, lhs_size);
    void* rhs_packed = calloc(1, rhs_size);
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, (unsigned)nthreads);
    // A near-square grid of threads: rows x cols = nthreads.
    size_t rows = 1;
    for (size_t r = 1; r * r <= nthreads; ++r) {
        if (nthreads % r == 0) rows = r;
    }
    struct job jobs[64];
    pthread_t tids[64];
    for (size_t t = 0; t < nthreads; ++t) {
        jobs[t] = (struct job){t, nthreads, rows, nthreads / rows, &barrier, lhs_packed, rhs_packed, dst, kind};
        pthread_create(&tids[t], NULL, worker, &jobs[t]);
    }
    for (size_t t = 0; t < nthreads; ++t) pthread_join(tids[t], NULL);
    pthread_barrier_destroy(&barrier);
    free(lhs_packed);
    free(rhs_packed);
}

static int has_features(int kind) {
    const uint64_t f = kai_cpu_get_features();
    return kai_cpu_has(f, kind == 0 ? KAI_CPU_FEATURE_BF16 : KAI_CPU_FEATURE_I8MM);
}

int main(int argc, char** argv) {
    const long nthreads = argc > 1 ? strtol(argv[1], NULL, 10) : 4;
    if (nthreads < 1 || nthreads > 64) {
        fprintf(stderr, "threaded_matmul: T must be 1..64\n");
        return 2;
    }
    uint32_t x = 12345;  // xorshift32: deterministic inputs
#define NEXT() (x ^= x << 13, x ^= x >> 17, x ^= x << 5, x)
    for (size_t i = 0; i < M * K; ++i) lhs[i] = (float)(NEXT() % 2001) / 1000.0f - 1.0f;
    for (size_t i = 0; i < K * N; ++i) rhs_kxn[i] = (float)(NEXT() % 2001) / 1000.0f - 1.0f;
    for (size_t i = 0; i < N; ++i) bias[i] = (float)(NEXT() % 2001) / 1000.0f - 1.0f;
    for (size_t i = 0; i < sizeof(w_nxk); ++i) w_nxk[i] = (uint8_t)NEXT();
    for (size_t i = 0; i < N; ++i) w_scale[i] = 0.001f + (float)(NEXT() % 1000) * 1e-5f;

    static float one[M * N], many[M * N];
    int failures = 0, ran = 0;
    const char* names[2] = {"bf16 GEMM  kai_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla",
                            "int4 GEMM  kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm"};
    for (int kind = 0; kind < 2; ++kind) {
        if (!has_features(kind)) {
            printf("%s: skipped, the CPU lacks %s\n", names[kind], kind == 0 ? "FEAT_BF16" : "FEAT_I8MM");
            continue;
        }
        memset(one, 0xFF, sizeof(one));
        memset(many, 0x00, sizeof(many));
        compute(kind, 1, one);
        compute(kind, (size_t)nthreads, many);
        const int same = memcmp(one, many, sizeof(one)) == 0;
        printf("%s: %ld threads %s 1 thread (%dx%dx%d)\n", names[kind], nthreads,
               same ? "bit-identical to" : "DIFFER from", M, N, K);
        failures += !same;
        ++ran;
    }
    printf("threaded_matmul: %d passed, %d failed\n", ran - failures, failures);
    return failures ? 1 : 0;
}
