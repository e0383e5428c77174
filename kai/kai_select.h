//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// Optional run-time kernel selection: for each family, the best kernel a CPU can run for a
/// problem shape, and the GEMV/GEMM pair that reads one packed RHS buffer. Nothing in kai's
/// kernels depends on this file. Header-only: it references (links) every kernel of the families
/// it selects from; every function is static inline, so it compiles for baseline Armv8-A and only
/// calls getters of kernels whose features the caller's mask has (Bazel target //kai:kai_select). The features argument is the mask of
/// kai/kai_cpu.h (kai_cpu_get_features(), or a mask you build yourself).
///
/// Preference order (docs/integration.md, "Runtime dispatch"). Each family's table below
/// lists every matmul kernel of that family in kai/kernels.bzl, once, in this order;
/// test/tests/kai_select_test.cc checks that against the generated registry, so a kernel added to
/// kernels.bzl and not to the table (or the reverse) fails the build's tests:
///
/// | family    | GEMM order (m > 1)                          | GEMV order (m == 1)             |
/// |-----------|---------------------------------------------|---------------------------------|
/// | bf16      | 8x12 mmla (bf16)                            | 1x36 dot (bf16)                 |
/// | bf16o     | 8x12 mmla (bf16)                            | 1x36 dot (bf16)                 |
/// | qsi4cxp   | 16x4x32, 8x8x32, 8x4x32, 4x8x32, 4x4x32     | 1x8x32, 1x4x32, 1x4 dotprod     |
/// |           |   i8mm; 16x4x32, 8x8x32 dotprod             |                                 |
/// | qsi4c32p  | 12x4x32, 16x4x32, 8x4x32, 4x8x32, 4x8 i8mm; | 1x8x32, 1x4x32, 1x8, 1x8 (kbl   |
/// |           |   16x4, 4x8 dotprod                         |   4), 1x4 dotprod               |
/// | qsi8d32p  | 16x8 sve_i8mm*, 16x4 i8mm, 8x4x32 i8mm,     | 1x8 sve_dotprod*, 1x4 dotprod,  |
/// |           |   16x4 dotprod, 4x4 plain neon              |   1x4x32 dotprod, 1x4 plain neon|
/// | qsi8cxp   | 1vlx4vl sme2_mopa+, 1vlx4vl sme_mopa+,      | 1x4vl sme2_dot+, 1x4vl sme_dot+,|
/// |           |   16x4 i8mm, 16x4 dotprod, 4x4 plain neon   |   1x4 dotprod, 1x8 (1x4) dotprod|
/// |           |                                             |   1x4 plain neon                |
/// | f32p_f32p | 2vlx2vl sme2_mopa+, 2vlx2vl sme_mopa+       | (none: the GEMMs serve m == 1)  |
/// | f32_f32p  | (none)                                      | 1x16vl sme2_mla+ (m == 1 only)  |
/// | bf16p_sme | 2vlx2vl sme2_mopa+                          | (none: the GEMM serves m == 1)  |
/// | f32_bf16p | (none)                                      | 1x16vl sme2_dot+ (m == 1 only)  |
///
/// (+) SME / SME2 kernels: only when the mask has KAI_CPU_FEATURE_SME / KAI_CPU_FEATURE_SME2 (kai_cpu.h, from
/// HWCAP2). Their getters read the streaming vector length (RDSVL) of the calling thread, so a mask with those
/// bits must describe the CPU that runs the code (kai_cpu_get_features()); selection itself never calls a getter
/// (the GEMV / GEMM split comes from the tile in the name). Packed buffers are per SVL (docs/matmul_sme.md).
/// The f32 and bf16 SME families come in GEMM / GEMV pairs that read one packed RHS: kai_select_sme_f32() and
/// kai_select_sme_bf16() return both, and an engine calls the GEMV for m == 1 (decode) and the GEMM otherwise
/// (the bf16 SME2 GEMV does 1/32 of the MOPA's MAC work at m == 1, docs/matmul_sme.md "When to pick which").
///
/// (*) SVE kernels: only when the mask has FEAT_SVE and an SVE vector length of at least 32 bytes
/// (256 bits) in its vector-length field, as kai_cpu_get_features() reports it; a mask without the
/// length (VL field 0) never selects them, since they abort at 128 bits.
///
/// (The order follows the modelled call efficiency in docs/performance.md, and for the SVE
/// kernels their instruction counts there.) Rule: for m == 1
/// the first GEMV (m_step 1) in order whose features the CPU has, else the first such GEMM; for
/// m > 1 the first GEMM, else the first GEMV that accepts m > 1 (the bf16 GEMVs do not). A kernel
/// is never returned unless every feature it needs is in `features`: on a CPU with none of them the
/// result is NULL. The plain Armv8.0 NEON kernels (kernels.bzl features []: qsi8cxp and qsi8d32p so far) need
/// KAI_CPU_FEATURE_NEON, which kai_cpu_get_features() always reports on AArch64. NULL too when the shape breaks a precondition every kernel of the family has
/// (k == 0; for the block-wise families bl not a non-zero multiple of 32 or k not a multiple of bl).
/// m == 0 is treated as m == 1; n does not change the choice today (it is in the signature so that
/// a future tile choice can use it).

#ifndef KAI_SELECT_H
#define KAI_SELECT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kai/kai_cpu.h"
#include "kai/ukernels/matmul/matmul_clamp_bf16_bf16p_bf16p/kai_matmul_clamp_bf16_bf16p_bf16p_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p/kai_matmul_clamp_f32_bf16p_bf16p_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp_qsi4c32p_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp_qsi8cxp_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_4x4_neon.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp_qsi4cxp_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_f32p_f32p/kai_matmul_clamp_f32_f32p_f32p_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_f32_f32p/kai_matmul_clamp_f32_f32_f32p_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_f32_bf16p/kai_matmul_clamp_f32_f32_bf16p_interface.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp/kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_f32p_f32p/kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_f32p_f32p/kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_f32_f32p/kai_matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla.h"
#include "kai/ukernels/matmul/matmul_clamp_fp32_bf16p_bf16p/kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_f32_bf16p/kai_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot.h"

#include "kai/ukernels/matmul/matmul_clamp_bf16_bf16p_bf16p/kai_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot.h"
#include "kai/ukernels/matmul/matmul_clamp_bf16_bf16p_bf16p/kai_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p/kai_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p/kai_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_12x4x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p/kai_matmul_clamp_f32_qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_16x4x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_4x8x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_4x4x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp4x4_qsi4cxp8x4_8x8x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp/kai_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_4x4_neon.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm.h"
#include "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p/kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The GEMV (m_step 1) and the GEMM (m_step > 1) of a family that read the same packed RHS, the
/// one packed with (nr, kr, sr) (spec §18, "interchangeable packed buffers"). Either is NULL when
/// no kernel of that kind reads that layout or the CPU cannot run one. When both are non-NULL, one
/// RHS buffer packed once serves both; each needs its own packed LHS (mr differs).
struct kai_select_pair_bf16 {
    const struct kai_matmul_clamp_f32_bf16p_bf16p_ukernel* gemv;
    const struct kai_matmul_clamp_f32_bf16p_bf16p_ukernel* gemm;
};
struct kai_select_pair_bf16o {
    const struct kai_matmul_clamp_bf16_bf16p_bf16p_ukernel* gemv;
    const struct kai_matmul_clamp_bf16_bf16p_bf16p_ukernel* gemm;
};
struct kai_select_pair_qsi4cxp {
    const struct kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel* gemv;
    const struct kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel* gemm;
};
struct kai_select_pair_qsi4c32p {
    const struct kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel* gemv;
    const struct kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel* gemm;
};
struct kai_select_pair_qsi8d32p {
    const struct kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel* gemv;
    const struct kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel* gemm;
};
struct kai_select_pair_qsi8cxp {
    const struct kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel* gemv;
    const struct kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel* gemm;
};
struct kai_select_pair_f32p_f32p {
    const struct kai_matmul_clamp_f32_f32p_f32p_ukernel* gemv;
    const struct kai_matmul_clamp_f32_f32p_f32p_ukernel* gemm;
};
struct kai_select_pair_bf16p_sme {
    const struct kai_matmul_clamp_f32_bf16p_bf16p_ukernel* gemv;
    const struct kai_matmul_clamp_f32_bf16p_bf16p_ukernel* gemm;
};
struct kai_select_pair_f32_f32p {
    const struct kai_matmul_clamp_f32_f32_f32p_ukernel* gemv;
    const struct kai_matmul_clamp_f32_f32_f32p_ukernel* gemm;
};
struct kai_select_pair_f32_bf16p {
    const struct kai_matmul_clamp_f32_f32_bf16p_ukernel* gemv;
    const struct kai_matmul_clamp_f32_f32_bf16p_ukernel* gemm;
};

/// The SME / SME2 f32 kernels that read one packed RHS (kai_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme): the GEMV
/// (unpacked f32 LHS row, m == 1 only) and the GEMM. Either is NULL when the CPU cannot run one.
struct kai_select_sme_f32 {
    const struct kai_matmul_clamp_f32_f32_f32p_ukernel* gemv;
    const struct kai_matmul_clamp_f32_f32p_f32p_ukernel* gemm;
};
/// The same for bf16 (RHS from kai_rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme): the bf16 SME2 GEMV and the SME2 MOPA.
struct kai_select_sme_bf16 {
    const struct kai_matmul_clamp_f32_f32_bf16p_ukernel* gemv;
    const struct kai_matmul_clamp_f32_bf16p_bf16p_ukernel* gemm;
};

/// One entry of the selection tables, for logging and for the consistency test.
struct kai_select_entry {
    const char* family;     ///< bf16 | bf16o | qsi4cxp | qsi4c32p | qsi8d32p | qsi8cxp | f32p_f32p | f32_f32p |
                            ///< bf16p_sme | f32_bf16p (as in kai/kernels.bzl)
    const char* name;       ///< full kernel name, e.g. "kai_matmul_clamp_f32_..."
    uint64_t features;      ///< KAI_CPU_FEATURE_* bits the kernel needs
    int gemv_only;          ///< 1 when the kernel accepts only m == 1
    size_t min_sve_vl;      ///< SVE vector length in bytes the kernel needs (0: not an SVE kernel)
    const void* ukernel;    ///< pointer to the family's interface struct (this translation unit's copy)
    void (*run)(void);      ///< the kernel's run function, for kai_select_name_of_run
};

#define KAI_SEL_NEON KAI_CPU_FEATURE_NEON  // the plain Armv8.0 kernels (kernels.bzl features [])
#define KAI_SEL_DOTPROD KAI_CPU_FEATURE_DOTPROD
#define KAI_SEL_I8MM KAI_CPU_FEATURE_I8MM
#define KAI_SEL_BF16 KAI_CPU_FEATURE_BF16
#define KAI_SEL_SVE KAI_CPU_FEATURE_SVE
#define KAI_SEL_SME KAI_CPU_FEATURE_SME
#define KAI_SEL_SME2 KAI_CPU_FEATURE_SME2

// X(family, interface struct, stem, features, gemv_only), best first within GEMMs and GEMVs.
#define KAI_SELECT_TABLE(X)                                                                                            \
    X(bf16, kai_matmul_clamp_f32_bf16p_bf16p_ukernel, matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla, KAI_SEL_BF16, 0, 0) \
    X(bf16, kai_matmul_clamp_f32_bf16p_bf16p_ukernel, matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot, KAI_SEL_BF16, 1, 0) \
    X(bf16o, kai_matmul_clamp_bf16_bf16p_bf16p_ukernel, matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla, KAI_SEL_BF16, \
      0, 0)                                                                                                            \
    X(bf16o, kai_matmul_clamp_bf16_bf16p_bf16p_ukernel, matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot, KAI_SEL_BF16, 1, 0) \
    X(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_16x4x32_neon_i8mm, KAI_SEL_I8MM, 0, 0)                                    \
    X(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel, matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm,  \
      KAI_SEL_I8MM, 0, 0)                                                                                              \
    X(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel, matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm,  \
      KAI_SEL_I8MM, 0, 0)                                                                                              \
    X(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_4x8x32_neon_i8mm, KAI_SEL_I8MM, 0, 0)                                    \
    X(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_4x4x32_neon_i8mm, KAI_SEL_I8MM, 0, 0)                                    \
    X(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                                    \
    X(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp4x4_qsi4cxp8x4_8x8x32_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                                    \
    X(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                               \
    X(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                               \
    X(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                                    \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                         \
      matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_12x4x32_neon_i8mm, KAI_SEL_I8MM, 0, 0)                                   \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                         \
      matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm, KAI_SEL_I8MM, 0, 0)                                   \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                         \
      matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm, KAI_SEL_I8MM, 0, 0)                                    \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm, KAI_SEL_I8MM, 0, 0)                                    \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8_neon_i8mm, KAI_SEL_I8MM, 0, 0)                                    \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                                    \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                                    \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                         \
      matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                              \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                         \
      matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                              \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                                    \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                                    \
    X(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                                    \
    X(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel,                                                        \
      matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm, KAI_SEL_SVE | KAI_SEL_I8MM, 0, 32)                       \
    X(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel,                                                        \
      matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod, KAI_SEL_SVE | KAI_SEL_DOTPROD, 0, 32)                  \
    X(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel,                                                        \
      matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm, KAI_SEL_I8MM, 0, 0)                                     \
    X(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel,                                                        \
      matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm, KAI_SEL_I8MM, 0, 0)                                   \
    X(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel,                                                        \
      matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                               \
    X(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel,                                                        \
      matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                                \
    X(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel,                                                        \
      matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                              \
    X(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel,                                                        \
      matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_4x4_neon, KAI_SEL_NEON, 0, 0)                                            \
    X(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel,                                                        \
      matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon, KAI_SEL_NEON, 0, 0)                                            \
    X(qsi8cxp, kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa, KAI_SEL_SME2, 0, 0)                                \
    X(qsi8cxp, kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa, KAI_SEL_SME, 0, 0)                                  \
    X(qsi8cxp, kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot, KAI_SEL_SME2, 0, 0)                                     \
    X(qsi8cxp, kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot, KAI_SEL_SME, 0, 0)                                       \
    X(qsi8cxp, kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm, KAI_SEL_I8MM, 0, 0)                                       \
    X(qsi8cxp, kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                                 \
    X(qsi8cxp, kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                                  \
    X(qsi8cxp, kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod, KAI_SEL_DOTPROD, 0, 0)                                  \
    X(qsi8cxp, kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_4x4_neon, KAI_SEL_NEON, 0, 0)                                             \
    X(qsi8cxp, kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel,                                                           \
      matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon, KAI_SEL_NEON, 0, 0)                                             \
    X(f32p_f32p, kai_matmul_clamp_f32_f32p_f32p_ukernel, matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa,       \
      KAI_SEL_SME2, 0, 0)                                                                                              \
    X(f32p_f32p, kai_matmul_clamp_f32_f32p_f32p_ukernel, matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa,      \
      KAI_SEL_SME, 0, 0)                                                                                               \
    X(bf16p_sme, kai_matmul_clamp_f32_bf16p_bf16p_ukernel, matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa,   \
      KAI_SEL_SME2, 0, 0)

// The GEMVs with an unpacked f32 LHS (interfaces without get_mr, with get_lhs_offset and an lhs_stride argument).
#define KAI_SELECT_TABLE_LHS_ROW(X)                                                                                    \
    X(f32_f32p, kai_matmul_clamp_f32_f32_f32p_ukernel, matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla, KAI_SEL_SME2,  \
      1, 0)                                                                                                            \
    X(f32_bf16p, kai_matmul_clamp_f32_f32_bf16p_ukernel, matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot,            \
      KAI_SEL_SME2, 1, 0)

// One interface struct per kernel, members in the interface's order.
#define KAI_SELECT_DEFINE(family, type, stem, features, gemv_only, min_sve_vl)                                         \
    static const struct type kai_sel_uk_##stem = {                                                                     \
        kai_get_m_step_##stem,       kai_get_n_step_##stem,         kai_get_mr_##stem,                                 \
        kai_get_nr_##stem,           kai_get_kr_##stem,             kai_get_sr_##stem,                                 \
        kai_get_lhs_packed_offset_##stem, kai_get_rhs_packed_offset_##stem, kai_get_dst_offset_##stem,                 \
        kai_get_dst_size_##stem,     kai_run_##stem};
KAI_SELECT_TABLE(KAI_SELECT_DEFINE)
#undef KAI_SELECT_DEFINE
#define KAI_SELECT_DEFINE_LHS_ROW(family, type, stem, features, gemv_only, min_sve_vl)                                 \
    static const struct type kai_sel_uk_##stem = {                                                                     \
        kai_get_m_step_##stem,  kai_get_n_step_##stem,          kai_get_nr_##stem,         kai_get_kr_##stem,         \
        kai_get_sr_##stem,      kai_get_lhs_offset_##stem,      kai_get_rhs_packed_offset_##stem,                      \
        kai_get_dst_offset_##stem, kai_get_dst_size_##stem,     kai_run_##stem};
KAI_SELECT_TABLE_LHS_ROW(KAI_SELECT_DEFINE_LHS_ROW)
#undef KAI_SELECT_DEFINE_LHS_ROW

#define KAI_SELECT_ENTRY(family, type, stem, features, gemv_only, min_sve_vl)                                          \
    {#family, "kai_" #stem, (features), (gemv_only), (min_sve_vl), &kai_sel_uk_##stem,                              \
     (void (*)(void))kai_run_##stem},
static const struct kai_select_entry kai_sel_table[] = {KAI_SELECT_TABLE(KAI_SELECT_ENTRY)
                                                            KAI_SELECT_TABLE_LHS_ROW(KAI_SELECT_ENTRY)};
#undef KAI_SELECT_ENTRY

/// Returns 1 when the CPU described by `features` runs the entry's kernel: every feature flag, and
/// for an SVE kernel a known vector length of at least the kernel's minimum.
static inline int kai_sel_runs(const struct kai_select_entry* e, uint64_t features) {
    return kai_cpu_has(features, e->features) && kai_cpu_sve_vl_bytes(features) >= e->min_sve_vl;
}

#define KAI_SEL_TABLE_SIZE (sizeof(kai_sel_table) / sizeof(kai_sel_table[0]))

/// Returns 1 for a GEMV (m_step 1): the tile in the name (grammar `_<m_step>x<n_step>...`) starts with "_1x".
/// Read from the name so that choosing never calls a getter (the SME ones need SME on the calling CPU).
static inline int kai_sel_is_gemv(const struct kai_select_entry* e) {
    return strstr(e->name, "_1x") != NULL;
}

static inline size_t kai_select_entries(const struct kai_select_entry** entries) {
    *entries = kai_sel_table;
    return KAI_SEL_TABLE_SIZE;
}

static inline const char* kai_select_name_of_run(void (*run)(void)) {
    if (run == NULL) return "(none)";
    for (size_t i = 0; i < KAI_SEL_TABLE_SIZE; ++i) {
        if (kai_sel_table[i].run == run) return kai_sel_table[i].name;
    }
    return "(unknown)";
}

// The selection rule, written once for every family (the interface structs of the families all
// start with get_m_step, get_n_step, get_mr, get_nr, get_kr, get_sr; each function below reads
// them through its own family's type).
#define KAI_SELECT_FUNCTIONS(fam, type)                                                                                \
    static inline const struct type* kai_sel_pick_##fam(uint64_t features, size_t m, int want_gemv) {                  \
        for (size_t i = 0; i < KAI_SEL_TABLE_SIZE; ++i) {                                                              \
            const struct kai_select_entry* e = &kai_sel_table[i];                                                      \
            if (strcmp(e->family, #fam) != 0 || !kai_sel_runs(e, features)) continue;                                  \
            if (e->gemv_only && m > 1) continue;                                                                       \
            const struct type* uk = (const struct type*)e->ukernel;                                                    \
            if (kai_sel_is_gemv(e) == (want_gemv != 0)) return uk;                                                     \
        }                                                                                                              \
        return NULL;                                                                                                   \
    }                                                                                                                  \
    static inline const struct type* kai_sel_select_##fam(uint64_t features, size_t m) {                               \
        if (m == 0) m = 1;                                                                                             \
        const struct type* first = kai_sel_pick_##fam(features, m, m == 1);                                            \
        return first != NULL ? first : kai_sel_pick_##fam(features, m, m != 1);                                        \
    }                                                                                                                  \
    static inline const struct type* kai_sel_pair_pick_##fam(uint64_t features, size_t nr, size_t kr, size_t sr, int gemv) { \
        for (size_t i = 0; i < KAI_SEL_TABLE_SIZE; ++i) {                                                              \
            const struct kai_select_entry* e = &kai_sel_table[i];                                                      \
            if (strcmp(e->family, #fam) != 0 || !kai_sel_runs(e, features)) continue;                                  \
            const struct type* uk = (const struct type*)e->ukernel;                                                    \
            if (kai_sel_is_gemv(e) != (gemv != 0)) continue;                                                           \
            if (uk->get_nr() == nr && uk->get_kr() == kr && uk->get_sr() == sr) return uk;                             \
        }                                                                                                              \
        return NULL;                                                                                                   \
    }                                                                                                                  \
    static inline struct kai_select_pair_##fam kai_select_pair_##fam(uint64_t features, size_t nr, size_t kr, size_t sr) { \
        struct kai_select_pair_##fam p;                                                                                \
        p.gemv = kai_sel_pair_pick_##fam(features, nr, kr, sr, 1);                                                     \
        p.gemm = kai_sel_pair_pick_##fam(features, nr, kr, sr, 0);                                                     \
        return p;                                                                                                      \
    }

KAI_SELECT_FUNCTIONS(bf16, kai_matmul_clamp_f32_bf16p_bf16p_ukernel)
KAI_SELECT_FUNCTIONS(bf16o, kai_matmul_clamp_bf16_bf16p_bf16p_ukernel)
KAI_SELECT_FUNCTIONS(qsi4cxp, kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel)
KAI_SELECT_FUNCTIONS(qsi4c32p, kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel)
KAI_SELECT_FUNCTIONS(qsi8d32p, kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel)
KAI_SELECT_FUNCTIONS(qsi8cxp, kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel)
KAI_SELECT_FUNCTIONS(f32p_f32p, kai_matmul_clamp_f32_f32p_f32p_ukernel)
KAI_SELECT_FUNCTIONS(bf16p_sme, kai_matmul_clamp_f32_bf16p_bf16p_ukernel)
KAI_SELECT_FUNCTIONS(f32_f32p, kai_matmul_clamp_f32_f32_f32p_ukernel)
KAI_SELECT_FUNCTIONS(f32_bf16p, kai_matmul_clamp_f32_f32_bf16p_ukernel)

// The block-wise families share the bl preconditions of every one of their kernels.
static inline int kai_sel_block_shape_ok(size_t k, size_t bl) {
    return k != 0 && bl != 0 && bl % 32 == 0 && k % bl == 0;
}

static inline const struct kai_matmul_clamp_f32_bf16p_bf16p_ukernel* kai_select_bf16(uint64_t features, size_t m, size_t n, size_t k) {
    (void)n;
    return k != 0 ? kai_sel_select_bf16(features, m) : NULL;
}

static inline const struct kai_matmul_clamp_bf16_bf16p_bf16p_ukernel* kai_select_bf16o(uint64_t features, size_t m, size_t n, size_t k) {
    (void)n;
    return k != 0 ? kai_sel_select_bf16o(features, m) : NULL;
}

static inline const struct kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel* kai_select_qsi4cxp(uint64_t features, size_t m, size_t n, size_t k) {
    (void)n;
    return k != 0 ? kai_sel_select_qsi4cxp(features, m) : NULL;
}

static inline const struct kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel* kai_select_qsi4c32p(
    uint64_t features, size_t m, size_t n, size_t k, size_t bl) {
    (void)n;
    return kai_sel_block_shape_ok(k, bl) ? kai_sel_select_qsi4c32p(features, m) : NULL;
}

static inline const struct kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel* kai_select_qsi8d32p(
    uint64_t features, size_t m, size_t n, size_t k, size_t bl) {
    (void)n;
    return kai_sel_block_shape_ok(k, bl) ? kai_sel_select_qsi8d32p(features, m) : NULL;
}

static inline const struct kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel* kai_select_qsi8cxp(uint64_t features, size_t m, size_t n, size_t k) {
    (void)n;
    return k != 0 ? kai_sel_select_qsi8cxp(features, m) : NULL;
}

/// SME / SME2 f32 GEMM (f32p_f32p): the SME2 MOPA, else the SME one; also for m == 1 (the family has no GEMV;
/// kai_select_f32_f32p gives the f32 GEMV that reads the same packed RHS). NULL without SME or when k == 0.
static inline const struct kai_matmul_clamp_f32_f32p_f32p_ukernel* kai_select_f32p_f32p(uint64_t features, size_t m, size_t n, size_t k) {
    (void)n;
    return k != 0 ? kai_sel_select_f32p_f32p(features, m) : NULL;
}

/// SME2 f32 GEMV (f32_f32p, unpacked f32 LHS row): for m <= 1 only (NULL for m > 1, without SME2, or k == 0).
static inline const struct kai_matmul_clamp_f32_f32_f32p_ukernel* kai_select_f32_f32p(uint64_t features, size_t m, size_t n, size_t k) {
    (void)n;
    return k != 0 ? kai_sel_select_f32_f32p(features, m) : NULL;
}

/// SME2 bf16 GEMM (bf16p_sme): the SME2 BFMOPA kernel, for any m (NULL without SME2 or when k == 0).
static inline const struct kai_matmul_clamp_f32_bf16p_bf16p_ukernel* kai_select_bf16p_sme(uint64_t features, size_t m, size_t n, size_t k) {
    (void)n;
    return k != 0 ? kai_sel_select_bf16p_sme(features, m) : NULL;
}

/// SME2 bf16 GEMV (f32_bf16p, unpacked f32 LHS row, reads the bf16p_sme GEMM's packed RHS): for m <= 1 only.
static inline const struct kai_matmul_clamp_f32_f32_bf16p_ukernel* kai_select_f32_bf16p(uint64_t features, size_t m, size_t n, size_t k) {
    (void)n;
    return k != 0 ? kai_sel_select_f32_bf16p(features, m) : NULL;
}

/// The f32 SME pair on one packed RHS: call gemv for m == 1 and gemm otherwise (gemm also serves m == 1 on
/// SME-only CPUs, where gemv is NULL).
static inline struct kai_select_sme_f32 kai_select_sme_f32(uint64_t features) {
    struct kai_select_sme_f32 p;
    p.gemv = kai_sel_select_f32_f32p(features, 1);
    p.gemm = kai_sel_select_f32p_f32p(features, 2);
    return p;
}

/// The bf16 SME2 pair on one packed RHS: the bf16 GEMV for m == 1 (decode), the BFMOPA GEMM otherwise.
static inline struct kai_select_sme_bf16 kai_select_sme_bf16(uint64_t features) {
    struct kai_select_sme_bf16 p;
    p.gemv = kai_sel_select_f32_bf16p(features, 1);
    p.gemm = kai_sel_select_bf16p_sme(features, 2);
    return p;
}

/// Returns the name of a kernel returned by any kai_select_* function: "(none)" for NULL,
/// "(unknown)" for an interface struct whose run_matmul is not one of the tables' kernels. Works on
/// any family's interface struct and across translation units (it compares run_matmul).
#define KAI_SELECT_NAME(uk)                                                                                            \
    ((uk) == NULL ? "(none)" : kai_select_name_of_run((void (*)(void))(uk)->run_matmul))

#ifdef __cplusplus
}
#endif

#endif  // KAI_SELECT_H
