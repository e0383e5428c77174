"""The one list of kai's micro-kernels and packers.

Everything else is derived from it: the Bazel libraries (kai/BUILD.bazel via kai/build_defs.bzl),
the test and benchmark registries (test/registry), and the docs tables. Keep the syntax plain so
a Python or CMake script can read it: one dict per line, string values and string lists only.

Keys:
  name      the kernel or packer name; its files are <dir>/<name>.c and <dir>/<name>.h
  family    bf16 | bf16o | qai8dxp | qsi4cxp | qsi4c32p | qsi8d32p
  kind      matmul | lhs_packer | rhs_packer
  dir       directory of the .c/.h pair, relative to the repository root
  features  CPU features the code needs beyond baseline Armv8.0 NEON: dotprod, i8mm, bf16, sve (SVE
            kernels: vector length >= 256 bits, checked at run time)

Keys of generated kernels only (an entry without "template" is written by hand). They are the
variant's parameters, declared here and nowhere else; tools/gen_kernels.py renders the files
from them, and the templates test and insert them (docs/adding_a_kernel.md):
  m_step    rows of the tile (the first number of the tile in the name; checked)
  n_step    columns of the tile (the second number; checked)
  mr, nr    rows per packed LHS block, columns per packed RHS block
  kr, sr    the packers' kr and sr
  form      asm: the full-tile K loop in inline assembly with an intrinsics twin (the KAI_*_NO_ASM
            switch, or tools/gen_kernels.py --intrinsics DIR); intrinsics: C with ACLE intrinsics only
  template  the templates in tools/templates/ that give the files: <t>.c.in gives <name>.c,
            <t>.h.in gives <name>.h (a kernel whose .c is hand-written lists only its .h template)
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
    {"name": "kai_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla", "family": "bf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p", "features": ["bf16"], "m_step": "8", "n_step": "12", "mr": "8", "nr": "12", "kr": "4", "sr": "1", "form": "intrinsics", "template": ["bf16_gemm.c.in", "bf16_gemm.h.in"]},
    {"name": "kai_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot", "family": "bf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p", "features": ["bf16"], "m_step": "1", "n_step": "36", "mr": "1", "nr": "12", "kr": "4", "sr": "1", "form": "intrinsics", "template": ["bf16_gemv.c.in", "bf16_gemv.h.in"]},
    {"name": "kai_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla", "family": "bf16o", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_bf16_bf16p_bf16p", "features": ["bf16"], "m_step": "8", "n_step": "12", "mr": "8", "nr": "12", "kr": "4", "sr": "1", "form": "asm", "template": ["bf16_gemm.h.in"]},
    {"name": "kai_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot", "family": "bf16o", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_bf16_bf16p_bf16p", "features": ["bf16"], "m_step": "1", "n_step": "36", "mr": "1", "nr": "12", "kr": "4", "sr": "1", "form": "intrinsics", "template": ["bf16_gemv.c.in", "bf16_gemv.h.in"]},
    # --- end bf16 ---
    # --- family qai8dxp (LHS quantizer of qsi4cxp and qsi4c32p) and qsi4cxp: docs/matmul_int4_channelwise.md ---
    {"name": "kai_lhs_quant_pack_qai8dxp_f32", "family": "qai8dxp", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0", "family": "qsi4cxp", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_kxn_qsi4cxp_qs4cxs1s0", "family": "qsi4cxp", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["i8mm"], "m_step": "8", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_i8mm.c.in", "qsi4cxp.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["i8mm"], "m_step": "8", "n_step": "8", "mr": "4", "nr": "8", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_i8mm.c.in", "qsi4cxp.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_16x4x32_neon_i8mm", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["i8mm"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_i8mm.c.in", "qsi4cxp.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["dotprod"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_dotprod.c.in", "qsi4cxp.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["dotprod"], "m_step": "1", "n_step": "8", "mr": "1", "nr": "8", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_dotprod.c.in", "qsi4cxp.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x4_qsi4cxp8x4_8x8x32_neon_dotprod", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["dotprod"], "m_step": "8", "n_step": "8", "mr": "4", "nr": "8", "kr": "8", "sr": "2", "form": "asm", "template": ["qsi4cxp_dotprod_gemm.c.in", "qsi4cxp.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["dotprod"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "8", "sr": "2", "form": "asm", "template": ["qsi4cxp_dotprod_gemm.c.in", "qsi4cxp.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_4x4x32_neon_i8mm", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["i8mm"], "m_step": "4", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "intrinsics", "template": ["qsi4cxp_i8mm_4xn.c.in", "qsi4cxp.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_4x8x32_neon_i8mm", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["i8mm"], "m_step": "4", "n_step": "8", "mr": "4", "nr": "8", "kr": "16", "sr": "2", "form": "intrinsics", "template": ["qsi4cxp_i8mm_4xn.c.in", "qsi4cxp.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["dotprod"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "8", "sr": "2", "form": "intrinsics", "template": ["qsi4cxp_dotprod_gemv4.c.in", "qsi4cxp.h.in"]},
    # --- end qsi4cxp ---
    # --- family qsi4c32p: docs/matmul_int4_blockwise.md ---
    {"name": "kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0", "family": "qsi4c32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0", "family": "qsi4c32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["i8mm"], "m_step": "8", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_i8mm.c.in", "qsi4c32p.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_12x4x32_neon_i8mm", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["i8mm"], "m_step": "12", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_i8mm.c.in", "qsi4c32p.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["i8mm"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_i8mm.c.in", "qsi4c32p.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_dotprod.c.in", "qsi4c32p.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"], "m_step": "1", "n_step": "8", "mr": "1", "nr": "8", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_dotprod.c.in", "qsi4c32p.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["i8mm"], "m_step": "4", "n_step": "8", "mr": "4", "nr": "8", "kr": "16", "sr": "2", "form": "intrinsics", "template": ["qsi4c32p_i8mm_4x8.c.in", "qsi4c32p.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8_neon_i8mm", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["i8mm"], "m_step": "4", "n_step": "8", "mr": "4", "nr": "8", "kr": "16", "sr": "2", "form": "intrinsics", "template": ["qsi4c32p_i8mm_4x8.c.in", "qsi4c32p.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "8", "sr": "2", "form": "asm", "template": ["qsi4c32p_dotprod_gemm.c.in", "qsi4c32p.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"], "m_step": "4", "n_step": "8", "mr": "4", "nr": "8", "kr": "8", "sr": "2", "form": "asm", "template": ["qsi4c32p_dotprod_gemm.c.in", "qsi4c32p.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"], "m_step": "1", "n_step": "8", "mr": "1", "nr": "8", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_dotprod.c.in", "qsi4c32p.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "8", "sr": "2", "form": "intrinsics", "template": ["qsi4c32p_dotprod_gemv4.c.in", "qsi4c32p.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"], "m_step": "1", "n_step": "8", "mr": "1", "nr": "8", "kr": "8", "sr": "2", "form": "intrinsics", "template": ["qsi4c32p_dotprod_gemv4.c.in", "qsi4c32p.h.in"]},
    # --- end qsi4c32p ---
    # --- family qsi8d32p (GGUF Q4_0): docs/matmul_q4_0.md ---
    {"name": "kai_lhs_quant_pack_qsi8d32p_f32", "family": "qsi8d32p", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_lhs_quant_pack_qsi8d32p4x8sb_f32_neon", "family": "qsi8d32p", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0", "family": "qsi8d32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["i8mm"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "intrinsics", "template": ["qsi8d32p_i8mm.c.in", "qsi8d32p_i8mm.h.in"]},
    {"name": "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["i8mm"], "m_step": "8", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "intrinsics", "template": ["qsi8d32p_i8mm.c.in", "qsi8d32p_i8mm.h.in"]},
    {"name": "kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["dotprod"]},
    {"name": "kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["dotprod"]},
    {"name": "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["dotprod"]},
    {"name": "kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["dotprod", "sve"]},
    {"name": "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["i8mm", "sve"]},
    # --- end qsi8d32p ---
]
