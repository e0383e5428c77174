// SPDX-License-Identifier: Apache-2.0
// The program tools/perf/kai_perf.py measures: it makes inputs, runs a kernel's LHS and RHS
// packers once and the kernel once over the whole M x N output, at the shape given on the
// command line, and prints a checksum of the output (so the work cannot be optimised away).
//
//   perf_driver M N K BL
//
// The calls themselves are in the case file kai_perf.py writes for each kernel (included below as
// KAI_PERF_CASE): it includes the kernel's and packers' headers and defines perf_case(), whose
// arguments come from the parameter names of their prototypes (see case_source() in kai_perf.py).
// Correctness is not checked here: the test suites do that; this program only has to execute the
// code paths a caller's packing and call execute.
#include <alloca.h>
#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct perf_shape {
    size_t m, n, k, bl;
};

static uint64_t perf_rng_state = 0x2545F4914F6CDD1Dull;

static uint32_t perf_rand(void) {
    // xorshift64: a fixed sequence, so every run packs the same data.
    perf_rng_state ^= perf_rng_state << 13;
    perf_rng_state ^= perf_rng_state >> 7;
    perf_rng_state ^= perf_rng_state << 17;
    return (uint32_t)(perf_rng_state >> 32);
}

// A zeroed buffer of `bytes` bytes plus a margin (packers of ragged shapes may read a little past
// the last row they are given).
static void* perf_alloc(size_t bytes) {
    const size_t total = (bytes + 4095) / 4096 * 4096 + 4096;
    void* p = aligned_alloc(64, total);
    if (p == NULL) {
        fprintf(stderr, "perf_driver: out of memory (%zu bytes)\n", total);
        exit(2);
    }
    memset(p, 0, total);
    return p;
}

// Values in [-1, 1] in the given element size: 4 = f32, 2 = the upper half of an f32 (a bf16), or
// an IEEE half when `half` is set; 1 = random bytes (int8, or two int4 nibbles).
static __attribute__((unused)) void* perf_input(size_t count, size_t elem_bytes, int half) {
    uint8_t* p = perf_alloc(count * elem_bytes);
    for (size_t i = 0; i < count; ++i) {
        const float v = (float)((int)(perf_rand() % 2001u) - 1000) / 1000.0f;
        if (elem_bytes == 4) {
            memcpy(p + 4 * i, &v, 4);
        } else if (elem_bytes == 2 && !half) {
            uint32_t u;
            memcpy(&u, &v, 4);
            const uint16_t b = (uint16_t)(u >> 16);
            memcpy(p + 2 * i, &b, 2);
        } else if (elem_bytes == 2) {
            // |v| <= 1 as f16: sign, exponent and 10 mantissa bits from the f32 (normal range).
            uint32_t u;
            memcpy(&u, &v, 4);
            const uint32_t sign = (u >> 16) & 0x8000u;
            const int exp = (int)((u >> 23) & 0xFFu) - 127 + 15;
            const uint16_t h = (uint16_t)(exp <= 0 ? sign : (sign | ((uint32_t)exp << 10) | ((u >> 13) & 0x3FFu)));
            memcpy(p + 2 * i, &h, 2);
        } else {
            p[i] = (uint8_t)perf_rand();
        }
    }
    return p;
}

// Block scales and other per-channel factors: every byte 0x3C, a small positive number as f32
// (0.0115), bf16 (0.0115) or f16 (1.06), so no scale is NaN or infinite.
static __attribute__((unused)) void* perf_scales(size_t bytes) {
    void* p = perf_alloc(bytes);
    memset(p, 0x3C, bytes);
    return p;
}

static __attribute__((unused)) double perf_checksum(const void* dst, size_t bytes) {
    const uint8_t* p = dst;
    double s = 0.0;
    for (size_t i = 0; i < bytes; ++i) s += p[i] * (double)(i % 7 + 1);
    return s;
}

#include KAI_PERF_CASE

static __attribute__((noinline)) double perf_run(const struct perf_shape* s) {
    return perf_case(s);
}

int main(int argc, char** argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s M N K BL\n", argv[0]);
        return 2;
    }
    struct perf_shape s;
    s.m = strtoull(argv[1], NULL, 10);
    s.n = strtoull(argv[2], NULL, 10);
    s.k = strtoull(argv[3], NULL, 10);
    s.bl = strtoull(argv[4], NULL, 10);
    // The environment and the program's path sit above the stack, so where the kernels' stack
    // buffers fall within a page depends on them, and libc's memcpy/memset take alignment-dependent
    // paths: move the stack to the same offset within a page whatever they are (the counts are then
    // the same in every checkout and shell).
    volatile char* pad = alloca((uintptr_t)__builtin_frame_address(0) % 4096 + 64);
    pad[0] = 0;
    printf("checksum %.6g\n", perf_run(&s));
    return 0;
}
