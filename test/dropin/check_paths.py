#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compiles kai's files by every path a KleidiAI v1.30.0 client names them (docs/integration.md).

For each compiler (aarch64-linux-gnu-gcc/g++ and clang-19/clang++-19 --target=aarch64-linux-gnu):

1. headers: every header of kai/kernels.bzl (kernel, family interface, packer at kai/ukernels/pack/
   and at kai/ukernels/matmul/pack/) and kai/kai_common.h compiles alone, as C99 and as C++17,
   (a) included by its path from the repository root, with only the root on the include path, and
   (b) included by its name alone, with the root and the header's own directory on the path (as
   ggml, MNN and PyTorch include them; kai/kai_common.h with kai/ on the path);
2. forwarding packers: kai/ukernels/matmul/pack/<packer>.c, compiled with the canonical file's
   flags, defines exactly the global symbols of kai/ukernels/pack/<packer>.c, and the objects of
   either location, linked with every kernel, define each symbol once (ld -r fails otherwise);
3. <kernel>_asm.S: assembles with -Wall -Werror and yields no symbol and no code.

Usage: python3 test/dropin/check_paths.py [--jobs N]     (exit 1 with one line per problem)
"""
import concurrent.futures
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import gen_kernels  # noqa: E402
import kai_list  # noqa: E402

COMPILERS = {
    "gcc": (["aarch64-linux-gnu-gcc"], ["aarch64-linux-gnu-g++"]),
    "clang": (["clang-19", "--target=aarch64-linux-gnu"], ["clang++-19", "--target=aarch64-linux-gnu"]),
}
WARN = ["-Wall", "-Wextra", "-Wpedantic", "-Werror"]
NM = "aarch64-linux-gnu-nm"
LD = "aarch64-linux-gnu-ld"


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    return p.returncode, p.stdout


def headers(lst):
    """(path, directory to put on the include path for the by-name include) of every header."""
    out = [("kai/kai_common.h", "kai")]
    seen = set()
    for e in lst.entries:
        for h in [os.path.join(e["dir"], e["name"] + ".h")] + lst.interface_headers(e):
            if h not in seen:
                seen.add(h)
                out.append((h, e["dir"]))
    for path in lst.api_headers:
        out.append((path, os.path.dirname(path)))
    for path in sorted(gen_kernels.compat_files(lst)):
        if path.endswith(".h"):
            out.append((path, os.path.dirname(path)))
    return out


def check_header(tmp, comp, lang, path, flat_dir):
    cc = COMPILERS[comp][0 if lang == "c" else 1]
    std = "-std=c99" if lang == "c" else "-std=c++17"
    problems = []
    for how, include, dirs in (("root", path, [ROOT]),
                               ("name", os.path.basename(path), [ROOT, os.path.join(ROOT, flat_dir)])):
        src = os.path.join(tmp, "%s_%s_%s_%s.%s" % (comp, lang, how, path.replace("/", "_"), "c" if lang == "c" else "cc"))
        with open(src, "w") as f:
            f.write('#include "%s"\nint kai_dropin_probe;\n' % include)
        cmd = cc + [std] + WARN + ["-fsyntax-only"] + ["-I" + d for d in dirs] + [src]
        rc, out = run(cmd, cwd=tmp)
        if rc:
            problems.append("%s %s: #include \"%s\" (by %s) fails:\n%s" % (comp, lang, include, how, out.strip()))
    return problems


def globals_of(obj):
    rc, out = run([NM, "-g", "--defined-only", obj])
    if rc:
        raise RuntimeError(out)
    return sorted(line.split()[-1] for line in out.splitlines() if line.strip())


def check_objects(tmp, comp, lst):
    cc = COMPILERS[comp][0]
    problems = []
    kernel_objs, canonical_objs, forward_objs = [], [], []

    def compile_c(src, features, obj):
        rc, out = run(cc + ["-std=c99", "-O1", kai_list.march(features), "-I" + ROOT, "-c", src, "-o", obj] + WARN)
        if rc:
            problems.append("%s: %s does not compile:\n%s" % (comp, os.path.relpath(src, ROOT), out.strip()))
        return rc == 0

    for e in lst.entries:
        obj = os.path.join(tmp, "%s_%s.o" % (comp, e["name"]))
        if not compile_c(os.path.join(ROOT, e["dir"], e["name"] + ".c"), e["features"], obj):
            continue
        if e["kind"] == "matmul":
            kernel_objs.append(obj)
            continue
        canonical_objs.append(obj)
        fobj = os.path.join(tmp, "%s_%s_fwd.o" % (comp, e["name"]))
        if not compile_c(os.path.join(ROOT, gen_kernels.FORWARD_DIR, e["name"] + ".c"), e["features"], fobj):
            continue
        forward_objs.append(fobj)
        a, b = globals_of(obj), globals_of(fobj)
        if a != b or not a:
            problems.append("%s: %s: forwarding object defines %s, canonical %s" % (comp, e["name"], b, a))
    for label, objs in (("kai/ukernels/pack", canonical_objs), (gen_kernels.FORWARD_DIR, forward_objs)):
        out_obj = os.path.join(tmp, "%s_all_%s.o" % (comp, label.replace("/", "_")))
        rc, out = run([LD, "-r", "-o", out_obj] + kernel_objs + objs)
        if rc:
            problems.append("%s: kernels + packers of %s do not link into one object:\n%s" % (comp, label, out.strip()))
    # A build that compiles both locations (or, as tools that name objects by file name do, one
    # packer object listed twice) still links: the packers' functions are weak definitions.
    for label, objs in (("both locations", canonical_objs + forward_objs), ("each packer twice", canonical_objs * 2)):
        out_obj = os.path.join(tmp, "%s_all_%s.o" % (comp, label.replace(" ", "_")))
        rc, out = run([LD, "-r", "-o", out_obj] + kernel_objs + objs)
        if rc:
            problems.append("%s: kernels + packers of %s do not link into one object:\n%s" % (comp, label, out.strip()))
    return problems, len(canonical_objs) + len(forward_objs) + len(kernel_objs)


def check_asm(tmp, comp, lst):
    cc = COMPILERS[comp][0]
    problems = []
    asm = [p for p in gen_kernels.compat_files(lst) if p.endswith("_asm.S")]
    for path in asm:
        obj = os.path.join(tmp, "%s_%s.o" % (comp, os.path.basename(path)))
        rc, out = run(cc + WARN + ["-I" + ROOT, "-c", os.path.join(ROOT, path), "-o", obj])
        if rc:
            problems.append("%s: %s does not assemble:\n%s" % (comp, path, out.strip()))
            continue
        syms = run([NM, obj])[1].strip()
        _, sizes = run(["aarch64-linux-gnu-size", "-A", obj])
        code = [l for l in sizes.splitlines() if l.startswith((".text", ".data")) and int(l.split()[1]) != 0]
        if syms and "no symbols" not in syms or code:
            problems.append("%s: %s is not empty: symbols %r, sections %r" % (comp, path, syms, code))
    return problems, len(asm)


def main(argv):
    jobs = int(argv[argv.index("--jobs") + 1]) if "--jobs" in argv else 2
    lst = kai_list.load(ROOT)
    hdrs = headers(lst)
    problems = []
    with tempfile.TemporaryDirectory(prefix="kai_dropin_") as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(check_header, tmp, comp, lang, path, d)
                       for comp in COMPILERS for lang in ("c", "c++") for path, d in hdrs]
            for f in futures:
                problems += f.result()
        print("headers: %d header(s) x {root, by name} x {C99, C++17} x {gcc, clang}" % len(hdrs))
        for comp in COMPILERS:
            p, n = check_objects(tmp, comp, lst)
            problems += p
            print("objects (%s): %d compiled; forwarding packers define the canonical symbols; each location links alone, both together too" % (comp, n))
            p, n = check_asm(tmp, comp, lst)
            problems += p
            print("_asm.S (%s): %d assembled, all empty" % (comp, n))
    for p in problems:
        print(p)
    print("check_paths: %d problem(s)" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
