//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// KleidiAI's generic RHS packer API: one function per packer returns the packer's kai_matmul_pack_rhs_uker_api (kai/ukernels/matmul/kai_matmul_pack_rhs_types.h).
///
/// kai declares every function KleidiAI v1.30.0 declares here, with the same name and signature, so that
/// engine code including this header compiles unchanged; kai defines none of them yet (its kernels have the
/// per-kernel interface of their own headers instead), so a program that calls one links only against
/// KleidiAI's definition. See docs/integration.md, "Generic API headers".

#ifndef KAI_UKERNELS_MATMUL_KAI_MATMUL_PACK_RHS_H
#define KAI_UKERNELS_MATMUL_KAI_MATMUL_PACK_RHS_H

#include "kai/ukernels/matmul/kai_matmul_pack_rhs_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the kai_matmul_pack_rhs_uker_api of kai_rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve.
struct kai_matmul_pack_rhs_uker_api kai_rhs_pack_kxn_x16p16vsx2bx16_x16_x16_sve(void);

/// Returns the kai_matmul_pack_rhs_uker_api of kai_matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme.
struct kai_matmul_pack_rhs_uker_api kai_matmul_pack_rhs_kxn_x32p4vsx1bx32_x32_x32_sme(void);

/// Returns the kai_matmul_pack_rhs_uker_api of kai_matmul_pack_rhs_nxk_x32p4vsx1bx32_x32_x32_sme.
struct kai_matmul_pack_rhs_uker_api kai_matmul_pack_rhs_nxk_x32p4vsx1bx32_x32_x32_sme(void);

/// Returns the kai_matmul_pack_rhs_uker_api of kai_matmul_pack_rhs_nxk_x8p4vsx4_x8_sme.
struct kai_matmul_pack_rhs_uker_api kai_matmul_pack_rhs_nxk_x8p4vsx4_x8_sme(void);

/// Returns the kai_matmul_pack_rhs_uker_api of kai_matmul_pack_rhs_kxn_x8p4vsx4_x8_sme.
struct kai_matmul_pack_rhs_uker_api kai_matmul_pack_rhs_kxn_x8p4vsx4_x8_sme(void);

/// Returns the kai_matmul_pack_rhs_uker_api of kai_matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme.
struct kai_matmul_pack_rhs_uker_api kai_matmul_pack_rhs_kxn_qsi8cxp4vsx4bi32sf32_qsi8_i32_f32_sme(void);

/// Returns the kai_matmul_pack_rhs_uker_api of kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme.
struct kai_matmul_pack_rhs_uker_api kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme(void);

/// Returns the kai_matmul_pack_rhs_uker_api of kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme.
struct kai_matmul_pack_rhs_uker_api kai_matmul_pack_rhs_kxn_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme(void);

/// Returns the kai_matmul_pack_rhs_uker_api of kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme.
struct kai_matmul_pack_rhs_uker_api kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsi4cx_f32_i32_sme(void);

/// Returns the kai_matmul_pack_rhs_uker_api of kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme.
struct kai_matmul_pack_rhs_uker_api kai_matmul_pack_rhs_nxk_qsi4cxp8vsx4sf32bi32_qsu4cx_f32_i32_sme(void);

#ifdef __cplusplus
}
#endif

#endif  // KAI_UKERNELS_MATMUL_KAI_MATMUL_PACK_RHS_H
