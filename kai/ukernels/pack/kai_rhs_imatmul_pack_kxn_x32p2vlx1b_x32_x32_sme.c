//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Packs a K x N RHS of 32-bit values and N 32-bit biases in the x32p2vlx1b layout (docs/formats.md, "Indirect GEMM
// packed layouts"): blocks of nr = 2 * SVL / 32 columns; a block is the nr biases, then for each k < K the nr values
// of row k; columns past n are 0. The copy runs in streaming mode (SMSTART SM: no ZA state) as two predicated
// vector loads and stores per row: lanes past n load as 0.

#if !defined(__aarch64__)
#error "kai_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme needs AArch64"
#endif

#include "kai_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme.h"

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_bias_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme
#pragma weak kai_get_n_step_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme
#pragma weak kai_get_rhs_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme
#pragma weak kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme
#pragma weak kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme
#pragma weak kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme
#pragma weak kai_run_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme
// (end of the weak definitions)

// 2 * the 32-bit lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_nr(void) {
    register uint64_t svl_bytes __asm__("x0");
    __asm__ volatile(
        ".inst 0x04bf5820\n"  // rdsvl x0, #1
        : "=r"(svl_bytes));
    return (size_t)svl_bytes / sizeof(uint32_t) * 2;
}

// Arguments of the assembly body, read with ldr from x0 (offsets in the comments).
struct kai_args {
    const uint8_t* rhs;  // 0: row 0 of the K x n values
    uint64_t stride;     // 8: bytes between rows
    const uint8_t* bias; // 16
    uint64_t n;          // 24
    uint64_t k;          // 32: rows
    void* out;           // 40
};

// Packs every block of 2VL columns: one streaming-mode section. Register map: x1 rhs, x2 stride, x3 bias, x4 n,
// x5 K, x6 out, x7 first column of the block, x8 first column of its upper half, x9 / x11 row pointers, x10 row pairs left.
static void kai_pack_blocks(const struct kai_args* args) {
    register const struct kai_args* a __asm__("x0") = args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x4, [x0, #16]\n"
        "ldp x5, x6, [x0, #32]\n"
        ".inst 0xd503437f\n"  // smstart sm
        ".inst 0x2598e3e2\n"  // ptrue p2.s
        "mov x7, #0\n"
        "1:\n"  // blocks of 2VL columns
        ".inst 0x25a414e0\n"  // whilelt p0.s, x7, x4
        ".inst 0x04b0e3e7\n"  // incw x7
        "mov x8, x7\n"
        ".inst 0x04b0e7e7\n"  // decw x7
        ".inst 0x25a41501\n"  // whilelt p1.s, x8, x4
        ".inst 0xa5474060\n"  // ld1w z0.s, p0/z, [x3, x7, lsl #2]
        ".inst 0xa5484461\n"  // ld1w z1.s, p1/z, [x3, x8, lsl #2]
        ".inst 0xe540e8c0\n"  // st1w z0.s, p2, [x6]
        ".inst 0xe541e8c1\n"  // st1w z1.s, p2, [x6, #1, mul vl]
        ".inst 0x04265046\n"  // addvl x6, x6, #2
        "mov x9, x1\n"
        "lsr x10, x5, #1\n"
        "cbz x10, 3f\n"
        "2:\n"  // the K rows of the block, two per iteration
        "add x11, x9, x2\n"
        ".inst 0xa5474120\n"  // ld1w z0.s, p0/z, [x9, x7, lsl #2]
        ".inst 0xa5484521\n"  // ld1w z1.s, p1/z, [x9, x8, lsl #2]
        ".inst 0xa5474162\n"  // ld1w z2.s, p0/z, [x11, x7, lsl #2]
        ".inst 0xa5484563\n"  // ld1w z3.s, p1/z, [x11, x8, lsl #2]
        "add x9, x11, x2\n"
        ".inst 0xe540e8c0\n"  // st1w z0.s, p2, [x6]
        ".inst 0xe541e8c1\n"  // st1w z1.s, p2, [x6, #1, mul vl]
        ".inst 0xe542e8c2\n"  // st1w z2.s, p2, [x6, #2, mul vl]
        ".inst 0xe543e8c3\n"  // st1w z3.s, p2, [x6, #3, mul vl]
        ".inst 0x04265086\n"  // addvl x6, x6, #4
        "subs x10, x10, #1\n"
        "b.ne 2b\n"
        "3:\n"
        "tbz x5, #0, 4f\n"  // the odd row
        ".inst 0xa5474120\n"  // ld1w z0.s, p0/z, [x9, x7, lsl #2]
        ".inst 0xa5484521\n"  // ld1w z1.s, p1/z, [x9, x8, lsl #2]
        ".inst 0xe540e8c0\n"  // st1w z0.s, p2, [x6]
        ".inst 0xe541e8c1\n"  // st1w z1.s, p2, [x6, #1, mul vl]
        ".inst 0x04265046\n"  // addvl x6, x6, #2
        "4:\n"
        ".inst 0x04b1e3e7\n"  // incw x7, all, mul #2
        "cmp x7, x4\n"
        "b.lo 1b\n"
        ".inst 0xd503427f\n"  // smstop sm
        :
        : "r"(a)
        // SMSTART / SMSTOP zero every Z and P register: all are clobbered, whatever the body uses.
        : "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "z0", "z1", "z2", "z3", "z4", "z5", "z6",
          "z7", "z8", "z9", "z10", "z11", "z12", "z13", "z14", "z15", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "z16", "z17", "z18", "z19", "z20", "z21", "z22",
          "z23", "z24", "z25", "z26", "z27", "z28", "z29", "z30", "z31", "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7",
          "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15", "cc", "memory");
}

size_t kai_get_n_step_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(void) {
    return kai_nr();
}

size_t kai_get_rhs_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(size_t n_idx) {
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of the n step");
    return kai_mul_size_checked(n_idx, sizeof(uint32_t));
}

size_t kai_get_bias_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(size_t n_idx) {
    return kai_mul_size_checked(n_idx, sizeof(uint32_t));
}

size_t kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(
    size_t k_chunk_count, size_t k_chunk_length) {
    const size_t k = kai_mul_size_checked(k_chunk_count, k_chunk_length);
    return kai_mul_size_checked(kai_nr(), kai_mul_size_checked(kai_add_size_checked(k, 1), sizeof(uint32_t)));
}

size_t kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(
    size_t n_idx, size_t k_chunk_count, size_t k_chunk_length) {
    const size_t nr = kai_nr();
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of the n step");
    return kai_mul_size_checked(
        n_idx / nr, kai_get_rhs_packed_stride_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(k_chunk_count, k_chunk_length));
}

size_t kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length) {
    return kai_get_rhs_packed_offset_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(
        kai_roundup(n, kai_nr()), k_chunk_count, k_chunk_length);
}

void kai_run_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(
    size_t n, size_t k_chunk_count, size_t k_chunk_length, size_t rhs_stride_row, const void* rhs, const void* bias,
    void* rhs_packed) {
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(rhs != NULL, "rhs must not be NULL");
    KAI_ASSUME_MSG(bias != NULL, "bias must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    const size_t k = kai_mul_size_checked(k_chunk_count, k_chunk_length);
    KAI_ASSUME_MSG(k <= 1 || rhs_stride_row / sizeof(uint32_t) >= n, "rhs_stride_row must be at least n * 4 when K > 1");
    (void)kai_get_rhs_packed_size_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme(n, k_chunk_count, k_chunk_length);

    struct kai_args args;
    args.rhs = (const uint8_t*)rhs;
    args.stride = rhs_stride_row;
    args.bias = (const uint8_t*)bias;
    args.n = n;
    args.k = k;
    args.out = rhs_packed;
    kai_pack_blocks(&args);
}
