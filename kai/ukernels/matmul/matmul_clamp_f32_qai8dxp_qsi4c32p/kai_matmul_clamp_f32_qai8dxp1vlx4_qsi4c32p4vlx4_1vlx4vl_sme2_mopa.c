//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// dst[i][j] = clamp((acc + off_i * sum_j) * ls_i + b_j, min, max), acc the f32 running sum over the quantisation blocks
// b of d_(j,b) * f32(I_b), I_b = sum over k in b of q[i][k] * w[j][k] in int32 (docs/formats.md, "qsi4c32p SME2
// matmul": the first block's product rounded, later blocks fused (FMLA), the offset term fused, the LHS scale and the
// bias rounded, FCLAMP). VL = SVL / 32 int32 lanes of a streaming vector, VLb = SVL / 8 bytes.
//
// Packed LHS (kai_lhs_quant_pack_qai8dxp_f32, mr = VL, kr = 8, sr = 2, so groups of 4 K values): per group one
// vector [r0 k0-3, r1 k0-3, ...]; after the data VL int32 offsets (-ZP), then VL f32 scales. Packed RHS
// (docs/formats.md, "qsi4c32ps1s0nrx4 RHS": kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon or its kxn twin, nr =
// VLb = 4VL, kr = 8, sr = 2): per quantisation block the groups in order, each two vectors holding two bytes per
// column [c0 (k0 | k1 << 4) (k2 | k3 << 4), c1 ...], then nr bf16 scales; after the blocks nr f32 row sums and nr
// f32 biases. K is a multiple of bl and bl of 32, so no K padding.
//
// Tile VL x 4VL in the four 32-bit ZA tiles (za_c = columns cVL .. cVL + VL - 1). Per block: ZA zeroed, eight groups
// per iteration (each packed vector made into two int8 vectors: LSL #4 then ASR #4 gives the low nibbles, ASR #4 the
// high ones, one two-register ZIP puts them back in K order), 32 SMOPA; then per row the four tile slices (the byte
// tile's slices 4r .. 4r + 3 are row r of za0..za3), SCVTF, times the block's scales (FMUL on the first block, FMLA
// onto the running sum the destination row holds afterwards). Epilogue per row: the offset term by FMLA, FMUL by the
// row's scale, FADD of the bias, FCLAMP, store. The destination is written once per block (KleidiAI's scheme), so a
// row of dst must not alias the inputs. The whole call is one streaming-mode section (docs/matmul_sme.md).

#if !defined(__aarch64__)
#error "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa needs AArch64"
#endif

#include "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"
#include "kai_matmul_clamp_f32_qai8dxp_qsi4c32p_interface.h"

// The streaming body is one assembly string longer than the 4095 characters C99 guarantees.
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif

static const size_t kai_kr = 8;
static const size_t kai_sr = 2;
static const size_t kai_bl_unit = 32;  // bl and K are multiples of it

// Bytes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_svl_bytes(void) {
    register uint64_t svl_bytes __asm__("x0");
    __asm__ volatile(
        ".inst 0x04bf5820\n"  // rdsvl x0, #1
        : "=r"(svl_bytes));
    return (size_t)svl_bytes;
}

static size_t kai_mr(void) {
    return kai_svl_bytes() / 4;
}

static size_t kai_nr(void) {
    return kai_svl_bytes();
}

static size_t kai_lhs_block_stride(size_t k, size_t mr) {
    return kai_mul_size_checked(mr, kai_add_size_checked(kai_roundup(k, kai_bl_unit), 8));
}

// nr * (nb * (bl / 2 + 2) + 8): per block the nibbles and a bf16 scale per column, then sums and biases.
static size_t kai_rhs_block_stride(size_t k, size_t bl, size_t nr) {
    const size_t nb = k / bl;
    return kai_mul_size_checked(nr, kai_add_size_checked(kai_mul_size_checked(nb, bl / 2 + 2), 8));
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

size_t kai_get_m_step_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(void) {
    return kai_mr();
}

size_t kai_get_n_step_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(void) {
    return kai_nr();
}

size_t kai_get_mr_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(void) {
    return kai_mr();
}

size_t kai_get_nr_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(void) {
    return kai_nr();
}

size_t kai_get_kr_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(size_t m_idx, size_t k) {
    const size_t mr = kai_mr();
    KAI_ASSUME_MSG(m_idx % mr == 0, "m_idx must be a multiple of mr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(m_idx / mr, kai_lhs_block_stride(k, mr));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(size_t n_idx, size_t k, size_t bl) {
    const size_t nr = kai_nr();
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    KAI_ASSUME_ALWAYS_MSG(bl >= kai_bl_unit && bl % kai_bl_unit == 0, "bl must be a positive multiple of 32");
    KAI_ASSUME_ALWAYS_MSG(k >= 1 && k % bl == 0, "k must be a positive multiple of bl");
    return kai_mul_size_checked(n_idx / nr, kai_rhs_block_stride(k, bl, nr));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_mr() == 0, "m_idx must be a multiple of m_step");
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of n_step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// Arguments of the assembly body, read with ldp from x0 (offsets in the comments).
struct kai_args {
    const void* lhs;        // 0: packed LHS block of the first row block
    const void* rhs;        // 8: packed RHS block of the first column block
    void* dst;              // 16
    uint64_t m;             // 24
    uint64_t n;             // 32
    uint64_t blocks;        // 40: K / bl
    uint64_t dst_stride;    // 48
    uint64_t lhs_block;     // 56: bytes per LHS block, mr * (K + 8)
    uint64_t rhs_block;     // 64: bytes per RHS block, nr * (nb * (bl / 2 + 2) + 8)
    uint64_t bl_iters;      // 72: bl / 32
    uint32_t min_bits;      // 80
    uint32_t max_bits;      // 84
};

void kai_run_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa(
    size_t m, size_t n, size_t k, size_t bl, const void* lhs_packed, const void* rhs_packed, float* dst,
    size_t dst_stride_row, size_t dst_stride_col, float scalar_min, float scalar_max) {
    KAI_ASSUME_ALWAYS_MSG(dst_stride_col == sizeof(float), "dst_stride_col must be sizeof(float)");
    KAI_ASSUME_ALWAYS_MSG(bl >= kai_bl_unit && bl % kai_bl_unit == 0, "bl must be a positive multiple of 32");
    KAI_ASSUME_ALWAYS_MSG(k >= 1 && k % bl == 0, "k must be a positive multiple of bl");
    if (m == 0 || n == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");
    KAI_ASSUME_MSG(
        m == 1 || dst_stride_row / dst_stride_col >= n, "dst_stride_row must be at least n * dst_stride_col if m > 1");

    const size_t mr = kai_mr();
    const size_t nr = kai_nr();
    struct kai_args args;
    args.lhs = lhs_packed;
    args.rhs = rhs_packed;
    args.dst = dst;
    args.m = m;
    args.n = n;
    args.blocks = k / bl;
    args.dst_stride = dst_stride_row;
    args.lhs_block = kai_lhs_block_stride(k, mr);
    args.rhs_block = kai_rhs_block_stride(k, bl, nr);
    args.bl_iters = bl / kai_bl_unit;
    memcpy(&args.min_bits, &scalar_min, sizeof(float));
    memcpy(&args.max_bits, &scalar_max, sizeof(float));

    kai_commit_za();

    // Register map: x1 LHS block, x2 RHS block of column 0, x3 DST row block, x4 rows left, x5 n, x6 K / bl, x7
    // blocks left, x8 DST stride, x9 / x10 LHS / RHS block bytes, x12 LHS scales (epilogue), w12 ZA slice, x13 bl /
    // 32, x14 RHS block, x15 DST tile, x16 columns left, x17 / x19 LHS / RHS pointer, x20 K counter, x21 DST row,
    // x22 rows left in the tile, x23 rows of the tile, x24 mr (VL), x25 nr (VLb), x26 columns of the tile, x27 LHS
    // offsets, x28 zero.
    register const struct kai_args* a __asm__("x0") = &args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x4, [x0, #16]\n"
        "ldp x5, x6, [x0, #32]\n"
        "ldp x8, x9, [x0, #48]\n"
        "ldp x10, x13, [x0, #64]\n"
        ".inst 0xd503477f\n"  // smstart
        ".inst 0x2518e3e0\n"  // ptrue p0.b
        ".inst 0x25207810\n"  // ptrue pn8.b
        ".inst 0x25a07812\n"  // ptrue pn10.s
        ".inst 0x04a0e3f8\n"  // cntw x24
        ".inst 0x0420e3f9\n"  // cntb x25
        "mov x28, #0\n"
        "1:\n"  // row blocks
        "cmp x4, x24\n"
        "csel x23, x4, x24, lo\n"
        "mov x14, x2\n"
        "mov x15, x3\n"
        "mov x16, x5\n"
        "2:\n"  // column blocks
        "cmp x16, x25\n"
        "csel x26, x16, x25, lo\n"
        ".inst 0x25ba6791\n"  // whilelt pn9.s, x28, x26, vlx4
        "mov x17, x1\n"
        "mov x19, x14\n"
        "mov x7, x6\n"
        "6:\n"  // quantisation blocks
        ".inst 0xc00800ff\n"  // zero {za}
        "mov x20, x13\n"
        "3:\n"  // 8 groups (32 K) per iteration: 8 LHS vectors, 16 packed RHS vectors (two per group)
        ".inst 0xa0408220\n"  // ld1b {z0.b-z3.b}, pn8/z, [x17]
        ".inst 0xa0408278\n"  // ld1b {z24.b-z27.b}, pn8/z, [x19]
        ".inst 0xa0418230\n"  // ld1b {z16.b-z19.b}, pn8/z, [x17, #4, mul vl]
        ".inst 0x042c9f1c\n"  // lsl z28.b, z24.b, #4
        ".inst 0x042c939c\n"  // asr z28.b, z28.b, #4
        ".inst 0x042c931d\n"  // asr z29.b, z24.b, #4
        ".inst 0xc13dd384\n"  // zip {z4.b-z5.b}, z28.b, z29.b
        ".inst 0x042c9f3e\n"  // lsl z30.b, z25.b, #4
        ".inst 0x042c93de\n"  // asr z30.b, z30.b, #4
        ".inst 0x042c933f\n"  // asr z31.b, z25.b, #4
        ".inst 0xc13fd3c6\n"  // zip {z6.b-z7.b}, z30.b, z31.b
        ".inst 0x042c9f4c\n"  // lsl z12.b, z26.b, #4
        ".inst 0x042c918c\n"  // asr z12.b, z12.b, #4
        ".inst 0x042c934d\n"  // asr z13.b, z26.b, #4
        ".inst 0xc12dd188\n"  // zip {z8.b-z9.b}, z12.b, z13.b
        ".inst 0x042c9f6e\n"  // lsl z14.b, z27.b, #4
        ".inst 0x042c91ce\n"  // asr z14.b, z14.b, #4
        ".inst 0x042c936f\n"  // asr z15.b, z27.b, #4
        ".inst 0xc12fd1ca\n"  // zip {z10.b-z11.b}, z14.b, z15.b
        ".inst 0xa0418278\n"  // ld1b {z24.b-z27.b}, pn8/z, [x19, #4, mul vl]
        ".inst 0xa0840000\n"  // smopa za0.s, p0/m, p0/m, z0.b, z4.b
        ".inst 0xa0850001\n"  // smopa za1.s, p0/m, p0/m, z0.b, z5.b
        ".inst 0xa0860002\n"  // smopa za2.s, p0/m, p0/m, z0.b, z6.b
        ".inst 0xa0870003\n"  // smopa za3.s, p0/m, p0/m, z0.b, z7.b
        ".inst 0xa0880020\n"  // smopa za0.s, p0/m, p0/m, z1.b, z8.b
        ".inst 0xa0890021\n"  // smopa za1.s, p0/m, p0/m, z1.b, z9.b
        ".inst 0xa08a0022\n"  // smopa za2.s, p0/m, p0/m, z1.b, z10.b
        ".inst 0xa08b0023\n"  // smopa za3.s, p0/m, p0/m, z1.b, z11.b
        ".inst 0x042c9f1c\n"  // lsl z28.b, z24.b, #4
        ".inst 0x042c939c\n"  // asr z28.b, z28.b, #4
        ".inst 0x042c931d\n"  // asr z29.b, z24.b, #4
        ".inst 0xc13dd384\n"  // zip {z4.b-z5.b}, z28.b, z29.b
        ".inst 0x042c9f3e\n"  // lsl z30.b, z25.b, #4
        ".inst 0x042c93de\n"  // asr z30.b, z30.b, #4
        ".inst 0x042c933f\n"  // asr z31.b, z25.b, #4
        ".inst 0xc13fd3c6\n"  // zip {z6.b-z7.b}, z30.b, z31.b
        ".inst 0x042c9f4c\n"  // lsl z12.b, z26.b, #4
        ".inst 0x042c918c\n"  // asr z12.b, z12.b, #4
        ".inst 0x042c934d\n"  // asr z13.b, z26.b, #4
        ".inst 0xc12dd188\n"  // zip {z8.b-z9.b}, z12.b, z13.b
        ".inst 0x042c9f6e\n"  // lsl z14.b, z27.b, #4
        ".inst 0x042c91ce\n"  // asr z14.b, z14.b, #4
        ".inst 0x042c936f\n"  // asr z15.b, z27.b, #4
        ".inst 0xc12fd1ca\n"  // zip {z10.b-z11.b}, z14.b, z15.b
        ".inst 0xa0428278\n"  // ld1b {z24.b-z27.b}, pn8/z, [x19, #8, mul vl]
        ".inst 0xa0840040\n"  // smopa za0.s, p0/m, p0/m, z2.b, z4.b
        ".inst 0xa0850041\n"  // smopa za1.s, p0/m, p0/m, z2.b, z5.b
        ".inst 0xa0860042\n"  // smopa za2.s, p0/m, p0/m, z2.b, z6.b
        ".inst 0xa0870043\n"  // smopa za3.s, p0/m, p0/m, z2.b, z7.b
        ".inst 0xa0880060\n"  // smopa za0.s, p0/m, p0/m, z3.b, z8.b
        ".inst 0xa0890061\n"  // smopa za1.s, p0/m, p0/m, z3.b, z9.b
        ".inst 0xa08a0062\n"  // smopa za2.s, p0/m, p0/m, z3.b, z10.b
        ".inst 0xa08b0063\n"  // smopa za3.s, p0/m, p0/m, z3.b, z11.b
        ".inst 0x042c9f1c\n"  // lsl z28.b, z24.b, #4
        ".inst 0x042c939c\n"  // asr z28.b, z28.b, #4
        ".inst 0x042c931d\n"  // asr z29.b, z24.b, #4
        ".inst 0xc13dd384\n"  // zip {z4.b-z5.b}, z28.b, z29.b
        ".inst 0x042c9f3e\n"  // lsl z30.b, z25.b, #4
        ".inst 0x042c93de\n"  // asr z30.b, z30.b, #4
        ".inst 0x042c933f\n"  // asr z31.b, z25.b, #4
        ".inst 0xc13fd3c6\n"  // zip {z6.b-z7.b}, z30.b, z31.b
        ".inst 0x042c9f4c\n"  // lsl z12.b, z26.b, #4
        ".inst 0x042c918c\n"  // asr z12.b, z12.b, #4
        ".inst 0x042c934d\n"  // asr z13.b, z26.b, #4
        ".inst 0xc12dd188\n"  // zip {z8.b-z9.b}, z12.b, z13.b
        ".inst 0x042c9f6e\n"  // lsl z14.b, z27.b, #4
        ".inst 0x042c91ce\n"  // asr z14.b, z14.b, #4
        ".inst 0x042c936f\n"  // asr z15.b, z27.b, #4
        ".inst 0xc12fd1ca\n"  // zip {z10.b-z11.b}, z14.b, z15.b
        ".inst 0xa0438278\n"  // ld1b {z24.b-z27.b}, pn8/z, [x19, #12, mul vl]
        ".inst 0xa0840200\n"  // smopa za0.s, p0/m, p0/m, z16.b, z4.b
        ".inst 0xa0850201\n"  // smopa za1.s, p0/m, p0/m, z16.b, z5.b
        ".inst 0xa0860202\n"  // smopa za2.s, p0/m, p0/m, z16.b, z6.b
        ".inst 0xa0870203\n"  // smopa za3.s, p0/m, p0/m, z16.b, z7.b
        ".inst 0xa0880220\n"  // smopa za0.s, p0/m, p0/m, z17.b, z8.b
        ".inst 0xa0890221\n"  // smopa za1.s, p0/m, p0/m, z17.b, z9.b
        ".inst 0xa08a0222\n"  // smopa za2.s, p0/m, p0/m, z17.b, z10.b
        ".inst 0xa08b0223\n"  // smopa za3.s, p0/m, p0/m, z17.b, z11.b
        ".inst 0x042c9f1c\n"  // lsl z28.b, z24.b, #4
        ".inst 0x042c939c\n"  // asr z28.b, z28.b, #4
        ".inst 0x042c931d\n"  // asr z29.b, z24.b, #4
        ".inst 0xc13dd384\n"  // zip {z4.b-z5.b}, z28.b, z29.b
        ".inst 0x042c9f3e\n"  // lsl z30.b, z25.b, #4
        ".inst 0x042c93de\n"  // asr z30.b, z30.b, #4
        ".inst 0x042c933f\n"  // asr z31.b, z25.b, #4
        ".inst 0xc13fd3c6\n"  // zip {z6.b-z7.b}, z30.b, z31.b
        ".inst 0x042c9f4c\n"  // lsl z12.b, z26.b, #4
        ".inst 0x042c918c\n"  // asr z12.b, z12.b, #4
        ".inst 0x042c934d\n"  // asr z13.b, z26.b, #4
        ".inst 0xc12dd188\n"  // zip {z8.b-z9.b}, z12.b, z13.b
        ".inst 0x042c9f6e\n"  // lsl z14.b, z27.b, #4
        ".inst 0x042c91ce\n"  // asr z14.b, z14.b, #4
        ".inst 0x042c936f\n"  // asr z15.b, z27.b, #4
        ".inst 0xc12fd1ca\n"  // zip {z10.b-z11.b}, z14.b, z15.b
        ".inst 0xa0840240\n"  // smopa za0.s, p0/m, p0/m, z18.b, z4.b
        ".inst 0xa0850241\n"  // smopa za1.s, p0/m, p0/m, z18.b, z5.b
        ".inst 0xa0860242\n"  // smopa za2.s, p0/m, p0/m, z18.b, z6.b
        ".inst 0xa0870243\n"  // smopa za3.s, p0/m, p0/m, z18.b, z7.b
        ".inst 0xa0880260\n"  // smopa za0.s, p0/m, p0/m, z19.b, z8.b
        ".inst 0xa0890261\n"  // smopa za1.s, p0/m, p0/m, z19.b, z9.b
        ".inst 0xa08a0262\n"  // smopa za2.s, p0/m, p0/m, z19.b, z10.b
        ".inst 0xa08b0263\n"  // smopa za3.s, p0/m, p0/m, z19.b, z11.b
        ".inst 0x04315111\n"  // addvl x17, x17, #8
        ".inst 0x04335213\n"  // addvl x19, x19, #16
        "subs x20, x20, #1\n"
        "b.ne 3b\n"
        ".inst 0xa4c0a278\n"  // ld1h {z24.s}, p0/z, [x19]  // the block's nr bf16 scales, widened to f32 (<< 16)
        ".inst 0xa4c1a279\n"  // ld1h {z25.s}, p0/z, [x19, #1, mul vl]
        ".inst 0xa4c2a27a\n"  // ld1h {z26.s}, p0/z, [x19, #2, mul vl]
        ".inst 0xa4c3a27b\n"  // ld1h {z27.s}, p0/z, [x19, #3, mul vl]
        ".inst 0x04335053\n"  // addvl x19, x19, #2
        ".inst 0x04709f18\n"  // lsl z24.s, z24.s, #16
        ".inst 0x04709f39\n"  // lsl z25.s, z25.s, #16
        ".inst 0x04709f5a\n"  // lsl z26.s, z26.s, #16
        ".inst 0x04709f7b\n"  // lsl z27.s, z27.s, #16
        "mov x21, x15\n"
        "mov x22, x23\n"
        "mov w12, #0\n"
        "7:\n"  // one row per iteration: the row's four int32 tile slices (ZA vectors w12..w12+3)
        ".inst 0xc0060410\n"  // mova {z16.b-z19.b}, za0h.b[w12, 0:3]
        ".inst 0xc132e210\n"  // scvtf {z16.s-z19.s}, {z16.s-z19.s}
        "cmp x7, x6\n"
        "b.ne 8f\n"
        ".inst 0x65980a14\n"  // fmul z20.s, z16.s, z24.s
        ".inst 0x65990a35\n"  // fmul z21.s, z17.s, z25.s
        ".inst 0x659a0a56\n"  // fmul z22.s, z18.s, z26.s
        ".inst 0x659b0a77\n"  // fmul z23.s, z19.s, z27.s
        "b 9f\n"
        "8:\n"  // later blocks: acc = fmaf(F, d, acc) on the running sum kept in dst
        ".inst 0xa040c6b4\n"  // ld1w {z20.s-z23.s}, pn9/z, [x21]
        ".inst 0x65b80214\n"  // fmla z20.s, p0/m, z16.s, z24.s
        ".inst 0x65b90235\n"  // fmla z21.s, p0/m, z17.s, z25.s
        ".inst 0x65ba0256\n"  // fmla z22.s, p0/m, z18.s, z26.s
        ".inst 0x65bb0277\n"  // fmla z23.s, p0/m, z19.s, z27.s
        "9:\n"
        ".inst 0xa060c6b4\n"  // st1w {z20.s-z23.s}, pn9, [x21]
        "add x21, x21, x8\n"
        "add w12, w12, #4\n"
        "subs x22, x22, #1\n"
        "b.ne 7b\n"
        "subs x7, x7, #1\n"
        "b.ne 6b\n"
        ".inst 0xa040ca64\n"  // ld1w {z4.s-z7.s}, pn10/z, [x19]  // Epilogue: nr f32 row sums, nr f32 biases
        ".inst 0xa041ca68\n"  // ld1w {z8.s-z11.s}, pn10/z, [x19, #4, mul vl]
        "ldp w20, w21, [x0, #80]\n"
        ".inst 0x05a03a8c\n"  // dup z12.s, w20
        ".inst 0x05a03aad\n"  // dup z13.s, w21
        "mov x27, x17\n"  // x27: the LHS rows' offsets, x12 their scales (VLb bytes later)
        "add x12, x17, x25\n"
        "mov x21, x15\n"
        "mov x22, x23\n"
        "4:\n"
        ".inst 0x8540c36e\n"  // ld1rw {z14.s}, p0/z, [x27]
        ".inst 0x8540c18f\n"  // ld1rw {z15.s}, p0/z, [x12]
        ".inst 0x6594a1ce\n"  // scvtf z14.s, p0/m, z14.s
        ".inst 0xa040c6b0\n"  // ld1w {z16.s-z19.s}, pn9/z, [x21]
        ".inst 0x65a401d0\n"  // fmla z16.s, p0/m, z14.s, z4.s
        ".inst 0x65a501d1\n"  // fmla z17.s, p0/m, z14.s, z5.s
        ".inst 0x65a601d2\n"  // fmla z18.s, p0/m, z14.s, z6.s
        ".inst 0x65a701d3\n"  // fmla z19.s, p0/m, z14.s, z7.s
        ".inst 0x658f0a10\n"  // fmul z16.s, z16.s, z15.s
        ".inst 0x658f0a31\n"  // fmul z17.s, z17.s, z15.s
        ".inst 0x658f0a52\n"  // fmul z18.s, z18.s, z15.s
        ".inst 0x658f0a73\n"  // fmul z19.s, z19.s, z15.s
        ".inst 0x65880210\n"  // fadd z16.s, z16.s, z8.s
        ".inst 0x65890231\n"  // fadd z17.s, z17.s, z9.s
        ".inst 0x658a0252\n"  // fadd z18.s, z18.s, z10.s
        ".inst 0x658b0273\n"  // fadd z19.s, z19.s, z11.s
        ".inst 0xc1adc990\n"  // fclamp {z16.s-z19.s}, z12.s, z13.s
        ".inst 0xa060c6b0\n"  // st1w {z16.s-z19.s}, pn9, [x21]
        "add x21, x21, x8\n"
        "add x27, x27, #4\n"
        "add x12, x12, #4\n"
        "subs x22, x22, #1\n"
        "b.ne 4b\n"
        "add x15, x15, x25, lsl #2\n"
        "add x14, x14, x10\n"
        "subs x16, x16, x26\n"
        "b.ne 2b\n"
        "add x1, x1, x9\n"
        "madd x3, x8, x24, x3\n"
        "subs x4, x4, x23\n"
        "b.ne 1b\n"
        ".inst 0xd503467f\n"  // smstop

        :
        : "r"(a)
        : "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16",
          "x17", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x30", "z0", "z1", "z2", "z3",
          "z4", "z5", "z6", "z7", "z8", "z9", "z10", "z11", "z12", "z13", "z14", "z15", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "z16", "z17", "z18", "z19",
          "z20", "z21", "z22", "z23", "z24", "z25", "z26", "z27", "z28", "z29", "z30", "z31", "p0", "p1", "p2", "p3",
          "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15",
          // The same registers by their NEON names: clang without SVE in -march ignores the "z" clobbers, and would
          // then neither save d8-d15 nor keep values out of v0-v31 (SMSTART / SMSTOP zero them all).
          "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16",
          "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31", "cc",
          "memory");
}
