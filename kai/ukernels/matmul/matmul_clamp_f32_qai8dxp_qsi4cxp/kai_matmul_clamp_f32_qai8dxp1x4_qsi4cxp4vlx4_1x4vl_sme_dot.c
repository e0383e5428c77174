//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// dst[i][j] = clamp(fmaf(f32(A[i][j] + S16_j * off_i), rs_j * ls_i, b_j), min, max), A[i][j] = sum_{k < Kp}
// q[i][k] * (16 w[j][k]) in int32 (docs/formats.md, "qsi4cxp matmul" with the DOT GEMVs' epilogue of "SME matmul
// recipes": the product s = rs_j * ls_i is rounded, then scale and bias are one fused multiply-add, as KleidiAI's
// kernel of this name). VLb = SVL / 8.
//
// Packed LHS (kai_lhs_quant_pack_qai8dxp_f32, mr = 1, kr = 8, sr = 2): per row Kp bytes, then the int32 offset (-ZP)
// and the f32 scale. Packed RHS (docs/formats.md, "qsi4cxp RHS": kai_rhs_pack_nxk/kxn_qsi4cxp_qs4cxs1s0, nr = VLb,
// kr = 8, sr = 2): per chunk of 32 K values and s = 0..3, four vectors of nibble bytes [c0 b0-3, c1 b0-3, ...] whose
// low nibbles are K 4s..4s+3 and high nibbles K 16+4s..16+4s+3 of the chunk; after the data nr int32 sums (x16), nr
// f32 scales (/16), nr f32 biases. Kp = roundup(K, 32): the K loop has no tail.
//
// One row x VLb columns per step, FEAT_SME only (no ZA-array SDOT, no multi-vector instructions): streaming SVE
// SDOT by element into Z accumulators. Per chunk: two LD1RQB (the 32 LHS bytes replicated to every 128-bit
// segment), 16 LDR, 16 LSL #4 (low nibbles as 16 w), 16 AND #0xF0 (high nibbles as 16 w), 32 SDOT into two
// accumulator chains of four vectors (low / high nibbles, added at the end; int32 addition wraps, so the sum is
// exact). Epilogue as KleidiAI's: FMAX / FMIN (a NaN stays NaN). The whole call is one streaming-mode section
// (inline assembly; see docs/matmul_sme.md for the calling convention).

#if !defined(__aarch64__)
#error "kai_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot needs AArch64"
#endif

#include "kai_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot.h"

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

static const size_t kai_mr = 1;

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

size_t kai_get_m_step_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(void) {
    return 1;
}

size_t kai_get_n_step_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(void) {
    return kai_nr();
}

size_t kai_get_mr_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(void) {
    return kai_nr();
}

size_t kai_get_kr_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(m_idx, kai_lhs_block_stride(k, kai_mr));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(size_t n_idx, size_t k) {
    const size_t nr = kai_nr();
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    KAI_ASSUME_MSG(k >= 1, "k must be at least 1");
    return kai_mul_size_checked(n_idx / nr, kai_rhs_block_stride(k, nr));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(n_idx % kai_nr() == 0, "n_idx must be a multiple of n_step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(size_t m, size_t n) {
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
    uint64_t rhs_block;     // 64: bytes per RHS block, nr * (Kp / 2 + 12)
    uint64_t lhs_data;      // 72: Kp, offset of the row's offset and scale
    uint64_t rhs_data;      // 80: nr * Kp / 2, offset of the RHS block's sums
    uint32_t min_bits;      // 88
    uint32_t max_bits;      // 92
};

void kai_run_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot(
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
    args.rhs_data = kai_mul_size_checked(nr, kp / 2);
    memcpy(&args.min_bits, &scalar_min, sizeof(float));
    memcpy(&args.max_bits, &scalar_max, sizeof(float));

    kai_commit_za();

    // Register map: x1 LHS row, x2 RHS block of column 0, x3 DST row, x4 rows left, x5 n, x6 Kp / 32, x7 RHS tail
    // (sums, scales, biases), x23 DST stride, x9 / x10 LHS row / RHS block bytes, x11 / x13 LHS / RHS data bytes,
    // x14 RHS block, x15 DST columns, x16 columns left, x17 / x19 LHS / RHS pointer, x20 K counter, x24 VL, x25 nr
    // (VLb), x26 columns of the step, x27 LHS tail. z16-z19 / z20-z23 the two accumulator chains (columns 0 ..
    // 4VL - 1), z0 / z1 the LHS quads, z2 / z3 clamp bounds, z30 / z31 the row's offset and scale.
    register const struct kai_args* a __asm__("x0") = &args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x4, [x0, #16]\n"
        "ldp x5, x6, [x0, #32]\n"
        "ldp x23, x9, [x0, #48]\n"
        "ldp x10, x11, [x0, #64]\n"
        "ldr x13, [x0, #80]\n"
        ".inst 0xd503477f\n"  // smstart
        ".inst 0x2518e3e0\n"  // ptrue p0.b
        ".inst 0x8556c002\n"  // ld1rw {z2.s}, p0/z, [x0, #88]
        ".inst 0x8557c003\n"  // ld1rw {z3.s}, p0/z, [x0, #92]
        ".inst 0x04a0e3f8\n"  // cntw x24
        ".inst 0x0420e3f9\n"  // cntb x25
        "1:\n"  // rows
        "mov x14, x2\n"
        "mov x15, x3\n"
        "mov x16, x5\n"
        "add x27, x1, x11\n"
        ".inst 0x8540c37e\n"  // ld1rw {z30.s}, p0/z, [x27]
        ".inst 0x8541c37f\n"  // ld1rw {z31.s}, p0/z, [x27, #4]
        "2:\n"  // column blocks
        "cmp x16, x25\n"
        "csel x26, x16, x25, lo\n"
        ".inst 0x25b8c010\n"  // mov z16.s, #0
        ".inst 0x25b8c011\n"  // mov z17.s, #0
        ".inst 0x25b8c012\n"  // mov z18.s, #0
        ".inst 0x25b8c013\n"  // mov z19.s, #0
        ".inst 0x25b8c014\n"  // mov z20.s, #0
        ".inst 0x25b8c015\n"  // mov z21.s, #0
        ".inst 0x25b8c016\n"  // mov z22.s, #0
        ".inst 0x25b8c017\n"  // mov z23.s, #0
        "mov x17, x1\n"
        "mov x19, x14\n"
        "mov x20, x6\n"
        "3:\n"  // one 32-K chunk per iteration: 32 LHS bytes, 16 RHS vectors of nibble bytes
        ".inst 0xa4002220\n"  // ld1rqb {z0.b}, p0/z, [x17]
        ".inst 0xa4012221\n"  // ld1rqb {z1.b}, p0/z, [x17, #16]
        // Group s = 0: low nibbles (K 4s..4s+3) by z0.b[0] into z16-z19, high nibbles (K 16+4s..) by z1.b[0] into z20-z23.
        ".inst 0x85804278\n"  // ldr z24, [x19, #0, mul vl]
        ".inst 0x85804679\n"  // ldr z25, [x19, #1, mul vl]
        ".inst 0x85804a7a\n"  // ldr z26, [x19, #2, mul vl]
        ".inst 0x85804e7b\n"  // ldr z27, [x19, #3, mul vl]
        ".inst 0x042c9f04\n"  // lsl z4.b, z24.b, #4
        ".inst 0x042c9f25\n"  // lsl z5.b, z25.b, #4
        ".inst 0x042c9f46\n"  // lsl z6.b, z26.b, #4
        ".inst 0x042c9f67\n"  // lsl z7.b, z27.b, #4
        ".inst 0x44a00090\n"  // sdot z16.s, z4.b, z0.b[0]
        ".inst 0x44a000b1\n"  // sdot z17.s, z5.b, z0.b[0]
        ".inst 0x44a000d2\n"  // sdot z18.s, z6.b, z0.b[0]
        ".inst 0x44a000f3\n"  // sdot z19.s, z7.b, z0.b[0]
        ".inst 0x05802678\n"  // and z24.b, z24.b, #0xf0
        ".inst 0x05802679\n"  // and z25.b, z25.b, #0xf0
        ".inst 0x0580267a\n"  // and z26.b, z26.b, #0xf0
        ".inst 0x0580267b\n"  // and z27.b, z27.b, #0xf0
        ".inst 0x44a10314\n"  // sdot z20.s, z24.b, z1.b[0]
        ".inst 0x44a10335\n"  // sdot z21.s, z25.b, z1.b[0]
        ".inst 0x44a10356\n"  // sdot z22.s, z26.b, z1.b[0]
        ".inst 0x44a10377\n"  // sdot z23.s, z27.b, z1.b[0]
        // Group s = 1: low nibbles (K 4s..4s+3) by z0.b[1] into z16-z19, high nibbles (K 16+4s..) by z1.b[1] into z20-z23.
        ".inst 0x85805278\n"  // ldr z24, [x19, #4, mul vl]
        ".inst 0x85805679\n"  // ldr z25, [x19, #5, mul vl]
        ".inst 0x85805a7a\n"  // ldr z26, [x19, #6, mul vl]
        ".inst 0x85805e7b\n"  // ldr z27, [x19, #7, mul vl]
        ".inst 0x042c9f04\n"  // lsl z4.b, z24.b, #4
        ".inst 0x042c9f25\n"  // lsl z5.b, z25.b, #4
        ".inst 0x042c9f46\n"  // lsl z6.b, z26.b, #4
        ".inst 0x042c9f67\n"  // lsl z7.b, z27.b, #4
        ".inst 0x44a80090\n"  // sdot z16.s, z4.b, z0.b[1]
        ".inst 0x44a800b1\n"  // sdot z17.s, z5.b, z0.b[1]
        ".inst 0x44a800d2\n"  // sdot z18.s, z6.b, z0.b[1]
        ".inst 0x44a800f3\n"  // sdot z19.s, z7.b, z0.b[1]
        ".inst 0x05802678\n"  // and z24.b, z24.b, #0xf0
        ".inst 0x05802679\n"  // and z25.b, z25.b, #0xf0
        ".inst 0x0580267a\n"  // and z26.b, z26.b, #0xf0
        ".inst 0x0580267b\n"  // and z27.b, z27.b, #0xf0
        ".inst 0x44a90314\n"  // sdot z20.s, z24.b, z1.b[1]
        ".inst 0x44a90335\n"  // sdot z21.s, z25.b, z1.b[1]
        ".inst 0x44a90356\n"  // sdot z22.s, z26.b, z1.b[1]
        ".inst 0x44a90377\n"  // sdot z23.s, z27.b, z1.b[1]
        // Group s = 2: low nibbles (K 4s..4s+3) by z0.b[2] into z16-z19, high nibbles (K 16+4s..) by z1.b[2] into z20-z23.
        ".inst 0x85814278\n"  // ldr z24, [x19, #8, mul vl]
        ".inst 0x85814679\n"  // ldr z25, [x19, #9, mul vl]
        ".inst 0x85814a7a\n"  // ldr z26, [x19, #10, mul vl]
        ".inst 0x85814e7b\n"  // ldr z27, [x19, #11, mul vl]
        ".inst 0x042c9f04\n"  // lsl z4.b, z24.b, #4
        ".inst 0x042c9f25\n"  // lsl z5.b, z25.b, #4
        ".inst 0x042c9f46\n"  // lsl z6.b, z26.b, #4
        ".inst 0x042c9f67\n"  // lsl z7.b, z27.b, #4
        ".inst 0x44b00090\n"  // sdot z16.s, z4.b, z0.b[2]
        ".inst 0x44b000b1\n"  // sdot z17.s, z5.b, z0.b[2]
        ".inst 0x44b000d2\n"  // sdot z18.s, z6.b, z0.b[2]
        ".inst 0x44b000f3\n"  // sdot z19.s, z7.b, z0.b[2]
        ".inst 0x05802678\n"  // and z24.b, z24.b, #0xf0
        ".inst 0x05802679\n"  // and z25.b, z25.b, #0xf0
        ".inst 0x0580267a\n"  // and z26.b, z26.b, #0xf0
        ".inst 0x0580267b\n"  // and z27.b, z27.b, #0xf0
        ".inst 0x44b10314\n"  // sdot z20.s, z24.b, z1.b[2]
        ".inst 0x44b10335\n"  // sdot z21.s, z25.b, z1.b[2]
        ".inst 0x44b10356\n"  // sdot z22.s, z26.b, z1.b[2]
        ".inst 0x44b10377\n"  // sdot z23.s, z27.b, z1.b[2]
        // Group s = 3: low nibbles (K 4s..4s+3) by z0.b[3] into z16-z19, high nibbles (K 16+4s..) by z1.b[3] into z20-z23.
        ".inst 0x85815278\n"  // ldr z24, [x19, #12, mul vl]
        ".inst 0x85815679\n"  // ldr z25, [x19, #13, mul vl]
        ".inst 0x85815a7a\n"  // ldr z26, [x19, #14, mul vl]
        ".inst 0x85815e7b\n"  // ldr z27, [x19, #15, mul vl]
        ".inst 0x042c9f04\n"  // lsl z4.b, z24.b, #4
        ".inst 0x042c9f25\n"  // lsl z5.b, z25.b, #4
        ".inst 0x042c9f46\n"  // lsl z6.b, z26.b, #4
        ".inst 0x042c9f67\n"  // lsl z7.b, z27.b, #4
        ".inst 0x44b80090\n"  // sdot z16.s, z4.b, z0.b[3]
        ".inst 0x44b800b1\n"  // sdot z17.s, z5.b, z0.b[3]
        ".inst 0x44b800d2\n"  // sdot z18.s, z6.b, z0.b[3]
        ".inst 0x44b800f3\n"  // sdot z19.s, z7.b, z0.b[3]
        ".inst 0x05802678\n"  // and z24.b, z24.b, #0xf0
        ".inst 0x05802679\n"  // and z25.b, z25.b, #0xf0
        ".inst 0x0580267a\n"  // and z26.b, z26.b, #0xf0
        ".inst 0x0580267b\n"  // and z27.b, z27.b, #0xf0
        ".inst 0x44b90314\n"  // sdot z20.s, z24.b, z1.b[3]
        ".inst 0x44b90335\n"  // sdot z21.s, z25.b, z1.b[3]
        ".inst 0x44b90356\n"  // sdot z22.s, z26.b, z1.b[3]
        ".inst 0x44b90377\n"  // sdot z23.s, z27.b, z1.b[3]
        "add x17, x17, #32\n"
        "add x19, x19, x25, lsl #4\n"
        "subs x20, x20, #1\n"
        "b.ne 3b\n"
        // Epilogue: the two chains, the int32 correction, f32, s = rs * ls, fmaf(y, s, bias), clamp.
        "add x7, x14, x13\n"
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
        ".inst 0x04b40210\n"  // add z16.s, z16.s, z20.s
        ".inst 0x04b50231\n"  // add z17.s, z17.s, z21.s
        ".inst 0x04b60252\n"  // add z18.s, z18.s, z22.s
        ".inst 0x04b70273\n"  // add z19.s, z19.s, z23.s
        ".inst 0x049e4090\n"  // mla z16.s, p0/m, z4.s, z30.s
        ".inst 0x049e40b1\n"  // mla z17.s, p0/m, z5.s, z30.s
        ".inst 0x049e40d2\n"  // mla z18.s, p0/m, z6.s, z30.s
        ".inst 0x049e40f3\n"  // mla z19.s, p0/m, z7.s, z30.s
        ".inst 0x6594a210\n"  // scvtf z16.s, p0/m, z16.s
        ".inst 0x6594a231\n"  // scvtf z17.s, p0/m, z17.s
        ".inst 0x6594a252\n"  // scvtf z18.s, p0/m, z18.s
        ".inst 0x6594a273\n"  // scvtf z19.s, p0/m, z19.s
        ".inst 0x659f0908\n"  // fmul z8.s, z8.s, z31.s
        ".inst 0x659f0929\n"  // fmul z9.s, z9.s, z31.s
        ".inst 0x659f094a\n"  // fmul z10.s, z10.s, z31.s
        ".inst 0x659f096b\n"  // fmul z11.s, z11.s, z31.s
        ".inst 0x65a8020c\n"  // fmla z12.s, p0/m, z16.s, z8.s
        ".inst 0x65a9022d\n"  // fmla z13.s, p0/m, z17.s, z9.s
        ".inst 0x65aa024e\n"  // fmla z14.s, p0/m, z18.s, z10.s
        ".inst 0x65ab026f\n"  // fmla z15.s, p0/m, z19.s, z11.s
        ".inst 0x6586804c\n"  // fmax z12.s, p0/m, z12.s, z2.s
        ".inst 0x6586804d\n"  // fmax z13.s, p0/m, z13.s, z2.s
        ".inst 0x6586804e\n"  // fmax z14.s, p0/m, z14.s, z2.s
        ".inst 0x6586804f\n"  // fmax z15.s, p0/m, z15.s, z2.s
        ".inst 0x6587806c\n"  // fmin z12.s, p0/m, z12.s, z3.s
        ".inst 0x6587806d\n"  // fmin z13.s, p0/m, z13.s, z3.s
        ".inst 0x6587806e\n"  // fmin z14.s, p0/m, z14.s, z3.s
        ".inst 0x6587806f\n"  // fmin z15.s, p0/m, z15.s, z3.s
        "mov x20, #0\n"
        ".inst 0x25ba1684\n"  // whilelt p4.s, x20, x26
        "add x20, x20, x24\n"
        ".inst 0x25ba1685\n"  // whilelt p5.s, x20, x26
        "add x20, x20, x24\n"
        ".inst 0x25ba1686\n"  // whilelt p6.s, x20, x26
        "add x20, x20, x24\n"
        ".inst 0x25ba1687\n"  // whilelt p7.s, x20, x26
        ".inst 0xe540f1ec\n"  // st1w {z12.s}, p4, [x15, #0, mul vl]
        ".inst 0xe541f5ed\n"  // st1w {z13.s}, p5, [x15, #1, mul vl]
        ".inst 0xe542f9ee\n"  // st1w {z14.s}, p6, [x15, #2, mul vl]
        ".inst 0xe543fdef\n"  // st1w {z15.s}, p7, [x15, #3, mul vl]
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
          "z4", "z5", "z6", "z7", "z8", "z9", "z10", "z11", "z12", "z13", "z14", "z15", "z16", "z17", "z18", "z19",
          "z20", "z21", "z22", "z23", "z24", "z25", "z26", "z27", "z28", "z29", "z30", "z31", "p0", "p1", "p2", "p3",
          "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15", "cc", "memory",
          // Clang 19 does not derive the callee-saved d8-d15 from the z8-z15 clobbers (SMSTART / SMSTOP zero every
          // Z register): name them so that both compilers save and restore them.
          "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15");
}
