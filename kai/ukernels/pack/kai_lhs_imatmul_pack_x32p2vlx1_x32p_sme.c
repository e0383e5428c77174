//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// Gathers the chunks of each row through the pointer table and packs them in the x32p2vlx1 layout
// (docs/formats.md, "Indirect GEMM packed layouts"): blocks of mr = 2 * SVL / 32 rows; in a block, for each chunk
// and each k of the chunk, the mr values of that column (element (y, k) of chunk c at byte
// ((c * k_chunk_length + k) * mr + y) * 4 of the block). Rows past m are 0. The transposition runs through ZA in
// streaming mode: for each slab of VL = SVL / 32 values of a chunk, the block's rows are loaded as horizontal
// slices of za0 (rows 0..VL-1) and za1 (rows VL..2VL-1), then each column k is stored as the vertical slices
// za0v[k], za1v[k] (2VL contiguous values); ZA is zeroed per slab, so rows past m come out 0.

#if !defined(__aarch64__)
#error "kai_lhs_imatmul_pack_x32p2vlx1_x32p_sme needs AArch64"
#endif

#include "kai_lhs_imatmul_pack_x32p2vlx1_x32p_sme.h"

#include <stddef.h>
#include <stdint.h>

#include "kai/kai_common.h"

// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):
// a build that compiles this file and its copy at kai/ukernels/matmul/pack/ links once.
#pragma weak kai_get_lhs_packed_offset_lhs_imatmul_pack_x32p2vlx1_x32p_sme
#pragma weak kai_get_lhs_packed_size_lhs_imatmul_pack_x32p2vlx1_x32p_sme
#pragma weak kai_get_m_step_lhs_imatmul_pack_x32p2vlx1_x32p_sme
#pragma weak kai_run_lhs_imatmul_pack_x32p2vlx1_x32p_sme
// (end of the weak definitions)

// The most rows of a block: mr at the largest SVL, 2048 bits.
#define KAI_MAX_MR 128

// 2 * the 32-bit lanes of a streaming vector (RDSVL is valid outside streaming mode).
static size_t kai_mr(void) {
    register uint64_t svl_bytes __asm__("x0");
    __asm__ volatile(
        ".inst 0x04bf5820\n"  // rdsvl x0, #1
        : "=r"(svl_bytes));
    return (size_t)svl_bytes / sizeof(uint32_t) * 2;
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

// Arguments of the assembly body, read with ldr from x0 (offsets in the comments).
struct kai_args {
    const uint8_t* const* rows;  // 0: the block's row pointers (rows of the chunk), `height` of them
    uint64_t height;             // 8: rows of the block, 1 ... 2VL
    uint64_t width;              // 16: values per row (k_chunk_length)
    void* out;                   // 24: the chunk's packed bytes, width * 2VL * 4
};

// Packs one chunk of one block (docs/formats.md, "Indirect GEMM packed layouts") through ZA: one streaming-mode
// section. Register map: x1 rows, x2 height, x3 width, x4 out, x5 VL, x6 first k of the slab, x7 row pointer
// cursor, x8 row pointer, x9 row pairs left, x10 columns of the slab left, x11 min(height, VL), x13 rows of za1, w12 ZA slice.
static void kai_pack_chunk(const struct kai_args* args) {
    register const struct kai_args* a __asm__("x0") = args;
    __asm__ volatile(
        "ldp x1, x2, [x0, #0]\n"
        "ldp x3, x4, [x0, #16]\n"
        ".inst 0xd503477f\n"  // smstart
        ".inst 0x2598e3e1\n"  // ptrue p1.s
        ".inst 0x04a0e3e5\n"  // cntw x5
        "cmp x2, x5\n"
        "csel x11, x2, x5, lo\n"
        "sub x13, x2, x11\n"
        "mov x6, #0\n"
        "1:\n"  // slabs of VL values
        ".inst 0x25a314c0\n"  // whilelt p0.s, x6, x3
        ".inst 0xc00800ff\n"  // zero {za}
        "mov x7, x1\n"
        "mov w12, #0\n"
        // Loads `count` rows (pointers at x7 onwards) as horizontal slices w12, w12 + 1, ... of tile za<t>, two per
        // iteration (x9 pairs left), then the odd one. Lanes k0 + i >= width are 0 (p0).
        "lsr x9, x11, #1\n"
        "cbz x9, 3f\n"
        "2:\n"
        "ldr x8, [x7], #8\n"
        ".inst 0xe0860100\n"  // ld1w {za0h.s[w12, 0]}, p0/z, [x8, x6, lsl #2]
        "ldr x8, [x7], #8\n"
        ".inst 0xe0860101\n"  // ld1w {za0h.s[w12, 1]}, p0/z, [x8, x6, lsl #2]
        "add w12, w12, #2\n"
        "subs x9, x9, #1\n"
        "b.ne 2b\n"
        "3:\n"
        "tbz x11, #0, 30f\n"
        "ldr x8, [x7], #8\n"
        ".inst 0xe0860100\n"  // ld1w {za0h.s[w12, 0]}, p0/z, [x8, x6, lsl #2]
        "30:\n"
        "mov w12, #0\n"
        "lsr x9, x13, #1\n"
        "cbz x9, 9f\n"
        "8:\n"
        "ldr x8, [x7], #8\n"
        ".inst 0xe0860104\n"  // ld1w {za1h.s[w12, 0]}, p0/z, [x8, x6, lsl #2]
        "ldr x8, [x7], #8\n"
        ".inst 0xe0860105\n"  // ld1w {za1h.s[w12, 1]}, p0/z, [x8, x6, lsl #2]
        "add w12, w12, #2\n"
        "subs x9, x9, #1\n"
        "b.ne 8b\n"
        "9:\n"
        "tbz x13, #0, 90f\n"
        "ldr x8, [x7], #8\n"
        ".inst 0xe0860104\n"  // ld1w {za1h.s[w12, 0]}, p0/z, [x8, x6, lsl #2]
        "90:\n"
        "mov w12, #0\n"
        "4:\n"  // columns: min(VL, width - k0) of them, four at a time, then one at a time
        "sub x10, x3, x6\n"
        "cmp x10, x5\n"
        "csel x10, x10, x5, lo\n"
        "5:\n"
        "cmp x10, #4\n"
        "b.lo 6f\n"
        // Stores column w12 + i of the slab (ZA vertical slices za0v / za1v: 2VL values) at x4, then steps x4 on.
        ".inst 0xe0bf8480\n"  // st1w {za0v.s[w12, 0]}, p1, [x4]
        ".inst 0xe0a58484\n"  // st1w {za1v.s[w12, 0]}, p1, [x4, x5, lsl #2]
        ".inst 0x04245044\n"  // addvl x4, x4, #2
        ".inst 0xe0bf8481\n"  // st1w {za0v.s[w12, 1]}, p1, [x4]
        ".inst 0xe0a58485\n"  // st1w {za1v.s[w12, 1]}, p1, [x4, x5, lsl #2]
        ".inst 0x04245044\n"  // addvl x4, x4, #2
        ".inst 0xe0bf8482\n"  // st1w {za0v.s[w12, 2]}, p1, [x4]
        ".inst 0xe0a58486\n"  // st1w {za1v.s[w12, 2]}, p1, [x4, x5, lsl #2]
        ".inst 0x04245044\n"  // addvl x4, x4, #2
        ".inst 0xe0bf8483\n"  // st1w {za0v.s[w12, 3]}, p1, [x4]
        ".inst 0xe0a58487\n"  // st1w {za1v.s[w12, 3]}, p1, [x4, x5, lsl #2]
        ".inst 0x04245044\n"  // addvl x4, x4, #2
        "add w12, w12, #4\n"
        "sub x10, x10, #4\n"
        "b 5b\n"
        "6:\n"
        "cbz x10, 7f\n"
        ".inst 0xe0bf8480\n"  // st1w {za0v.s[w12, 0]}, p1, [x4]
        ".inst 0xe0a58484\n"  // st1w {za1v.s[w12, 0]}, p1, [x4, x5, lsl #2]
        ".inst 0x04245044\n"  // addvl x4, x4, #2
        "add w12, w12, #1\n"
        "sub x10, x10, #1\n"
        "b 6b\n"
        "7:\n"
        "add x6, x6, x5\n"
        "cmp x6, x3\n"
        "b.lo 1b\n"
        ".inst 0xd503467f\n"  // smstop
        :
        : "r"(a)
        // SMSTART / SMSTOP zero every Z and P register: all are clobbered, whatever the body uses.
        : "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "z0", "z1", "z2", "z3", "z4",
          "z5", "z6", "z7", "z8", "z9", "z10", "z11", "z12", "z13", "z14", "z15", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "z16", "z17", "z18", "z19", "z20",
          "z21", "z22", "z23", "z24", "z25", "z26", "z27", "z28", "z29", "z30", "z31", "p0", "p1", "p2", "p3", "p4",
          "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14", "p15", "cc", "memory");
}

size_t kai_get_m_step_lhs_imatmul_pack_x32p2vlx1_x32p_sme(void) {
    return kai_mr();
}

size_t kai_get_lhs_packed_offset_lhs_imatmul_pack_x32p2vlx1_x32p_sme(
    size_t m_idx, size_t k_chunk_count, size_t k_chunk_length) {
    KAI_ASSUME_MSG(m_idx % kai_mr() == 0, "m_idx must be a multiple of the m step");
    return kai_mul_size_checked(
        kai_mul_size_checked(m_idx, kai_mul_size_checked(k_chunk_count, k_chunk_length)), sizeof(uint32_t));
}

size_t kai_get_lhs_packed_size_lhs_imatmul_pack_x32p2vlx1_x32p_sme(
    size_t m, size_t k_chunk_count, size_t k_chunk_length) {
    return kai_get_lhs_packed_offset_lhs_imatmul_pack_x32p2vlx1_x32p_sme(
        kai_roundup(m, kai_mr()), k_chunk_count, k_chunk_length);
}

void kai_run_lhs_imatmul_pack_x32p2vlx1_x32p_sme(
    size_t m, size_t k_chunk_count, size_t k_chunk_length, const void* const* lhs_ptrs, size_t lhs_ptr_offset,
    const void* pad_ptr, void* lhs_packed) {
    if (m == 0) {
        return;
    }
    KAI_ASSUME_MSG(lhs_ptrs != NULL, "lhs_ptrs must not be NULL");
    KAI_ASSUME_MSG(lhs_packed != NULL, "lhs_packed must not be NULL");
    const size_t mr = kai_mr();
    // Bytes of one chunk of a block: k_chunk_length groups of mr values (checked once; every offset below is less).
    const size_t chunk_bytes = kai_mul_size_checked(kai_mul_size_checked(k_chunk_length, mr), sizeof(uint32_t));
    (void)kai_get_lhs_packed_size_lhs_imatmul_pack_x32p2vlx1_x32p_sme(m, k_chunk_count, k_chunk_length);

    KAI_ASSUME_MSG(mr <= KAI_MAX_MR, "the streaming vector length must be at most 2048 bits");
    if (k_chunk_length == 0) {
        return;
    }
    const uint8_t* rows[KAI_MAX_MR];
    struct kai_args args;
    args.rows = rows;
    args.width = k_chunk_length;

    kai_commit_za();

    uint8_t* out = (uint8_t*)lhs_packed;
    for (size_t m0 = 0; m0 < m; m0 += mr) {
        const size_t height = KAI_MIN(m - m0, mr);
        const void* const* block_ptrs = lhs_ptrs + m0 * k_chunk_count;
        args.height = height;
        for (size_t c = 0; c < k_chunk_count; ++c) {
            for (size_t y = 0; y < height; ++y) {
                // Integer arithmetic: a table of offsets (lhs_ptr_offset the base address) may hold a NULL entry.
                const void* ptr = block_ptrs[c * mr + y];
                rows[y] = (const uint8_t*)ptr;
                if (ptr != pad_ptr) {
                    rows[y] = (const uint8_t*)((uintptr_t)ptr + lhs_ptr_offset);
                }
            }
            args.out = out;
            kai_pack_chunk(&args);
            out += chunk_bytes;
        }
    }
}
