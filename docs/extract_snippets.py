#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the code blocks of a Markdown file that start with "// snippet: <file>" to <outdir>/<file>.

Usage: extract_snippets.py DOC.md OUTDIR [FILE...]   (with FILEs: fail unless exactly those exist)
"""
import os
import re
import sys


def main():
    doc, outdir, expected = sys.argv[1], sys.argv[2], sys.argv[3:]
    text = open(doc).read()
    found = []
    for block in re.findall(r"```[a-z+]*\n(.*?)```", text, re.S):
        m = re.match(r"// snippet: (\S+)\n", block)
        if m:
            found.append(m.group(1))
            with open(os.path.join(outdir, m.group(1)), "w") as f:
                f.write(block)
    if expected and sorted(found) != sorted(expected):
        sys.exit("extract_snippets: %s has snippets %s, expected %s" % (doc, found, expected))
    return 0


if __name__ == "__main__":
    sys.exit(main())
