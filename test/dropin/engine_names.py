#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lists the KleidiAI names an engine's source files use and says which ones kai has.

  test/dropin/engine_names.py FILE_OR_DIR...

Reads every C/C++ source and header given (directories: recursively), collects

  * the headers included by a name starting with `kai` (`#include "kai/ukernels/..."` or by file
    name, `#include <kai_common.h>`), and
  * every identifier starting with `kai_` (functions, types, enumerators, macros),

and looks each one up in this checkout: a header by its path from the repository root, or, for a
bare file name, anywhere under kai/; an identifier among the identifiers of kai's headers (every
header under kai/, so the paths of KleidiAI and kai's own). Identifiers the engine defines itself
(PyTorch's `kai_kernel_id`, say) are not kai's to have; they are reported apart as "engine's own",
recognised by a definition in the given files (`struct|enum|class|union NAME`, `#define NAME`, a
function definition `NAME(...) {` at the start of a line or after a return type).

Prints one line per name, `ok`, `MISSING` or `own`, then a summary; exit status 1 when a header or
a non-own identifier is missing. It checks names, not signatures: kai's signatures are KleidiAI's
by construction and by kai's own tests, and an engine's call sites need its headers to compile.

Build files (CMakeLists.txt, *.cmake, BUILD, BUILD.bazel, *.bzl, *.bazel) among the given files are read for the
KleidiAI source paths they name (`kai/ukernels/.../<file>.c|.S|.h`, after any `${KLEIDIAI_SRC_DIR}/`-style
prefix): a path must exist in this checkout, a path with a `*` must match at least one file (as CMake's
file(GLOB) would).

  test/dropin/engine_names.py --engine NAME CHECKOUT [--engine NAME CHECKOUT ...]

reads, for each engine, only the files of the engine's checkout that hold its KleidiAI glue (ENGINES below:
XNNPACK, ONNX Runtime's MLAS, MNN, OpenVINO, llama.cpp, ggml, PyTorch, torchao), reports each engine on its
own and ends with one summary line per engine. Paths of ENGINES that a checkout lacks are listed as absent
(engines move their files; an absent path is a reason to update ENGINES, not a pass).
"""
import fnmatch
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC_EXT = (".c", ".cc", ".cpp", ".cxx", ".h", ".hpp", ".inc", ".S")
BUILD_NAMES = ("CMakeLists.txt", "BUILD", "BUILD.bazel")
BUILD_EXT = (".cmake", ".bzl", ".bazel")
SOURCE_PATH = re.compile(r"(kai/(?:[\w*.-]+/)*[\w*.-]+\.(?:c|S|h))\b")

# Where each engine keeps the code that names KleidiAI, relative to its repository root (directories are read
# recursively). Kept to the KleidiAI-facing files so that an engine's unrelated kai_* names do not count.
ENGINES = {
    "xnnpack": ["src", "CMakeLists.txt", "cmake"],
    "onnxruntime": ["onnxruntime/core/mlas/lib/kleidiai", "onnxruntime/core/mlas/lib/mlasi.h",
                    "onnxruntime/core/mlas/lib/platform.cpp", "cmake/onnxruntime_mlas.cmake"],
    "mnn": ["source/backend/cpu/kleidiai", "source/backend/cpu/arm/CMakeLists.txt", "cmake/KleidiAI.cmake"],
    "openvino": ["src/plugins/intel_cpu/src/nodes/executors/kleidiai", "src/plugins/intel_cpu/CMakeLists.txt",
                 "src/plugins/intel_cpu/thirdparty/CMakeLists.txt"],
    "llama.cpp": ["ggml/src/ggml-cpu/kleidiai", "ggml/src/ggml-cpu/CMakeLists.txt"],
    "ggml": ["src/ggml-cpu/kleidiai", "src/ggml-cpu/CMakeLists.txt"],
    "pytorch": ["aten/src/ATen/native/kleidiai", "cmake/Dependencies.cmake"],
    "torchao": ["torchao/experimental/kernels/cpu/aarch64/kleidi", "torchao/csrc/cpu/shared_kernels/internal/kleidi",
                "torchao/experimental/kernels/cpu/aarch64/CMakeLists.txt"],
}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]((?:[^">]*/)?kai[^">]*\.h)[">]', re.M)
IDENT = re.compile(r"\bkai_[A-Za-z0-9_]+")


def is_build_file(path):
    f = os.path.basename(path)
    return f in BUILD_NAMES or f.endswith(BUILD_EXT)


def sources(paths):
    for p in paths:
        if os.path.isdir(p):
            for d, _, files in os.walk(p):
                for f in sorted(files):
                    if f.endswith(SRC_EXT) or is_build_file(f):
                        yield os.path.join(d, f)
        else:
            yield p


def kai_files():
    out = []
    for d, _, files in os.walk(os.path.join(ROOT, "kai")):
        out.extend(os.path.relpath(os.path.join(d, f), ROOT).replace(os.sep, "/") for f in files)
    return out


def kai_index():
    names, headers = set(), {}
    for d, _, files in os.walk(os.path.join(ROOT, "kai")):
        for f in files:
            if not f.endswith(".h"):
                continue
            path = os.path.join(d, f)
            headers.setdefault(f, []).append(os.path.relpath(path, ROOT))
            with open(path, errors="replace") as fh:
                names.update(IDENT.findall(fh.read()))
    return names, headers


def strip_comments(text):
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)


def check(paths):
    """Looks up every name the files under `paths` use; prints the report; returns (missing count, summary)."""
    kai_names, kai_headers = kai_index()
    files = kai_files()
    used_headers, used_names, used_paths, own = {}, {}, {}, set()
    for path in sources(paths):
        with open(path, errors="replace") as fh:
            text = fh.read()
        if is_build_file(path):
            for src in SOURCE_PATH.findall(text):
                used_paths.setdefault(src, set()).add(path)
            continue
        for h in INCLUDE.findall(text):
            used_headers.setdefault(h, set()).add(path)
        code = strip_comments(text)
        for n in IDENT.findall(code):
            used_names.setdefault(n, set()).add(path)
        for m in re.finditer(r"\b(?:struct|enum(?:\s+class)?|class|union)\s+(kai_\w+)\s*[{:]", code):
            own.add(m.group(1))
        for m in re.finditer(r"#\s*define\s+(kai_\w+)", code):
            own.add(m.group(1))
        for m in re.finditer(r"(?:^|[\w*&>]\s+)(?:\w+::)*(kai_\w+)\s*\([^;{]*\)\s*(?:const\s*)?\{", code, re.M):
            own.add(m.group(1))
        for m in re.finditer(r"\b(kai_\w+)\s*=\s*\d", code):  # enumerators of the engine's enums
            if m.group(1) not in kai_names:
                own.add(m.group(1))
    missing = 0
    print("headers:")
    for h in sorted(used_headers):
        if "/" in h:
            ok = os.path.isfile(os.path.join(ROOT, h))
        else:
            ok = h in kai_headers
        missing += not ok
        print("  %-7s %s" % ("ok" if ok else "MISSING", h))
    print("source paths named by build files:")
    n_paths_missing = 0
    for src in sorted(used_paths):
        ok = any(fnmatch.fnmatchcase(f, src) for f in files) if "*" in src else os.path.isfile(os.path.join(ROOT, src))
        n_paths_missing += not ok
        print("  %-7s %s" % ("ok" if ok else "MISSING", src))
    print("identifiers:")
    n_ok = n_own = n_missing = 0
    for n in sorted(used_names):
        if n in kai_names:
            status = "ok"
            n_ok += 1
        elif n in own:
            status = "own"
            n_own += 1
        else:
            status = "MISSING"
            n_missing += 1
        print("  %-7s %s" % (status, n))
    summary = ("%d headers (%d missing), %d build-file source paths (%d missing), %d identifiers: %d in kai, "
               "%d missing, %d engine's own" % (len(used_headers), missing, len(used_paths), n_paths_missing,
                                                len(used_names), n_ok, n_missing, n_own))
    print("summary: " + summary)
    return missing + n_paths_missing + n_missing, summary


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    if args[0] != "--engine":
        return 1 if check(args)[0] else 0
    if len(args) % 3:
        sys.exit("usage: engine_names.py --engine NAME CHECKOUT [--engine NAME CHECKOUT ...]")
    total, lines = 0, []
    for i in range(0, len(args), 3):
        if args[i] != "--engine" or args[i + 1] not in ENGINES:
            sys.exit("unknown engine %r (known: %s)" % (args[i + 1], ", ".join(sorted(ENGINES))))
        name, root = args[i + 1], args[i + 2]
        present = [os.path.join(root, p) for p in ENGINES[name] if os.path.exists(os.path.join(root, p))]
        absent = [p for p in ENGINES[name] if not os.path.exists(os.path.join(root, p))]
        print("=== %s (%s)" % (name, root))
        for p in absent:
            print("  absent  %s" % p)
        n, summary = check(present) if present else (1, "none of its paths is in the checkout")
        total += n
        lines.append("%-12s %s%s" % (name, summary, " (absent: %s)" % ", ".join(absent) if absent else ""))
    print("=== engines")
    for line in lines:
        print(line)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
