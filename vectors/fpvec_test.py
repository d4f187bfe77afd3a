#!/usr/bin/env python3
"""fpvec_test.py - the meson tests of otpu-fpvec (vectors/meson.build, suite 'fpvec').

    fpvec_test.py ops_vec  TOOL OPSVEC               `check` runs sim/fp32.c over the golden
                                                     file: every line checked, 0 mismatches
    fpvec_test.py gencheck TOOL WORK                 gen -> check round trip (level 1), the
                                                     file's shape, determinism, a wrong file
                                                     fails naming its lines
    fpvec_test.py rtl_file TOOL WORK                 a generated level-1 file through the file
                                                     bench: 0 mismatches, a wrong copy fails
                                                     naming its lines
    fpvec_test.py dpi      TOOL WORK                 a level-1 DPI run: 0 mismatches, as many
                                                     vectors as `gen` writes
    fpvec_test.py sv_copy  TOOL SV OPSVEC WORK       `rtl --sv` with a copy of SV in a temporary
                                                     folder, fresh cache: two parallel runs
                                                     share one build, 0 mismatches in DPI and
                                                     file mode, the next run uses the cache
    fpvec_test.py sv_broken TOOL SV OPSVEC WORK      the same with fp_log2 broken in the copy:
                                                     non-zero exit, log2 (only) named
    fpvec_test.py ulp      TOOL                      `ulp`: every function within its bound
    fpvec_test.py rev      TOOL REVVEC REV OPSVEC WORK  ISA revision REV: `check --rev` passes
                                                     its golden file REVVEC, which the current
                                                     functions fail in the composites only;
                                                     OPSVEC's ops it lacks are refused; `gen
                                                     --rev` -> `check --rev` round trip
    fpvec_test.py cli      TOOL WORK                 --help of every command, bad input: exit
                                                     2 with a one-line error

Exit status 0 when the tool behaved as required, 1 otherwise (the reason is printed).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

FPTEST = re.compile(r"^FPTEST cases=(\d+) errors=(\d+)$", re.M)
MISMATCH = re.compile(
    r"^MISMATCH op=(\d+) a=([0-9a-f]{8}) b=([0-9a-f]{8}) exp=([0-9a-f]{8}) "
    r"got=([0-9a-f]{8}) line=(\d+)$", re.M)
OP_FAIL = re.compile(r"^\S+: op (\d+) \((\w+)\): (\d+) of (\d+) vectors mismatch$", re.M)
TABLE_ROW = re.compile(r"^\s*(\d+)\s+(\w+)\s+(\d+)\s+(\d+)(\s+FAIL)?$", re.M)
OPS = ["add", "sub", "mul", "max", "min", "exp2", "recip", "rsqrt", "i2f", "q8", "gt", "abs",
       "log2", "mm_max", "mm_min"]
LEVEL1 = 50000
BOUNDS = {"exp2": 1.61, "log2": 2.3, "recip": 1.16, "rsqrt": 1.03}


class Fail(Exception):
    pass


def run(*cmd: str, env: dict | None = None) -> tuple[int, str]:
    p = subprocess.run(list(cmd), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors="replace", check=False, env=env)
    return p.returncode, p.stdout


def expect(cond: bool, what: str, out: str = "") -> None:
    if not cond:
        tail = "\n".join(out.splitlines()[-25:])
        raise Fail(f"{what}" + (f"\n--- output (tail) ---\n{tail}" if out else ""))


def fptest(out: str) -> tuple[int, int]:
    m = FPTEST.findall(out)
    expect(len(m) == 1, f"expected one FPTEST line, found {len(m)}", out)
    print(f"FPTEST cases={m[0][0]} errors={m[0][1]}")
    return int(m[0][0]), int(m[0][1])


def failing_ops(out: str) -> set[str]:
    """The ops the report names as failing (per-op lines of tb_fp / otpu-fpvec)."""
    return {m.group(2) for m in OP_FAIL.finditer(out)}


def fresh_dir(path: str) -> str:
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def gen_level1(tool: str, work: str, seed: str) -> str:
    """the level-1 vectors of seed written by `gen` into the folder work (the file's path)"""
    path = os.path.join(work, "l1.vec")
    rc, out = run(tool, "gen", "--level", "1", "--seed", seed, "-o", path)
    expect(rc == 0, f"gen: exit status {rc}", out)
    return path


def count_lines(path: str) -> int:
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def flip_lines(src: str, dst: str, picks: list[int]) -> dict[int, tuple[int, str]]:
    """Copies src to dst with the expected value of the given (1-based) lines off by one bit."""
    with open(src, encoding="ascii") as f:
        lines = f.read().splitlines()
    flipped = {}
    for ln in picks:
        op, a, b, e = lines[ln - 1].split()
        new = f"{int(e, 16) ^ 1:08x}"
        flipped[ln] = (int(op, 16), new)
        lines[ln - 1] = f"{op} {a} {b} {new}"
    with open(dst, "w", encoding="ascii") as f:
        f.write("\n".join(lines) + "\n")
    return flipped


def expect_named(out: str, flipped: dict[int, tuple[int, str]]) -> None:
    seen = {int(m.group(6)): (int(m.group(1)), m.group(4)) for m in MISMATCH.finditer(out)}
    expect(set(seen) == set(flipped),
           f"MISMATCH lines name {sorted(seen)}, expected {sorted(flipped)}", out)
    for ln, (op, new) in flipped.items():
        expect(seen[ln] == (op, new), f"line {ln}: reported {seen[ln]}, expected {(op, new)}",
               out)


# ---- tests -------------------------------------------------------------------------------------

def t_ops_vec(tool: str, vec: str) -> None:
    n = count_lines(vec)
    rc, out = run(tool, "check", vec)
    cases, errs = fptest(out)
    expect(cases == n and n > 0, f"checked {cases} vectors, the file has {n} lines", out)
    expect(errs == 0 and rc == 0, f"{errs} mismatches, exit status {rc}", out)
    rows = {m.group(2): int(m.group(3)) for m in TABLE_ROW.finditer(out)}
    expect(set(rows) == set(OPS), f"the table lists {sorted(rows)}", out)
    print(f"ok: sim/fp32.c matches all {n} vectors of {vec}")


def t_gencheck(tool: str, work: str) -> None:
    work = fresh_dir(os.path.join(work, "fpvec-gencheck"))
    f1 = gen_level1(tool, work, "1")
    with open(f1, encoding="ascii") as f:
        lines = f.read().splitlines()
    expect(len(lines) == 15 * LEVEL1, f"gen wrote {len(lines)} lines, expected {15 * LEVEL1}")
    per_op = [0] * 15
    pat = re.compile(r"^[0-9a-e] [0-9a-f]{8} [0-9a-f]{8} [0-9a-f]{8}$")
    for ln in lines:
        expect(pat.match(ln) is not None, f"line '{ln}' is not in the golden file's format")
        per_op[int(ln[0], 16)] += 1
    expect(per_op == [LEVEL1] * 15, f"vectors per op: {per_op}")
    # unary ops have b = 0; the boundary pairs come first
    for ln in lines:
        op, _, b, _ = ln.split()
        if OPS[int(op, 16)] in ("exp2", "recip", "rsqrt", "i2f", "q8", "abs", "log2"):
            expect(b == "00000000", f"unary vector with b != 0: '{ln}'")
    expect(lines[0] == "0 00000000 00000000 00000000", f"first vector '{lines[0]}'")
    # the same seed gives the same file (stdout and -o agree), another seed another one
    rc, out2 = run(tool, "gen", "--level", "1", "--seed", "1", "--ops", "rsqrt,add")
    expect(rc == 0, f"gen to stdout: exit status {rc}", out2)
    sub = [ln for ln in lines if ln[0] in "07"]
    expect(out2.splitlines() == sub, "gen --ops rsqrt,add differs from those ops' lines")
    rc, out3 = run(tool, "gen", "--level", "1", "--seed", "2", "--ops", "add")
    expect(rc == 0 and out3.splitlines() != sub[:LEVEL1], "seed 2 gives the same add vectors")
    expect(out3.splitlines()[:1000] == sub[:1000], "the boundary pairs depend on the seed")
    # round trip: check finds every vector right
    rc, out = run(tool, "check", f1)
    cases, errs = fptest(out)
    expect(rc == 0 and cases == len(lines) and errs == 0,
           f"check: status {rc}, cases {cases}, errors {errs}", out)
    # a wrong file fails and names exactly its wrong lines
    bad = os.path.join(work, "l1_wrong.vec")
    flipped = flip_lines(f1, bad, [1, 300001, len(lines)])
    rc, out = run(tool, "check", bad)
    cases, errs = fptest(out)
    expect(rc == 1 and errs == 3, f"wrong file: status {rc}, {errs} errors (expected 1, 3)", out)
    expect_named(out, flipped)
    # a malformed line is named (status 2)
    mal = os.path.join(work, "l1_malformed.vec")
    with open(mal, "w", encoding="ascii") as f:
        f.write("\n".join(lines[:10] + ["2 3f800000 3f80000g 3f800000"] + lines[10:20]) + "\n")
    rc, out = run(tool, "check", mal)
    expect(rc == 2 and f"{mal}:11: malformed vector line" in out and not FPTEST.search(out),
           f"malformed file: status {rc}", out)
    print(f"ok: gen -> check round trip of {len(lines)} vectors; wrong and malformed files fail")


def t_rtl_file(tool: str, work: str) -> None:
    work = fresh_dir(os.path.join(work, "fpvec-rtl-file"))
    f1 = gen_level1(tool, work, "3")
    n = count_lines(f1)
    rc, out = run(tool, "rtl", f1)
    cases, errs = fptest(out)
    expect(rc == 0 and cases == n and errs == 0,
           f"rtl FILE: status {rc}, cases {cases} (file: {n}), errors {errs}", out)
    expect("file mode" in out and "vectors/s" in out, "no rate line", out)
    empty = os.path.join(work, "empty.vec")
    open(empty, "w", encoding="ascii").close()
    rc, out = run(tool, "rtl", empty)
    expect(rc == 2 and "no vectors" in out, f"empty file: status {rc}, expected 2", out)
    bad = os.path.join(work, "l1_wrong.vec")
    flipped = flip_lines(f1, bad, [2, n // 2, n])
    rc, out = run(tool, "rtl", bad)
    cases, errs = fptest(out)
    expect(rc == 1 and errs == 3, f"wrong file: status {rc}, {errs} errors (expected 1, 3)", out)
    expect_named(out, flipped)
    print(f"ok: the file bench agrees with sim/fp32.c on {n} generated vectors; a wrong file "
          f"fails with lines {sorted(flipped)} named")


def t_dpi(tool: str, work: str) -> None:
    rc, out = run(tool, "rtl")
    cases, errs = fptest(out)
    expect(rc == 0 and errs == 0, f"DPI level 1: status {rc}, {errs} mismatches", out)
    expect(cases == 15 * LEVEL1, f"DPI level 1 checked {cases} vectors, expected {15 * LEVEL1}",
           out)
    rows = {m.group(2): (int(m.group(3)), int(m.group(4))) for m in TABLE_ROW.finditer(out)}
    expect(rows == {op: (LEVEL1, 0) for op in OPS}, f"per-op table {rows}", out)
    m = re.search(r"^FPVEC rate: (\d+) vectors in ([0-9.]+) s, (\d+) vectors/s$", out, re.M)
    expect(m is not None, "no FPVEC rate line", out)
    print(m.group(0))
    # a subset with another seed and count: the counts follow the options
    rc, out = run(tool, "rtl", "--ops", "exp2,log2", "--seed", "9", "--count", "20000")
    cases, errs = fptest(out)
    expect(rc == 0 and cases == 40000 and errs == 0, f"subset: status {rc}, {cases} cases", out)
    print(f"ok: DPI level 1: {15 * LEVEL1} vectors, 0 mismatches")


def plant_bug(src: str, dst: str, fn: str, when: str, who: str) -> None:
    """A copy of src whose function fn returns its result with the lowest bit flipped when the
    SystemVerilog condition `when` (over its input x) holds; who names the test in a comment."""
    with open(src, encoding="utf-8") as f:
        text = f.read()
    decl = re.compile(r"(function\s+automatic\s+[^;()]*?)\b" + fn + r"(\s*\()")
    expect(len(decl.findall(text)) == 1, f"{src}: no single 'function automatic ... {fn}('")
    text = decl.sub(r"\1" + fn + r"_unbroken\2", text)
    text = re.sub(r"(endfunction\s*:\s*)" + fn + r"\b", r"\1" + fn + "_unbroken", text)
    end = text.rindex("endpackage")
    wrapper = (f"  // deliberately broken by {who}\n"
               f"  function automatic logic [31:0] {fn}(input logic [31:0] x);\n"
               "    logic [31:0] r;\n"
               f"    r = {fn}_unbroken(x);\n"
               f"    return ({when}) ? (r ^ 32'd1) : r;\n"
               "  endfunction\n\n")
    with open(dst, "w", encoding="utf-8") as f:
        f.write(text[:end] + wrapper + text[end:])


def mutate_log2(src: str, dst: str) -> None:
    """A copy of src whose fp_log2 is wrong (lowest result bit flipped) when a[2:0] == 5."""
    plant_bug(src, dst, "fp_log2", "x[2:0] == 3'd5", "fpvec_test.py")


def sv_runs(tool: str, sv: str, vec: str, cache: str) -> tuple[tuple[int, str], tuple[int, str]]:
    """A DPI run and a file run of `rtl --sv sv`, started together on an empty cache."""
    procs = [subprocess.Popen([tool, "rtl", "--sv", sv, "--cache", cache, *extra],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              errors="replace")
             for extra in ([], [vec])]
    outs = [p.communicate()[0] for p in procs]
    res = ((procs[0].returncode, outs[0]), (procs[1].returncode, outs[1]))
    both = outs[0] + outs[1]
    builds = both.count("building the bench for")
    expect(builds == 1, f"{builds} builds by two parallel runs on one cache (expected 1)", both)
    expect(both.count("cached bench for") == 1, "the second run did not use the first's build",
           both)
    return res


def t_sv_copy(tool: str, sv: str, vec: str, work: str) -> None:
    work = fresh_dir(os.path.join(work, "fpvec-sv-copy"))
    copy = os.path.join(work, "user", "otpu_fp.sv")
    os.makedirs(os.path.dirname(copy))
    shutil.copyfile(sv, copy)
    cache = os.path.join(work, "cache")
    (rc1, out1), (rc2, out2) = sv_runs(tool, copy, vec, cache)
    c1, e1 = fptest(out1)
    expect(rc1 == 0 and e1 == 0 and c1 == 15 * LEVEL1, f"DPI: status {rc1}", out1)
    c2, e2 = fptest(out2)
    n = count_lines(vec)
    expect(rc2 == 0 and e2 == 0 and c2 == n, f"file: status {rc2}, {c2} of {n} vectors", out2)
    expect(copy in out1 and copy in out2, "the report does not name the user's file", out1)
    rc, out = run(tool, "rtl", "--sv", copy, "--cache", cache, "--ops", "add", "--count", "10")
    expect(rc == 0 and "cached bench for" in out and "building" not in out,
           "a third run did not use the cache", out)
    print(f"ok: rtl --sv {copy}: 0 mismatches (DPI {c1}, file {c2} vectors), one shared build")


def t_sv_broken(tool: str, sv: str, vec: str, work: str) -> None:
    work = fresh_dir(os.path.join(work, "fpvec-sv-broken"))
    broken = os.path.join(work, "user", "otpu_fp.sv")
    os.makedirs(os.path.dirname(broken))
    mutate_log2(sv, broken)
    cache = os.path.join(work, "cache")
    (rc1, out1), (rc2, out2) = sv_runs(tool, broken, vec, cache)
    for mode, rc, out in (("DPI", rc1, out1), ("file", rc2, out2)):
        cases, errs = fptest(out)
        expect(rc == 1 and errs > 0, f"{mode}: status {rc}, {errs} mismatches (expected 1, >0)",
               out)
        named = failing_ops(out)
        expect(named == {"log2"}, f"{mode}: the report names {sorted(named)}, expected log2",
               out)
        ops = {int(m.group(1)) for m in MISMATCH.finditer(out)}
        expect(ops == {12}, f"{mode}: MISMATCH lines for ops {sorted(ops)}", out)
        expect(re.search(r"^otpu-fpvec rtl: .*: FAIL \(ops: log2\)$", out, re.M) is not None,
               f"{mode}: the verdict line does not name log2", out)
        print("\n".join(ln for ln in out.splitlines()
                        if OP_FAIL.match(ln) or ln.startswith("otpu-fpvec rtl:")))
        print(f"ok: {mode} mode: status 1, {errs} of {cases} vectors mismatch, all log2")
    rows = {m.group(2): int(m.group(4)) for m in TABLE_ROW.finditer(out1)}
    expect(rows["log2"] > 0 and all(v == 0 for k, v in rows.items() if k != "log2"),
           f"DPI table {rows}", out1)


def t_ulp(tool: str) -> None:
    rc, out = run(tool, "ulp")
    print(out, end="")
    got = {}
    for m in re.finditer(r"^ULP func=(\w+) max=([0-9.]+) bound=([0-9.]+) measured=(\d+) "
                         r"skipped=(\d+) correctly_rounded=([0-9.]+) (ok|FAIL)$", out, re.M):
        got[m.group(1)] = (float(m.group(2)), int(m.group(4)), m.group(7))
    expect(set(got) == set(BOUNDS), f"ULP lines for {sorted(got)}", out)
    for f, bound in BOUNDS.items():
        mx, measured, verdict = got[f]
        expect(measured >= 25165824, f"{f}: only {measured} inputs measured", out)
        expect(0 < mx <= bound and verdict == "ok", f"{f}: max {mx} ulp, bound {bound}", out)
    expect(rc == 0, f"ulp: exit status {rc}", out)
    print("ok: every composite function within the reference's bound")


COMPOSITES = {"exp2", "recip", "rsqrt", "log2"}


def table(out: str) -> dict[str, tuple[int, int]]:
    """The per-op table: op name -> (vectors, mismatches)."""
    return {m.group(2): (int(m.group(3)), int(m.group(4))) for m in TABLE_ROW.finditer(out)}


def t_rev(tool: str, revvec: str, rev: str, opsvec: str, work: str) -> None:
    n = count_lines(revvec)
    rc, out = run(tool, "check", "--rev", rev, revvec)
    cases, errs = fptest(out)
    expect(rc == 0 and cases == n > 0 and errs == 0,
           f"check --rev {rev}: status {rc}, {cases} of {n} vectors, {errs} mismatches", out)
    rev_ops = set(table(out))
    # the current revision's functions fail the file, in composite functions only
    rc, out = run(tool, "check", revvec)
    fptest(out)
    bad = {op for op, (_, e) in table(out).items() if e}
    expect(rc == 1 and bad and bad <= COMPOSITES,
           f"the current functions on {rev}'s vectors: status {rc}, failing ops {sorted(bad)}",
           out)
    # an op of the current golden file the revision lacks is a bad line, named
    lacking = [op for op in OPS if op not in rev_ops]
    with open(opsvec, encoding="ascii") as f:
        first = next((i for i, ln in enumerate(f, 1) if OPS[int(ln.split()[0], 16)] in lacking),
                     None)
    if first is not None:
        rc, out = run(tool, "check", "--rev", rev, opsvec)
        expect(rc == 2 and f"{opsvec}:{first}: op" in out and not FPTEST.search(out),
               f"check --rev {rev} of a file with ops it lacks: status {rc}", out)
    # gen --rev: only the revision's ops, no NaN operand where the golden file has none
    work = fresh_dir(os.path.join(work, f"fpvec-rev-{rev}"))
    gen = os.path.join(work, "l1.vec")
    rc, out = run(tool, "gen", "--level", "1", "--rev", rev, "-o", gen)
    expect(rc == 0, f"gen --rev {rev}: status {rc}", out)
    with open(gen, encoding="ascii") as f:
        lines = [ln.split() for ln in f]
    per_op = {op: 0 for op in rev_ops}
    for op, a, b, _ in lines:
        name = OPS[int(op, 16)]
        expect(name in per_op, f"gen --rev {rev} wrote a {name} vector")
        per_op[name] += 1
        nan = [x for x in (() if name == "i2f" else (a, b))  # (i2f's a is an int32)
               if (int(x, 16) & 0x7F800000) == 0x7F800000 and int(x, 16) & 0x7FFFFF]
        expect(not nan, f"gen --rev {rev}: a NaN operand in {op} {a} {b}")
    expect(all(v == LEVEL1 for v in per_op.values()), f"gen --rev {rev}: vectors per op {per_op}")
    rc, out = run(tool, "check", "--rev", rev, gen)
    cases, errs = fptest(out)
    expect(rc == 0 and cases == len(lines) and errs == 0,
           f"gen -> check --rev {rev}: status {rc}, {errs} mismatches", out)
    rc, out = run(tool, "gen", "--rev", rev, "--ops", lacking[0]) if lacking else (2, "")
    expect(rc == 2, f"gen --rev {rev} --ops {lacking[:1]}: status {rc}", out)
    print(f"ok: revision {rev}: {n} golden vectors match, the current functions fail "
          f"{sorted(bad)}; {len(lines)} generated vectors round-trip")


def t_cli(tool: str, work: str) -> None:
    for cmd in ([], ["gen"], ["check"], ["rtl"], ["ulp"]):
        rc, out = run(tool, *cmd, "--help")
        expect(rc == 0 and "usage: otpu-fpvec" in out, f"{cmd} --help: status {rc}", out)
    rc, out = run(tool, "help", "rtl")
    expect(rc == 0 and "--sv PATH" in out, f"help rtl: status {rc}", out)
    missing = os.path.join(work, "fpvec-no-such-file.vec")
    empty = os.path.join(work, "fpvec-empty.vec")
    open(empty, "w", encoding="ascii").close()
    bad = [
        ([], "a command is needed"), (["frobnicate"], "unknown command"),
        (["gen", "--level", "3"], "--level: 3 is out of range"),
        (["gen", "--seed", "x"], "--seed: 'x' is not a number"),
        (["gen", "--ops", "add,sqrt"], "unknown op 'sqrt'"),
        (["gen", "--bogus"], "unknown argument '--bogus'"),
        (["check"], "no vector FILE"), (["check", missing], "cannot open"),
        (["check", empty], "holds no vectors"),
        (["rtl", missing], "cannot open"), (["rtl", "--sv", missing], "cannot read"),
        (["rtl", "--level", "2", empty], "not with a FILE"),
        (["ulp", "--functions", "sin"], "unknown function 'sin'"),
        (["check", "--rev", "v0", empty], "--rev: 'v0' is not an ISA revision"),
        (["ulp", "--rev", "acf0c1c6", "--functions", "log2"], "acf0c1c6 has no log2"),
    ]
    for args, text in bad:
        rc, out = run(tool, *args)
        expect(rc == 2, f"{args}: status {rc}, expected 2", out)
        expect(text in out, f"{args}: the message lacks '{text}'", out)
        errs = [ln for ln in out.splitlines() if "error" in ln]
        expect(len(errs) == 1, f"{args}: not a one-line error", out)
    print(f"ok: --help of every command; {len(bad)} kinds of bad input give status 2")


def dispatch(cmds: dict, argv: list[str], doc: str,
             errors: tuple = (Fail, OSError, ValueError)) -> int:
    """Runs the test argv[1] names (cmds: name -> (function, its argument count)): 0 it
    passed, 1 it failed (the reason printed), 2 a usage error (doc printed)."""
    if len(argv) < 2 or argv[1] not in cmds or len(argv) - 2 != cmds[argv[1]][1]:
        print(doc, file=sys.stderr)
        return 2
    fn, _ = cmds[argv[1]]
    try:
        fn(*argv[2:])
    except errors as e:
        print(f"FAIL: {e}")
        return 1
    return 0


def main(argv: list[str]) -> int:
    cmds = {"ops_vec": (t_ops_vec, 2), "gencheck": (t_gencheck, 2), "rtl_file": (t_rtl_file, 2),
            "dpi": (t_dpi, 2), "sv_copy": (t_sv_copy, 4), "sv_broken": (t_sv_broken, 4),
            "ulp": (t_ulp, 1), "cli": (t_cli, 2), "rev": (t_rev, 5)}
    return dispatch(cmds, argv, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
