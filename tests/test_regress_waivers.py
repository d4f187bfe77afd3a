#!/usr/bin/env python3
"""otpu-regress --waivers (regress/otpu_regress/waivers.py) on the reference RTL: two faults
planted by plusargs (a VPU bit flip and a dropped DMA write) stand for two known differences.

(1) Bad waiver files (a table: file, exit status, words of the one line): refused before any
    test runs, nothing written; among them every signature that does not name one known
    difference (wildcards alone, a kind that is no verdict on the bundle: bad input, a crash, a
    timeout...; a kind with a wildcard, the parts of another kind's key, in a list too) and
    files nested too deeply or holding a number of thousands of digits.
(2) A night with a waiver for the VPU fault only and one that matches nothing: the VPU
    failure is waived (results.json, JUnit skipped with the reason, the page, not shrunk), the
    DMA one is new and fails the run (exit 1), the unused waiver is reported stale.
(3) Waivers (one a list of two signatures, one of them a * pattern) for both: the run passes
    (exit 0) with 2 waived, none stale.
(4) Two shards run without waivers, merged with them: the same verdict as one run.

usage: test_regress_waivers.py OTPU_REGRESS VECTORS_ISA WORK"""
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

from regress_util import check, load, regress, verdict

REGRESS, ISA, WORK = (os.path.abspath(a) for a in sys.argv[1:4])
FAULTS = {"vpu": ("random_001", "+otpu_flip_unit=3 +otpu_flip_n=1 +otpu_flip_bit=30"),
          "dma": ("qst", "+otpu_drop_unit=0 +otpu_drop_n=3")}
CLEAN = ["ld_st", "halt_chain"]


def write(path, text, mode="w"):
    with open(path, mode) as f:
        f.write(text)
    return path


def waivers(name, *entries):
    """a waiver file of (id, signature or [signatures], why, link)"""
    body = "".join(f'[[waiver]]\nid = "{i}"\nsignature = {json.dumps(s)}\nwhy = "{w}"\n'
                   f'link = "{ln}"\n\n' for i, s, w, ln in entries)
    return write(os.path.join(WORK, name), body)


def night(out, *extra, expect):
    return regress(REGRESS, "run", SUITE, "--out", os.path.join(WORK, out), "--db", "none",
                   "-j", "2", "--shrink-time", "20", *extra, expect=expect)


def by_name(out):
    return {t["name"].split("/")[0]: t for t in load(os.path.join(WORK, out),
                                                      "results.json")["tests"]}


def bad_input():
    fifo = os.path.join(WORK, "fifo")
    os.mkfifo(fifo)
    big = write(os.path.join(WORK, "big.toml"), "#" * (2 << 20))
    ok = '[[waiver]]\nid = "a"\nsignature = "wrong-value/VPU/VOP/TMEM/*"\nwhy = "w"\nlink = "l"\n'
    rows = [  # (name, file text or a path, words of the message)
        ("missing", os.path.join(WORK, "no-such.toml"), "No such file"),
        ("fifo", fifo, "not a regular file"),
        ("huge", big, "more than"),
        ("not-utf8", b"\xff\xfe[[waiver]]\n", "not UTF-8"),
        ("not-toml", "[[waiver]\nid=", "not TOML"),
        ("other-table", ok + "[other]\nx = 1\n", "unknown table or key 'other'"),
        ("not-tables", 'waiver = 3\n', "array of tables"),
        ("unknown-key", ok.replace('link = "l"', 'link = "l"\nseverity = "high"'),
         "unknown key 'severity'"),
        ("no-id", ok.replace('id = "a"\n', ""), "'id' must be a non-empty string"),
        ("bad-id", ok.replace('id = "a"', 'id = "a b"'), "an id of"),
        ("twice", ok + ok, "a second waiver with id 'a'"),
        ("bad-signature", ok.replace("wrong-value/VPU/VOP/TMEM/*", "wrong value"),
         "a bucket key"),
        ("one-part", ok.replace("wrong-value/VPU/VOP/TMEM/*", "wrong-value"), "a bucket key"),
        ("empty-why", ok.replace('why = "w"', 'why = " "'), "'why' must be a non-empty"),
        ("control-why", ok.replace('why = "w"', 'why = "a\\u001b[2Jb"'), "'why'"),
        ("number-link", ok.replace('link = "l"', "link = 3"), "'link' must be a non-empty"),
        ("empty-list", ok.replace('"wrong-value/VPU/VOP/TMEM/*"', "[]"),
         "'signature' must be a non-empty"),
        ("list-bad-key", ok.replace('"wrong-value/VPU/VOP/TMEM/*"',
                                    '["wrong-value/VPU/VOP/TMEM/*", "a b"]'),
         "'a b' is not a bucket key"),
        ("deep", ok + "x = " + "[" * 600 + "]" * 600 + "\n", "nested too deeply"),
        ("deep-inline", ok + "x = " + "{a = " * 600 + "1" + "}" * 600 + "\n", "nested too deeply"),
        ("huge-number", ok.replace('link = "l"', "link = " + "9" * 5000), "not TOML"),
        ("datetime-why", ok.replace('why = "w"', "why = 1979-05-27T07:32:00Z"), "'why'"),
    ]
    # signatures that do not name one known difference: each alone, and in a list after a
    # good one
    for sig in ("*/*", "*/*/*/*/*", "*/*/*/*/*/*/*/*", "wrong-value/*/*/*/*",
                "wrong-value/**/*/*/*", "unexpected-outcome/*", "bad-input/bundle",
                "bad-input/*", "bad-input/tool", "crash/no-result", "crash/signal-11",
                "crash/*", "timeout/wall-clock", "timeout/-", "build-failed/-",
                "divergence/no-report", "divergence/*/*/*/*", "*-value/VPU/VOP/TMEM/value",
                "wrong-*/VPU/VOP/TMEM/value", ".*/VPU/VOP/TMEM/value", "*/VPU/VOP/TMEM/value",
                "wrong_value/VPU/VOP/TMEM/value", "wrong-value/VPU/VOP",
                "wrong-value/VPU/VOP/TMEM/value/x", "unexpected-outcome/error-vs-clean/x",
                "hang/*/*/*/*", "wrong-value/*/*/*/?", "wrong-value/?/?/?/?*"):
        for how, value in (("", json.dumps(sig)),
                           (" in a list", json.dumps(["wrong-value/VPU/VOP/TMEM/*", sig]))):
            rows.append((f"sig {sig}{how}", ok.replace('"wrong-value/VPU/VOP/TMEM/*"', value),
                         f"signature '{sig}' does not name one known difference"))
    for i, (name, text, words) in enumerate(rows):
        path = text if isinstance(text, str) and text.startswith("/") else \
            write(os.path.join(WORK, f"bad-{i}.toml"), text,
                  "wb" if isinstance(text, bytes) else "w")
        out = os.path.join(WORK, f"out-bad-{i}")
        p = regress(REGRESS, "run", SUITE, "--out", out, "--db", "none", "--waivers", path)
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 2 and len(lines) == 1 and words in lines[0] and
              "Traceback" not in p.stderr,
              f"bad waiver file {name}: exit {p.returncode}, {p.stderr.strip()[-300:]!r}, "
              f"wanted exit 2 and one line with {words!r}")
        check(not os.path.exists(os.path.join(out, "results.json")),
              f"bad waiver file {name}: no test ran")
    p = regress(REGRESS, "merge", os.path.join(WORK, "nothing"), "--out",
                os.path.join(WORK, "out-bad-merge"), "--waivers", fifo)
    check(p.returncode == 2 and "not a regular file" in p.stderr,
          f"merge --waivers FIFO: exit {p.returncode}, {p.stderr.strip()!r}")


def keys():
    """each fault's bucket key, from a night without waivers"""
    night("plain", expect=1)
    t = by_name("plain")
    check(t["clean1"]["status"] == "pass" and t["clean2"]["status"] == "pass", "clean pass")
    return {n: t[n]["bucket"]["key"] for n in FAULTS}


def one_waived(key):
    w = waivers("one.toml", ("vpu-flip", key["vpu"], "a planted VPU flip", "docs/x.md#vpu"),
                ("never", "wrong-value/MXU/MM/TMEM/zero-sign", "matches nothing", "docs/x.md"))
    p = night("one", "--waivers", w, expect=1)
    out = os.path.join(WORK, "one")
    s, t = load(out, "summary.json"), by_name("one")
    check(s["failed"] == 1 and s["waived"] == 1 and s["passed"] == 2,
          f"one waived: failed {s['failed']} waived {s['waived']} passed {s['passed']}")
    check(t["vpu"].get("waived", {}).get("id") == "vpu-flip" and "waived" not in t["dma"] and
          t["vpu"]["kind"] == "divergence", "the VPU failure is waived, the DMA one is not")
    stale = {w["id"]: w["stale"] for w in s["waivers"]}
    check(stale == {"vpu-flip": False, "never": True}, f"stale waivers: {stale}")
    text = open(os.path.join(out, "summary.txt")).read()
    check("waiver never (wrong-value/MXU/MM/TMEM/zero-sign): STALE" in text and
          "1 failed, 1 waived" in text, "summary.txt names the stale waiver and the counts")
    check(len(re.findall(r"^WAIVED vpu/random_001: .*\[waiver vpu-flip\]", p.stderr, re.M)) == 2
          and len(re.findall(r"^FAIL dma/qst: ", p.stderr, re.M)) == 2 and
          not re.search(r"^FAIL vpu/", p.stderr, re.M),
          "the log says WAIVED and FAIL, as each test ends and at the end, each on a line of "
          f"its own:\n{p.stderr}")
    junit = ET.parse(os.path.join(out, "junit.xml")).getroot()
    cases = {tc.get("classname"): tc for tc in junit.iter("testcase")}
    skip = cases["vpu"].find("skipped")
    check(skip is not None and cases["vpu"].find("failure") is None and
          "waived (vpu-flip): a planted VPU flip (docs/x.md#vpu)" == skip.get("message"),
          "JUnit: the waived test is skipped with the reason")
    check(cases["dma"].find("failure") is not None and junit.get("failures") == "1" and
          junit.get("skipped") == "1", "JUnit: the new one fails; 1 failure, 1 skipped")
    b = {x["key"]: x for x in load(out, "buckets.json")["buckets"]}
    check(b[key["vpu"]].get("waived") == "vpu-flip" and "waived" in b[key["vpu"]]["shrink"] and
          b[key["vpu"]]["repro"] is None and not b[key["dma"]].get("waived"),
          "the waived bucket is marked and not shrunk, the new one is not marked")
    page = open(os.path.join(out, "index.html")).read()
    check('id="waivers"' in page and "stale: matched nothing" in page and
          'class="failure waived"' in page and "1 failed, 1 waived of 4" in page,
          "the page: waivers table, the stale one, the waived row")


def all_waived(key):
    glob = "/".join(key["dma"].split("/")[:2] + ["*"] * (len(key["dma"].split("/")) - 2))
    w = waivers("all.toml", ("vpu-flip", key["vpu"], "VPU", "a"),
                ("dma-drop", ["stray-write/MXU/MM/TMEM/-", glob], "DMA", "b"))
    night("all", "--waivers", w, expect=0)
    s = load(os.path.join(WORK, "all"), "summary.json")
    check(s["failed"] == 0 and s["waived"] == 2 and not any(x["stale"] for x in s["waivers"]),
          f"every failure waived ({glob}): exit 0, 2 waived, none stale")
    return w


def merged(w):
    for i in (1, 2):
        night(f"shard{i}", "--shard", f"{i}/2", expect=None)
    regress(REGRESS, "merge", os.path.join(WORK, "shard1"), os.path.join(WORK, "shard2"),
            "--out", os.path.join(WORK, "merged"), "--db", "none", "--waivers", w, expect=0)
    s = load(os.path.join(WORK, "merged"), "summary.json")
    check(s["failed"] == 0 and s["waived"] == 2, "shards merged with --waivers: 2 waived")


if __name__ == "__main__":
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    SUITE = write(os.path.join(WORK, "night.suite"), "".join(
        [f"{os.path.join(ISA, b)} name={n} {p}\n" for n, (b, p) in FAULTS.items()] +
        [f"{os.path.join(ISA, b)} name=clean{i}\n" for i, b in enumerate(CLEAN, 1)]))
    bad_input()
    k = keys()
    check(k["vpu"] != k["dma"], f"two faults, two keys: {k}")
    one_waived(k)
    merged(all_waived(k))
    sys.exit(verdict())
