#!/usr/bin/env python3
"""The shared libraries need what they should and nothing more (their ELF NEEDED entries, as
readelf -d lists them): libotpusim is the model, so only libc and libm (and the loader), and the
libraries beside it only their own dependencies. Each argument is LIB=ALLOWED,ALLOWED,... where
an allowed entry is a NEEDED name's prefix up to '.so' (libc, libm, libnettle, libotpusim ...).

--runtime=A,B,... allows A, B ... in every library as well: the sanitizer runtimes (libasan,
libubsan) a -Db_sanitize build links into each.

usage: test_lib_deps.py [--runtime=ALLOWED,...] LIB=ALLOWED[,ALLOWED...] ..."""
import os
import re
import subprocess
import sys

LOADER = re.compile(r"^ld-linux.*\.so")


def needed(path):
    """the NEEDED names of an ELF file ([] if readelf cannot read it)"""
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True)
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out.stdout)


def main():
    bad = 0
    args = sys.argv[1:]
    runtime = set()
    if args and args[0].startswith("--runtime="):
        runtime = {r for r in args.pop(0)[len("--runtime="):].split(",") if r}
    for arg in args:
        path, _, allowed = arg.partition("=")
        allowed = (set(allowed.split(",")) if allowed else set()) | runtime
        names = needed(path)
        extra = [n for n in names if n.split(".so")[0] not in allowed and not LOADER.match(n)]
        lib = os.path.basename(path)
        if not names:
            print(f"FAIL {lib}: no NEEDED entries read (not a shared library?)")
            bad += 1
        elif extra:
            print(f"FAIL {lib} needs {', '.join(extra)} (allowed: {', '.join(sorted(allowed))})")
            bad += 1
        else:
            print(f"ok {lib}: {', '.join(names)}")
    return 1 if bad or not args else 0


if __name__ == "__main__":
    sys.exit(main())
