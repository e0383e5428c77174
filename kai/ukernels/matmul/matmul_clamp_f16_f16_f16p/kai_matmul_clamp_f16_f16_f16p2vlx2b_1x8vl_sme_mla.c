//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// dst[0][j] = clamp16(f16(bias[j] + sum over k of a[k] * w[k][j])) for one f16 LHS row (docs/matmul_sme.md,
// "f16 SME/SME2 GEMM and GEMV"), reading the packed RHS of the f16 GEMMs (docs/formats.md, "x16p2vlx2b"). VL =
// SVL / 32. A block of nr = 2VL channels is 2VL f16 biases (one vector), then for each pair of k values the 2VL
// channels' two f16 (two vectors of 32-bit pairs). One step covers 4 blocks = 8 VL columns in 8 f32 vector
// accumulators (z24 + 2b / z25 + 2b: block b, channels 0..VL-1 / VL..2VL-1), which start at the biases widened to
// f32 (exact). Per pair, FMLALB multiplies the even halves of the RHS (k = 2p) by a[2p] and FMLALT the odd halves by
// a[2p + 1], each widening into f32 with one rounding; the LHS is read with LD1RQH (4 pairs per 128-bit segment,
// selected by the index). Columns past n: the missing blocks' pointers repeat block 0 (read in bounds, results
// dropped), the stores are masked. K tail: predicated LHS loads, so nothing past k is read and the pad of an odd k
// is 0. SME only (no SME2 instruction). One inline-assembly streaming section.

#if !defined(__aarch64__) || !defined(__ARM_FEATURE_SME)
#error "kai_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla needs AArch64 with FEAT_SME"
#endif

#include "kai_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla.h"

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"

#include "kai_matmul_clamp_f16_f16_f16p_interface.h"

// The streaming body is one assembly string (it must not be split: it holds state in registers throughout),
// longer than the 4095 characters C99 guarantees; clang (the only compiler that builds SME) accepts it.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Woverlength-strings"
#endif

static const size_t kai_m_step = 1;
static const size_t kai_kr = 2;
static const size_t kai_sr = 1;

// The f32 lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_vl(void) {
    uint64_t svl_bytes;
    __asm__ volatile("rdsvl %0, #1" : "=r"(svl_bytes));
    return (size_t)svl_bytes / sizeof(float);
}

// Commits a pending lazy ZA save of the caller (AAPCS64 SME): when TPIDR2_EL0 points to a TPIDR2 block, stores
// its num_za_save_slices ZA slices to its za_save_buffer and clears TPIDR2_EL0.
static void kai_commit_za(void) {
    __asm__ volatile(
        "mrs x16, tpidr2_el0\n"
        "cbz x16, 2f\n"
        "ldr x17, [x16]\n"
        "ldrh w15, [x16, #8]\n"
        "cbz x17, 1f\n"
        "cbz w15, 1f\n"
        "mov w12, #0\n"
        "0:\n"
        "str za[w12, 0], [x17]\n"
        "addsvl x17, x17, #1\n"
        "add w12, w12, #1\n"
        "cmp w12, w15\n"
        "b.lo 0b\n"
        "1:\n"
        "msr tpidr2_el0, xzr\n"
        "2:\n"
        :
        :
        : "x12", "x15", "x16", "x17", "cc", "memory");
}

size_t kai_get_m_step_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla(void) {
    return 8 * kai_vl();
}

size_t kai_get_nr_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla(void) {
    return 2 * kai_vl();
}

size_t kai_get_kr_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla(void) {
    return kai_sr;
}

size_t kai_get_lhs_offset_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla(size_t m_idx, size_t k) {
    KAI_ASSUME_MSG(m_idx == 0, "m_idx must be 0");
    KAI_UNUSED(k);
    return 0;
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla(size_t n_idx, size_t k) {
    KAI_ASSUME_MSG(n_idx % (2 * kai_vl()) == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(
        n_idx, kai_mul_size_checked(kai_add_size_checked(1, kai_roundup(k, kai_kr)), sizeof(uint16_t)));
}

size_t kai_get_dst_offset_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla(size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(m_idx == 0, "m_idx must be 0");
    KAI_ASSUME_MSG(n_idx % (2 * kai_vl()) == 0, "n_idx must be a multiple of nr");
    KAI_UNUSED(dst_stride);
    return kai_mul_size_checked(n_idx, sizeof(uint16_t));
}

size_t kai_get_dst_size_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla(size_t m, size_t n) {
    return kai_mul_size_checked(kai_mul_size_checked(m, n), sizeof(uint16_t));
}

// Arguments of the assembly body, read with ldp from x0 (offsets in the comments).
struct kai_args {
    const void* lhs;     // 0
    const void* rhs;     // 8: packed RHS, first block
    void* dst;           // 16
    uint64_t n;          // 24
    uint64_t k_main;     // 32: k / 8 (4 full pairs per iteration)
    uint64_t k_tail;     // 40: the remaining pairs, roundup(k, 2) / 2 - 4 * k_main
    uint64_t rhs_block;  // 48: bytes per RHS block, 2VL * (2 + 2 * roundup(k, 2))
    uint32_t min_bits;   // 56: f16 bits of the lower bound
    uint32_t max_bits;   // 60: f16 bits of the upper bound
    uint64_t k_left;     // 64: LHS values left for the tail, k - 8 * k_main
};

// Block b's biases (at ptr, which then moves to the block's first pair), widened into its accumulators lo, hi.
#define KAI_BIAS(ptr, lo, hi)                    \
    "ld1h {" lo ".h}, p0/z, [" ptr "]\n"         \
    "addvl " ptr ", " ptr ", #1\n"               \
    "zip2 " hi ".h, " lo ".h, " lo ".h\n"        \
    "zip1 " lo ".h, " lo ".h, " lo ".h\n"        \
    "fcvt " lo ".s, p0/m, " lo ".h\n"            \
    "fcvt " hi ".s, p0/m, " hi ".h\n"

// The two RHS vectors of block ptr for the pair at vector offsets vlo, vhi, into lo, hi.
#define KAI_LOAD2(ptr, vlo, vhi, lo, hi)                   \
    "ld1h {" lo ".h}, p0/z, [" ptr ", #" vlo ", mul vl]\n" \
    "ld1h {" hi ".h}, p0/z, [" ptr ", #" vhi ", mul vl]\n"

// The even (k = 2p, LHS index ib) and odd (k = 2p + 1, index it) halves of one RHS vector into one accumulator.
#define KAI_MLAL(acc, w, ib, it)                    \
    "fmlalb " acc ".s, " w ".h, z0.h[" ib "]\n"     \
    "fmlalt " acc ".s, " w ".h, z0.h[" it "]\n"

// One k pair of the 4 blocks: RHS vectors at offsets vlo, vhi; LHS halfwords ib, it of z0's segments.
#define KAI_PAIR(vlo, vhi, ib, it)                 \
    KAI_LOAD2("x19", vlo, vhi, "z8", "z9")         \
    KAI_LOAD2("x20", vlo, vhi, "z10", "z11")       \
    KAI_LOAD2("x21", vlo, vhi, "z12", "z13")       \
    KAI_LOAD2("x22", vlo, vhi, "z14", "z15")       \
    KAI_MLAL("z24", "z8", ib, it)                  \
    KAI_MLAL("z25", "z9", ib, it)                  \
    KAI_MLAL("z26", "z10", ib, it)                 \
    KAI_MLAL("z27", "z11", ib, it)                 \
    KAI_MLAL("z28", "z12", ib, it)                 \
    KAI_MLAL("z29", "z13", ib, it)                 \
    KAI_MLAL("z30", "z14", ib, it)                 \
    KAI_MLAL("z31", "z15", ib, it)

// Block b's accumulators lo, hi to f16 (one vector), clamped, stored at vector offset vo if its columns are < n.
#define KAI_STORE(lo, hi, vo)                        \
    "fcvt " lo ".h, p0/m, " lo ".s\n"                \
    "fcvt " hi ".h, p0/m, " hi ".s\n"                \
    "uzp1 " lo ".h, " lo ".h, " hi ".h\n"            \
    "fmin " lo ".h, p0/m, " lo ".h, z5.h\n"          \
    "fmax " lo ".h, p0/m, " lo ".h, z4.h\n"          \
    "whilelt p1.h, x28, x27\n"                       \
    "st1h {" lo ".h}, p1, [x3, #" vo ", mul vl]\n"   \
    "add x28, x28, x15\n"

void kai_run_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla(
    size_t m, size_t n, size_t k, const void* lhs, size_t lhs_stride, const void* rhs_packed, void* dst,
    size_t dst_stride_row, size_t dst_stride_col, float clamp_min, float clamp_max) {
    KAI_ASSUME_MSG(m == 1, "m must be 1");
    KAI_ASSUME_MSG(dst_stride_col == sizeof(uint16_t), "dst_stride_col must be 2");
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
        2 * kai_vl(), kai_mul_size_checked(kai_add_size_checked(1, kai_roundup(k, kai_kr)), sizeof(uint16_t)));
    args.min_bits = kai_cast_f16_f32(clamp_min);
    args.max_bits = kai_cast_f16_f32(clamp_max);

    kai_commit_za();

    // Register map: x1 LHS, x2 RHS tile (block 0), x3 DST tile, x4 columns left, x5 k / 8, x6 tail pairs, x7 block
    // bytes, x10 LHS pointer, w11 / w13 clamp bits, x12 k counter, x14 VL, x15 nr = 2VL, x16 8VL, x17 blocks in
    // the tile, x19-x22 block pointers (blocks 0-3), x27 columns of the tile, x28 column of a block, x30 LHS values
    // left in the tail. z0: LHS (4 pairs per 128-bit segment), z4 / z5 clamp bounds, z8-z15 RHS vectors, z24-z31
    // accumulators.
    register const struct kai_args* a __asm__("x0") = &args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x4, [x0, #16]\n"
        "ldp x5, x6, [x0, #32]\n"
        "ldr x7, [x0, #48]\n"
        "ldp w11, w13, [x0, #56]\n"
        "smstart\n"
        "ptrue p0.b\n"
        "cntw x14\n"
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
        KAI_BIAS("x19", "z24", "z25")
        KAI_BIAS("x20", "z26", "z27")
        KAI_BIAS("x21", "z28", "z29")
        KAI_BIAS("x22", "z30", "z31")
        "mov x10, x1\n"
        "mov x12, x5\n"
        "cbz x12, 3f\n"
        "2:\n"  // 4 k pairs per iteration
        "ld1rqh {z0.h}, p0/z, [x10]\n"
        KAI_PAIR("0", "1", "0", "1")
        KAI_PAIR("2", "3", "2", "3")
        KAI_PAIR("4", "5", "4", "5")
        KAI_PAIR("6", "7", "6", "7")
        "addvl x19, x19, #8\n"
        "addvl x20, x20, #8\n"
        "addvl x21, x21, #8\n"
        "addvl x22, x22, #8\n"
        "add x10, x10, #16\n"
        "subs x12, x12, #1\n"
        "b.ne 2b\n"
        "3:\n"
        "mov x12, x6\n"
        "ldr x30, [x0, #64]\n"
        "cbz x12, 5f\n"
        "4:\n"  // one k pair per iteration
        "whilelt p1.h, xzr, x30\n"
        "ld1rqh {z0.h}, p1/z, [x10]\n"
        KAI_PAIR("0", "1", "0", "1")
        "addvl x19, x19, #2\n"
        "addvl x20, x20, #2\n"
        "addvl x21, x21, #2\n"
        "addvl x22, x22, #2\n"
        "add x10, x10, #4\n"
        "sub x30, x30, #2\n"
        "subs x12, x12, #1\n"
        "b.ne 4b\n"
        "5:\n"  // to f16, clamp (FMIN then FMAX: a NaN stays NaN) and store
        "dup z4.h, w11\n"
        "dup z5.h, w13\n"
        "mov x28, #0\n"
        KAI_STORE("z24", "z25", "0")
        KAI_STORE("z26", "z27", "1")
        KAI_STORE("z28", "z29", "2")
        KAI_STORE("z30", "z31", "3")
        "addvl x3, x3, #4\n"
        "add x2, x2, x7, lsl #2\n"
        "subs x4, x4, x27\n"
        "b.ne 1b\n"
        "smstop\n"
        :
        : "r"(a)
        : "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16",
          "x17", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x30", "z0", "z1", "z2", "z3", "z4",
          "z5", "z6", "z7", "z8", "z9", "z10", "z11", "z12", "z13", "z14", "z15", "z16", "z17", "z18", "z19", "z20",
          "z21", "z22", "z23", "z24", "z25", "z26", "z27", "z28", "z29", "z30", "z31", "p0", "p1", "p2", "p3", "p4",
          "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15", "za", "cc", "memory");
}
