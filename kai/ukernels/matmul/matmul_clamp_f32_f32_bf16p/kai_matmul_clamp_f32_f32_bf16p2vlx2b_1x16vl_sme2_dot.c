//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// dst[0][j] = clamp(bias[j] + sum over k pairs of BFDOT products) for one f32 LHS row (docs/matmul_sme.md), reading
// the packed RHS of the bf16 SME2 GEMM (kai_rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme). VL = SVL / 32. A block of
// nr = 2VL channels is 2VL f32 biases, then for each pair of k values the 2VL channels' two bf16 (two vectors of
// 32-bit pairs): the layout of the f32 GEMV's blocks with k replaced by the number of pairs, so this kernel is that
// GEMV with BFDOT (a 2-way bf16 dot product per 32-bit lane, into f32) for FMLA. The LHS row is converted to bf16
// in the kernel (BFCVT, round to nearest even: the bits kai_lhs_pack_bf16p2vlx2_f32_sme would pack) and laid out
// by UZP1 so that each 128-bit segment holds two pairs, which the indexed BFDOT selects. One step covers 8 blocks =
// 16 VL columns in 16 ZA array vectors (vector groups at offsets 0 / 1: blocks 0, 2, 4, 6 low / high halves;
// 2 / 3: blocks 1, 3, 5, 7), as in the f32 GEMV. Columns past n: the missing blocks' pointers repeat block 0 (read
// in bounds, results dropped), the stores are masked. K tail: predicated LHS loads, so nothing past k is read and
// the pad of an odd k is 0. One inline-assembly streaming section: no SME ABI routines are needed.

#if !defined(__aarch64__)
#error "kai_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot needs AArch64"
#endif

#include "kai_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

#include "kai_matmul_clamp_f32_f32_bf16p_interface.h"

// The streaming body is one assembly string (it must not be split: it holds state in registers throughout),
// longer than the 4095 characters C99 guarantees; GCC and clang accept it
// (the pragma below).
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif

static const size_t kai_m_step = 1;
static const size_t kai_kr = 2;
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

size_t kai_get_m_step_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot(void) {
    return 16 * kai_vl();
}

size_t kai_get_nr_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot(void) {
    return 2 * kai_vl();
}

size_t kai_get_kr_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot(void) {
    return kai_sr;
}

size_t kai_get_lhs_offset_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(m_idx == 0, "m_idx must be 0");
    KAI_UNUSED(k);
    return 0;
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % (2 * kai_vl()) == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(
        n_idx, kai_add_size_checked(sizeof(float), kai_mul_size_checked(kai_roundup(k, kai_kr), sizeof(uint16_t))));
}

size_t kai_get_dst_offset_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot(size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx == 0, "m_idx must be 0");
    KAI_ASSUME_MSG(n_idx % (2 * kai_vl()) == 0, "n_idx must be a multiple of nr");
    KAI_UNUSED(dst_stride);
    return kai_mul_size_checked(n_idx, sizeof(float));
}

size_t kai_get_dst_size_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// Arguments of the assembly body, read with ldp from x0 (offsets in the comments).
struct kai_args {
    const void* lhs;     // 0
    const void* rhs;     // 8: packed RHS, first block
    void* dst;           // 16
    uint64_t n;          // 24
    uint64_t k_main;     // 32: k / 8 (4 full pairs per iteration)
    uint64_t k_tail;     // 40: the remaining pairs, roundup(k, 2) / 2 - 4 * k_main
    uint64_t rhs_block;  // 48: bytes per RHS block, 2VL * (4 + 2 * roundup(k, 2))
    uint32_t min_bits;   // 56
    uint32_t max_bits;   // 60
    uint64_t k_left;     // 64: LHS values left for the tail, k - 8 * k_main
};

void kai_run_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot(
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
    args.k_main = k / 8;
    args.k_tail = kai_roundup(k, kai_kr) / 2 - 4 * (k / 8);
    args.k_left = k - 8 * (k / 8);
    args.rhs_block = kai_mul_size_checked(
        2 * kai_vl(), kai_add_size_checked(sizeof(float), kai_mul_size_checked(kai_roundup(k, kai_kr), sizeof(uint16_t))));
    memcpy(&args.min_bits, &clamp_min, sizeof(float));
    memcpy(&args.max_bits, &clamp_max, sizeof(float));

    kai_commit_za();

    // Register map: x1 LHS, x2 RHS tile (block 0), x3 DST tile, x4 columns left, x5 k / 8, x6 tail pairs, x7 block
    // bytes, w8 ZA vector select (0), x9 element offset inside a block, x10 LHS pointer, w11 / w13 clamp bits,
    // x12 k counter, x14 VL, x15 nr = 2VL, x16 16VL, x17 blocks in the tile, x19-x26 block pointers (x19, x21,
    // x23, x25 = blocks 0, 2, 4, 6; x20, x22, x24, x26 = blocks 1, 3, 5, 7), x27 columns of the tile, x28 scratch.
    // x30 LHS values left in the tail. z0 / z1: LHS bf16 pairs 0-1 / 2-3 of a step in every 128-bit segment
    // (z2, z3: their f32 loads); z16-z31: RHS vectors.
    register const struct kai_args* a __asm__("x0") = &args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x4, [x0, #16]\n"
        "ldp x5, x6, [x0, #32]\n"
        "ldr x7, [x0, #48]\n"
        "ldp w11, w13, [x0, #56]\n"
        ".inst 0xd503477f\n"  // smstart
        ".inst 0x2518e3e0\n"  // ptrue p0.b
        ".inst 0x25a07810\n"  // ptrue pn8.s
        "mov w8, #0\n"
        ".inst 0x04a0e3ee\n"  // cntw x14
        "lsl x15, x14, #1\n"
        "lsl x16, x14, #4\n"
        "1:\n"  // column tiles of 16 VL
        "cmp x4, x16\n"
        "csel x27, x4, x16, lo\n"  // columns of this tile
        "add x17, x27, x15\n"
        "sub x17, x17, #1\n"
        "udiv x17, x17, x15\n"  // blocks of this tile
        "mov x19, x2\n"
        "mov x28, x2\n"
        "add x28, x28, x7\n"
        "cmp x17, #1\n"
        "csel x20, x28, x2, hi\n"
        "add x28, x28, x7\n"
        "cmp x17, #2\n"
        "csel x21, x28, x2, hi\n"
        "add x28, x28, x7\n"
        "cmp x17, #3\n"
        "csel x22, x28, x2, hi\n"
        "add x28, x28, x7\n"
        "cmp x17, #4\n"
        "csel x23, x28, x2, hi\n"
        "add x28, x28, x7\n"
        "cmp x17, #5\n"
        "csel x24, x28, x2, hi\n"
        "add x28, x28, x7\n"
        "cmp x17, #6\n"
        "csel x25, x28, x2, hi\n"
        "add x28, x28, x7\n"
        "cmp x17, #7\n"
        "csel x26, x28, x2, hi\n"
        ".inst 0xa540a270\n"  // ld1w z16.s, p0/z, [x19]
        ".inst 0xa541a274\n"  // ld1w z20.s, p0/z, [x19, #1, mul vl]
        ".inst 0xa540a2b1\n"  // ld1w z17.s, p0/z, [x21]
        ".inst 0xa541a2b5\n"  // ld1w z21.s, p0/z, [x21, #1, mul vl]
        ".inst 0xa540a2f2\n"  // ld1w z18.s, p0/z, [x23]
        ".inst 0xa541a2f6\n"  // ld1w z22.s, p0/z, [x23, #1, mul vl]
        ".inst 0xa540a333\n"  // ld1w z19.s, p0/z, [x25]
        ".inst 0xa541a337\n"  // ld1w z23.s, p0/z, [x25, #1, mul vl]
        ".inst 0xc0040e00\n"  // mova za.d[w8, 0, vgx4], {z16.d-z19.d}
        ".inst 0xc0040e81\n"  // mova za.d[w8, 1, vgx4], {z20.d-z23.d}
        ".inst 0xa540a290\n"  // ld1w z16.s, p0/z, [x20]
        ".inst 0xa541a294\n"  // ld1w z20.s, p0/z, [x20, #1, mul vl]
        ".inst 0xa540a2d1\n"  // ld1w z17.s, p0/z, [x22]
        ".inst 0xa541a2d5\n"  // ld1w z21.s, p0/z, [x22, #1, mul vl]
        ".inst 0xa540a312\n"  // ld1w z18.s, p0/z, [x24]
        ".inst 0xa541a316\n"  // ld1w z22.s, p0/z, [x24, #1, mul vl]
        ".inst 0xa540a353\n"  // ld1w z19.s, p0/z, [x26]
        ".inst 0xa541a357\n"  // ld1w z23.s, p0/z, [x26, #1, mul vl]
        ".inst 0xc0040e02\n"  // mova za.d[w8, 2, vgx4], {z16.d-z19.d}
        ".inst 0xc0040e83\n"  // mova za.d[w8, 3, vgx4], {z20.d-z23.d}
        "mov x9, x15\n"  // element offset of k = 0 in a block (after the nr biases)
        "mov x10, x1\n"
        "mov x12, x5\n"
        "cbz x12, 3f\n"
        "2:\n"  // 4 k pairs per iteration
        ".inst 0xa5002142\n"  // ld1rqw {z2.s}, p0/z, [x10]
        ".inst 0xa5012143\n"  // ld1rqw {z3.s}, p0/z, [x10, #16]
        ".inst 0x658aa042\n"  // bfcvt z2.h, p0/m, z2.s
        ".inst 0x658aa063\n"  // bfcvt z3.h, p0/m, z3.s
        ".inst 0x05626840\n"  // uzp1 z0.h, z2.h, z2.h  // each 128-bit segment: pairs 0, 1 (and again)
        ".inst 0x05636861\n"  // uzp1 z1.h, z3.h, z3.h  // pairs 2, 3
        ".inst 0xa109c270\n"  // ld1w {z16.s, z20.s, z24.s, z28.s}, pn8/z, [x19, x9, lsl #2]
        ".inst 0xa109c2b1\n"  // ld1w {z17.s, z21.s, z25.s, z29.s}, pn8/z, [x21, x9, lsl #2]
        ".inst 0xa109c2f2\n"  // ld1w {z18.s, z22.s, z26.s, z30.s}, pn8/z, [x23, x9, lsl #2]
        ".inst 0xa109c333\n"  // ld1w {z19.s, z23.s, z27.s, z31.s}, pn8/z, [x25, x9, lsl #2]
        ".inst 0xc1509218\n"  // bfdot za.s[w8, 0, vgx4], {z16.h-z19.h}, z0.h[0]
        ".inst 0xc1509299\n"  // bfdot za.s[w8, 1, vgx4], {z20.h-z23.h}, z0.h[0]
        ".inst 0xc1509718\n"  // bfdot za.s[w8, 0, vgx4], {z24.h-z27.h}, z0.h[1]
        ".inst 0xc1509799\n"  // bfdot za.s[w8, 1, vgx4], {z28.h-z31.h}, z0.h[1]
        ".inst 0xa109c290\n"  // ld1w {z16.s, z20.s, z24.s, z28.s}, pn8/z, [x20, x9, lsl #2]
        ".inst 0xa109c2d1\n"  // ld1w {z17.s, z21.s, z25.s, z29.s}, pn8/z, [x22, x9, lsl #2]
        ".inst 0xa109c312\n"  // ld1w {z18.s, z22.s, z26.s, z30.s}, pn8/z, [x24, x9, lsl #2]
        ".inst 0xa109c353\n"  // ld1w {z19.s, z23.s, z27.s, z31.s}, pn8/z, [x26, x9, lsl #2]
        ".inst 0xc150921a\n"  // bfdot za.s[w8, 2, vgx4], {z16.h-z19.h}, z0.h[0]
        ".inst 0xc150929b\n"  // bfdot za.s[w8, 3, vgx4], {z20.h-z23.h}, z0.h[0]
        ".inst 0xc150971a\n"  // bfdot za.s[w8, 2, vgx4], {z24.h-z27.h}, z0.h[1]
        ".inst 0xc150979b\n"  // bfdot za.s[w8, 3, vgx4], {z28.h-z31.h}, z0.h[1]
        "add x9, x9, x15, lsl #1\n"
        ".inst 0xa109c270\n"  // ld1w {z16.s, z20.s, z24.s, z28.s}, pn8/z, [x19, x9, lsl #2]
        ".inst 0xa109c2b1\n"  // ld1w {z17.s, z21.s, z25.s, z29.s}, pn8/z, [x21, x9, lsl #2]
        ".inst 0xa109c2f2\n"  // ld1w {z18.s, z22.s, z26.s, z30.s}, pn8/z, [x23, x9, lsl #2]
        ".inst 0xa109c333\n"  // ld1w {z19.s, z23.s, z27.s, z31.s}, pn8/z, [x25, x9, lsl #2]
        ".inst 0xc1519218\n"  // bfdot za.s[w8, 0, vgx4], {z16.h-z19.h}, z1.h[0]
        ".inst 0xc1519299\n"  // bfdot za.s[w8, 1, vgx4], {z20.h-z23.h}, z1.h[0]
        ".inst 0xc1519718\n"  // bfdot za.s[w8, 0, vgx4], {z24.h-z27.h}, z1.h[1]
        ".inst 0xc1519799\n"  // bfdot za.s[w8, 1, vgx4], {z28.h-z31.h}, z1.h[1]
        ".inst 0xa109c290\n"  // ld1w {z16.s, z20.s, z24.s, z28.s}, pn8/z, [x20, x9, lsl #2]
        ".inst 0xa109c2d1\n"  // ld1w {z17.s, z21.s, z25.s, z29.s}, pn8/z, [x22, x9, lsl #2]
        ".inst 0xa109c312\n"  // ld1w {z18.s, z22.s, z26.s, z30.s}, pn8/z, [x24, x9, lsl #2]
        ".inst 0xa109c353\n"  // ld1w {z19.s, z23.s, z27.s, z31.s}, pn8/z, [x26, x9, lsl #2]
        ".inst 0xc151921a\n"  // bfdot za.s[w8, 2, vgx4], {z16.h-z19.h}, z1.h[0]
        ".inst 0xc151929b\n"  // bfdot za.s[w8, 3, vgx4], {z20.h-z23.h}, z1.h[0]
        ".inst 0xc151971a\n"  // bfdot za.s[w8, 2, vgx4], {z24.h-z27.h}, z1.h[1]
        ".inst 0xc151979b\n"  // bfdot za.s[w8, 3, vgx4], {z28.h-z31.h}, z1.h[1]
        "add x9, x9, x15, lsl #1\n"
        "add x10, x10, #32\n"
        "subs x12, x12, #1\n"
        "b.ne 2b\n"
        "3:\n"
        "mov x12, x6\n"
        "ldr x30, [x0, #64]\n"
        "cbz x12, 5f\n"
        "4:\n"  // one k pair per iteration
        ".inst 0x25be17e1\n"  // whilelt p1.s, xzr, x30
        ".inst 0xa5002542\n"  // ld1rqw {z2.s}, p1/z, [x10]
        ".inst 0x658aa042\n"  // bfcvt z2.h, p0/m, z2.s
        ".inst 0x05626840\n"  // uzp1 z0.h, z2.h, z2.h
        ".inst 0xa1094270\n"  // ld1w {z16.s, z24.s}, pn8/z, [x19, x9, lsl #2]
        ".inst 0xa10942b1\n"  // ld1w {z17.s, z25.s}, pn8/z, [x21, x9, lsl #2]
        ".inst 0xa10942f2\n"  // ld1w {z18.s, z26.s}, pn8/z, [x23, x9, lsl #2]
        ".inst 0xa1094333\n"  // ld1w {z19.s, z27.s}, pn8/z, [x25, x9, lsl #2]
        ".inst 0xc1509218\n"  // bfdot za.s[w8, 0, vgx4], {z16.h-z19.h}, z0.h[0]
        ".inst 0xc1509319\n"  // bfdot za.s[w8, 1, vgx4], {z24.h-z27.h}, z0.h[0]
        ".inst 0xa1094290\n"  // ld1w {z16.s, z24.s}, pn8/z, [x20, x9, lsl #2]
        ".inst 0xa10942d1\n"  // ld1w {z17.s, z25.s}, pn8/z, [x22, x9, lsl #2]
        ".inst 0xa1094312\n"  // ld1w {z18.s, z26.s}, pn8/z, [x24, x9, lsl #2]
        ".inst 0xa1094353\n"  // ld1w {z19.s, z27.s}, pn8/z, [x26, x9, lsl #2]
        ".inst 0xc150921a\n"  // bfdot za.s[w8, 2, vgx4], {z16.h-z19.h}, z0.h[0]
        ".inst 0xc150931b\n"  // bfdot za.s[w8, 3, vgx4], {z24.h-z27.h}, z0.h[0]
        "add x9, x9, x15\n"
        "add x10, x10, #8\n"
        "sub x30, x30, #2\n"
        "subs x12, x12, #1\n"
        "b.ne 4b\n"
        "5:\n"  // clamp and store: z16+i / z20+i = block 2i lo / hi, z24+i / z28+i = block 2i+1 lo / hi
        ".inst 0x05a03964\n"  // dup z4.s, w11
        ".inst 0x05a039a5\n"  // dup z5.s, w13
        ".inst 0xc0060c10\n"  // mova {z16.d-z19.d}, za.d[w8, 0, vgx4]
        ".inst 0xc0060c34\n"  // mova {z20.d-z23.d}, za.d[w8, 1, vgx4]
        ".inst 0xc0060c58\n"  // mova {z24.d-z27.d}, za.d[w8, 2, vgx4]
        ".inst 0xc0060c7c\n"  // mova {z28.d-z31.d}, za.d[w8, 3, vgx4]
        ".inst 0xc1a5c890\n"  // fclamp {z16.s-z19.s}, z4.s, z5.s
        ".inst 0xc1a5c894\n"  // fclamp {z20.s-z23.s}, z4.s, z5.s
        ".inst 0xc1a5c898\n"  // fclamp {z24.s-z27.s}, z4.s, z5.s
        ".inst 0xc1a5c89c\n"  // fclamp {z28.s-z31.s}, z4.s, z5.s
        "mov x28, #0\n"
        ".inst 0x25bb6791\n"  // whilelt pn9.s, x28, x27, vlx4
        ".inst 0xa160c470\n"  // st1w {z16.s, z20.s, z24.s, z28.s}, pn9, [x3, #0, mul vl]
        "add x28, x28, x14, lsl #2\n"
        ".inst 0x25bb6791\n"  // whilelt pn9.s, x28, x27, vlx4
        ".inst 0xa161c471\n"  // st1w {z17.s, z21.s, z25.s, z29.s}, pn9, [x3, #4, mul vl]
        "add x28, x28, x14, lsl #2\n"
        ".inst 0x25bb6791\n"  // whilelt pn9.s, x28, x27, vlx4
        ".inst 0xa162c472\n"  // st1w {z18.s, z22.s, z26.s, z30.s}, pn9, [x3, #8, mul vl]
        "add x28, x28, x14, lsl #2\n"
        ".inst 0x25bb6791\n"  // whilelt pn9.s, x28, x27, vlx4
        ".inst 0xa163c473\n"  // st1w {z19.s, z23.s, z27.s, z31.s}, pn9, [x3, #12, mul vl]
        ".inst 0x04235203\n"  // addvl x3, x3, #16
        "add x2, x2, x7, lsl #3\n"
        "subs x4, x4, x27\n"
        "b.ne 1b\n"
        ".inst 0xd503467f\n"  // smstop
        :
        : "r"(a)
        : "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16",
          "x17", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x30", "z0", "z1", "z2", "z3", "z4",
          "z5", "z6", "z7", "z8", "z9", "z10", "z11", "z12", "z13", "z14", "z15", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "z16", "z17", "z18", "z19", "z20",
          "z21", "z22", "z23", "z24", "z25", "z26", "z27", "z28", "z29", "z30", "z31", "p0", "p1", "p2", "p3", "p4",
          "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15", "cc", "memory");
}
