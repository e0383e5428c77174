//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// The engine side of a llama.cpp-like Q4_0 path, shared by the examples (gguf_q4_0, llm_engine):
// how a GGUF writer quantises weights (Q4_0) and activations (Q8_0), and the engine's scalar
// Q4_0 x Q8_0 dot product that the examples check kai against. Plain C99, independent of kai's
// kernels (only kai_common.h's f16 conversions).
#ifndef KAI_EXAMPLES_GGML_Q4_0_REF_H
#define KAI_EXAMPLES_GGML_Q4_0_REF_H

#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

#define QK 32            // GGUF Q4_0 / Q8_0 block length
#define Q4_BLOCK 18      // bytes of a block_q4_0: f16 d, 16 bytes of nibbles
#define Q8_BLOCK 34      // bytes of a block_q8_0: f16 d, 32 int8

static inline float f16_to_f32(uint16_t h) {
    return kai_cast_f32_f16(h);
}

static inline uint16_t f32_to_f16(float f) {
    return kai_cast_f16_f32(f);
}

// GGUF writer rule (ggml's quantize_row_q4_0_ref): d = (value of largest magnitude) / -8,
// nibble = min(15, (int8)(x / d + 8.5)); byte j holds elements j (low) and j + 16 (high).
static inline void quantize_row_q4_0(const float* x, uint8_t* out, size_t k) {
    for (size_t b = 0; b < k / QK; ++b) {
        const float* v = x + b * QK;
        float amax = 0.0f;
        float max = 0.0f;
        for (size_t j = 0; j < QK; ++j) {
            if (amax < fabsf(v[j])) {
                amax = fabsf(v[j]);
                max = v[j];
            }
        }
        const float d = max / -8.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        uint8_t* blk = out + b * Q4_BLOCK;
        const uint16_t h = f32_to_f16(d);
        memcpy(blk, &h, 2);
        for (size_t j = 0; j < QK / 2; ++j) {
            const int8_t u0 = (int8_t)(v[j] * id + 8.5f);
            const int8_t u1 = (int8_t)(v[j + QK / 2] * id + 8.5f);
            blk[2 + j] = (uint8_t)((u0 < 15 ? u0 : 15) | ((u1 < 15 ? u1 : 15) << 4));
        }
    }
}

// Q8_0 activations (ggml's quantize_row_q8_0_ref): d = amax / 127, q = roundf(x / d).
static inline void quantize_row_q8_0(const float* x, uint8_t* out, size_t k) {
    for (size_t b = 0; b < k / QK; ++b) {
        const float* v = x + b * QK;
        float amax = 0.0f;
        for (size_t j = 0; j < QK; ++j) {
            amax = fmaxf(amax, fabsf(v[j]));
        }
        const float d = amax / 127.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        uint8_t* blk = out + b * Q8_BLOCK;
        const uint16_t h = f32_to_f16(d);
        memcpy(blk, &h, 2);
        for (size_t j = 0; j < QK; ++j) {
            blk[2 + j] = (uint8_t)(int8_t)roundf(v[j] * id);
        }
    }
}

// ggml's scalar vec_dot_q4_0_q8_0: integer dot per block, then sum += sumi * dx * dy. Also
// returns in *mag the sum of the magnitudes of the block terms, for the error bound.
static inline float vec_dot_q4_0_q8_0(const uint8_t* x, const uint8_t* y, size_t k, double* mag) {
    float sum = 0.0f;
    *mag = 0.0;
    for (size_t b = 0; b < k / QK; ++b) {
        const uint8_t* xb = x + b * Q4_BLOCK;
        const uint8_t* yb = y + b * Q8_BLOCK;
        uint16_t hx;
        uint16_t hy;
        memcpy(&hx, xb, 2);
        memcpy(&hy, yb, 2);
        int32_t sumi = 0;
        for (size_t j = 0; j < QK / 2; ++j) {
            const int32_t v0 = (xb[2 + j] & 0x0F) - 8;
            const int32_t v1 = (xb[2 + j] >> 4) - 8;
            sumi += v0 * (int8_t)yb[2 + j] + v1 * (int8_t)yb[2 + j + QK / 2];
        }
        const float term = (float)sumi * f16_to_f32(hx) * f16_to_f32(hy);
        sum += term;
        *mag += fabs((double)term);
    }
    return sum;
}

// Compares kai's rows with the engine's; returns the number of outputs outside their bound.
// Bound: both sides add nb block terms in f32 (kai with one fused rounding per block, the engine
// with three roundings per term), so each side is within (nb + 2) * 2^-24 * sum|term| of the exact
// sum of the same terms; the bound is twice that.
static inline int ggml_q4_0_compare(const char* what, const float* kai, const uint8_t* q4, const uint8_t* q8, size_t rows,
                                    size_t N, size_t K) {
    const size_t nb = K / QK;
    double max_err = 0.0;
    double bound_at_max = 0.0;
    double max_ratio = 0.0;
    int bad = 0;
    for (size_t i = 0; i < rows; ++i) {
        for (size_t j = 0; j < N; ++j) {
            double mag;
            const float ref = vec_dot_q4_0_q8_0(q4 + j * (K / QK) * Q4_BLOCK, q8 + i * (K / QK) * Q8_BLOCK, K, &mag);
            const double bound = 2.0 * (double)(nb + 2) * ldexp(mag, -24) + 1e-30;
            const double err = fabs((double)kai[i * N + j] - (double)ref);
            if (!(err <= bound)) {
                ++bad;
            }
            if (err / bound > max_ratio || (i == 0 && j == 0)) {
                max_ratio = err / bound;
                max_err = err;
                bound_at_max = bound;
            }
        }
    }
    printf("%-5s %2zu x %zu x %zu: max |kai - engine scalar Q4_0 x Q8_0| = %.3g (bound there %.3g, %.1f%% of it); %s\n",
           what, rows, N, K, max_err, bound_at_max, 100.0 * max_ratio, bad == 0 ? "ok" : "OUT OF BOUND");
    return bad;
}

#endif  // KAI_EXAMPLES_GGML_Q4_0_REF_H
