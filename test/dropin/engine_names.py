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
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC_EXT = (".c", ".cc", ".cpp", ".cxx", ".h", ".hpp", ".inc", ".S")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]((?:[^">]*/)?kai[^">]*\.h)[">]', re.M)
IDENT = re.compile(r"\bkai_[A-Za-z0-9_]+")


def sources(paths):
    for p in paths:
        if os.path.isdir(p):
            for d, _, files in os.walk(p):
                for f in sorted(files):
                    if f.endswith(SRC_EXT):
                        yield os.path.join(d, f)
        else:
            yield p


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


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    kai_names, kai_headers = kai_index()
    used_headers, used_names, own = {}, {}, set()
    for path in sources(sys.argv[1:]):
        with open(path, errors="replace") as fh:
            text = fh.read()
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
    print("summary: %d headers (%d missing), %d identifiers: %d in kai, %d missing, %d engine's own"
          % (len(used_headers), missing, len(used_names), n_ok, n_missing, n_own))
    return 1 if missing or n_missing else 0


if __name__ == "__main__":
    sys.exit(main())
