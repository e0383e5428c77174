#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Regenerates docs/performance.md (and docs/performance.svg) from modelled measurements.

For every NEON matmul kernel in kai/kernels.bzl it measures one call at the shapes the issues name
with tools/perf/kai_perf.py (instruction counts by class under qemu with the in-tree TCG plugin,
llvm-mca-19 models of the hot loop and of the whole call on Neoverse N2, V1 and V2), and writes one
table per family with the reference library's published figures beside ours. It then checks the
targets files of tools/perf/targets/ (tools/perf/kai_targets.py) and records whether every bound
holds. Nothing outside the repository is needed.

Usage: python3 tools/perf_report.py [--family FAMILY]... [--no-targets]
(FAMILY: a family of kai/kernels.bzl with a "perf" key, e.g. qsi4c32p; its targets prefix, c32, works too)
Needs what tools/setup.sh installs (cross compiler, qemu 7.2, host gcc, llvm-19); the chart needs
python3-matplotlib, which this script installs with apt-get when it is missing (or skips the chart
when it cannot).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools", "perf"))
import kai_targets  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kai_list  # noqa: E402


def _shape(s):
    return [int(x) for x in s.split("x")]


def _families():
    """{perf key: spec} of the measured families, from KAI_FAMILIES of kai/kernels.bzl (the rows
    with a "perf" key): perfbar's case prefix, the kernel directory, the title and the shapes."""
    lst = kai_list.load(ROOT)
    out = {}
    for f in lst.families:
        if not f["perf"]:
            continue
        kernels = lst.family_entries(f["family"], "matmul")
        bf16_arith = "bf16p" in kernels[0]["dir"]
        has_dot = any(k["name"].endswith("_dot") for k in kernels)
        spec = {"family": f["family"], "dir": os.path.basename(kernels[0]["dir"]), "title": f["title"],
                "gemm": _shape(f["perf_gemm"][0]), "gemv": _shape(f["perf_gemv"][0]),
                "mac_per": ("BFMMLA 16 / BFDOT 8 MACs" if has_dot else "BFMMLA 16 MACs") if bf16_arith
                else "SMMLA 32 / SDOT 16 MACs"}
        if len(f["perf_gemm"]) > 1:
            spec["extra_gemm"] = _shape(f["perf_gemm"][1])
        if len(f["perf_gemv"]) > 1:
            spec["extra_gemv"] = _shape(f["perf_gemv"][1])
        out[f["perf"]] = spec
    return out


# perfbar's family prefixes (the "perf" key of each family), the kernel directory they cover, and
# the shapes we report.
FAMILIES = _families()

# KleidiAI v1.30.0's figures, measured with the same tools on the same shapes (the bar each kai kernel must
# meet); rows with only whole-call figures are the kernels added later, measured on the whole call only:
# (instructions/MAC, hot-loop %peak N2/V1/V2, whole-call %peak N2/V1/V2); None where not quoted.
REFERENCE = {
    ("bf16", "bf16p8x4_bf16p12x4b_8x12_neon_mmla", "256x256x256"): (0.111, (100, 100, 100), (92, 91, 91)),
    ("bf16", "bf16p1x4_bf16p12x4b_1x36_neon_dot", "1x1024x1024"): (0.344, (87, 56, 56), None),
    ("f16bf16", "bf16p8x4_bf16p12x4b_8x12_neon_mmla", "128x1024x1024"): (0.1041, None, (96, 96, 96)),
    ("cx", "qai8dxp4x8_qsi4cxp4x8_8x4x32_neon_i8mm", "128x1024x1024"): (0.067, (80, 67, 80), None),
    ("cx", "qai8dxp4x8_qsi4cxp8x8_8x8x32_neon_i8mm", "128x1024x1024"): (0.056, (80, 80, 80), (75, 74, 74)),
    ("cx", "qai8dxp1x8_qsi4cxp4x8_1x4x32_neon_dotprod", "1x4096x4096"): (0.213, (33, 25, 40), None),
    ("cx", "qai8dxp1x8_qsi4cxp8x8_1x8x32_neon_dotprod", "1x4096x4096"): (0.185, (44, 44, 44), None),
    ("c32", "qai8dxp4x8_qsi4c32p4x8_8x4x32_neon_i8mm", "128x1024x1024x32"): (0.103, (44, 44, 44), (45, 45, 45)),
    ("c32", "qai8dxp4x8_qsi4c32p4x8_16x4x32_neon_i8mm", "128x1024x1024x128"): (0.0718, (88, 87, 87), (66, 65, 65)),
    ("c32", "qai8dxp1x8_qsi4c32p4x8_1x4x32_neon_dotprod", "1x4096x4096x32"): (0.298, (31, 31, 31), None),
    ("c32", "qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod", "1x4096x4096x32"): (0.2315, None, None),
    ("c32", "qai8dxp1x8_qsi4c32p8x8_1x8x32_neon_dotprod", "1x4096x4096x128"): (0.201, (44, 44, 44), None),
    ("cx", "qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod", "1x4096x4096"): (0.2048, None, (16, 12, 24)),
    ("cx", "qai8dxp4x4_qsi4cxp8x4_8x8x32_neon_dotprod", "128x1024x1024"): (0.0872, None, (85, 85, 85)),
    ("cx", "qai8dxp4x8_qsi4cxp4x4_16x4x32_neon_dotprod", "128x1024x1024"): (0.0909, None, (89, 89, 89)),
    ("cx", "qai8dxp4x8_qsi4cxp4x8_4x4x32_neon_i8mm", "128x1024x1024"): (0.0824, None, (61, 31, 58)),
    ("cx", "qai8dxp4x8_qsi4cxp8x8_4x8x32_neon_i8mm", "128x1024x1024"): (0.0699, None, (62, 62, 61)),
    ("c32", "qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod", "1x4096x4096x32"): (0.275, None, (39, 39, 39)),
    ("c32", "qai8dxp1x4_qsi4c32p4x4_1x4_neon_dotprod", "1x4096x4096x128"): (0.2223, None, (15, 11, 23)),
    ("c32", "qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod", "1x4096x4096x32"): (0.2316, None, (39, 39, 39)),
    ("c32", "qai8dxp1x4_qsi4c32p8x4_1x8_neon_dotprod", "1x4096x4096x128"): (0.1935, None, (31, 23, 45)),
    ("c32", "qai8dxp1x8_qsi4c32p8x8_1x8_neon_dotprod", "1x4096x4096x32"): (0.2511, None, (33, 32, 32)),
    ("c32", "qai8dxp1x8_qsi4c32p8x8_1x8_neon_dotprod", "1x4096x4096x128"): (0.2013, None, (40, 38, 38)),
    ("c32", "qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod", "128x1024x1024x32"): (0.1153, None, (67, 67, 67)),
    ("c32", "qai8dxp4x4_qsi4c32p4x4_16x4_neon_dotprod", "128x1024x1024x128"): (0.1012, None, (81, 81, 81)),
    ("c32", "qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod", "128x1024x1024x32"): (0.1306, None, (59, 58, 58)),
    ("c32", "qai8dxp4x4_qsi4c32p8x4_4x8_neon_dotprod", "128x1024x1024x128"): (0.1079, None, (72, 71, 71)),
    ("c32", "qai8dxp4x8_qsi4c32p8x8_4x8_neon_i8mm", "128x1024x1024x32"): (0.1072, None, (38, 37, 37)),
    ("c32", "qai8dxp4x8_qsi4c32p8x8_4x8_neon_i8mm", "128x1024x1024x128"): (0.0786, None, (54, 54, 54)),
    ("c32", "qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm", "128x1024x1024x32"): (0.1072, None, (38, 37, 37)),
    ("c32", "qai8dxp4x8_qsi4c32p8x8_4x8x32_neon_i8mm", "128x1024x1024x128"): (0.0786, None, (54, 54, 54)),
    ("q40", "qsi8d32p4x8_qsi4c32p4x8_8x4x32_neon_i8mm", "128x1024x1024"): (0.122, (37, 37, 37), None),
    ("q40", "qsi8d32p4x8_qsi4c32p4x8_16x4_neon_i8mm", "128x1024x1024"): (0.139, (34, 34, 34), None),
    ("q40", "qsi8d32p4x4_qsi4c32p4x4_16x4_neon_dotprod", "128x1024x1024"): (0.162, (54, 54, 54), None),
    ("q40", "qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod", "1x4096x4096"): (0.313, (32, 32, 32), None),
    ("q40", "qsi8d32p1x8_qsi4c32p4x8_1x4x32_neon_dotprod", "1x4096x4096"): (0.345, (26, 26, 26), None),
    ("i8cx", "qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod", "1x4096x4096"): (0.1736, None, (16, 12, 24)),
    ("i8cx", "qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod", "1x4096x4096"): (0.1815, None, (33, 24, 48)),
    ("i8cx", "qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod", "128x1024x1024"): (0.0884, None, (96, 95, 95)),
    ("i8cx", "qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm", "128x1024x1024"): (0.0574, None, (91, 91, 90)),
    # f16 and bf16 outputs
    ("f16cx", "qai8dxp1x4_qsi4cxp4x4_1x4_neon_dotprod", "1x4096x4096"): (0.2049, None, (16, 12, 24)),
    ("f16cx", "qai8dxp1x8_qsi4cxp4x8_1x4_neon_dotprod", "1x4096x4096"): (0.2128, None, (33, 24, 39)),
    ("f16cx", "qai8dxp4x4_qsi4cxp4x4_16x4_neon_dotprod", "128x1024x1024"): (0.0911, None, (89, 88, 88)),
    ("f16cx", "qai8dxp4x8_qsi4cxp4x8_16x4_neon_i8mm", "128x1024x1024"): (0.0601, None, (80, 79, 79)),
    ("f16i8cx", "qai8dxp1x4_qsi8cxp4x4_1x4_neon_dotprod", "1x4096x4096"): (0.1736, None, (16, 12, 24)),
    ("f16i8cx", "qai8dxp1x8_qsi8cxp4x8_1x4_neon_dotprod", "1x4096x4096"): (0.1816, None, (33, 24, 48)),
    ("f16i8cx", "qai8dxp4x4_qsi8cxp4x4_16x4_neon_dotprod", "128x1024x1024"): (0.0887, None, (94, 94, 94)),
    ("f16i8cx", "qai8dxp4x8_qsi8cxp4x8_16x4_neon_i8mm", "128x1024x1024"): (0.0577, None, (90, 89, 89)),
    ("bf16cx", "qai8dxp1x8_qsi4cxp8x8_1x8_neon_dotprod", "1x4096x4096"): (0.185, None, (44, 44, 43)),
    ("bf16cx", "qai8dxp4x8_qsi4cxp8x8_8x8_neon_i8mm", "128x1024x1024"): (0.0564, None, (74, 74, 73)),
    ("bf16c32", "qai8dxp1x8_qsi4c32p4x8_1x4_neon_dotprod", "1x4096x4096x32"): (0.2985, None, (30, 30, 30)),
    ("bf16c32", "qai8dxp1x8_qsi4c32p4x8_1x4_neon_dotprod", "1x4096x4096x128"): (0.2341, None, (29, 21, 32)),
    ("bf16c32", "qai8dxp4x8_qsi4c32p4x8_16x4_neon_i8mm", "128x1024x1024x32"): (0.1095, None, (40, 40, 39)),
    ("bf16c32", "qai8dxp4x8_qsi4c32p4x8_16x4_neon_i8mm", "128x1024x1024x128"): (0.0721, None, (65, 64, 64)),
    ("a4", "qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod", "1x4096x4096x32"): (0.3215, None, (33, 24, 32)),
    ("a4", "qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod", "1x4096x4096x128"): (0.2336, None, (15, 11, 21)),
    ("a4", "qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod", "1x4096x4096x32"): (0.3449, None, (26, 24, 26)),
    ("a4", "qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod", "1x4096x4096x128"): (0.2453, None, (27, 19, 29)),
    ("a4", "qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod", "128x1024x1024x32"): (0.1494, None, (52, 52, 52)),
    ("a4", "qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod", "128x1024x1024x128"): (0.1099, None, (74, 74, 74)),
    ("a4", "qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm", "128x1024x1024x32"): (0.126, None, (32, 32, 32)),
    ("a4", "qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm", "128x1024x1024x128"): (0.0806, None, (57, 49, 57)),
    ("f16a4", "qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod", "1x4096x4096x32"): (0.3215, None, (33, 24, 32)),
    ("f16a4", "qsi8d32p1x4_qai4c32p4x4_1x4_neon_dotprod", "1x4096x4096x128"): (0.2336, None, (15, 11, 21)),
    ("f16a4", "qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod", "1x4096x4096x32"): (0.345, None, (26, 24, 26)),
    ("f16a4", "qsi8d32p1x8_qai4c32p4x8_1x4_neon_dotprod", "1x4096x4096x128"): (0.2454, None, (27, 19, 29)),
    ("f16a4", "qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod", "128x1024x1024x32"): (0.1496, None, (52, 52, 52)),
    ("f16a4", "qsi8d32p4x4_qai4c32p4x4_8x4_neon_dotprod", "128x1024x1024x128"): (0.1101, None, (74, 74, 74)),
    ("f16a4", "qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm", "128x1024x1024x32"): (0.1262, None, (32, 32, 32)),
    ("f16a4", "qsi8d32p4x8_qai4c32p4x8_8x4_neon_i8mm", "128x1024x1024x128"): (0.0808, None, (57, 49, 56)),
}
REFERENCE_PACKERS = [
    ("kai_lhs_quant_pack_bf16p8x4_f32_neon", "256x256", "1.04 / element"),
    ("kai_rhs_quant_pack_kxn_bf16p12x4biasf32_f32_neon", "256x256", "1.19 / weight"),
    ("kai_lhs_quant_pack_qai8dxp_f32", "128x1024", "3.0 / element"),
    ("kai_lhs_quant_pack_qai8dxp_f16_neon", "128x1024", "2.8 / element"),
    ("kai_rhs_pack_nxk_qsi4cxp_qs4cxs1s0", "1024x1024", "20.5 / weight"),
    ("kai_rhs_pack_nxk_qsi4c32p_qsu4c32s1s0", "1024x1024", "12.6 / weight"),
    ("kai_lhs_quant_pack_qsi8d32p_f32", "128x1024", "17.9 / element"),
    ("kai_rhs_pack_nxk_qsi4c32pscalef16_qsu4c32s16s0", "1024x1024", "1.98 / weight"),
    # the packers of the remaining NEON int4 variants and of the SME-side layouts (mr / nr, kr, sr as the consumers use them: each row's "tile" in tools/perf/targets)
    ("kai_rhs_pack_nxk_qsi4cxps1s0_qsu4cxs1s0_neon", "1024x1024", "15.52 / weight"),
    ("kai_rhs_pack_nxk_qsi4c32pnrx4_qsu4c32s1s0_neon", "1024x1024, bl 32", "2.54 / weight"),
    ("kai_rhs_pack_nxk_qsi4c32pnrx8_qsu4c32s1s0_neon", "1024x1024, bl 32", "2.19 / weight"),
    ("kai_rhs_pack_nxk_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon", "1024x1024, bl 32", "1.94 / weight"),
    ("kai_rhs_pack_kxn_qsi4c32ps1s0nrx4_qsu4c32s1s0_neon", "1024x1024, bl 32", "2.54 / weight"),
    ("kai_rhs_pack_nxk_qsi4c32ps1s0scalef16_qsu4c32s16s0_neon", "1024x1024, bl 32", "1.35 / weight"),
    ("kai_rhs_pack_nxk_qsi4c32ps4s0sf16_qsu4c32s16s0_neon", "1024x1024, bl 32", "1.21 / weight"),
    ("kai_lhs_quant_pack_qsi8d32p_f32_neon", "128x1024, bl 32", "16.61 / element"),
    ("kai_rhs_pack_nxk_qsi8cxp_qsi8cx_neon", "1024x1024", "10.78 / weight"),
    ("kai_rhs_pack_kxn_qsi8cxp_qsi8cx_neon", "1024x1024", "11.91 / weight"),
    # 16-bit activations: the f16 and bf16 packers
    ("kai_lhs_pack_bf16p8x4_f16_neon", "128x1024", "0.95 / element"),
    ("kai_rhs_pack_kxn_bf16p12x4biasf16_f16_neon", "1024x1024", "1.09 / weight"),
    ("kai_rhs_pack_kxn_bf16p12x4biasf32_f16_neon", "1024x1024", "1.09 / weight"),
    ("kai_lhs_quant_pack_qai8dxp_bf16_neon", "128x1024", "2.86 / element"),
    # asymmetric int4 (zero points per block)
    ("kai_lhs_quant_pack_qsi8d32pscalef32_f32_neon", "128x1024, bl 32", "5.31 / element"),
    ("kai_lhs_quant_pack_qsi8d32pscalef32_f16_neon", "128x1024, bl 32", "19.06 / element"),
    ("kai_rhs_pack_nxk_qai4c32p_qau4c32s0s1_f32_f32_f32_neon", "1024x1024, bl 32", "18.49 / weight"),
    ("kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s0s1_f32_f32_f32_neon", "1024x1024, bl 32", "1.14 / weight"),
    ("kai_rhs_pack_nxk_qai4c32ps1s0nrx4_qau4c32s1s0_f32_f32_f32_neon", "1024x1024, bl 32", "0.95 / weight"),
]
TARGETS = ["bf16", "int4cx", "int4c32", "q4_0", "int8cx", "bf16f16", "out16", "asym4"]

CPUS = ["neoverse-n2", "neoverse-v1", "neoverse-v2"]


def kernels():
    return kai_list.load(ROOT).entries


def is_gemv(variant):
    # The tile in the name: <m_step>x<n_step>[x<k>]; GEMV kernels have m_step 1.
    m = re.search(r"_(\d+)x(\d+)(?:x\d+)?_neon", variant)
    return m is not None and m.group(1) == "1"


def packed_rhs_bytes(fam, stem, shape):
    """Bytes of packed weights a call reads (spec layouts), for the bandwidth comparison."""
    n, k = shape[1], shape[2]
    bl = shape[3] if len(shape) > 3 else 32
    if fam in ("bf16", "bf16o"):
        kp = -(-k // 4) * 4
        return -(-n // 12) * 12 * (4 + 2 * kp)
    if fam == "f16bf16":
        kp = -(-k // 4) * 4
        return -(-n // 12) * 12 * (2 + 2 * kp)
    if fam == "cx":
        kp = -(-k // 32) * 32
        return n * (kp // 2 + 12)
    if fam == "c32":
        return n * ((k // bl) * (bl // 2 + 2) + 8)
    if fam == "q40":
        return n * (k // bl) * (bl // 2 + 2)
    if fam == "i8cx":
        kp = -(-k // 32) * 32
        return n * (kp + 12)
    return None


def min_mmla_dot(variant, shape):
    m, n, k = shape[:3]
    bf16_arith = "bf16p" in variant  # BFMMLA / BFDOT operands (not the bf16-output integer kernels)
    if "mmla" in variant or "i8mm" in variant:
        per = 16 if bf16_arith else 32
    else:
        per = 8 if bf16_arith else 16
    return m * n * k / per


def fmt3(xs):
    return "/".join("%.0f" % x for x in xs) if xs else "-"


def measure_family(fam, spec, entries):
    # NEON kernels only: tools/perf has no driver for the SVE and SME ones (their figures are in
    # the hand-written analysis block).
    variants = [e["name"][len("kai_matmul_clamp_"):] for e in entries
                if e["kind"] == "matmul" and e["dir"].endswith(spec["dir"]) and "_neon" in e["name"]]
    rows = []
    for v in variants:
        stem = v.split("_", 1)[1]  # drop the output type (f32_ / bf16_)
        if is_gemv(v):
            shapes = [spec["gemv"]] + ([spec["extra_gemv"]] if "extra_gemv" in spec else [])
        else:
            shapes = [spec["gemm"]] + ([spec["extra_gemm"]] if "extra_gemm" in spec else [])
        for shape in shapes:
            row = {"variant": v, "stem": stem, "shape": "x".join(map(str, shape))}
            try:
                r = kai_targets.measure("kai_matmul_clamp_" + v, shape)
            except RuntimeError as e:
                print("  %s %s: %s" % (v, row["shape"], e), flush=True)
                r = None
            if r is not None:
                row["ipm"] = r["ipm"]
                # Whole percents, as the tables print them (the GEMV bandwidth table computes with them).
                row["peak"] = [round(r["loop"][c]) for c in CPUS] if r.get("loop") else []
                row["call"] = [round(r["call"][c]) for c in CPUS] if r.get("call") else []
                row["mm"] = r["mmla_dot"]
                row["mm_min"] = min_mmla_dot(v, shape)
            row["rhs_bytes"] = packed_rhs_bytes(fam, stem, shape)
            rows.append(row)
            print("  %-60s %-18s %s" % (v, row["shape"], "ipm %.4f" % row["ipm"] if "ipm" in row else "FAILED"), flush=True)
    return rows


def chart(results, path):
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        if shutil.which("apt-get") and os.geteuid() == 0:
            subprocess.run(["apt-get", "install", "-y", "-qq", "python3-matplotlib"], capture_output=True)
        sys.path.append("/usr/lib/python3/dist-packages")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("perf_report: python3-matplotlib unavailable; chart skipped")
        return False
    # Like with like: our hot loop and whole call, and the reference's where the issues quote them.
    labels, series = [], {"kai hot loop": [], "kai whole call": [], "reference hot loop": [], "reference whole call": []}
    for fam, rows in results.items():
        for r in rows:
            if not r.get("call"):
                continue
            labels.append("%s %s\n%s" % (fam, r["stem"], r["shape"]))
            rr = REFERENCE.get((fam if fam != "bf16o" else "bf16", r["stem"], r["shape"]))
            series["kai hot loop"].append(r["peak"][0] if r.get("peak") else 0)
            series["kai whole call"].append(r["call"][0])
            series["reference hot loop"].append(rr[1][0] if rr and rr[1] else 0)
            series["reference whole call"].append(rr[2][0] if rr and rr[2] else 0)
    if not labels:
        return False
    fig, ax = plt.subplots(figsize=(max(10, 0.7 * len(labels)), 6))
    xs = list(range(len(labels)))
    width = 0.2
    for i, (name, values) in enumerate(series.items()):
        ax.bar([x + (i - 1.5) * width for x in xs], values, width, label=name)
    ax.set_xticks(xs)
    ax.set_xticklabels(labels, rotation=75, fontsize=6)
    ax.set_ylabel("% of modelled MMLA/DOT peak, Neoverse N2")
    ax.set_title("kai vs the reference library (absent bar: figure not quoted)")
    ax.set_ylim(0, 105)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    return True


# The method section of the generated document.
METHOD = """## Method

Everything here is measured by the tools in `tools/perf/`, from a clone of the repository with what
`tools/setup.sh` installs (the AArch64 cross compiler, Debian's qemu-aarch64 7.2, host gcc, llvm-19):

* `tools/perf/kai_perf.py KERNEL M N K [BL]` builds `tools/perf/perf_driver.c` with a case file it
  writes for the kernel (its first LHS and RHS packers in `kai/kernels.bzl`'s `KAI_PACKER_FEEDS`,
  every argument chosen by its parameter name in the prototypes), statically, every file at `-O3`
  with `-march=armv8.6-a+bf16+i8mm+dotprod` (`+fp16` for f16 files). The program packs random
  inputs and calls the kernel once over the whole M x N output.
* It runs the program under `qemu-aarch64 -cpu max` with `tools/perf/insn_classes_plugin.c`, a TCG
  plugin (API version 1, built with the host gcc into `tools/perf/.build/` on first use). The plugin
  follows each call of the kernel and of the packers from entry to return, callees included, counts
  the executed instructions by class from their encodings (MMLA, DOT, SIMD&FP loads and stores,
  other SIMD, scalar loads and stores, branches, other) and records every translation block the call
  executed with its execution count. **insn/MAC** and **MMLA/DOT** come from these exact counts.
* **hot loop %**: the loops of the call are its backward branches that ran; the hot loop is the
  innermost loop that executed the most instructions, or its parent when it runs fewer than 4 times
  per iteration of the parent (the inner body then repeated as often as it ran). llvm-mca-19 runs
  the loop as one straight block (every branch and PC-relative operand pointing at one label) at
  200 and 400 iterations; the difference over 200 is the steady-state cycles per iteration. The
  figure is the time the MMLA/DOT pipes are busy, the sum over the loop's MMLA/DOT instructions of
  1 / peak(kind), over those cycles; peak(kind) is the model's throughput on 24 independent
  instructions of that kind (FMLA, SMLAL, UMLAL, SMULL and UMULL stand in for code without MMLA/DOT).
* **call %**: the same over everything the call executed: each loop whose instructions all run once
  per iteration (inner loops included when they run a whole number of times, fewer than 4, per
  iteration) is one item per iteration, every other translation block (or its part outside such a
  loop) is an item of its own, each costed as above and weighted by its execution count.
* Packers alone: `tools/perf/kai_perf.py PACKER M N K [BL] [--tile mr=..,kr=..,sr=.. | --consumer KERNEL]`.
  `tools/perf/kai_targets.py FILE` measures a targets file (`tools/perf/targets/*.json`: kai's bounds,
  and the reference library's figures on the same tools) and says whether each row holds.
* `python3 tools/perf/selftest/run.py` (CI) checks the plugin's counts on hand-counted loops, the loop
  finder and the model's SMMLA peak.
"""

NOTES_BEGIN = "<!-- analysis: begin (hand-written; tools/perf_report.py keeps this block) -->"
NOTES_END = "<!-- analysis: end -->"


def kept_notes(path):
    """The hand-written analysis block of the current file, kept across regenerations."""
    try:
        text = open(path).read()
    except OSError:
        return ""
    if NOTES_BEGIN not in text or NOTES_END not in text:
        return ""
    return text[text.index(NOTES_BEGIN): text.index(NOTES_END) + len(NOTES_END)]


def write_doc(results, targets_out, has_chart):
    notes = kept_notes(os.path.join(ROOT, "docs", "performance.md"))
    L = []
    L.append("# Performance\n")
    L.append("Generated by `python3 tools/perf_report.py` (do not edit by hand). Every figure is deterministic:")
    L.append("executed instruction counts from QEMU and llvm-mca-19's models of Neoverse N2, V1 and V2, made by")
    L.append("the tools in `tools/perf/` (method below). Wall time under qemu says nothing about hardware speed")
    L.append("and is never quoted here.\n")
    L.append("Per kernel (the command for one row is `python3 tools/perf/kai_perf.py KERNEL M N K [BL]`):\n")
    L.append("* **insn/MAC**: instructions executed by `kai_run_matmul_*` divided by M·N·K;")
    L.append("* **MMLA/DOT vs min**: MMLA/DOT instructions executed against M·N·K / MACs per instruction;")
    L.append("* **hot loop %**: the hottest loop's modelled fraction of MMLA/DOT peak, N2/V1/V2;")
    L.append("* **call %**: the whole call's (epilogues, edges and tails included), N2/V1/V2;")
    L.append("* **reference**: KleidiAI v1.30.0's figures, measured with the same tools on the same shapes.\n")
    if has_chart:
        L.append("![modelled % of peak per kernel, kai against the reference library](performance.svg)\n")
    for fam, rows in results.items():
        spec = FAMILIES[fam]
        L.append("## %s\n" % spec["title"])
        L.append("| kernel | shape | insn/MAC | MMLA/DOT vs min | hot loop % | call % | reference insn/MAC | reference hot % | reference call % |")
        L.append("|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            rr = REFERENCE.get((fam if fam != "bf16o" else "bf16", r["stem"], r["shape"]))
            mm = "%.0f / %.0f" % (r["mm"], r["mm_min"]) if "mm" in r else "-"
            L.append("| `%s` | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                r["variant"], r["shape"], "%.4f" % r["ipm"] if "ipm" in r else "failed", mm,
                fmt3(r.get("peak")), fmt3(r.get("call")),
                "%.4f" % rr[0] if rr else "-", fmt3(rr[1]) if rr else "-", fmt3(rr[2]) if rr and rr[2] else "-"))
        L.append("")
    L.append("## Packers (reference library, instructions per element or weight)\n")
    L.append("| packer | shape | reference |")
    L.append("|---|---|---|")
    for name, shape, fig in REFERENCE_PACKERS:
        L.append("| `%s` | %s | %s |" % (name, shape, fig))
    L.append("\nkai's packer figures are the `lhs`/`rhs` columns of the targets runs below.\n")
    L.append("## Targets (`python3 tools/perf/kai_targets.py tools/perf/targets/<family>.json`)\n")
    for t, out in targets_out.items():
        L.append("### %s\n" % t)
        L.append("```")
        L.append(out.strip())
        L.append("```\n")
    L.append(METHOD)
    L.append("## What the model does and does not capture\n")
    L.append("llvm-mca models a core's pipes, latencies and issue width for code running from the L1 cache with")
    L.append("perfect branch prediction and an idealised front end. It does not model cache misses, memory")
    L.append("bandwidth, prefetching, TLB misses, frequency or other cores. Large GEMMs keep their packed")
    L.append("operands in cache by tiling, so the model is a fair guide for them. GEMV is different: at M = 1")
    L.append("every weight is read once per token, so on real hardware decode is usually bound by memory")
    L.append("bandwidth. The table compares, for each GEMV measured above at its shape, the time to stream")
    L.append("its packed weights at 100 GB/s (a typical server socket) with the modelled compute time of one")
    L.append("core at 3 GHz running at the modelled whole-call fraction of peak (Neoverse V1: 4 SDOT or BFDOT")
    L.append("per cycle). When the compute time of one core exceeds the bandwidth time, a few cores reading")
    L.append("disjoint column ranges (the offset API) saturate the socket's bandwidth.\n")
    L.append("| GEMV | shape | packed weights | time at 100 GB/s | modelled compute, 1 core | cores to saturate |")
    L.append("|---|---|---|---|---|---|")
    for fam, rows in results.items():
        for r in rows:
            m, n, k = [int(x) for x in r["shape"].split("x")[:3]]
            if m != 1 or not r.get("call") or r.get("rhs_bytes") is None:
                continue
            macs = m * n * k
            per_instr = 8 if fam in ("bf16", "bf16o") else 16
            peak_mac_per_cycle = 4 * per_instr
            frac = r["call"][1] / 100.0
            if frac <= 0:
                continue
            t_compute = macs / (peak_mac_per_cycle * frac) / 3.0e9
            t_bw = r["rhs_bytes"] / 100e9
            L.append("| `%s` | %s | %.1f MiB | %.0f us | %.0f us | %d |" % (
                r["variant"], r["shape"], r["rhs_bytes"] / 2**20, t_bw * 1e6, t_compute * 1e6,
                max(1, int(-(-t_compute // t_bw)))))
    L.append("")
    if notes:
        L.append(notes)
        L.append("")
    open(os.path.join(ROOT, "docs", "performance.md"), "w").write("\n".join(L))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # A family by its name in kai/kernels.bzl (qsi4c32p); the targets files' prefix (c32) is accepted too.
    by_name = {spec["family"]: key for key, spec in FAMILIES.items()}
    ap.add_argument("--family", action="append", choices=sorted(by_name) + sorted(FAMILIES))
    ap.add_argument("--no-targets", action="store_true")
    args = ap.parse_args()
    entries = kernels()
    results = {}
    for fam in [by_name.get(f, f) for f in args.family] if args.family else list(FAMILIES):
        print("measuring %s" % fam, flush=True)
        results[fam] = measure_family(fam, FAMILIES[fam], entries)
    targets_out = {}
    if not args.no_targets:
        for t in TARGETS:
            print("targets %s" % t, flush=True)
            text, _ = kai_targets.check(os.path.join(ROOT, "tools", "perf", "targets", t + ".json"),
                                        {k: v["dir"] for k, v in FAMILIES.items()})
            targets_out[t] = text
    has_chart = chart(results, os.path.join(ROOT, "docs", "performance.svg"))
    write_doc(results, targets_out, has_chart)
    print("wrote docs/performance.md")


if __name__ == "__main__":
    main()
