#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The platform matrix: every kernel and packer of kai/kernels.bzl, and kai/kai_cpu.h, compiled to an
object for each target engines build for, with kai's own flags (KAI_KERNEL_COPTS of
kai/build_defs.bzl) and the file's -march; the object's format is checked from its magic bytes.

    python3 tools/check_platforms.py [-j2] [--target NAME ...] [--only SUBSTRING] [-v]

Targets (TARGETS below): Linux with GCC 12 and clang-19, Android API 24, macOS 14, iOS 16 and
Windows on Arm (clang-19 for aarch64-pc-windows-msvc), plus "windows-cl", an approximation of
what cl.exe accepts: the Windows target with __clang__ and __GNUC__ undefined and every GNU-only
spelling poisoned (tools/platform_stubs/msvc_poison.h). Targets without a sysroot on this machine
compile with -ffreestanding against the stand-in headers of tools/platform_stubs/include.

A file that must not build for a target is skipped by the SKIPS table below, with its reason; a
file that should build but does not yet is listed in KNOWN_FAILURES, with its reason (it is still
compiled: when it starts to compile, the stale entry is an error). Everything else must compile. Prints, per target, the compiled / skipped (reason) / failed counts,
and exits non-zero on any failure.
"""
import argparse
import ast
import concurrent.futures
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kai_list  # noqa: E402

ROOT = kai_list.ROOT
STUBS = os.path.join(ROOT, "tools", "platform_stubs")

# Object formats, by their first bytes: ELF "\x7fELF"; 64-bit little-endian Mach-O (MH_MAGIC_64,
# 0xfeedfacf, stored LE); COFF object whose Machine field is IMAGE_FILE_MACHINE_ARM64 (0xAA64, LE).
MAGIC = {
    "ELF": b"\x7fELF",
    "Mach-O": b"\xcf\xfa\xed\xfe",
    "COFF": b"\x64\xaa",
}

_FREESTANDING = ["-ffreestanding", "-nostdlibinc", "-isystem", os.path.join(STUBS, "include")]

# name: (compiler command, extra flags, expected object format)
TARGETS = {
    "linux-gcc": (["aarch64-linux-gnu-gcc"], [], "ELF"),
    "linux-clang": (["clang-19", "--target=aarch64-linux-gnu"], [], "ELF"),
    "android24": (["clang-19", "--target=aarch64-linux-android24"], _FREESTANDING, "ELF"),
    "macos14": (["clang-19", "--target=arm64-apple-macos14"], _FREESTANDING, "Mach-O"),
    "ios16": (["clang-19", "--target=arm64-apple-ios16"], _FREESTANDING, "Mach-O"),
    "windows": (["clang-19", "--target=aarch64-pc-windows-msvc"], _FREESTANDING, "COFF"),
    "windows-cl": (
        ["clang-19", "--target=aarch64-pc-windows-msvc"],
        _FREESTANDING + ["-U__clang__", "-U__GNUC__", "-include", os.path.join(STUBS, "msvc_poison.h")],
        "COFF",
    ),
}

APPLE = ("macos14", "ios16")
WINDOWS = ("windows", "windows-cl")


def _template(entry):
    """The .c template a generated entry is rendered from ("" for a hand-written file)."""
    return next((t for t in entry.get("template", []) if t.endswith(".c.in")), "")


def _sme(entry):
    return bool({"sme", "sme2"} & set(entry["features"]))


# Templates whose kernels are inline assembly with no intrinsics twin: nothing cl.exe can compile.
_ASM_ONLY_TEMPLATES = ("qsi4c32p_dotprod.c.in", "qsi4c32p_i8mm.c.in")

# The skip table: (targets, predicate on a kernels.bzl entry, reason). The first match wins.
SKIPS = [
    (APPLE, lambda e: "sve" in e["features"], "Apple cores have no SVE"),
    (WINDOWS, lambda e: "sve" in e["features"], "clang cannot mangle SVE types for the MSVC ABI"),
    (("windows-cl",), lambda e: _sme(e) or _template(e) in _ASM_ONLY_TEMPLATES, "inline assembly only"),
]

# Known failures: compiled, and expected to fail until the cause is fixed (then the entry must
# go: a known failure that compiles is reported as a failure). Same form as SKIPS.
KNOWN_FAILURES = []

# kai/kai_cpu.h's OS paths, compiled once per target (the feature-less translation unit).
KAI_CPU_CHECK = {"name": "kai_cpu.h", "path": os.path.join(STUBS, "kai_cpu_check.c"), "features": []}


def kernel_copts():
    """KAI_KERNEL_COPTS of kai/build_defs.bzl (a plain list literal)."""
    tree = ast.parse(open(os.path.join(ROOT, "kai", "build_defs.bzl")).read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "KAI_KERNEL_COPTS":
            return ast.literal_eval(node.value)
    raise RuntimeError("kai/build_defs.bzl: no KAI_KERNEL_COPTS")


def table_reason(table, target, entry):
    for targets, pred, reason in table:
        if target in targets and pred(entry):
            return reason
    return None


def compile_one(target, unit, copts, tmp):
    cc, extra, fmt = TARGETS[target]
    obj = os.path.join(tmp, "%s.%s.o" % (unit["name"], target))
    cmd = cc + copts + [kai_list.march(unit["features"]), "-I", ROOT] + extra + ["-c", unit["path"], "-o", obj]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        return "compile error", r.stdout, cmd
    with open(obj, "rb") as f:
        head = f.read(4)
    os.remove(obj)
    if not head.startswith(MAGIC[fmt]):
        return "not %s (starts %s)" % (fmt, head.hex()), "", cmd
    return None, "", cmd


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-j", "--jobs", type=int, default=2, help="parallel compiles (default 2; the machine is shared)")
    ap.add_argument("--target", action="append", choices=sorted(TARGETS), help="only these targets")
    ap.add_argument("--only", help="only entries whose name contains this")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every failure's full compiler output")
    args = ap.parse_args()

    lst = kai_list.load()
    units = [dict(e, path=os.path.join(ROOT, e["dir"], e["name"] + ".c")) for e in lst.entries] + [KAI_CPU_CHECK]
    if args.only:
        units = [u for u in units if args.only in u["name"]]
    targets = args.target or list(TARGETS)
    copts = kernel_copts()

    jobs, skipped = [], {t: {} for t in targets}
    for t in targets:
        for u in units:
            reason = table_reason(SKIPS, t, u)
            if reason:
                skipped[t].setdefault(reason, []).append(u["name"])
            else:
                jobs.append((t, u))

    failed = {t: [] for t in targets}
    known_failed = {t: {} for t in targets}
    with tempfile.TemporaryDirectory(prefix="kai_platforms_") as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = {pool.submit(compile_one, t, u, copts, tmp): (t, u) for t, u in jobs}
            for fut in concurrent.futures.as_completed(futures):
                t, u = futures[fut]
                err, out, cmd = fut.result()
                known = table_reason(KNOWN_FAILURES, t, u)
                if err and known:
                    known_failed[t].setdefault(known, []).append(u["name"])
                elif err:
                    failed[t].append((u["name"], err, out, cmd))
                elif known:
                    failed[t].append((u["name"], "compiles but is listed in KNOWN_FAILURES: remove it", "", cmd))

    total_failed = 0
    for t in targets:
        n_skip = sum(len(v) for v in skipped[t].values())
        n_known = sum(len(v) for v in known_failed[t].values())
        n_ok = sum(1 for jt, _ in jobs if jt == t) - len(failed[t]) - n_known
        print("%-12s %3d compiled, %3d skipped, %3d known failures, %3d failed  (%s, %s)" %
              (t, n_ok, n_skip, n_known, len(failed[t]), " ".join(TARGETS[t][0]), TARGETS[t][2]))
        for reason, names in sorted(skipped[t].items()):
            print("    skipped %d: %s" % (len(names), reason))
        for reason, names in sorted(known_failed[t].items()):
            print("    known failure %d: %s" % (len(names), reason))
            if args.verbose:
                print("      " + " ".join(sorted(names)))
        for name, err, out, cmd in sorted(failed[t]):
            first = next((line for line in out.splitlines() if "error" in line), out.strip()[:200])
            print("    FAILED %s: %s: %s" % (name, err, first))
            if args.verbose:
                print("      " + " ".join(cmd))
                print("\n".join("      " + line for line in out.splitlines()[:40]))
        total_failed += len(failed[t])
    print("check_platforms: %d units x %d targets: %d failed" % (len(units), len(targets), total_failed))
    return 1 if total_failed else 0


if __name__ == "__main__":
    sys.exit(main())
