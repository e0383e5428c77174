#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Tests tools/vendor: every kernel, vendored alone, compiles alone with only the recorded flags.

1. `tools/vendor --list` names every entry of kai/kernels.bzl with its features.
2. For every kernel, with and without --with-packers, and for every packer: vendor it into an
   empty directory, then, for each compiler (aarch64-linux-gnu-gcc and clang-19
   --target=aarch64-linux-gnu), compile each .c of DIR/kai_vendor.txt in DIR with `-I. -c` and
   exactly the flags recorded for it (nothing else: no -std, no -D), and check that
   * every .c of the directory is listed, and every copied file is that .c or a header one of
     them includes (the compiler's -MD dependencies), or the family interface header of a
     kernel (which the engine includes): nothing missing, nothing extra;
   * with --with-packers, the set holds an LHS and an RHS packer and the objects link into one
     relocatable object (ld -r: no symbol defined twice) that leaves no kai_ symbol undefined.
3. An unknown name exits 2 and names the closest entries.

Usage: python3 test/dropin/vendor_test.py [--jobs N]     (exit 1 with one line per problem)
"""
import concurrent.futures
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import kai_list  # noqa: E402

VENDOR = os.path.join(ROOT, "tools", "vendor")
COMPILERS = {"gcc": ["aarch64-linux-gnu-gcc"], "clang": ["clang-19", "--target=aarch64-linux-gnu"]}


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    return p.returncode, p.stdout, p.stderr


def parse_vendor_txt(path):
    out = []
    for line in open(path):
        line = line.strip()
        if line and not line.startswith("#"):
            parts = line.split()
            out.append((parts[0], parts[1:]))
    return out


def deps_of(dfile):
    text = open(dfile).read().replace("\\\n", " ")
    return [t for t in text.split(":", 1)[1].split()]


def check_set(tmp, label, names, with_packers, lst):
    problems = []
    d = os.path.join(tmp, label)
    os.makedirs(d)
    rc, out, err = run([sys.executable, VENDOR] + names + (["--with-packers"] if with_packers else []) + ["--to", d])
    if rc:
        return ["%s: tools/vendor failed: %s" % (label, err.strip())]
    listed = parse_vendor_txt(os.path.join(d, "kai_vendor.txt"))
    copied = set()
    for dirpath, _, files in os.walk(d):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), d)
            if rel != "kai_vendor.txt":
                copied.add(rel)
    sources = {src for src, _ in listed}
    for c in sorted(f for f in copied if f.endswith(".c")):
        if c not in sources:
            problems.append("%s: %s is copied but not listed in kai_vendor.txt" % (label, c))
    for src in sources:
        e = lst.entry(os.path.basename(src)[:-2])
        if e["kind"] == "matmul":
            for h in lst.interface_headers(e):
                if h not in copied:
                    problems.append("%s: the family interface header %s is not copied" % (label, h))
    kinds = {lst.entry(os.path.basename(src)[:-2])["kind"] for src in sources}
    needed = set()
    for src in sources:
        e = lst.entry(os.path.basename(src)[:-2])
        if e["kind"] == "matmul":
            needed.update(lst.packer_kinds_needed(e))
    if with_packers and not needed <= kinds:
        problems.append("%s: --with-packers gave no LHS or no RHS packer (%s)" % (label, sorted(kinds)))
    for comp, cc in COMPILERS.items():
        used = set(sources)
        objs = []
        for src, flags in listed:
            obj = os.path.join(d, "%s_%s.o" % (os.path.basename(src)[:-2], comp))
            dfile = obj[:-2] + ".d"
            rc, out, err = run(cc + flags + ["-I.", "-MD", "-MF", dfile, "-c", src, "-o", obj], cwd=d)
            if rc:
                problems.append("%s (%s): %s does not compile with %s alone:\n%s" % (label, comp, src, " ".join(flags), err.strip()))
                continue
            objs.append(obj)
            for dep in deps_of(dfile):
                if not os.path.isabs(dep):
                    used.add(os.path.normpath(dep))
        # The family interface header is for the engine (the ukernel struct); kernels need not include it.
        extra = sorted(f for f in copied - used if not f.endswith("_interface.h"))
        if extra and len(objs) == len(listed):
            problems.append("%s (%s): copied but never included: %s" % (label, comp, ", ".join(extra)))
        if with_packers and len(objs) == len(listed):
            whole = os.path.join(d, "all_%s.o" % comp)
            rc, out, err = run(["aarch64-linux-gnu-ld", "-r", "-o", whole] + objs)
            if rc:
                problems.append("%s (%s): the set does not link into one object:\n%s" % (label, comp, err.strip()))
            else:
                rc, out, err = run(["aarch64-linux-gnu-nm", "-u", whole])
                undefined = [l.split()[-1] for l in out.splitlines() if l.split() and l.split()[-1].startswith("kai_")]
                if undefined:
                    problems.append("%s (%s): undefined kai symbols: %s" % (label, comp, undefined))
    return problems


def main(argv):
    jobs = int(argv[argv.index("--jobs") + 1]) if "--jobs" in argv else 2
    lst = kai_list.load(ROOT)
    problems = []
    rc, out, err = run([sys.executable, VENDOR, "--list"])
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.startswith("kai_")}
    if rc:
        problems.append("tools/vendor --list failed: %s" % err)
    for e in lst.entries:
        row = rows.get(e["name"])
        if row is None:
            problems.append("tools/vendor --list does not list %s" % e["name"])
        elif row[3] != (",".join(e["features"]) or "-"):
            problems.append("tools/vendor --list: %s has features %s, the list says %s" % (e["name"], row[3], e["features"]))
    cases = []
    for e in lst.kernels():
        cases.append((e["name"] + "+packers", [e["name"]], True))
        cases.append((e["name"], [e["name"]], False))
    for e in lst.packers():
        cases.append((e["name"], [e["name"]], False))
    with tempfile.TemporaryDirectory(prefix="kai_vendor_") as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            for p in pool.map(lambda c: check_set(tmp, c[0], c[1], c[2], lst), cases):
                problems += p
        # Several kernels at once, one kai_vendor.txt.
        k = lst.kernels()
        problems += check_set(tmp, "several", [k[0]["name"], k[-1]["name"][len("kai_"):]], True, lst)
    rc, out, err = run([sys.executable, VENDOR, "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprd", "--to", "unused"])
    if rc != 2 or "kai_matmul_clamp_f32_qsi8d32p1x4_qsi4c32p4x4_1x4_neon_dotprod" not in err:
        problems.append("an unknown name gives exit %d and %r, not exit 2 naming the closest kernel" % (rc, err))
    if os.path.exists("unused"):
        problems.append("an unknown name still created the target directory")
    for p in problems:
        print(p)
    print("vendor_test: --list checked (%d entries); %d set(s) vendored and compiled alone with gcc and clang; %d problem(s)"
          % (len(lst.entries), len(cases) + 1, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
