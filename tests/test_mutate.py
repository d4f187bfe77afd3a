#!/usr/bin/env python3
"""otpu-mutate (mutate/README.md).

fast (suite lockstep): the bad-input rows (a missing anchor, an anchor found twice, a file that
is not an RTL source, malformed list lines, unknown ids in the equivalence list and --only, bad
option values, lists that name nothing and empty values, outputs that cannot be written or are a
FIFO, a link to /dev/null or a device (still one afterwards), a missing tool, a work folder in
use): exit 2 and one line on stderr naming the problem, never a traceback; then four mutants of
the test's own list on one small generated program: one killed (LD reads its DRAM words 2 bytes
apart), one equivalent by an identical Verilated model (a comment changed), one stillborn (a
syntax error), one a reviewed equivalent (R0 read from the register file; it survives and is
listed); the JSON and text report say so, and otpu-regress's page in the JSON's folder gets the
mutation section. The same R0 mutant
without its equivalence entry is a survivor and --min-score makes that exit status 1.

nightly (suite nightly): the whole harness (mutate/mutants.txt, 15 programs a family, the
golden vectors of their main Config) with the --min-score measured in mutate/README.md.

usage: test_mutate.py fast|nightly OTPU_MUTATE WORK_DIR REGRESS_PKG_DIR [MIN_SCORE]"""
import fcntl
import json
import os
import stat
import subprocess
import sys
import tempfile

from checks import Checks

check = Checks()


def anchor_line(rel, anchor):
    """the 1-based line of the source root's file rel that holds anchor (0: none)"""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), rel)
    for n, line in enumerate(open(path), 1):
        if anchor in line:
            return n
    return 0


def run(tool, args, env=None, timeout=3600):
    p = subprocess.run([sys.executable, tool] + args, capture_output=True, text=True,
                       timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


# the fast test's mutants: (id, file, anchor, replacement, kind, description)
KILL = ('T-LD-STRIDE rtl/otpu_dma.sv "m_raddr = c.w1 + (i << 2);" "m_raddr = c.w1 + (i << 1);" '
        'stride "LD reads its DRAM words 2 bytes apart"')
COMMENT = ('T-COMMENT rtl/otpu_dma.sv "the DMA unit: LD, ST, WAITW" '
           '"the DMA engine: LD, ST, WAITW" constant '
           '"a comment changed: the Verilated model is the same"')
SYNTAX = ('T-SYNTAX rtl/otpu_dma.sv "assign idle = (st == S_IDLE);" "assign idle = (st == S_IDLE;" '
          'operator "a closing parenthesis dropped: it does not build"')
R0 = ('T-R0 rtl/otpu_seq.sv "return (r == 4\'d0) ? 32\'d0 : R[r];" "return R[r];" condition '
      '"register 0 read from the register file"')
R0_REASON = "R[0] is never written, it reads 0 either way"


def bad_input(tool, tmp, work):
    """each row: exit 2, one stderr line that names the problem, no traceback"""
    good = write(os.path.join(tmp, "good.txt"), KILL + "\n")
    none = write(os.path.join(tmp, "none.txt"), "")
    lst = lambda name, text: write(os.path.join(tmp, name), text)  # noqa: E731
    base = ["--work", work, "--json", os.path.join(tmp, "bad", "m.json")]
    rows = [
        ("missing anchor", ["--mutants", lst("a.txt", 'X1 rtl/otpu_dma.sv "no such text" "y" '
                                                       'constant "d"\n')], "anchor not found"),
        ("anchor found twice", ["--mutants", lst("b.txt", 'X2 rtl/otpu_vpu.sv "if (r + 1 == rows) '
                                                          'begin" "if (r == rows) begin" range '
                                                          '"d"\n')], "occurs 3 times"),
        ("a file that is not an RTL source", ["--mutants", lst("c.txt", 'X3 sim/machine.c "a" "b" '
                                                                        'constant "d"\n')],
         "unknown file"),
        ("a missing file", ["--mutants", lst("d.txt", 'X4 rtl/nope.sv "a" "b" constant "d"\n')],
         "unknown file"),
        ("five fields", ["--mutants", lst("e.txt", 'X5 rtl/otpu_dma.sv "a" "b" constant\n')],
         "5 fields"),
        ("an unknown kind", ["--mutants", lst("f.txt", 'X6 rtl/otpu_dma.sv "wv = m_rdata & c.w4;" '
                                                       '"wv = m_rdata;" typo "d"\n')],
         "unknown kind"),
        ("an id twice", ["--mutants", lst("g.txt", KILL + "\n" + KILL + "\n")], "already on line"),
        ("an unbalanced quote", ["--mutants", lst("h.txt", 'X7 rtl/otpu_dma.sv "a b c d e\n')],
         "quotation"),
        ("a bad id", ["--mutants", lst("i.txt", KILL.replace("T-LD-STRIDE", "T/LD") + "\n")],
         "not a mutant id"),
        ("a list with no mutant", ["--mutants", none], "no mutant"),
        ("a missing list", ["--mutants", os.path.join(tmp, "nothing.txt")], "not a regular file"),
        ("an unknown id in the equivalence list",
         ["--mutants", good, "--equivalent", lst("j.txt", "NOPE because\n")], "unknown mutant"),
        ("an equivalence without a reason",
         ["--mutants", good, "--equivalent", lst("k.txt", "T-LD-STRIDE\n")], "no reason"),
        ("--only an unknown id", ["--mutants", good, "--equivalent", none, "--only", "NOPE"],
         "unknown mutant"),
        ("--count 0", ["--count", "0"], "--count"),
        ("--count abc", ["--count", "abc"], "--count"),
        ("--seed -1", ["--seed", "-1"], "--seed"),
        ("-j 0", ["-j", "0"], "-j"),
        ("--timeout 010", ["--timeout", "010"], "--timeout"),
        ("--min-score 101", ["--min-score", "101"], "--min-score"),
        ("--min-score nan", ["--min-score", "nan"], "--min-score"),
        ("--families foo", ["--families", "mix,foo"], "--families"),
        ("--families twice", ["--families", "mix,mix"], "twice"),
        ("--config S=", ["--config", "S="], "--config"),
        ("an unknown option", ["--bogus"], "unrecognized"),
        ("a missing golden folder", ["--golden", os.path.join(tmp, "nothing")], "--golden"),
        ("a source without rtl/", ["--source", tmp], "--source"),
        ("--json in a file", ["--mutants", good, "--equivalent", none, "--json",
                              os.path.join(good, "m.json")], "--json"),
        # a list that names nothing (an unset variable), an empty value of every option
        ("--only ''", ["--only", ""], "names no mutant"),
        ("--only ','", ["--only", ","], "names no mutant"),
        ("--only with an empty id", ["--only", "T-LD-STRIDE,"], "an empty id"),
        ("--only an id twice", ["--only", "T-LD-STRIDE,T-LD-STRIDE"], "named twice"),
        ("--families ''", ["--families", ""], "--families"),
        ("--families with an empty name", ["--families", "mix,"], "--families"),
        ("--config ''", ["--config", ""], "--config"),
        ("--count ''", ["--count", ""], "--count"),
        ("--golden-count ''", ["--golden-count", ""], "--golden-count"),
        ("--min-score ''", ["--min-score", ""], "--min-score"),
        ("--seed of 5000 digits", ["--seed", "9" * 5000], "--seed"),
        ("--localize-time 0", ["--localize", "--localize-time", "0"], "--localize-time"),
        ("--localize-time 01", ["--localize", "--localize-time", "01"], "--localize-time"),
        ("--localize with a missing otpu-shrink", ["--localize", "--shrink",
                                                   os.path.join(tmp, "nothing")], "otpu-shrink"),
    ] + [(f"{o} ''", [o, ""], "empty value") for o in (
        "--mutants", "--equivalent", "--source", "--golden", "--cache", "--work", "--json",
        "--text", "--lockstep", "--rtl", "--gen", "--shrink")] + [
        # outputs: a regular file or none, in a folder that can be written, found before the run
        ("--json /proc/m.json", ["--json", "/proc/m.json"], "--json"),
        ("--text /proc/m.txt", ["--text", "/proc/m.txt"], "--text"),
        ("--json and --text one file", ["--json", os.path.join(tmp, "same.json"), "--text",
                                        os.path.join(tmp, "same.json")], "one file"),
    ]
    for what, args, needle in rows:
        a = list(args)
        if "--mutants" not in a and "--source" not in a:
            a = ["--mutants", good, "--equivalent", none] + a
        elif "--equivalent" not in a:
            a += ["--equivalent", none]
        rc, out, err = run(tool, base + ([] if "--golden" in a else ["--no-golden"]) + a)
        lines = err.strip().splitlines()
        check(rc == 2 and len(lines) == 1 and lines[0].startswith("otpu-mutate: ") and
              needle in lines[0] and "Traceback" not in err,
              f"bad input, {what}: exit 2, one line naming it", f"exit {rc}: {err}")
    # outputs against a FIFO, a link to /dev/null, a character device (root: mknod): refused
    # before the run, and still what they were
    specials = [("a FIFO", os.mkfifo, stat.S_ISFIFO),
                ("a link to /dev/null", lambda p: os.symlink("/dev/null", p), stat.S_ISLNK)]
    if os.geteuid() == 0:
        specials.append(("a device", lambda p: os.mknod(p, 0o600 | stat.S_IFCHR,
                                                        os.makedev(1, 3)), stat.S_ISCHR))
    os.makedirs(os.path.join(tmp, "special"))
    for kind, make, test in specials:
        for opt in ("--json", "--text", "the --work lock"):
            p = os.path.join(tmp, "special", f"{opt.strip('-').replace(' ', '-')}-{kind[-4:]}")
            work_dir = os.path.join(p + "-work") if opt == "the --work lock" else work
            os.makedirs(work_dir, exist_ok=True)
            target = os.path.join(work_dir, "otpu-mutate.lock") if opt == "the --work lock" \
                else p
            make(target)
            args = ["--work", work_dir, "--no-golden", "--mutants", good, "--equivalent", none,
                    "--json", os.path.join(tmp, "bad", "m.json")]
            args += [opt, p] if opt.startswith("--") else []
            rc, out, err = run(tool, args)
            lines = err.strip().splitlines()
            check(rc == 2 and len(lines) == 1 and "Traceback" not in err and
                  test(os.lstat(target).st_mode), f"{opt} {kind}: exit 2, one line, still {kind}",
                  f"exit {rc}: {err}")
    # tools
    for var, what in (("OTPU_GEN", "otpu-gen"), ("OTPU_LOCKSTEP", "otpu-lockstep"),
                      ("OTPU_RTL", "otpu-rtl"), ("VERILATOR", "Verilator")):
        env = dict(os.environ, **{var: os.path.join(tmp, "no-such-tool")})
        rc, out, err = run(tool, base + ["--no-golden", "--mutants", good, "--equivalent", none],
                           env=env)
        lines = err.strip().splitlines()
        check(rc == 2 and len(lines) == 1 and what in lines[0] and "Traceback" not in err,
              f"bad input, {what} missing: exit 2, one line naming it", f"exit {rc}: {err}")
    # the work folder held by another run
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "otpu-mutate.lock"), "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        f.truncate()
        f.write("pid 4242 on a test\n")
        f.flush()
        rc, out, err = run(tool, base + ["--no-golden", "--mutants", good, "--equivalent", none])
        lines = err.strip().splitlines()
        check(rc == 2 and len(lines) == 1 and "in use by pid 4242" in lines[0],
              "a work folder in use: exit 2, naming its holder", f"exit {rc}: {err}")


def fast(tool, work, regress_pkg):
    tmp = tempfile.mkdtemp(prefix="otpu-mutate-test-")
    bad_input(tool, tmp, work)
    rc, out, err = run(tool, ["--help"])
    check(rc == 0 and "--min-score" in out and "exit status" in out, "--help", err)

    mlist = write(os.path.join(tmp, "mutants.txt"), "\n".join([KILL, COMMENT, SYNTAX, R0]) + "\n")
    eq = write(os.path.join(tmp, "equivalent.txt"), f"T-R0 {R0_REASON}\n")
    out_dir = os.path.join(tmp, "night")
    os.makedirs(out_dir)
    sys.path.insert(0, regress_pkg)  # a page of otpu-regress in the folder, as a night leaves it
    from otpu_regress import html
    summary = {"run": {"started": "2026-01-01T00:00:00+00:00"}, "tests": 1, "passed": 1,
               "failed": 0, "by_kind": {}, "slowest": [], "changes": {}}
    html.write_index(out_dir, summary, [], [])
    js = os.path.join(out_dir, "mutation.json")
    common = ["--mutants", mlist, "--no-golden", "--families", "mix", "--count", "1",
              "--work", work]
    rc, out, err = run(tool, common + ["--equivalent", eq, "--json", js])
    check(rc == 0, "the run of four mutants ends with exit 0", f"exit {rc}\n{out}\n{err}")
    doc = json.load(open(js)) if os.path.isfile(js) else {}
    by = {m["id"]: m for m in doc.get("mutants", [])}
    check(doc.get("schema") == "otpu-mutate/1" and list(by) == ["T-LD-STRIDE", "T-COMMENT",
                                                                 "T-SYNTAX", "T-R0"],
          "mutation.json: its schema, the mutants in the list's order", json.dumps(doc)[:2000])
    k = by.get("T-LD-STRIDE", {})
    ld_line = anchor_line("rtl/otpu_dma.sv", "m_raddr = c.w1 + (i << 2);")
    check(k.get("status") == "killed" and "mix" in k.get("killed_by", {}) and
          k["killed_by"]["mix"]["program"] == "mix-1-0000" and ld_line and
          k.get("line") == ld_line and
          k.get("file") == "rtl/otpu_dma.sv" and k.get("unit") == "dma",
          "the LD stride mutant is killed by the mix program, named with file and line",
          json.dumps(k)[:1500])
    c = by.get("T-COMMENT", {})
    check(c.get("status") == "equivalent" and "identical Verilated model" in (c.get("reason") or "")
          and c.get("build_time") == 0.0,
          "the comment mutant: equivalent (identical Verilated model), nothing built",
          json.dumps(c)[:1000])
    s = by.get("T-SYNTAX", {})
    check(s.get("status") == "stillborn" and "Verilator" in (s.get("reason") or ""),
          "the syntax error: stillborn, with Verilator's error", json.dumps(s)[:1000])
    r = by.get("T-R0", {})
    check(r.get("status") == "equivalent" and R0_REASON in (r.get("reason") or "") and
          not r.get("killed_by"), "the listed R0 mutant survives: equivalent with its reason",
          json.dumps(r)[:1000])
    t = doc.get("totals", {})
    sc = t.get("score", {})
    check(t.get("scored") == 1 and t.get("equivalent") == 2 and t.get("stillborn") == 1 and
          sc.get("generated", {}).get("percent") == 100.0 and
          sc.get("families", {}).get("mix", {}).get("killed") == 1 and sc.get("golden") is None,
          "totals: 1 scored and killed (100 %), 2 equivalent, 1 stillborn; mix's share",
          json.dumps(t))
    txt_path = js[:-5] + ".txt"
    txt = open(txt_path).read() if os.path.isfile(txt_path) else ""
    check(txt == out and "T-LD-STRIDE" in txt and f"otpu_dma.sv:{ld_line}" in txt and
          "all generated families" in txt and "stillborn (1): T-SYNTAX" in txt,
          "the text report (stdout and mutation.txt): ids, file:line, the score", txt[-3000:])
    check("[4/4] T-R0" in err and "ETA" in err and "elapsed" in err,
          "progress on stderr: mutant i of N, elapsed, ETA", err[-2000:])
    page = open(os.path.join(out_dir, "index.html")).read()
    check('<section id="mutation">' in page and "all generated families" in page and
          "no survivors" in page, "otpu-regress's page in the folder shows the mutation score",
          page[-3000:])

    # without its equivalence entry the R0 mutant is a survivor; --min-score turns that into 1
    none = write(os.path.join(tmp, "none.txt"), "")
    js2 = os.path.join(tmp, "r0", "mutation.json")
    rc, out, err = run(tool, common + ["--equivalent", none, "--only", "T-R0", "--json", js2,
                                       "--min-score", "50", "-j", "2", "--fast"])
    doc = json.load(open(js2)) if os.path.isfile(js2) else {}
    m = (doc.get("mutants") or [{}])[0]
    check(rc == 1 and m.get("status") == "survived" and doc.get("survivors") == ["T-R0"] and
          "below --min-score" in err and "survivors of the generated programs (1)" in out,
          "an unlisted equivalent mutant is a survivor; below --min-score: exit 1",
          f"exit {rc}\n{out[-1500:]}\n{err[-1500:]}")


def nightly(tool, work, min_score):
    tmp = tempfile.mkdtemp(prefix="otpu-mutate-night-")
    js = os.path.join(tmp, "mutation.json")
    rc, out, err = run(tool, ["--work", work, "--json", js, "--min-score", min_score],
                       timeout=6 * 3600)
    print(out)
    doc = json.load(open(js)) if os.path.isfile(js) else {}
    t = doc.get("totals", {})
    check(rc == 0, f"the whole harness: the generated programs kill at least {min_score} % "
          f"of the scored mutants", f"exit {rc}\n{err[-3000:]}")
    check(t.get("mutants", 0) >= 40 and all(m.get("status") in ("killed", "survived",
                                                                 "equivalent", "stillborn")
                                            for m in doc.get("mutants", [])),
          "at least 40 mutants, each with a status", json.dumps(t)[:2000])
    fams = (t.get("score") or {}).get("families") or {}
    check(set(fams) == {"mix", "hazard", "dma", "mm", "fp", "stream", "error"} and
          (t.get("score") or {}).get("golden") is not None,
          "every family's share and the golden vectors' are reported", json.dumps(t)[:2000])
    units = set(t.get("by_unit", {}))
    need = {"seq", "dma", "mxu", "quant", "vpu", "coll", "stream", "fp", "tmem", "dram"}
    check(need <= units, "the mutants cover every unit", sorted(units))


def main():
    mode, tool, work, regress_pkg = sys.argv[1:5]
    if mode == "fast":
        fast(tool, work, regress_pkg)
    else:
        nightly(tool, work, sys.argv[5] if len(sys.argv) > 5 else "0")
    sys.exit(check.verdict())


if __name__ == "__main__":
    main()
