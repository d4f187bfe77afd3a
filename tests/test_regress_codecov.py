#!/usr/bin/env python3
"""RTL code coverage on the reference RTL (issue 27): otpu-lockstep and otpu-rtl --code-coverage
run the RTL's coverage build (its own cache entry beside the plain one) and write Verilator's
.dat, also after a divergence, with a repro that names the plain build; otpu-regress run
--code-coverage writes the night's merged.dat, lcov tracefile and genhtml report, its totals per
module in summary.json, summary.txt and on the page; the sequencer's dispatch line is reported
hit and the fault-injection line (otpu_fault.sv, off without +otpu_flip_*) missed, and hit
once a run injects a fault; two shards merged give the same points and totals as one run.
Five golden bundles of one Config: one coverage build (OTPU_RTL_CACHE), seconds per run.

usage: test_regress_codecov.py OTPU_REGRESS OTPU_LOCKSTEP VECTORS_ISA SOURCE_ROOT"""
import json
import os
import re
import subprocess
import sys
import tempfile

import regress_util
from regress_util import check, load, verdict

REGRESS, LOCKSTEP, ISA, ROOT = (os.path.abspath(a) for a in sys.argv[1:5])
RTL = os.path.join(os.path.dirname(LOCKSTEP), "otpu-rtl")
BUNDLES = ["ld_st", "random_000", "random_003", "qact_scales", "qst"]  # one Config
FLIP = "+otpu_flip_unit=0 +otpu_flip_n=2 +otpu_flip_bit=5"
# a line every run dispatches through, and one only a +otpu_flip_* fault runs
HIT = ("rtl/otpu_seq.sv", "s_v[free_slot] <= 1'b1;")
MISSED = ("rtl/otpu_fault.sv", "w_out[p].data = w_in[p].data ^ (32'd1 << b);")


def regress(*args, expect=None):
    return regress_util.regress(REGRESS, *args, expect=expect)


def run(cmd, env=None):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900,
                          env={**os.environ, **(env or {})})


def line_of(rel, text):
    """the 1-based line of text in the source file rel (found, not hard-coded)"""
    with open(os.path.join(ROOT, rel)) as f:
        lines = [n for n, ln in enumerate(f, 1) if ln.strip() == text]
    check(len(lines) == 1, f"{rel}: {text!r} is on {len(lines)} lines")
    return lines[0] if lines else 0


def points(path):
    """{point key: count} of a .dat"""
    with open(path, "rb") as f:
        data = f.read()
    check(data.startswith(b"# SystemC::Coverage-3\n"), f"{path}: not Verilator coverage data")
    out = {}
    for ln in data.decode("utf-8", "surrogateescape").splitlines()[1:]:
        key, _, n = ln.rpartition("' ")
        out[key] = int(n)
    return out


def spans(spec):
    """the lines of a point's S key ("31-34,40")"""
    out = set()
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


def dat_line_hit(path, rel, line):
    """whether a line or branch point of path's data whose statements span rel:line was hit"""
    counts = []
    for key, n in points(path).items():
        kv = dict(part.partition("\x02")[::2] for part in key.split("\x01")[1:])
        if (kv.get("f") == os.path.join(ROOT, rel) and "S" in kv and line in spans(kv["S"])
                and kv.get("page", "").startswith(("v_line/", "v_branch/"))):
            counts.append(n)
    check(counts, f"{path}: no line point spans {rel}:{line}")
    return any(counts)


def tracefile(path):
    """{source: {line: count}} of an lcov tracefile (its DA records)"""
    out, cur = {}, None
    with open(path) as f:
        for ln in f:
            ln = ln.strip()
            if ln.startswith("SF:"):
                cur = out.setdefault(ln[3:], {})
            elif ln.startswith("DA:") and cur is not None:
                n, count = ln[3:].split(",")[:2]
                cur[int(n)] = int(count)
    return out


def html_line(out, rel, line):
    """the class genhtml gave the line in its page of rel ("lineCov", "lineNoCov") or None"""
    page = os.path.join(out, "code-coverage", rel + ".gcov.html")
    if not check(os.path.isfile(page), f"genhtml wrote no {page}"):
        return None
    with open(page) as f:
        m = re.search(rf'<a name="{line}"><span class="lineNum">\s*{line} </span>'
                      r'<span class="(\w+)"', f.read())
    return m.group(1) if m else None


def lockstep_level(tmp):
    """otpu-lockstep and otpu-rtl --code-coverage, their refusals, the repro of a coverage run"""
    ld = os.path.join(ISA, "ld_st")
    dat = os.path.join(tmp, "ld.dat")
    p = run([LOCKSTEP, "run", ld, "--code-coverage", dat, "--report", os.path.join(tmp, "r0")])
    check(p.returncode == 0 and os.path.isfile(dat), f"lockstep --code-coverage: exit "
          f"{p.returncode} {p.stderr[-800:]}")
    if os.path.isfile(dat):
        check(dat_line_hit(dat, HIT[0], line_of(*HIT)), "ld_st: the dispatch line not hit")
        check(not [f for f in os.listdir(tmp) if ".tmp" in f], "a temporary .dat was left")
    for name, args, words in (
            ("with --systemc", ["--code-coverage", dat, "--systemc"], ["--systemc"]),
            ("an unwritable folder", ["--code-coverage", "/nonexistent/x.dat"],
             ["--code-coverage", "/nonexistent", "does not exist"]),
            ("without FILE", ["--code-coverage"], ["needs a FILE"])):
        p = run([LOCKSTEP, "run", ld, "--report", os.path.join(tmp, "r1"), *args])
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 2 and len(lines) == 1 and all(w in p.stderr for w in words),
              f"lockstep --code-coverage {name}: exit {p.returncode}, {p.stderr!r}")
    # its own cache entry: the plain simulator stays, the coverage one is another
    plain, cov = (run([RTL, "path", *a, ld]).stdout.strip() for a in ([], ["--code-coverage"]))
    check(plain and cov and plain != cov and os.path.isfile(plain) and os.path.isfile(cov),
          f"otpu-rtl path: plain {plain!r}, coverage {cov!r}")
    rdat = os.path.join(tmp, "rtl.dat")
    p = run([RTL, "run", ld, "--code-coverage", rdat])
    check(p.returncode == 0 and os.path.isfile(rdat), f"otpu-rtl run --code-coverage: exit "
          f"{p.returncode} {p.stderr[-400:]}")
    p = run([RTL, "run", ld, "--code-coverage", rdat, "--fst", os.path.join(tmp, "w.fst")])
    check(p.returncode == 2, f"otpu-rtl --code-coverage with --fst: exit {p.returncode}")
    # a divergence: the .dat is written (the fault line ran), and the repro names the plain
    # build, which reproduces it
    bad = os.path.join(ISA, "random_007")
    fdat, rep = os.path.join(tmp, "flip.dat"), os.path.join(tmp, "r-flip")
    p = run([LOCKSTEP, "run", bad, "--code-coverage", fdat, "--report", rep, "--wave-window",
             "0", *FLIP.split()])
    check(p.returncode == 1 and os.path.isfile(fdat), f"a divergence with --code-coverage: "
          f"exit {p.returncode} {p.stderr[-400:]}")
    if os.path.isfile(fdat):
        check(dat_line_hit(fdat, MISSED[0], line_of(*MISSED)), "the fault ran, its line not hit")
    try:
        repro = load(rep, "divergence.json")["repro"]
    except (OSError, ValueError, KeyError) as e:
        check(False, f"no repro in the coverage run's report: {e}")
        return
    key = re.search(r"OTPU_RTL_KEY=(\S+)", repro)
    check(key and "--code-coverage" not in repro, f"repro: {repro}")
    if key:
        p = run([LOCKSTEP, "run", bad, "--report", os.path.join(tmp, "r-again"), "--wave-window",
                 "0", *FLIP.split()], env={"OTPU_RTL_KEY": key.group(1)})
        check(p.returncode == 1, f"the repro's key on the plain build: exit {p.returncode} "
              f"{p.stderr[-400:]}")


def night(tmp):
    """a run with --code-coverage: the files, the totals, the hit and missed lines, the page"""
    suite = os.path.join(tmp, "cc.suite")
    with open(suite, "w") as f:
        f.write("".join(os.path.join(ISA, b) + "\n" for b in BUNDLES))
    one = os.path.join(tmp, "one")
    regress("run", suite, "--code-coverage", "-j", "2", "--out", one, "--db", "none", expect=0)
    cc = load(one, "summary.json")["code_coverage"] or {}
    for f in ("index.html", "coverage.info", "merged.dat", "tests.json"):
        check(os.path.isfile(os.path.join(one, "code-coverage", f)), f"code-coverage/{f} missing")
    check(cc.get("tests") == len(BUNDLES) and cc.get("without") == 0 and not cc.get("error") and
          cc.get("report") == "code-coverage/index.html", f"summary's code_coverage: {cc}")
    mods = {m["module"]: m for m in cc.get("modules") or []}
    seq = mods.get("otpu_seq", {})
    check(all(seq.get(k) and 0 < seq[k]["hit"] < seq[k]["total"] for k in
              ("lines", "branches", "toggles")), f"otpu_seq's totals: {seq}")
    total = cc.get("total") or {}
    check(all(total.get(k) and total[k]["hit"] == sum(m[k]["hit"] for m in mods.values())
              for k in ("lines", "branches", "toggles")), f"the totals are not the modules' sum")
    with open(os.path.join(one, "summary.txt")) as f:
        text = f.read()
    check("code coverage: 5 tests merged" in text and "  otpu_seq: lines " in text,
          "summary.txt has no code coverage lines")
    with open(os.path.join(one, "index.html")) as f:
        page = f.read()
    check('href="code-coverage/index.html"' in page and 'id="code-coverage-modules"' in page and
          ">otpu_seq</td>" in page, "the page does not link the report or show the modules")
    # the lines: in the tracefile and in genhtml's page
    info = tracefile(os.path.join(one, "code-coverage", "coverage.info"))
    hit, missed = line_of(*HIT), line_of(*MISSED)
    seq_da = info.get(os.path.join(ROOT, HIT[0]), {})
    fault_da = info.get(os.path.join(ROOT, MISSED[0]), {})
    check(seq_da.get(hit, 0) > 0, f"{HIT[0]}:{hit} is not reported hit: {seq_da.get(hit)}")
    check(fault_da.get(missed) == 0, f"{MISSED[0]}:{missed} is not reported missed: "
          f"{fault_da.get(missed)}")
    check(html_line(one, HIT[0], hit) == "lineCov", f"genhtml: {HIT[0]}:{hit} not lineCov")
    check(html_line(one, MISSED[0], missed) == "lineNoCov",
          f"genhtml: {MISSED[0]}:{missed} not lineNoCov")
    # the control: a night that injects the fault runs that line
    fl = os.path.join(tmp, "flip.suite")
    with open(fl, "w") as f:
        f.write(f"{os.path.join(ISA, 'random_007')} name=flip {FLIP}\n")
    flip = os.path.join(tmp, "flip")
    regress("run", fl, "--code-coverage", "--out", flip, "--db", "none", expect=1)
    info = tracefile(os.path.join(flip, "code-coverage", "coverage.info"))
    check(info.get(os.path.join(ROOT, MISSED[0]), {}).get(missed, 0) > 0,
          "with the fault injected, its line is still reported missed")
    # two shards merged: the same points and totals as one run
    for i in (1, 2):
        regress("run", suite, "--code-coverage", "--shard", f"{i}/2", "--out",
                os.path.join(tmp, f"shard-{i}"), "--db", "none", expect=0)
    merged = os.path.join(tmp, "merged")
    regress("merge", os.path.join(tmp, "shard-1"), os.path.join(tmp, "shard-2"), "--out",
            merged, "--db", "none", expect=0)
    mc = load(merged, "summary.json")["code_coverage"] or {}
    for k in ("tests", "without", "total", "modules"):
        check(mc.get(k) == cc.get(k), f"merged shards' {k}: {mc.get(k)}, one run's {cc.get(k)}")
    a, b = (points(os.path.join(d, "code-coverage", "merged.dat")) for d in (one, merged))
    check(a == b and len(a) > 1000, f"merged shards' points differ from one run's ({len(a)}, "
          f"{len(b)} points, {sum(a[k] != b.get(k) for k in a)} differ)")
    # a run without --code-coverage: no figure, and the earlier run's folder is gone
    regress("run", suite, "--out", one, "--db", "none", expect=0)
    check(load(one, "summary.json")["code_coverage"] is None and
          not os.path.exists(os.path.join(one, "code-coverage")),
          "a run without --code-coverage kept an earlier run's code coverage")


def main():
    with tempfile.TemporaryDirectory(prefix="otpu-regress-codecov-") as tmp:
        lockstep_level(tmp)
        night(tmp)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
