#!/usr/bin/env python3
"""otpu-regress --code-coverage on bad and unusual input, without the RTL (issue 27): the tools
are stub scripts (otpu-lockstep writes a fixture .dat, or a bad one, where --code-coverage
says), verilator_coverage and genhtml the real ones (scripts/setup installs them), so the whole
file runs in seconds.

The tables: REFUSALS (a tool missing, bad shard files at merge: a tests.json of another shape,
nested too deeply, of a number of thousands of digits, or counting more tests than its shard
ran) want exit status 2, exactly one
stderr line holding the words, no test run or nothing merged; RUN_ROWS (a test's .dat a FIFO,
/dev/zero, huge, not Verilator's format, missing; a tool failing after the tests) want the run to
go on with the tests' exit status, one stderr line naming what was left out or why there is no
report, and summary.json saying the same. Every row also wants no traceback and no raw control
byte. Then the good path: the fixture's totals per module are the ones counted by hand here, and
two shards merged give the points and totals of one run.

usage: test_regress_codecov_input.py OTPU_REGRESS SOURCE_ROOT"""
import json
import os
import shutil
import sys
from stub_kit import Tally, executable, run_tool, write

REGRESS, ROOT = (os.path.abspath(a) for a in sys.argv[1:3])
QUICKSTART = os.path.join(ROOT, "examples", "quickstart")
TIMEOUT = 60
STUB = r'''#!/usr/bin/env python3
# a stand-in for otpu-lockstep: where --code-coverage says, the fixture $STUB_DAT (bundle
# $STUB_BAD: a bad file of kind $STUB_MODE instead; $STUB_NONE: none); exit 0
import os, sys
a = sys.argv[1:]
if "--code-coverage" in a:
    dat = a[a.index("--code-coverage") + 1]
    bad = os.path.basename(a[1]) == os.environ.get("STUB_BAD")
    mode = os.environ.get("STUB_MODE", "") if bad else ""
    if mode == "fifo":
        os.mkfifo(dat)
    elif mode == "devzero":
        os.symlink("/dev/zero", dat)
    elif mode == "huge":
        with open(dat, "wb") as f:
            f.truncate(65 << 20)
    elif mode == "garbage":
        with open(dat, "wb") as f:
            f.write(b"# SystemC::Coverage-3\nC broken \x1b[31m\n")
    elif mode != "none" and not os.environ.get("STUB_NONE"):
        with open(os.environ["STUB_DAT"], "rb") as f, open(dat, "wb") as g:
            g.write(f.read())
sys.exit(0)
'''
MODULE = """module mod(input logic clk, input logic a, output logic y);
  always_ff @(posedge clk) begin
    if (a) y <= 1'b1;
    else y <= 1'b0;
  end
endmodule
"""

TALLY = Tally("otpu-regress-codecov-input-")
check, tmp, path = TALLY.check, TALLY.scratch, TALLY.path
TOOLS = os.path.join(tmp, "tools")


def tool(name, text):
    return executable(os.path.join(TOOLS, name), text)


def point(line, page, o, count, span=None):
    keys = [("f", path("src", "mod.sv")), ("l", str(line)), ("n", "3"), ("page", page),
            ("o", o)] + ([("S", span)] if span else []) + [("h", "TOP.mod")]
    return "C '" + "".join(f"\x01{k}\x02{v}" for k, v in keys) + f"' {count}\n"


# lines 2 and 3 run, line 4 (the else) never: lines 2 of 3, branches 1 of 2, toggles 1 of 2
FIXTURE = write(path("fixture.dat"), "# SystemC::Coverage-3\n" +
                point(2, "v_line/mod", "block", 10, "2") +
                point(3, "v_branch/mod", "if", 4, "3") +
                point(4, "v_branch/mod", "else", 0, "4") +
                point(1, "v_toggle/mod", "a", 3) + point(1, "v_toggle/mod", "y", 0))
write(path("src", "mod.sv"), MODULE)
ENV = {"OTPU_LOCKSTEP": tool("otpu-lockstep", STUB), "OTPU_RTL": tool("otpu-rtl", "#!/bin/sh\n"),
       "OTPU_GEN": tool("otpu-gen", "#!/bin/sh\n"), "OTPU_COV": tool("otpu-cov", "#!/bin/sh\n"),
       "OTPU_SHRINK": tool("otpu-shrink", "#!/bin/sh\n"), "STUB_DAT": FIXTURE}
for name in ("OTPU_VERILATOR_COVERAGE", "VERILATOR_COVERAGE", "GENHTML"):
    os.environ.pop(name, None)
FAILING = tool("failing", "#!/bin/sh\necho \"$(basename \"$0\"): ERROR: boom\" >&2\nexit 2\n")


def regress(*args, env=None):
    """(exit status, stdout, stderr) of otpu-regress in tmp, as bytes"""
    return run_tool([REGRESS, *args], tmp, {**os.environ, **ENV, **(env or {})}, TIMEOUT)


def hygiene(name, out, err):
    raw = any((b < 0x20 and b != 0x0a) or b == 0x7f for b in out + err)
    check(f"{name}: no traceback, no control byte", b"Traceback" not in err and not raw,
          f"stdout {out[-300:]!r} stderr {err[-600:]!r}")


def summary(out):
    try:
        with open(os.path.join(out, "summary.json")) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        check(f"{out}: summary.json", False, e)
        return {}


def bundles(folder, names):
    for n in names:
        shutil.copytree(QUICKSTART, os.path.join(folder, n))
    return folder


TWO = bundles(path("two"), ["a", "b"])


def run_args(out, *more):
    return ["run", TWO, "--code-coverage", "--no-coverage", "--db", "none", "--out", out, *more]


def refused(name, args, words, env=None, out=None):
    """a REFUSALS row: exit 2, one stderr line with the words, and no results in out"""
    rc, o, err = regress(*args, env=env)
    text = err.decode(errors="replace")
    lines = text.splitlines()
    check(name, rc == 2 and len(lines) == 1 and all(w in text for w in words),
          f"exit {rc}, {len(lines)} stderr lines {text[-600:]!r}")
    if out:
        check(f"{name}: nothing written", not os.path.exists(os.path.join(out, "results.json")))
    hygiene(name, o, err)


def shards():
    """two good shard folders of one run, and a copy to tamper with per row"""
    for i in (1, 2):
        rc, _, err = regress(*run_args(path("sh", f"shard-{i}"), "--shard", f"{i}/2"))
        check(f"shard {i}/2 with --code-coverage runs", rc == 0 and os.path.isfile(
            path("sh", f"shard-{i}", "code-coverage", "merged.dat")), err[-600:])


def tampered(name, fn):
    d = path("tampered", name)
    shutil.copytree(path("sh", "shard-1"), d)
    fn(os.path.join(d, "code-coverage"))
    return d


def replace(name, make):
    """fn: the shard's code-coverage/<name> replaced by what make(path) makes"""
    def fn(folder):
        p = os.path.join(folder, name)
        os.remove(p)
        make(p)
    return fn


def sparse(p, size):
    with open(p, "wb") as f:
        f.truncate(size)


def refusals():
    bin_dir = path("bin-no-genhtml")
    os.makedirs(bin_dir)
    for t in ("python3", "verilator_coverage"):
        os.symlink(shutil.which(t), os.path.join(bin_dir, t))
    refused("verilator_coverage not found", run_args(path("o-r1")),
            ["verilator_coverage", "not found", "VERILATOR_COVERAGE=/nonexistent"],
            env={"VERILATOR_COVERAGE": "/nonexistent/verilator_coverage"}, out=path("o-r1"))
    refused("genhtml not found", run_args(path("o-r2")), ["genhtml", "GENHTML=", "lcov"],
            env={"GENHTML": "/nonexistent/genhtml"}, out=path("o-r2"))
    refused("genhtml not on PATH", run_args(path("o-r3")), ["genhtml", "PATH searched"],
            env={"PATH": bin_dir}, out=path("o-r3"))
    refused("--slurm --code-coverage without genhtml", run_args(path("o-r4"), "--slurm"),
            ["genhtml"], env={"GENHTML": "/nonexistent/genhtml"}, out=path("o-r4"))
    shards()
    s2 = path("sh", "shard-2")
    rows = [
        ("merged.dat a FIFO", replace("merged.dat", os.mkfifo), ["merged.dat", "FIFO"]),
        ("merged.dat /dev/zero", replace("merged.dat", lambda p: os.symlink("/dev/zero", p)),
         ["merged.dat", "character device"]),
        ("merged.dat huge", replace("merged.dat", lambda p: sparse(p, 65 << 20)),
         ["merged.dat", "more than"]),
        ("merged.dat not Verilator's", replace("merged.dat", lambda p: write(
            p, b"# SystemC::Coverage-3\nC '\x01f\x02x' 1\n\x1b[2Jjunk\n")),
         ["merged.dat", "not Verilator coverage data"]),
        ("merged.dat empty", replace("merged.dat", lambda p: write(p, b"")),
         ["merged.dat", "not Verilator coverage data"]),
        ("tests.json missing", lambda d: os.remove(os.path.join(d, "tests.json")),
         ["tests.json", "No such file"]),
        ("tests.json not JSON", replace("tests.json", lambda p: write(p, "{\"tests\": ")),
         ["tests.json", "not otpu-regress's"]),
        ("tests.json a negative count", replace("tests.json", lambda p: write(
            p, json.dumps({"schema": "otpu-regress/code-coverage/1", "tests": -1}))),
         ["tests.json"]),
        ("tests.json another schema", replace("tests.json", lambda p: write(
            p, json.dumps({"schema": "x/1", "tests": 1}))), ["tests.json"]),
        ("tests.json more tests than the shard ran", replace("tests.json", lambda p: write(
            p, json.dumps({"schema": "otpu-regress/code-coverage/1", "tests": 1000000}))),
         ["tests.json", "1000000", "the shard ran 1 tests"]),
        ("tests.json nested deep", replace("tests.json", lambda p: write(
            p, "[" * 100000 + "]" * 100000)), ["tests.json", "not otpu-regress's"]),
        ("tests.json a number of 5000 digits", replace("tests.json", lambda p: write(
            p, '{"schema": "otpu-regress/code-coverage/1", "tests": ' + "9" * 5000 + "}")),
         ["tests.json", "not otpu-regress's"]),
        ("tests.json 1e999", replace("tests.json", lambda p: write(
            p, '{"schema": "otpu-regress/code-coverage/1", "tests": 1e999}')),
         ["tests.json", "not otpu-regress's"]),
        ("tests.json a count of text", replace("tests.json", lambda p: write(
            p, json.dumps({"schema": "otpu-regress/code-coverage/1", "tests": "1"}))),
         ["tests.json", "not otpu-regress's"]),
        ("tests.json true", replace("tests.json", lambda p: write(
            p, json.dumps({"schema": "otpu-regress/code-coverage/1", "tests": True}))),
         ["tests.json", "not otpu-regress's"]),
        ("code-coverage a file", lambda d: (shutil.rmtree(d), write(d, "x")),
         ["code-coverage", "merged.dat"]),
    ]
    for name, fn, words in rows:
        out = path("m-" + name.replace(" ", "-").replace("/", "-").replace("'", ""))
        refused(f"merge: {name}", ["merge", tampered(name.replace(" ", "-"), fn), s2, "--out",
                                   out, "--db", "none"], words, out=out)
    out = path("m-no-genhtml")
    refused("merge: genhtml not found", ["merge", path("sh", "shard-1"), s2, "--out", out,
                                         "--db", "none"], ["genhtml"],
            env={"GENHTML": "/nonexistent/genhtml"}, out=out)


def code_lines(err):
    """otpu-regress's lines about code coverage left out or not reported"""
    return [ln for ln in err.decode(errors="replace").splitlines()
            if "left out:" in ln or "no code-coverage report" in ln]


def run_rows():
    rows = [  # (name, env, words of the one line, refused, report made, tests without)
        ("a .dat that is a FIFO", {"STUB_BAD": "b", "STUB_MODE": "fifo"}, ["two/b", "FIFO"],
         True, True, 1),
        ("a .dat that is /dev/zero", {"STUB_BAD": "b", "STUB_MODE": "devzero"},
         ["character device"], True, True, 1),
        ("a huge .dat", {"STUB_BAD": "b", "STUB_MODE": "huge"}, ["more than"], True, True, 1),
        ("a .dat not Verilator's", {"STUB_BAD": "b", "STUB_MODE": "garbage"},
         ["not Verilator coverage data"], True, True, 1),
        ("a test without a .dat", {"STUB_BAD": "b", "STUB_MODE": "none"}, [], False, True, 1),
        ("genhtml fails", {"GENHTML": FAILING}, ["no code-coverage report", "failing failed",
                                                 "ERROR: boom"], False, False, 0),
        ("verilator_coverage fails", {"VERILATOR_COVERAGE": FAILING},
         ["no code-coverage report", "failing failed"], False, False, 2),
        ("no test wrote code coverage", {"STUB_NONE": "1"}, ["no test wrote code coverage"],
         False, False, 2),
    ]
    for name, env, words, refused_one, report, without in rows:
        out = path("o-" + name.replace(" ", "-").replace("/", "-").replace("'", ""))
        rc, o, err = regress(*run_args(out), env=env)
        lines = code_lines(err)
        check(f"run: {name}: exit 0", rc == 0, f"exit {rc}: {err[-600:]!r}")
        check(f"run: {name}: {'one line' if words else 'no line'}",
              len(lines) == (1 if words else 0) and all(w in "".join(lines) for w in words),
              lines)
        hygiene(f"run: {name}", o, err)
        cc = summary(out).get("code_coverage") or {}
        ok = cc.get("without") == without
        ok = ok and len(cc.get("refused", [])) == (1 if refused_one else 0)
        ok = ok and (cc.get("report") is not None) == report and \
            (cc.get("error") is None) == report
        ok = ok and os.path.isfile(os.path.join(out, "code-coverage", "index.html")) == report
        check(f"run: {name}: summary.json says so", ok, cc)
    # genhtml failing keeps the data it could make
    out = path("o-genhtml-fails")
    check("run: genhtml fails: merged.dat and coverage.info are kept",
          all(os.path.isfile(os.path.join(out, "code-coverage", f))
              for f in ("merged.dat", "coverage.info")))


def good_path():
    out = path("o-good")
    rc, o, err = regress(*run_args(out))
    check("good: exit 0", rc == 0, err[-600:])
    cc = summary(out).get("code_coverage") or {}
    fig = {k: (v["hit"], v["total"]) for k, v in (cc.get("total") or {}).items()}
    check("good: the totals counted by hand", fig == {"lines": (2, 3), "branches": (1, 2),
                                                      "toggles": (1, 2)}, cc)
    check("good: one module, mod, in mod.sv",
          [(m["module"], m["file"]) for m in cc.get("modules", [])] == [("mod", "mod.sv")], cc)
    check("good: two tests merged", cc.get("tests") == 2 and cc.get("without") == 0, cc)
    with open(os.path.join(out, "code-coverage", "coverage.info")) as f:
        info = f.read()
    da = dict(ln[3:].split(",")[:2] for ln in info.splitlines() if ln.startswith("DA:"))
    check("good: the tracefile has the missed line 4 and the hit lines 2 and 3",
          da.get("4") == "0" and int(da.get("2", 0)) > 0 and int(da.get("3", 0)) > 0, info)
    with open(os.path.join(out, "summary.txt")) as f:
        text = f.read()
    check("good: summary.txt", "code coverage: 2 tests merged, 0 without" in text and
          "  mod: lines 66.7% (2 of 3), branches 50.0% (1 of 2), toggles 50.0% (1 of 2)" in text,
          text)
    merged = path("o-merged")
    rc, o, err = regress("merge", path("sh", "shard-1"), path("sh", "shard-2"), "--out", merged,
                         "--db", "none")
    mc = summary(merged).get("code_coverage") or {}
    check("good: two shards merged = one run", rc == 0 and all(
        mc.get(k) == cc.get(k) for k in ("tests", "without", "total", "modules")), (mc, cc))
    with open(os.path.join(out, "code-coverage", "merged.dat"), "rb") as f, \
            open(os.path.join(merged, "code-coverage", "merged.dat"), "rb") as g:
        check("good: the same merged.dat", f.read() == g.read())


def main():
    return TALLY.run((refusals, run_rows, good_path), tmp)


if __name__ == "__main__":
    sys.exit(main())
