//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__)
#error "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot needs AArch64"
#endif

// dst[i][j] = FCLAMP(acc, scalar_min, scalar_max) = minNum(maxNum(acc, scalar_min), scalar_max) (KleidiAI's clamp: equal
// to the NEON kernels' FMAX / FMIN except that a NaN acc gives the bound), acc = +0 then for each block b of bl values:
//   acc = fmaf(f32(I), f32(a[i][b]) * f32(d[j][b]), acc),  I = sum_{k in b} q[i][k] * (u[j][k] - 8)
// with q the int8 LHS, a its f16 scale, u the unsigned RHS nibble, d its f16 scale (docs/formats.md, "qsi8d32p matmul" and "SME matmul recipes"; the
// products a * d of two f16 are exact in f32, and I is exact in f32 for bl <= 2^16).
// Packed LHS (docs/formats.md, "Q4_0 layouts of the SME kernels", mr = 1): the k int8 of the row, then its k / bl f16 scales. Packed RHS (docs/formats.md, "Q4_0 layouts of the SME kernels",
// nr = 4VL, VL = SVL / 32): per nr-column block, for each block b and group g of 4 k values, nr 16-bit units (unit
// of lane i: k = 4g, 4g+1 in the low byte's low / high nibble, 4g+2, 4g+3 in the high byte), then all f16 scales
// (lane i, block b at (b * nr + i) * 2 after the data).
// One tile is 1 x 4VL columns. The units of group g are 4VL halfwords = two vectors; LUTI4 (two registers) turns
// one vector of units, i.e. 2VL lanes x 4 nibbles, into two vectors of int8 u - 8 in which each 32-bit lane holds
// the 4 k values of one column (table: ZT0 words -8 .. 7), so four LUTI4 results are the 4VL columns of one group in
// order and one ZA-array SDOT (vgx4, indexed by the group's 4 LHS bytes in every 128-bit segment) accumulates them
// into the int32 accumulators, ZA vector group 0 (tile za0.s). Per block: the group is read out, converted (SCVTF,
// exact), and multiplied with the 4VL products a * d by one ZA-array FMLA into the f32 accumulators (group 1,
// tile za1.s): a fused multiply-add per element, as the NEON kernels' FMLA. The products come from one widening
// FMLAL of the zipped scales by a into ZA groups 2 / 3 (tiles za2.s / za3.s, zeroed with za0.s): zipping the two
// scale vectors puts columns 0..VL-1 / 2VL..3VL-1 in the even / odd halfwords of the first result and VL..2VL-1 /
// 3VL..4VL-1 in the second, which the widening FMLAL sends to ZA group 2 / 3, vectors 0 / 1. Columns past n: the
// padded lanes of the last block are computed and dropped (masked stores). One inline-assembly streaming section per
// row: no SME ABI routines are needed.

#include "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"

#include "kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_interface.h"

// The streaming body is one assembly string longer than the 4095 characters C99 guarantees; GCC and clang accept it
// (the pragma below).
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif

static const size_t kai_m_step = 1;
static const size_t kai_mr = 1;
static const size_t kai_kr = 4;
static const size_t kai_sr = 2;

// LUTI4 table: nibble u -> u - 8 (the low byte of each 32-bit ZT0 entry).
static const int32_t kai_lut[16] = {-8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7};

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

size_t kai_get_m_step_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot(void) {
    return 4 * kai_vl();
}

size_t kai_get_mr_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot(void) {
    return 4 * kai_vl();
}

size_t kai_get_kr_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot(size_t m_idx, size_t k, size_t bl) {
    check_block(k, bl);
    return kai_mul_size_checked(m_idx, kai_mul_size_checked(k / bl, bl + 2));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot(size_t n_idx, size_t k, size_t bl) {
    check_block(k, bl);
    const size_t nr = 4 * kai_vl();
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx / nr, kai_mul_size_checked(nr * (k / bl), bl / 2 + 2));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot(
    size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(n_idx % (4 * kai_vl()) == 0, "n_idx must be a multiple of n_step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// Arguments of the assembly body, read with ldp from x0 (offsets in the comments).
struct kai_args {
    const void* lhs;        // 0: the row's int8 values
    const void* lhs_scale;  // 8: the row's f16 block scales
    const void* rhs;        // 16: packed RHS, first block
    float* dst;             // 24
    uint64_t n;             // 32
    uint64_t nb;            // 40: blocks per row, k / bl
    uint64_t chunks;        // 48: 32-value chunks per block, bl / 32
    uint64_t rhs_stride;    // 56: bytes per nr-column block
    uint64_t scale_off;     // 64: offset of the scales in a block, nr * k / 2
    const int32_t* lut;     // 72
    uint32_t min_bits;      // 80
    uint32_t max_bits;      // 84
};

void kai_run_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot(
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

    const size_t nr = 4 * kai_vl();
    const size_t nb = k / bl;
    const size_t row_bytes = kai_mul_size_checked(nb, bl + 2);

    struct kai_args args;
    args.rhs = rhs_packed;
    args.n = n;
    args.nb = nb;
    args.chunks = bl / 32;
    args.rhs_stride = kai_mul_size_checked(nr * nb, bl / 2 + 2);
    args.scale_off = kai_mul_size_checked(nr, k / 2);
    args.lut = kai_lut;
    memcpy(&args.min_bits, &scalar_min, sizeof(float));
    memcpy(&args.max_bits, &scalar_max, sizeof(float));

    kai_commit_za();

    for (size_t i = 0; i < m; ++i) {
        const uint8_t* row = (const uint8_t*)lhs_packed + i * row_bytes;
        args.lhs = row;
        args.lhs_scale = row + k;
        args.dst = (float*)(void*)((uint8_t*)dst + i * dst_stride_row);

        // Register map: x1 LHS values, x2 LHS scales, x3 RHS block (tile), x4 first column of the tile, x5 DST,
        // x6 n, x7 nb, x9 chunks per block, x10 RHS block bytes, x11 scale offset, x13 LHS pointer, x14 LHS scale
        // pointer, x15 RHS data pointer, x16 RHS scale pointer, x17 block counter, x12 chunk counter, w8 = 0 (ZA
        // vector select). z0 / z1: LHS bytes 0-15 / 16-31 of a chunk in every 128-bit segment; z12-z19 RHS units;
        // z4-z11, z20-z27 int8 weights; z28 / z29 clamp bounds.
        register const struct kai_args* a __asm__("x0") = &args;
        __asm__ volatile(
            "ldp x1, x2, [x0, #0]\n"
            "ldp x3, x5, [x0, #16]\n"
            "ldp x6, x7, [x0, #32]\n"
            "ldp x9, x10, [x0, #48]\n"
            "ldp x11, x12, [x0, #64]\n"
            ".inst 0xd503477f\n"  // smstart
            ".inst 0x2518e3e0\n"  // ptrue p0.b
            ".inst 0x25607810\n"  // ptrue pn8.h
            ".inst 0xe11f8180\n"  // ldr zt0, [x12]
            ".inst 0x8554c01c\n"  // ld1rw {z28.s}, p0/z, [x0, #80]
            ".inst 0x8555c01d\n"  // ld1rw {z29.s}, p0/z, [x0, #84]
            "mov w8, #0\n"
            "mov x4, #0\n"
            ".inst 0x25a66491\n"  // whilelt pn9.s, x4, x6, vlx4
            "1:\n"  // column tiles of 4VL
            ".inst 0xc0080022\n"  // zero {za1.s}
            "mov x13, x1\n"
            "mov x14, x2\n"
            "mov x15, x3\n"
            "add x16, x3, x11\n"
            "mov x17, x7\n"
            "2:\n"  // blocks
            ".inst 0xc00800dd\n"  // zero {za0.s, za2.s, za3.s}
            "mov x12, x9\n"
            "3:\n"  // 32 values of the block
            ".inst 0xa40021a0\n"  // ld1rqb {z0.b}, p0/z, [x13]
            ".inst 0xa40121a1\n"  // ld1rqb {z1.b}, p0/z, [x13, #16]
            "add x13, x13, #32\n"
            ".inst 0xa040a1ec\n"  // ld1h {z12.h-z15.h}, pn8/z, [x15]
            ".inst 0xc08a4184\n"  // luti4 {z4.b-z5.b}, zt0, z12[0]
            ".inst 0xc08a41a6\n"  // luti4 {z6.b-z7.b}, zt0, z13[0]
            ".inst 0xc08a41c8\n"  // luti4 {z8.b-z9.b}, zt0, z14[0]
            ".inst 0xc08a41ea\n"  // luti4 {z10.b-z11.b}, zt0, z15[0]
            ".inst 0xa041a1f0\n"  // ld1h {z16.h-z19.h}, pn8/z, [x15, #4, mul vl]
            ".inst 0xc15090a0\n"  // sdot za.s[w8, 0, vgx4], {z4.b-z7.b}, z0.b[0]
            ".inst 0xc1509520\n"  // sdot za.s[w8, 0, vgx4], {z8.b-z11.b}, z0.b[1]
            ".inst 0xc08a4214\n"  // luti4 {z20.b-z21.b}, zt0, z16[0]
            ".inst 0xc08a4236\n"  // luti4 {z22.b-z23.b}, zt0, z17[0]
            ".inst 0xc08a4258\n"  // luti4 {z24.b-z25.b}, zt0, z18[0]
            ".inst 0xc08a427a\n"  // luti4 {z26.b-z27.b}, zt0, z19[0]
            ".inst 0xa042a1ec\n"  // ld1h {z12.h-z15.h}, pn8/z, [x15, #8, mul vl]
            ".inst 0xc1509aa0\n"  // sdot za.s[w8, 0, vgx4], {z20.b-z23.b}, z0.b[2]
            ".inst 0xc1509f20\n"  // sdot za.s[w8, 0, vgx4], {z24.b-z27.b}, z0.b[3]
            ".inst 0xc08a4184\n"  // luti4 {z4.b-z5.b}, zt0, z12[0]
            ".inst 0xc08a41a6\n"  // luti4 {z6.b-z7.b}, zt0, z13[0]
            ".inst 0xc08a41c8\n"  // luti4 {z8.b-z9.b}, zt0, z14[0]
            ".inst 0xc08a41ea\n"  // luti4 {z10.b-z11.b}, zt0, z15[0]
            ".inst 0xa043a1f0\n"  // ld1h {z16.h-z19.h}, pn8/z, [x15, #12, mul vl]
            ".inst 0xc15190a0\n"  // sdot za.s[w8, 0, vgx4], {z4.b-z7.b}, z1.b[0]
            ".inst 0xc1519520\n"  // sdot za.s[w8, 0, vgx4], {z8.b-z11.b}, z1.b[1]
            ".inst 0xc08a4214\n"  // luti4 {z20.b-z21.b}, zt0, z16[0]
            ".inst 0xc08a4236\n"  // luti4 {z22.b-z23.b}, zt0, z17[0]
            ".inst 0xc08a4258\n"  // luti4 {z24.b-z25.b}, zt0, z18[0]
            ".inst 0xc08a427a\n"  // luti4 {z26.b-z27.b}, zt0, z19[0]
            ".inst 0x042f520f\n"  // addvl x15, x15, #16
            ".inst 0xc1519aa0\n"  // sdot za.s[w8, 0, vgx4], {z20.b-z23.b}, z1.b[2]
            ".inst 0xc1519f20\n"  // sdot za.s[w8, 0, vgx4], {z24.b-z27.b}, z1.b[3]
            "subs x12, x12, #1\n"
            "b.ne 3b\n"
            // End of block: products a * d into ZA groups 2 / 3, then f32 acc += f32(I) * (a * d).
            ".inst 0x84c0a1c2\n"  // ld1rh {z2.h}, p0/z, [x14]
            "add x14, x14, #2\n"
            ".inst 0xa0402208\n"  // ld1h {z8.h-z9.h}, pn8/z, [x16]
            ".inst 0x04305050\n"  // addvl x16, x16, #2
            ".inst 0xc169d10a\n"  // zip {z10.h-z11.h}, z8.h, z9.h
            ".inst 0xc1220941\n"  // fmlal za.s[w8, 2:3, vgx2], {z10.h-z11.h}, z2.h
            ".inst 0xc0060c04\n"  // mova {z4.d-z7.d}, za.d[w8, 0, vgx4]
            ".inst 0xc132e084\n"  // scvtf {z4.s-z7.s}, {z4.s-z7.s}
            ".inst 0xc006084c\n"  // mova {z12.d-z13.d}, za.d[w8, 2, vgx2]
            ".inst 0xc006086e\n"  // mova {z14.d-z15.d}, za.d[w8, 3, vgx2]
            ".inst 0xc1ad1881\n"  // fmla za.s[w8, 1, vgx4], {z4.s-z7.s}, {z12.s-z15.s}
            "subs x17, x17, #1\n"
            "b.ne 2b\n"
            // Clamp and store the tile.
            ".inst 0xc0060c24\n"  // mova {z4.d-z7.d}, za.d[w8, 1, vgx4]
            ".inst 0xc1bdcb84\n"  // fclamp {z4.s-z7.s}, z28.s, z29.s  // min(max(acc, lo), hi) of numbers: a NaN gives the bound
            ".inst 0xa060c4a4\n"  // st1w {z4.s-z7.s}, pn9, [x5]
            ".inst 0x04255085\n"  // addvl x5, x5, #4
            "add x3, x3, x10\n"
            ".inst 0x0430e3e4\n"  // incb x4
            ".inst 0x25a66491\n"  // whilelt pn9.s, x4, x6, vlx4
            "b.mi 1b\n"  // b.first 1b
            ".inst 0xd503467f\n"  // smstop
            :
            : "r"(a)
            : "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16",
              "x17", "z0", "z1", "z2", "z3", "z4", "z5", "z6", "z7", "z8", "z9", "z10", "z11", "z12", "z13", "z14",
              "z15", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "z16", "z17", "z18", "z19", "z20", "z21", "z22", "z23", "z24", "z25", "z26", "z27", "z28", "z29",
              "z30", "z31", "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13",
              "p14", "p15", "cc", "memory");
    }
}
