//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// dst[i][j] = clamp(fmaf(f32(A[i][j] + sum_j * off_i), rs_j * ls_i, b_j), min, max), A[i][j] = sum_{k < K}
// q[i][k] * lut[c[j][k]] in int32 (docs/formats.md, "qsu2cxp matmul"; the DOT GEMVs' epilogue of docs/formats.md,
// "SME matmul recipes": the product s = rs_j * ls_i is rounded, then scale and bias are one fused multiply-add, as
// KleidiAI's kernel of this name). VLb = SVL / 8.
//
// Packed LHS (kai_lhs_quant_pack_qai8dxp_f32, mr = 1, kr = 4): per row K bytes, then the int32 offset (-ZP) and
// the f32 scale. Packed RHS (docs/formats.md, "qsu2cxp4vlx4 RHS", nr = VLb): per group of 4 K values one vector of
// codes, channel j's byte at j; after the data nr int32 sums of lut[c], nr f32 scales, nr f32 biases. K is a
// multiple of 32: the groups come in multiples of 8 and the K loop has no tail.
//
// One row x VLb columns per step. The look-up table sits in ZT0 (its 4 entries, then zeros); per group one LUTI2
// expands the code vector into four int8 vectors [c0 k0-3, c1 k0-3, ...], one multi-vector SDOT (by element: the
// group's 4 LHS bytes, LD1RQB-replicated to every 128-bit segment) into a 4-vector group of the ZA array. Eight
// groups per iteration: two LD1RQB, two 4-vector code loads, eight LUTI2, eight SDOT, alternating between two ZA
// vector groups (two independent accumulation chains, added at the end; int32 addition wraps, so the sum is
// exact). The whole call is one streaming-mode section (inline assembly; see docs/matmul_sme.md for the calling
// convention).

#if !defined(__aarch64__)
#error "kai_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot needs AArch64"
#endif

#include "kai_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot.h"

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

static const size_t kai_mr = 1;

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

size_t kai_get_m_step_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot(void) {
    return 1;
}

size_t kai_get_n_step_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot(void) {
    return kai_nr();
}

size_t kai_get_mr_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot(void) {
    return kai_nr();
}

size_t kai_get_kr_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(m_idx, kai_lhs_block_stride(k, kai_mr));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot(size_t n_idx, size_t k) {
    const size_t nr = kai_nr();
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(n_idx / nr, kai_rhs_block_stride(k, nr));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot(size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of n_step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(float));
}

// Arguments of the assembly body, read with ldp from x0 (offsets in the comments).
struct kai_args {
    const void* lhs;        // 0: packed LHS row of the first row
    const void* rhs;        // 8: packed RHS block of the first column block
    void* dst;              // 16
    uint64_t m;             // 24
    uint64_t n;             // 32
    uint64_t k_iters;       // 40: Kp / 32
    uint64_t dst_stride;    // 48
    uint64_t lhs_row;       // 56: bytes per LHS row, Kp + 8
    uint64_t rhs_block;     // 64: bytes per RHS block, nr * (Kp + 12)
    uint64_t lhs_data;      // 72: Kp, offset of the row's offset and scale
    uint64_t rhs_data;      // 80: nr * Kp / 4, offset of the RHS block's sums
    uint32_t min_bits;      // 88
    uint32_t max_bits;      // 92
    int32_t zt0[16];        // 96: ZT0, the look-up table's 4 entries then zeros (64 bytes: LDR ZT0 reads them all)
};

void kai_run_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot(
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
    args.lhs_row = kai_lhs_block_stride(k, kai_mr);
    args.rhs_block = kai_rhs_block_stride(k, nr);
    args.lhs_data = kp;
    args.rhs_data = kai_mul_size_checked(nr, kp / 4);
    memcpy(&args.min_bits, &scalar_min, sizeof(float));
    memcpy(&args.max_bits, &scalar_max, sizeof(float));
    const int32_t* tab = lut != NULL ? lut : kai_default_lut;
    for (size_t e = 0; e < 16; ++e) {
        args.zt0[e] = e < 4 ? tab[e] : 0;
        KAI_ASSUME_MSG(args.zt0[e] >= -64 && args.zt0[e] <= 63, "lut entries must be in [-64, 63]");
    }

    kai_commit_za();

    // Register map: x1 LHS row, x2 RHS block of column 0, x3 DST row, x4 rows left, x5 n, x6 Kp / 32, x7 RHS tail
    // (sums, scales, biases), x23 DST stride, x9 / x10 LHS row / RHS block bytes, x11 / x13 LHS / RHS data bytes,
    // w8 ZA vector select (0), x14 RHS block, x15 DST columns, x16 columns left, x17 / x19 LHS / RHS pointer, x20
    // K counter, x25 nr (VLb), x26 columns of the step, x27 LHS tail, x28 zero. z2 / z3 clamp bounds, ZT0 the look-up table.
    register const struct kai_args* a __asm__("x0") = &args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x4, [x0, #16]\n"
        "ldp x5, x6, [x0, #32]\n"
        "ldp x23, x9, [x0, #48]\n"
        "ldp x10, x11, [x0, #64]\n"
        "ldr x13, [x0, #80]\n"
        "ldp w20, w22, [x0, #88]\n"
        ".inst 0xd503477f\n"  // smstart
        "add x7, x0, #96\n"
        ".inst 0xe11f80e0\n"  // ldr zt0, [x7]
        ".inst 0x2518e3e0\n"  // ptrue p0.b
        ".inst 0x25207810\n"  // ptrue pn8.b
        ".inst 0x25a07812\n"  // ptrue pn10.s
        ".inst 0x05a03a82\n"  // dup z2.s, w20
        ".inst 0x05a03ac3\n"  // dup z3.s, w22
        ".inst 0x0420e3f9\n"  // cntb x25
        "mov x28, #0\n"
        "mov w8, #0\n"
        "1:\n"  // rows
        "mov x14, x2\n"
        "mov x15, x3\n"
        "mov x16, x5\n"
        "add x27, x1, x11\n"
        ".inst 0x8540c374\n"  // ld1rw {z20.s}, p0/z, [x27]
        ".inst 0x8541c375\n"  // ld1rw {z21.s}, p0/z, [x27, #4]
        "2:\n"  // column blocks
        "cmp x16, x25\n"
        "csel x26, x16, x25, lo\n"
        ".inst 0xc00800ff\n"  // zero {za}
        "mov x17, x1\n"
        "mov x19, x14\n"
        "mov x20, x6\n"
        "3:\n"  // 8 groups (32 K) per iteration
        ".inst 0xa4002220\n"  // ld1rqb {z0.b}, p0/z, [x17]
        ".inst 0xa0408278\n"  // ld1b {z24.b-z27.b}, pn8/z, [x19]
        ".inst 0xc08c8304\n"  // luti2 {z4.b-z7.b}, zt0, z24[0]
        ".inst 0xc08c8328\n"  // luti2 {z8.b-z11.b}, zt0, z25[0]
        ".inst 0xc15090a0\n"  // sdot za.s[w8, 0, vgx4], {z4.b-z7.b}, z0.b[0]
        ".inst 0xc08c834c\n"  // luti2 {z12.b-z15.b}, zt0, z26[0]
        ".inst 0xc1509521\n"  // sdot za.s[w8, 1, vgx4], {z8.b-z11.b}, z0.b[1]
        ".inst 0xc08c8370\n"  // luti2 {z16.b-z19.b}, zt0, z27[0]
        ".inst 0xa4012221\n"  // ld1rqb {z1.b}, p0/z, [x17, #16]
        ".inst 0xa041827c\n"  // ld1b {z28.b-z31.b}, pn8/z, [x19, #4, mul vl]
        ".inst 0xc15099a0\n"  // sdot za.s[w8, 0, vgx4], {z12.b-z15.b}, z0.b[2]
        ".inst 0xc08c8384\n"  // luti2 {z4.b-z7.b}, zt0, z28[0]
        ".inst 0xc1509e21\n"  // sdot za.s[w8, 1, vgx4], {z16.b-z19.b}, z0.b[3]
        ".inst 0xc08c83a8\n"  // luti2 {z8.b-z11.b}, zt0, z29[0]
        ".inst 0xc15190a0\n"  // sdot za.s[w8, 0, vgx4], {z4.b-z7.b}, z1.b[0]
        ".inst 0xc08c83cc\n"  // luti2 {z12.b-z15.b}, zt0, z30[0]
        ".inst 0xc1519521\n"  // sdot za.s[w8, 1, vgx4], {z8.b-z11.b}, z1.b[1]
        ".inst 0xc08c83f0\n"  // luti2 {z16.b-z19.b}, zt0, z31[0]
        ".inst 0xc15199a0\n"  // sdot za.s[w8, 0, vgx4], {z12.b-z15.b}, z1.b[2]
        ".inst 0xc1519e21\n"  // sdot za.s[w8, 1, vgx4], {z16.b-z19.b}, z1.b[3]
        "add x17, x17, #32\n"
        ".inst 0x04335113\n"  // addvl x19, x19, #8
        "subs x20, x20, #1\n"
        "b.ne 3b\n"
        // Epilogue: the two accumulators, the int32 correction, f32, s = rs * ls, fmaf(y, s, bias), clamp.
        "add x7, x14, x13\n"
        ".inst 0xc0060c04\n"  // mova {z4.d-z7.d}, za.d[w8, 0, vgx4]
        ".inst 0xc0060c28\n"  // mova {z8.d-z11.d}, za.d[w8, 1, vgx4]
        ".inst 0xa040c8ec\n"  // ld1w {z12.s-z15.s}, pn10/z, [x7]
        ".inst 0xa041c8f0\n"  // ld1w {z16.s-z19.s}, pn10/z, [x7, #4, mul vl]
        ".inst 0xa042c8f8\n"  // ld1w {z24.s-z27.s}, pn10/z, [x7, #8, mul vl]
        ".inst 0x04a80084\n"  // add z4.s, z4.s, z8.s
        ".inst 0x04a900a5\n"  // add z5.s, z5.s, z9.s
        ".inst 0x04aa00c6\n"  // add z6.s, z6.s, z10.s
        ".inst 0x04ab00e7\n"  // add z7.s, z7.s, z11.s
        ".inst 0x04944184\n"  // mla z4.s, p0/m, z12.s, z20.s
        ".inst 0x049441a5\n"  // mla z5.s, p0/m, z13.s, z20.s
        ".inst 0x049441c6\n"  // mla z6.s, p0/m, z14.s, z20.s
        ".inst 0x049441e7\n"  // mla z7.s, p0/m, z15.s, z20.s
        ".inst 0xc132e084\n"  // scvtf {z4.s-z7.s}, {z4.s-z7.s}
        ".inst 0x65950a10\n"  // fmul z16.s, z16.s, z21.s
        ".inst 0x65950a31\n"  // fmul z17.s, z17.s, z21.s
        ".inst 0x65950a52\n"  // fmul z18.s, z18.s, z21.s
        ".inst 0x65950a73\n"  // fmul z19.s, z19.s, z21.s
        ".inst 0x65b00098\n"  // fmla z24.s, p0/m, z4.s, z16.s
        ".inst 0x65b100b9\n"  // fmla z25.s, p0/m, z5.s, z17.s
        ".inst 0x65b200da\n"  // fmla z26.s, p0/m, z6.s, z18.s
        ".inst 0x65b300fb\n"  // fmla z27.s, p0/m, z7.s, z19.s
        ".inst 0xc1a3c858\n"  // fclamp {z24.s-z27.s}, z2.s, z3.s
        ".inst 0x25ba6791\n"  // whilelt pn9.s, x28, x26, vlx4
        ".inst 0xa060c5f8\n"  // st1w {z24.s-z27.s}, pn9, [x15]
        "add x15, x15, x25, lsl #2\n"
        "add x14, x14, x10\n"
        "subs x16, x16, x26\n"
        "b.ne 2b\n"
        "add x1, x1, x9\n"
        "add x3, x3, x23\n"
        "subs x4, x4, #1\n"
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
