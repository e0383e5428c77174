#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes every generated file of the tree from kai/kernels.bzl (read through tools/kai_list.py)
and tools/templates/: the one generator. Bazel and CMake consume its committed outputs.

* Kernels: each entry with a "template" key gets <dir>/<name>.c and/or .h, one per template it
  lists (tools/templates/<t>.c.in gives the .c, <t>.h.in the .h); entries without the key are
  written by hand. An entry with "form": "asm" gets both forms of its template in one file: where
  the "asm" and the "intrinsics" renderings differ, the lines stand behind its family's no_asm
  switch (#if !defined(KAI_<FAMILY>_NO_ASM) ... #else ... #endif), unless the template already
  places the switch itself.
* Derived kernels: an entry with a "derive" key (an indirect GEMM kernel, docs/imatmul.md) gets
  <dir>/<name>.c from the .c of the GEMM entry it names, rewritten by derive_imatmul() (names, the
  (k_chunk_count, k_chunk_length) depth, the interface; "clamp": "fmin_fmax" swaps the clamp order),
  so the two share one body and a change to the GEMM reaches the indirect kernel at regeneration.
* docs/kernels.md (every kernel and packer) and the variant table of each family document
  (between the markers <!-- kai_list:variants FAMILY --> and <!-- /kai_list:variants -->).
* benchmark/kai_benchmark_entries.inc (kai_benchmark fails when an entry has no case).
* kai/kai_registry.inc (the registries' X-macros) and kai/kai_all_headers.inc (the headers, by
  family) for the test and benchmark registries.
* kai/kai_select.h: the sections between "// BEGIN GENERATED <what>" and "// END GENERATED <what>"
  (the headers, the ranked tables and the comment table of preference orders).
* kai/kai_march.bzl and cmake/KaiList.cmake: the -march flag of every feature set (computed once,
  by tools/kai_list.py march()) for Bazel, and the whole list for CMake.
* KleidiAI's paths: kai/ukernels/matmul/pack/<packer>.{h,c} forwarding to kai/ukernels/pack/,
  the (empty) <name>_asm.S files of KAI_KLEIDIAI_ASM and kai/kai_common_{sme,sve}_asm.S, and the
  `#pragma weak` block of every canonical packer (docs/integration.md, "KleidiAI's paths").

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
                                                   "asm" into DIR rendered as "form": "intrinsics"
                                                   only (what -D<no_asm switch> compiles), for review
"""
import difflib
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kai_list  # noqa: E402
import sme_encode  # noqa: E402

ROOT = kai_list.ROOT
TEMPLATES = os.path.join("tools", "templates")
GEN = "tools/gen_kernels.py"

PLACEHOLDER = re.compile(r"@([A-Z][A-Z0-9_]*)@")
CONDITION = re.compile(r"@([a-z][a-z0-9_]*)=([^@\s]+)@")


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



def twin(asm, intrinsics, switch):
    """One file with both renderings: the lines where they differ behind `switch`. Preprocessed
    without the switch it is the asm rendering line for line (plus directives), with it the
    intrinsics one. Equal runs of fewer than three lines between differences join the difference,
    so that the directives stay few."""
    a, b = asm.split("\n"), intrinsics.split("\n")
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    merged = []  # [tag, i1, i2, j1, j2], tag "equal" or "diff"
    for tag, i1, i2, j1, j2 in ops:
        tag = "equal" if tag == "equal" else "diff"
        if merged and tag == "diff" and merged[-1][0] == "diff":
            merged[-1][2], merged[-1][4] = i2, j2
        elif (tag == "equal" and i2 - i1 < 3 and merged and merged[-1][0] == "diff"
              and (i2 < len(a) or j2 < len(b))):
            merged[-1][2], merged[-1][4] = i2, j2  # a short equal run joins the difference before it
        else:
            merged.append([tag, i1, i2, j1, j2])
    out = []
    for tag, i1, i2, j1, j2 in merged:
        if tag == "equal":
            out += a[i1:i2]
        elif i2 > i1:
            out.append("#if !defined(%s)" % switch)
            out += a[i1:i2]
            if j2 > j1:
                out.append("#else")
                out += b[j1:j2]
            out.append("#endif")
        else:
            out.append("#if defined(%s)" % switch)
            out += b[j1:j2]
            out.append("#endif")
    return "\n".join(out)


def kernel_outputs(lst, form=None):
    """{relative path: text} of every templated kernel; form="intrinsics" renders the asm entries'
    intrinsics form alone (--intrinsics)."""
    outputs = {}
    for e in lst.entries:
        if "template" not in e:
            continue  # written by hand
        p = params_of(e)
        if form is not None:
            if p.get("form") != "asm":
                continue
            p["form"] = form
        switches = lst.family(e["family"])["no_asm"]
        for template in e["template"]:
            ext = template[: -len(".in")].rsplit(".", 1)[1]
            text = render(template, p)
            if p.get("form") == "asm" and ext == "c":
                if not switches:
                    raise TemplateError("%s: form asm, but family %s has no no_asm switch in KAI_FAMILIES"
                                        % (e["name"], e["family"]))
                if not any(s in text for s in switches):
                    text = twin(text, render(template, dict(p, form="intrinsics")), switches[0])
            path = os.path.join(e["dir"], "%s.%s" % (e["name"], ext))
            if ext == "c" and {"sme", "sme2"} & set(e["features"]):
                text = sme_encode.transform(text, path)  # SME code as encoded words (docs/style.md, "SME code")
            outputs[path] = text
    return outputs


def _sub(text, old, new, what, count=None):
    """text with old replaced by new; fails when old is absent (or not found `count` times)."""
    n = text.count(old)
    if n == 0 or (count is not None and n != count):
        raise TemplateError("derive: %s: fragment found %d time(s): %r" % (what, n, old[:60]))
    return text.replace(old, new)


def derive_imatmul(e, src, src_name):
    """The .c of indirect GEMM entry e from `src`, the .c of the f32 GEMM src_name (same packed operands at depth
    K = k_chunk_count * k_chunk_length, kr = 1): KleidiAI's imatmul getters and run signature around the GEMM's
    body. Every rewrite must apply (TemplateError otherwise)."""
    stem, src_stem, name = e["name"][len("kai_"):], src_name[len("kai_"):], e["name"]
    t = _sub(src, src_stem, stem, name)
    f16 = "_f16_" in stem  # the f16 GEMMs: generated from a template, kr = 2 (each chunk padded to even length)
    iface = "kai_%s_interface.h" % os.path.basename(e["dir"])
    t = _sub(t, '#include "%s"' % iface.replace("imatmul", "matmul"), '#include "%s"' % iface, name, 1)
    if f16:
        t = re.sub(r"// Generated by tools/gen_kernels.py from tools/templates/[a-z0-9_.]+\. Do not edit\.\n", "", t, 1)
        t = _sub(t, "//\n\n// ", "//\n// Generated by %s (kai/kernels.bzl, \"derive\") from\n// %s.c. Do not edit.\n"
                 "// The indirect GEMM of docs/imatmul.md: the GEMM's body at depth K = k_chunk_count *\n"
                 "// roundup(k_chunk_length, 2) (each chunk padded to an even length; the packed operands are the same,\n"
                 "// docs/formats.md, \"Indirect GEMM packed layouts\").\n\n// " % (GEN, src_name), name, 1)
    else:
        t = _sub(t, "//\n\n// ", "//\n\n// Generated by %s (kai/kernels.bzl, \"derive\") from\n// %s.c. Do not edit.\n"
                 "// The indirect GEMM of docs/imatmul.md: the GEMM's body at depth K = k_chunk_count * k_chunk_length (the\n"
                 "// packed operands are the same, docs/formats.md, \"Indirect GEMM packed layouts\").\n//\n// "
                 % (GEN, src_name), name, 1)
        t = _sub(t, " (docs/matmul_sme.md)", "", name)
    for g in ("mr", "nr", "kr", "sr"):
        t = _sub(t, "size_t kai_get_%s_%s(void) {\n    return %s;\n}\n\n"
                 % (g, stem, "kai_tile()" if g in ("mr", "nr") else "kai_" + g), "", name, 1)
    if f16:
        t = _sub(t, "static const size_t kai_kr = 2;\nstatic const size_t kai_sr = 1;\n",
                 "static const size_t kai_kr = 2;\n\n"
                 "// The packed depth, checked for overflow: each chunk padded to a multiple of kr = 2 (zeros in both\n"
                 "// packed operands), so the GEMM's body runs at K = k_chunk_count * roundup(k_chunk_length, 2).\n"
                 "static size_t kai_depth(size_t k_chunk_count, size_t k_chunk_length) {\n"
                 "    return kai_mul_size_checked(k_chunk_count, kai_roundup(k_chunk_length, kai_kr));\n}\n", name, 1)
    else:
        t = _sub(t, "static const size_t kai_kr = 1;\nstatic const size_t kai_sr = 1;\n",
                 "// The depth of the product, checked for overflow (kr = 1: chunks are not padded).\n"
                 "static size_t kai_depth(size_t k_chunk_count, size_t k_chunk_length) {\n"
                 "    return kai_mul_size_checked(k_chunk_count, k_chunk_length);\n}\n", name, 1)
    for what in ("lhs", "rhs"):
        idx = "m_idx" if what == "lhs" else "n_idx"
        t = _sub(t, "size_t kai_get_%s_packed_offset_%s(size_t %s, size_t k) {\n" % (what, stem, idx),
                 "size_t kai_get_%s_packed_offset_%s(\n    size_t %s, size_t k_chunk_count, size_t k_chunk_length) {\n"
                 "    const size_t k = kai_depth(k_chunk_count, k_chunk_length);\n" % (what, stem, idx), name, 1)
    t = _sub(t, "    size_t m, size_t n, size_t k, const void* lhs_packed, const void* rhs_packed, void* dst, "
             "size_t dst_stride_row,\n    size_t dst_stride_col, float clamp_min, float clamp_max) {\n"
             "    KAI_ASSUME_MSG(dst_stride_col == sizeof(%s), \"dst_stride_col must be %d\");\n"
             % (("uint16_t", 2) if f16 else ("float", 4)),
             "    size_t m, size_t n, size_t k_chunk_count, size_t k_chunk_length, const void* lhs_packed, "
             "const void* rhs_packed,\n    void* dst, size_t dst_stride_row, float clamp_min, float clamp_max) {\n"
             "    const size_t k = kai_depth(k_chunk_count, k_chunk_length);\n", name, 1)
    t = t.replace("kai_run_" + stem + "(", "kai_run_" + stem + "(")
    if e.get("clamp") == "fmin_fmax":  # KleidiAI's SME imatmul: min with clamp_max first, then max with clamp_min
        # The GEMM's clamp lines, as tools/sme_encode.py writes them (each expansion of its store macro).
        fmax = ['        ".inst 0x%08x\\n"  // fmax z%d.s, p0/m, z%d.s, z14.s\n' % (0x658681c0 + r, r, r) for r in (0, 1)]
        fmin = ['        ".inst 0x%08x\\n"  // fmin z%d.s, p0/m, z%d.s, z15.s\n' % (0x658781e0 + r, r, r) for r in (0, 1)]
        old = "".join(fmax + fmin)
        new = "".join(fmin + fmax)
        t = _sub(t, old, new, name)
        t = _sub(t, "Clamp: max with z14, min with z15;", "Clamp (KleidiAI's SME order): min with z15,\n"
                 "// then max with z14 (NaN stays NaN, clamp_min > clamp_max gives clamp_min);", name, 1)
    return t


def derived_outputs(lst):
    """{relative path: text} of every entry with a "derive" key."""
    outputs = {}
    for e in lst.entries:
        if "derive" not in e:
            continue
        src = [x for x in lst.entries if x["name"] == e["derive"]]
        if len(src) != 1:
            raise TemplateError("%s: derive names %r, not one entry of KAI_KERNELS" % (e["name"], e["derive"]))
        with open(os.path.join(ROOT, src[0]["dir"], src[0]["name"] + ".c")) as f:
            outputs[os.path.join(e["dir"], e["name"] + ".c")] = derive_imatmul(e, f.read(), src[0]["name"])
    return outputs


def _mask(features, prefix="KAI_FEATURE_"):
    return " | ".join(prefix + f.upper() for f in features) or "0"


def kernel_table(lst):
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
    for e in lst.entries:
        feats = ", ".join(e["features"]) or "baseline NEON"
        doc = os.path.basename(lst.family(e["family"])["doc"])
        lines.append("| `%s` | %s | %s | %s | `%s` | `%s/%s.{c,h}` | %s |" % (
            e["name"], e["family"], e["kind"].replace("_", " "), feats, kai_list.march(e["features"]), e["dir"],
            e["name"], "[%s](%s)" % (doc, doc) if doc else ""))
    lines += ["", "%d entries." % len(lst.entries), ""]
    return "\n".join(lines)


VARIANTS_BEGIN = re.compile(r"^<!-- kai_list:variants ([a-z0-9_ ]+) -->$", re.M)
VARIANTS_END = "<!-- /kai_list:variants -->"


def variant_rows(lst, families):
    """The variant table of a family document: one row per matmul entry of the families (a
    family column when there are several)."""
    fam_col = len(families) > 1
    rows = ["| kernel |%s m_step × n_step | mr | nr | kr / sr | features | form, template | notes |" % (" family |" * fam_col),
            "|---|%s---|---|---|---|---|---|---|" % ("---|" * fam_col)]
    for fam in families:
        for e in lst.family_entries(fam, "matmul"):
            g = lambda k: e.get(k, "-")  # noqa: E731
            rows.append("| `%s` |%s %s | %s | %s | %s | %s | %s | %s |" % (
                e["name"], (" %s |" % fam) * fam_col, "%s × %s" % (g("m_step"), g("n_step")) if "m_step" in e else "-",
                g("mr"), g("nr"), "%s / %s" % (g("kr"), g("sr")) if "kr" in e else "-", ", ".join(e["features"]) or "-",
                "%s, `%s`" % (e["form"], e["template"][0]) if "template" in e else "hand-written",
                e.get("note", "")))
    return rows


def doc_outputs(lst):
    """{doc path: text} of the family documents with their generated variant tables."""
    outputs = {}
    for doc in sorted({f["doc"] for f in lst.families if f["doc"]}):
        path = os.path.join(ROOT, doc)
        if not os.path.exists(path):
            continue
        text = open(path).read()
        out, pos = [], 0
        for m in VARIANTS_BEGIN.finditer(text):
            end = text.index(VARIANTS_END, m.end())
            out.append(text[pos:m.end()] + "\n")
            out.append("\n".join(variant_rows(lst, m.group(1).split())) + "\n")
            pos = end
        out.append(text[pos:])
        outputs[doc] = "".join(out)
    return outputs


def bench_entries(lst):
    lines = [
        "// Generated from kai/kernels.bzl by python3 tools/gen_kernels.py; do not edit.",
        "// KAI_BENCH_ENTRY(kind, family, name, features): every kernel and packer kai_benchmark covers.",
    ]
    for e in lst.entries:
        lines.append("KAI_BENCH_ENTRY(%s, %s, %s, %s)" % (e["kind"], e["family"], e["name"], _mask(e["features"])))
    lines.append("")
    return "\n".join(lines)


def _c_banner(*comment):
    """The first lines of a generated C include file: the banner, then what the file holds."""
    return ["// Generated by %s from kai/kernels.bzl. Do not edit." % GEN] + ["// " + c for c in comment]


def registry_inc(lst):
    lines = _c_banner("X-macros: KAI_REGISTRY_<KIND>(family, stem, features), where stem is the name without",
                      "the leading kai_ and features is a KAI_FEATURE_* mask from test/common/cpu_features.h.")
    kinds = ("MATMUL", "LHS_PACKER", "RHS_PACKER")
    for k in kinds:
        lines += ["#ifndef KAI_REGISTRY_%s" % k, "#define KAI_REGISTRY_%s(family, stem, features)" % k, "#endif"]
    for e in lst.entries:
        lines.append("KAI_REGISTRY_%s(%s, %s, (%s))" % (e["kind"].upper(), e["family"], e["name"][len("kai_"):],
                                                        _mask(e["features"])))
    lines += ["#undef KAI_REGISTRY_%s" % k for k in kinds]
    lines.append("")
    return "\n".join(lines)


def headers_inc(lst):
    lines = _c_banner("The header of every kernel and packer, by family: define KAI_HEADERS_<family> for each family",
                      "wanted (or KAI_HEADERS_ALL) before including this file (the test registries do).")
    for fam in lst.family_names():
        lines.append("#if defined(KAI_HEADERS_ALL) || defined(KAI_HEADERS_%s)" % fam)
        lines += ['#include "%s/%s.h"' % (e["dir"], e["name"]) for e in lst.family_entries(fam)]
        lines.append("#endif")
    lines.append("")
    return "\n".join(lines)


def feature_sets(lst):
    return sorted({kai_list.features_key(e["features"]) for e in lst.entries})


def march_bzl(lst):
    lines = ['"""Generated by %s from kai/kernels.bzl (tools/kai_list.py march()). Do not edit.' % GEN, "",
             "The -march flag of every set of CPU features of the list, for kai_march() in kai/build_defs.bzl.",
             '"""', "", "KAI_MARCH = {"]
    for key in feature_sets(lst):
        lines.append('    "%s": "%s",' % (key, kai_list.march(key.split("+") if key else [])))
    lines += ["}", ""]
    return "\n".join(lines)


def cmake_list(lst):
    lines = ["# Generated by %s from kai/kernels.bzl. Do not edit." % GEN,
             "# kai's list for CMake (included by CMakeLists.txt, read by cmake/KaiKernels.cmake):",
             "#   KAI_KERNEL_NAMES, KAI_FAMILIES, KAI_KERNEL_<name>_FAMILY/_KIND/_DIR/_FEATURES/_MARCH,",
             "#   KAI_MARCH_<features joined by +> (the -march flag of each feature set, tools/kai_list.py).",
             "set(KAI_FAMILIES %s)" % " ".join(lst.family_names()),
             "set(KAI_KERNEL_NAMES"]
    lines += ["  %s" % e["name"] for e in lst.entries]
    lines.append(")")
    for key in feature_sets(lst):
        lines.append('set("KAI_MARCH_%s" "%s")' % (key, kai_list.march(key.split("+") if key else [])))
    for e in lst.entries:
        n = e["name"]
        lines.append('set(KAI_KERNEL_%s_FAMILY "%s")' % (n, e["family"]))
        lines.append('set(KAI_KERNEL_%s_KIND "%s")' % (n, e["kind"]))
        lines.append('set(KAI_KERNEL_%s_DIR "%s")' % (n, e["dir"]))
        lines.append('set(KAI_KERNEL_%s_FEATURES "%s")' % (n, ";".join(e["features"])))
        lines.append('set(KAI_KERNEL_%s_MARCH "%s")' % (n, kai_list.march(e["features"])))
    lines.append("")
    return "\n".join(lines)


def _tile_and_engine(name):
    m = re.search(r"(?:_(\d+(?:vl)?x\d+(?:vl)?(?:x\d+)?))?_(neon|sve|sme2?)_(\w+)$", name)
    if not m:
        # A plain Armv8.0 kernel: the name ends in the engine, with no feature.
        m = re.search(r"_(\d+(?:vl)?x\d+(?:vl)?(?:x\d+)?)_neon$", name)
        return (m.group(1), "plain neon") if m else (name, "")
    tile, engine, feat = m.groups()
    tile = tile or ""
    if engine == "neon":
        return tile, feat
    mark = "*" if engine == "sve" else "+"
    return tile, "%s_%s%s" % (engine, feat, mark)


def select_kernels(lst):
    """{family: [entries in preference order]} of the families kai/kai_select.h selects from."""
    out = {}
    for f in lst.families:
        if not f["select"]:
            continue
        ks = [e for e in lst.family_entries(f["family"], "matmul") if e.get("select") != "0"]
        order = {e["name"]: i for i, e in enumerate(ks)}
        ks.sort(key=lambda e: (int(e.get("rank", "100000")), order[e["name"]]))
        out[f["family"]] = ks
    return out


def select_sections(lst):
    """{section name: lines} of kai/kai_select.h's generated sections."""
    sel = select_kernels(lst)
    headers, seen = [], set()
    for fam, ks in sel.items():
        for e in ks:
            for h in lst.interface_headers(e) + ["%s/%s.h" % (e["dir"], e["name"])]:
                if h not in seen:
                    seen.add(h)
                    headers.append('#include "%s"' % h)
    tables = {"KAI_SELECT_TABLE": [], "KAI_SELECT_TABLE_LHS_ROW": []}
    for fam, ks in sel.items():
        typ = lst.family(fam)["select"]
        for e in ks:
            lhs_row = "lhs_packer" not in lst.packer_kinds_needed(e)
            # A kernel with no feature beyond Armv8.0 AdvSIMD needs KAI_SEL_NEON (always reported on
            # AArch64), so an empty mask still selects nothing.
            feats = " | ".join("KAI_SEL_" + f.upper() for f in e["features"]) or "KAI_SEL_NEON"
            vl = "32" if "sve" in e["features"] else "0"
            tables["KAI_SELECT_TABLE_LHS_ROW" if lhs_row else "KAI_SELECT_TABLE"].append(
                "    X(%s, %s, %s, %s, %s, %s)" % (fam, typ, e["name"][len("kai_"):], feats,
                                                 "1" if e.get("gemv_only") == "1" or lhs_row else "0", vl))
    defines = []
    for macro, xs in tables.items():
        defines.append("#define %s(X) \\" % macro)
        defines += [x + " \\" for x in xs[:-1]] + xs[-1:]
    comment = ["/// | family | GEMM order (m > 1) | GEMV order (m == 1) |", "/// |---|---|---|"]
    for fam, ks in sel.items():
        gemm = [" ".join(t for t in _tile_and_engine(e["name"]) if t) for e in ks if e.get("m_step", _m_step(e)) != "1"]
        gemv = [" ".join(t for t in _tile_and_engine(e["name"]) if t) for e in ks if e.get("m_step", _m_step(e)) == "1"]
        comment.append("/// | %s | %s | %s |" % (fam, ", ".join(gemm) or "(none)", ", ".join(gemv) or "(none)"))
    return {"headers": headers, "tables": defines, "order": comment}


def _m_step(e):
    tile = _tile_and_engine(e["name"])[0]
    return "1" if tile.startswith("1x") else "m"


def select_header(lst):
    path = os.path.join("kai", "kai_select.h")
    text = open(os.path.join(ROOT, path)).read()
    for section, lines in select_sections(lst).items():
        begin = "// BEGIN GENERATED %s (%s from kai/kernels.bzl)\n" % (section, GEN)
        end = "// END GENERATED %s\n" % section
        if section == "order":
            begin, end = "///" + begin[2:], "///" + end[2:]
        i = text.index(begin) + len(begin)
        j = text.index(end, i)
        text = text[:i] + "\n".join(lines) + "\n" + text[j:]
    return {path: text}



# --- KleidiAI's paths (docs/integration.md) ---
FORWARD_DIR = "kai/ukernels/matmul/pack"
CANONICAL_PACK_DIR = "kai/ukernels/pack"
COMPAT_BANNER = "Generated by tools/gen_kernels.py from kai/kernels.bzl. Do not edit."

_FORWARD_H = """\
// SPDX-License-Identifier: Apache-2.0
// {banner}
//
// KleidiAI's path of a kai packer header, which includes the canonical file
// {canonical}
// so that code written against KleidiAI finds it from the repository root or, with
// {forward_dir}/ on the include path, by its name alone.
#include "{relative}"
"""

_FORWARD_C = """\
// SPDX-License-Identifier: Apache-2.0
// {banner}
//
// KleidiAI's path of a kai packer, which compiles the canonical file
// {canonical}
// with that file's flags. Build the packers of one location, {canonical_dir}/ or
// {forward_dir}/: a build that compiles both still links (the packers' functions are weak
// definitions, see the canonical file), but gets nothing from the second copy.
#include "{relative}"
"""

_ASM = """\
/* SPDX-License-Identifier: Apache-2.0 */
/* {banner}
 *
 * KleidiAI v1.30.0 ships a separate assembly file of this name beside the {what}
 * {name}.c
 * and engines list it in their sources. kai's .c is self-contained: this file assembles to
 * nothing but the note that marks the stack non-executable on ELF targets. */
#if defined(__ELF__)
.section .note.GNU-stack, "", %progbits
#endif
"""


# KleidiAI's shared assembly files (helpers its SME and SVE kernels call); ggml names both.
COMMON_ASM = ("kai/kai_common_sme_asm.S", "kai/kai_common_sve_asm.S")

_COMMON_ASM = """\
/* SPDX-License-Identifier: Apache-2.0 */
/* {banner}
 *
 * KleidiAI v1.30.0 ships {name} with assembly helpers shared by its SME/SVE kernels, and
 * engines list it in their sources. kai's kernels are self-contained and call no shared helper:
 * this file assembles to nothing but the note that marks the stack non-executable on ELF targets. */
#if defined(__ELF__)
.section .note.GNU-stack, "", %progbits
#endif
"""


WEAK_BEGIN = "// Weak definitions, written by tools/gen_kernels.py (docs/integration.md, KleidiAI's paths):"
WEAK_END = "// (end of the weak definitions)"


def public_functions(e, root=ROOT):
    """The functions a packer's header declares: kai_<what>_<stem>(, stem = the name without kai_."""
    stem = e["name"][len("kai_"):]
    with open(os.path.join(root, e["dir"], e["name"] + ".h")) as f:
        text = f.read()
    names = sorted(set(re.findall(r"\b(kai_\w+_%s)\s*\(" % re.escape(stem), text)))
    if not names:
        raise ValueError("%s.h declares no kai_*_%s( function" % (e["name"], stem))
    return names


def weak_block(e, root=ROOT):
    lines = [WEAK_BEGIN,
             "// a build that compiles this file and its copy at %s/ links once." % FORWARD_DIR]
    lines += ["#pragma weak %s" % f for f in public_functions(e, root)]
    lines.append(WEAK_END)
    return "\n".join(lines) + "\n"


def with_weak_block(text, block):
    """The packer source `text` with its weak block replaced by (or, if absent, inserted as) block."""
    if WEAK_BEGIN in text:
        start = text.index(WEAK_BEGIN)
        end = text.index(WEAK_END, start)
        end = text.index("\n", end) + 1
        return text[:start] + block + text[end:]
    lines = text.splitlines(keepends=True)
    last = max(i for i, l in enumerate(lines) if l.startswith("#include"))
    return "".join(lines[:last + 1]) + "\n" + block + "".join(lines[last + 1:])


def canonical_packer_files(lst, root=ROOT):
    """{path: contents} of the canonical packer sources with their weak blocks up to date."""
    files = {}
    for e in lst.packers():
        path = "%s/%s.c" % (e["dir"], e["name"])
        with open(os.path.join(root, path)) as f:
            files[path] = with_weak_block(f.read(), weak_block(e, root))
    return files


def compat_files(lst):
    """Returns {repository-relative path: contents} of every generated compatibility file."""
    files = {}
    for e in lst.packers():
        if e["dir"] != CANONICAL_PACK_DIR:
            raise ValueError("%s: packers live in %s, not %s" % (e["name"], CANONICAL_PACK_DIR, e["dir"]))
        for ext, template in (("h", _FORWARD_H), ("c", _FORWARD_C)):
            canonical = "%s/%s.%s" % (e["dir"], e["name"], ext)
            forward = "%s/%s.%s" % (FORWARD_DIR, e["name"], ext)
            relative = os.path.relpath(canonical, FORWARD_DIR).replace(os.sep, "/")
            files[forward] = template.format(banner=COMPAT_BANNER, canonical=canonical, canonical_dir=CANONICAL_PACK_DIR,
                                             forward_dir=FORWARD_DIR, relative=relative)
    for name in lst.kleidiai_asm:
        e = lst.entry(name)
        if e is None:
            raise ValueError("KAI_KLEIDIAI_ASM: %s is not an entry of KAI_KERNELS" % name)
        if e["kind"] == "matmul":
            files["%s/%s_asm.S" % (e["dir"], name)] = _ASM.format(banner=COMPAT_BANNER, name=name, what="kernel")
        else:
            # KleidiAI keeps packers (and their _asm.S) in kai/ukernels/matmul/pack/.
            files["%s/%s_asm.S" % (FORWARD_DIR, name)] = _ASM.format(banner=COMPAT_BANNER, name=name, what="packer")
    for common in COMMON_ASM:
        files[common] = _COMMON_ASM.format(banner=COMPAT_BANNER, name=os.path.basename(common))
    return files



def is_generated(path, root=ROOT):
    """True when the file at repository-relative `path` carries the compatibility files' banner."""
    try:
        with open(os.path.join(root, path)) as f:
            return COMPAT_BANNER in f.read(400)
    except OSError:
        return False


def all_outputs(lst):
    """{repository-relative path: text} of every file this generator writes."""
    outputs = kernel_outputs(lst)
    outputs.update(derived_outputs(lst))
    outputs["docs/kernels.md"] = kernel_table(lst)
    outputs.update(doc_outputs(lst))
    outputs["benchmark/kai_benchmark_entries.inc"] = bench_entries(lst)
    outputs["kai/kai_registry.inc"] = registry_inc(lst)
    outputs["kai/kai_all_headers.inc"] = headers_inc(lst)
    outputs["kai/kai_march.bzl"] = march_bzl(lst)
    outputs["cmake/KaiList.cmake"] = cmake_list(lst)
    outputs.update(select_header(lst))
    outputs.update(compat_files(lst))
    outputs.update(canonical_packer_files(lst))
    return outputs


def main(argv):
    lst = kai_list.load()
    problems = lst.check()
    if problems:
        for p in problems:
            print("gen_kernels: " + p)
        return 1
    check = "--check" in argv
    try:
        if "--intrinsics" in argv:
            out_dir = os.path.abspath(argv[argv.index("--intrinsics") + 1])
            for rel, text in kernel_outputs(lst, form="intrinsics").items():
                os.makedirs(out_dir, exist_ok=True)
                with open(os.path.join(out_dir, os.path.basename(rel)), "w") as f:
                    f.write(text)
                print("wrote %s" % os.path.join(out_dir, os.path.basename(rel)))
            return 0
        outputs = all_outputs(lst)
    except (TemplateError, ValueError) as err:
        print("gen_kernels: %s" % err)
        return 1
    stale = 0
    # A file that says it is generated but that nothing generates any more (its entry left the
    # list or lost its "template" key): reported by --check, deleted otherwise (compat files) .
    for d in sorted({e["dir"] for e in lst.entries}):
        for f in sorted(os.listdir(os.path.join(ROOT, d))):
            rel = os.path.join(d, f)
            if f.endswith((".c", ".h")) and rel not in outputs and "Generated by tools/gen_kernels.py from tools/templates" in open(os.path.join(ROOT, rel)).read():
                print("%s has the generated banner but no kai/kernels.bzl entry lists a template for it" % rel)
                stale += 1
    for dirpath, _, filenames in os.walk(os.path.join(ROOT, "kai")):
        for fn in filenames:
            rel = os.path.relpath(os.path.join(dirpath, fn), ROOT).replace(os.sep, "/")
            if rel in outputs or not is_generated(rel):
                continue
            if check:
                print("%s: generated file no longer asked for by kai/kernels.bzl" % rel)
                stale += 1
            else:
                os.remove(os.path.join(ROOT, rel))
                print("removed %s" % rel)
    for rel, text in sorted(outputs.items()):
        path = os.path.join(ROOT, rel)
        current = open(path).read() if os.path.exists(path) else None
        if current == text:
            continue
        if check:
            print("%s %s: run python3 tools/gen_kernels.py" % (rel, "is missing" if current is None else "differs from what kai/kernels.bzl gives"))
            stale += 1
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        print("wrote %s" % rel)
    if check:
        print("gen_kernels: %d generated file(s), %d differ" % (len(outputs), stale))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
