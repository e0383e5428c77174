#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reads kai's one list (kai/kernels.bzl) for every Python tool, and computes what derives from it
in one place (the -march flag of a set of CPU features).

The tables are parsed from kai/kernels.bzl, a Starlark file in the plain syntax its docstring
describes (which is also valid Python). No tool parses kai/kernels.bzl any other way.

    import kai_list
    lst = kai_list.load()                 # KaiList: entries, families, feeds, kleidiai_asm
    lst.entry("kai_lhs_quant_pack_qai8dxp_f32")["dir"]
    lst.family("qsi4c32p")["suite"]       # a row of KAI_FAMILIES
    lst.packers_for(kernel_entry)         # packer entries that feed a kernel (KAI_PACKER_FEEDS)
    kai_list.march(["i8mm"])              # "-march=armv8.6-a+i8mm"

As a command (CI and shell scripts):
    python3 tools/kai_list.py families                     every family, one a line
    python3 tools/kai_list.py targets --kind suites        the families' test suites, each once
    python3 tools/kai_list.py targets --kind no_asm        the suites of the families with assembly
    python3 tools/kai_list.py no_asm_copts                 --copt=-D<switch> for every no_asm switch
"""
import ast
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The keys every row of KAI_FAMILIES has (kai/kernels.bzl's docstring says what each means).
FAMILY_KEYS = ("family", "title", "doc", "suite", "reference", "sme2", "no_asm", "select", "perf",
               "perf_gemm", "perf_gemv")


def _tables(root):
    tree = ast.parse(open(os.path.join(root, "kai", "kernels.bzl")).read(), "kai/kernels.bzl")
    tables = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            tables[node.targets[0].id] = ast.literal_eval(node.value)
    return tables


class ListError(Exception):
    pass


class KaiList:
    """The tables of kai/kernels.bzl: entries (KAI_KERNELS), families (KAI_FAMILIES), feeds, kleidiai_asm."""

    def __init__(self, root=ROOT):
        tables = _tables(root)
        self.root = root
        self.entries = tables["KAI_KERNELS"]
        self.families = tables.get("KAI_FAMILIES", [])
        self.feeds = tables.get("KAI_PACKER_FEEDS", [])
        self.kleidiai_asm = tables.get("KAI_KLEIDIAI_ASM", [])
        self.api_headers = tables.get("KAI_API_HEADERS", [])
        self._by_name = {e["name"]: e for e in self.entries}
        self._family = {f["family"]: f for f in self.families}

    def check(self):
        """Problems of the tables themselves (unknown family, missing keys, duplicates)."""
        problems = []
        for f in self.families:
            for key in FAMILY_KEYS:
                if key not in f:
                    problems.append("KAI_FAMILIES: %s has no %r" % (f.get("family", "?"), key))
        if len(self._family) != len(self.families):
            problems.append("KAI_FAMILIES: a family is listed twice")
        if len(self._by_name) != len(self.entries):
            problems.append("KAI_KERNELS: an entry is listed twice")
        for e in self.entries:
            if e["family"] not in self._family:
                problems.append("%s: family %s has no row in KAI_FAMILIES" % (e["name"], e["family"]))
        used = {e["family"] for e in self.entries}
        for f in self.families:
            if f["family"] not in used:
                problems.append("KAI_FAMILIES: %s has no entry in KAI_KERNELS" % f["family"])
        return problems

    def entry(self, name):
        return self._by_name.get(name)

    def family(self, name):
        return self._family.get(name)

    def family_names(self):
        return [f["family"] for f in self.families]

    def family_entries(self, name, kind=None):
        return [e for e in self.entries if e["family"] == name and (kind is None or e["kind"] == kind)]

    def kernels(self):
        return [e for e in self.entries if e["kind"] == "matmul"]

    def packers(self):
        return [e for e in self.entries if e["kind"] != "matmul"]

    def suites(self):
        """The families' test suites, each once, in the order of KAI_FAMILIES."""
        return list(dict.fromkeys(f["suite"] for f in self.families))

    def no_asm_switches(self):
        return list(dict.fromkeys(s for f in self.families for s in f["no_asm"]))

    def no_asm_suites(self):
        return list(dict.fromkeys(f["suite"] for f in self.families if f["no_asm"]))

    def sme2_suites(self):
        return list(dict.fromkeys(f["suite"] for f in self.families if f["sme2"] == "1"))

    def packers_for(self, kernel):
        """Packer entries that feed `kernel` (an entry), in list order, each once."""
        names = set()
        for line in self.feeds:
            if line["family"] == kernel["family"] and line["match"] in kernel["name"]:
                names.update(line["packers"])
        return [e for e in self.entries if e["name"] in names]

    @staticmethod
    def packer_kinds_needed(kernel):
        """The packer kinds a kernel entry reads: an RHS packer always, an LHS packer unless the
        LHS operand of its name is unpacked (kai_matmul_clamp_<dst>_f32_<rhs>_...: the SME2 GEMVs
        read the f32 row as it is)."""
        lhs_operand = kernel["name"][len("kai_matmul_clamp_"):].split("_")[1]
        packed = re.search(r"p(?:\d|vl|mr)", lhs_operand) is not None
        return ("lhs_packer", "rhs_packer") if packed else ("rhs_packer",)

    def interface_headers(self, entry):
        """Repository-relative paths of the family interface headers beside an entry's files."""
        d = os.path.join(self.root, entry["dir"])
        return sorted(os.path.join(entry["dir"], f) for f in os.listdir(d) if f.endswith("_interface.h"))


def load(root=ROOT):
    return KaiList(root)


def march(features):
    """The -march flag of a list of CPU features: the one place it is computed (Bazel and CMake
    read it from kai/kai_march.bzl and cmake/KaiList.cmake, which tools/gen_kernels.py writes).

    Baseline Armv8-A for SME code as without features: its SME/SME2 instructions are encoded
    words (tools/sme_encode.py), so any AArch64 compiler and assembler take the file; Armv8.6-A when i8mm or
    bf16 is among them (their first architecture version), Armv8.2-A otherwise; the features
    sorted and joined by '+'."""
    if not features or "sme" in features or "sme2" in features:
        return "-march=armv8-a"
    base = "armv8.6-a" if ("i8mm" in features or "bf16" in features) else "armv8.2-a"
    return "-march=%s+%s" % (base, "+".join(sorted(features)))


def features_key(features):
    """The key of a feature set in the generated -march tables: sorted, joined by '+'."""
    return "+".join(sorted(features))


def version(root=ROOT):
    """kai's version, KAI_VERSION of kai/kai_common.h."""
    text = open(os.path.join(root, "kai", "kai_common.h")).read()
    return re.search(r'^#define KAI_VERSION "([^"]+)"', text, re.M).group(1)


def main(argv):
    lst = load()
    problems = lst.check()
    if problems:
        for p in problems:
            print("kai_list: " + p, file=sys.stderr)
        return 1
    if argv[:1] == ["families"]:
        print("\n".join(lst.family_names()))
    elif argv[:1] == ["targets"]:
        kind = argv[argv.index("--kind") + 1] if "--kind" in argv else "suites"
        targets = {"suites": lst.suites, "no_asm": lst.no_asm_suites, "sme2": lst.sme2_suites}.get(kind)
        if targets is None:
            print("kai_list: --kind is suites, no_asm or sme2", file=sys.stderr)
            return 2
        print(" ".join(targets()))
    elif argv[:1] == ["no_asm_copts"]:
        print(" ".join("--copt=-D%s" % s for s in lst.no_asm_switches()))
    else:
        print(__doc__.split("As a command")[1], file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
