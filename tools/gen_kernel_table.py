#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the files derived from kai/kernels.bzl that are read without Bazel:

* docs/kernels.md, the table of every kernel and packer;
* benchmark/kai_benchmark_entries.inc, the benchmark's list of entries (one X-macro line per
  kernel or packer): kai_benchmark lists it with --list and fails when a family adapter leaves an
  entry without a case, so a kernel cannot be added without its benchmark.

Usage: python3 tools/gen_kernel_table.py [--check]
--check exits 1 (and writes nothing) when a file is not what the list gives: CI runs it so that
nothing drifts from the one list.
"""
import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = {
    "bf16": "matmul_bf16.md", "bf16o": "matmul_bf16.md",
    "qai8dxp": "matmul_int4_channelwise.md", "qsi4cxp": "matmul_int4_channelwise.md",
    "qsi4c32p": "matmul_int4_blockwise.md", "qsi8d32p": "matmul_q4_0.md",
    "f32p_f32p": "matmul_sme.md", "f32_f32p": "matmul_sme.md", "bf16p_sme": "matmul_sme.md", "f32_bf16p": "matmul_sme.md",
}


def load():
    text = open(os.path.join(ROOT, "kai", "kernels.bzl")).read()
    body = text[text.index("KAI_KERNELS = [") + len("KAI_KERNELS = "):]
    return ast.literal_eval(body[: body.rindex("]") + 1])


def march(features):
    # Mirrors kai_march() in kai/build_defs.bzl.
    if "sme2" in features:
        return "-march=armv9-a+sme2"
    if "sme" in features:
        return "-march=armv9-a+sme"
    if not features:
        return "-march=armv8-a"
    base = "armv8.6-a" if ("i8mm" in features or "bf16" in features) else "armv8.2-a"
    return "-march=%s+%s" % (base, "+".join(sorted(features)))


def render(entries):
    lines = [
        "# Kernels and packers",
        "",
        "Generated from `kai/kernels.bzl` by `python3 tools/gen_kernel_table.py`; do not edit by hand.",
        "To vendor one, copy its `.c`/`.h` (and, for a kernel, its family's `*_interface.h`) with",
        "`kai/kai_common.h`, and compile the `.c` with the flag given here.",
        "",
        "| name | family | kind | CPU features | compile with | files | doc |",
        "|---|---|---|---|---|---|---|",
    ]
    for e in entries:
        feats = ", ".join(e["features"]) or "baseline NEON"
        doc = DOCS.get(e["family"], "")
        lines.append("| `%s` | %s | %s | %s | `%s` | `%s/%s.{c,h}` | %s |" % (
            e["name"], e["family"], e["kind"].replace("_", " "), feats, march(e["features"]), e["dir"], e["name"],
            "[%s](%s)" % (doc, doc) if doc else ""))
    lines.append("")
    lines.append("%d entries." % len(entries))
    lines.append("")
    return "\n".join(lines)


def render_bench(entries):
    lines = [
        "// Generated from kai/kernels.bzl by python3 tools/gen_kernel_table.py; do not edit.",
        "// KAI_BENCH_ENTRY(kind, family, name, features): every kernel and packer kai_benchmark covers.",
    ]
    for e in entries:
        feats = " | ".join("KAI_FEATURE_" + f.upper() for f in e["features"]) or "0"
        lines.append("KAI_BENCH_ENTRY(%s, %s, %s, %s)" % (e["kind"], e["family"], e["name"], feats))
    lines.append("")
    return "\n".join(lines)


def main():
    entries = load()
    outputs = {
        os.path.join("docs", "kernels.md"): render(entries),
        os.path.join("benchmark", "kai_benchmark_entries.inc"): render_bench(entries),
    }
    check = "--check" in sys.argv[1:]
    stale = 0
    for rel, text in outputs.items():
        path = os.path.join(ROOT, rel)
        if check:
            current = open(path).read() if os.path.exists(path) else ""
            if current != text:
                print("%s is out of date: run python3 tools/gen_kernel_table.py" % rel)
                stale += 1
            else:
                print("%s matches kai/kernels.bzl" % rel)
            continue
        open(path, "w").write(text)
        print("wrote %s" % rel)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
