//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__)
#error "kai_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa needs AArch64"
#endif

// dst[i][j] = FCLAMP(acc, scalar_min, scalar_max) = minNum(maxNum(acc, scalar_min), scalar_max) (a NaN acc gives the
// bound, as KleidiAI's kernel), acc = sum over k pairs of a[i][2p] * w[j][2p] + a[i][2p+1] *
// w[j][2p+1] (widening FMOPA, f16 products into f32), with a the f16 LHS and w = f16((u - 8) * d) (docs/formats.md, "SME matmul recipes").
// Packed LHS (docs/formats.md, "SME packed layouts", mr = VL = SVL / 32): per block of VL rows, for each k pair the VL rows' two f16 = one
// vector. Packed RHS (docs/formats.md, "Q4_0 layouts of the SME kernels", nr = 4VL): per nr-column block, for each block b and group g of 4 k values, nr
// 16-bit units (lane i: k = 4g, 4g+1 in the low byte, 4g+2, 4g+3 in the high byte, low nibble first), then the f16
// scales (lane i, block b at (b * nr + i) * 2 after the data).
// Tile: VL rows x 4VL columns in the four f32 tiles za0.s-za3.s (columns 0..VL-1, VL..2VL-1, ...). Per group, LD2B
// splits the 4VL units into their low bytes (pair 2g of every column) and high bytes (pair 2g+1); LUTI4 (four
// registers, table ZT0: u -> f16(u - 8)) turns each into four vectors of f16 pairs, one 32-bit lane per column in
// column order; FMUL by the block's scales (each scale twice, ZIP of the scale vector with itself) gives w; one
// FMOPA per tile with the LHS vector of that pair. A 32-value chunk is 8 groups, unrolled with immediate offsets.
// Rows past m: the LHS lanes of the last block are computed and dropped; columns past n: the padded RHS lanes are
// computed and dropped (masked stores). Row r of the tile is ZA array vectors 4r..4r+3 (horizontal slices of
// za0.b), read out and stored one row at a time. One inline-assembly streaming section: no SME ABI routines.

#include "kai_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

#include "kai_matmul_clamp_f32_f16p_qsi4c32p_interface.h"

// The streaming body is one assembly string longer than the 4095 characters C99 guarantees; GCC and clang accept it
// (the pragma below).
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif

static const size_t kai_kr = 4;
static const size_t kai_sr = 2;

// LUTI4 table: nibble u -> f16(u - 8) in the low half of each 32-bit ZT0 entry.
static const uint32_t kai_lut[16] = {0xC800, 0xC700, 0xC600, 0xC500, 0xC400, 0xC200, 0xC000, 0xBC00,
                                     0x0000, 0x3C00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700};

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

static void check_block(size_t k, size_t bl) {
    KAI_ASSUME_ALWAYS_MSG(bl != 0 && bl % 32 == 0, "bl must be a non-zero multiple of 32");
    KAI_ASSUME_ALWAYS_MSG(k % bl == 0, "k must be a multiple of bl");
    KAI_UNUSED(k);
    KAI_UNUSED(bl);
}

size_t kai_get_m_step_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(void) {
    return kai_vl();
}

size_t kai_get_n_step_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(void) {
    return 4 * kai_vl();
}

size_t kai_get_mr_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(void) {
    return kai_vl();
}

size_t kai_get_nr_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(void) {
    return 4 * kai_vl();
}

size_t kai_get_kr_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(size_t m_idx, size_t k, size_t bl) {
    check_block(k, bl);
    const size_t mr = kai_vl();
    KAI_ASSUME_MSG(m_idx % mr == 0, "m_idx must be a multiple of mr");
    return kai_mul_size_checked(m_idx, kai_mul_size_checked(k, sizeof(uint16_t)));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(size_t n_idx, size_t k, size_t bl) {
    check_block(k, bl);
    const size_t nr = 4 * kai_vl();
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx / nr, kai_mul_size_checked(nr * (k / bl), bl / 2 + 2));
}

size_t kai_get_dst_offset_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(
    size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_vl() == 0, "m_idx must be a multiple of m_step");
    KAI_ASSUME_MSG(n_idx % (4 * kai_vl()) == 0, "n_idx must be a multiple of n_step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// Arguments of the assembly body, read with ldp from x0 (offsets in the comments).
struct kai_args {
    const void* lhs;        // 0: packed LHS, first block
    const void* rhs;        // 8: packed RHS, first block
    float* dst;             // 16
    uint64_t m;             // 24
    uint64_t n;             // 32
    uint64_t nb;            // 40: blocks per row, k / bl
    uint64_t chunks;        // 48: 32-value chunks per block, bl / 32
    uint64_t lhs_stride;    // 56: bytes per mr-row LHS block, mr * k * 2
    uint64_t rhs_stride;    // 64: bytes per nr-column RHS block
    uint64_t scale_off;     // 72: offset of the scales in an RHS block, nr * k / 2
    uint64_t dst_stride;    // 80: dst row stride in bytes
    const uint32_t* lut;    // 88
    uint32_t min_bits;      // 96
    uint32_t max_bits;      // 100
};

void kai_run_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa(
    size_t m, size_t n, size_t k, size_t bl, const void* lhs_packed, const void* rhs_packed, float* dst,
    size_t dst_stride_row, size_t dst_stride_col, float scalar_min, float scalar_max) {
    check_block(k, bl);
    KAI_ASSUME_MSG(dst_stride_col == sizeof(float), "dst_stride_col must be sizeof(float)");
    if (m == 0 || n == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");
    KAI_ASSUME_MSG(m == 1 || dst_stride_row / sizeof(float) >= n, "dst_stride_row must be at least n * sizeof(float) when m > 1");
    KAI_UNUSED(dst_stride_col);

    const size_t vl = kai_vl(), nr = 4 * vl, nb = k / bl;
    struct kai_args args;
    args.lhs = lhs_packed;
    args.rhs = rhs_packed;
    args.dst = dst;
    args.m = m;
    args.n = n;
    args.nb = nb;
    args.chunks = bl / 32;
    args.lhs_stride = kai_mul_size_checked(vl * k, sizeof(uint16_t));
    args.rhs_stride = kai_mul_size_checked(nr * nb, bl / 2 + 2);
    args.scale_off = kai_mul_size_checked(nr, k / 2);
    args.dst_stride = dst_stride_row;
    args.lut = kai_lut;
    memcpy(&args.min_bits, &scalar_min, sizeof(float));
    memcpy(&args.max_bits, &scalar_max, sizeof(float));

    kai_commit_za();

    // Register map: x1 LHS, x2 RHS block of the column tile, x3 DST of the column tile, x4 first column of the
    // tile, x5 n, x6 m, x7 nb, x9 chunks, x10 LHS block bytes, x11 RHS block bytes, x8 scale offset, x13 dst
    // stride, x14 LHS block of the row tile, x15 rows left, x16 DST row, x17 LHS pointer, x19 RHS data pointer, x20
    // RHS scale pointer, x21 block counter, x22 chunk counter, x23 rows to store, x24 VL, w12 ZA slice. z0 / z1 RHS
    // scales, z24-z27 the scales twice each; z4 / z5 RHS low / high bytes, z6 / z7 LHS pairs, z8-z15 weights.
    register const struct kai_args* a __asm__("x0") = &args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x6, [x0, #16]\n"
        "ldp x5, x7, [x0, #32]\n"
        "ldp x9, x10, [x0, #48]\n"
        "ldp x11, x8, [x0, #64]\n"
        "ldp x13, x14, [x0, #80]\n"
        ".inst 0xd503477f\n"  // smstart
        ".inst 0x2518e3e0\n"  // ptrue p0.b
        ".inst 0x25a07812\n"  // ptrue pn10.s
        ".inst 0x25607813\n"  // ptrue pn11.h
        ".inst 0xe11f81c0\n"  // ldr zt0, [x14]
        ".inst 0x04a0e3f8\n"  // cntw x24
        ".inst 0x8558c01c\n"  // ld1rw {z28.s}, p0/z, [x0, #96]
        ".inst 0x8559c01d\n"  // ld1rw {z29.s}, p0/z, [x0, #100]
        "mov x4, #0\n"
        ".inst 0x25a56491\n"  // whilelt pn9.s, x4, x5, vlx4
        "1:\n"  // column tiles of 4VL
        "mov x14, x1\n"
        "mov x15, x6\n"
        "mov x16, x3\n"
        "2:\n"  // row tiles of VL
        ".inst 0xc00800ff\n"  // zero {za}
        "mov x17, x14\n"
        "mov x19, x2\n"
        "add x20, x2, x8\n"
        "mov x21, x7\n"
        "3:\n"  // blocks
        ".inst 0xa0402e80\n"  // ld1h {z0.h-z1.h}, pn11/z, [x20]
        ".inst 0x04345054\n"  // addvl x20, x20, #2
        ".inst 0xc160d018\n"  // zip {z24.h-z25.h}, z0.h, z0.h
        ".inst 0xc161d03a\n"  // zip {z26.h-z27.h}, z1.h, z1.h
        "mov x22, x9\n"
        "4:\n"  // 32 values of the block: 8 groups
        // One group of 4 k values (two pairs) at vector offset OFF (even, 0..14) of the chunk: RHS units and LHS pairs.
        ".inst 0xa420e264\n"  // ld2b {z4.b, z5.b}, p0/z, [x19, #0, mul vl]
        ".inst 0xa0404a26\n"  // ld1w {z6.s-z7.s}, pn10/z, [x17, #0, mul vl]
        ".inst 0xc08a9088\n"  // luti4 {z8.h-z11.h}, zt0, z4[0]
        ".inst 0xc08a90ac\n"  // luti4 {z12.h-z15.h}, zt0, z5[0]
        ".inst 0x65580908\n"  // fmul z8.h, z8.h, z24.h
        ".inst 0x65590929\n"  // fmul z9.h, z9.h, z25.h
        ".inst 0x655a094a\n"  // fmul z10.h, z10.h, z26.h
        ".inst 0x655b096b\n"  // fmul z11.h, z11.h, z27.h
        ".inst 0x81a800c0\n"  // fmopa za0.s, p0/m, p0/m, z6.h, z8.h
        ".inst 0x81a900c1\n"  // fmopa za1.s, p0/m, p0/m, z6.h, z9.h
        ".inst 0x81aa00c2\n"  // fmopa za2.s, p0/m, p0/m, z6.h, z10.h
        ".inst 0x81ab00c3\n"  // fmopa za3.s, p0/m, p0/m, z6.h, z11.h
        ".inst 0x6558098c\n"  // fmul z12.h, z12.h, z24.h
        ".inst 0x655909ad\n"  // fmul z13.h, z13.h, z25.h
        ".inst 0x655a09ce\n"  // fmul z14.h, z14.h, z26.h
        ".inst 0x655b09ef\n"  // fmul z15.h, z15.h, z27.h
        ".inst 0x81ac00e0\n"  // fmopa za0.s, p0/m, p0/m, z7.h, z12.h
        ".inst 0x81ad00e1\n"  // fmopa za1.s, p0/m, p0/m, z7.h, z13.h
        ".inst 0x81ae00e2\n"  // fmopa za2.s, p0/m, p0/m, z7.h, z14.h
        ".inst 0x81af00e3\n"  // fmopa za3.s, p0/m, p0/m, z7.h, z15.h
        ".inst 0xa421e264\n"  // ld2b {z4.b, z5.b}, p0/z, [x19, #2, mul vl]
        ".inst 0xa0414a26\n"  // ld1w {z6.s-z7.s}, pn10/z, [x17, #2, mul vl]
        ".inst 0xc08a9088\n"  // luti4 {z8.h-z11.h}, zt0, z4[0]
        ".inst 0xc08a90ac\n"  // luti4 {z12.h-z15.h}, zt0, z5[0]
        ".inst 0x65580908\n"  // fmul z8.h, z8.h, z24.h
        ".inst 0x65590929\n"  // fmul z9.h, z9.h, z25.h
        ".inst 0x655a094a\n"  // fmul z10.h, z10.h, z26.h
        ".inst 0x655b096b\n"  // fmul z11.h, z11.h, z27.h
        ".inst 0x81a800c0\n"  // fmopa za0.s, p0/m, p0/m, z6.h, z8.h
        ".inst 0x81a900c1\n"  // fmopa za1.s, p0/m, p0/m, z6.h, z9.h
        ".inst 0x81aa00c2\n"  // fmopa za2.s, p0/m, p0/m, z6.h, z10.h
        ".inst 0x81ab00c3\n"  // fmopa za3.s, p0/m, p0/m, z6.h, z11.h
        ".inst 0x6558098c\n"  // fmul z12.h, z12.h, z24.h
        ".inst 0x655909ad\n"  // fmul z13.h, z13.h, z25.h
        ".inst 0x655a09ce\n"  // fmul z14.h, z14.h, z26.h
        ".inst 0x655b09ef\n"  // fmul z15.h, z15.h, z27.h
        ".inst 0x81ac00e0\n"  // fmopa za0.s, p0/m, p0/m, z7.h, z12.h
        ".inst 0x81ad00e1\n"  // fmopa za1.s, p0/m, p0/m, z7.h, z13.h
        ".inst 0x81ae00e2\n"  // fmopa za2.s, p0/m, p0/m, z7.h, z14.h
        ".inst 0x81af00e3\n"  // fmopa za3.s, p0/m, p0/m, z7.h, z15.h
        ".inst 0xa422e264\n"  // ld2b {z4.b, z5.b}, p0/z, [x19, #4, mul vl]
        ".inst 0xa0424a26\n"  // ld1w {z6.s-z7.s}, pn10/z, [x17, #4, mul vl]
        ".inst 0xc08a9088\n"  // luti4 {z8.h-z11.h}, zt0, z4[0]
        ".inst 0xc08a90ac\n"  // luti4 {z12.h-z15.h}, zt0, z5[0]
        ".inst 0x65580908\n"  // fmul z8.h, z8.h, z24.h
        ".inst 0x65590929\n"  // fmul z9.h, z9.h, z25.h
        ".inst 0x655a094a\n"  // fmul z10.h, z10.h, z26.h
        ".inst 0x655b096b\n"  // fmul z11.h, z11.h, z27.h
        ".inst 0x81a800c0\n"  // fmopa za0.s, p0/m, p0/m, z6.h, z8.h
        ".inst 0x81a900c1\n"  // fmopa za1.s, p0/m, p0/m, z6.h, z9.h
        ".inst 0x81aa00c2\n"  // fmopa za2.s, p0/m, p0/m, z6.h, z10.h
        ".inst 0x81ab00c3\n"  // fmopa za3.s, p0/m, p0/m, z6.h, z11.h
        ".inst 0x6558098c\n"  // fmul z12.h, z12.h, z24.h
        ".inst 0x655909ad\n"  // fmul z13.h, z13.h, z25.h
        ".inst 0x655a09ce\n"  // fmul z14.h, z14.h, z26.h
        ".inst 0x655b09ef\n"  // fmul z15.h, z15.h, z27.h
        ".inst 0x81ac00e0\n"  // fmopa za0.s, p0/m, p0/m, z7.h, z12.h
        ".inst 0x81ad00e1\n"  // fmopa za1.s, p0/m, p0/m, z7.h, z13.h
        ".inst 0x81ae00e2\n"  // fmopa za2.s, p0/m, p0/m, z7.h, z14.h
        ".inst 0x81af00e3\n"  // fmopa za3.s, p0/m, p0/m, z7.h, z15.h
        ".inst 0xa423e264\n"  // ld2b {z4.b, z5.b}, p0/z, [x19, #6, mul vl]
        ".inst 0xa0434a26\n"  // ld1w {z6.s-z7.s}, pn10/z, [x17, #6, mul vl]
        ".inst 0xc08a9088\n"  // luti4 {z8.h-z11.h}, zt0, z4[0]
        ".inst 0xc08a90ac\n"  // luti4 {z12.h-z15.h}, zt0, z5[0]
        ".inst 0x65580908\n"  // fmul z8.h, z8.h, z24.h
        ".inst 0x65590929\n"  // fmul z9.h, z9.h, z25.h
        ".inst 0x655a094a\n"  // fmul z10.h, z10.h, z26.h
        ".inst 0x655b096b\n"  // fmul z11.h, z11.h, z27.h
        ".inst 0x81a800c0\n"  // fmopa za0.s, p0/m, p0/m, z6.h, z8.h
        ".inst 0x81a900c1\n"  // fmopa za1.s, p0/m, p0/m, z6.h, z9.h
        ".inst 0x81aa00c2\n"  // fmopa za2.s, p0/m, p0/m, z6.h, z10.h
        ".inst 0x81ab00c3\n"  // fmopa za3.s, p0/m, p0/m, z6.h, z11.h
        ".inst 0x6558098c\n"  // fmul z12.h, z12.h, z24.h
        ".inst 0x655909ad\n"  // fmul z13.h, z13.h, z25.h
        ".inst 0x655a09ce\n"  // fmul z14.h, z14.h, z26.h
        ".inst 0x655b09ef\n"  // fmul z15.h, z15.h, z27.h
        ".inst 0x81ac00e0\n"  // fmopa za0.s, p0/m, p0/m, z7.h, z12.h
        ".inst 0x81ad00e1\n"  // fmopa za1.s, p0/m, p0/m, z7.h, z13.h
        ".inst 0x81ae00e2\n"  // fmopa za2.s, p0/m, p0/m, z7.h, z14.h
        ".inst 0x81af00e3\n"  // fmopa za3.s, p0/m, p0/m, z7.h, z15.h
        ".inst 0xa424e264\n"  // ld2b {z4.b, z5.b}, p0/z, [x19, #8, mul vl]
        ".inst 0xa0444a26\n"  // ld1w {z6.s-z7.s}, pn10/z, [x17, #8, mul vl]
        ".inst 0xc08a9088\n"  // luti4 {z8.h-z11.h}, zt0, z4[0]
        ".inst 0xc08a90ac\n"  // luti4 {z12.h-z15.h}, zt0, z5[0]
        ".inst 0x65580908\n"  // fmul z8.h, z8.h, z24.h
        ".inst 0x65590929\n"  // fmul z9.h, z9.h, z25.h
        ".inst 0x655a094a\n"  // fmul z10.h, z10.h, z26.h
        ".inst 0x655b096b\n"  // fmul z11.h, z11.h, z27.h
        ".inst 0x81a800c0\n"  // fmopa za0.s, p0/m, p0/m, z6.h, z8.h
        ".inst 0x81a900c1\n"  // fmopa za1.s, p0/m, p0/m, z6.h, z9.h
        ".inst 0x81aa00c2\n"  // fmopa za2.s, p0/m, p0/m, z6.h, z10.h
        ".inst 0x81ab00c3\n"  // fmopa za3.s, p0/m, p0/m, z6.h, z11.h
        ".inst 0x6558098c\n"  // fmul z12.h, z12.h, z24.h
        ".inst 0x655909ad\n"  // fmul z13.h, z13.h, z25.h
        ".inst 0x655a09ce\n"  // fmul z14.h, z14.h, z26.h
        ".inst 0x655b09ef\n"  // fmul z15.h, z15.h, z27.h
        ".inst 0x81ac00e0\n"  // fmopa za0.s, p0/m, p0/m, z7.h, z12.h
        ".inst 0x81ad00e1\n"  // fmopa za1.s, p0/m, p0/m, z7.h, z13.h
        ".inst 0x81ae00e2\n"  // fmopa za2.s, p0/m, p0/m, z7.h, z14.h
        ".inst 0x81af00e3\n"  // fmopa za3.s, p0/m, p0/m, z7.h, z15.h
        ".inst 0xa425e264\n"  // ld2b {z4.b, z5.b}, p0/z, [x19, #10, mul vl]
        ".inst 0xa0454a26\n"  // ld1w {z6.s-z7.s}, pn10/z, [x17, #10, mul vl]
        ".inst 0xc08a9088\n"  // luti4 {z8.h-z11.h}, zt0, z4[0]
        ".inst 0xc08a90ac\n"  // luti4 {z12.h-z15.h}, zt0, z5[0]
        ".inst 0x65580908\n"  // fmul z8.h, z8.h, z24.h
        ".inst 0x65590929\n"  // fmul z9.h, z9.h, z25.h
        ".inst 0x655a094a\n"  // fmul z10.h, z10.h, z26.h
        ".inst 0x655b096b\n"  // fmul z11.h, z11.h, z27.h
        ".inst 0x81a800c0\n"  // fmopa za0.s, p0/m, p0/m, z6.h, z8.h
        ".inst 0x81a900c1\n"  // fmopa za1.s, p0/m, p0/m, z6.h, z9.h
        ".inst 0x81aa00c2\n"  // fmopa za2.s, p0/m, p0/m, z6.h, z10.h
        ".inst 0x81ab00c3\n"  // fmopa za3.s, p0/m, p0/m, z6.h, z11.h
        ".inst 0x6558098c\n"  // fmul z12.h, z12.h, z24.h
        ".inst 0x655909ad\n"  // fmul z13.h, z13.h, z25.h
        ".inst 0x655a09ce\n"  // fmul z14.h, z14.h, z26.h
        ".inst 0x655b09ef\n"  // fmul z15.h, z15.h, z27.h
        ".inst 0x81ac00e0\n"  // fmopa za0.s, p0/m, p0/m, z7.h, z12.h
        ".inst 0x81ad00e1\n"  // fmopa za1.s, p0/m, p0/m, z7.h, z13.h
        ".inst 0x81ae00e2\n"  // fmopa za2.s, p0/m, p0/m, z7.h, z14.h
        ".inst 0x81af00e3\n"  // fmopa za3.s, p0/m, p0/m, z7.h, z15.h
        ".inst 0xa426e264\n"  // ld2b {z4.b, z5.b}, p0/z, [x19, #12, mul vl]
        ".inst 0xa0464a26\n"  // ld1w {z6.s-z7.s}, pn10/z, [x17, #12, mul vl]
        ".inst 0xc08a9088\n"  // luti4 {z8.h-z11.h}, zt0, z4[0]
        ".inst 0xc08a90ac\n"  // luti4 {z12.h-z15.h}, zt0, z5[0]
        ".inst 0x65580908\n"  // fmul z8.h, z8.h, z24.h
        ".inst 0x65590929\n"  // fmul z9.h, z9.h, z25.h
        ".inst 0x655a094a\n"  // fmul z10.h, z10.h, z26.h
        ".inst 0x655b096b\n"  // fmul z11.h, z11.h, z27.h
        ".inst 0x81a800c0\n"  // fmopa za0.s, p0/m, p0/m, z6.h, z8.h
        ".inst 0x81a900c1\n"  // fmopa za1.s, p0/m, p0/m, z6.h, z9.h
        ".inst 0x81aa00c2\n"  // fmopa za2.s, p0/m, p0/m, z6.h, z10.h
        ".inst 0x81ab00c3\n"  // fmopa za3.s, p0/m, p0/m, z6.h, z11.h
        ".inst 0x6558098c\n"  // fmul z12.h, z12.h, z24.h
        ".inst 0x655909ad\n"  // fmul z13.h, z13.h, z25.h
        ".inst 0x655a09ce\n"  // fmul z14.h, z14.h, z26.h
        ".inst 0x655b09ef\n"  // fmul z15.h, z15.h, z27.h
        ".inst 0x81ac00e0\n"  // fmopa za0.s, p0/m, p0/m, z7.h, z12.h
        ".inst 0x81ad00e1\n"  // fmopa za1.s, p0/m, p0/m, z7.h, z13.h
        ".inst 0x81ae00e2\n"  // fmopa za2.s, p0/m, p0/m, z7.h, z14.h
        ".inst 0x81af00e3\n"  // fmopa za3.s, p0/m, p0/m, z7.h, z15.h
        ".inst 0xa427e264\n"  // ld2b {z4.b, z5.b}, p0/z, [x19, #14, mul vl]
        ".inst 0xa0474a26\n"  // ld1w {z6.s-z7.s}, pn10/z, [x17, #14, mul vl]
        ".inst 0xc08a9088\n"  // luti4 {z8.h-z11.h}, zt0, z4[0]
        ".inst 0xc08a90ac\n"  // luti4 {z12.h-z15.h}, zt0, z5[0]
        ".inst 0x65580908\n"  // fmul z8.h, z8.h, z24.h
        ".inst 0x65590929\n"  // fmul z9.h, z9.h, z25.h
        ".inst 0x655a094a\n"  // fmul z10.h, z10.h, z26.h
        ".inst 0x655b096b\n"  // fmul z11.h, z11.h, z27.h
        ".inst 0x81a800c0\n"  // fmopa za0.s, p0/m, p0/m, z6.h, z8.h
        ".inst 0x81a900c1\n"  // fmopa za1.s, p0/m, p0/m, z6.h, z9.h
        ".inst 0x81aa00c2\n"  // fmopa za2.s, p0/m, p0/m, z6.h, z10.h
        ".inst 0x81ab00c3\n"  // fmopa za3.s, p0/m, p0/m, z6.h, z11.h
        ".inst 0x6558098c\n"  // fmul z12.h, z12.h, z24.h
        ".inst 0x655909ad\n"  // fmul z13.h, z13.h, z25.h
        ".inst 0x655a09ce\n"  // fmul z14.h, z14.h, z26.h
        ".inst 0x655b09ef\n"  // fmul z15.h, z15.h, z27.h
        ".inst 0x81ac00e0\n"  // fmopa za0.s, p0/m, p0/m, z7.h, z12.h
        ".inst 0x81ad00e1\n"  // fmopa za1.s, p0/m, p0/m, z7.h, z13.h
        ".inst 0x81ae00e2\n"  // fmopa za2.s, p0/m, p0/m, z7.h, z14.h
        ".inst 0x81af00e3\n"  // fmopa za3.s, p0/m, p0/m, z7.h, z15.h
        ".inst 0x04335213\n"  // addvl x19, x19, #16
        ".inst 0x04315211\n"  // addvl x17, x17, #16
        "subs x22, x22, #1\n"
        "b.ne 4b\n"
        "subs x21, x21, #1\n"
        "b.ne 3b\n"
        // Store the tile's rows: row r is ZA array vectors 4r .. 4r + 3.
        "cmp x15, x24\n"
        "csel x23, x15, x24, lo\n"
        "mov w12, #0\n"
        "5:\n"
        ".inst 0xc0060400\n"  // mova {z0.b-z3.b}, za0h.b[w12, 0:3]
        ".inst 0xc1bdcb80\n"  // fclamp {z0.s-z3.s}, z28.s, z29.s
        ".inst 0xa060c600\n"  // st1w {z0.s-z3.s}, pn9, [x16]
        "add x16, x16, x13\n"
        "add w12, w12, #4\n"
        "subs x23, x23, #1\n"
        "b.ne 5b\n"
        "add x14, x14, x10\n"
        "subs x15, x15, x24\n"
        "b.hi 2b\n"
        "add x2, x2, x11\n"
        ".inst 0x04235083\n"  // addvl x3, x3, #4
        ".inst 0x0430e3e4\n"  // incb x4
        ".inst 0x25a56491\n"  // whilelt pn9.s, x4, x5, vlx4
        "b.mi 1b\n"  // b.first 1b
        ".inst 0xd503467f\n"  // smstop
        :
        : "r"(a)
        : "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17",
          "x19", "x20", "x21", "x22", "x23", "x24", "z0", "z1", "z2", "z3", "z4", "z5", "z6", "z7", "z8", "z9", "z10",
          "z11", "z12", "z13", "z14", "z15", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "z16", "z17", "z18", "z19", "z20", "z21", "z22", "z23", "z24", "z25",
          "z26", "z27", "z28", "z29", "z30", "z31", "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10",
          "p11", "p12", "p13", "p14", "p15", "cc", "memory");
}
