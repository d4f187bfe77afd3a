#!/usr/bin/env python3
"""docs/exit-status.md, tool by tool: each status a tool documents is what it returns in a case
that calls for it, and its --help says so. One row per (tool, status): the command, the status,
and a word of its output.

usage: test_exit_status.py BUILD_DIR VECTORS_DIR"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_rtl_util as U  # noqa: E402


def main():
    build, vectors = sys.argv[1], sys.argv[2]
    tool = {name: os.path.join(build, sub, name) for sub, name in (
        ("sim", "otpu-sim"), ("sim", "otpu-cov"), ("gen", "otpu-gen"), ("shrink", "otpu-shrink"),
        ("vectors", "otpu-fpvec"), ("rtl_bridge", "otpu-rtl"),
        ("rtl_bridge", "otpu-lockstep"), ("regress", "otpu-regress"))}
    isa = os.path.join(vectors, "isa")
    ok, err_bundle = os.path.join(isa, "ld_st"), os.path.join(isa, "err_dram_range")
    tmp = tempfile.mkdtemp(prefix="otpu-exit-")
    missing = os.path.join(tmp, "missing")
    expects_error = os.path.join(tmp, "expects_error")
    shutil.copytree(ok, expects_error)
    with open(os.path.join(expects_error, "case.txt")) as f:
        case = f.read().replace("expect=ok", "expect=error")
    with open(os.path.join(expects_error, "case.txt"), "w") as f:
        f.write(case)
    cov = os.path.join(tmp, "cov.json")
    subprocess.run([tool["otpu-sim"], "run", ok, "--coverage", cov], capture_output=True)
    vec_ok, vec_bad = os.path.join(tmp, "ok.vec"), os.path.join(tmp, "bad.vec")
    with open(vec_ok, "w") as f:
        f.write("0 3f800000 3f800000 40000000\n")        # 1 + 1 = 2
    with open(vec_bad, "w") as f:
        f.write("0 3f800000 3f800000 40400000\n")        # 1 + 1 = 3: a mismatch
    gen_out = os.path.join(tmp, "gen")
    os.mkdir(gen_out)
    fault = ["+otpu_flip_unit=0", "+otpu_flip_n=1", "+otpu_flip_bit=0"]
    rows = [
        ("otpu-sim", ["run", ok], 0, "halted"),
        ("otpu-sim", ["run", err_bundle], 1, "bad DRAM word address"),
        ("otpu-sim", ["run", missing], 2, "not a bundle folder"),
        ("otpu-cov", ["report", cov], 0, "overall"),
        ("otpu-cov", ["report", missing], 2, "missing"),
        ("otpu-gen", ["dma", "--seed", "1", "--count", "1", "--out", gen_out], 0, ""),
        ("otpu-gen", ["dma", "--seed", "010", "--count", "1", "--out", gen_out], 2, "--seed"),
        ("otpu-gen", ["stream", "--seed", "1", "--count", "1", "--out", gen_out, "DSTEP=0",
                      "STREAM=0"], 2, "family stream"),
        ("otpu-shrink", [ok, "--cmd", "true {}"], 1, "does not fail"),
        ("otpu-shrink", [ok, "--cmd", "exit 3; {}", "--max-tries", "1", "--out",
                         os.path.join(tmp, "shrunk")], 0, ""),
        ("otpu-shrink", [missing], 2, "missing"),
        ("otpu-fpvec", ["check", vec_ok], 0, ""),
        ("otpu-fpvec", ["check", vec_bad], 1, ""),
        ("otpu-fpvec", ["check", missing], 2, "missing"),
        ("otpu-rtl", ["run", ok], 0, "halted=1"),
        ("otpu-rtl", ["run", err_bundle], 1, "error=1"),
        ("otpu-rtl", ["run", missing], 2, "missing"),
        ("otpu-rtl", ["run", os.path.join(isa, "kernel_mlp_S1"), "--max-cycles", "5"], 3,
         "timeout"),
        ("otpu-lockstep", ["run", ok, "--wave-window", "0"], 0, "lockstep: PASS"),
        ("otpu-lockstep", ["run", ok, "--wave-window", "0", *fault], 1, "DIVERGENCE"),
        ("otpu-lockstep", ["run", missing], 2, "not a bundle folder"),
        ("otpu-lockstep", ["run", os.path.join(isa, "kernel_mlp_S1"), "--max-cycles", "5",
                           "--wave-window", "0"], 3, "hang"),
        ("otpu-lockstep", ["run", expects_error, "--wave-window", "0"], 6, "UNEXPECTED OUTCOME"),
        ("otpu-lockstep", ["run", expects_error, "--no-check"], 6, "UNCHECKED"),
        ("otpu-regress", ["run", ok, "--out", os.path.join(tmp, "r0"), "--db", "none", "-j", "1",
                          "--no-coverage"], 0, "1 passed"),
        ("otpu-regress", ["run", expects_error, "--out", os.path.join(tmp, "r1"), "--db", "none",
                          "-j", "1", "--no-coverage"], 1, "failed"),
        ("otpu-regress", ["run", missing, "--out", os.path.join(tmp, "r2"), "--db", "none"], 2,
         "missing"),
    ]
    for name, args, want, word in rows:
        p = subprocess.run([tool[name], *args], capture_output=True, text=True, timeout=900,
                           env=dict(os.environ, OTPU_RTL_JOBS="2"))
        out = p.stdout + p.stderr
        U.check(f"{name} {' '.join(os.path.basename(a) for a in args[:2])}: exit {want}",
                p.returncode == want and word in out, f"exit {p.returncode}\n{out[-1500:]}")
    # a name with an escape sequence (a terminal's clear screen): exit 2, shown escaped
    esc = os.path.join(tmp, "x\x1b[2J\x07")
    for name, args in (("otpu-sim", ["run", esc]), ("otpu-sim", ["disasm", esc]),
                       ("otpu-cov", ["report", esc]), ("otpu-cov", ["merge", esc, "-o", esc]),
                       ("otpu-gen", ["mix", "--seed", "1", "--count", "1", "--out", esc + "/a"]),
                       ("otpu-shrink", [esc]), ("otpu-fpvec", ["check", esc]),
                       ("otpu-fpvec", ["exhaustive-merge", esc]), ("otpu-rtl", ["run", esc]),
                       ("otpu-rtl", ["path", "--bundle", esc]), ("otpu-lockstep", ["run", esc]),
                       ("otpu-lockstep", ["report", esc]),
                       ("otpu-regress", ["run", esc, "--db", "none", "--out", esc + "o"])):
        p = subprocess.run([tool[name], *args], capture_output=True, timeout=300)
        raw = any(b < 0x20 and b != 0x0a for b in p.stdout + p.stderr)
        U.check(f"{name} {args[0]} of a name with an escape sequence: exit 2, shown escaped",
                p.returncode == 2 and not raw and b"\\x1b" in p.stderr,
                f"exit {p.returncode}: {p.stderr[-600:]!r}")
    for name, path in tool.items():
        p = subprocess.run([path, "--help"], capture_output=True, text=True, timeout=60)
        U.check(f"{name} --help states its exit statuses",
                p.returncode == 0 and "xit status" in p.stdout + p.stderr, p.stdout[-500:])
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if U.FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
