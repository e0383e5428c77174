#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes every generated file of the tree from kai/kernels.bzl and tools/templates/.

* Each entry of kai/kernels.bzl with a "template" key: <dir>/<name>.c and/or .h, one per template
  file it lists (tools/templates/<t>.c.in gives the .c, <t>.h.in the .h). Entries without the key
  are written by hand. The variant's parameters (m_step, n_step, mr, nr, kr, sr, form) are keys of
  its entry and nowhere else.
* docs/kernels.md, the table of every kernel and packer.
* benchmark/kai_benchmark_entries.inc, the benchmark's X-macro list of entries: kai_benchmark
  fails when a family adapter leaves an entry without a case, so a kernel cannot be added
  without its benchmark.

Template syntax (the whole of it; the templates stay readable as C):
  @NAME@  @NAME_UPPER@  @STEM@   the entry's name, upper-cased, and without the leading kai_
  @TILE@                         the tile token of the name (8x4x32 in ..._8x4x32_neon_i8mm)
  @IFACE@                        the family interface header's stem, kai_<basename of dir>_interface
  @M_STEP@ @NR@ ...              the value of any string key of the entry (upper-cased key)
  @BANNER@                       a line on its own: the "generated, do not edit" banner
  @nr=8@<line>                   the line (marker removed) only for entries whose nr is 8;
  @m_step=12|16@@form=asm@<line> alternatives with |, several markers must all hold
  @if nr=8 form=asm@ ... @end@   lines on their own: the same condition for a block of lines
                                 (the key "out", the destination type, is "f32" when an entry has none)
  @@ <text>                      a template comment, not copied to the output

Usage (from the repository root):
  python3 tools/gen_kernels.py                     writes every generated file
  python3 tools/gen_kernels.py --check             writes nothing; exits 1 when a committed file
                                                   differs from what it generates (CI)
  python3 tools/gen_kernels.py --intrinsics DIR    writes the kernels of every entry with "form":
                                                   "asm" into DIR rendered as "form": "intrinsics":
                                                   the same kernels with ACLE-intrinsics K loops
"""
import ast
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATES = os.path.join("tools", "templates")
DOCS = {
    "bf16": "matmul_bf16.md", "bf16o": "matmul_bf16.md", "bf16f16": "matmul_bf16.md",
    "qai8dxp": "matmul_int4_channelwise.md", "qsi4cxp": "matmul_int4_channelwise.md",
    "qsi4c32p": "matmul_int4_blockwise.md", "qsi8d32p": "matmul_q4_0.md",
    "qsi8cxp": "matmul_int8_channelwise.md", "qsi4cxpf16": "matmul_int4_channelwise.md", "qsi8cxpf16": "matmul_int8_channelwise.md",
    "bf16_qsi4cxp": "matmul_int4_channelwise.md", "bf16_qsi4c32p": "matmul_int4_blockwise.md",
    "f32p_f32p": "matmul_sme.md", "f32_f32p": "matmul_sme.md", "bf16p_sme": "matmul_sme.md", "f32_bf16p": "matmul_sme.md",
    "f16p_qsi4c32p": "matmul_q4_0.md",
    "qai4c32p": "matmul_int4_asymmetric.md", "f16_qai4c32p": "matmul_int4_asymmetric.md",
}
PLACEHOLDER = re.compile(r"@([A-Z][A-Z0-9_]*)@")
CONDITION = re.compile(r"@([a-z][a-z0-9_]*)=([^@\s]+)@")


def load():
    text = open(os.path.join(ROOT, "kai", "kernels.bzl")).read()
    body = text[text.index("KAI_KERNELS = [") + len("KAI_KERNELS = "):]
    return ast.literal_eval(body[: body.rindex("]") + 1])


class TemplateError(Exception):
    pass


def params_of(entry):
    """The values a template may use: the entry's string keys, plus a few derived from its name and dir."""
    p = {k: v for k, v in entry.items() if isinstance(v, str)}
    # "out": the destination type of a kernel (f32 unless the entry says bf16 or f16); templates test
    # it with @out=bf16@ lines and @if out=bf16@ blocks, so the f32 kernels' text is unchanged.
    p.setdefault("out", "f32")
    name = entry["name"]
    p["stem"] = name[len("kai_"):]
    p["name_upper"] = name.upper()
    p["iface"] = "kai_%s_interface" % os.path.basename(entry["dir"])
    # "plain": "yes" for a kernel that needs no feature beyond Armv8.0 AdvSIMD (features []), else "no".
    p["plain"] = "no" if entry.get("features") else "yes"
    tile = re.search(r"_(\d+x\d+(?:x\d+)?)_neon", name)
    if tile:
        p["tile"] = tile.group(1)
        # The tile in the name is what the offset getters accept: it must agree with the keys.
        steps = tile.group(1).split("x")
        for key, value in (("m_step", steps[0]), ("n_step", steps[1])):
            if key in p and p[key] != value:
                raise TemplateError("%s: %s is %s but the name's tile says %s" % (name, key, p[key], value))
    return p


def holds(conditions, p, where):
    for key, values in conditions:
        if key not in p:
            raise TemplateError("%s: condition on %s, which the entry does not have" % (where, key))
        if p[key] not in values.split("|"):
            return False
    return True


def render(template, p):
    """Renders tools/templates/<template> for the entry parameters p."""
    rel = os.path.join(TEMPLATES, template)
    banner = "// Generated by tools/gen_kernels.py from %s. Do not edit." % rel
    out = []
    stack = []  # one bool per open @if@ block: whether its lines are kept
    for number, line in enumerate(open(os.path.join(ROOT, rel)).read().split("\n"), 1):
        where = "%s:%d" % (rel, number)
        if line.startswith("@@"):
            continue
        if line.startswith("@if ") and line.endswith("@"):
            conds = [tuple(c.split("=", 1)) for c in line[len("@if "):-1].split()]
            if not all(len(c) == 2 for c in conds):
                raise TemplateError("%s: bad @if line" % where)
            stack.append(holds(conds, p, where))
            continue
        if line == "@end@":
            if not stack:
                raise TemplateError("%s: @end@ without @if" % where)
            stack.pop()
            continue
        conds = []
        while True:
            m = CONDITION.match(line)
            if not m:
                break
            conds.append((m.group(1), m.group(2)))
            line = line[m.end():]
        if not all(stack) or not holds(conds, p, where):
            continue
        if line == "@BANNER@":
            out.append(banner)
            continue

        def value(m):
            key = m.group(1).lower()
            if key not in p:
                raise TemplateError("%s: @%s@ is not a key of %s" % (where, m.group(1), p["name"]))
            return p[key]

        out.append(PLACEHOLDER.sub(value, line))
    if stack:
        raise TemplateError("%s: @if without @end@" % rel)
    return "\n".join(out)


def kernel_outputs(entries, form=None):
    """{relative path: text} of every templated kernel; form overrides the entries' "form"."""
    outputs = {}
    for e in entries:
        if "template" not in e:
            continue  # written by hand
        p = params_of(e)
        if form is not None:
            if p.get("form") != "asm":
                continue
            p["form"] = form
        for template in e["template"]:
            ext = template[: -len(".in")].rsplit(".", 1)[1]
            outputs[os.path.join(e["dir"], "%s.%s" % (e["name"], ext))] = render(template, p)
    return outputs


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


def kernel_table(entries):
    lines = [
        "# Kernels and packers",
        "",
        "Generated from `kai/kernels.bzl` by `python3 tools/gen_kernels.py`; do not edit by hand.",
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


def bench_entries(entries):
    lines = [
        "// Generated from kai/kernels.bzl by python3 tools/gen_kernels.py; do not edit.",
        "// KAI_BENCH_ENTRY(kind, family, name, features): every kernel and packer kai_benchmark covers.",
    ]
    for e in entries:
        feats = " | ".join("KAI_FEATURE_" + f.upper() for f in e["features"]) or "0"
        lines.append("KAI_BENCH_ENTRY(%s, %s, %s, %s)" % (e["kind"], e["family"], e["name"], feats))
    lines.append("")
    return "\n".join(lines)


def main(argv):
    entries = load()
    check = "--check" in argv
    try:
        if "--intrinsics" in argv:
            out_dir = os.path.abspath(argv[argv.index("--intrinsics") + 1])
            for rel, text in kernel_outputs(entries, form="intrinsics").items():
                os.makedirs(out_dir, exist_ok=True)
                with open(os.path.join(out_dir, os.path.basename(rel)), "w") as f:
                    f.write(text)
                print("wrote %s" % os.path.join(out_dir, os.path.basename(rel)))
            return 0
        outputs = kernel_outputs(entries)
    except TemplateError as err:
        print("gen_kernels: %s" % err)
        return 1
    outputs[os.path.join("docs", "kernels.md")] = kernel_table(entries)
    outputs[os.path.join("benchmark", "kai_benchmark_entries.inc")] = bench_entries(entries)
    stale = 0
    # A file that says it is generated but no entry generates (its entry lost its "template" key).
    for d in sorted({e["dir"] for e in entries}):
        for f in sorted(os.listdir(os.path.join(ROOT, d))):
            rel = os.path.join(d, f)
            if f.endswith((".c", ".h")) and rel not in outputs and "Generated by tools/gen_kernels.py" in open(os.path.join(ROOT, rel)).read():
                print("%s has the generated banner but no kai/kernels.bzl entry lists a template for it" % rel)
                stale += 1
    for rel, text in sorted(outputs.items()):
        path = os.path.join(ROOT, rel)
        current = open(path).read() if os.path.exists(path) else None
        if current == text:
            continue
        if check:
            print("%s differs from what kai/kernels.bzl and its template give: run python3 tools/gen_kernels.py" % rel)
            stale += 1
            continue
        with open(path, "w") as f:
            f.write(text)
        print("wrote %s" % rel)
    if check:
        print("gen_kernels: %d generated file(s), %d differ" % (len(outputs), stale))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
