//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// dst[i][j] = clamp(f32(A[i][j] + sum_j * off_i) * (rs_j * ls_i) + b_j, min, max), A[i][j] = sum_{k < K} q[i][k] *
// lut[c[j][k]] in int32 (docs/formats.md, "qsu2cxp matmul" and "SME matmul recipes": every f32 operation rounded on
// its own, no fused multiply-add, KleidiAI's kernel of this name). VL = SVL / 32 int32 lanes of a streaming vector,
// VLb = SVL / 8 bytes.
//
// Packed LHS (kai_lhs_quant_pack_qai8dxp_f32, mr = VL, kr = 4): per block of VL rows and group of 4 K values one
// vector [r0 k0-3, r1 k0-3, ...]; after the data VL int32 offsets (-ZP), then VL f32 scales. Packed RHS
// (docs/formats.md, "qsu2cxp4vlx4 RHS", nr = VLb = 4VL): per group of 4 K values one vector of codes, channel j's
// byte at j (the group's 4 codes in bits 0-1 ... 6-7); after the data nr int32 sums of lut[c], nr f32 scales, nr
// f32 biases. K is a multiple of 32, so the groups come in multiples of 8 and the K loop has no tail.
//
// Tile VL x 4VL in the four 32-bit ZA tiles (za_c = columns cVL .. cVL + VL - 1). The look-up table sits in ZT0
// (its 4 entries, then zeros); per group one LUTI2 expands the code vector into four int8 vectors [c k0-3, ...] of
// VL channels each, one SMOPA of the LHS vector with each. Eight groups per iteration: two 4-vector LHS loads, two
// 4-vector code loads, eight LUTI2, 32 SMOPA. Epilogue per four rows: four 4-slice MOVAs (rows r..r+3 of each
// tile), the int32 correction by MLA (indexed by the row among the four offsets, loaded replicated), SCVTF, s = rs
// * ls by FMUL (indexed), y * s, + bias, FCLAMP (KleidiAI's: a NaN gives the lower bound), one strided 4-vector
// store per row. The whole call is one streaming-mode section (inline assembly; see docs/matmul_sme.md for the
// calling convention).

#if !defined(__aarch64__)
#error "kai_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa needs AArch64"
#endif

#include "kai_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"
#include "kai_matmul_clamp_f32_qai8dxp_qsu2cxp_interface.h"

// The streaming body is one assembly string (it holds state in registers throughout), longer than the 4095
// characters C99 guarantees; GCC and clang accept it.
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif

static const size_t kai_kr = 4;
static const size_t kai_sr = 1;
static const size_t kai_k_chunk = 32;  // the K padding unit

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
    return kai_mul_size_checked(mr, kai_add_size_checked(kai_roundup(k, kai_k_chunk), 8));
}

static size_t kai_rhs_block_stride(size_t k, size_t nr) {
    return kai_mul_size_checked(nr, kai_add_size_checked(kai_roundup(k, kai_k_chunk) / 4, 12));
}

static const int32_t kai_default_lut[4] = {-2, -1, 0, 1};

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

size_t kai_get_m_step_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa(void) {
    return kai_mr();
}

size_t kai_get_n_step_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa(void) {
    return kai_nr();
}

size_t kai_get_mr_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa(void) {
    return kai_mr();
}

size_t kai_get_nr_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa(void) {
    return kai_nr();
}

size_t kai_get_kr_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa(size_t m_idx, size_t k) {
    const size_t mr = kai_mr();
    KAI_ASSUME_MSG(m_idx % mr == 0, "m_idx must be a multiple of mr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(m_idx / mr, kai_lhs_block_stride(k, mr));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa(size_t n_idx, size_t k) {
    const size_t nr = kai_nr();
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(n_idx / nr, kai_rhs_block_stride(k, nr));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa(
    size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_mr() == 0, "m_idx must be a multiple of m_step");
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of n_step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// Arguments of the assembly body, read with ldp from x0 (offsets in the comments).
struct kai_args {
    const void* lhs;        // 0: packed LHS block of the first row block
    const void* rhs;        // 8: packed RHS block of the first column block
    void* dst;              // 16
    uint64_t m;             // 24
    uint64_t n;             // 32
    uint64_t k_iters;       // 40: Kp / 32
    uint64_t dst_stride;    // 48
    uint64_t lhs_block;     // 56: bytes per LHS block, mr * (Kp + 8)
    uint64_t rhs_block;     // 64: bytes per RHS block, nr * (Kp + 12)
    uint64_t lhs_data;      // 72: mr * Kp, offset of the LHS block's offsets
    uint64_t rhs_data;      // 80: nr * Kp / 4, offset of the RHS block's sums
    uint32_t min_bits;      // 88
    uint32_t max_bits;      // 92
    int32_t zt0[16];        // 96: ZT0, the look-up table's 4 entries then zeros (64 bytes: LDR ZT0 reads them all)
};

void kai_run_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa(
    size_t m, size_t n, size_t k, const void* lhs_packed, const void* rhs_packed, float* dst, size_t dst_stride_row,
    size_t dst_stride_col, float scalar_min, float scalar_max, const int32_t* lut) {
    KAI_ASSUME_MSG(dst_stride_col == sizeof(float), "dst_stride_col must be sizeof(float)");
    if (m == 0 || n == 0) {
        return;
    }
    KAI_ASSUME_MSG(k >= 1 && k % kai_k_chunk == 0, "k must be a positive multiple of 32");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    KAI_ASSUME_MSG(rhs_packed != NULL, "rhs_packed must not be NULL");
    KAI_ASSUME_MSG(dst != NULL, "dst must not be NULL");
    KAI_ASSUME_MSG(
        m == 1 || dst_stride_row / dst_stride_col >= n, "dst_stride_row must be at least n * dst_stride_col if m > 1");

    const size_t mr = kai_mr();
    const size_t nr = kai_nr();
    const size_t kp = kai_roundup(k, kai_k_chunk);
    struct kai_args args;
    args.lhs = lhs_packed;
    args.rhs = rhs_packed;
    args.dst = dst;
    args.m = m;
    args.n = n;
    args.k_iters = kp / kai_k_chunk;
    args.dst_stride = dst_stride_row;
    args.lhs_block = kai_lhs_block_stride(k, mr);
    args.rhs_block = kai_rhs_block_stride(k, nr);
    args.lhs_data = kai_mul_size_checked(mr, kp);
    args.rhs_data = kai_mul_size_checked(nr, kp / 4);
    memcpy(&args.min_bits, &scalar_min, sizeof(float));
    memcpy(&args.max_bits, &scalar_max, sizeof(float));
    const int32_t* tab = lut != NULL ? lut : kai_default_lut;
    for (size_t e = 0; e < 16; ++e) {
        args.zt0[e] = e < 4 ? tab[e] : 0;
        KAI_ASSUME_MSG(args.zt0[e] >= -64 && args.zt0[e] <= 63, "lut entries must be in [-64, 63]");
    }

    kai_commit_za();

    // Register map: x1 LHS block, x2 RHS block of column 0, x3 DST row block, x4 rows left, x5 n, x6 Kp / 32,
    // x7 RHS tail (sums, scales, biases), x8 DST stride, x9 / x10 LHS / RHS block bytes, x11 / x13 LHS / RHS data
    // bytes, w12 ZA slice, x14 RHS block, x15 DST tile, x16 columns left, x17 / x19 LHS / RHS pointer, x20 K
    // counter, x21 DST row, x22 rows left in the tile, x23 rows of the tile, x24 mr (VL), x25 nr (VLb), x26
    // columns of the tile, x27 LHS tail (offsets; the scales follow VLb bytes later), x28 zero. ZT0 the look-up table.
    register const struct kai_args* a __asm__("x0") = &args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x4, [x0, #16]\n"
        "ldp x5, x6, [x0, #32]\n"
        "ldp x8, x9, [x0, #48]\n"
        "ldp x10, x11, [x0, #64]\n"
        "ldr x13, [x0, #80]\n"
        "ldp w20, w21, [x0, #88]\n"
        ".inst 0xd503477f\n"  // smstart
        "add x7, x0, #96\n"
        ".inst 0xe11f80e0\n"  // ldr zt0, [x7]
        ".inst 0x2518e3e0\n"  // ptrue p0.b
        ".inst 0x25207810\n"  // ptrue pn8.b
        ".inst 0x25a07812\n"  // ptrue pn10.s
        ".inst 0x05a03a82\n"  // dup z2.s, w20
        ".inst 0x05a03aa3\n"  // dup z3.s, w21
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
        ".inst 0xc00800ff\n"  // zero {za}
        "mov x17, x1\n"
        "mov x19, x14\n"
        "mov x20, x6\n"
        "3:\n"  // 8 groups (32 K) per iteration
        ".inst 0xa0408220\n"  // ld1b {z0.b-z3.b}, pn8/z, [x17]
        ".inst 0xa0408278\n"  // ld1b {z24.b-z27.b}, pn8/z, [x19]
        ".inst 0xc08c8304\n"  // luti2 {z4.b-z7.b}, zt0, z24[0]
        ".inst 0xc08c8328\n"  // luti2 {z8.b-z11.b}, zt0, z25[0]
        // One group: the LHS vector l against the four RHS vectors b0..b3.
        ".inst 0xa0840000\n"  // smopa za0.s, p0/m, p0/m, z0.b, z4.b
        ".inst 0xa0850001\n"  // smopa za1.s, p0/m, p0/m, z0.b, z5.b
        ".inst 0xa0860002\n"  // smopa za2.s, p0/m, p0/m, z0.b, z6.b
        ".inst 0xa0870003\n"  // smopa za3.s, p0/m, p0/m, z0.b, z7.b
        ".inst 0xc08c834c\n"  // luti2 {z12.b-z15.b}, zt0, z26[0]
        ".inst 0xa0880020\n"  // smopa za0.s, p0/m, p0/m, z1.b, z8.b
        ".inst 0xa0890021\n"  // smopa za1.s, p0/m, p0/m, z1.b, z9.b
        ".inst 0xa08a0022\n"  // smopa za2.s, p0/m, p0/m, z1.b, z10.b
        ".inst 0xa08b0023\n"  // smopa za3.s, p0/m, p0/m, z1.b, z11.b
        ".inst 0xc08c8370\n"  // luti2 {z16.b-z19.b}, zt0, z27[0]
        ".inst 0xa0418234\n"  // ld1b {z20.b-z23.b}, pn8/z, [x17, #4, mul vl]
        ".inst 0xa041827c\n"  // ld1b {z28.b-z31.b}, pn8/z, [x19, #4, mul vl]
        ".inst 0xa08c0040\n"  // smopa za0.s, p0/m, p0/m, z2.b, z12.b
        ".inst 0xa08d0041\n"  // smopa za1.s, p0/m, p0/m, z2.b, z13.b
        ".inst 0xa08e0042\n"  // smopa za2.s, p0/m, p0/m, z2.b, z14.b
        ".inst 0xa08f0043\n"  // smopa za3.s, p0/m, p0/m, z2.b, z15.b
        ".inst 0xc08c8384\n"  // luti2 {z4.b-z7.b}, zt0, z28[0]
        ".inst 0xa0900060\n"  // smopa za0.s, p0/m, p0/m, z3.b, z16.b
        ".inst 0xa0910061\n"  // smopa za1.s, p0/m, p0/m, z3.b, z17.b
        ".inst 0xa0920062\n"  // smopa za2.s, p0/m, p0/m, z3.b, z18.b
        ".inst 0xa0930063\n"  // smopa za3.s, p0/m, p0/m, z3.b, z19.b
        ".inst 0xc08c83a8\n"  // luti2 {z8.b-z11.b}, zt0, z29[0]
        ".inst 0xa0840280\n"  // smopa za0.s, p0/m, p0/m, z20.b, z4.b
        ".inst 0xa0850281\n"  // smopa za1.s, p0/m, p0/m, z20.b, z5.b
        ".inst 0xa0860282\n"  // smopa za2.s, p0/m, p0/m, z20.b, z6.b
        ".inst 0xa0870283\n"  // smopa za3.s, p0/m, p0/m, z20.b, z7.b
        ".inst 0xc08c83cc\n"  // luti2 {z12.b-z15.b}, zt0, z30[0]
        ".inst 0xa08802a0\n"  // smopa za0.s, p0/m, p0/m, z21.b, z8.b
        ".inst 0xa08902a1\n"  // smopa za1.s, p0/m, p0/m, z21.b, z9.b
        ".inst 0xa08a02a2\n"  // smopa za2.s, p0/m, p0/m, z21.b, z10.b
        ".inst 0xa08b02a3\n"  // smopa za3.s, p0/m, p0/m, z21.b, z11.b
        ".inst 0xc08c83f0\n"  // luti2 {z16.b-z19.b}, zt0, z31[0]
        ".inst 0xa08c02c0\n"  // smopa za0.s, p0/m, p0/m, z22.b, z12.b
        ".inst 0xa08d02c1\n"  // smopa za1.s, p0/m, p0/m, z22.b, z13.b
        ".inst 0xa08e02c2\n"  // smopa za2.s, p0/m, p0/m, z22.b, z14.b
        ".inst 0xa08f02c3\n"  // smopa za3.s, p0/m, p0/m, z22.b, z15.b
        ".inst 0xa09002e0\n"  // smopa za0.s, p0/m, p0/m, z23.b, z16.b
        ".inst 0xa09102e1\n"  // smopa za1.s, p0/m, p0/m, z23.b, z17.b
        ".inst 0xa09202e2\n"  // smopa za2.s, p0/m, p0/m, z23.b, z18.b
        ".inst 0xa09302e3\n"  // smopa za3.s, p0/m, p0/m, z23.b, z19.b
        ".inst 0x04315111\n"  // addvl x17, x17, #8
        ".inst 0x04335113\n"  // addvl x19, x19, #8
        "subs x20, x20, #1\n"
        "b.ne 3b\n"
        // Epilogue: x7 = RHS tail, x27 = LHS tail.
        "add x7, x14, x13\n"
        "add x27, x1, x11\n"
        ".inst 0xa040c8e4\n"  // ld1w {z4.s-z7.s}, pn10/z, [x7]
        ".inst 0xa041c8e8\n"  // ld1w {z8.s-z11.s}, pn10/z, [x7, #4, mul vl]
        "ldp w20, w21, [x0, #88]\n"  // the clamp bounds (z2 / z3 held LHS data in the loop)
        ".inst 0x05a03a82\n"  // dup z2.s, w20
        ".inst 0x05a03aa3\n"  // dup z3.s, w21
        ".inst 0x25ba6791\n"  // whilelt pn9.s, x28, x26, vlx4
        "mov x21, x15\n"
        "mov x22, x23\n"
        "mov w12, #0\n"
        "4:\n"  // four rows per iteration
        ".inst 0xc0860410\n"  // mova {z16.s-z19.s}, za0h.s[w12, 0:3]
        ".inst 0xc0860434\n"  // mova {z20.s-z23.s}, za1h.s[w12, 0:3]
        ".inst 0xc0860458\n"  // mova {z24.s-z27.s}, za2h.s[w12, 0:3]
        ".inst 0xc086047c\n"  // mova {z28.s-z31.s}, za3h.s[w12, 0:3]
        ".inst 0xa5002360\n"  // ld1rqw {z0.s}, p0/z, [x27]
        ".inst 0xa5180361\n"  // ld1rqw {z1.s}, p0/z, [x27, x24, lsl #2]
        // int32 correction of row t: y += sum * off (sums in z4-z7, the four rows' offsets in z0).
        ".inst 0x44a00890\n"  // mla z16.s, z4.s, z0.s[0]
        ".inst 0x44a008b4\n"  // mla z20.s, z5.s, z0.s[0]
        ".inst 0x44a008d8\n"  // mla z24.s, z6.s, z0.s[0]
        ".inst 0x44a008fc\n"  // mla z28.s, z7.s, z0.s[0]
        ".inst 0x44a80891\n"  // mla z17.s, z4.s, z0.s[1]
        ".inst 0x44a808b5\n"  // mla z21.s, z5.s, z0.s[1]
        ".inst 0x44a808d9\n"  // mla z25.s, z6.s, z0.s[1]
        ".inst 0x44a808fd\n"  // mla z29.s, z7.s, z0.s[1]
        ".inst 0x44b00892\n"  // mla z18.s, z4.s, z0.s[2]
        ".inst 0x44b008b6\n"  // mla z22.s, z5.s, z0.s[2]
        ".inst 0x44b008da\n"  // mla z26.s, z6.s, z0.s[2]
        ".inst 0x44b008fe\n"  // mla z30.s, z7.s, z0.s[2]
        ".inst 0x44b80893\n"  // mla z19.s, z4.s, z0.s[3]
        ".inst 0x44b808b7\n"  // mla z23.s, z5.s, z0.s[3]
        ".inst 0x44b808db\n"  // mla z27.s, z6.s, z0.s[3]
        ".inst 0x44b808ff\n"  // mla z31.s, z7.s, z0.s[3]
        ".inst 0xc132e210\n"  // scvtf {z16.s-z19.s}, {z16.s-z19.s}
        ".inst 0xc132e294\n"  // scvtf {z20.s-z23.s}, {z20.s-z23.s}
        ".inst 0xc132e318\n"  // scvtf {z24.s-z27.s}, {z24.s-z27.s}
        ".inst 0xc132e39c\n"  // scvtf {z28.s-z31.s}, {z28.s-z31.s}
        // Row t (0..3) of the four rows in z16-z31 (rows r + t of za0..za3 in z16+t, z20+t, z24+t, z28+t): s = rs * ls
        // (rs in z8-z11, the four rows' ls in z1), y = y * s, y = y + bias (reloaded into z12-z15).
        ".inst 0x64a1210c\n"  // fmul z12.s, z8.s, z1.s[0]
        ".inst 0x64a1212d\n"  // fmul z13.s, z9.s, z1.s[0]
        ".inst 0x64a1214e\n"  // fmul z14.s, z10.s, z1.s[0]
        ".inst 0x64a1216f\n"  // fmul z15.s, z11.s, z1.s[0]
        ".inst 0x658c0a10\n"  // fmul z16.s, z16.s, z12.s
        ".inst 0x658d0a94\n"  // fmul z20.s, z20.s, z13.s
        ".inst 0x658e0b18\n"  // fmul z24.s, z24.s, z14.s
        ".inst 0x658f0b9c\n"  // fmul z28.s, z28.s, z15.s
        ".inst 0xa042c8ec\n"  // ld1w {z12.s-z15.s}, pn10/z, [x7, #8, mul vl]
        ".inst 0x658c0210\n"  // fadd z16.s, z16.s, z12.s
        ".inst 0x658d0294\n"  // fadd z20.s, z20.s, z13.s
        ".inst 0x658e0318\n"  // fadd z24.s, z24.s, z14.s
        ".inst 0x658f039c\n"  // fadd z28.s, z28.s, z15.s
        ".inst 0x64a9210c\n"  // fmul z12.s, z8.s, z1.s[1]
        ".inst 0x64a9212d\n"  // fmul z13.s, z9.s, z1.s[1]
        ".inst 0x64a9214e\n"  // fmul z14.s, z10.s, z1.s[1]
        ".inst 0x64a9216f\n"  // fmul z15.s, z11.s, z1.s[1]
        ".inst 0x658c0a31\n"  // fmul z17.s, z17.s, z12.s
        ".inst 0x658d0ab5\n"  // fmul z21.s, z21.s, z13.s
        ".inst 0x658e0b39\n"  // fmul z25.s, z25.s, z14.s
        ".inst 0x658f0bbd\n"  // fmul z29.s, z29.s, z15.s
        ".inst 0xa042c8ec\n"  // ld1w {z12.s-z15.s}, pn10/z, [x7, #8, mul vl]
        ".inst 0x658c0231\n"  // fadd z17.s, z17.s, z12.s
        ".inst 0x658d02b5\n"  // fadd z21.s, z21.s, z13.s
        ".inst 0x658e0339\n"  // fadd z25.s, z25.s, z14.s
        ".inst 0x658f03bd\n"  // fadd z29.s, z29.s, z15.s
        ".inst 0x64b1210c\n"  // fmul z12.s, z8.s, z1.s[2]
        ".inst 0x64b1212d\n"  // fmul z13.s, z9.s, z1.s[2]
        ".inst 0x64b1214e\n"  // fmul z14.s, z10.s, z1.s[2]
        ".inst 0x64b1216f\n"  // fmul z15.s, z11.s, z1.s[2]
        ".inst 0x658c0a52\n"  // fmul z18.s, z18.s, z12.s
        ".inst 0x658d0ad6\n"  // fmul z22.s, z22.s, z13.s
        ".inst 0x658e0b5a\n"  // fmul z26.s, z26.s, z14.s
        ".inst 0x658f0bde\n"  // fmul z30.s, z30.s, z15.s
        ".inst 0xa042c8ec\n"  // ld1w {z12.s-z15.s}, pn10/z, [x7, #8, mul vl]
        ".inst 0x658c0252\n"  // fadd z18.s, z18.s, z12.s
        ".inst 0x658d02d6\n"  // fadd z22.s, z22.s, z13.s
        ".inst 0x658e035a\n"  // fadd z26.s, z26.s, z14.s
        ".inst 0x658f03de\n"  // fadd z30.s, z30.s, z15.s
        ".inst 0x64b9210c\n"  // fmul z12.s, z8.s, z1.s[3]
        ".inst 0x64b9212d\n"  // fmul z13.s, z9.s, z1.s[3]
        ".inst 0x64b9214e\n"  // fmul z14.s, z10.s, z1.s[3]
        ".inst 0x64b9216f\n"  // fmul z15.s, z11.s, z1.s[3]
        ".inst 0x658c0a73\n"  // fmul z19.s, z19.s, z12.s
        ".inst 0x658d0af7\n"  // fmul z23.s, z23.s, z13.s
        ".inst 0x658e0b7b\n"  // fmul z27.s, z27.s, z14.s
        ".inst 0x658f0bff\n"  // fmul z31.s, z31.s, z15.s
        ".inst 0xa042c8ec\n"  // ld1w {z12.s-z15.s}, pn10/z, [x7, #8, mul vl]
        ".inst 0x658c0273\n"  // fadd z19.s, z19.s, z12.s
        ".inst 0x658d02f7\n"  // fadd z23.s, z23.s, z13.s
        ".inst 0x658e037b\n"  // fadd z27.s, z27.s, z14.s
        ".inst 0x658f03ff\n"  // fadd z31.s, z31.s, z15.s
        ".inst 0xc1a3c850\n"  // fclamp {z16.s-z19.s}, z2.s, z3.s
        ".inst 0xc1a3c854\n"  // fclamp {z20.s-z23.s}, z2.s, z3.s
        ".inst 0xc1a3c858\n"  // fclamp {z24.s-z27.s}, z2.s, z3.s
        ".inst 0xc1a3c85c\n"  // fclamp {z28.s-z31.s}, z2.s, z3.s
        ".inst 0xa160c6b0\n"  // st1w {z16.s, z20.s, z24.s, z28.s}, pn9, [x21]
        "add x21, x21, x8\n"
        "subs x22, x22, #1\n"
        "b.eq 5f\n"
        ".inst 0xa160c6b1\n"  // st1w {z17.s, z21.s, z25.s, z29.s}, pn9, [x21]
        "add x21, x21, x8\n"
        "subs x22, x22, #1\n"
        "b.eq 5f\n"
        ".inst 0xa160c6b2\n"  // st1w {z18.s, z22.s, z26.s, z30.s}, pn9, [x21]
        "add x21, x21, x8\n"
        "subs x22, x22, #1\n"
        "b.eq 5f\n"
        ".inst 0xa160c6b3\n"  // st1w {z19.s, z23.s, z27.s, z31.s}, pn9, [x21]
        "add x21, x21, x8\n"
        "add w12, w12, #4\n"
        "add x27, x27, #16\n"
        "subs x22, x22, #1\n"
        "b.ne 4b\n"
        "5:\n"
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
          "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15", "cc", "memory");
}
