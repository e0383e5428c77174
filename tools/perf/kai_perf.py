#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Deterministic performance figures of one kai kernel call, without Arm hardware.

    python3 tools/perf/kai_perf.py KERNEL M N K [BL] [--json FILE] [--lhs PACKER] [--rhs PACKER]

KERNEL is a kernel name of kai/kernels.bzl (kai_matmul_clamp_... or the part after it). The tool
  1. writes a case file for tools/perf/perf_driver.c that runs the kernel's LHS and RHS packers
     (the first of each kind that kai/kernels.bzl's KAI_PACKER_FEEDS lists for it, or --lhs/--rhs)
     and the kernel once over the whole output, and builds it statically with the cross compiler
     (every file at -O3 with one -march naming every feature, as the published figures were made);
  2. runs it under qemu-aarch64 (7.2, which loads TCG plugins) with tools/perf/insn_classes_plugin.c,
     which counts the instructions of each call by class and records every translation block the
     call executed with its execution count;
  3. models with llvm-mca-19, on Neoverse N2, V1 and V2:
     - the hot loop: the innermost loop of the call that executed the most instructions; a loop
       that runs fewer than MIN_TRIP times per iteration of its parent is analysed as part of the
       parent, with its body repeated as often as it ran;
     - the whole call: every straight loop (each instruction once per iteration, inner loops
       included when they qualify and run a whole number of times below MIN_TRIP per iteration)
       as one item per iteration, everything else translation block by translation block, each
       item weighted by its execution count;
     and reports each as a fraction of the MMLA/DOT peak (FMLA/SMLAL/UMLAL/SMULL/UMULL where the
     code has no MMLA/DOT): busy / cycles, where busy adds 1 / peak(kind) per executed
     instruction of each kind and the peak of a kind is the model's throughput on a block of 24
     independent instructions of it. Cycles of a block are steady-state: llvm-mca at N and 2N
     iterations, (C(2N) - C(N)) / N, every branch and PC-relative operand pointing at one label.

Needs: aarch64-linux-gnu-gcc and -nm, qemu-aarch64 with plugin support (Debian 12's 7.2; set
KAI_PERF_QEMU to another), host gcc (builds the plugin into tools/perf/.build/, ignored by git),
llvm-mca-19 and llvm-objdump-19. Python standard library only.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import kai_list  # noqa: E402

BUILD = os.environ.get("KAI_PERF_BUILD", os.path.join(HERE, ".build"))
CC = os.environ.get("AARCH64_CC", "aarch64-linux-gnu-gcc")
NM = os.environ.get("AARCH64_NM", "aarch64-linux-gnu-nm")
QEMU = os.environ.get("KAI_PERF_QEMU", "/usr/bin/qemu-aarch64")
MCA = os.environ.get("KAI_PERF_MCA", "llvm-mca-19")
OBJDUMP = os.environ.get("KAI_PERF_OBJDUMP", "llvm-objdump-19")
HOST_CC = os.environ.get("HOST_CC", "gcc")
# The flags kai's published figures were measured with: every file at -O3, one -march with every
# NEON feature a kernel may use (f16 files add +fp16).
CFLAGS = ["-O3", "-DNDEBUG", "-march=armv8.6-a+bf16+i8mm+dotprod", "-std=gnu11", "-w"]
# SME and SME2 kernels: clang-19, with the flags the SME figures were measured with in
# docs/performance.md; they run under an SME2 qemu (KAI_QEMU_DIR, as tools/setup.sh installs it)
# with SVL 512 and SVE VL 256, and are counted from qemu's execution log (trace_profile).
SME_CC = os.environ.get("KAI_PERF_SME_CC", "clang-19")
SME_CFLAGS = ["--target=aarch64-linux-gnu", "-O2", "-DNDEBUG", "-march=armv9-a+sme2", "-w"]
SME_QEMU = os.environ.get("KAI_PERF_SME_QEMU", os.path.join(os.environ.get("KAI_QEMU_DIR", "/opt/kai/qemu"), "bin", "qemu-aarch64"))
SME_CPU = "max,sve256=on,sme512=on"
MATTR = "+bf16,+i8mm,+dotprod,+fp16"
CPUS = ["neoverse-n2", "neoverse-v1", "neoverse-v2"]
MIN_TRIP = 4
MCA_ITERATIONS = int(os.environ.get("KAI_PERF_MCA_ITERATIONS", "200"))
CLASSES = ["bfmmla", "i8mmla", "dot", "vld", "vst", "simd", "ld", "st", "branch", "other"]

# Useful-work kinds: MACs per instruction (Advanced SIMD, 128-bit) and the synthetic form the peak is
# measured on (%d = the destination register).
MM_KINDS = {
    "bfmmla": (16, "bfmmla v%d.4s, v28.8h, v29.8h"),
    "smmla": (32, "smmla v%d.4s, v28.16b, v29.16b"),
    "ummla": (32, "ummla v%d.4s, v28.16b, v29.16b"),
    "usmmla": (32, "usmmla v%d.4s, v28.16b, v29.16b"),
    "sdot": (16, "sdot v%d.4s, v28.16b, v29.16b"),
    "udot": (16, "udot v%d.4s, v28.16b, v29.16b"),
    "usdot": (16, "usdot v%d.4s, v28.16b, v29.16b"),
    "sudot": (16, "sudot v%d.4s, v28.16b, v29.4b[0]"),
    "bfdot": (8, "bfdot v%d.4s, v28.8h, v29.8h"),
}
PLAIN_KINDS = {
    "fmla": (4, "fmla v%d.4s, v28.4s, v29.4s"),
    "smlal": (4, "smlal v%d.4s, v28.4h, v29.4h"),
    "smlal2": (4, "smlal2 v%d.4s, v28.8h, v29.8h"),
    "umlal": (4, "umlal v%d.4s, v28.4h, v29.4h"),
    "umlal2": (4, "umlal2 v%d.4s, v28.8h, v29.8h"),
    "smull": (8, "smull v%d.8h, v28.8b, v29.8b"),
    "smull2": (8, "smull2 v%d.8h, v28.16b, v29.16b"),
    "umull": (8, "umull v%d.8h, v28.8b, v29.8b"),
    "umull2": (8, "umull2 v%d.8h, v28.16b, v29.16b"),
}
BRANCHES = re.compile(r"^(b|bl|b\.\w+|bc\.\w+|cbz|cbnz|tbz|tbnz)$")
PC_RELATIVE = re.compile(r"^(b|bl|b\.\w+|bc\.\w+|cbz|cbnz|tbz|tbnz|adr|adrp|ldr|ldrsw|prfm)$")


def log(*a):
    if os.environ.get("KAI_PERF_VERBOSE"):
        print(*a, file=sys.stderr, flush=True)


def sh(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s%s" % (" ".join(cmd[:3]), r.returncode, r.stdout[-2000:], r.stderr[-4000:]))
    return r.stdout


def newer(target, *sources):
    return os.path.exists(target) and all(os.path.getmtime(target) >= os.path.getmtime(s) for s in sources)


# ---------------------------------------------------------------------------------------------- build
def plugin():
    """Builds the TCG plugin with the host compiler on first use."""
    src = os.path.join(HERE, "insn_classes_plugin.c")
    so = os.path.join(BUILD, "insn_classes_plugin.so")
    if not newer(so, src):
        os.makedirs(BUILD, exist_ok=True)
        sh([HOST_CC, "-O2", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-o", so, src])
    return so


def compile_object(src, extra=()):
    """Cross-compiles one file (cached by path, flags and modification time). SME code goes to
    clang-19 with SME_CFLAGS (the flags of the recorded SME figures)."""
    flags = list(CFLAGS) + list(extra)
    if re.search(r"(^|_)f16(_|$|\.)", os.path.basename(src)):
        flags = [f + "+fp16" if f.startswith("-march=") else f for f in flags]
    if "_sve_" in os.path.basename(src):
        flags = [f + "+sve" if f.startswith("-march=") else f for f in flags]
    sme = re.search(r"_sme2?(_|\.)", os.path.basename(src)) is not None
    if sme:
        flags = list(SME_CFLAGS) + list(extra)
    key = hashlib.sha1(("%s|%s" % (os.path.abspath(src), " ".join(flags))).encode()).hexdigest()[:16]
    obj = os.path.join(BUILD, "obj", "%s-%s.o" % (os.path.basename(src)[:-2], key))
    if newer(obj, src):
        return obj
    os.makedirs(os.path.dirname(obj), exist_ok=True)
    cmd = [SME_CC, *flags, "-I", ROOT, "-c", "-o", obj, src] if sme else [CC, *flags, "-I", ROOT, "-c", "-o", obj, src]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 and "internal compiler error" in r.stderr:
        # gcc 12 crashes in the vectoriser on a few packers at -O3; the figures were made with
        # the vectoriser off for those files.
        sh(cmd[:1] + ["-fno-tree-vectorize"] + cmd[1:])
    elif r.returncode != 0:
        raise RuntimeError("compiling %s failed:\n%s" % (src, r.stderr[-4000:]))
    return obj


def prototype(header, func):
    """(type, name) of each parameter of `func` as declared in `header`."""
    text = re.sub(r"//[^\n]*", "", open(os.path.join(ROOT, header)).read())
    m = re.search(r"\b%s\s*\(([^)]*)\)\s*;" % re.escape(func), text)
    if not m:
        raise RuntimeError("%s not declared in %s" % (func, header))
    params = []
    for p in m.group(1).split(","):
        p = " ".join(p.split())
        if p in ("", "void"):
            continue
        pm = re.match(r"(.*?)\s*\b(\w+)$", p)
        params.append((pm.group(1), pm.group(2)))
    return params


def struct_fields(name):
    """Field names of `struct name` in kai's headers (following a #define alias of the name)."""
    texts = []
    for dirpath, _, files in os.walk(os.path.join(ROOT, "kai")):
        texts += [open(os.path.join(dirpath, f)).read() for f in files if f.endswith(".h")]
    for _ in range(4):
        for text in texts:
            m = re.search(r"struct\s+%s\s*\{(.*?)\};" % re.escape(name), text, re.S)
            if m:
                body = re.sub(r"//[^\n]*", "", m.group(1))
                return re.findall(r"(\w+)\s*;", body)
        alias = [m.group(1) for t in texts for m in [re.search(r"#define\s+%s\s+(\w+)" % re.escape(name), t)] if m]
        if not alias:
            break
        name = alias[0]
    raise RuntimeError("struct %s not found under kai/" % name)


PARAM_VALUES = {"lhs_zero_point": "1", "rhs_zero_point": "8", "scale_dt": "kai_dt_bf16", "scale_multiplier": "1.0f"}


def source_elem(packer):
    """(bytes per element, is IEEE half) of a packer's unpacked input, from its name."""
    name = packer["name"]
    if re.search(r"_qs4|_qsu4|_qau4", name):
        return 1, False  # two nibbles a byte (the buffer is sized per element: generous)
    if "_qsi8cx_" in name or name.endswith("_qsi8cx"):
        return 1, False
    if re.search(r"_f16(_neon)?$", name):
        return 2, True
    if re.search(r"_bf16(_neon)?$", name):
        return 2, False
    return 4, False


def header_of(entry):
    return os.path.join(entry["dir"], entry["name"] + ".h")


def call_args(params, values, what):
    out = []
    for ptype, pname in params:
        if pname not in values:
            raise RuntimeError("%s: no value for parameter %s %s" % (what, ptype, pname))
        v = values[pname]
        out.append("(%s)%s" % (ptype, v) if "*" in ptype and not v.startswith("&") and v != "NULL" else v)
    return ", ".join(out)


def packer_params(packer):
    """Declarations of the params struct a packer's run function takes, and the argument."""
    for ptype, pname in prototype(header_of(packer), "kai_run_" + packer["name"][4:]):
        if pname == "params" and "struct" in ptype:
            sname = re.search(r"struct\s+(\w+)", ptype).group(1)
            decl = ["    struct %s params;" % sname, "    memset(&params, 0, sizeof(params));"]
            decl += ["    params.%s = %s;" % (f, PARAM_VALUES[f]) for f in struct_fields(sname) if f in PARAM_VALUES]
            return decl, "&params"
        if pname == "params":
            return [], "NULL"
    return [], "NULL"


def case_source(kernel, lhs, rhs, tile=None, run_kernel=True):
    """The perf_case() of perf_driver.c: runs the LHS packer, the RHS packer and the kernel (either
    packer may be None). mr, nr, kr and sr come from the kernel's getters, or from `tile` without a
    kernel; with run_kernel False the kernel only gives them. Every argument is chosen by its
    parameter name in the prototype (m, k, mr, lhs_stride, scale_dt, params...)."""
    common = {"m": "s->m", "n": "s->n", "k": "s->k", "bl": "s->bl", "mr": "mr", "nr": "nr", "kr": "kr", "sr": "sr",
              "m_idx_start": "0", "num_groups": "1", "extra_bytes": "0", "scale_dt": "kai_dt_bf16"}
    L = ['#include "%s"' % header_of(e) for e in (kernel, lhs, rhs) if e]
    L.append("static double perf_case(const struct perf_shape* s) {")
    if kernel:
        suffix = kernel["name"][len("kai_"):]
        header = open(os.path.join(ROOT, header_of(kernel))).read()
        L.append("    const size_t mr = %s, nr = %s, kr = %s, sr = %s;" % tuple(
            "kai_get_%s_%s()" % (w, suffix) if "kai_get_%s_%s(" % (w, suffix) in header else "1"
            for w in ("mr", "nr", "kr", "sr")))
    else:
        L.append("    const size_t mr = %d, nr = %d, kr = %d, sr = %d;" % tuple(tile.get(w, 1) for w in ("mr", "nr", "kr", "sr")))
    L.append("    const size_t blocks = s->k / (s->bl ? s->bl : 1) + 1;")
    L.append("    void* lhs_packed = NULL;")
    L.append("    void* rhs_packed = NULL;")
    L.append("    (void)mr, (void)nr, (void)kr, (void)sr, (void)blocks, (void)lhs_packed, (void)rhs_packed;")
    if lhs:
        lhs_b, lhs_half = source_elem(lhs)
        size = "kai_get_lhs_packed_size_" + lhs["name"][len("kai_"):]
        L.append("    void* lhs = perf_input(s->m * s->k, %d, %d);" % (lhs_b, lhs_half))
        L.append("    lhs_packed = perf_alloc(%s(%s));" % (size, call_args(prototype(header_of(lhs), size), common, size)))
        lv = dict(common, lhs="lhs", lhs_stride="s->k * %d" % lhs_b, lhs_stride_row="s->k * %d" % lhs_b, lhs_packed="lhs_packed")
        run = "kai_run_" + lhs["name"][4:]
        L.append("    %s(%s);" % (run, call_args(prototype(header_of(lhs), run), lv, run)))
    if rhs:
        rhs_b, rhs_half = source_elem(rhs)
        kxn = "_kxn_" in rhs["name"]
        if re.search(r"_qs4|_qsu4|_qau4", rhs["name"]):
            rhs_stride = "(s->n + 1) / 2" if kxn else "(s->k + 1) / 2"
        else:
            rhs_stride = "s->n * %d" % rhs_b if kxn else "s->k * %d" % rhs_b
        L.append("    void* rhs = perf_input((s->n + 2) * (s->k + 2), %d, %d);" % (rhs_b, rhs_half))
        L.append("    void* bias = perf_input(s->n, %d, %d);" % ((2, 1) if "biasf16" in rhs["name"] else (4, 0)))
        L.append("    void* scale = perf_scales((s->n + 2) * blocks * 4);")
        L.append("    void* zero = perf_scales((s->n + 2) * blocks * 4);")
        L.append("    (void)bias, (void)scale, (void)zero;")
        decl, params = packer_params(rhs)
        L.extend(decl)
        size = "kai_get_rhs_packed_size_" + rhs["name"][len("kai_"):]
        L.append("    rhs_packed = perf_alloc(%s(%s));" % (size, call_args(prototype(header_of(rhs), size), common, size)))
        rv = dict(common, rhs="rhs", rhs_stride=rhs_stride, bias="bias", scale="scale", zero="zero", params=params,
                  scale_stride="s->k / (s->bl ? s->bl : 1) * 2", rhs_packed="rhs_packed")
        run = "kai_run_" + rhs["name"][4:]
        L.append("    %s(%s);" % (run, call_args(prototype(header_of(rhs), run), rv, run)))
    if kernel and run_kernel and not lhs:
        # A kernel that reads its LHS unpacked (kai_matmul_clamp_<dst>_f32_...: the SME2 GEMVs).
        L.append("    void* lhs = perf_input(s->m * s->k, 4, 0);")
    if kernel and run_kernel:
        dst_bytes = 4 if suffix.startswith("matmul_clamp_f32_") else 2
        L.append("    void* dst = perf_alloc(s->m * s->n * %d);" % dst_bytes)
        kv = dict(common, lhs_packed="lhs_packed", rhs_packed="rhs_packed", dst="dst", lhs="lhs", lhs_stride="s->k * 4",
                  dst_stride_row="s->n * %d" % dst_bytes, dst_stride_col="%d" % dst_bytes,
                  scalar_min="-FLT_MAX", scalar_max="FLT_MAX", clamp_min="-FLT_MAX", clamp_max="FLT_MAX")
        run = "kai_run_" + suffix
        L.append("    %s(%s);" % (run, call_args(prototype(header_of(kernel), run), kv, run)))
        L.append("    return perf_checksum(dst, s->m * s->n * %d);" % dst_bytes)
    else:
        L.append("    return (lhs_packed ? perf_checksum(lhs_packed, 64) : 0.0) + (rhs_packed ? perf_checksum(rhs_packed, 64) : 0.0);")
    L.append("}")
    return "\n".join(L) + "\n"


def choose_packers(lst, kernel, lhs_name=None, rhs_name=None):
    feeds = lst.packers_for(kernel)
    lhs = lst.entry(lhs_name) if lhs_name else next((p for p in feeds if p["kind"] == "lhs_packer"), None)
    rhs = lst.entry(rhs_name) if rhs_name else next((p for p in feeds if p["kind"] == "rhs_packer"), None)
    if lhs is None and "lhs_packer" not in lst.packer_kinds_needed(kernel):
        return None, rhs
    if lhs is None or rhs is None:
        raise RuntimeError("%s: no LHS or RHS packer (kai/kernels.bzl KAI_PACKER_FEEDS)" % kernel["name"])
    return lhs, rhs


def build_driver(kernel, lhs, rhs, tile=None, run_kernel=True):
    """Writes the case file and links perf_driver for a kernel and/or packers (cached)."""
    parts = [e for e in (kernel, lhs, rhs) if e]
    tag = "+".join(e["name"] for e in parts) + (json.dumps(tile, sort_keys=True) if tile else "") + ("" if run_kernel else "/pack")
    d = os.path.join(BUILD, "cases", hashlib.sha1(tag.encode()).hexdigest()[:12])
    os.makedirs(d, exist_ok=True)
    case = os.path.join(d, "case.inc")
    text = case_source(kernel, lhs, rhs, tile, run_kernel)
    if not os.path.exists(case) or open(case).read() != text:
        open(case, "w").write(text)
    exe = os.path.join(d, "perf_driver")
    objs = [compile_object(os.path.join(ROOT, e["dir"], e["name"] + ".c")) for e in parts]
    drv = os.path.join(d, "perf_driver.o")
    if not newer(drv, case, os.path.join(HERE, "perf_driver.c")):
        sh([CC, "-O1", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-march=armv8.6-a+bf16+i8mm+dotprod+fp16", "-I", ROOT,
            "-DKAI_PERF_CASE=\"%s\"" % case, "-c", "-o", drv, os.path.join(HERE, "perf_driver.c")])
    if not newer(exe, drv, *objs):
        sh([CC, "-static", "-o", exe, drv, *objs, "-lm"])
    return exe


# ---------------------------------------------------------------------------------------------- run
def symbols(exe):
    """Function symbols: sorted (address, size, name)."""
    out = []
    for line in sh([NM, "-S", "--defined-only", exe]).splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in "tTWiI":
            out.append((int(p[0], 16), int(p[1], 16), p[3]))
    return sorted(out)


def profile(exe, args, funcs, out_json):
    """Runs `exe args` under qemu with the plugin; one region per function name in `funcs`."""
    syms = {name: addr for addr, _, name in symbols(exe)}
    calls = ["call=0x%x:%s" % (syms[f], f) for f in funcs]
    r = subprocess.run([QEMU, "-cpu", "max", "-plugin", ",".join([plugin(), "out=" + out_json] + calls), exe, *map(str, args)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s failed under qemu (%d): %s" % (exe, r.returncode, r.stderr[-2000:]))
    regions = {}
    for g in json.load(open(out_json))["regions"]:
        merged = {}
        for addr, n, execs in g["blocks"]:
            merged[(addr, n)] = merged.get((addr, n), 0) + execs
        g["blocks"] = sorted((a, n, e) for (a, n), e in merged.items())
        regions[g["label"]] = g
    return regions


# Classes from llvm-objdump's mnemonic and operands: for code the plugin cannot see (the SME2 qemu
# is a static binary that loads no plugin). The same ten classes as the plugin's, with the MOPA and
# the DOT/MLA into ZA also counted apart (mac_insns).
BRANCH_MNEMONICS = re.compile(r"^(b|bl|br|blr|ret|b\.\w+|cbn?z|tbn?z|svc|hint|nop|msr|mrs|isb|dsb|dmb|yield|bti|"
                              r"paci\w*|auti\w*|retaa|retab|blraa\w*|braa\w*|hlt|brk|udf|smstart|smstop)$")
FP_OPERAND = re.compile(r"^\{?\s*([bhsdqvz]\d+|za|zt0|pn?\d+)")
# SVE and SME instructions with only general-purpose operands (the SVE encoding space: simd).
SVE_SCALAR = re.compile(r"^(addvl|addpl|addsvl|addspl|rdvl|rdsvl|cnt[bhwdp]|[su]?q?(inc|dec)[bhwdp])$")
SME_MAC = re.compile(r"^(f|bf|s|u|su|us)mopa$")


def mnemonic_class(mnemonic, operands):
    """The plugin's class of an instruction, from its disassembly."""
    if mnemonic == "bfmmla":
        return "bfmmla"
    if mnemonic in ("smmla", "ummla", "usmmla"):
        return "i8mmla"
    if mnemonic in ("sdot", "udot", "usdot", "sudot", "bfdot") and not operands.startswith("za"):
        return "dot"  # (into ZA it is SME-space data processing: simd, as the plugin classes it)
    if BRANCH_MNEMONICS.match(mnemonic):
        return "branch"
    first = operands.split(",")[0].strip()
    if re.match(r"^(ld|st|prfm)", mnemonic):
        vector = FP_OPERAND.match(first) is not None
        store = mnemonic.startswith("st")
        return ("vst" if store else "vld") if vector else ("st" if store else "ld")
    if mnemonic.startswith("f") or SVE_SCALAR.match(mnemonic) or any(FP_OPERAND.match(o.strip()) for o in operands.split(",")):
        return "simd"
    return "other"


def is_mac_insn(mnemonic, operands):
    """MOPA, DOT and MLA into ZA, and SVE/Advanced SIMD MMLA/DOT: the instructions doing the MACs."""
    if SME_MAC.match(mnemonic):
        return True
    if mnemonic in ("sdot", "udot", "usdot", "sudot", "bfdot", "fdot", "fmla", "bfmla", "smmla", "ummla", "usmmla", "bfmmla"):
        return operands.startswith("za") or mnemonic not in ("fmla", "bfmla")
    return False


def trace_profile(exe, args, funcs):
    """Instruction counts of each call of `funcs` (callees included) from the SME2 qemu's execution
    log: qemu runs one instruction per translation block, without chaining, logging only the
    address ranges of the functions and of every function they branch to directly (transitively).
    A call starts at the function's entry and ends at the RET its depth returns with; a BL/BLR to
    code that is not traced comes back at the instruction after it."""
    code = Code(exe)
    syms = {name: (addr, size) for addr, size, name in code.syms}
    ranges, todo, seen = [], [syms[f][0] for f in funcs], set()
    while todo:
        start, end = code.load(todo.pop())
        if start in seen:
            continue
        seen.add(start)
        ranges.append((start, end))
        for a in range(start, end, 4):
            t = code.branch_target(a)
            if t is not None and not (start <= t < end) and t not in seen:
                todo.append(t)
    ranges.sort()
    merged = []
    for lo, hi in ranges:
        if merged and lo <= merged[-1][1] + 64:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    dfilter = ",".join("0x%x+0x%x" % (lo, hi - lo) for lo, hi in merged)
    cmd = [SME_QEMU, "-cpu", SME_CPU, "-one-insn-per-tb", "-d", "nochain,exec", "-dfilter", dfilter, exe, *map(str, args)]
    entries = {syms[f][0]: f for f in funcs}
    regions = {f: {"label": f, "calls": 0, "total": 0, "mac_insns": 0, "classes": dict.fromkeys(CLASSES, 0)} for f in funcs}
    counts = {}
    active, stack = None, []
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
    trace = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")
    for line in proc.stderr:
        m = trace.match(line)
        if not m:
            continue
        pc = int(m.group(1), 16)
        if active is None:
            if pc not in entries:
                continue
            active, stack = entries[pc], []
            regions[active]["calls"] += 1
        if stack and pc == stack[-1]:
            stack.pop()
        key = (active, pc)
        counts[key] = counts.get(key, 0) + 1
        mn = code.insn(pc)[0]
        if mn in ("bl", "blr"):
            stack.append(pc + 4)
        elif mn == "ret" and not stack:
            active = None
    if proc.wait() != 0:
        raise RuntimeError("%s failed under the SME2 qemu (%d)" % (exe, proc.returncode))
    for (f, pc), n in counts.items():
        mn, ops = code.insn(pc)
        g = regions[f]
        g["classes"][mnemonic_class(mn, ops)] += n
        g["total"] += n
        if is_mac_insn(mn, ops):
            g["mac_insns"] += n
    return regions


# ---------------------------------------------------------------------------------------------- model
class Code:
    """The disassembly of the functions a profile's blocks lie in."""

    def __init__(self, exe):
        self.exe = exe
        self.syms = symbols(exe)
        self.insns = {}   # address -> (mnemonic, operands)
        self.funcs = {}   # function start -> (start, end)

    def function_of(self, addr):
        lo, hi = 0, len(self.syms)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.syms[mid][0] <= addr:
                lo = mid + 1
            else:
                hi = mid
        for i in range(lo - 1, max(lo - 8, -1), -1):
            a, s, _ = self.syms[i]
            if a <= addr < a + max(s, 4):
                return a, a + max(s, 4)
        return addr, addr + 4

    def load(self, addr):
        start, end = self.function_of(addr)
        if start in self.funcs:
            return self.funcs[start]
        self.funcs[start] = (start, end)
        text = sh([OBJDUMP, "-d", "--no-show-raw-insn", "--mattr=" + MATTR + ",+sve,+sve2,+sme2,+sme-i16i64,+sme-f64f64",
                   "--start-address=0x%x" % start, "--stop-address=0x%x" % end, self.exe])
        for line in text.splitlines():
            m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
            if m:
                ops = re.sub(r"\s*//.*$", "", m.group(3)).strip()
                self.insns[int(m.group(1), 16)] = (m.group(2), ops)
        return self.funcs[start]

    def insn(self, addr):
        if addr not in self.insns:
            self.load(addr)
        return self.insns.get(addr, ("<unknown>", ""))

    def mca_text(self, addr):
        mn, ops = self.insn(addr)
        if PC_RELATIVE.match(mn) and "[" not in ops:
            ops = re.sub(r"0x[0-9a-f]+(\s*<[^>]*>)?$", ".Lout", ops)
        return ("%s\t%s" % (mn, ops)).strip()

    def branch_target(self, addr):
        mn, ops = self.insn(addr)
        if not BRANCHES.match(mn):
            return None
        m = re.search(r"0x([0-9a-f]+)(\s*<[^>]*>)?$", ops)
        return int(m.group(1), 16) if m else None


def kinds_of(mnemonics):
    """The useful-work kinds of a piece of code: its MMLA/DOT kinds, else its plain-NEON MAC kinds."""
    mm = {k for k in mnemonics if k in MM_KINDS}
    return mm if mm else {k for k in mnemonics if k in PLAIN_KINDS}


class Mca:
    """llvm-mca steady-state cycles per execution of straight blocks, cached on disk."""

    def __init__(self):
        self.path = os.path.join(BUILD, "mca_cache.json")
        try:
            self.cache = json.load(open(self.path))
        except (OSError, ValueError):
            self.cache = {}
        self.dirty = False

    def _run(self, cpu, blocks, iterations, skip=False):
        src = [".text", ".Lout:"]
        for i, b in enumerate(blocks):
            src += ["# LLVM-MCA-BEGIN b%d" % i] + b + ["# LLVM-MCA-END"]
        cmd = [MCA, "-mtriple=aarch64-linux-gnu", "-mcpu=" + cpu, "-mattr=" + MATTR, "-iterations=%d" % iterations,
               "-call-latency=1", "-instruction-info=0", "-resource-pressure=0"]
        if skip:
            cmd.append("-skip-unsupported-instructions=any")
        r = subprocess.run(cmd, input="\n".join(src) + "\n", capture_output=True, text=True)
        if r.returncode != 0:
            return None
        cyc = [int(x) for x in re.findall(r"Total Cycles:\s+(\d+)", r.stdout)]
        return cyc if len(cyc) == len(blocks) else None

    def cycles(self, cpu, blocks):
        """Steady-state cycles per execution of each block (a list of instruction lines)."""
        keys = [hashlib.sha1(("%s|%d|%s|%s" % (cpu, MCA_ITERATIONS, MATTR, "\n".join(b))).encode()).hexdigest() for b in blocks]
        todo = [i for i, k in enumerate(keys) if k not in self.cache]
        if todo:
            sub = [blocks[i] for i in todo]
            n1 = self._run(cpu, sub, MCA_ITERATIONS)
            n2 = self._run(cpu, sub, 2 * MCA_ITERATIONS) if n1 is not None else None
            if n1 is not None and n2 is not None:
                for i, c1, c2 in zip(todo, n1, n2):
                    self.cache[keys[i]] = (c2 - c1) / MCA_ITERATIONS
            else:
                for i in todo:  # one at a time: one block llvm-mca cannot take must not sink the rest
                    c = None
                    for skip in (False, True):
                        a, b = self._run(cpu, [blocks[i]], MCA_ITERATIONS, skip), self._run(cpu, [blocks[i]], 2 * MCA_ITERATIONS, skip)
                        if a and b:
                            c = (b[0] - a[0]) / MCA_ITERATIONS
                            break
                    if c is None:
                        log("llvm-mca cannot model a block; costed at one cycle per instruction:", blocks[i][:3])
                        c = float(len(blocks[i]))
                    self.cache[keys[i]] = c
            self.dirty = True
        return [self.cache[k] for k in keys]

    def peak(self, cpu, kind):
        """Instructions of `kind` per cycle on a block of 24 independent ones."""
        form = (MM_KINDS.get(kind) or PLAIN_KINDS[kind])[1]
        return 24.0 / self.cycles(cpu, [[form % i for i in range(24)]])[0]

    def save(self):
        if self.dirty:
            os.makedirs(BUILD, exist_ok=True)
            tmp = self.path + ".%d" % os.getpid()
            json.dump(self.cache, open(tmp, "w"))
            os.replace(tmp, self.path)


class Call:
    """One region of a profile: its executed instructions, loops and the model of both figures."""

    def __init__(self, code, region):
        self.code = code
        self.blocks = region["blocks"]
        self.execs = {}
        for addr, n, e in self.blocks:
            for i in range(n):
                self.execs[addr + 4 * i] = self.execs.get(addr + 4 * i, 0) + e
        # Loops: backward branches inside a function that were taken. A branch falls through to the
        # next instruction as often as it is not taken, so one that ran no more often than its
        # successor never jumped back (a second latch of a loop that other code closes, say).
        self.loops = []  # (top, back-branch address)
        for addr in sorted(self.execs):
            t = code.branch_target(addr)
            start, _ = code.function_of(addr)
            if t is not None and start <= t <= addr and self.execs[addr] > self.execs.get(addr + 4, 0):
                self.loops.append((t, addr))
        self.loops.sort(key=lambda lp: (lp[0], -lp[1]))

    def iters(self, loop):
        return self.execs.get(loop[1], 0)

    def children(self, loop):
        inner = [lp for lp in self.loops if lp != loop and loop[0] <= lp[0] and lp[1] <= loop[1]]
        return [lp for lp in inner if not any(o != lp and o[0] <= lp[0] and lp[1] <= o[1] for o in inner)]

    def parent(self, loop):
        outer = [lp for lp in self.loops if lp != loop and lp[0] <= loop[0] and loop[1] <= lp[1]]
        return min(outer, key=lambda lp: lp[1] - lp[0]) if outer else None

    def body(self, loop):
        """A loop's instructions for one iteration, its inner loops repeated as often as they ran."""
        out, addr = [], loop[0]
        kids = {c[0]: c for c in self.children(loop)}
        while addr <= loop[1]:
            if addr in kids:
                c = kids[addr]
                reps = max(1, round(self.iters(c) / max(1, self.iters(loop))))
                out += self.body(c) * reps
                addr = c[1] + 4
            else:
                out.append(addr)
                addr += 4
        return out

    def straight(self, loop):
        """True when every instruction runs once per iteration and inner loops a whole number of
        times below MIN_TRIP (so the loop is one item)."""
        it = self.iters(loop)
        if it == 0:
            return False
        kids = self.children(loop)
        for c in kids:
            r, rem = divmod(self.iters(c), it)
            if rem or r >= MIN_TRIP or not self.straight(c):
                return False
        for addr in range(loop[0], loop[1] + 4, 4):
            if any(c[0] <= addr <= c[1] for c in kids):
                continue
            if self.execs.get(addr, 0) != it:
                return False
        return True

    def hot_loop(self):
        innermost = [lp for lp in self.loops if not self.children(lp)]
        if not innermost:
            return None
        lp = max(innermost, key=lambda l: sum(self.execs.get(a, 0) for a in range(l[0], l[1] + 4, 4)))
        while True:
            p = self.parent(lp)
            if p is None or self.iters(lp) >= MIN_TRIP * max(1, self.iters(p)):
                return lp
            lp = p


    def describe(self):
        """The loop nest with executions, for --loops."""
        out = []
        for lp in self.loops:
            depth, p = 0, self.parent(lp)
            while p is not None:
                depth, p = depth + 1, self.parent(p)
            par = self.parent(lp)
            per = self.iters(lp) / max(1, self.iters(par)) if par else float(self.iters(lp))
            dyn = sum(self.execs.get(a, 0) for a in range(lp[0], lp[1] + 4, 4))
            out.append("%s0x%x:0x%x  %d insns  %d iterations  %.2f per parent iteration  %d executed%s" % (
                "  " * depth, lp[0], lp[1] + 4, (lp[1] - lp[0]) // 4 + 1, self.iters(lp), per, dyn,
                "  straight" if self.straight(lp) else ""))
        return "\n".join(out)

    def items(self):
        """(instruction addresses, executions) of every item of the whole-call model."""
        loop_items = [lp for lp in self.loops if self.straight(lp)]
        loop_items = [lp for lp in loop_items if not any(o != lp and o[0] <= lp[0] and lp[1] <= o[1] for o in loop_items)]
        covered = set()
        items = []
        for lp in loop_items:
            covered.update(range(lp[0], lp[1] + 4, 4))
            items.append((self.body(lp), self.iters(lp)))
        for addr, n, e in self.blocks:
            seg = []
            for a in range(addr, addr + 4 * n, 4):
                if a in covered:
                    if seg:
                        items.append((seg, e))
                    seg = []
                else:
                    seg.append(a)
            if seg:
                items.append((seg, e))
        return items

    def figures(self, mca, cpus):
        """{"loop": {cpu: %}, "call": {cpu: %}, "loop_range": ...}."""
        code = self.code
        mnem = {a: code.insn(a)[0] for a in self.execs}
        kinds = kinds_of(set(mnem.values()))
        out = {"loop": {}, "call": {}, "kinds": sorted(kinds)}
        hot = self.hot_loop()
        items = self.items()
        texts = [[code.mca_text(a) for a in addrs] for addrs, _ in items]
        if hot:
            out["loop_range"] = "0x%x:0x%x" % (hot[0], hot[1] + 4)
            hot_body = self.body(hot)
            hot_kinds = kinds_of({mnem[a] for a in hot_body if a in mnem})
        for cpu in cpus:
            peaks = {k: mca.peak(cpu, k) for k in kinds}
            cyc = mca.cycles(cpu, texts)
            cycles = sum(c * e for c, (_, e) in zip(cyc, items))
            busy = sum(e / peaks[mnem[a]] for a, e in self.execs.items() if mnem[a] in kinds)
            out["call"][cpu] = 100.0 * busy / cycles if cycles else 0.0
            if hot:
                c = mca.cycles(cpu, [[code.mca_text(a) for a in hot_body]])[0]
                hp = {k: mca.peak(cpu, k) for k in hot_kinds}
                busy = sum(1.0 / hp[mnem[a]] for a in hot_body if mnem.get(a) in hot_kinds)
                out["loop"][cpu] = 100.0 * busy / c if c else 0.0
        return out


# ---------------------------------------------------------------------------------------------- API
def measure(kernel_name, shape, lhs_name=None, rhs_name=None, cpus=CPUS, model=True):
    """Counts and models one kernel call (and its packers') at shape [M, N, K(, BL)]."""
    lst = kai_list.load()
    if not kernel_name.startswith("kai_"):
        kernel_name = "kai_matmul_clamp_" + kernel_name
    kernel = lst.entry(kernel_name)
    if kernel is None:
        raise RuntimeError("%s is not in kai/kernels.bzl" % kernel_name)
    lhs, rhs = choose_packers(lst, kernel, lhs_name, rhs_name)
    exe = build_driver(kernel, lhs, rhs)
    m, n, k = shape[:3]
    bl = shape[3] if len(shape) > 3 else 32
    run = "kai_run_" + kernel_name[4:]
    fl, fr = "kai_run_" + (lhs or rhs)["name"][4:], "kai_run_" + rhs["name"][4:]
    prof = os.path.join(os.path.dirname(exe), "prof-%dx%dx%dx%d.json" % (m, n, k, bl))
    sme = "_sme" in kernel_name
    if sme:
        # No plugin in the SME2 qemu and no llvm-mca model of SME: counts only, from the trace.
        regions = trace_profile(exe, [m, n, k, bl], [run])
        regions[fl] = regions[fr] = {"total": float("nan")}
        model = False
    else:
        regions = profile(exe, [m, n, k, bl], [run, fl, fr], prof)
    g = regions[run]
    calls = max(1, g["calls"])
    res = {"kernel": kernel_name, "shape": list(shape), "lhs_packer": lhs["name"] if lhs else "-", "rhs_packer": rhs["name"],
           "calls": g["calls"], "total": g["total"] // calls, "classes": {c: g["classes"][c] // calls for c in CLASSES},
           "ipm": g["total"] / calls / float(m * n * k),
           "lhs_ipe": regions[fl]["total"] / float(m * k), "rhs_ipw": regions[fr]["total"] / float(n * k)}
    res["mmla_dot"] = sum(res["classes"][c] for c in ("bfmmla", "i8mmla", "dot"))
    if sme:
        res["mac_insns"] = g["mac_insns"] // calls
    if model:
        mca = Mca()
        try:
            call = Call(Code(exe), g)
            fig = call.figures(mca, cpus)
            fig["loop_nest"] = call.describe()
        finally:
            mca.save()
        res.update(fig)
    return res


def measure_packer(packer_name, shape, tile=None, consumer=None):
    """Instructions per element (LHS packers) or per weight (RHS packers) of one packer call at
    [M, N, K(, BL)]. mr/nr, kr and sr come from `tile` ({"mr": .., "kr": .., "sr": ..}), from the
    getters of kernel `consumer`, or else from the first NEON kernel kai/kernels.bzl says the packer
    feeds."""
    lst = kai_list.load()
    if packer_name.startswith("kai_run_"):
        packer_name = "kai_" + packer_name[len("kai_run_"):]
    packer = lst.entry(packer_name)
    if packer is None:
        raise RuntimeError("%s is not in kai/kernels.bzl" % packer_name)
    kernel = None
    if consumer:
        kernel = lst.entry(consumer if consumer.startswith("kai_") else "kai_matmul_clamp_" + consumer)
        if kernel is None:
            raise RuntimeError("%s is not in kai/kernels.bzl" % consumer)
    elif tile is None:
        kernel = next((k for k in lst.kernels() if "_neon" in k["name"] and packer in lst.packers_for(k)), None)
        if kernel is None:
            raise RuntimeError("%s feeds no NEON kernel: give its mr/nr, kr and sr" % packer_name)
    lhs = packer if packer["kind"] == "lhs_packer" else None
    rhs = packer if packer["kind"] == "rhs_packer" else None
    exe = build_driver(kernel, lhs, rhs, tile=tile, run_kernel=False)
    m, n, k = shape[:3]
    bl = shape[3] if len(shape) > 3 else 32
    run = "kai_run_" + packer_name[4:]
    prof = os.path.join(os.path.dirname(exe), "prof-%dx%dx%dx%d.json" % (m, n, k, bl))
    g = profile(exe, [m, n, k, bl], [run], prof)[run]
    per = float(m * k) if lhs else float(n * k)
    return {"packer": packer_name, "shape": list(shape), "total": g["total"], "per": g["total"] / per,
            "unit": "element" if lhs else "weight"}


def fmt3(d, cpus=CPUS, digits=0):
    return "/".join("%.*f" % (digits, d[c]) for c in cpus) if d else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kernel")
    ap.add_argument("dims", nargs="+", type=int, help="M N K [BL]")
    ap.add_argument("--lhs")
    ap.add_argument("--rhs")
    ap.add_argument("--no-model", action="store_true", help="counts only (no llvm-mca)")
    ap.add_argument("--json")
    ap.add_argument("--loops", action="store_true", help="print the loop nest of the call")
    ap.add_argument("--consumer", help="packer alone: take mr/nr, kr and sr from this kernel's getters")
    ap.add_argument("--tile", help="packer alone: mr/nr,kr,sr as 'mr=4,kr=16,sr=2' (default: its first NEON consumer's)")
    a = ap.parse_args()
    if "_pack_" in a.kernel:
        tile = {k: int(v) for k, v in (x.split("=") for x in a.tile.split(","))} if a.tile else None
        r = measure_packer(a.kernel, a.dims, tile, a.consumer)
        print("%s %s: %d instructions, %.2f per %s" % (r["packer"], "x".join(map(str, a.dims)), r["total"], r["per"], r["unit"]))
        return
    r = measure(a.kernel, a.dims, a.lhs, a.rhs, model=not a.no_model)
    print("%s %s: %d instructions (%s), %.4f per MAC; MMLA/DOT %d" % (
        r["kernel"], "x".join(map(str, a.dims)), r["total"],
        " ".join("%s %d" % (c, r["classes"][c]) for c in CLASSES if r["classes"][c]), r["ipm"], r["mmla_dot"]))
    if "mac_insns" in r:
        print("MAC instructions (MOPA, DOT/MLA into ZA, SVE/NEON DOT and MMLA): %d" % r["mac_insns"])
    else:
        print("packers: %s %.2f / element, %s %.2f / weight" % (r["lhs_packer"], r["lhs_ipe"], r["rhs_packer"], r["rhs_ipw"]))
    if "loop" in r:
        print("hot loop %% of peak N2/V1/V2: %s (range %s)   whole call: %s   kinds: %s" % (
            fmt3(r["loop"], digits=1), r.get("loop_range", "-"), fmt3(r["call"], digits=1), ",".join(r["kinds"])))
    if a.loops:
        print(r["loop_nest"])
    if a.json:
        json.dump(r, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
