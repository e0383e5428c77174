#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes docs/kernels.md, the table of every kernel and packer, from kai/kernels.bzl.

Usage: python3 tools/gen_kernel_table.py [--check]
--check exits 1 (and writes nothing) when docs/kernels.md is not what the list gives: CI runs it
so that the table never drifts from the one list.
"""
import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = {
    "bf16": "matmul_bf16.md", "bf16o": "matmul_bf16.md",
    "qai8dxp": "matmul_int4_channelwise.md", "qsi4cxp": "matmul_int4_channelwise.md",
    "qsi4c32p": "matmul_int4_blockwise.md", "qsi8d32p": "matmul_q4_0.md",
}


def load():
    text = open(os.path.join(ROOT, "kai", "kernels.bzl")).read()
    body = text[text.index("KAI_KERNELS = [") + len("KAI_KERNELS = "):]
    return ast.literal_eval(body[: body.rindex("]") + 1])


def march(features):
    # Mirrors kai_march() in kai/build_defs.bzl.
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


def main():
    out = render(load())
    path = os.path.join(ROOT, "docs", "kernels.md")
    if "--check" in sys.argv[1:]:
        current = open(path).read() if os.path.exists(path) else ""
        if current != out:
            print("docs/kernels.md is out of date: run python3 tools/gen_kernel_table.py")
            return 1
        print("docs/kernels.md matches kai/kernels.bzl")
        return 0
    open(path, "w").write(out)
    print("wrote docs/kernels.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
