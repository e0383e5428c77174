# SPDX-License-Identifier: Apache-2.0
"""Reads kai's one list (kai/kernels.bzl) and the -march logic of kai/build_defs.bzl for Python tools.

Nothing here is a second list: the tables are parsed from kai/kernels.bzl (a Starlark file in the
plain syntax its docstring describes, which is also valid Python), and march() runs the
kai_march() function of kai/build_defs.bzl itself.

    import kai_list
    lst = kai_list.load()                 # KaiList: entries, feeds, kleidiai_asm
    lst.entry("kai_lhs_quant_pack_qai8dxp_f32")["dir"]
    lst.packers_for(kernel_entry)         # packer entries that feed a kernel (KAI_PACKER_FEEDS)
    kai_list.march(["i8mm"])              # "-march=armv8.6-a+i8mm", from kai/build_defs.bzl
"""
import ast
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _tables(root):
    tree = ast.parse(open(os.path.join(root, "kai", "kernels.bzl")).read(), "kai/kernels.bzl")
    tables = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            tables[node.targets[0].id] = ast.literal_eval(node.value)
    return tables


class KaiList:
    """The tables of kai/kernels.bzl: entries (KAI_KERNELS), feeds, kleidiai_asm."""

    def __init__(self, root=ROOT):
        tables = _tables(root)
        self.root = root
        self.entries = tables["KAI_KERNELS"]
        self.feeds = tables.get("KAI_PACKER_FEEDS", [])
        self.kleidiai_asm = tables.get("KAI_KLEIDIAI_ASM", [])
        self._by_name = {e["name"]: e for e in self.entries}

    def entry(self, name):
        return self._by_name.get(name)

    def kernels(self):
        return [e for e in self.entries if e["kind"] == "matmul"]

    def packers(self):
        return [e for e in self.entries if e["kind"] != "matmul"]

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


def march(features, root=ROOT):
    """The -march flag of a list of features, computed by kai_march() of kai/build_defs.bzl."""
    text = open(os.path.join(root, "kai", "build_defs.bzl")).read()
    m = re.search(r"^def kai_march\(.*?(?=^\S)", text, re.M | re.S)
    if not m:
        raise RuntimeError("kai/build_defs.bzl: no kai_march() function")
    scope = {}
    exec(compile(m.group(0), "kai/build_defs.bzl:kai_march", "exec"), {}, scope)  # Starlark subset of Python
    return scope["kai_march"](list(features))


def version(root=ROOT):
    """kai's version, KAI_VERSION of kai/kai_common.h."""
    text = open(os.path.join(root, "kai", "kai_common.h")).read()
    return re.search(r'^#define KAI_VERSION "([^"]+)"', text, re.M).group(1)
