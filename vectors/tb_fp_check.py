#!/usr/bin/env python3
"""tb_fp_check.py - the meson tests of the tb_fp vector bench (vectors/meson.build).

    tb_fp_check.py full      BENCH VECFILE          every line of VECFILE checked, 0 mismatches
    tb_fp_check.py wrong     BENCH VECFILE WORKDIR  a copy with 3 expected values flipped fails,
                                                    naming exactly those 3 lines
    tb_fp_check.py malformed BENCH VECFILE WORKDIR  malformed lines, an empty file, a missing
                                                    file and a missing +vec all fail (status 2)
                                                    and name the line
    tb_fp_check.py hostref   BENCH ROUNDS           the host-FPU self-check passes

Exit status 0 when the bench behaved as required, 1 otherwise (the reason is printed).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys

from fpvec_test import dispatch  # (the one way the tests of this folder run their argv)

FPTEST = re.compile(r"^FPTEST cases=(\d+) errors=(\d+)$", re.M)
MISMATCH = re.compile(
    r"^MISMATCH op=(\d+) a=([0-9a-f]{8}) b=([0-9a-f]{8}) exp=([0-9a-f]{8}) "
    r"got=([0-9a-f]{8}) line=(\d+)$", re.M)


class Fail(Exception):
    pass


def run(bench: str, *args: str) -> tuple[int, str]:
    p = subprocess.run([bench, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors="replace", check=False)
    return p.returncode, p.stdout


def expect(cond: bool, what: str, out: str = "") -> None:
    if not cond:
        tail = "\n".join(out.splitlines()[-15:])
        raise Fail(f"{what}" + (f"\n--- bench output (tail) ---\n{tail}" if out else ""))


def read_lines(path: str) -> list[str]:
    with open(path, encoding="ascii") as f:
        return f.read().splitlines()


def check_full(bench: str, vec: str) -> None:
    n = len(read_lines(vec))
    expect(n > 0, f"{vec} is empty")
    rc, out = run(bench, f"+vec={vec}")
    m = FPTEST.search(out)
    expect(m is not None, "no FPTEST line", out)
    cases, errs = int(m.group(1)), int(m.group(2))
    print(m.group(0))
    expect(cases == n, f"the bench checked {cases} vectors, the file has {n} lines", out)
    expect(errs == 0 and not MISMATCH.search(out), f"{errs} mismatches", out)
    expect(rc == 0, f"exit status {rc}, expected 0", out)
    print(f"ok: all {n} vectors of {vec} match")


def check_wrong(bench: str, vec: str, work: str) -> None:
    lines = read_lines(vec)
    n = len(lines)
    expect(n >= 8, f"{vec} has too few lines")
    # three lines spread over the file, the last one the file's last line
    picks = sorted({n // 3 + 1, (7 * n) // 8 + 1, n})
    flipped = {}
    for ln in picks:
        f = lines[ln - 1].split()
        expect(len(f) == 4, f"{vec}:{ln} is not a 4-field line")
        new = f"{int(f[3], 16) ^ 0x1:08x}"           # lowest bit of the expected value
        flipped[ln] = (int(f[0], 16), f[3].lower(), new)
        lines[ln - 1] = " ".join(f[:3] + [new])
    path = os.path.join(work, "tb_fp_wrong.vec")
    with open(path, "w", encoding="ascii") as fo:
        fo.write("\n".join(lines) + "\n")
    rc, out = run(bench, f"+vec={path}")
    expect(rc == 1, f"exit status {rc}, expected 1 (mismatches)", out)
    m = FPTEST.search(out)
    expect(m is not None, "no FPTEST line", out)
    expect(int(m.group(1)) == n and int(m.group(2)) == len(picks),
           f"expected FPTEST cases={n} errors={len(picks)}, got '{m.group(0)}'", out)
    seen = {}
    for mm in MISMATCH.finditer(out):
        seen[int(mm.group(6))] = (int(mm.group(1)), mm.group(5), mm.group(4))
    for ln, (op, orig, new) in flipped.items():
        expect(ln in seen, f"no MISMATCH line names line {ln}", out)
        op_got, got, exp = seen[ln]
        expect(op_got == op and exp == new and got == orig,
               f"line {ln}: expected op={op} exp={new} got={orig}, the bench said "
               f"op={op_got} exp={exp} got={got}", out)
    expect(set(seen) == set(flipped), f"MISMATCH lines name {sorted(seen)}, "
           f"expected {sorted(flipped)}", out)
    print(f"ok: the bench failed on {path} and named lines {picks}")


def check_malformed(bench: str, vec: str, work: str) -> None:
    good = read_lines(vec)[:100]
    expect(len(good) == 100, f"{vec} has fewer than 100 lines")
    bad_at = 51
    variants = {
        "nonhex": "2 3f800000 3f80000g 3f800000",
        "fields3": "2 3f800000 3f800000",
        "fields5": "2 3f800000 3f800000 3f800000 0",
        "digits9": "2 3f800000 13f800000 3f800000",
        "badop": "f 3f800000 3f800000 3f800000",
        "empty": "",
        "words": "op a b expected",
    }
    for name, text in variants.items():
        lines = good[:bad_at - 1] + [text] + good[bad_at - 1:]
        path = os.path.join(work, f"tb_fp_malformed_{name}.vec")
        with open(path, "w", encoding="ascii") as fo:
            fo.write("\n".join(lines) + "\n")
        rc, out = run(bench, f"+vec={path}")
        expect(rc == 2, f"{name}: exit status {rc}, expected 2", out)
        expect(f"{path}:{bad_at}: malformed" in out, f"{name}: line {bad_at} not named", out)
        expect(not FPTEST.search(out), f"{name}: an FPTEST line after a malformed line", out)
        expect(not MISMATCH.search(out), f"{name}: MISMATCH lines for good vectors", out)
        print(f"ok: {name}: status 2, line {bad_at} named")
    empty = os.path.join(work, "tb_fp_empty.vec")
    open(empty, "w", encoding="ascii").close()
    rc, out = run(bench, f"+vec={empty}")
    expect(rc == 2 and "no vectors" in out, f"empty file: status {rc}, expected 2", out)
    print("ok: an empty file fails (status 2)")
    missing = os.path.join(work, "tb_fp_no_such_file.vec")
    if os.path.exists(missing):
        os.remove(missing)
    rc, out = run(bench, f"+vec={missing}")
    expect(rc == 2 and "cannot open" in out, f"missing file: status {rc}, expected 2", out)
    print("ok: a missing file fails (status 2)")
    rc, out = run(bench)
    expect(rc == 2 and "+vec" in out, f"no +vec: status {rc}, expected 2", out)
    print("ok: no +vec fails (status 2)")


def check_hostref(bench: str, rounds: str) -> None:
    rc, out = run(bench, f"+hostref={rounds}")
    m = re.search(r"^HOSTREF cases=(\d+) errors=(\d+)$", out, re.M)
    expect(m is not None, "no HOSTREF line", out)
    print(m.group(0))
    expect(int(m.group(1)) > int(rounds) and int(m.group(2)) == 0 and rc == 0,
           f"host self-check failed (status {rc})", out)
    print("ok: the host-FPU self-check passes")


def main(argv: list[str]) -> int:
    cmds = {"full": (check_full, 2), "wrong": (check_wrong, 3),
            "malformed": (check_malformed, 3), "hostref": (check_hostref, 2)}
    return dispatch(cmds, argv, __doc__, (Fail, OSError, ValueError))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
