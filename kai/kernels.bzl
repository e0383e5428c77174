"""The one list of kai's micro-kernels and packers, and of their families.

Everything else is derived from the tables below, by tools/gen_kernels.py (committed files, kept
equal by `python3 tools/gen_kernels.py --check` in CI) or at build time by kai/build_defs.bzl:
the Bazel libraries, the registries and kai/kai_select.h's tables, the benchmark entries, the docs
tables, the CMake build (cmake/KaiList.cmake), the compatibility paths, the mutation tool's and the
perf report's families and the test-target lists of .ci/run (`python3 tools/kai_list.py targets`).
Python tools read the tables through tools/kai_list.py and nothing else.

Syntax (CMake and Python read the generated files or tools/kai_list.py, but keep it plain anyway):
one dict per line, string values and lists of strings only, new keys at the end of a line.

KAI_FAMILIES: one row per family (a family is a set of kernels with one interface header, or the
packers a family shares). Its name, "family", is the one used everywhere: in the entries, the
Bazel targets //kai:family_<family>, the registries' X-macros, the tools' --family options.
  family     the family's name
  title      what it is, in a few words (docs, perf report)
  doc        its document under docs/ (docs/kernels.md links every entry to it)
  suite      the test target that tests the family's kernels and packers (tools/mutate.py, .ci/run)
  reference  the portable reference library of test/reference/ that the suite checks against
  sme2       "1" when the suite runs under the SME2 emulator (its kernels need SME2)
  no_asm     the switches that select the intrinsics twin of every assembly K loop of the family
             (-D<switch>; .ci/run builds and tests the suite with them); [] when there is no asm
  select     the interface struct kai/kai_select.h returns for the family ("" when not selected);
             the kernels' "rank" keys order its table
  perf       the family's key in the perf tools' cases ("" when not measured) and, for tools/perf_report.py,
  perf_gemm  perf_gemv: the shapes it reports, "MxNxK" or "MxNxKxBL" (the first of each is the main one)

KAI_KERNELS: one entry per kernel or packer.
  name       the kernel or packer name; its files are <dir>/<name>.c and <dir>/<name>.h
  family     a family of KAI_FAMILIES
  kind       matmul | lhs_packer | rhs_packer
  dir        directory of the .c/.h pair, relative to the repository root
  features   CPU features the code needs beyond baseline Armv8.0 NEON: dotprod, i8mm, bf16, fp16
             (FEAT_FP16 arithmetic and conversions), sve (SVE kernels: vector length >= 256 bits,
             checked at run time), sme, sme2. The -march flag of each set of features is computed
             in one place, tools/kai_list.py march(); Bazel and CMake read it from the generated
             kai/kai_march.bzl and cmake/KaiList.cmake. sme / sme2 code (streaming SVE, ZA) gets
             baseline Armv8-A: its SME instructions are encoded words (tools/sme_encode.py), so
             every file builds with GCC 12 and clang-19 alike.
Keys of generated kernels only (an entry without "template" is written by hand); they are the
variant's parameters, declared here and nowhere else (docs/adding_a_kernel.md):
  m_step     rows of the tile (the first number of the tile in the name; checked)
  n_step     columns of the tile (the second number; checked)
  mr, nr     rows per packed LHS block, columns per packed RHS block
  kr, sr     the packers' kr and sr
  form       asm: the full-tile K loop in inline assembly, with its intrinsics twin in the same file
             behind the family's no_asm switch; intrinsics: C with ACLE intrinsics only
  template   the templates in tools/templates/ that give the files: <t>.c.in gives <name>.c,
             <t>.h.in gives <name>.h (a kernel whose .c is hand-written lists only its .h template)
  isa        (qai4c32p templates) the dot-product instruction the template renders: dotprod | i8mm
             (f16 SME templates) the SME level the template renders: sme2 | sme
  out        the destination type the template renders: bf16 or f16 (f32 when absent)
Keys of any matmul entry:
  rank       its place in kai/kai_select.h's preference order within its family (1 = first tried);
             a kernel of a selected family without a rank comes after the ranked ones, in list order
  gemv_only  "1": the kernel accepts only m == 1 (kai_select never returns it for m > 1)
  select     "0": kai_select leaves the kernel out of its family's table (it reads other packed layouts)
  note       what to use it for, in a few words (the family document's generated variant table)
  derive     (indirect GEMM kernels, docs/imatmul.md) the GEMM entry whose .c tools/gen_kernels.py rewrites
             into this kernel's .c (same body at depth k_chunk_count * k_chunk_length); with
  clamp      "fmin_fmax": the rewrite swaps the GEMM's clamp into KleidiAI's SME order (FMIN, then FMAX)

Two smaller tables stand before KAI_KERNELS (same plain syntax; add lines, never reorder):

KAI_PACKER_FEEDS says which packers feed which kernels (tools/vendor --with-packers, docs). Each
line names a family, the packers (entries of KAI_KERNELS) and "match": a kernel of that family is
fed by the line's packers when its name contains "match" ("" matches every kernel of the family).
Every kernel gets at least one LHS and one RHS packer (tools/check_tree.py checks it); a packer
that feeds only kernels kai does not have (KleidiAI's SME2 packers) stands on no line.

KAI_KLEIDIAI_ASM names the kernels and packers beside whose .c KleidiAI v1.30.0 ships <name>_asm.S
(a packer's is in kai/ukernels/matmul/pack/, where KleidiAI keeps it). kai keeps a file of that
name (generated by tools/gen_kernels.py, assembling to nothing where kai needs no separate
assembly) so that engines' source lists that name it keep working.

KAI_API_HEADERS names KleidiAI's generic API headers (kai_matmul.h and its packer and type headers) that kai
keeps at KleidiAI's paths: declarations only (docs/integration.md, "Generic API headers"), checked like every
header by test/dropin/check_paths.py.
"""

KAI_FAMILIES = [
    {"family": "bf16", "title": "BF16 (f32 output)", "doc": "docs/matmul_bf16.md", "suite": "//test/tests:bf16_test", "reference": "//test/reference:bf16", "sme2": "", "no_asm": [], "select": "kai_matmul_clamp_f32_bf16p_bf16p_ukernel", "perf": "bf16", "perf_gemm": ["256x256x256"], "perf_gemv": ["1x1024x1024"]},
    {"family": "bf16o", "title": "BF16 (bf16 output)", "doc": "docs/matmul_bf16.md", "suite": "//test/tests:bf16_test", "reference": "//test/reference:bf16", "sme2": "", "no_asm": ["KAI_BF16_NO_ASM"], "select": "kai_matmul_clamp_bf16_bf16p_bf16p_ukernel", "perf": "bf16o", "perf_gemm": ["256x256x256"], "perf_gemv": ["1x1024x1024"]},
    {"family": "bf16f16", "title": "BF16 on f16 data (f16 output)", "doc": "docs/matmul_bf16.md", "suite": "//test/tests:bf16f16_test", "reference": "//test/reference:bf16", "sme2": "", "no_asm": ["KAI_BF16_NO_ASM"], "select": "", "perf": "f16bf16", "perf_gemm": ["128x1024x1024"], "perf_gemv": ["1x1024x1024"]},
    {"family": "qai8dxp", "title": "int8 per-row LHS quantizers (qai8dxp)", "doc": "docs/matmul_int4_channelwise.md", "suite": "//test/tests:qsi4cxp_test", "reference": "//test/reference:qai8dxp", "sme2": "", "no_asm": [], "select": "", "perf": "", "perf_gemm": [], "perf_gemv": []},
    {"family": "qsi4cxp", "title": "INT4 per-channel (qai8dxp x qsi4cxp)", "doc": "docs/matmul_int4_channelwise.md", "suite": "//test/tests:qsi4cxp_test", "reference": "//test/reference:qsi4cxp", "sme2": "1", "no_asm": ["KAI_QSI4CXP_NO_ASM"], "select": "kai_matmul_clamp_f32_qai8dxp_qsi4cxp_ukernel", "perf": "cx", "perf_gemm": ["128x1024x1024"], "perf_gemv": ["1x4096x4096"]},
    {"family": "qsi4cxpf16", "title": "INT4 per-channel, f16 output (qai8dxp x qsi4cxp)", "doc": "docs/matmul_int4_channelwise.md", "suite": "//test/tests:qsi4cxpf16_test", "reference": "//test/reference:qsi4cxp", "sme2": "", "no_asm": ["KAI_QSI4CXP_NO_ASM"], "select": "", "perf": "f16cx", "perf_gemm": ["128x1024x1024"], "perf_gemv": ["1x4096x4096"]},
    {"family": "bf16_qsi4cxp", "title": "INT4 per-channel, bf16 output (qai8dxp x qsi4cxp)", "doc": "docs/matmul_int4_channelwise.md", "suite": "//test/tests:qai8dxp_bf16_test", "reference": "//test/reference:qsi4cxp", "sme2": "", "no_asm": ["KAI_QSI4CXP_NO_ASM"], "select": "", "perf": "bf16cx", "perf_gemm": ["128x1024x1024"], "perf_gemv": ["1x4096x4096"]},
    {"family": "qsi4c32p", "title": "INT4 block-wise (qai8dxp x qsi4c32p)", "doc": "docs/matmul_int4_blockwise.md", "suite": "//test/tests:qsi4c32p_test", "reference": "//test/reference:qsi4c32p", "sme2": "", "no_asm": ["KAI_QSI4C32P_NO_ASM"], "select": "kai_matmul_clamp_f32_qai8dxp_qsi4c32p_ukernel", "perf": "c32", "perf_gemm": ["128x1024x1024x32", "128x1024x1024x128"], "perf_gemv": ["1x4096x4096x32", "1x4096x4096x128"]},
    {"family": "bf16_qsi4c32p", "title": "INT4 block-wise, bf16 output (qai8dxp x qsi4c32p)", "doc": "docs/matmul_int4_blockwise.md", "suite": "//test/tests:qai8dxp_bf16_test", "reference": "//test/reference:qsi4c32p", "sme2": "", "no_asm": ["KAI_QSI4C32P_NO_ASM"], "select": "", "perf": "bf16c32", "perf_gemm": ["128x1024x1024x32", "128x1024x1024x128"], "perf_gemv": ["1x4096x4096x32", "1x4096x4096x128"]},
    {"family": "qsi8d32p", "title": "GGUF Q4_0 (qsi8d32p x qsi4c32p)", "doc": "docs/matmul_q4_0.md", "suite": "//test/tests:qsi8d32p_test", "reference": "//test/reference:qsi8d32p", "sme2": "", "no_asm": ["KAI_QSI8D32P_NO_ASM"], "select": "kai_matmul_clamp_f32_qsi8d32p_qsi4c32p_ukernel", "perf": "q40", "perf_gemm": ["128x1024x1024"], "perf_gemv": ["1x4096x4096"]},
    {"family": "qsi8cxp", "title": "INT8 per-channel (qai8dxp x qsi8cxp)", "doc": "docs/matmul_int8_channelwise.md", "suite": "//test/tests:qsi8cxp_test", "reference": "//test/reference:qsi8cxp", "sme2": "1", "no_asm": ["KAI_QSI8CXP_NO_ASM"], "select": "kai_matmul_clamp_f32_qai8dxp_qsi8cxp_ukernel", "perf": "i8cx", "perf_gemm": ["128x1024x1024"], "perf_gemv": ["1x4096x4096"]},
    {"family": "qsi8cxpf16", "title": "INT8 per-channel, f16 output (qai8dxp x qsi8cxp)", "doc": "docs/matmul_int8_channelwise.md", "suite": "//test/tests:qsi8cxpf16_test", "reference": "//test/reference:qsi8cxp", "sme2": "1", "no_asm": [], "select": "", "perf": "f16i8cx", "perf_gemm": ["128x1024x1024"], "perf_gemv": ["1x4096x4096"]},
    {"family": "f32p_f32p", "title": "f32 SME/SME2 GEMM (packed LHS)", "doc": "docs/matmul_sme.md", "suite": "//test/tests:sme_float_test", "reference": "//test/reference:sme_float", "sme2": "1", "no_asm": [], "select": "kai_matmul_clamp_f32_f32p_f32p_ukernel", "perf": "", "perf_gemm": [], "perf_gemv": []},
    {"family": "f32_f32p", "title": "f32 SME2 GEMV (unpacked LHS row)", "doc": "docs/matmul_sme.md", "suite": "//test/tests:sme_float_test", "reference": "//test/reference:sme_float", "sme2": "1", "no_asm": [], "select": "kai_matmul_clamp_f32_f32_f32p_ukernel", "perf": "", "perf_gemm": [], "perf_gemv": []},
    {"family": "bf16p_sme", "title": "bf16 SME2 GEMM", "doc": "docs/matmul_sme.md", "suite": "//test/tests:sme_float_test", "reference": "//test/reference:sme_float", "sme2": "1", "no_asm": [], "select": "kai_matmul_clamp_f32_bf16p_bf16p_ukernel", "perf": "", "perf_gemm": [], "perf_gemv": []},
    {"family": "f32_bf16p", "title": "bf16 SME2 GEMV (unpacked f32 LHS row)", "doc": "docs/matmul_sme.md", "suite": "//test/tests:sme_float_test", "reference": "//test/reference:sme_float", "sme2": "1", "no_asm": [], "select": "kai_matmul_clamp_f32_f32_bf16p_ukernel", "perf": "", "perf_gemm": [], "perf_gemv": []},
    {"family": "f16p_qsi4c32p", "title": "f16 activations x GGUF Q4_0, SME2", "doc": "docs/matmul_q4_0.md", "suite": "//test/tests:sme_q4_0_test", "reference": "//test/reference:f16p_qsi4c32p", "sme2": "1", "no_asm": [], "select": "", "perf": "", "perf_gemm": [], "perf_gemv": []},
    {"family": "qai4c32p", "title": "Asymmetric INT4 (qsi8d32p x qai4c32p, f32 output)", "doc": "docs/matmul_int4_asymmetric.md", "suite": "//test/tests:qai4c32p_test", "reference": "//test/reference:qai4c32p", "sme2": "", "no_asm": ["KAI_QAI4C32P_NO_ASM"], "select": "", "perf": "a4", "perf_gemm": ["128x1024x1024x32", "128x1024x1024x128"], "perf_gemv": ["1x4096x4096x32", "1x4096x4096x128"]},
    {"family": "f16_qai4c32p", "title": "Asymmetric INT4 (qsi8d32p x qai4c32p, f16 output)", "doc": "docs/matmul_int4_asymmetric.md", "suite": "//test/tests:qai4c32p_test", "reference": "//test/reference:qai4c32p", "sme2": "", "no_asm": ["KAI_QAI4C32P_NO_ASM"], "select": "", "perf": "f16a4", "perf_gemm": ["128x1024x1024x32", "128x1024x1024x128"], "perf_gemv": ["1x4096x4096x32", "1x4096x4096x128"]},
    {"family": "q4k", "title": "GGUF Q4_K (qsi8d256p x q4kp)", "doc": "docs/matmul_gguf_kquants.md", "suite": "//test/tests:kquant_test", "reference": "//test/reference:kquant", "sme2": "", "no_asm": [], "select": "", "perf": "", "perf_gemm": [], "perf_gemv": []},
    {"family": "q6k", "title": "GGUF Q6_K (qsi8d256p x q6kp)", "doc": "docs/matmul_gguf_kquants.md", "suite": "//test/tests:kquant_test", "reference": "//test/reference:kquant", "sme2": "", "no_asm": [], "select": "", "perf": "", "perf_gemm": [], "perf_gemv": []},
    {"family": "qsu2cxp", "title": "2-bit per-channel (qai8dxp x qsu2cxp, llama.cpp)", "doc": "docs/matmul_int2_channelwise.md", "suite": "//test/tests:qsu2cxp_test", "reference": "//test/reference:qsu2cxp", "sme2": "1", "no_asm": [], "select": "", "perf": "", "perf_gemm": [], "perf_gemv": []},
    {"family": "f16p_f16p", "title": "f16 SME/SME2 GEMM (f16 output, packed LHS)", "doc": "docs/matmul_sme.md", "suite": "//test/tests:sme_f16_test", "reference": "//test/reference:sme_f16", "sme2": "1", "no_asm": [], "select": "", "perf": "", "perf_gemm": [], "perf_gemv": []},
    {"family": "f16_f16p", "title": "f16 SME/SME2 GEMV (f16 output, unpacked LHS row)", "doc": "docs/matmul_sme.md", "suite": "//test/tests:sme_f16_test", "reference": "//test/reference:sme_f16", "sme2": "1", "no_asm": [], "select": "", "perf": "", "perf_gemm": [], "perf_gemv": []},
    {"family": "imatmul_f32p", "title": "f32 SME/SME2 indirect GEMM (pointer-table LHS)", "doc": "docs/imatmul.md", "suite": "//test/tests:imatmul_test", "reference": "//test/reference:imatmul", "sme2": "1", "no_asm": [], "select": "", "perf": "", "perf_gemm": [], "perf_gemv": []},
    {"family": "qai8p_qsi8cxpsb", "title": "Static int8 SME/SME2 (int8 x qsi8cxp, int8 output)", "doc": "docs/matmul_int8_static.md", "suite": "//test/tests:qai8_static_test", "reference": "//test/reference:qai8_static", "sme2": "1", "no_asm": [], "select": "", "perf": "", "perf_gemm": [], "perf_gemv": []},
    {"family": "qai8_qsi8cxp", "title": "Static int8 SME2 GEMV (int8 row x qsi8cxp, int8 output)", "doc": "docs/matmul_int8_static.md", "suite": "//test/tests:qai8_static_test", "reference": "//test/reference:qai8_static", "sme2": "1", "no_asm": [], "select": "", "perf": "", "perf_gemm": [], "perf_gemv": []},
    {"family": "f32_neon", "title": "f32 NEON GEMM (unpacked LHS, kxn RHS with bias)", "doc": "docs/matmul_f32.md", "suite": "//test/tests:f32_neon_test", "reference": "//test/reference:f32_neon", "sme2": "", "no_asm": [], "select": "", "perf": "", "perf_gemm": [], "perf_gemv": []},
    {"family": "imatmul_f16p", "title": "f16 SME/SME2 indirect GEMM (pointer-table LHS)", "doc": "docs/imatmul.md", "suite": "//test/tests:imatmul_test", "reference": "//test/reference:imatmul", "sme2": "1", "no_asm": [], "select": "", "perf": "", "perf_gemm": [], "perf_gemv": []},
]

KAI_PACKER_FEEDS = [
    {"family": "bf16", "match": "_bf16p8x4_", "packers": ["kai_lhs_quant_pack_bf16p8x4_f32_neon", "kai_lhs_pack_bf16p8x4_bf16_neon"]},
    {"family": "bf16", "match": "_bf16p1x4_", "packers": ["kai_lhs_quant_pack_bf16p1x4_f32_neon", "kai_lhs_pack_bf16p1x4_bf16_neon"]},
    {"family": "bf16", "match": "", "packers": ["kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon", "kai_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon", "kai_rhs_pack_kxn_bf16p12x4biasf32_bf16_neon", "kai_rhs_pack_nxk_bf16p12x4biasf32_bf16_neon"]},
    {"family": "bf16o", "match": "_bf16p8x4_", "packers": ["kai_lhs_quant_pack_bf16p8x4_f32_neon", "kai_lhs_pack_bf16p8x4_bf16_neon"]},
    {"family": "bf16o", "match": "_bf16p1x4_", "packers": ["kai_lhs_quant_pack_bf16p1x4_f32_neon", "kai_lhs_pack_bf16p1x4_bf16_neon"]},
    {"family": "bf16o", "match": "", "packers": ["kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon", "kai_rhs_quant_pack_nxk_bf16p12x4biasf32_f32_neon", "kai_rhs_pack_kxn_bf16p12x4biasf32_bf16_neon", "kai_rhs_pack_nxk_bf16p12x4biasf32_bf16_neon"]},
    {"family": "qsi4cxp", "match": "", "packers": ["kai_lhs_quant_pack_qai8dxp_f32", "kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0", "kai_rhs_pack_kxn_qsi4cxp_qs4cxs1s0"]},
    {"family": "qsi4c32p", "match": "", "packers": ["kai_lhs_quant_pack_qai8dxp_f32", "kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0", "kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0"]},
    {"family": "qsi8d32p", "match": "_qsi4c32p4x", "packers": ["kai_lhs_quant_pack_qsi8d32p_f32", "kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0"]},
    {"family": "qsi8d32p", "match": "_qsi4c32p8x", "packers": ["kai_lhs_quant_pack_qsi8d32p_f32", "kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0"]},
    {"family": "qsi8d32p", "match": "_i8mm", "packers": ["kai_lhs_quant_pack_qsi8d32p4x8sb_f32_neon"]},
    {"family": "qsi8d32p", "match": "_sme2_sdot", "packers": ["kai_lhs_quant_pack_qsi8d32p_f32_neon", "kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon"]},
    {"family": "qsi8d32p", "match": "_sme_dot", "packers": ["kai_lhs_quant_pack_qsi8d32p_f32_neon", "kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon"]},
    {"family": "qsi4c32p", "match": "", "packers": ["kai_rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon"]},
    {"family": "qsi4cxpf16", "match": "", "packers": ["kai_lhs_quant_pack_qai8dxp_f16_neon", "kai_lhs_quant_pack_qai8dxp_f32", "kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0", "kai_rhs_pack_kxn_qsi4cxp_qs4cxs1s0"]},
    {"family": "qsi8cxp", "match": "", "packers": ["kai_lhs_quant_pack_qai8dxp_f32", "kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon", "kai_rhs_pack_kxn_qsi8cxp_qsi8cx_neon"]},
    {"family": "qsi8cxpf16", "match": "", "packers": ["kai_lhs_quant_pack_qai8dxp_f16_neon", "kai_lhs_quant_pack_qai8dxp_f32", "kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon", "kai_rhs_pack_kxn_qsi8cxp_qsi8cx_neon"]},
    {"family": "f32p_f32p", "match": "", "packers": ["kai_lhs_pack_f32p2vlx1_f32_sme", "kai_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme"]},
    {"family": "f32_f32p", "match": "", "packers": ["kai_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme"]},
    {"family": "bf16p_sme", "match": "", "packers": ["kai_lhs_pack_bf16p2vlx2_f32_sme", "kai_rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme"]},
    {"family": "f32_bf16p", "match": "", "packers": ["kai_rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme"]},
    {"family": "bf16", "match": "_bf16p8x4_", "packers": ["kai_lhs_pack_bf16p8x4_f16_neon"]},
    {"family": "bf16", "match": "", "packers": ["kai_rhs_pack_kxn_bf16p12x4biasf32_f16_neon", "kai_rhs_pack_nxk_bf16p12x4biasf32_f16_neon"]},
    {"family": "bf16o", "match": "_bf16p8x4_", "packers": ["kai_lhs_pack_bf16p8x4_f16_neon"]},
    {"family": "bf16o", "match": "", "packers": ["kai_rhs_pack_kxn_bf16p12x4biasf32_f16_neon", "kai_rhs_pack_nxk_bf16p12x4biasf32_f16_neon"]},
    {"family": "bf16f16", "match": "", "packers": ["kai_lhs_pack_bf16p8x4_f16_neon", "kai_lhs_quant_pack_bf16p8x4_f32_neon", "kai_lhs_pack_bf16p8x4_bf16_neon", "kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon", "kai_rhs_pack_nxk_bf16p12x4biasf16_f16_neon"]},
    {"family": "bf16_qsi4cxp", "match": "", "packers": ["kai_lhs_quant_pack_qai8dxp_bf16_neon", "kai_lhs_quant_pack_qai8dxp_f32", "kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0", "kai_rhs_pack_kxn_qsi4cxp_qs4cxs1s0"]},
    {"family": "bf16_qsi4c32p", "match": "", "packers": ["kai_lhs_quant_pack_qai8dxp_bf16_neon", "kai_lhs_quant_pack_qai8dxp_f32", "kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0", "kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0", "kai_rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon"]},
    {"family": "f16p_qsi4c32p", "match": "", "packers": ["kai_lhs_pack_f16pmrx2_f32_neon", "kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon"]},
    {"family": "qai4c32p", "match": "_neon", "packers": ["kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon", "kai_lhs_quant_pack_qsi8d32pscalef32_f16_neon", "kai_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon"]},
    {"family": "f16_qai4c32p", "match": "_neon", "packers": ["kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon", "kai_lhs_quant_pack_qsi8d32pscalef32_f16_neon", "kai_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon"]},
    {"family": "qai4c32p", "match": "_sme2", "packers": ["kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon", "kai_lhs_quant_pack_qsi8d32pscalef32_f16_neon", "kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon", "kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon"]},
    {"family": "f16_qai4c32p", "match": "_sme2", "packers": ["kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon", "kai_lhs_quant_pack_qsi8d32pscalef32_f16_neon", "kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon", "kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon"]},
    {"family": "q4k", "match": "", "packers": ["kai_lhs_quant_pack_qsi8d256p_f32_neon", "kai_rhs_pack_nxk_q4kp_q4k_neon"]},
    {"family": "q6k", "match": "", "packers": ["kai_lhs_quant_pack_qsi8d256p_f32_neon", "kai_rhs_pack_nxk_q6kp_q6k_neon"]},
    {"family": "qsu2cxp", "match": "_neon_dotprod", "packers": ["kai_lhs_quant_pack_qai8dxp_f32", "kai_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon"]},
    {"family": "qsu2cxp", "match": "_sme2_", "packers": ["kai_lhs_quant_pack_qai8dxp_f32", "kai_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon"]},
    {"family": "f16p_f16p", "match": "", "packers": ["kai_lhs_pack_x16p2vlx2_x16_sme", "kai_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme", "kai_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme"]},
    {"family": "f16_f16p", "match": "", "packers": ["kai_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme", "kai_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme"]},
    {"family": "imatmul_f32p", "match": "", "packers": ["kai_lhs_imatmul_pack_x32p2vlx1_x32p_sme", "kai_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme"]},
    {"family": "qai8p_qsi8cxpsb", "match": "", "packers": ["kai_lhs_pack_x8p2vlx4_x8_sme", "kai_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme"]},
    {"family": "qai8_qsi8cxp", "match": "", "packers": ["kai_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme"]},
    {"family": "f32_neon", "match": "", "packers": ["kai_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon"]},
    {"family": "f32p_f32p", "match": "", "packers": ["kai_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme"]},
    {"family": "f32_f32p", "match": "", "packers": ["kai_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme"]},
    {"family": "imatmul_f16p", "match": "", "packers": ["kai_lhs_imatmul_pack_x16p2vlx2_x16p_sme", "kai_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme"]},
    {"family": "qsi4c32p", "match": "_sme2_", "packers": ["kai_lhs_quant_pack_qai8dxp_f32", "kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon", "kai_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon"]},
]

KAI_KLEIDIAI_ASM = [
    "kai_lhs_pack_bf16p2vlx2_f32_sme",
    "kai_lhs_pack_f32p2vlx1_f32_sme",
    "kai_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme",
    "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod",
    "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm",
    "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8_neon_i8mm",
    "kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod",
    "kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod",
    "kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8_neon_dotprod",
    "kai_matmul_clamp_f32_qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod",
    "kai_matmul_clamp_f32_qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod",
    "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa",
    "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa",
    "kai_matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla",
    "kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa",
    "kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod",
    "kai_matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm",
    "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm",
    "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm",
    "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm",
    "kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod",
    "kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod",
    "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm",
    "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm",
    "kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod",
    "kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod",
    "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod",
    "kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod",
    "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm",
    "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa",
    "kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot",
    "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa",
    "kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot",
    "kai_matmul_clamp_f16_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod",
    "kai_matmul_clamp_f16_qai8dxp1x8_qsi4cxp4x8_1x4_neon_dotprod",
    "kai_matmul_clamp_f16_qai8dxp4x4_qsi4cxp4x4_16x4_neon_dotprod",
    "kai_matmul_clamp_f16_qai8dxp4x8_qsi4cxp4x8_16x4_neon_i8mm",
    "kai_matmul_clamp_f16_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod",
    "kai_matmul_clamp_f16_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod",
    "kai_matmul_clamp_f16_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod",
    "kai_matmul_clamp_f16_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm",
    "kai_matmul_clamp_bf16_qai8dxp1x8_qsi4cxp8x8_1x8_neon_dotprod",
    "kai_matmul_clamp_bf16_qai8dxp4x8_qsi4cxp8x8_8x8_neon_i8mm",
    "kai_matmul_clamp_bf16_qai8dxp1x8_qsi4c32p4x8_1x4_neon_dotprod",
    "kai_matmul_clamp_bf16_qai8dxp4x8_qsi4c32p4x8_16x4_neon_i8mm",
    "kai_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa",
    "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot",
    "kai_matmul_clamp_f32_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod",
    "kai_matmul_clamp_f32_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod",
    "kai_matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod",
    "kai_matmul_clamp_f32_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm",
    "kai_matmul_clamp_f16_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod",
    "kai_matmul_clamp_f16_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod",
    "kai_matmul_clamp_f16_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod",
    "kai_matmul_clamp_f16_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm",
    "kai_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod",
    "kai_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod",
    "kai_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa",
    "kai_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot",
    "kai_lhs_pack_x16p2vlx2_x16_sme",
    "kai_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme",
    "kai_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme",
    "kai_matmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa",
    "kai_matmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa",
    "kai_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot",
    "kai_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla",
    "kai_lhs_imatmul_pack_x32p2vlx1_x32p_sme",
    "kai_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme",
    "kai_imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme2_mopa",
    "kai_imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa",
    "kai_lhs_pack_x8p2vlx4_x8_sme",
    "kai_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme",
    "kai_matmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa",
    "kai_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa",
    "kai_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot",
    "kai_lhs_imatmul_pack_x8p2vlx4_x8p_sme",
    "kai_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme",
    "kai_matmul_clamp_f32_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa",
    "kai_matmul_clamp_f32_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot",
    "kai_matmul_clamp_f16_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa",
    "kai_matmul_clamp_f16_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot",
    "kai_matmul_clamp_f16_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa",
    "kai_matmul_clamp_f16_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot",
    "kai_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla",
    "kai_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme",
    "kai_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla",
    "kai_lhs_imatmul_pack_x16p2vlx2_x16p_sme",
    "kai_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme",
    "kai_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa",
    "kai_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa",
    "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa",
    "kai_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot",
    "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa",
]

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
    {"name": "kai_matmul_clamp_f32_bf16p8x4_bf16p12x4b_8x12_neon_mmla", "family": "bf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p", "features": ["bf16"], "m_step": "8", "n_step": "12", "mr": "8", "nr": "12", "kr": "4", "sr": "1", "form": "intrinsics", "template": ["bf16_gemm.c.in", "bf16_gemm.h.in"], "rank": "1", "note": "BFMMLA GEMM"},
    {"name": "kai_matmul_clamp_f32_bf16p1x4_bf16p12x4b_1x36_neon_dot", "family": "bf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_bf16p_bf16p", "features": ["bf16"], "m_step": "1", "n_step": "36", "mr": "1", "nr": "12", "kr": "4", "sr": "1", "form": "intrinsics", "template": ["bf16_gemv.c.in", "bf16_gemv.h.in"], "rank": "2", "gemv_only": "1", "note": "BFDOT GEMV, m = 1 only"},
    {"name": "kai_matmul_clamp_bf16_bf16p8x4_bf16p12x4b_8x12_neon_mmla", "family": "bf16o", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_bf16_bf16p_bf16p", "features": ["bf16"], "m_step": "8", "n_step": "12", "mr": "8", "nr": "12", "kr": "4", "sr": "1", "form": "asm", "template": ["bf16_gemm16.c.in", "bf16_gemm.h.in"], "rank": "1", "note": "BFMMLA GEMM, bf16 dst"},
    {"name": "kai_matmul_clamp_bf16_bf16p1x4_bf16p12x4b_1x36_neon_dot", "family": "bf16o", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_bf16_bf16p_bf16p", "features": ["bf16"], "m_step": "1", "n_step": "36", "mr": "1", "nr": "12", "kr": "4", "sr": "1", "form": "intrinsics", "template": ["bf16_gemv.c.in", "bf16_gemv.h.in"], "rank": "2", "gemv_only": "1", "note": "BFDOT GEMV, bf16 dst, m = 1 only"},
    # --- end bf16 ---
    # --- family bf16f16 (BF16 arithmetic on f16 data, f16 output; f16-input packers): docs/matmul_bf16.md ---
    {"name": "kai_lhs_pack_bf16p8x4_f16_neon", "family": "bf16f16", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": ["bf16", "fp16"]},
    {"name": "kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon", "family": "bf16f16", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["bf16", "fp16"]},
    {"name": "kai_rhs_pack_kxn_bf16p12x4biasf32_f16_neon", "family": "bf16f16", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["bf16", "fp16"]},
    {"name": "kai_rhs_pack_nxk_bf16p12x4biasf16_f16_neon", "family": "bf16f16", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["bf16", "fp16"]},
    {"name": "kai_rhs_pack_nxk_bf16p12x4biasf32_f16_neon", "family": "bf16f16", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["bf16", "fp16"]},
    {"name": "kai_matmul_clamp_f16_bf16p8x4_bf16p12x4b_8x12_neon_mmla", "family": "bf16f16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_bf16p_bf16p", "features": ["bf16", "fp16"], "m_step": "8", "n_step": "12", "mr": "8", "nr": "12", "kr": "4", "sr": "1", "form": "asm", "template": ["bf16_gemm16.c.in", "bf16_gemm.h.in"]},
    # --- end bf16f16 ---
    # --- family qai8dxp (LHS quantizer of qsi4cxp and qsi4c32p) and qsi4cxp: docs/matmul_int4_channelwise.md ---
    {"name": "kai_lhs_quant_pack_qai8dxp_f32", "family": "qai8dxp", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_lhs_quant_pack_qai8dxp_f16_neon", "family": "qai8dxp", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": ["fp16"]},
    {"name": "kai_lhs_quant_pack_qai8dxp_bf16_neon", "family": "qai8dxp", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0", "family": "qsi4cxp", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_kxn_qsi4cxp_qs4cxs1s0", "family": "qsi4cxp", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon", "family": "qsi4cxp", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["i8mm"], "m_step": "8", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_i8mm.c.in", "qsi4cxp.h.in"], "rank": "3", "note": "KleidiAI's tile"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["i8mm"], "m_step": "8", "n_step": "8", "mr": "4", "nr": "8", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_i8mm.c.in", "qsi4cxp.h.in"], "rank": "2", "note": "KleidiAI's tile"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_16x4x32_neon_i8mm", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["i8mm"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_i8mm.c.in", "qsi4cxp.h.in"], "rank": "1", "note": "**new**: the GEMM to use (prefill)"},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["dotprod"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_dotprod.c.in", "qsi4cxp.h.in"], "rank": "9", "note": "GEMV"},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["dotprod"], "m_step": "1", "n_step": "8", "mr": "1", "nr": "8", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_dotprod.c.in", "qsi4cxp.h.in"], "rank": "8", "note": "the GEMV to use (decode, m = 1)"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x4_qsi4cxp8x4_8x8x32_neon_dotprod", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["dotprod"], "m_step": "8", "n_step": "8", "mr": "4", "nr": "8", "kr": "8", "sr": "2", "form": "asm", "template": ["qsi4cxp_dotprod_gemm.c.in", "qsi4cxp.h.in"], "rank": "7", "note": "GEMM on cores without I8MM (torchao); kbl = 4"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["dotprod"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "8", "sr": "2", "form": "asm", "template": ["qsi4cxp_dotprod_gemm.c.in", "qsi4cxp.h.in"], "rank": "6", "note": "GEMM without I8MM; **kr = 8 despite \"4x8\" in the name** (pack with the getters' values)"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_4x4x32_neon_i8mm", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["i8mm"], "m_step": "4", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_i8mm_4xn.c.in", "qsi4cxp.h.in"], "rank": "5", "note": "KleidiAI's 4-row tile; 8 rows per tile inside a call when the rows allow"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp8x8_4x8x32_neon_i8mm", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["i8mm"], "m_step": "4", "n_step": "8", "mr": "4", "nr": "8", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_i8mm_4xn.c.in", "qsi4cxp.h.in"], "rank": "4", "note": "same, nr = 8"},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["dotprod"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "8", "sr": "2", "form": "intrinsics", "template": ["qsi4cxp_dotprod_gemv4.c.in", "qsi4cxp.h.in"], "rank": "10", "note": "GEMV partner of the 16x4x32 DotProd GEMM (same packed RHS)"},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi4cxp4x8_1x4_neon", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": [], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "16", "sr": "2", "form": "intrinsics", "template": ["qsi4cxp_neon.c.in", "qsi4cxp.h.in"], "note": "plain Armv8.0 GEMV (no DotProd) on the 1x4x32 DotProd GEMV's buffers"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4cxp4x8_4x4_neon", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": [], "m_step": "4", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "intrinsics", "template": ["qsi4cxp_neon.c.in", "qsi4cxp.h.in"], "note": "plain Armv8.0 GEMM (no DotProd) on the 16x4x32 I8MM GEMM's buffers"},
    # f16 output (family qsi4cxpf16, KleidiAI's f16-output kernels): the f32 kernels' templates with "out": "f16"
    {"name": "kai_matmul_clamp_f16_qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod", "family": "qsi4cxpf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi4cxp", "features": ["dotprod", "fp16"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "8", "sr": "2", "form": "intrinsics", "template": ["qsi4cxp_dotprod_gemv4.c.in", "qsi4cxp.h.in"], "out": "f16"},
    {"name": "kai_matmul_clamp_f16_qai8dxp1x8_qsi4cxp4x8_1x4_neon_dotprod", "family": "qsi4cxpf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi4cxp", "features": ["dotprod", "fp16"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_dotprod.c.in", "qsi4cxp.h.in"], "out": "f16"},
    {"name": "kai_matmul_clamp_f16_qai8dxp4x4_qsi4cxp4x4_16x4_neon_dotprod", "family": "qsi4cxpf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi4cxp", "features": ["dotprod", "fp16"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "8", "sr": "2", "form": "asm", "template": ["qsi4cxp_dotprod_gemm.c.in", "qsi4cxp.h.in"], "out": "f16"},
    {"name": "kai_matmul_clamp_f16_qai8dxp4x8_qsi4cxp4x8_16x4_neon_i8mm", "family": "qsi4cxpf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi4cxp", "features": ["i8mm", "fp16"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_i8mm.c.in", "qsi4cxp.h.in"], "out": "f16"},
    {"name": "kai_matmul_clamp_f32_qai8dxp1vlx8_qsi4cxp4vlx8_1vlx4vl_sme2_mopa", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["sme2"], "m_step": "VL", "n_step": "4VL", "mr": "vl", "nr": "4VL", "kr": "4", "sr": "1", "form": "sme_asm", "template": ["qai8dxp_sme2_mopa.c.in", "qai8dxp_sme.h.in"], "select": "0", "note": "SME2 GEMM (KleidiAI's); RHS from kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon, kr = 4"},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme2_sdot", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["sme2"], "m_step": "1", "n_step": "4VL", "mr": "1", "nr": "4VL", "kr": "4", "sr": "1", "form": "sme_asm", "template": ["qai8dxp_sme2_dot.c.in", "qai8dxp_sme.h.in"], "select": "0", "note": "SME2 GEMV (KleidiAI's), same packed RHS as the SME2 GEMM"},
    {"name": "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4cxp4vlx4_1vlx4vl_sme_mopa", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["sme"], "select": "0", "note": "SME (FEAT_SME only) GEMM (KleidiAI's, XNNPACK); RHS from the NEON qsi4cxp packers, kr = 8, sr = 2", "form": "sme_asm", "template": ["qai8dxp_sme_mopa.c.in", "qai8dxp_sme_mopa.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x4_qsi4cxp4vlx4_1x4vl_sme_dot", "family": "qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4cxp", "features": ["sme"], "select": "0", "note": "SME (FEAT_SME only) GEMV (KleidiAI's, XNNPACK), same packed RHS as the SME GEMM", "form": "sme_asm", "template": ["qai8dxp_sme_dot.c.in", "qai8dxp_sme_dot.h.in"]},
    # --- end qsi4cxp ---
    # --- family bf16_qsi4cxp (bf16 output; LHS from qai8dxp, RHS from qsi4cxp): docs/matmul_int4_channelwise.md ---
    {"name": "kai_matmul_clamp_bf16_qai8dxp1x8_qsi4cxp8x8_1x8_neon_dotprod", "family": "bf16_qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_bf16_qai8dxp_qsi4cxp", "features": ["bf16", "dotprod"], "m_step": "1", "n_step": "8", "mr": "1", "nr": "8", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_dotprod.c.in", "qsi4cxp_bf16.h.in"], "out": "bf16"},
    {"name": "kai_matmul_clamp_bf16_qai8dxp4x8_qsi4cxp8x8_8x8_neon_i8mm", "family": "bf16_qsi4cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_bf16_qai8dxp_qsi4cxp", "features": ["bf16", "i8mm"], "m_step": "8", "n_step": "8", "mr": "4", "nr": "8", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4cxp_i8mm.c.in", "qsi4cxp_bf16.h.in"], "out": "bf16"},
    # --- end bf16_qsi4cxp ---
    # --- family qsi4c32p: docs/matmul_int4_blockwise.md ---
    {"name": "kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0", "family": "qsi4c32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_kxn_qsi4c32p_qsu4c32s1s0", "family": "qsi4c32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon", "family": "qsi4c32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon", "family": "qsi4c32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon", "family": "qsi4c32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon", "family": "qsi4c32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["i8mm"], "m_step": "8", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_i8mm.c.in", "qsi4c32p.h.in"], "rank": "3", "note": "KleidiAI's tile"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_12x4x32_neon_i8mm", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["i8mm"], "m_step": "12", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_i8mm.c.in", "qsi4c32p.h.in"], "rank": "1", "note": "**new**: all 24 accumulators in registers; fewest instructions/MAC"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["i8mm"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_i8mm.c.in", "qsi4c32p.h.in"], "rank": "2", "note": "KleidiAI's tile; the GEMM to use, best at bl ≥ 64"},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_dotprod.c.in", "qsi4c32p.h.in"], "rank": "9", "note": "GEMV"},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"], "m_step": "1", "n_step": "8", "mr": "1", "nr": "8", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_dotprod.c.in", "qsi4c32p.h.in"], "rank": "8", "note": "the GEMV to use (decode, m = 1)"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["i8mm"], "m_step": "4", "n_step": "8", "mr": "4", "nr": "8", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_i8mm_4x8.c.in", "qsi4c32p.h.in"], "rank": "4", "note": "PyTorch's group-wise GEMM: the only GEMM reading the buffer of the 1x8 GEMVs"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi4c32p8x8_4x8_neon_i8mm", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["i8mm"], "m_step": "4", "n_step": "8", "mr": "4", "nr": "8", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_i8mm_4x8.c.in", "qsi4c32p.h.in"], "rank": "5", "note": "the same kernel under KleidiAI's other name"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "8", "sr": "2", "form": "asm", "template": ["qsi4c32p_dotprod_gemm.c.in", "qsi4c32p.h.in"], "rank": "6", "note": "GEMM on cores without I8MM; kbl = 4"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"], "m_step": "4", "n_step": "8", "mr": "4", "nr": "8", "kr": "8", "sr": "2", "form": "asm", "template": ["qsi4c32p_dotprod_gemm.c.in", "qsi4c32p.h.in"], "rank": "7", "note": "GEMM without I8MM, nr = 8"},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi4c32p8x8_1x8_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"], "m_step": "1", "n_step": "8", "mr": "1", "nr": "8", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_dotprod.c.in", "qsi4c32p.h.in"], "rank": "10", "note": "the 1x8x32 GEMV under KleidiAI's other name"},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "8", "sr": "2", "form": "intrinsics", "template": ["qsi4c32p_dotprod_gemv4.c.in", "qsi4c32p.h.in"], "rank": "12", "note": "GEMV partner of the 16x4 DotProd GEMM"},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["dotprod"], "m_step": "1", "n_step": "8", "mr": "1", "nr": "8", "kr": "8", "sr": "2", "form": "intrinsics", "template": ["qsi4c32p_dotprod_gemv4.c.in", "qsi4c32p.h.in"], "rank": "11", "note": "GEMV partner of the 4x8 DotProd GEMM"},
    {"name": "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi4c32p4vlx4_1vlx4vl_sme2_mopa", "family": "qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi4c32p", "features": ["sme2"], "m_step": "vl", "n_step": "4vl", "mr": "vl", "nr": "4vl", "kr": "8", "sr": "2", "select": "0", "note": "SME2 GEMM (KleidiAI's; ONNX Runtime); RHS from the ps1s0nrx4 packers, kr = 8, sr = 2"},
    # --- end qsi4c32p ---
    # --- family bf16_qsi4c32p (bf16 output; LHS from qai8dxp, RHS from qsi4c32p): docs/matmul_int4_blockwise.md ---
    {"name": "kai_matmul_clamp_bf16_qai8dxp1x8_qsi4c32p4x8_1x4_neon_dotprod", "family": "bf16_qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_bf16_qai8dxp_qsi4c32p", "features": ["bf16", "dotprod"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_dotprod.c.in", "qsi4c32p_bf16.h.in"], "out": "bf16"},
    {"name": "kai_matmul_clamp_bf16_qai8dxp4x8_qsi4c32p4x8_16x4_neon_i8mm", "family": "bf16_qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_bf16_qai8dxp_qsi4c32p", "features": ["bf16", "i8mm"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi4c32p_i8mm.c.in", "qsi4c32p_bf16.h.in"], "out": "bf16"},
    # --- end bf16_qsi4c32p ---
    # --- family qsi8d32p (GGUF Q4_0): docs/matmul_q4_0.md ---
    {"name": "kai_lhs_quant_pack_qsi8d32p_f32", "family": "qsi8d32p", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_lhs_quant_pack_qsi8d32p4x8sb_f32_neon", "family": "qsi8d32p", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0", "family": "qsi8d32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_lhs_quant_pack_qsi8d32p_f32_neon", "family": "qsi8d32p", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon", "family": "qsi8d32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon", "family": "qsi8d32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["i8mm"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi8d32p_i8mm.c.in", "qsi8d32p_i8mm.h.in"], "rank": "3"},
    {"name": "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["i8mm"], "m_step": "8", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "asm", "template": ["qsi8d32p_i8mm.c.in", "qsi8d32p_i8mm.h.in"], "rank": "4"},
    {"name": "kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["dotprod"], "rank": "7"},
    {"name": "kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["dotprod"], "rank": "5"},
    {"name": "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["dotprod"], "rank": "6"},
    {"name": "kai_matmul_clamp_f32_qsi8d32p1x8_qsi4c32p8x8_1x8_sve_dotprod", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["dotprod", "sve"], "rank": "2"},
    {"name": "kai_matmul_clamp_f32_qsi8d32p4x8_qsi4c32p8x8_16x8_sve_i8mm", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["i8mm", "sve"], "rank": "1"},
    {"name": "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme2_sdot", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["sme2"], "select": "0"},
    {"name": "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4vlx4_1x4vl_sme_dot", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": ["sme"], "select": "0"},
    # plain Armv8.0 NEON: the buffers of the DotProd pair, sums by SMULL/SMLAL/SADALP, no feature
    {"name": "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": [], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "8", "sr": "2", "form": "intrinsics", "template": ["qsi8d32p_neon.c.in", "qsi8d32p_neon.h.in"]},
    {"name": "kai_matmul_clamp_f32_qsi8d32p4x4_qsi4c32p4x4_4x4_neon", "family": "qsi8d32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qsi4c32p", "features": [], "m_step": "4", "n_step": "4", "mr": "4", "nr": "4", "kr": "8", "sr": "2", "form": "intrinsics", "template": ["qsi8d32p_neon.c.in", "qsi8d32p_neon.h.in"]},
    # --- end qsi8d32p ---
    # --- family qsi8cxp (int8 per-channel weights; LHS from qai8dxp): docs/matmul_int8_channelwise.md ---
    {"name": "kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon", "family": "qsi8cxp", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_kxn_qsi8cxp_qsi8cx_neon", "family": "qsi8cxp", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa", "family": "qsi8cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp", "features": ["sme2"], "rank": "1", "form": "sme_asm", "template": ["qai8dxp_sme2_mopa.c.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot", "family": "qsi8cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp", "features": ["sme2"], "rank": "3", "form": "sme_asm", "template": ["qai8dxp_sme2_dot.c.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme_mopa", "family": "qsi8cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp", "features": ["sme"], "rank": "2", "form": "sme_asm", "template": ["qai8dxp_sme_mopa.c.in", "qai8dxp_sme_mopa.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme_dot", "family": "qsi8cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp", "features": ["sme"], "rank": "4", "form": "sme_asm", "template": ["qai8dxp_sme_dot.c.in", "qai8dxp_sme_dot.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod", "family": "qsi8cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp", "features": ["dotprod"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "4", "sr": "1", "form": "intrinsics", "template": ["qsi8cxp_gemv_kr4.c.in", "qsi8cxp.h.in"], "rank": "7"},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod", "family": "qsi8cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp", "features": ["dotprod"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "8", "sr": "1", "form": "intrinsics", "template": ["qsi8cxp_gemv_kr8.c.in", "qsi8cxp.h.in"], "rank": "8"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod", "family": "qsi8cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp", "features": ["dotprod"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "4", "sr": "1", "form": "intrinsics", "template": ["qsi8cxp_gemm_dotprod.c.in", "qsi8cxp.h.in"], "rank": "6"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm", "family": "qsi8cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp", "features": ["i8mm"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "8", "sr": "1", "form": "intrinsics", "template": ["qsi8cxp_gemm_i8mm.c.in", "qsi8cxp.h.in"], "rank": "5"},
    # plain Armv8.0 NEON: the buffers of the DotProd pair, sums by SMULL/SMLAL/SADALP, no feature
    {"name": "kai_matmul_clamp_f32_qai8dxp1x4_qsi8cxp4x4_1x4_neon", "family": "qsi8cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp", "features": [], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "4", "sr": "1", "form": "intrinsics", "template": ["qsi8cxp_neon.c.in", "qsi8cxp.h.in"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x4_qsi8cxp4x4_4x4_neon", "family": "qsi8cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsi8cxp", "features": [], "m_step": "4", "n_step": "4", "mr": "4", "nr": "4", "kr": "4", "sr": "1", "form": "asm", "template": ["qsi8cxp_neon.c.in", "qsi8cxp.h.in"]},
    # f16 output (family qsi8cxpf16, KleidiAI's f16-output kernels): the same templates with "out": "f16"
    {"name": "kai_matmul_clamp_f16_qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod", "family": "qsi8cxpf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi8cxp", "features": ["dotprod", "fp16"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "4", "sr": "1", "form": "intrinsics", "template": ["qsi8cxp_gemv_kr4.c.in", "qsi8cxp.h.in"], "out": "f16"},
    {"name": "kai_matmul_clamp_f16_qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod", "family": "qsi8cxpf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi8cxp", "features": ["dotprod", "fp16"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "8", "sr": "1", "form": "intrinsics", "template": ["qsi8cxp_gemv_kr8.c.in", "qsi8cxp.h.in"], "out": "f16"},
    {"name": "kai_matmul_clamp_f16_qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod", "family": "qsi8cxpf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi8cxp", "features": ["dotprod", "fp16"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "4", "sr": "1", "form": "intrinsics", "template": ["qsi8cxp_gemm_dotprod.c.in", "qsi8cxp.h.in"], "out": "f16"},
    {"name": "kai_matmul_clamp_f16_qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm", "family": "qsi8cxpf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi8cxp", "features": ["i8mm", "fp16"], "m_step": "16", "n_step": "4", "mr": "4", "nr": "4", "kr": "8", "sr": "1", "form": "intrinsics", "template": ["qsi8cxp_gemm_i8mm.c.in", "qsi8cxp.h.in"], "out": "f16"},
    {"name": "kai_matmul_clamp_f16_qai8dxp1vlx4_qsi8cxp4vlx4_1vlx4vl_sme2_mopa", "family": "qsi8cxpf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi8cxp", "features": ["sme2"], "m_step": "VL", "n_step": "4VL", "mr": "vl", "nr": "4VL", "kr": "4", "sr": "1", "form": "sme_asm", "template": ["qai8dxp_sme2_mopa.c.in", "qai8dxp_sme.h.in"], "out": "f16", "select": "0", "note": "SME2 GEMM (KleidiAI's)"},
    {"name": "kai_matmul_clamp_f16_qai8dxp1x4_qsi8cxp4vlx4_1x4vl_sme2_dot", "family": "qsi8cxpf16", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qai8dxp_qsi8cxp", "features": ["sme2"], "m_step": "1", "n_step": "4VL", "mr": "1", "nr": "4VL", "kr": "4", "sr": "1", "form": "sme_asm", "template": ["qai8dxp_sme2_dot.c.in", "qai8dxp_sme.h.in"], "out": "f16", "select": "0", "note": "SME2 GEMV (KleidiAI's), scale and bias fused"},
    # --- end qsi8cxp ---
    # --- family f32p_f32p / f32_f32p (f32 SME/SME2), bf16p_sme and f32_bf16p (bf16 SME2): docs/matmul_sme.md ---
    {"name": "kai_lhs_pack_f32p2vlx1_f32_sme", "family": "f32p_f32p", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_rhs_pack_nxk_f32p2vlx1biasf32_f32_f32_sme", "family": "f32p_f32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_lhs_pack_bf16p2vlx2_f32_sme", "family": "bf16p_sme", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_rhs_pack_kxn_bf16p2vlx2b_f32_x32_sme", "family": "bf16p_sme", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa", "family": "f32p_f32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_f32p_f32p", "features": ["sme2"], "rank": "1"},
    {"name": "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa", "family": "f32p_f32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_f32p_f32p", "features": ["sme"], "rank": "2"},
    {"name": "kai_matmul_clamp_f32_f32_f32p2vlx1b_1x16vl_sme2_mla", "family": "f32_f32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_f32_f32p", "features": ["sme2"], "rank": "1", "gemv_only": "1"},
    {"name": "kai_matmul_clamp_f32_bf16p2vlx2_bf16p2vlx2_2vlx2vl_sme2_mopa", "family": "bf16p_sme", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_fp32_bf16p_bf16p", "features": ["sme2"], "rank": "1"},
    {"name": "kai_matmul_clamp_f32_f32_bf16p2vlx2b_1x16vl_sme2_dot", "family": "f32_bf16p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_f32_bf16p", "features": ["sme2"], "rank": "1", "gemv_only": "1"},
    {"name": "kai_rhs_pack_kxn_f32p2vlx1biasf32_f32_f32_sme", "family": "f32p_f32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_matmul_clamp_f32_f32_f32p2vlx1b_1x8vl_sme_mla", "family": "f32_f32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_f32_f32p", "features": ["sme"], "rank": "2", "gemv_only": "1"},
    # --- end f32p_f32p / f32_f32p / bf16p_sme / f32_bf16p ---
    # --- family f16p_qsi4c32p (f16 activations x GGUF Q4_0, SME2; RHS from qsi8d32p's ps1s0scalef16 packer): docs/matmul_q4_0.md ---
    {"name": "kai_lhs_pack_f16pmrx2_f32_neon", "family": "f16p_qsi4c32p", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_f16p1vlx2_qsi4c32p4vlx2_1vlx4vl_sme2_mopa", "family": "f16p_qsi4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_f16p_qsi4c32p", "features": ["sme2"]},
    # --- end f16p_qsi4c32p ---
    # --- family qai4c32p / f16_qai4c32p (asymmetric int4, f32 / f16 output): docs/matmul_int4_asymmetric.md ---
    {"name": "kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon", "family": "qai4c32p", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_lhs_quant_pack_qsi8d32pscalef32_f16_neon", "family": "qai4c32p", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": ["fp16"]},
    {"name": "kai_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon", "family": "qai4c32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon", "family": "qai4c32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon", "family": "qai4c32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod", "family": "qai4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qai4c32p", "features": ["dotprod"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "8", "sr": "2", "form": "intrinsics", "template": ["qai4c32p_gemv.c.in", "qai4c32p.h.in"], "isa": "dotprod", "out": "f32", "note": "GEMV sharing the dotprod GEMM's RHS"},
    {"name": "kai_matmul_clamp_f32_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod", "family": "qai4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qai4c32p", "features": ["dotprod"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "16", "sr": "2", "form": "intrinsics", "template": ["qai4c32p_gemv.c.in", "qai4c32p.h.in"], "isa": "dotprod", "out": "f32", "note": "GEMV sharing the i8mm GEMM's RHS"},
    {"name": "kai_matmul_clamp_f32_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod", "family": "qai4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qai4c32p", "features": ["dotprod"], "m_step": "8", "n_step": "4", "mr": "4", "nr": "4", "kr": "8", "sr": "2", "form": "intrinsics", "template": ["qai4c32p_dotprod_gemm.c.in", "qai4c32p.h.in"], "isa": "dotprod", "out": "f32", "note": "GEMM on dotprod-only CPUs"},
    {"name": "kai_matmul_clamp_f32_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm", "family": "qai4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qai4c32p", "features": ["i8mm"], "m_step": "8", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "intrinsics", "template": ["qai4c32p_i8mm.c.in", "qai4c32p.h.in"], "isa": "i8mm", "out": "f32", "note": "GEMM on i8mm CPUs"},
    {"name": "kai_matmul_clamp_f16_qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod", "family": "f16_qai4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qsi8d32p_qai4c32p", "features": ["dotprod", "fp16"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "8", "sr": "2", "form": "intrinsics", "template": ["qai4c32p_gemv.c.in", "qai4c32p.h.in"], "isa": "dotprod", "out": "f16", "note": "f16 output; GEMV sharing the dotprod GEMM's RHS"},
    {"name": "kai_matmul_clamp_f16_qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod", "family": "f16_qai4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qsi8d32p_qai4c32p", "features": ["dotprod", "fp16"], "m_step": "1", "n_step": "4", "mr": "1", "nr": "4", "kr": "16", "sr": "2", "form": "intrinsics", "template": ["qai4c32p_gemv.c.in", "qai4c32p.h.in"], "isa": "dotprod", "out": "f16", "note": "f16 output; GEMV sharing the i8mm GEMM's RHS"},
    {"name": "kai_matmul_clamp_f16_qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod", "family": "f16_qai4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qsi8d32p_qai4c32p", "features": ["dotprod", "fp16"], "m_step": "8", "n_step": "4", "mr": "4", "nr": "4", "kr": "8", "sr": "2", "form": "intrinsics", "template": ["qai4c32p_dotprod_gemm.c.in", "qai4c32p.h.in"], "isa": "dotprod", "out": "f16", "note": "f16 output; GEMM on dotprod-only CPUs"},
    {"name": "kai_matmul_clamp_f16_qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm", "family": "f16_qai4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qsi8d32p_qai4c32p", "features": ["fp16", "i8mm"], "m_step": "8", "n_step": "4", "mr": "4", "nr": "4", "kr": "16", "sr": "2", "form": "intrinsics", "template": ["qai4c32p_i8mm.c.in", "qai4c32p.h.in"], "isa": "i8mm", "out": "f16", "note": "f16 output; GEMM on i8mm CPUs"},
    {"name": "kai_matmul_clamp_f32_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa", "family": "qai4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qai4c32p", "features": ["sme2"], "m_step": "vl", "n_step": "4vl", "mr": "vl", "nr": "4vl", "kr": "8", "sr": "2", "form": "asm", "template": ["qai4c32p_sme2_mopa.c.in", "qai4c32p_sme2.h.in"], "out": "f32", "select": "0", "note": "SME2 GEMM (prefill); RHS from the nrx4 packers"},
    {"name": "kai_matmul_clamp_f32_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot", "family": "qai4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d32p_qai4c32p", "features": ["sme2"], "m_step": "1", "n_step": "4vl", "mr": "1", "nr": "4vl", "kr": "8", "sr": "2", "form": "asm", "template": ["qai4c32p_sme2_dot.c.in", "qai4c32p_sme2.h.in"], "out": "f32", "select": "0", "note": "SME2 GEMV (decode); RHS from the nrx4 packers"},
    {"name": "kai_matmul_clamp_f16_qsi8d32p1vlx4_qai4c32p4vlx4_1vlx4vl_sme2_mopa", "family": "f16_qai4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qsi8d32p_qai4c32p", "features": ["sme2"], "m_step": "vl", "n_step": "4vl", "mr": "vl", "nr": "4vl", "kr": "8", "sr": "2", "form": "asm", "template": ["qai4c32p_sme2_mopa.c.in", "qai4c32p_sme2.h.in"], "out": "f16", "select": "0", "note": "SME2 GEMM (prefill); RHS from the nrx4 packers"},
    {"name": "kai_matmul_clamp_f16_qsi8d32p1x4_qai4c32p4vlx4_1x4vl_sme2_dot", "family": "f16_qai4c32p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_qsi8d32p_qai4c32p", "features": ["sme2"], "m_step": "1", "n_step": "4vl", "mr": "1", "nr": "4vl", "kr": "8", "sr": "2", "form": "asm", "template": ["qai4c32p_sme2_dot.c.in", "qai4c32p_sme2.h.in"], "out": "f16", "select": "0", "note": "SME2 GEMV (decode); RHS from the nrx4 packers"},
    # --- end qai4c32p / f16_qai4c32p ---
    # --- family q4k / q6k (GGUF K-quants Q4_K and Q6_K; one LHS packer): docs/matmul_gguf_kquants.md ---
    {"name": "kai_lhs_quant_pack_qsi8d256p_f32_neon", "family": "q4k", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_rhs_pack_nxk_q4kp_q4k_neon", "family": "q4k", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": [], "template": ["kquant_rhs_pack.c.in", "kquant_rhs_pack.h.in"], "fmt": "q4k"},
    {"name": "kai_rhs_pack_nxk_q6kp_q6k_neon", "family": "q6k", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": [], "template": ["kquant_rhs_pack.c.in", "kquant_rhs_pack.h.in"], "fmt": "q6k"},
    {"name": "kai_matmul_clamp_f32_qsi8d256p1x8_q4kp4x8_1x8_neon_dotprod", "family": "q4k", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp", "features": ["dotprod"], "m_step": "1", "n_step": "8", "mr": "1", "nr": "4", "kr": "8", "sr": "1", "form": "intrinsics", "template": ["kquant.c.in", "kquant.h.in"], "isa": "dotprod", "fmt": "q4k", "engine": "gemv"},
    {"name": "kai_matmul_clamp_f32_qsi8d256p4x4_q4kp4x8_4x4_neon_dotprod", "family": "q4k", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp", "features": ["dotprod"], "m_step": "4", "n_step": "4", "mr": "4", "nr": "4", "kr": "4", "sr": "1", "form": "intrinsics", "template": ["kquant.c.in", "kquant.h.in"], "isa": "dotprod", "fmt": "q4k", "engine": "sdot"},
    {"name": "kai_matmul_clamp_f32_qsi8d256p4x8_q4kp4x8_4x4_neon_i8mm", "family": "q4k", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q4kp", "features": ["i8mm"], "m_step": "4", "n_step": "4", "mr": "4", "nr": "4", "kr": "8", "sr": "1", "form": "intrinsics", "template": ["kquant.c.in", "kquant.h.in"], "isa": "i8mm", "fmt": "q4k", "engine": "mmla"},
    {"name": "kai_matmul_clamp_f32_qsi8d256p1x8_q6kp4x8_1x8_neon_dotprod", "family": "q6k", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp", "features": ["dotprod"], "m_step": "1", "n_step": "8", "mr": "1", "nr": "4", "kr": "8", "sr": "1", "form": "intrinsics", "template": ["kquant.c.in", "kquant.h.in"], "isa": "dotprod", "fmt": "q6k", "engine": "gemv"},
    {"name": "kai_matmul_clamp_f32_qsi8d256p4x4_q6kp4x8_4x4_neon_dotprod", "family": "q6k", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp", "features": ["dotprod"], "m_step": "4", "n_step": "4", "mr": "4", "nr": "4", "kr": "4", "sr": "1", "form": "intrinsics", "template": ["kquant.c.in", "kquant.h.in"], "isa": "dotprod", "fmt": "q6k", "engine": "sdot"},
    {"name": "kai_matmul_clamp_f32_qsi8d256p4x8_q6kp4x8_4x4_neon_i8mm", "family": "q6k", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qsi8d256p_q6kp", "features": ["i8mm"], "m_step": "4", "n_step": "4", "mr": "4", "nr": "4", "kr": "8", "sr": "1", "form": "intrinsics", "template": ["kquant.c.in", "kquant.h.in"], "isa": "i8mm", "fmt": "q6k", "engine": "mmla"},
    # --- end q4k / q6k ---
    # --- family qsu2cxp (2-bit per-channel weights through a look-up table; LHS from qai8dxp): docs/matmul_int2_channelwise.md ---
    {"name": "kai_rhs_pack_nxk_qsu2cxp4x4bf32sf32_qsu2cx_neon", "family": "qsu2cxp", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4x4bf32sf32_1x4_neon_dotprod", "family": "qsu2cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsu2cxp", "features": ["dotprod"], "gemv_only": "1"},
    {"name": "kai_matmul_clamp_f32_qai8dxp4x4_qsu2cxp4x4bf32sf32_8x4_neon_dotprod", "family": "qsu2cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsu2cxp", "features": ["dotprod"]},
    {"name": "kai_rhs_pack_nxk_qsu2cxp4vlx4_qsu2cx_neon", "family": "qsu2cxp", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_qai8dxp1vlx4_qsu2cxp4vlx4_1vlx4vl_sme2_mopa", "family": "qsu2cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsu2cxp", "features": ["sme2"]},
    {"name": "kai_matmul_clamp_f32_qai8dxp1x4_qsu2cxp4vlx4_1x4vl_sme2_dot", "family": "qsu2cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_qai8dxp_qsu2cxp", "features": ["sme2"]},
    # --- family f16p_f16p / f16_f16p (f16 SME/SME2): docs/matmul_sme.md ---
    {"name": "kai_lhs_pack_x16p2vlx2_x16_sme", "family": "f16p_f16p", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_rhs_pack_kxn_x16p2vlx2b_x16_x16_sme", "family": "f16p_f16p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_rhs_pack_nxk_x16p2vlx2b_x16_x16_sme", "family": "f16p_f16p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_matmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa", "family": "f16p_f16p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_f16p_f16p", "features": ["sme2"], "template": ["f16p_sme_mopa.c.in", "f16p_sme_mopa.h.in"], "isa": "sme2"},
    {"name": "kai_matmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa", "family": "f16p_f16p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_f16p_f16p", "features": ["sme"], "template": ["f16p_sme_mopa.c.in", "f16p_sme_mopa.h.in"], "isa": "sme"},
    {"name": "kai_matmul_clamp_f16_f16_f16p2vlx2b_1x16vl_sme2_dot", "family": "f16_f16p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_f16_f16p", "features": ["sme2"], "gemv_only": "1", "template": ["f16_sme_gemv.c.in", "f16_sme_gemv.h.in"], "isa": "sme2"},
    {"name": "kai_matmul_clamp_f16_f16_f16p2vlx2b_1x8vl_sme_mla", "family": "f16_f16p", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f16_f16_f16p", "features": ["sme"], "gemv_only": "1", "template": ["f16_sme_gemv.c.in", "f16_sme_gemv.h.in"], "isa": "sme"},
    # --- end f16p_f16p / f16_f16p ---
    # --- family imatmul_f32p (f32 SME/SME2 indirect GEMM): docs/imatmul.md ---
    {"name": "kai_lhs_imatmul_pack_x32p2vlx1_x32p_sme", "family": "imatmul_f32p", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_rhs_imatmul_pack_kxn_x32p2vlx1b_x32_x32_sme", "family": "imatmul_f32p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme2_mopa", "family": "imatmul_f32p", "kind": "matmul", "dir": "kai/ukernels/matmul/imatmul_clamp_f32_f32p_f32p", "features": ["sme2"], "note": "FMOPA 2VL x 2VL tile, FCLAMP", "derive": "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1biasf32_sme2_mopa"},
    {"name": "kai_imatmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa", "family": "imatmul_f32p", "kind": "matmul", "dir": "kai/ukernels/matmul/imatmul_clamp_f32_f32p_f32p", "features": ["sme"], "note": "FMOPA 2VL x 2VL tile, SME only (FMIN / FMAX clamp)", "derive": "kai_matmul_clamp_f32_f32p2vlx1_f32p2vlx1b_2vlx2vl_sme_mopa", "clamp": "fmin_fmax"},
    # --- end imatmul_f32p ---
    # --- family qai8p_qsi8cxpsb and qai8_qsi8cxp (static int8, int8 output, SME/SME2): docs/matmul_int8_static.md ---
    {"name": "kai_lhs_pack_x8p2vlx4_x8_sme", "family": "qai8p_qsi8cxpsb", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_rhs_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme", "family": "qai8p_qsi8cxpsb", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_lhs_imatmul_pack_x8p2vlx4_x8p_sme", "family": "qai8p_qsi8cxpsb", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_rhs_imatmul_pack_kxn_qsi8cxp2vlx4sb_qs8cx_f32_i32_sme", "family": "qai8p_qsi8cxpsb", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_matmul_clamp_qai8_qai8p2vlx4_qsi8cxp2vlx4sb_2vlx2vl_sme_mopa", "family": "qai8p_qsi8cxpsb", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_qai8_qai8p_qsi8cxp", "features": ["sme"], "template": ["qai8_mopa.c.in", "qai8_mopa.h.in"], "isa": "sme"},
    {"name": "kai_matmul_clamp_qai8_qai8p2vlx4_qsi8cxpsb2vlx4_2vlx2vl_sme2_mopa", "family": "qai8p_qsi8cxpsb", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_qai8_qai8p_qsi8cxp", "features": ["sme2"], "template": ["qai8_mopa.c.in", "qai8_mopa.h.in"], "isa": "sme2"},
    {"name": "kai_matmul_clamp_qai8_qai8_qsi8cxp2vlx4sb_1x16vl_sme2_dot", "family": "qai8_qsi8cxp", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_qai8_qai8_qsi8cxp", "features": ["sme2"], "gemv_only": "1"},
    # --- end qai8p_qsi8cxpsb ---
    # --- family f32_neon (f32 NEON GEMM): docs/matmul_f32.md ---
    {"name": "kai_rhs_pack_kxn_f32p8x1biasf32_f32_f32_neon", "family": "f32_neon", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": []},
    {"name": "kai_matmul_clamp_f32_f32_f32p8x1biasf32_6x8x4_neon_mla", "family": "f32_neon", "kind": "matmul", "dir": "kai/ukernels/matmul/matmul_clamp_f32_f32_f32p", "features": [], "note": "6x8 GEMM, GEMV by 4 column blocks; Armv8.0 NEON"},
    # --- end f32_neon ---
    # --- family imatmul_f16p (f16 SME/SME2 indirect GEMM): docs/imatmul.md ---
    {"name": "kai_lhs_imatmul_pack_x16p2vlx2_x16p_sme", "family": "imatmul_f16p", "kind": "lhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_rhs_imatmul_pack_kxn_x16p2vlx2b_x16_x16_sme", "family": "imatmul_f16p", "kind": "rhs_packer", "dir": "kai/ukernels/pack", "features": ["sme"]},
    {"name": "kai_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa", "family": "imatmul_f16p", "kind": "matmul", "dir": "kai/ukernels/matmul/imatmul_clamp_f16_f16p_f16p", "features": ["sme2"], "note": "widening FMOPA 2VL x 2VL tile, FCLAMP", "derive": "kai_matmul_clamp_f16_f16p2vlx2_f16p2vlx2_2vlx2vl_sme2_mopa"},
    {"name": "kai_imatmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa", "family": "imatmul_f16p", "kind": "matmul", "dir": "kai/ukernels/matmul/imatmul_clamp_f16_f16p_f16p", "features": ["sme"], "note": "widening FMOPA 2VL x 2VL tile, SME only", "derive": "kai_matmul_clamp_f16_f16p2vlx2_f16p2vlx2b_2vlx2vl_sme_mopa"},
    # --- end imatmul_f16p ---
]

KAI_API_HEADERS = [
    "kai/ukernels/matmul/kai_matmul.h",
    "kai/ukernels/matmul/kai_matmul_types.h",
    "kai/ukernels/matmul/kai_matmul_pack_lhs.h",
    "kai/ukernels/matmul/kai_matmul_pack_lhs_types.h",
    "kai/ukernels/matmul/kai_matmul_pack_rhs.h",
    "kai/ukernels/matmul/kai_matmul_pack_rhs_types.h",
]
