//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// dst[i][j] = clamp(f32(A[i][j] + S16_j * off_i) * (rs_j * ls_i) + b_j, min, max), A[i][j] = sum_{k < Kp} q[i][k] *
// (16 w[j][k]) in int32 (docs/formats.md, "qsi4cxp matmul" and "SME matmul recipes": every f32 operation rounded on its
// own, no fused multiply-add, the NEON kernels' bits). VL = SVL / 32 int32 lanes of a streaming vector, VLb = SVL / 8.
//
// Packed LHS (kai_lhs_quant_pack_qai8dxp_f32, mr = VL, kr = 8, sr = 2, so groups of kr / sr = 4 K values): per block of
// VL rows and group one vector [r0 k0-3, r1 k0-3, ...]; after the data VL int32 offsets (-ZP), then VL f32 scales.
// Packed RHS (docs/formats.md, "qsi4cxp RHS": kai_rhs_pack_nxk/kxn_qsi4cxp_qs4cxs1s0, nr = VLb = 4VL, kr = 8, sr = 2):
// per chunk of 32 K values and s = 0..3, four vectors of nibble bytes [c0 b0-3, c1 b0-3, ...] whose low nibbles are
// K 4s..4s+3 and high nibbles K 16+4s..16+4s+3 of the chunk; after the data nr int32 sums (x16), nr f32 scales (/16),
// nr f32 biases. Kp = roundup(K, 32): the K loop has no tail (the LHS padding meets zero nibbles).
//
// Tile VL x 4VL in the four 32-bit ZA tiles (za_c = columns cVL .. cVL + VL - 1). FEAT_SME only (no multi-vector
// instructions). Per chunk: 8 LHS and 16 RHS single-vector LDR; each RHS vector gives 16 w as LSL #4 (low nibble) and
// AND #0xF0 (high nibble), each against its LHS vector in one SMOPA per tile: 32 SMOPA, 16 LSL, 16 AND. Epilogue per
// row: four MOVAs (row r of each tile), the int32 correction y += sum * off (MLA), SCVTF, s = rs * ls, y * s, + bias,
// FMAX / FMIN (NaN-propagating, as KleidiAI's SME kernel), four predicated stores. The whole call is one streaming-mode
// section (inline assembly; see docs/matmul_sme.md for the calling convention).

#if !defined(__aarch64__)
#error "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa needs AArch64"
#endif

#include "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_common.h"
#include "kai_matmul_clamp_f32_qai8dxp_qsi4cxp_interface.h"

// The streaming body is one assembly string (it holds state in registers throughout), longer than the 4095
// characters C99 guarantees; GCC and clang accept it
// (the pragma below).
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif

static const size_t kai_kr = 8;
static const size_t kai_sr = 2;
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
    return kai_mul_size_checked(nr, kai_add_size_checked(kai_roundup(k, kai_k_chunk) / 2, 12));
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

size_t kai_get_m_step_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa(void) {
    return kai_mr();
}

size_t kai_get_n_step_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa(void) {
    return kai_nr();
}

size_t kai_get_mr_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa(void) {
    return kai_mr();
}

size_t kai_get_nr_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa(void) {
    return kai_nr();
}

size_t kai_get_kr_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa(size_t m_idx, size_t k) {
    const size_t mr = kai_mr();
    KAI_ASSUME_MSG(m_idx % mr == 0, "m_idx must be a multiple of mr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(m_idx / mr, kai_lhs_block_stride(k, mr));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa(size_t n_idx, size_t k) {
    const size_t nr = kai_nr();
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(n_idx / nr, kai_rhs_block_stride(k, nr));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa(
    size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx % kai_mr() == 0, "m_idx must be a multiple of m_step");
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of n_step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa(size_t m, size_t n) {
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
    uint64_t rhs_block;     // 64: bytes per RHS block, nr * (Kp / 2 + 12)
    uint64_t lhs_data;      // 72: mr * Kp, offset of the LHS block's offsets
    uint64_t rhs_data;      // 80: nr * Kp / 2, offset of the RHS block's sums
    uint32_t min_bits;      // 88
    uint32_t max_bits;      // 92
};

void kai_run_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa(
    size_t m, size_t n, size_t k, const void* lhs_packed, const void* rhs_packed, float* dst, size_t dst_stride_row,
    size_t dst_stride_col, float scalar_min, float scalar_max) {
    KAI_ASSUME_MSG(dst_stride_col == sizeof(float), "dst_stride_col must be sizeof(float)");
    if (m == 0 || n == 0) {
        return;
    }
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
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
    args.rhs_data = kai_mul_size_checked(nr, kp / 2);
    memcpy(&args.min_bits, &scalar_min, sizeof(float));
    memcpy(&args.max_bits, &scalar_max, sizeof(float));

    kai_commit_za();

    // Register map: x1 LHS block, x2 RHS block of column 0, x3 DST row block, x4 rows left, x5 n, x6 Kp / 32,
    // x7 RHS tail (sums, scales, biases), x8 DST stride, x9 / x10 LHS / RHS block bytes, x11 / x13 LHS / RHS data
    // bytes, w12 ZA slice, x14 RHS block, x15 DST tile, x16 columns left, x17 / x19 LHS / RHS pointer, x20 K
    // counter, x21 DST row, x22 rows left in the tile, x23 rows of the tile, x24 mr (VL), x25 nr (VLb), x26
    // columns of the tile, x27 / x28 the row's LHS offset / scale. Epilogue: sums z4-z7, rs z8-z11, biases
    // z12-z15, clamp bounds z2 / z3, column predicates p4-p7.
    register const struct kai_args* a __asm__("x0") = &args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x4, [x0, #16]\n"
        "ldp x5, x6, [x0, #32]\n"
        "ldp x8, x9, [x0, #48]\n"
        "ldp x10, x11, [x0, #64]\n"
        "ldr x13, [x0, #80]\n"
        ".inst 0xd503477f\n"  // smstart
        ".inst 0x2518e3e0\n"  // ptrue p0.b
        ".inst 0x04a0e3f8\n"  // cntw x24
        ".inst 0x0420e3f9\n"  // cntb x25
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
        "3:\n"  // one 32-K chunk per iteration: 8 LHS vectors, 16 RHS vectors of nibble bytes
        ".inst 0x85804220\n"  // ldr z0, [x17, #0, mul vl]
        ".inst 0x85804621\n"  // ldr z1, [x17, #1, mul vl]
        ".inst 0x85804a22\n"  // ldr z2, [x17, #2, mul vl]
        ".inst 0x85804e23\n"  // ldr z3, [x17, #3, mul vl]
        ".inst 0x85805224\n"  // ldr z4, [x17, #4, mul vl]
        ".inst 0x85805625\n"  // ldr z5, [x17, #5, mul vl]
        ".inst 0x85805a26\n"  // ldr z6, [x17, #6, mul vl]
        ".inst 0x85805e27\n"  // ldr z7, [x17, #7, mul vl]
        // Group s = 0: low nibbles meet LHS vector 0 (K 4s..4s+3), high nibbles LHS vector 4 (K 16+4s..).
        ".inst 0x85804268\n"  // ldr z8, [x19, #0, mul vl]
        ".inst 0x85804669\n"  // ldr z9, [x19, #1, mul vl]
        ".inst 0x85804a6a\n"  // ldr z10, [x19, #2, mul vl]
        ".inst 0x85804e6b\n"  // ldr z11, [x19, #3, mul vl]
        ".inst 0x042c9d10\n"  // lsl z16.b, z8.b, #4
        ".inst 0x042c9d31\n"  // lsl z17.b, z9.b, #4
        ".inst 0x042c9d52\n"  // lsl z18.b, z10.b, #4
        ".inst 0x042c9d73\n"  // lsl z19.b, z11.b, #4
        ".inst 0xa0900000\n"  // smopa za0.s, p0/m, p0/m, z0.b, z16.b
        ".inst 0xa0910001\n"  // smopa za1.s, p0/m, p0/m, z0.b, z17.b
        ".inst 0xa0920002\n"  // smopa za2.s, p0/m, p0/m, z0.b, z18.b
        ".inst 0xa0930003\n"  // smopa za3.s, p0/m, p0/m, z0.b, z19.b
        ".inst 0x05802668\n"  // and z8.b, z8.b, #0xf0
        ".inst 0x05802669\n"  // and z9.b, z9.b, #0xf0
        ".inst 0x0580266a\n"  // and z10.b, z10.b, #0xf0
        ".inst 0x0580266b\n"  // and z11.b, z11.b, #0xf0
        ".inst 0xa0880080\n"  // smopa za0.s, p0/m, p0/m, z4.b, z8.b
        ".inst 0xa0890081\n"  // smopa za1.s, p0/m, p0/m, z4.b, z9.b
        ".inst 0xa08a0082\n"  // smopa za2.s, p0/m, p0/m, z4.b, z10.b
        ".inst 0xa08b0083\n"  // smopa za3.s, p0/m, p0/m, z4.b, z11.b
        // Group s = 1: low nibbles meet LHS vector 1 (K 4s..4s+3), high nibbles LHS vector 5 (K 16+4s..).
        ".inst 0x8580526c\n"  // ldr z12, [x19, #4, mul vl]
        ".inst 0x8580566d\n"  // ldr z13, [x19, #5, mul vl]
        ".inst 0x85805a6e\n"  // ldr z14, [x19, #6, mul vl]
        ".inst 0x85805e6f\n"  // ldr z15, [x19, #7, mul vl]
        ".inst 0x042c9d94\n"  // lsl z20.b, z12.b, #4
        ".inst 0x042c9db5\n"  // lsl z21.b, z13.b, #4
        ".inst 0x042c9dd6\n"  // lsl z22.b, z14.b, #4
        ".inst 0x042c9df7\n"  // lsl z23.b, z15.b, #4
        ".inst 0xa0940020\n"  // smopa za0.s, p0/m, p0/m, z1.b, z20.b
        ".inst 0xa0950021\n"  // smopa za1.s, p0/m, p0/m, z1.b, z21.b
        ".inst 0xa0960022\n"  // smopa za2.s, p0/m, p0/m, z1.b, z22.b
        ".inst 0xa0970023\n"  // smopa za3.s, p0/m, p0/m, z1.b, z23.b
        ".inst 0x0580266c\n"  // and z12.b, z12.b, #0xf0
        ".inst 0x0580266d\n"  // and z13.b, z13.b, #0xf0
        ".inst 0x0580266e\n"  // and z14.b, z14.b, #0xf0
        ".inst 0x0580266f\n"  // and z15.b, z15.b, #0xf0
        ".inst 0xa08c00a0\n"  // smopa za0.s, p0/m, p0/m, z5.b, z12.b
        ".inst 0xa08d00a1\n"  // smopa za1.s, p0/m, p0/m, z5.b, z13.b
        ".inst 0xa08e00a2\n"  // smopa za2.s, p0/m, p0/m, z5.b, z14.b
        ".inst 0xa08f00a3\n"  // smopa za3.s, p0/m, p0/m, z5.b, z15.b
        // Group s = 2: low nibbles meet LHS vector 2 (K 4s..4s+3), high nibbles LHS vector 6 (K 16+4s..).
        ".inst 0x85814268\n"  // ldr z8, [x19, #8, mul vl]
        ".inst 0x85814669\n"  // ldr z9, [x19, #9, mul vl]
        ".inst 0x85814a6a\n"  // ldr z10, [x19, #10, mul vl]
        ".inst 0x85814e6b\n"  // ldr z11, [x19, #11, mul vl]
        ".inst 0x042c9d10\n"  // lsl z16.b, z8.b, #4
        ".inst 0x042c9d31\n"  // lsl z17.b, z9.b, #4
        ".inst 0x042c9d52\n"  // lsl z18.b, z10.b, #4
        ".inst 0x042c9d73\n"  // lsl z19.b, z11.b, #4
        ".inst 0xa0900040\n"  // smopa za0.s, p0/m, p0/m, z2.b, z16.b
        ".inst 0xa0910041\n"  // smopa za1.s, p0/m, p0/m, z2.b, z17.b
        ".inst 0xa0920042\n"  // smopa za2.s, p0/m, p0/m, z2.b, z18.b
        ".inst 0xa0930043\n"  // smopa za3.s, p0/m, p0/m, z2.b, z19.b
        ".inst 0x05802668\n"  // and z8.b, z8.b, #0xf0
        ".inst 0x05802669\n"  // and z9.b, z9.b, #0xf0
        ".inst 0x0580266a\n"  // and z10.b, z10.b, #0xf0
        ".inst 0x0580266b\n"  // and z11.b, z11.b, #0xf0
        ".inst 0xa08800c0\n"  // smopa za0.s, p0/m, p0/m, z6.b, z8.b
        ".inst 0xa08900c1\n"  // smopa za1.s, p0/m, p0/m, z6.b, z9.b
        ".inst 0xa08a00c2\n"  // smopa za2.s, p0/m, p0/m, z6.b, z10.b
        ".inst 0xa08b00c3\n"  // smopa za3.s, p0/m, p0/m, z6.b, z11.b
        // Group s = 3: low nibbles meet LHS vector 3 (K 4s..4s+3), high nibbles LHS vector 7 (K 16+4s..).
        ".inst 0x8581526c\n"  // ldr z12, [x19, #12, mul vl]
        ".inst 0x8581566d\n"  // ldr z13, [x19, #13, mul vl]
        ".inst 0x85815a6e\n"  // ldr z14, [x19, #14, mul vl]
        ".inst 0x85815e6f\n"  // ldr z15, [x19, #15, mul vl]
        ".inst 0x042c9d94\n"  // lsl z20.b, z12.b, #4
        ".inst 0x042c9db5\n"  // lsl z21.b, z13.b, #4
        ".inst 0x042c9dd6\n"  // lsl z22.b, z14.b, #4
        ".inst 0x042c9df7\n"  // lsl z23.b, z15.b, #4
        ".inst 0xa0940060\n"  // smopa za0.s, p0/m, p0/m, z3.b, z20.b
        ".inst 0xa0950061\n"  // smopa za1.s, p0/m, p0/m, z3.b, z21.b
        ".inst 0xa0960062\n"  // smopa za2.s, p0/m, p0/m, z3.b, z22.b
        ".inst 0xa0970063\n"  // smopa za3.s, p0/m, p0/m, z3.b, z23.b
        ".inst 0x0580266c\n"  // and z12.b, z12.b, #0xf0
        ".inst 0x0580266d\n"  // and z13.b, z13.b, #0xf0
        ".inst 0x0580266e\n"  // and z14.b, z14.b, #0xf0
        ".inst 0x0580266f\n"  // and z15.b, z15.b, #0xf0
        ".inst 0xa08c00e0\n"  // smopa za0.s, p0/m, p0/m, z7.b, z12.b
        ".inst 0xa08d00e1\n"  // smopa za1.s, p0/m, p0/m, z7.b, z13.b
        ".inst 0xa08e00e2\n"  // smopa za2.s, p0/m, p0/m, z7.b, z14.b
        ".inst 0xa08f00e3\n"  // smopa za3.s, p0/m, p0/m, z7.b, z15.b
        ".inst 0x04315111\n"  // addvl x17, x17, #8
        "add x19, x19, x25, lsl #4\n"
        "subs x20, x20, #1\n"
        "b.ne 3b\n"
        // Epilogue.
        "add x7, x14, x13\n"
        "add x27, x1, x11\n"
        "add x28, x27, x25\n"
        ".inst 0x858040e4\n"  // ldr z4, [x7, #0, mul vl]
        ".inst 0x858044e5\n"  // ldr z5, [x7, #1, mul vl]
        ".inst 0x858048e6\n"  // ldr z6, [x7, #2, mul vl]
        ".inst 0x85804ce7\n"  // ldr z7, [x7, #3, mul vl]
        ".inst 0x858050e8\n"  // ldr z8, [x7, #4, mul vl]
        ".inst 0x858054e9\n"  // ldr z9, [x7, #5, mul vl]
        ".inst 0x858058ea\n"  // ldr z10, [x7, #6, mul vl]
        ".inst 0x85805ceb\n"  // ldr z11, [x7, #7, mul vl]
        ".inst 0x858140ec\n"  // ldr z12, [x7, #8, mul vl]
        ".inst 0x858144ed\n"  // ldr z13, [x7, #9, mul vl]
        ".inst 0x858148ee\n"  // ldr z14, [x7, #10, mul vl]
        ".inst 0x85814cef\n"  // ldr z15, [x7, #11, mul vl]
        ".inst 0x8556c002\n"  // ld1rw {z2.s}, p0/z, [x0, #88]
        ".inst 0x8557c003\n"  // ld1rw {z3.s}, p0/z, [x0, #92]
        "mov x20, #0\n"
        ".inst 0x25ba1684\n"  // whilelt p4.s, x20, x26
        "add x20, x20, x24\n"
        ".inst 0x25ba1685\n"  // whilelt p5.s, x20, x26
        "add x20, x20, x24\n"
        ".inst 0x25ba1686\n"  // whilelt p6.s, x20, x26
        "add x20, x20, x24\n"
        ".inst 0x25ba1687\n"  // whilelt p7.s, x20, x26
        "mov x21, x15\n"
        "mov x22, x23\n"
        "mov w12, #0\n"
        "4:\n"  // one row per iteration
        ".inst 0xc0820010\n"  // mova z16.s, p0/m, za0h.s[w12, 0]
        ".inst 0xc0820091\n"  // mova z17.s, p0/m, za1h.s[w12, 0]
        ".inst 0xc0820112\n"  // mova z18.s, p0/m, za2h.s[w12, 0]
        ".inst 0xc0820193\n"  // mova z19.s, p0/m, za3h.s[w12, 0]
        ".inst 0x8540c360\n"  // ld1rw {z0.s}, p0/z, [x27]
        ".inst 0x8540c381\n"  // ld1rw {z1.s}, p0/z, [x28]
        ".inst 0x04804090\n"  // mla z16.s, p0/m, z4.s, z0.s
        ".inst 0x048040b1\n"  // mla z17.s, p0/m, z5.s, z0.s
        ".inst 0x048040d2\n"  // mla z18.s, p0/m, z6.s, z0.s
        ".inst 0x048040f3\n"  // mla z19.s, p0/m, z7.s, z0.s
        ".inst 0x6594a210\n"  // scvtf z16.s, p0/m, z16.s
        ".inst 0x6594a231\n"  // scvtf z17.s, p0/m, z17.s
        ".inst 0x6594a252\n"  // scvtf z18.s, p0/m, z18.s
        ".inst 0x6594a273\n"  // scvtf z19.s, p0/m, z19.s
        ".inst 0x65810914\n"  // fmul z20.s, z8.s, z1.s
        ".inst 0x65810935\n"  // fmul z21.s, z9.s, z1.s
        ".inst 0x65810956\n"  // fmul z22.s, z10.s, z1.s
        ".inst 0x65810977\n"  // fmul z23.s, z11.s, z1.s
        ".inst 0x65940a10\n"  // fmul z16.s, z16.s, z20.s
        ".inst 0x65950a31\n"  // fmul z17.s, z17.s, z21.s
        ".inst 0x65960a52\n"  // fmul z18.s, z18.s, z22.s
        ".inst 0x65970a73\n"  // fmul z19.s, z19.s, z23.s
        ".inst 0x658c0210\n"  // fadd z16.s, z16.s, z12.s
        ".inst 0x658d0231\n"  // fadd z17.s, z17.s, z13.s
        ".inst 0x658e0252\n"  // fadd z18.s, z18.s, z14.s
        ".inst 0x658f0273\n"  // fadd z19.s, z19.s, z15.s
        ".inst 0x65868050\n"  // fmax z16.s, p0/m, z16.s, z2.s
        ".inst 0x65868051\n"  // fmax z17.s, p0/m, z17.s, z2.s
        ".inst 0x65868052\n"  // fmax z18.s, p0/m, z18.s, z2.s
        ".inst 0x65868053\n"  // fmax z19.s, p0/m, z19.s, z2.s
        ".inst 0x65878070\n"  // fmin z16.s, p0/m, z16.s, z3.s
        ".inst 0x65878071\n"  // fmin z17.s, p0/m, z17.s, z3.s
        ".inst 0x65878072\n"  // fmin z18.s, p0/m, z18.s, z3.s
        ".inst 0x65878073\n"  // fmin z19.s, p0/m, z19.s, z3.s
        ".inst 0xe540f2b0\n"  // st1w {z16.s}, p4, [x21, #0, mul vl]
        ".inst 0xe541f6b1\n"  // st1w {z17.s}, p5, [x21, #1, mul vl]
        ".inst 0xe542fab2\n"  // st1w {z18.s}, p6, [x21, #2, mul vl]
        ".inst 0xe543feb3\n"  // st1w {z19.s}, p7, [x21, #3, mul vl]
        "add x21, x21, x8\n"
        "add x27, x27, #4\n"
        "add x28, x28, #4\n"
        "add w12, w12, #1\n"
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
          "z4", "z5", "z6", "z7", "z8", "z9", "z10", "z11", "z12", "z13", "z14", "z15", "z16", "z17", "z18", "z19",
          "z20", "z21", "z22", "z23", "z24", "z25", "z26", "z27", "z28", "z29", "z30", "z31", "p0", "p1", "p2", "p3",
          "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15", "cc", "memory",
          // Clang 19 does not derive the callee-saved d8-d15 from the z8-z15 clobbers (SMSTART / SMSTOP zero every
          // Z register): name them so that both compilers save and restore them.
          "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15");
}
