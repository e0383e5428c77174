"""The one list of kai's micro-kernels and packers.

Everything else is derived from it: the Bazel libraries (kai/BUILD.bazel via kai/build_defs.bzl),
the test and benchmark registries (test/registry), and the docs tables. Keep the syntax plain so
a Python or CMake script can read it: one dict per line, string values and string lists only.

Keys:
  name      the kernel or packer name; its files are <dir>/<name>.c and <dir>/<name>.h
  family    bf16 | bf16o | qai8dxp | qsi4cxp | qsi4c32p | qsi8d32p | f32p_f32p | f32_f32p | bf16p_sme | f32_bf16p
  kind      matmul | lhs_packer | rhs_packer
  dir       directory of the .c/.h pair, relative to the repository root
  features  CPU features the code needs beyond baseline Armv8.0 NEON: dotprod, i8mm, bf16, sme, sme2.
            sme / sme2 code (streaming SVE, ZA) is built by clang-19 in every configuration, the GCC build
            included (GCC 12 cannot compile SME: the toolchain wrapper hands any -march with +sme to clang);
            every other file builds with both compilers.
"""

KAI_KERNELS = [
    # --- family bf16 (f32 output) and bf16o (bf16 output): docs/matmul_bf16.md ---
    {"name": "kai_lhs_quant_pack_bf16p8x4_f32_neon", "family": "bf16", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": ["bf16"]},
    {"name": "kai_lhs_quant_pack_bf16p1x4_f32_neon", "family": "bf16", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": ["bf16"]},
    {"name": "kai_lhs_pack_bf16p8x4_bf16_neon", "family": "bf16", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_lhs_pack_bf16p1x4_bf16_neon", "family": "bf16", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon", "family": "bf16", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["bf16"]},
    {"name": "kai_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon", "family": "bf16", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["bf16"]},
    {"name": "kai_rhs_pack_kxn_bf16p12x4biasf32_bf16_neon", "family": "bf16", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_bf16p12x4biasf32_bf16_neon", "family": "bf16", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla", "family": "bf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p", "features": ["bf16"]},
    {"name": "kai_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot", "family": "bf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p", "features": ["bf16"]},
    {"name": "kai_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla", "family": "bf16o", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_bf16_bf16p_bf16p", "features": ["bf16"]},
    {"name": "kai_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot", "family": "bf16o", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_bf16_bf16p_bf16p", "features": ["bf16"]},
    # --- end bf16 ---
    # --- family qai8dxp (LHS quantizer of qsi4cxp and qsi4c32p) and qsi4cxp: docs/matmul_int4_channelwise.md ---
    {"name": "kai_lhs_quant_pack_qai8dxp_f32", "family": "qai8dxp", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0", "family": "qsi4cxp", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_kxn_qsi4cxp_qs4cxs1s0", "family": "qsi4cxp", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["i8mm"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["i8mm"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_16x4x32_neon_i8mm", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["i8mm"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["dotprod"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["dotprod"]},
    # --- end qsi4cxp ---
    # --- family qsi4c32p: docs/matmul_int4_blockwise.md ---
    {"name": "kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0", "family": "qsi4c32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0", "family": "qsi4c32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["i8mm"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_12x4x32_neon_i8mm", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["i8mm"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["i8mm"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"]},
    # --- end qsi4c32p ---
    # --- family qsi8d32p (GGUF Q4_0): docs/matmul_q4_0.md ---
    {"name": "kai_lhs_quant_pack_qsi8d32p_f32", "family": "qsi8d32p", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_lhs_quant_pack_qsi8d32p4x8sb_f32_neon", "family": "qsi8d32p", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0", "family": "qsi8d32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["i8mm"]},
    {"name": "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["i8mm"]},
    {"name": "kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["dotprod"]},
    {"name": "kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["dotprod"]},
    {"name": "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["dotprod"]},
    # --- end qsi8d32p ---
    # --- family f32p_f32p / f32_f32p (f32 SME/SME2), bf16p_sme and f32_bf16p (bf16 SME2): docs/matmul_sme.md ---
    {"name": "kai_lhs_pack_f32p2vlx1_f32_sme", "family": "f32p_f32p", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme", "family": "f32p_f32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_lhs_pack_bf16p2vlx2_f32_sme", "family": "bf16p_sme", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme", "family": "bf16p_sme", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa", "family": "f32p_f32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_f32p_f32p", "features": ["sme2"]},
    {"name": "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa", "family": "f32p_f32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_f32p_f32p", "features": ["sme"]},
    {"name": "kai_matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla", "family": "f32_f32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_f32_f32p", "features": ["sme2"]},
    {"name": "kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa", "family": "bf16p_sme", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_fp32_bf16p_bf16p", "features": ["sme2"]},
    {"name": "kai_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot", "family": "f32_bf16p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_f32_bf16p", "features": ["sme2"]},
    # --- end f32p_f32p / f32_f32p / bf16p_sme / f32_bf16p ---
]
