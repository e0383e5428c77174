//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// dst[0][j] = clamp(fma chain over k starting from bias[j]) for one LHS row (docs/matmul_sme.md). VL = SVL / 32.
// Packed RHS: blocks of nr = 2VL channels, stride 2VL * (1 + k) * 4 bytes: 2VL biases, then for each k the 2VL
// values (two vectors). One step covers 4 blocks = 8 VL columns in 8 streaming vectors z24-z31 (block b's low and
// high halves in z24+2b and z25+2b, which is also their order in DST), started from the biases. Per 4 k, one LD1RQW
// broadcasts the four LHS values to every 128-bit segment and each block gives 8 RHS vectors (two per k, loaded
// with immediate offsets from a pointer that then advances by 8 vectors); 32 FMLAs by element do one fused
// multiply-add per output and k, in k order. Columns past n: the missing blocks' pointers repeat block 0 (read in
// bounds, results dropped), the stores are predicated. Clamp: FMIN with the upper bound, then FMAX with the lower,
// as KleidiAI's SME kernel does. Streaming SVE only (no SME2 instruction; ZA is not used, but SMSTART/SMSTOP
// switch it on and off as the other SME kernels do, after committing a pending lazy save); one assembly section.

#if !defined(__aarch64__)
#error "kai_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla needs AArch64"
#endif

#include "kai_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

#include "kai_matmul_clamp_f32_f32_f32p_interface.h"

// The streaming body is one assembly string (it must not be split: it holds state in registers throughout),
// longer than the 4095 characters C99 guarantees; GCC and clang accept it.
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif

static const size_t kai_m_step = 1;
static const size_t kai_kr = 1;
static const size_t kai_sr = 1;

// The f32 lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_vl(void) {
    register uint64_t svl_bytes __asm__("x0");
    __asm__ volatile(
        ".inst 0x04bf5820\n"  // rdsvl x0, #1
        : "=r"(svl_bytes));
    return (size_t)svl_bytes / sizeof(float);
}

// Commits a pending lazy ZA save of the caller (AAPCS64 SME): when TPIDR2_EL0 points to a TPIDR2 block, stores
// its num_za_save_slices ZA slices to its za_save_buffer (ZA is then active, so STR ZA is valid outside streaming
// mode) and clears TPIDR2_EL0, which tells the caller that ZA must be restored from the buffer.
static void kai_commit_za(void) {
    __asm__ volatile(
        ".inst 0xd53bd0b0\n"  // mrs x16, tpidr2_el0
        "cbz x16, 2f\n"
        "ldr x17, [x16]\n"
        "ldrh w15, [x16, #8]\n"
        "cbz x17, 1f\n"
        "cbz w15, 1f\n"
        "mov w12, #0\n"
        "0:\n"
        ".inst 0xe1200220\n"  // str za[w12, 0], [x17]
        ".inst 0x04315831\n"  // addsvl x17, x17, #1
        "add w12, w12, #1\n"
        "cmp w12, w15\n"
        "b.lo 0b\n"
        "1:\n"
        ".inst 0xd51bd0bf\n"  // msr tpidr2_el0, xzr
        "2:\n"
        :
        :
        : "x12", "x15", "x16", "x17", "cc", "memory");
}

size_t kai_get_m_step_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(void) {
    return 8 * kai_vl();
}

size_t kai_get_nr_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(void) {
    return 2 * kai_vl();
}

size_t kai_get_kr_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(void) {
    return kai_sr;
}

size_t kai_get_lhs_offset_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(m_idx == 0, "m_idx must be 0");
    KAI_UNUSED(k);
    return 0;
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % (2 * kai_vl()) == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx, kai_mul_size_checked(kai_add_size_checked(k, 1), sizeof(float)));
}

size_t kai_get_dst_offset_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx == 0, "m_idx must be 0");
    KAI_ASSUME_MSG(n_idx % (2 * kai_vl()) == 0, "n_idx must be a multiple of nr");
    KAI_UNUSED(dst_stride);
    return kai_mul_size_checked(n_idx, sizeof(float));
}

size_t kai_get_dst_size_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// Arguments of the assembly body, read with ldp from x0 (offsets in the comments).
struct kai_args {
    const void* lhs;     // 0
    const void* rhs;     // 8: packed RHS, first block
    void* dst;           // 16
    uint64_t n;          // 24
    uint64_t k_main;     // 32: k / 4
    uint64_t k_tail;     // 40: k % 4
    uint64_t rhs_block;  // 48: bytes per RHS block, 2VL * (1 + k) * 4
    uint32_t min_bits;   // 56
    uint32_t max_bits;   // 60
};

void kai_run_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla(
    size_t m, size_t n, size_t k, const void* lhs, size_t lhs_stride, const void* rhs_packed, void* dst,
    size_t dst_stride_row, size_t dst_stride_col, float clamp_min, float clamp_max) {
    KAI_ASSUME_MSG(m == 1, "m must be 1");
    KAI_ASSUME_MSG(dst_stride_col == sizeof(float), "dst_stride_col must be 4");
    KAI_UNUSED(lhs_stride);
    KAI_UNUSED(dst_stride_row);
    if (n == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs != NULL, "lhs must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");

    struct kai_args args;
    args.lhs = lhs;
    args.rhs = rhs_packed;
    args.dst = dst;
    args.n = n;
    args.k_main = k / 4;
    args.k_tail = k % 4;
    args.rhs_block = kai_mul_size_checked(2 * kai_vl(), kai_mul_size_checked(kai_add_size_checked(k, 1), sizeof(float)));
    memcpy(&args.min_bits, &clamp_min, sizeof(float));
    memcpy(&args.max_bits, &clamp_max, sizeof(float));

    kai_commit_za();

    // Register map: x1 LHS, x2 RHS tile (block 0), x3 DST tile, x4 columns left, x5 k / 4, x6 k % 4, x7 block
    // bytes, x10 LHS pointer, w11 / w13 clamp bits, x12 k counter, x14 VL, x15 nr = 2VL, x16 8VL, x17 blocks in the
    // tile, x19-x22 block pointers (blocks 0-3, advancing through K), x27 columns of the tile, x28 scratch.
    // z0: four LHS values (one per 128-bit segment, replicated); z1-z16: RHS vectors; z24-z31: accumulators.
    register const struct kai_args* a __asm__("x0") = &args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x4, [x0, #16]\n"
        "ldp x5, x6, [x0, #32]\n"
        "ldr x7, [x0, #48]\n"
        "ldp w11, w13, [x0, #56]\n"
        ".inst 0xd503477f\n"  // smstart
        ".inst 0x2598e3e0\n"  // ptrue p0.s
        ".inst 0x04a0e3ee\n"  // cntw x14
        "lsl x15, x14, #1\n"
        "lsl x16, x14, #3\n"
        "1:\n"  // column tiles of 8 VL
        "cmp x4, x16\n"
        "csel x27, x4, x16, lo\n"  // columns of this tile
        "add x17, x27, x15\n"
        "sub x17, x17, #1\n"
        "udiv x17, x17, x15\n"  // blocks of this tile
        "mov x19, x2\n"
        "add x28, x2, x7\n"
        "cmp x17, #1\n"
        "csel x20, x28, x2, hi\n"
        "add x28, x28, x7\n"
        "cmp x17, #2\n"
        "csel x21, x28, x2, hi\n"
        "add x28, x28, x7\n"
        "cmp x17, #3\n"
        "csel x22, x28, x2, hi\n"
        ".inst 0xa540a278\n"  // ld1w z24.s, p0/z, [x19]
        ".inst 0xa541a279\n"  // ld1w z25.s, p0/z, [x19, #1, mul vl]
        ".inst 0x04335053\n"  // addvl x19, x19, #2
        ".inst 0xa540a29a\n"  // ld1w z26.s, p0/z, [x20]
        ".inst 0xa541a29b\n"  // ld1w z27.s, p0/z, [x20, #1, mul vl]
        ".inst 0x04345054\n"  // addvl x20, x20, #2
        ".inst 0xa540a2bc\n"  // ld1w z28.s, p0/z, [x21]
        ".inst 0xa541a2bd\n"  // ld1w z29.s, p0/z, [x21, #1, mul vl]
        ".inst 0x04355055\n"  // addvl x21, x21, #2
        ".inst 0xa540a2de\n"  // ld1w z30.s, p0/z, [x22]
        ".inst 0xa541a2df\n"  // ld1w z31.s, p0/z, [x22, #1, mul vl]
        ".inst 0x04365056\n"  // addvl x22, x22, #2
        "mov x10, x1\n"
        "mov x12, x5\n"
        "cbz x12, 3f\n"
        "2:\n"  // 4 k per iteration
        ".inst 0xa5002140\n"  // ld1rqw {z0.s}, p0/z, [x10]
        ".inst 0xa540a261\n"  // ld1w z1.s, p0/z, [x19, #0, mul vl]
        ".inst 0xa541a262\n"  // ld1w z2.s, p0/z, [x19, #1, mul vl]
        ".inst 0xa542a263\n"  // ld1w z3.s, p0/z, [x19, #2, mul vl]
        ".inst 0xa543a264\n"  // ld1w z4.s, p0/z, [x19, #3, mul vl]
        ".inst 0xa540a285\n"  // ld1w z5.s, p0/z, [x20, #0, mul vl]
        ".inst 0xa541a286\n"  // ld1w z6.s, p0/z, [x20, #1, mul vl]
        ".inst 0xa542a287\n"  // ld1w z7.s, p0/z, [x20, #2, mul vl]
        ".inst 0xa543a288\n"  // ld1w z8.s, p0/z, [x20, #3, mul vl]
        ".inst 0xa540a2a9\n"  // ld1w z9.s, p0/z, [x21, #0, mul vl]
        ".inst 0xa541a2aa\n"  // ld1w z10.s, p0/z, [x21, #1, mul vl]
        ".inst 0xa542a2ab\n"  // ld1w z11.s, p0/z, [x21, #2, mul vl]
        ".inst 0xa543a2ac\n"  // ld1w z12.s, p0/z, [x21, #3, mul vl]
        ".inst 0xa540a2cd\n"  // ld1w z13.s, p0/z, [x22, #0, mul vl]
        ".inst 0xa541a2ce\n"  // ld1w z14.s, p0/z, [x22, #1, mul vl]
        ".inst 0xa542a2cf\n"  // ld1w z15.s, p0/z, [x22, #2, mul vl]
        ".inst 0xa543a2d0\n"  // ld1w z16.s, p0/z, [x22, #3, mul vl]
        ".inst 0x64a00038\n"  // fmla z24.s, z1.s, z0.s[0]
        ".inst 0x64a00059\n"  // fmla z25.s, z2.s, z0.s[0]
        ".inst 0x64a80078\n"  // fmla z24.s, z3.s, z0.s[1]
        ".inst 0x64a80099\n"  // fmla z25.s, z4.s, z0.s[1]
        ".inst 0x64a000ba\n"  // fmla z26.s, z5.s, z0.s[0]
        ".inst 0x64a000db\n"  // fmla z27.s, z6.s, z0.s[0]
        ".inst 0x64a800fa\n"  // fmla z26.s, z7.s, z0.s[1]
        ".inst 0x64a8011b\n"  // fmla z27.s, z8.s, z0.s[1]
        ".inst 0x64a0013c\n"  // fmla z28.s, z9.s, z0.s[0]
        ".inst 0x64a0015d\n"  // fmla z29.s, z10.s, z0.s[0]
        ".inst 0x64a8017c\n"  // fmla z28.s, z11.s, z0.s[1]
        ".inst 0x64a8019d\n"  // fmla z29.s, z12.s, z0.s[1]
        ".inst 0x64a001be\n"  // fmla z30.s, z13.s, z0.s[0]
        ".inst 0x64a001df\n"  // fmla z31.s, z14.s, z0.s[0]
        ".inst 0x64a801fe\n"  // fmla z30.s, z15.s, z0.s[1]
        ".inst 0x64a8021f\n"  // fmla z31.s, z16.s, z0.s[1]
        ".inst 0xa544a261\n"  // ld1w z1.s, p0/z, [x19, #4, mul vl]
        ".inst 0xa545a262\n"  // ld1w z2.s, p0/z, [x19, #5, mul vl]
        ".inst 0xa546a263\n"  // ld1w z3.s, p0/z, [x19, #6, mul vl]
        ".inst 0xa547a264\n"  // ld1w z4.s, p0/z, [x19, #7, mul vl]
        ".inst 0xa544a285\n"  // ld1w z5.s, p0/z, [x20, #4, mul vl]
        ".inst 0xa545a286\n"  // ld1w z6.s, p0/z, [x20, #5, mul vl]
        ".inst 0xa546a287\n"  // ld1w z7.s, p0/z, [x20, #6, mul vl]
        ".inst 0xa547a288\n"  // ld1w z8.s, p0/z, [x20, #7, mul vl]
        ".inst 0xa544a2a9\n"  // ld1w z9.s, p0/z, [x21, #4, mul vl]
        ".inst 0xa545a2aa\n"  // ld1w z10.s, p0/z, [x21, #5, mul vl]
        ".inst 0xa546a2ab\n"  // ld1w z11.s, p0/z, [x21, #6, mul vl]
        ".inst 0xa547a2ac\n"  // ld1w z12.s, p0/z, [x21, #7, mul vl]
        ".inst 0xa544a2cd\n"  // ld1w z13.s, p0/z, [x22, #4, mul vl]
        ".inst 0xa545a2ce\n"  // ld1w z14.s, p0/z, [x22, #5, mul vl]
        ".inst 0xa546a2cf\n"  // ld1w z15.s, p0/z, [x22, #6, mul vl]
        ".inst 0xa547a2d0\n"  // ld1w z16.s, p0/z, [x22, #7, mul vl]
        ".inst 0x64b00038\n"  // fmla z24.s, z1.s, z0.s[2]
        ".inst 0x64b00059\n"  // fmla z25.s, z2.s, z0.s[2]
        ".inst 0x64b80078\n"  // fmla z24.s, z3.s, z0.s[3]
        ".inst 0x64b80099\n"  // fmla z25.s, z4.s, z0.s[3]
        ".inst 0x64b000ba\n"  // fmla z26.s, z5.s, z0.s[2]
        ".inst 0x64b000db\n"  // fmla z27.s, z6.s, z0.s[2]
        ".inst 0x64b800fa\n"  // fmla z26.s, z7.s, z0.s[3]
        ".inst 0x64b8011b\n"  // fmla z27.s, z8.s, z0.s[3]
        ".inst 0x64b0013c\n"  // fmla z28.s, z9.s, z0.s[2]
        ".inst 0x64b0015d\n"  // fmla z29.s, z10.s, z0.s[2]
        ".inst 0x64b8017c\n"  // fmla z28.s, z11.s, z0.s[3]
        ".inst 0x64b8019d\n"  // fmla z29.s, z12.s, z0.s[3]
        ".inst 0x64b001be\n"  // fmla z30.s, z13.s, z0.s[2]
        ".inst 0x64b001df\n"  // fmla z31.s, z14.s, z0.s[2]
        ".inst 0x64b801fe\n"  // fmla z30.s, z15.s, z0.s[3]
        ".inst 0x64b8021f\n"  // fmla z31.s, z16.s, z0.s[3]
        ".inst 0x04335113\n"  // addvl x19, x19, #8
        ".inst 0x04345114\n"  // addvl x20, x20, #8
        ".inst 0x04355115\n"  // addvl x21, x21, #8
        ".inst 0x04365116\n"  // addvl x22, x22, #8
        "add x10, x10, #16\n"
        "subs x12, x12, #1\n"
        "b.ne 2b\n"
        "3:\n"
        "mov x12, x6\n"
        "cbz x12, 5f\n"
        "4:\n"  // one k per iteration
        ".inst 0x8540c140\n"  // ld1rw {z0.s}, p0/z, [x10]
        ".inst 0xa540a261\n"  // ld1w z1.s, p0/z, [x19]
        ".inst 0xa541a262\n"  // ld1w z2.s, p0/z, [x19, #1, mul vl]
        ".inst 0xa540a283\n"  // ld1w z3.s, p0/z, [x20]
        ".inst 0xa541a284\n"  // ld1w z4.s, p0/z, [x20, #1, mul vl]
        ".inst 0xa540a2a5\n"  // ld1w z5.s, p0/z, [x21]
        ".inst 0xa541a2a6\n"  // ld1w z6.s, p0/z, [x21, #1, mul vl]
        ".inst 0xa540a2c7\n"  // ld1w z7.s, p0/z, [x22]
        ".inst 0xa541a2c8\n"  // ld1w z8.s, p0/z, [x22, #1, mul vl]
        ".inst 0x64a00038\n"  // fmla z24.s, z1.s, z0.s[0]
        ".inst 0x64a00059\n"  // fmla z25.s, z2.s, z0.s[0]
        ".inst 0x64a0007a\n"  // fmla z26.s, z3.s, z0.s[0]
        ".inst 0x64a0009b\n"  // fmla z27.s, z4.s, z0.s[0]
        ".inst 0x64a000bc\n"  // fmla z28.s, z5.s, z0.s[0]
        ".inst 0x64a000dd\n"  // fmla z29.s, z6.s, z0.s[0]
        ".inst 0x64a000fe\n"  // fmla z30.s, z7.s, z0.s[0]
        ".inst 0x64a0011f\n"  // fmla z31.s, z8.s, z0.s[0]
        ".inst 0x04335053\n"  // addvl x19, x19, #2
        ".inst 0x04345054\n"  // addvl x20, x20, #2
        ".inst 0x04355055\n"  // addvl x21, x21, #2
        ".inst 0x04365056\n"  // addvl x22, x22, #2
        "add x10, x10, #4\n"
        "subs x12, x12, #1\n"
        "b.ne 4b\n"
        "5:\n"  // clamp (FMIN with the upper bound, then FMAX with the lower) and store z24-z31 in order
        ".inst 0x05a03964\n"  // dup z4.s, w11
        ".inst 0x05a039a5\n"  // dup z5.s, w13
        ".inst 0x658780b8\n"  // fmin z24.s, p0/m, z24.s, z5.s
        ".inst 0x65868098\n"  // fmax z24.s, p0/m, z24.s, z4.s
        ".inst 0x658780b9\n"  // fmin z25.s, p0/m, z25.s, z5.s
        ".inst 0x65868099\n"  // fmax z25.s, p0/m, z25.s, z4.s
        ".inst 0x658780ba\n"  // fmin z26.s, p0/m, z26.s, z5.s
        ".inst 0x6586809a\n"  // fmax z26.s, p0/m, z26.s, z4.s
        ".inst 0x658780bb\n"  // fmin z27.s, p0/m, z27.s, z5.s
        ".inst 0x6586809b\n"  // fmax z27.s, p0/m, z27.s, z4.s
        ".inst 0x658780bc\n"  // fmin z28.s, p0/m, z28.s, z5.s
        ".inst 0x6586809c\n"  // fmax z28.s, p0/m, z28.s, z4.s
        ".inst 0x658780bd\n"  // fmin z29.s, p0/m, z29.s, z5.s
        ".inst 0x6586809d\n"  // fmax z29.s, p0/m, z29.s, z4.s
        ".inst 0x658780be\n"  // fmin z30.s, p0/m, z30.s, z5.s
        ".inst 0x6586809e\n"  // fmax z30.s, p0/m, z30.s, z4.s
        ".inst 0x658780bf\n"  // fmin z31.s, p0/m, z31.s, z5.s
        ".inst 0x6586809f\n"  // fmax z31.s, p0/m, z31.s, z4.s
        "mov x28, #0\n"
        ".inst 0x25bb1781\n"  // whilelt p1.s, x28, x27
        ".inst 0xe540e478\n"  // st1w z24.s, p1, [x3, #0, mul vl]
        "add x28, x28, x14\n"
        ".inst 0x25bb1781\n"  // whilelt p1.s, x28, x27
        ".inst 0xe541e479\n"  // st1w z25.s, p1, [x3, #1, mul vl]
        "add x28, x28, x14\n"
        ".inst 0x25bb1781\n"  // whilelt p1.s, x28, x27
        ".inst 0xe542e47a\n"  // st1w z26.s, p1, [x3, #2, mul vl]
        "add x28, x28, x14\n"
        ".inst 0x25bb1781\n"  // whilelt p1.s, x28, x27
        ".inst 0xe543e47b\n"  // st1w z27.s, p1, [x3, #3, mul vl]
        "add x28, x28, x14\n"
        ".inst 0x25bb1781\n"  // whilelt p1.s, x28, x27
        ".inst 0xe544e47c\n"  // st1w z28.s, p1, [x3, #4, mul vl]
        "add x28, x28, x14\n"
        ".inst 0x25bb1781\n"  // whilelt p1.s, x28, x27
        ".inst 0xe545e47d\n"  // st1w z29.s, p1, [x3, #5, mul vl]
        "add x28, x28, x14\n"
        ".inst 0x25bb1781\n"  // whilelt p1.s, x28, x27
        ".inst 0xe546e47e\n"  // st1w z30.s, p1, [x3, #6, mul vl]
        "add x28, x28, x14\n"
        ".inst 0x25bb1781\n"  // whilelt p1.s, x28, x27
        ".inst 0xe547e47f\n"  // st1w z31.s, p1, [x3, #7, mul vl]
        ".inst 0x04235103\n"  // addvl x3, x3, #8
        "add x2, x2, x7, lsl #2\n"
        "subs x4, x4, x27\n"
        "b.ne 1b\n"
        ".inst 0xd503467f\n"  // smstop
        :
        : "r"(a)
        : "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x19",
          "x20", "x21", "x22", "x27", "x28", "z0", "z1", "z2", "z3", "z4", "z5", "z6", "z7", "z8", "z9", "z10", "z11",
          "z12", "z13", "z14", "z15", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "z16", "z17", "z18", "z19", "z20", "z21", "z22", "z23", "z24", "z25", "z26",
          "z27", "z28", "z29", "z30", "z31", "p0", "p1", "cc", "memory");
}
