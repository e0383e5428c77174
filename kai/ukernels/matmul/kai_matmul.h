//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

/// @file
/// KleidiAI's generic matmul API: one function per kernel returns the kernel's kai_matmul_uker_api (kai/ukernels/matmul/kai_matmul_types.h).
///
/// kai declares every function KleidiAI v1.30.0 declares here, with the same name and signature, so that
/// engine code including this header compiles unchanged; kai defines none of them yet (its kernels have the
/// per-kernel interface of their own headers instead), so a program that calls one links only against
/// KleidiAI's definition. See docs/integration.md, "Generic API headers".

#ifndef KAI_UKERNELS_MATMUL_KAI_MATMUL_H
#define KAI_UKERNELS_MATMUL_KAI_MATMUL_H

#include "kai/ukernels/matmul/kai_matmul_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the kai_matmul_uker_api of kai_matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa.
struct kai_matmul_uker_api kai_matmul_clamp_f32_f32p4vsx1_f32p4vsx1bf32_8vsx8vs_sme2_mopa(void);

/// Returns the kai_matmul_uker_api of kai_matmul_i32_u8p4vsx4_u8p4vsx4_i32_i32_8vsx8vs_sme2_mopa.
struct kai_matmul_uker_api kai_matmul_i32_u8p4vsx4_u8p4vsx4_i32_i32_8vsx8vs_sme2_mopa(void);

/// Returns the kai_matmul_uker_api of kai_matmul_clamp_f32_u8p4vsx4_u8p4vsx4_i32_i32_f32_f32_8vsx8vs_sme2_mopa.
struct kai_matmul_uker_api kai_matmul_clamp_f32_u8p4vsx4_u8p4vsx4_i32_i32_f32_f32_8vsx8vs_sme2_mopa(void);

/// Returns the kai_matmul_uker_api of kai_matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla.
struct kai_matmul_uker_api kai_matmul_clamp_f32_f32_f32p4vsx1bf32_1x32vs_sme2_mla(void);

/// Returns the kai_matmul_uker_api of kai_matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot.
struct kai_matmul_uker_api kai_matmul_clamp_f16_f16_f16p16vsx2bf16_6x16vs_sve2p1_dot(void);

/// Returns the kai_matmul_uker_api of kai_matmul_clamp_qai8_qai8p8vsx4_qsi4cxp8vsx4sf32bi32_8vsx8vs_sme2_mopa.
struct kai_matmul_uker_api kai_matmul_clamp_qai8_qai8p8vsx4_qsi4cxp8vsx4sf32bi32_8vsx8vs_sme2_mopa(void);

/// Returns the kai_matmul_uker_api of kai_matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4bi32sf32_8vsx8vs_sme2_mopa.
struct kai_matmul_uker_api kai_matmul_clamp_qai8_qai8p4vsx4_qsi8cxp4vsx4bi32sf32_8vsx8vs_sme2_mopa(void);

/// Returns the kai_matmul_uker_api of kai_matmul_clamp_qai8_qai8_qsi8cxp4vsx4bi32sf32_1x32vs_sme2_dot.
struct kai_matmul_uker_api kai_matmul_clamp_qai8_qai8_qsi8cxp4vsx4bi32sf32_1x32vs_sme2_dot(void);

/// Returns the kai_matmul_uker_api of kai_matmul_clamp_qai8_qai8_qsi4cxp8vsx4sf32bi32_1x64vs_sme2_dot.
struct kai_matmul_uker_api kai_matmul_clamp_qai8_qai8_qsi4cxp8vsx4sf32bi32_1x64vs_sme2_dot(void);

#ifdef __cplusplus
}
#endif

#endif  // KAI_UKERNELS_MATMUL_KAI_MATMUL_H
