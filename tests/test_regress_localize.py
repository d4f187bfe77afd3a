#!/usr/bin/env python3
"""Fault localization (otpu-regress localize, run --localize; regress/README.md, "Suspect
lines"), on the reference RTL:

- the ranking itself (spectrum.py) on made-up coverage files of a made-up source: a line every
  failing and no passing test ran first, a line not every failing test ran after every line
  they all ran, begin/end lines never ranked, a wire's declaration executed through its reader;
- a night with a fault planted by plusarg (+otpu_flip_unit: the fault module flips a DMA
  write), localized: its bucket ranked, the fault module's flip first, the schema of
  summary.json (buckets[i].suspects, causes), summary.txt's lines, the page's section;
- bad input, a table: (arguments, exit status, words of the one line).

usage: test_regress_localize.py OTPU_REGRESS SOURCE_ROOT"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

REGRESS, ROOT = (os.path.abspath(a) for a in sys.argv[1:3])
sys.path.insert(0, os.path.join(ROOT, "regress"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from otpu_regress import spectrum  # noqa: E402
from checks import Checks  # noqa: E402

check = Checks()


SOURCE = """module m (input logic clk);
  wire [3:0] w = 4'd1;
  always_ff @(posedge clk) begin
    if (a) begin
      x <= w;
    end else begin
      y <= 2;
    end
  end
endmodule
"""


def dat(path, src, hits):
    """a .dat of the made-up source: a block point over lines 3-9, arms 4-5 and 6-7"""
    points = [("3-9", "v_line", hits[0]), ("4-5", "v_branch", hits[1]),
              ("6-7", "v_branch", hits[2])]
    with open(path, "w") as f:
        f.write("# SystemC::Coverage-3\n")
        for i, (span, page, n) in enumerate(points):
            f.write(f"C '\x01f\x02{src}\x01l\x02{span.split('-')[0]}\x01n\x02{i}\x01page\x02"
                    f"{page}/m\x01o\x02block\x01S\x02{span}\x01h\x02TOP.m' {n}\n")


def ranking(tmp):
    src = os.path.join(tmp, "m.sv")
    with open(src, "w") as f:
        f.write(SOURCE)
    sources, layout, runs = spectrum.Sources(), None, {}
    for name, hits in (("f1", (1, 1, 0)), ("f2", (1, 1, 0)), ("p1", (1, 0, 1)),
                       ("p2", (1, 0, 1)), ("f3", (1, 1, 1))):
        dat(os.path.join(tmp, name + ".dat"), src, hits)
        layout, runs[name] = spectrum.executed_lines(os.path.join(tmp, name + ".dat"), sources,
                                                     layout)
    failing = [runs["f1"], runs["f2"], runs["f3"]]
    ranked = spectrum.rank(failing, [runs["p1"], runs["p2"]], sources, layout)
    lines = [r["line"] for r in ranked]
    check(lines[:2] == [5, 4], f"the arm only failing tests ran first, its assignment before "
          f"its condition ({lines})")
    check(ranked[0]["score"] == 1.0 and ranked[0]["failed"] == 3 and ranked[0]["passed"] == 0,
          f"its score and counts ({ranked[0]})")
    check(not {6, 8, 9, 10} & set(lines), f"begin/end/else lines are not ranked ({lines})")
    check(2 in lines, f"the wire's declaration is ranked through its reader ({lines})")
    check(lines.index(7) > lines.index(3), "a line one failing test did not run comes after "
          f"the lines all of them ran ({lines})")
    flat = spectrum.flat_points([{"a": 1, "b": 0, "c": 2}, {"a": 1, "b": 1, "c": 1}])
    check(flat == {"a"}, f"a point every run counted once (the settling) is flat ({flat})")
    runs = [spectrum.counts_of(spectrum.read_points(os.path.join(tmp, n + ".dat")))
            for n in ("f1", "p1")]  # (the block 3-9 counted once in both: flat)
    settled = spectrum.Layout(spectrum.read_points(os.path.join(tmp, "f1.dat")), sources,
                              spectrum.flat_points(runs))
    check((src, 3) not in settled.owners and (src, 5) in settled.owners,
          "a line under flat points only has no point; an arm that counted has its own")


def edges(tmp):
    """the buckets localization cannot rank, each one line saying why (stub tools: no RTL)"""
    from otpu_regress import localize
    stub = os.path.join(tmp, "stub-rtl")
    with open(stub, "w") as f:
        f.write("#!/bin/sh\necho 'otpu-rtl: this DUT has no code-coverage build' >&2\nexit 2\n")
    os.chmod(stub, 0o755)
    out = os.path.join(tmp, "edges")
    bundle = os.path.join(out, "repro", "t", "bundle")
    shutil.copytree(os.path.join(ROOT, "examples", "quickstart"), bundle)
    os.makedirs(os.path.join(out, "repro", "none"))

    def test(name, kind, exit_status, repro="repro/t"):
        return {"name": name, "suite": "s", "kind": kind, "exit": exit_status, "repro": repro,
                "plusargs": [], "status": "fail", "bundle_path": bundle, "cycles": 1}
    tests = [test("timeout", "timeout", None), test("crash", "crash", 139),
             test("lost", "divergence", 1, None), test("nocov", "divergence", 1)]
    summary = {"buckets": [{"n": i, "key": f"k/{t['kind']}/{i}", "tests": [t["name"]],
                            "repro": None} for i, t in enumerate(tests, 1)]}
    logged = []
    tools = {"rtl": stub, "lockstep": stub, "shrink": stub, "gen": stub}
    localize.night(out, summary, tests, tools, 1, 5, logged.append)
    notes = [b["localized"]["note"] for b in summary["buckets"]]
    for note, words in zip(notes, ("a timeout has no divergence cycle", "crash failure has no "
                                   "diverging write", "no bundle of it is kept",
                                   "no code-coverage build (otpu-rtl: this DUT has no")):
        check(note.startswith("not ranked: ") and words in note and "\n" not in note,
              f"a bucket it cannot rank says why: '{words}'", note)
    check(all(not b["suspects"] for b in summary["buckets"]) and summary["causes"] == [],
          "no suspects, no causes")
    check(len(logged) == 4, f"one line a bucket on the log ({len(logged)})", logged)


def run(args, timeout=3600):
    p = subprocess.run([REGRESS, *args], capture_output=True, text=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout + p.stderr


def night(tmp):
    bundle = os.path.join(ROOT, "examples", "quickstart")
    suite = os.path.join(tmp, "faults.suite")
    with open(suite, "w") as f:
        f.write(f"{bundle} name=clean\n"
                f"{bundle} name=flip +otpu_flip_unit=0 +otpu_flip_n=3 +otpu_flip_bit=5\n")
    out = os.path.join(tmp, "night")
    st, text = run(["run", suite, "--out", out, "--db", "none", "-j", "2", "--localize",
                    "--localize-time", "600", "--no-coverage"])
    check(st == 1, f"the night fails (exit {st})", text[-3000:])
    with open(os.path.join(out, "summary.json")) as f:
        s = json.load(f)
    b = s["buckets"][0] if s["buckets"] else {}
    sus = b.get("suspects") or []
    print(json.dumps(sus[:5], indent=1))
    check(len(s["buckets"]) == 1 and len(sus) >= 5 and len(sus) <= 20,
          f"one bucket, ranked ({len(sus)} suspects)", b.get("localized"))
    check(all(set(x) >= {"file", "line", "score", "failed", "passed"} and
              not os.path.isabs(x["file"]) and isinstance(x["line"], int) for x in sus),
          "each suspect: file (relative), line, score, failed, passed")
    check(sus and sus[0]["file"] == "rtl/otpu_fault.sv" and sus[0]["score"] == 1.0,
          f"the planted fault's module ranks first ({sus[:1]})")
    check([x["score"] for x in sus] == sorted((x["score"] for x in sus), reverse=True),
          "best first")
    check(len(s.get("causes") or []) == 1 and s["causes"][0]["buckets"] == [1],
          f"one cause of bucket 1 ({s.get('causes')})")
    with open(os.path.join(out, "summary.txt")) as f:
        txt = f.read()
    check("suspect RTL lines" in txt and "rtl/otpu_fault.sv:" in txt, "summary.txt's suspects")
    with open(os.path.join(out, "index.html")) as f:
        page = f.read()
    check('id="suspects"' in page and "otpu_fault.sv:" in page, "the page's section")
    # again over the ended night: the same first suspect
    st, text = run(["localize", out, "--db", "none", "-j", "2"])
    with open(os.path.join(out, "summary.json")) as f:
        again = json.load(f)["buckets"][0]["suspects"]
    check(st == 0 and again[:1] == sus[:1], f"localize OUT: the same first suspect (exit {st})",
          text[-2000:])
    return out


def bad_input(tmp, out):
    plain = os.path.join(tmp, "plain")
    os.makedirs(plain)
    afile = os.path.join(tmp, "afile")
    open(afile, "w").close()
    broken = os.path.join(tmp, "broken")
    shutil.copytree(out, broken)
    with open(os.path.join(broken, "summary.json"), "w") as f:
        f.write('{"schema": "otpu-regress/summary/2", "buckets": "x"}')
    rows = [
        (["run", os.path.join(ROOT, "examples", "quickstart"), "--out", os.path.join(tmp, "ok"),
          "--db", "none", "--no-coverage", "--localize"], 0, "no failure bucket to localize"),
        (["localize", os.path.join(tmp, "ok")], 0, "no failure bucket to localize"),
        (["localize", os.path.join(tmp, "nowhere")], 2, "no ended night"),
        (["localize", afile], 2, "no ended night"),
        (["localize", plain], 2, "no ended night"),
        (["localize", out, "--localize-time", "0"], 2, "--localize-time"),
        (["localize", out, "--localize-time", "x"], 2, "--localize-time"),
        (["localize", out, "-j", "0"], 2, "-j"),
        (["localize"], 2, "OUT"),
        (["localize", broken, "--db", "none"], 2, "summary"),
        (["run", "--localize-time", "5", "--localize"], 2, "SUITE"),
    ]
    for args, want, words in rows:
        st, text = run(args, 600)
        lines = [ln for ln in text.splitlines() if ln.strip()]
        check(st == want and lines and words in lines[-1] and "Traceback" not in text,
              f"{' '.join(os.path.basename(a) for a in args)}: exit {want}, '{words}'",
              f"exit {st}: {text[-500:]}")


def main():
    tmp = tempfile.mkdtemp(prefix="otpu-localize-")
    try:
        ranking(tmp)
        edges(tmp)
        out = night(tmp)
        bad_input(tmp, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return check.verdict()


if __name__ == "__main__":
    sys.exit(main())
