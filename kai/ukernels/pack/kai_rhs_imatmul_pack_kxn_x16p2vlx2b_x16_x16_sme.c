//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs a K x N RHS of 16-bit values (K = k_chunk_count * k_chunk_length rows, chunk c the rows c * k_chunk_length
// ...) and N 16-bit biases in the x16p2vlx2b layout (docs/formats.md, "Indirect GEMM packed layouts"): blocks of
// nr = 2 * SVL / 32 columns; a block is the nr biases, then for each chunk, its length padded to even (kcp =
// roundup(k_chunk_length, 2)), and each pair p of the chunk, the nr columns' two values (rows c * k_chunk_length +
// 2p and + 2p + 1; the pad of an odd chunk is 0); columns past n are 0 (biases and values). Values are copied as
// 16-bit patterns in streaming mode (SMSTART SM: no ZA state): nr = 2 * SVL / 32 halfwords is one vector, so a
// pair is two predicated row loads (lanes past n load as 0) and ZIP1 / ZIP2 of them, two stores.

#if !defined(__aarch64__)
#error "kai_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme needs AArch64"
#endif

#include "kai_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme.h"

#include <stddef.h>
#include <stdint.h>
#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_bias_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme
#pragma weak kai_get_n_step_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme
#pragma weak kai_get_rhs_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme
#pragma weak kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme
#pragma weak kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme
#pragma weak kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme
#pragma weak kai_run_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme
// (end of the weak definitions)

// 2 * the 32-bit lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_nr(void) {
    register uint64_t svl_bytes __asm__("x0");
    __asm__ volatile(
        ".inst 0x04bf5820\n"  // rdsvl x0, #1
        : "=r"(svl_bytes));
    return (size_t)svl_bytes / sizeof(uint32_t) * 2;
}

size_t kai_get_n_step_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(void) {
    return kai_nr();
}

size_t kai_get_rhs_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(size_t n_idx) {
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of the n step");
    return kai_mul_size_checked(n_idx, sizeof(uint16_t));
}

size_t kai_get_bias_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(size_t n_idx) {
    return kai_mul_size_checked(n_idx, sizeof(uint16_t));
}

size_t kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(
    size_t k_chunk_count, size_t k_chunk_length) {
    const size_t kp = kai_mul_size_checked(k_chunk_count, kai_roundup(k_chunk_length, 2));
    return kai_mul_size_checked(kai_nr(), kai_mul_size_checked(kai_add_size_checked(kp, 1), sizeof(uint16_t)));
}

size_t kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(
    size_t n_idx, size_t k_chunk_count, size_t k_chunk_length) {
    const size_t nr = kai_nr();
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of the n step");
    return kai_mul_size_checked(
        n_idx / nr, kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(k_chunk_count, k_chunk_length));
}

size_t kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length) {
    return kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(
        kai_roundup(n, kai_nr()), k_chunk_count, k_chunk_length);
}

// Arguments of the assembly body, read with ldp / ldr from x0 (offsets in the comments).
struct kai_args {
    const uint8_t* rhs;   // 0: row 0 of the K x n values
    uint64_t stride;      // 8: bytes between rows
    const uint8_t* bias;  // 16
    uint64_t n;           // 24
    uint64_t chunks;      // 32: k_chunk_count
    uint64_t length;      // 40: k_chunk_length
    void* out;            // 48
};

// Packs every block of nr columns: one streaming-mode section. Register map: x1 rhs, x2 stride, x3 bias, x4 n,
// x5 chunks, x6 chunk length, x7 out, x8 first column of the block, x9 chunks left, x10 / x12 row pointers,
// x11 pairs left of the chunk; p0 the block's columns < n, p2 all lanes.
static void kai_pack_blocks(const struct kai_args* args) {
    register const struct kai_args* a __asm__("x0") = args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x4, [x0, #16]\n"
        "ldp x5, x6, [x0, #32]\n"
        "ldr x7, [x0, #48]\n"
        ".inst 0xd503437f\n"  // smstart sm
        ".inst 0x2558e3e2\n"  // ptrue p2.h
        "mov x8, #0\n"
        "1:\n"  // blocks of nr columns: the biases
        ".inst 0x25641500\n"  // whilelt p0.h, x8, x4
        ".inst 0xa4a84060\n"  // ld1h z0.h, p0/z, [x3, x8, lsl #1]
        ".inst 0xe4a0e8e0\n"  // st1h z0.h, p2, [x7]
        ".inst 0x04275027\n"  // addvl x7, x7, #1
        "mov x10, x1\n"
        "mov x9, x5\n"
        "cbz x9, 6f\n"
        "2:\n"  // chunks
        "lsr x11, x6, #1\n"
        "cbz x11, 4f\n"
        "3:\n"  // pairs of rows
        "add x12, x10, x2\n"
        ".inst 0xa4a84140\n"  // ld1h z0.h, p0/z, [x10, x8, lsl #1]
        ".inst 0xa4a84181\n"  // ld1h z1.h, p0/z, [x12, x8, lsl #1]
        ".inst 0x05616002\n"  // zip1 z2.h, z0.h, z1.h
        ".inst 0x05616403\n"  // zip2 z3.h, z0.h, z1.h
        ".inst 0xe4a0e8e2\n"  // st1h z2.h, p2, [x7]
        ".inst 0xe4a1e8e3\n"  // st1h z3.h, p2, [x7, #1, mul vl]
        ".inst 0x04275047\n"  // addvl x7, x7, #2
        "add x10, x12, x2\n"
        "subs x11, x11, #1\n"
        "b.ne 3b\n"
        "4:\n"
        "tbz x6, #0, 5f\n"  // an odd chunk: its last row paired with 0
        ".inst 0xa4a84140\n"  // ld1h z0.h, p0/z, [x10, x8, lsl #1]
        ".inst 0x2578c001\n"  // dup z1.h, #0
        ".inst 0x05616002\n"  // zip1 z2.h, z0.h, z1.h
        ".inst 0x05616403\n"  // zip2 z3.h, z0.h, z1.h
        ".inst 0xe4a0e8e2\n"  // st1h z2.h, p2, [x7]
        ".inst 0xe4a1e8e3\n"  // st1h z3.h, p2, [x7, #1, mul vl]
        ".inst 0x04275047\n"  // addvl x7, x7, #2
        "add x10, x10, x2\n"
        "5:\n"
        "subs x9, x9, #1\n"
        "b.ne 2b\n"
        "6:\n"
        ".inst 0x0470e3e8\n"  // inch x8
        "cmp x8, x4\n"
        "b.lo 1b\n"
        ".inst 0xd503427f\n"  // smstop sm
        :
        : "r"(a)
        // SMSTART / SMSTOP zero every Z and P register: all are clobbered, whatever the body uses.
        : "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "z0", "z1", "z2", "z3", "z4", "z5",
          "z6", "z7", "z8", "z9", "z10", "z11", "z12", "z13", "z14", "z15", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "z16", "z17", "z18", "z19", "z20", "z21",
          "z22", "z23", "z24", "z25", "z26", "z27", "z28", "z29", "z30", "z31", "p0", "p1", "p2", "p3", "p4", "p5",
          "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15", "cc", "memory");
}

void kai_run_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length, size_t rhs_stride_row, const void* rhs, const void* bias,
    void* rhs_packed) {
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(bias != NULL, "bias must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    const size_t k = kai_mul_size_checked(k_chunk_count, k_chunk_length);
    KAI_ASSUME_MSG(k <= 1 || rhs_stride_row / sizeof(uint16_t) >= n, "rhs_stride_row must be at least n * 2 when K > 1");
    (void)kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme(n, k_chunk_count, k_chunk_length);

    struct kai_args args;
    args.rhs = (const uint8_t*)rhs;
    args.stride = rhs_stride_row;
    args.bias = (const uint8_t*)bias;
    args.n = n;
    args.chunks = k_chunk_count;
    args.length = k_chunk_length;
    args.out = rhs_packed;
    kai_pack_blocks(&args);
}
