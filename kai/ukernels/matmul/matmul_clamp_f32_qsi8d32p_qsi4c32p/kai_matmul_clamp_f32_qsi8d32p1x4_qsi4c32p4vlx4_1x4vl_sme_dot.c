//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

#if !defined(__aarch64__)
#error "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot needs AArch64"
#endif

// dst[i][j] = min(max(acc, scalar_min), scalar_max) (FMAX / FMIN: NaN propagates), acc = +0 then for each block b:
//   acc = fmaf(f32(J), f32(a[i][b]) * f32(d16[j][b]), acc),  J = sum_{k in b} q[i][k] * 16 w[j][k] = 16 I
// with q the int8 LHS, a its f16 scale, w the signed RHS nibble and d16 = f16(d / 16) its packed scale: the same
// value as fmaf(f32(I), f32(a) * 16 f32(d16), acc), as scaling by 16 is exact (docs/formats.md, "qsi8d32p matmul" and "Q4_0 layouts of the SME kernels").
// Packed LHS (docs/formats.md, "Q4_0 layouts of the SME kernels", mr = 1): the k int8 of the row, then its f16 block scales. Packed RHS (docs/formats.md, "Q4_0 layouts of the SME kernels",
// nr = 4VL): per nr-column block, for each block b and packet p of 8 k values, nr 32-bit units (lane i: byte t
// holds w[8p + t] in the low nibble and w[8p + t + 4] in the high one, two's complement), then all f16 scales
// d16 (lane i, block b at (b * nr + i) * 2 after the data).
// One tile is 1 x 4VL columns in four vectors of int32 sums (z16-z19) and four of f32 accumulators (z24-z27). A
// packet is four vectors of units in column order: LSL #4 gives 16 w of k = 8p .. 8p + 3 in each 32-bit lane, AND
// 0xF0 16 w of 8p + 4 .. 8p + 7; indexed SDOT with the LHS bytes of those k (LD1RQB: 16 LHS bytes in every
// 128-bit segment). Per block: SCVTF, the products a * d16 by ZIP1 / ZIP2 of the two scale vectors and
// FMLALB / FMLALT by a, one FMLA per vector. Columns past n: padded lanes computed and dropped (predicated
// stores). SME only (streaming SVE / SVE2 instructions, no ZA): one inline-assembly streaming section per row,
// SMSTART SM, then SMSTOP (which also turns ZA off, as the other SME kernels leave it).

#include "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot.h"

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

size_t kai_get_m_step_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(void) {
    return kai_m_step;
}

size_t kai_get_n_step_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(void) {
    return 4 * kai_vl();
}

size_t kai_get_mr_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(void) {
    return kai_mr;
}

size_t kai_get_nr_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(void) {
    return 4 * kai_vl();
}

size_t kai_get_kr_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(void) {
    return kai_kr;
}

size_t kai_get_sr_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(void) {
    return kai_sr;
}

size_t kai_get_lhs_packed_offset_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(size_t m_idx, size_t k, size_t bl) {
    check_block(k, bl);
    return kai_mul_size_checked(m_idx, kai_mul_size_checked(k / bl, bl + 2));
}

size_t kai_get_rhs_packed_offset_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(size_t n_idx, size_t k, size_t bl) {
    check_block(k, bl);
    const size_t nr = 4 * kai_vl();
    KAI_ASSUME_MSG(n_idx % nr == 0, "n_idx must be a multiple of nr");
    return kai_mul_size_checked(n_idx / nr, kai_mul_size_checked(nr * (k / bl), bl / 2 + 2));
}

size_t kai_get_dst_offset_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(
    size_t m_idx, size_t n_idx, size_t dst_stride) {
    KAI_ASSUME_MSG(n_idx % (4 * kai_vl()) == 0, "n_idx must be a multiple of n_step");
    return kai_add_size_checked(kai_mul_size_checked(m_idx, dst_stride), kai_mul_size_checked(n_idx, sizeof(float)));
}

size_t kai_get_dst_size_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(size_t m, size_t n) {
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
    uint64_t chunks;        // 48: 16-value chunks per block, bl / 16
    uint64_t rhs_stride;    // 56: bytes per nr-column block
    uint64_t scale_off;     // 64: offset of the scales in a block, nr * k / 2
    uint64_t unused;        // 72
    uint32_t min_bits;      // 80
    uint32_t max_bits;      // 84
};

void kai_run_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot(
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
    args.chunks = bl / 16;
    args.rhs_stride = kai_mul_size_checked(nr * nb, bl / 2 + 2);
    args.scale_off = kai_mul_size_checked(nr, k / 2);
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
        // pointer, x15 RHS data pointer, x16 RHS scale pointer, x17 block counter, x12 chunk counter / column.
        // z0: 16 LHS bytes in every 128-bit segment; z12-z15 RHS units, then 16 w of their high nibbles; z4-z7 16 w of the low ones; z16-z19 int32 sums; z24-z27
        // f32 accumulators; z28 / z29 clamp bounds; z31 zero.
        register const struct kai_args* a __asm__("x0") = &args;
        __asm__ volatile(
            "ldp x1, x2, [x0, #0]\n"
            "ldp x3, x5, [x0, #16]\n"
            "ldp x6, x7, [x0, #32]\n"
            "ldp x9, x10, [x0, #48]\n"
            "ldr x11, [x0, #64]\n"
            ".inst 0xd503437f\n"  // smstart sm
            ".inst 0x2518e3e0\n"  // ptrue p0.b
            ".inst 0x8554c01c\n"  // ld1rw {z28.s}, p0/z, [x0, #80]
            ".inst 0x8555c01d\n"  // ld1rw {z29.s}, p0/z, [x0, #84]
            ".inst 0x25b8c01f\n"  // mov z31.s, #0
            "mov x4, #0\n"
            "1:\n"  // column tiles of 4VL
            ".inst 0x25b8c018\n"  // mov z24.s, #0
            ".inst 0x25b8c019\n"  // mov z25.s, #0
            ".inst 0x25b8c01a\n"  // mov z26.s, #0
            ".inst 0x25b8c01b\n"  // mov z27.s, #0
            "mov x13, x1\n"
            "mov x14, x2\n"
            "mov x15, x3\n"
            "add x16, x3, x11\n"
            "mov x17, x7\n"
            "2:\n"  // blocks
            ".inst 0x25b8c010\n"  // mov z16.s, #0
            ".inst 0x25b8c011\n"  // mov z17.s, #0
            ".inst 0x25b8c012\n"  // mov z18.s, #0
            ".inst 0x25b8c013\n"  // mov z19.s, #0
            "mov x12, x9\n"
            "3:\n"  // 16 values of the block: two packets
            ".inst 0xa40021a0\n"  // ld1rqb {z0.b}, p0/z, [x13]
            "add x13, x13, #16\n"
            ".inst 0xa540a1ec\n"  // ld1w {z12.s}, p0/z, [x15]
            ".inst 0xa541a1ed\n"  // ld1w {z13.s}, p0/z, [x15, #1, mul vl]
            ".inst 0xa542a1ee\n"  // ld1w {z14.s}, p0/z, [x15, #2, mul vl]
            ".inst 0xa543a1ef\n"  // ld1w {z15.s}, p0/z, [x15, #3, mul vl]
            ".inst 0x042c9d84\n"  // lsl z4.b, z12.b, #4  // 16 w of k = 8p .. 8p + 3
            ".inst 0x042c9da5\n"  // lsl z5.b, z13.b, #4
            ".inst 0x042c9dc6\n"  // lsl z6.b, z14.b, #4
            ".inst 0x042c9de7\n"  // lsl z7.b, z15.b, #4
            ".inst 0x0580266c\n"  // and z12.d, z12.d, #0xf0f0f0f0f0f0f0f0  // 16 w of k = 8p + 4 .. 8p + 7
            ".inst 0x0580266d\n"  // and z13.d, z13.d, #0xf0f0f0f0f0f0f0f0
            ".inst 0x0580266e\n"  // and z14.d, z14.d, #0xf0f0f0f0f0f0f0f0
            ".inst 0x0580266f\n"  // and z15.d, z15.d, #0xf0f0f0f0f0f0f0f0
            ".inst 0x44a00090\n"  // sdot z16.s, z4.b, z0.b[0]
            ".inst 0x44a000b1\n"  // sdot z17.s, z5.b, z0.b[0]
            ".inst 0x44a000d2\n"  // sdot z18.s, z6.b, z0.b[0]
            ".inst 0x44a000f3\n"  // sdot z19.s, z7.b, z0.b[0]
            ".inst 0x44a80190\n"  // sdot z16.s, z12.b, z0.b[1]
            ".inst 0x44a801b1\n"  // sdot z17.s, z13.b, z0.b[1]
            ".inst 0x44a801d2\n"  // sdot z18.s, z14.b, z0.b[1]
            ".inst 0x44a801f3\n"  // sdot z19.s, z15.b, z0.b[1]
            ".inst 0xa544a1ec\n"  // ld1w {z12.s}, p0/z, [x15, #4, mul vl]
            ".inst 0xa545a1ed\n"  // ld1w {z13.s}, p0/z, [x15, #5, mul vl]
            ".inst 0xa546a1ee\n"  // ld1w {z14.s}, p0/z, [x15, #6, mul vl]
            ".inst 0xa547a1ef\n"  // ld1w {z15.s}, p0/z, [x15, #7, mul vl]
            ".inst 0x042c9d84\n"  // lsl z4.b, z12.b, #4  // 16 w of k = 8p .. 8p + 3
            ".inst 0x042c9da5\n"  // lsl z5.b, z13.b, #4
            ".inst 0x042c9dc6\n"  // lsl z6.b, z14.b, #4
            ".inst 0x042c9de7\n"  // lsl z7.b, z15.b, #4
            ".inst 0x0580266c\n"  // and z12.d, z12.d, #0xf0f0f0f0f0f0f0f0  // 16 w of k = 8p + 4 .. 8p + 7
            ".inst 0x0580266d\n"  // and z13.d, z13.d, #0xf0f0f0f0f0f0f0f0
            ".inst 0x0580266e\n"  // and z14.d, z14.d, #0xf0f0f0f0f0f0f0f0
            ".inst 0x0580266f\n"  // and z15.d, z15.d, #0xf0f0f0f0f0f0f0f0
            ".inst 0x44b00090\n"  // sdot z16.s, z4.b, z0.b[2]
            ".inst 0x44b000b1\n"  // sdot z17.s, z5.b, z0.b[2]
            ".inst 0x44b000d2\n"  // sdot z18.s, z6.b, z0.b[2]
            ".inst 0x44b000f3\n"  // sdot z19.s, z7.b, z0.b[2]
            ".inst 0x44b80190\n"  // sdot z16.s, z12.b, z0.b[3]
            ".inst 0x44b801b1\n"  // sdot z17.s, z13.b, z0.b[3]
            ".inst 0x44b801d2\n"  // sdot z18.s, z14.b, z0.b[3]
            ".inst 0x44b801f3\n"  // sdot z19.s, z15.b, z0.b[3]
            ".inst 0x042f510f\n"  // addvl x15, x15, #8
            "subs x12, x12, #1\n"
            "b.ne 3b\n"
            // End of block: f32 acc += f32(16 I) * (a * d16).
            ".inst 0x6594a210\n"  // scvtf z16.s, p0/m, z16.s
            ".inst 0x6594a231\n"  // scvtf z17.s, p0/m, z17.s
            ".inst 0x6594a252\n"  // scvtf z18.s, p0/m, z18.s
            ".inst 0x6594a273\n"  // scvtf z19.s, p0/m, z19.s
            ".inst 0x84c0a1c1\n"  // ld1rh {z1.h}, p0/z, [x14]
            "add x14, x14, #2\n"
            ".inst 0xa4a0a202\n"  // ld1h {z2.h}, p0/z, [x16]
            ".inst 0xa4a1a203\n"  // ld1h {z3.h}, p0/z, [x16, #1, mul vl]
            ".inst 0x04305050\n"  // addvl x16, x16, #2
            ".inst 0x05636048\n"  // zip1 z8.h, z2.h, z3.h  // even halfwords: columns 0..VL-1, odd: 2VL..3VL-1
            ".inst 0x05636449\n"  // zip2 z9.h, z2.h, z3.h  // even: VL..2VL-1, odd: 3VL..4VL-1
            ".inst 0x0420bfe4\n"  // movprfx z4, z31
            ".inst 0x64a88024\n"  // fmlalb z4.s, z1.h, z8.h
            ".inst 0x0420bfe5\n"  // movprfx z5, z31
            ".inst 0x64a98025\n"  // fmlalb z5.s, z1.h, z9.h
            ".inst 0x0420bfe6\n"  // movprfx z6, z31
            ".inst 0x64a88426\n"  // fmlalt z6.s, z1.h, z8.h
            ".inst 0x0420bfe7\n"  // movprfx z7, z31
            ".inst 0x64a98427\n"  // fmlalt z7.s, z1.h, z9.h
            ".inst 0x65a40218\n"  // fmla z24.s, p0/m, z16.s, z4.s
            ".inst 0x65a50239\n"  // fmla z25.s, p0/m, z17.s, z5.s
            ".inst 0x65a6025a\n"  // fmla z26.s, p0/m, z18.s, z6.s
            ".inst 0x65a7027b\n"  // fmla z27.s, p0/m, z19.s, z7.s
            "subs x17, x17, #1\n"
            "b.ne 2b\n"
            // Clamp and store the tile (one predicate per vector).
            ".inst 0x65868398\n"  // fmax z24.s, p0/m, z24.s, z28.s
            ".inst 0x65868399\n"  // fmax z25.s, p0/m, z25.s, z28.s
            ".inst 0x6586839a\n"  // fmax z26.s, p0/m, z26.s, z28.s
            ".inst 0x6586839b\n"  // fmax z27.s, p0/m, z27.s, z28.s
            ".inst 0x658783b8\n"  // fmin z24.s, p0/m, z24.s, z29.s
            ".inst 0x658783b9\n"  // fmin z25.s, p0/m, z25.s, z29.s
            ".inst 0x658783ba\n"  // fmin z26.s, p0/m, z26.s, z29.s
            ".inst 0x658783bb\n"  // fmin z27.s, p0/m, z27.s, z29.s
            "mov x12, x4\n"
            ".inst 0x25a61581\n"  // whilelt p1.s, x12, x6
            ".inst 0xe540e4b8\n"  // st1w {z24.s}, p1, [x5]
            ".inst 0x04b0e3ec\n"  // incw x12
            ".inst 0x25a61581\n"  // whilelt p1.s, x12, x6
            ".inst 0xe541e4b9\n"  // st1w {z25.s}, p1, [x5, #1, mul vl]
            ".inst 0x04b0e3ec\n"  // incw x12
            ".inst 0x25a61581\n"  // whilelt p1.s, x12, x6
            ".inst 0xe542e4ba\n"  // st1w {z26.s}, p1, [x5, #2, mul vl]
            ".inst 0x04b0e3ec\n"  // incw x12
            ".inst 0x25a61581\n"  // whilelt p1.s, x12, x6
            ".inst 0xe543e4bb\n"  // st1w {z27.s}, p1, [x5, #3, mul vl]
            ".inst 0x04255085\n"  // addvl x5, x5, #4
            "add x3, x3, x10\n"
            ".inst 0x0430e3e4\n"  // incb x4
            "cmp x4, x6\n"
            "b.lo 1b\n"
            ".inst 0xd503467f\n"  // smstop  // streaming mode and ZA off (the caller's lazy ZA save is committed)
            :
            : "r"(a)
            : "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16",
              "x17", "z0", "z1", "z2", "z3", "z4", "z5", "z6", "z7", "z8", "z9", "z10", "z11", "z12", "z13", "z14",
              "z15", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "z16", "z17", "z18", "z19", "z20", "z21", "z22", "z23", "z24", "z25", "z26", "z27", "z28", "z29",
              "z30", "z31", "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13",
              "p14", "p15", "cc", "memory");
    }
}
