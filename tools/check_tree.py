#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the rules that keep every kernel copyable on its own, for each entry of kai/kernels.bzl:

* its .c and .h exist where the entry says, and nothing in kai/ukernels is missing from the list;
* the name follows the naming grammar (docs/style.md, "Names");
* the .c includes only its own header, its family's *_interface.h, kai/kai_common.h and system
  headers (<...>);
* a .c that needs a CPU feature starts with the guard that #errors without it;
* KleidiAI's paths (tools/gen_kernels.py): the forwarding files in kai/ukernels/matmul/pack/
  and the <kernel>_asm.S files are exactly what the list gives, and kai/ukernels holds no other
  .c, .h or .S file than the list's, the family interface headers and those;
* KAI_PACKER_FEEDS names only packers of the list and gives every kernel at least one LHS and
  one RHS packer;
* the README's layout table has a row for every top-level folder and every file of docs/, and
  every concrete path its first column names exists;
* every citation of docs/formats.md by section (docs/formats.md, "qsi4cxp matmul") names one of
  its headings.

Usage: python3 tools/check_tree.py     (exit 1 with one line per problem)
"""
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_kernels  # noqa: E402
import kai_list  # noqa: E402
import mutate  # noqa: E402  (FAMILY_TESTS: the suite of each family)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TYPES = r"(?:f32|bf16|qai8dx|qsi8d32|qsi4cx|qsi4c32|qs4cx|qsu4c32)"
# The f32 NEON GEMM (docs/formats.md, "f32 NEON matmul") reads an unpacked f32 LHS ("_f32_"), a "biasf32" RHS, and names its FMLA "mla";
# the 2-bit family's RHS carries "bf32sf32" (f32 bias and scale).
MATMUL = re.compile(r"^kai_matmul_clamp_(?:f32|bf16|f16)_(?:[a-z0-9]+p\d+x\d+|f32)_[a-z0-9]+p\d+x\d+(?:b|biasf32|bf32sf32)?_\d+x\d+(?:x\d+)?_(?:neon|sve)(?:_(?:mmla|dot|i8mm|dotprod|mla))?$")
# SME/SME2 kernels (docs/formats.md, "SME packed layouts"): "vl" tiles count streaming vectors; engine sme or sme2, feature mopa, mla or dot.
SME_MATMUL = re.compile(r"^kai_matmul_clamp_(?:f32|f16|qai8)_(?:[a-z0-9]+p\d+(?:vl)?x\d+|f32|f16|qai8)_[a-z0-9]+p(?:sb)?\d+vlx\d+(?:b|biasf32|sb)?(?:_\d+(?:vl)?x\d+vl)?_sme2?_(?:mopa|mla|s?dot)$")
SME_PACKER = re.compile(r"^kai_(?:lhs|rhs)_(?:imatmul_)?pack_(?:kxn_|nxk_)?[a-z0-9]+(?:_[a-z0-9]+){1,4}_sme$")
# The qai4c32p packers (docs/formats.md, "qai4c32p matmul") name their three f32 inputs (scale, zero, bias): "_f32_f32_f32".
# The f32 NEON RHS packer names its two f32 inputs (data, bias) after the packed type: "_f32_f32".
PACKER = re.compile(r"^kai_(?:lhs|rhs)_(?:quant_)?pack_(?:kxn_|nxk_)?[a-z0-9]+_[a-z0-9]+(?:_f32_f32_f32|_f32)?(?:_neon)?$")
# Indirect GEMM (docs/imatmul.md): kai_imatmul_clamp_<dst>_..., and its packers kai_{lhs,rhs}_imatmul_pack_...
IMATMUL = re.compile(r"^kai_imatmul_clamp_(?:f32|f16|qai8)_[a-z0-9]+p\d+(?:vl)?x\d+_[a-z0-9]+p\d+(?:vl)?x\d+b?_\d+(?:vl)?x\d+vl_sme2?_mopa$")
IMATMUL_PACKER = re.compile(r"^kai_(?:lhs|rhs)_imatmul_pack_(?:kxn_)?[a-z0-9]+(?:_[a-z0-9]+){1,3}_sme$")
GUARDS = {"i8mm": "__ARM_FEATURE_MATMUL_INT8", "dotprod": "__ARM_FEATURE_DOTPROD",
          "bf16": "__ARM_FEATURE_BF16_VECTOR_ARITHMETIC", "fp16": "__ARM_FEATURE_FP16_VECTOR_ARITHMETIC", "sve": "__ARM_FEATURE_SVE",
          "sme": "__ARM_FEATURE_SME", "sme2": "__ARM_FEATURE_SME2"}


LIMITS = os.path.join("test", "common", "limits.cc")


def check_limits(entries):
    """Every kernel or packer whose source states an internal limit ("Internal limit:", a buffer or
    pass boundary) has its cases declared in test/common/limits.cc, and every name there is listed."""
    problems = []
    declared = set(re.findall(r'"(kai_[a-z0-9_]+)"', open(os.path.join(ROOT, LIMITS)).read()))
    names = {e["name"] for e in entries}
    for e in entries:
        c = os.path.join(ROOT, e["dir"], e["name"] + ".c")
        if os.path.exists(c) and "Internal limit:" in open(c).read() and e["name"] not in declared:
            problems.append("%s: states an internal limit but %s declares no case for it" % (e["name"], LIMITS))
    for name in sorted(declared - names):
        problems.append("%s: declares limits of %s, which is not in kai/kernels.bzl" % (LIMITS, name))
    # The suite of each family with declared limits expands them (a table entry nobody runs tests nothing).
    for fam in sorted({e["family"] for e in entries if e["name"] in declared}):
        target = mutate.FAMILY_TESTS.get(fam, "")
        suite = os.path.join(ROOT, target[2:].replace(":", os.sep) + ".cc") if target else ""
        if not suite or not os.path.exists(suite) or "limit_cases(" not in open(suite).read():
            problems.append("family %s: has limits in %s but its suite (%s) does not run limit_cases()" %
                            (fam, LIMITS, target or "none"))
    return problems


def main():
    lst = kai_list.load(ROOT)
    problems = lst.check()
    entries = lst.entries
    listed = set()
    names = [e["name"] for e in entries]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append("%s: listed %d times in KAI_KERNELS" % (name, names.count(name)))
    for e in entries:
        name, d = e["name"], e["dir"]
        c = os.path.join(ROOT, d, name + ".c")
        h = os.path.join(ROOT, d, name + ".h")
        listed.add(os.path.relpath(c, ROOT))
        for f in (c, h):
            if not os.path.exists(f):
                problems.append("%s: missing %s" % (name, os.path.relpath(f, ROOT)))
        grammar = MATMUL if e["kind"] == "matmul" else PACKER
        if not grammar.match(name) and not (SME_MATMUL if e["kind"] == "matmul" else SME_PACKER).match(name) \
                and not (IMATMUL if e["kind"] == "matmul" else IMATMUL_PACKER).match(name):
            problems.append("%s: name does not follow the naming grammar for a %s" % (name, e["kind"]))
        if not os.path.exists(c):
            continue
        src = open(c).read()
        allowed = {name + ".h", "kai/kai_common.h"}
        allowed |= {os.path.basename(p) for p in glob.glob(os.path.join(ROOT, d, "*_interface.h"))}
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', src, re.M):
            if inc not in allowed:
                problems.append("%s: includes \"%s\" (a kernel may include only its own header, its family "
                                "interface header and kai/kai_common.h)" % (name, inc))
        for f in e["features"]:
            if f in ("sme", "sme2"):
                # Encoded SME (tools/sme_encode.py): built with any AArch64 -march, guarded on AArch64 alone.
                if not re.search(r"^#if !defined\(__aarch64__\)\n#error ", src, re.M) or "defined(__ARM_FEATURE_SME" in src:
                    problems.append("%s: an SME file's guard is `#if !defined(__aarch64__)` alone (tools/sme_encode.py)" % name)
                continue
            if GUARDS[f] not in src.split("#include")[0] and not re.search(r"#if[^\n]*" + GUARDS[f], src):
                problems.append("%s: no #error guard on %s for feature %s" % (name, GUARDS[f], f))
    compat = set(gen_kernels.compat_files(lst))
    known = listed | compat | set(lst.api_headers)
    for e in entries:
        known.add(os.path.join(e["dir"], e["name"] + ".h"))
        known.update(lst.interface_headers(e))
    for pattern in ("*.c", "*.h", "*.S"):
        for f in glob.glob(os.path.join(ROOT, "kai", "ukernels", "**", pattern), recursive=True):
            rel = os.path.relpath(f, ROOT).replace(os.sep, "/")
            if rel not in known:
                problems.append("%s: not listed in kai/kernels.bzl (nor generated from it)" % rel)
    for line in lst.feeds:
        for p in line["packers"]:
            e = lst.entry(p)
            if e is None or e["kind"] == "matmul":
                problems.append("KAI_PACKER_FEEDS: %s is not a packer of KAI_KERNELS" % p)
    for k in lst.kernels():
        kinds = {p["kind"] for p in lst.packers_for(k)}
        for kind in lst.packer_kinds_needed(k):
            if kind not in kinds:
                problems.append("%s: no %s feeds it in KAI_PACKER_FEEDS" % (k["name"], kind))
    problems += readme_layout_problems(ROOT)
    problems += formats_citation_problems(ROOT)
    problems += check_limits(entries)
    # SME/SME2 code as encoded words beside their mnemonics: the file is what tools/sme_encode.py writes
    # and every word is its mnemonic's encoding (llvm-mc-19).
    enc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "sme_encode.py"), "--check"],
                         capture_output=True, text=True)
    if enc.returncode != 0:
        problems.append("tools/sme_encode.py --check failed:\n" + (enc.stderr + enc.stdout).strip())
    for p in problems:
        print(p)
    print("check_tree: %d entries, %d problem(s)" % (len(entries), len(problems)))
    return 1 if problems else 0


def tree_files(root):
    """The repository's files (tracked, or new and not ignored), relative, with '/' separators."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=root,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout.decode()
        return [f for f in out.splitlines() if f and os.path.exists(os.path.join(root, f))]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: walk it
        files = []
        for d, dirs, fs in os.walk(root):
            dirs[:] = [x for x in dirs if x != ".git" and not x.startswith("bazel-")]
            files += [os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/") for f in fs]
        return files


def readme_layout_problems(root):
    """Every top-level folder and every file of docs/ must be named in the first column of the
    README's "## Layout" table; every concrete path named there must exist."""
    text = open(os.path.join(root, "README.md")).read()
    m = re.search(r"^## Layout\n(.*?)(?=^## )", text, re.M | re.S)
    if not m:
        return ["README.md: no \"## Layout\" section"]
    named = set()
    for line in m.group(1).splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            named.update(re.findall(r"`([^`]+)`", line.split("|")[1]))
    problems = []
    files = tree_files(root)
    for top in sorted({f.split("/")[0] for f in files if "/" in f}):
        if not any(n == top + "/" or n.startswith(top + "/") for n in named):
            problems.append("README.md: the layout table has no row for the folder %s/" % top)
    for f in sorted(f for f in files if f.startswith("docs/") and f.count("/") == 1):
        if f not in named:
            problems.append("README.md: the layout table does not name %s" % f)
    for n in sorted(named):
        if not re.search(r"[<*]", n) and not os.path.exists(os.path.join(root, n)):
            problems.append("README.md: the layout table names %s, which does not exist" % n)
    return problems


def formats_citation_problems(root):
    """Comments and documents cite docs/formats.md by heading: 'docs/formats.md, "A"' or
    '[formats.md, "A"](formats.md#a) and ["B"](formats.md#b)'; each heading must exist."""
    headings = set(re.findall(r"^## (.+?)\s*$", open(os.path.join(root, "docs", "formats.md")).read(), re.M))
    cite = re.compile(r'formats\.md, ((?:\[?"[^"\n]+"\]?(?:\([^)\n]*\))?(?:, | and )?)+)')
    problems = []
    for f in tree_files(root):
        if f == "tools/check_tree.py" or not f.endswith((".c", ".h", ".cc", ".in", ".S", ".py", ".md", ".bzl",
                                                            ".bazel", ".sh", ".inc")):
            continue
        try:
            text = open(os.path.join(root, f), encoding="utf-8").read()
        except UnicodeDecodeError:
            continue
        for m in cite.finditer(text):
            for h in re.findall(r'"([^"\n]+)"', m.group(1)):
                if h not in headings and not h.startswith("<"):  # "<heading>": a placeholder in prose
                    problems.append('%s: cites docs/formats.md, "%s", which is not a heading there' % (f, h))
    return problems


if __name__ == "__main__":
    sys.exit(main())
