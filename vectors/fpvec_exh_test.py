#!/usr/bin/env python3
"""fpvec_exh_test.py - the meson tests of `otpu-fpvec exhaustive` (vectors/meson.build).

    fpvec_exh_test.py range   TOOL WORK       a fixed 2^20-input range per function on the
                                              project's otpu_fp.sv: every input compared, 0
                                              mismatches, JSON and report agree; 3 shards
                                              merged == one run; overlapping results refused
    fpvec_exh_test.py planted TOOL SV WORK    a copy of SV with recip wrong at one input
                                              (PLANTED, class +normal e=0..7, 1 ulp): the
                                              report names exactly that function, class,
                                              distance and input; the mismatch file reproduces
                                              with `check` (passes: fp32.c's values) and
                                              `rtl --sv COPY FILE` (fails on its line); shards
                                              merged == one run, mismatch file included
    fpvec_exh_test.py cli     TOOL WORK       --help; bad input: exit 2, one error line

Exit status 0 when the tool behaved as required, 1 otherwise (the reason is printed).
"""
from __future__ import annotations

import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fpvec_test import (MISMATCH, Fail, dispatch, expect, fresh_dir, plant_bug,  # noqa: E402
                        run)

# the CI ranges: 2^20 inputs of each function where it has an edge
RANGES = {
    "exp2": (0x42F80000, 0x43080000),   # x about 124..136: the overflow edge at 128
    "recip": (0x7E780000, 0x7E880000),  # |x| about 2^126: the result leaves the normals
    "rsqrt": (0x3F780000, 0x3F880000),  # about 1: the exponent's parity changes
    "i2f": (0x00F80000, 0x01080000),    # about 2^24: rounding begins
    "q8": (0x42F80000, 0x43080000),     # about 127: saturation
    "abs": (0x7FF80000, 0x80080000),    # NaNs, -0, negative subnormals
    "log2": (0x3F780000, 0x3F880000),   # about 1: log2 changes sign
}
PLANTED = 0x3F800123  # recip's wrong input in the planted copy
PLANTED_RANGE = (0x3F780000, 0x3F880000)
PLANTED_FUNCS = ["exp2", "recip", "rsqrt", "log2"]
VERDICT = re.compile(r"^otpu-fpvec exhaustive(-merge)?: (\d+) inputs of (\d+) functions, (\d+) "
                     r"mismatches in .*: (PASS|FAIL.*)$", re.M)


def rng(lo: int, hi: int) -> str:
    return f"0x{lo:x}:0x{hi:x}"


def load(path: str) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def totals(res: dict) -> dict:
    """What must be equal between one run and a merge of shards."""
    return {"ranges": res["ranges"], "inputs": res["inputs"], "mismatches": res["mismatches"],
            "functions": [{k: f[k] for k in ("op", "name", "inputs", "skipped", "mismatches",
                                              "histogram", "first_mismatches")}
                          for f in res["functions"]]}


def exhaustive(tool: str, *args: str) -> tuple[int, str]:
    return run(tool, "exhaustive", "--progress", "0", *args)


def verdict(out: str) -> tuple[int, int, str]:
    m = VERDICT.findall(out)
    expect(len(m) == 1, "no single verdict line", out)
    return int(m[0][1]), int(m[0][3]), m[0][4]


def shards_equal_one(tool: str, work: str, one_json: str, args: list[str], n: int) -> dict:
    """Runs args in n shards, merges them; the merge equals the one run of one_json."""
    files = []
    for i in range(n):
        f = os.path.join(work, f"shard{i}.json")
        rc, out = exhaustive(tool, *args, "--shard", f"{i}/{n}", "--json", f)
        expect(rc in (0, 1), f"shard {i}/{n}: status {rc}", out)
        files.append(f)
    merged = os.path.join(work, "merged.json")
    rc, out = run(tool, "exhaustive-merge", "--json", merged, *reversed(files))
    one = load(one_json)
    expect(rc == (1 if one["mismatches"] else 0), f"merge: status {rc}", out)
    m = load(merged)
    expect(totals(m) == totals(one), f"{n} shards merged differ from one run:\n{totals(m)}\n"
           f"{totals(one)}", out)
    # the same shard twice is refused: its inputs would count twice
    rc, out = run(tool, "exhaustive-merge", "--json", os.path.join(work, "x.json"), files[0],
                  files[0])
    expect(rc == 2 and "shard 0 of" in out and "in another result too" in out,
           f"merge of a shard with itself: status {rc}", out)
    # a merge of part of the shards is no verdict on the whole: refused, the missing named
    rc, out = run(tool, "exhaustive-merge", "--json", os.path.join(work, "x.json"), *files[:-1])
    expect(rc == 2 and f"missing: {n - 1}" in out and f"of the {n} shards" in out,
           f"merge without shard {n - 1}: status {rc}", out)
    # foreign or tampered results: another split, counts that do not add up to the ranges
    for name, edit, phrase in (("other_split", lambda j: j.update(of=j["of"] + 1), "split in"),
                               ("short", lambda j: j["functions"][0].update(
                                   inputs=j["functions"][0]["inputs"] - 1), "but its ranges hold"),
                               ("no_shards", lambda j: j.pop("shards"), "shards missing or bad")):
        j = load(files[0])
        edit(j)
        bad = os.path.join(work, f"{name}.json")
        with open(bad, "w") as fh:
            json.dump(j, fh)
        rc, out = run(tool, "exhaustive-merge", "--json", os.path.join(work, "x.json"), bad,
                      *files[1:])
        expect(rc == 2 and phrase in out, f"merge with a {name} result: status {rc}", out)
    print(f"ok: {n} shards merged == one run ({m['inputs']} inputs, {m['mismatches']} "
          f"mismatches)")
    return m


def t_range(tool: str, work: str) -> None:
    work = fresh_dir(os.path.join(work, "fpvec-exh-range"))
    for func, (lo, hi) in RANGES.items():
        js = os.path.join(work, f"{func}.json")
        rc, out = exhaustive(tool, func, "--range", rng(lo, hi), "-j", "2", "--json", js)
        inputs, mism, v = verdict(out)
        expect(rc == 0 and inputs == hi - lo == 1 << 20 and mism == 0 and v == "PASS",
               f"{func}: status {rc}, {inputs} inputs, {mism} mismatches", out)
        res = load(js)
        f = res["functions"]
        expect(res["ranges"] == [[lo, hi]] and len(f) == 1 and f[0]["name"] == func and
               f[0]["inputs"] == hi - lo and f[0]["mismatches"] == 0 and not f[0]["histogram"],
               f"{func}: the JSON result {res}")
        expect(not os.path.exists(js.replace(".json", ".mismatches.vec")),
               f"{func}: a mismatch file without mismatches")
        print(f"ok: {func}: 0x{lo:08x}..0x{hi - 1:08x}, {inputs} inputs, 0 mismatches")
    # shards of one range, several functions
    lo, hi = RANGES["log2"]
    one = os.path.join(work, "one.json")
    args = ["rsqrt", "log2", "--range", rng(lo, hi), "-j", "2"]
    rc, out = exhaustive(tool, *args, "--json", one)
    expect(rc == 0, f"one run: status {rc}", out)
    shards_equal_one(tool, work, one, args, 3)


def mutate_recip(src: str, dst: str) -> None:
    """A copy of src whose fp_recip is one ulp off (lowest bit flipped) at input PLANTED."""
    plant_bug(src, dst, "fp_recip", f"x == 32'h{PLANTED:08x}", "fpvec_exh_test.py")


def t_planted(tool: str, sv: str, work: str) -> None:
    work = fresh_dir(os.path.join(work, "fpvec-exh-planted"))
    copy = os.path.join(work, "user", "otpu_fp.sv")
    os.makedirs(os.path.dirname(copy))
    mutate_recip(sv, copy)
    cache = os.path.join(work, "cache")
    js = os.path.join(work, "one.json")
    args = [*PLANTED_FUNCS, "--sv", copy, "--cache", cache, "--range", rng(*PLANTED_RANGE),
            "-j", "2"]
    rc, out = exhaustive(tool, *args, "--json", js)
    inputs, mism, v = verdict(out)
    expect(rc == 1 and mism == 1 and v == "FAIL (functions: recip)",
           f"planted copy: status {rc}, {mism} mismatches, verdict '{v}'", out)
    expect(inputs == len(PLANTED_FUNCS) * (PLANTED_RANGE[1] - PLANTED_RANGE[0]),
           f"{inputs} inputs compared", out)
    expect(copy in out, "the report does not name the copy", out)
    classes = re.findall(r"^  class (.+): (\d+) \(ulp (.+)\)$", out, re.M)
    expect(classes == [("+normal e=0..7", "1", "1: 1")], f"report's classes {classes}", out)
    mm = [(int(m.group(1)), m.group(2), int(m.group(6))) for m in MISMATCH.finditer(out)]
    expect(mm == [(6, f"{PLANTED:08x}", 1)], f"MISMATCH lines {mm}", out)
    res = load(js)
    for f in res["functions"]:
        if f["name"] != "recip":
            expect(f["mismatches"] == 0 and not f["histogram"], f"{f['name']} has mismatches")
            continue
        expect(f["mismatches"] == 1 and len(f["histogram"]) == 1,
               f"recip: {f['mismatches']} mismatches, histogram {f['histogram']}")
        h = f["histogram"][0]
        expect(h["class_name"] == "+normal e=0..7" and h["ulp"] == "1" and h["count"] == 1,
               f"recip's histogram cell {h}")
        expect([x["a"] for x in f["first_mismatches"]] == [f"{PLANTED:08x}"],
               f"recip's first mismatches {f['first_mismatches']}")
    vec = res["mismatch_file"]
    expect(vec == js.replace(".json", ".mismatches.vec") and os.path.exists(vec),
           f"mismatch file '{vec}'")
    with open(vec, encoding="ascii") as f:
        lines = f.read().splitlines()
    expect(len(lines) == 1 and lines[0].startswith(f"6 {PLANTED:08x} 00000000 "),
           f"mismatch file {lines}")
    # it reproduces: fp32.c gives its expected values, the copy fails on its line
    rc, out = run(tool, "check", vec)
    expect(rc == 0 and "FPTEST cases=1 errors=0" in out, f"check {vec}: status {rc}", out)
    rc, out = run(tool, "rtl", "--sv", copy, "--cache", cache, vec)
    mm = [(int(m.group(1)), m.group(2), int(m.group(6))) for m in MISMATCH.finditer(out)]
    expect(rc == 1 and mm == [(6, f"{PLANTED:08x}", 1)],
           f"rtl --sv COPY {vec}: status {rc}, MISMATCH lines {mm}", out)
    print(f"ok: the planted mismatch (recip of 0x{PLANTED:08x}) is named alone, its class "
          f"+normal e=0..7 and 1 ulp; {vec} reproduces it")
    m = shards_equal_one(tool, work, js, args, 4)
    with open(m["mismatch_file"], encoding="ascii") as f:
        expect(f.read().splitlines() == lines, "the merged mismatch file differs")


def t_cli(tool: str, work: str) -> None:
    for cmd in (["exhaustive"], ["exhaustive-merge"]):
        rc, out = run(tool, *cmd, "--help")
        expect(rc == 0 and "usage: otpu-fpvec exhaustive OP..." in out and "--shard I/N" in out,
               f"{cmd} --help: status {rc}", out)
    empty = os.path.join(work, "fpvec-exh-empty.json")
    open(empty, "w", encoding="ascii").close()
    bad = [
        (["exhaustive"], "no function given"),
        (["exhaustive", "sqrt"], "unknown function 'sqrt'"),
        (["exhaustive", "add"], "add is not a one-operand function"),
        (["exhaustive", "recip,mul"], "mul is not a one-operand function"),
        (["exhaustive", "recip", "--range", "12"], "'12' is not LO:HI"),
        (["exhaustive", "recip", "--range", "5:3"], "is empty"),
        (["exhaustive", "recip", "--range", "0:0x100000001"], "out of range"),
        (["exhaustive", "recip", "--range", "0:zz"], "'zz' is not a number"),
        (["exhaustive", "recip", "--shard", "3/3"], "I must be below N"),
        (["exhaustive", "recip", "--shard", "1/0"], "out of range"),
        (["exhaustive", "recip", "--shard", "1"], "'1' is not I/N"),
        (["exhaustive", "recip", "--range", "0:2", "--shard", "0/3"], "is empty"),
        (["exhaustive", "recip", "-j", "0"], "-j: 0 is out of range"),
        (["exhaustive", "log2", "--rev", "acf0c1c6"], "acf0c1c6's fp32 unit has no log2"),
        (["exhaustive", "recip", "--bogus"], "unknown option '--bogus'"),
        (["exhaustive-merge"], "no RESULT.json"),
        (["exhaustive-merge", empty], "not JSON"),
    ]
    for args, text in bad:
        rc, out = run(tool, *args)
        expect(rc == 2, f"{args}: status {rc}, expected 2", out)
        expect(text in out, f"{args}: the message lacks '{text}'", out)
        expect(len(out.splitlines()) == 1 and "error" in out, f"{args}: not a one-line error",
               out)
    print(f"ok: --help; {len(bad)} kinds of bad input give status 2 and one line")


def main(argv: list[str]) -> int:
    cmds = {"range": (t_range, 2), "planted": (t_planted, 3), "cli": (t_cli, 2)}
    return dispatch(cmds, argv, __doc__, (Fail, OSError, ValueError, KeyError))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
