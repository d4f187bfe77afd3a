#!/usr/bin/env python3
"""docs/exit-status.md, tool by tool: each status a tool documents is what it returns in a case
that calls for it, and its --help says so. One row per (tool, status): the command, the status,
and a word of its output.

usage: test_exit_status.py BUILD_DIR VECTORS_DIR"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_rtl_util as U  # noqa: E402


# What input can hold that a terminal or a page must never get raw: an escape sequence (a
# clear screen), BEL, CR, a backspace, a byte of no UTF-8 sequence, and markup.
NASTY = "\x1b[2J\x07\r\x08\udcff<b>&x"


def raw_bytes(data):
    """the bytes a person must not get: below 0x20 but the newline, and DEL"""
    return [b for b in data if (b < 0x20 and b != 0x0A) or b == 0x7F]


def fs(path):
    return os.fsencode(path)


def echoes(tool, tmp, isa, fault):
    """Input echoed into messages, reports and files for people is escaped, whatever it holds
    (docs/exit-status.md, "Text for a person"): a table of (what, tool, arguments, exit status,
    files for people it writes), every stream and file then checked for raw control bytes and
    for valid UTF-8; HTML escaped as HTML; the repro a shell command that gives back the same
    bytes."""
    d = os.path.join(tmp, "echo")
    os.mkdir(d)
    b = os.path.join(d, "b" + NASTY)           # a bundle folder's name
    shutil.copytree(os.path.join(isa, "ld_st"), b)
    r = os.path.join(d, "r" + NASTY)           # a report folder's
    plus = "+note=" + NASTY                    # a plusarg the RTL ignores
    vec = os.path.join(d, "v" + NASTY)
    with open(vec, "w") as f:
        f.write("0 3f800000 3f800000 40000000\n")
    res = os.path.join(d, "res.json")          # an exhaustive result whose "sv" is input
    subprocess.run([tool["otpu-fpvec"], "exhaustive", "exp2", "--range", "0:16", "-j", "1",
                    "--progress", "0", "--json", res], capture_output=True, timeout=300)
    with open(res) as f:
        j = json.load(f)
    j["sv"] = "/x" + NASTY.replace("\udcff", "\u00ff")
    with open(res, "w") as f:
        json.dump(j, f)
    hand = os.path.join(d, "hand")             # a stored report, edited by hand
    rows = [
        ("a lockstep run of a bundle, report folder and plusarg with control bytes",
         "otpu-lockstep", ["run", b, "--report", r, "--report-html", "--wave-window", "0", plus,
                           *fault], 1, [os.path.join(r, "divergence.txt"),
                                        os.path.join(r, "divergence.html")]),
        ("the stored report printed again", "otpu-lockstep", ["report", r, "--html"], 0,
         [os.path.join(r, "divergence.html")]),
        ("a hand-edited report's strings", "otpu-lockstep", ["report", hand, "--html"], 0,
         [os.path.join(hand, "divergence.html")]),
        ("otpu-rtl run", "otpu-rtl", ["run", b, plus, "--dump", os.path.join(d, "d" + NASTY)], 0,
         []),
        ("otpu-sim run", "otpu-sim", ["run", b, "--trace", os.path.join(d, "t" + NASTY)], 0, []),
        ("otpu-sim check's line", "otpu-sim", ["check", b], 0, []),
        ("otpu-shrink: the bundle, --cmd and --out", "otpu-shrink",
         [b, "--cmd", "exit 3; {} #" + NASTY, "--max-tries", "1", "--out",
          os.path.join(d, "s" + NASTY)], 0, [os.path.join(d, "s" + NASTY, "shrink.txt")]),
        ("otpu-fpvec check's file name", "otpu-fpvec", ["check", vec], 0, []),
        ("otpu-fpvec exhaustive-merge: a result's sv, --json", "otpu-fpvec",
         ["exhaustive-merge", res, "--json", os.path.join(d, "j" + NASTY)], 0, []),
        ("otpu-bench: a bundle's name in its table", "otpu-bench", ["--repeat", "1", b], 0, []),
        # option values
        ("otpu-lockstep --wave-window", "otpu-lockstep", ["run", b, "--wave-window", NASTY], 2,
         []),
        ("otpu-lockstep --dut", "otpu-lockstep", ["run", b, "--dut", "opentpu=" + NASTY], 2, []),
        ("otpu-rtl --max-cycles", "otpu-rtl", ["run", b, "--max-cycles", NASTY], 2, []),
        ("otpu-sim --max-steps", "otpu-sim", ["run", b, "--max-steps", NASTY], 2, []),
        ("otpu-gen --seed", "otpu-gen", ["mix", "--seed", NASTY, "--count", "1", "--out", d], 2,
         []),
        ("otpu-shrink --timeout", "otpu-shrink", [b, "--timeout", NASTY], 2, []),
        ("otpu-fpvec --ops", "otpu-fpvec", ["gen", "--ops", NASTY], 2, []),
        ("otpu-cov -o in a missing folder", "otpu-cov",
         ["merge", os.path.join(d, "cov.json"), "-o", os.path.join(d, NASTY, "o")], 2, []),
    ]
    tool = dict(tool, **{"otpu-bench": os.path.join(os.path.dirname(os.path.dirname(
        tool["otpu-sim"])), "otpu-bench", "otpu-bench")})
    subprocess.run([tool["otpu-sim"], "run", b, "--coverage", os.path.join(d, "cov.json")],
                   capture_output=True, timeout=60)
    for what, name, args, want, files in rows:
        if what.startswith("a hand-edited"):
            with open(os.path.join(r, "divergence.json")) as f:
                j = json.load(f)
            text = NASTY.replace("\udcff", "\u00ff")  # (JSON holds characters)
            j.update(detail="x" + text, bundle=text, repro="otpu-lockstep run " + text)
            j["instruction"]["disasm"] = "LD" + text
            for e in j["history"]:
                e["what"] = text
            os.makedirs(hand, exist_ok=True)
            with open(os.path.join(hand, "divergence.json"), "w") as f:
                json.dump(j, f)
        p = subprocess.run([tool[name], *args], capture_output=True, timeout=300,
                           env=dict(os.environ, OTPU_RTL_JOBS="2"))
        texts = [("stdout", p.stdout), ("stderr", p.stderr)]
        texts += [(os.path.basename(f), open(f, "rb").read()) for f in files
                  if os.path.exists(f)]
        bad = [(n, raw_bytes(t)[:4]) for n, t in texts if raw_bytes(t)]
        not_utf8 = [n for n, t in texts if not t.decode("utf-8", "replace").encode() == t]
        U.check(f"{what}: exit {want}, every byte of input escaped",
                p.returncode == want and not bad and not not_utf8 and len(texts) == 2 + len(files)
                and (b"\\x1b" in p.stdout + p.stderr or want == 0),
                f"exit {p.returncode}, raw {bad}, not UTF-8 {not_utf8}, files {files}\n"
                f"{p.stdout[-400:]!r}\n{p.stderr[-400:]!r}")
        for f in files:
            if f.endswith(".html") and os.path.exists(f):
                page = open(f, "rb").read()
                U.check(f"{what}: {os.path.basename(f)} escapes markup",
                        b"<b>&x" not in page and b"&lt;b&gt;&amp;x" in page, page[-300:])
        if what.startswith("a lockstep run"):
            repro(tool, p.stdout, [b, plus, *fault])


def repro(tool, out, words):
    """the repro line: printable ASCII, and the shell gives back the bundle and the plusargs"""
    line = next((ln for ln in out.split(b"\n") if ln.startswith(b"  repro: ")), b"")
    cmd = line.split(b" otpu-lockstep run ", 1)[-1]
    p = subprocess.run(["bash", "-c", 'eval "set -- $1"; printf "%s\\0" "$@"', "_", cmd],
                       capture_output=True, timeout=60)
    got = p.stdout.split(b"\0")[:-1]
    U.check("the repro line is printable ASCII, and bash reads it back as the same words",
            line.isascii() and not raw_bytes(line) and got == [os.path.realpath(fs(words[0]))] +
            [fs(w) for w in words[1:]], f"{line!r}\n{got!r}")


def main():
    build, vectors = sys.argv[1], sys.argv[2]
    tool = {name: os.path.join(build, sub, name) for sub, name in (
        ("tools/otpu-sim", "otpu-sim"), ("tools/otpu-cov", "otpu-cov"), ("gen", "otpu-gen"),
        ("shrink", "otpu-shrink"), ("vectors", "otpu-fpvec"), ("rtl_bridge", "otpu-rtl"),
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
                           "--wave-window", "0"], 3, "TIMEOUT: no end within 5 cycles"),
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
    echoes(tool, tmp, isa, fault)
    for name, path in tool.items():
        p = subprocess.run([path, "--help"], capture_output=True, text=True, timeout=60)
        U.check(f"{name} --help states its exit statuses",
                p.returncode == 0 and "xit status" in p.stdout + p.stderr, p.stdout[-500:])
    shutil.rmtree(tmp, ignore_errors=True)
    return 1 if U.FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
