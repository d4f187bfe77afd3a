#!/usr/bin/env python3
"""otpu-regress's failure buckets (regress/otpu_regress/buckets.py), without the RTL: seconds.

(1) In process, on fabricated test records: signatures from divergence.json (and the fallbacks
    of the other kinds, of a report without a usable signature), the buckets' order (count,
    then key), summary.json (buckets first), summary.txt (buckets before the rest), results.json
    read back (a failure has a bucket, a pass none), JUnit (one testcase per test, the bucket's
    key in its failure message), the page (the buckets table first, escaped), and the history:
    a bucket new on night 1 is not new on night 2 and keeps its first night, a bucket gone on
    night 2 is said, a database of the schema before buckets is migrated and its runs count
    as unknown, one with another buckets table is refused.
(2) otpu-regress run with stub tools: each bucket's member shrunk once in the background, the
    budget (--shrink-time) bounding a shrink that never ends, a shrunk repro run again (the
    same signature, or another one said), the files of buckets/<n>, two nights into one
    database and the history command's new and gone buckets, shards merged into the same
    buckets as one run (with the shards' shrunk repros), --no-shrink-buckets.
(3) Bad input: --shrink-time values, a divergence.json without a signature, with a hostile one
    (control bytes, huge, of another shape), larger than its bound, a shard's buckets.json
    tampered or of numbers that are not its failures' (a count, a member, a number, a shrink
    that grew), databases of an older and of an unknown schema: exit 2 and one line, or the
    bucket defined for it; never a traceback.

usage: test_regress_buckets.py OTPU_REGRESS SOURCE_ROOT"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from stub_kit import LOCKSTEP, SHRINK, Tally, executable, regress_args, run_tool, write

REGRESS, ROOT, QUICKSTART = regress_args(sys.argv[1:3])
from otpu_regress import buckets, history, html, report, results  # noqa: E402

TALLY = Tally("otpu-regress-buckets-")
check, tmp, path = TALLY.check, TALLY.scratch, TALLY.path
TIMEOUT, LOG = 120, path("stub.log")


def stub(name, text):
    return executable(path("tools", name), text)


ENV = {"OTPU_LOCKSTEP": stub("otpu-lockstep", LOCKSTEP), "OTPU_SHRINK": stub("otpu-shrink", SHRINK),
       "OTPU_RTL": stub("otpu-rtl", "#!/bin/sh\n"), "OTPU_GEN": stub("otpu-gen", "#!/bin/sh\n"),
       "OTPU_COV": stub("otpu-cov", "#!/bin/sh\n"), "STUB_LOG": LOG}


def regress(*args, env=None):
    """(exit status, stdout, stderr) of otpu-regress"""
    return run_tool([REGRESS, *args], tmp, {**os.environ, **ENV, **(env or {})}, TIMEOUT,
                    text=True)


def hygiene(name, out, err):
    check(f"{name}: no traceback, no raw control byte", "Traceback" not in err and not any(
        (ord(c) < 0x20 and c != "\n") or ord(c) == 0x7f for c in out + err), err[-800:])


def load(*parts):
    with open(path(*parts)) as f:
        return json.load(f)


def signature(key, words):
    return {"key": key, "words": words}


def divergence(kind, unit, disasm, space, sig=None):
    d = {"schema": "otpu-lockstep/divergence/1", "kind": kind, "detail": f"{kind} detail",
         "slice": 0, "cycle": 100, "unit": unit,
         "instruction": {"n": 4, "pc": 4, "disasm": disasm},
         "location": {"space": space, "address": 64, "mask": 15},
         "repro": "OTPU_SOURCE_ROOT=/src OTPU_RTL_KEY=lib-0123 otpu-lockstep run b"}
    if sig is not None:
        d["signature"] = sig
    return d


SIG_A = signature("wrong-value/VPU/VOP/TMEM/sign", "wrong-value: VPU VOP, TMEM, the sign")
SIG_B = signature("wrong-value/MXU/MM/TMEM/value", "wrong-value: MXU MM, TMEM, a wrong value")
SIG_C = signature("missing-write/DMA/ST/DRAM/-", "missing-write: DMA ST, DRAM")


# --- (1) in process ------------------------------------------------------------------------

def record(name, status="fail", kind="divergence", exit=1, message="m", div=None, report_dir=None,
           time_=1.0):
    suite, _, bundle = name.partition("/")
    rec = {"name": name, "suite": suite, "bundle": bundle, "bundle_path": "/b/" + name,
           "plusargs": [], "status": status, "kind": None if status == "pass" else kind,
           "message": message, "divergence": None, "cycles": 10, "instructions": 5,
           "time": time_, "exit": 0 if status == "pass" else exit,
           "repro": None, "command": f"otpu-lockstep run /b/{name}", "input_hash": "0" * 64}
    if div is not None:
        rec["divergence"] = {k: div.get(k) for k in ("kind", "detail", "slice", "cycle",
                                                     "instruction", "unit", "location")}
    rec["bucket"] = buckets.of_test(rec, report_dir)
    return rec


def report_dir(name, doc):
    d = path("reports", name)
    write(os.path.join(d, "divergence.json"), doc if isinstance(doc, str) else json.dumps(doc))
    return d


def fabricated():
    """the records of one night: several signatures, every kind, two passes"""
    recs = []
    for i in range(3):
        d = divergence("wrong-value", "VPU", "VOP rsub dst=1", "TMEM", SIG_A)
        recs.append(record(f"fp/a{i}", div=d, report_dir=report_dir(f"a{i}", d)))
    for i in range(2):
        d = divergence("wrong-value", "MXU", "MM sa=0", "TMEM", SIG_B)
        recs.append(record(f"mm/b{i}", div=d, report_dir=report_dir(f"b{i}", d)))
        d = divergence("missing-write", "DMA", "ST dram=0", "DRAM", SIG_C)
        recs.append(record(f"dma/c{i}", div=d, report_dir=report_dir(f"c{i}", d)))
        recs.append(record(f"slow/t{i}", kind="timeout", exit=None,
                           message="no verdict within the 600 s wall-clock limit"))
    recs += [
        record("x/crash", kind="crash", exit=139,
               message="otpu-lockstep stopped by signal 11 (no verdict)"),
        record("x/unexpected", kind="unexpected-outcome", exit=6,
               message="lockstep: UNEXPECTED OUTCOME: RTL and model agree on a hazard error the "
                       "bundle does not expect (expect=ok): the program is wrong, not the RTL"),
        record("x/build", kind="build-failed", exit=4, message="otpu-rtl: the build failed"),
        record("x/fifo", kind="bad-input", exit=None, message="x/fifo: not a regular file"),
        record("x/pass1", status="pass"), record("x/pass2", status="pass"),
    ]
    return recs


def in_process():
    recs = fabricated()
    by = {r["name"]: r for r in recs}
    check("of_test: a divergence's bucket is its report's signature",
          by["fp/a0"]["bucket"] == SIG_A, by["fp/a0"]["bucket"])
    want = {"slow/t0": "timeout/wall-clock", "x/crash": "crash/signal-11",
            "x/unexpected": "unexpected-outcome/ok-vs-hazard-error",
            "x/build": "build-failed/-", "x/fifo": "bad-input/bundle"}
    got = {n: by[n]["bucket"]["key"] for n in want}
    check("of_test: the other kinds' signatures", got == want, got)
    check("of_test: a pass has no bucket", by["x/pass1"]["bucket"] is None)
    for kind, exit_, msg, key in (
            ("unexpected-outcome", 6, "lockstep: UNEXPECTED OUTCOME: RTL and model agree on a "
             "clean run, but the bundle expects an error (any) (9 cycles)", "error-vs-clean"),
            ("unexpected-outcome", 6, "lockstep: UNEXPECTED OUTCOME: RTL and model agree on a "
             "bounds error, the bundle expects a hazard error ('hazard'): x (9 cycles)",
             "hazard-error-vs-bounds-error"),
            ("unexpected-outcome", 6, "lockstep: UNEXPECTED OUTCOME: RTL and model agree, but "
             "the host's steps fail: step 3 (9 cycles)", "host-steps"),
            ("unexpected-outcome", 6, "something else", "-"),
            ("crash", 5, "lockstep: the simulator crashed", None),
            ("crash", 7, "otpu-lockstep exited with status 7", None),
            ("timeout", 3, "lockstep: TIMEOUT: no end within 100 cycles (--max-cycles)", None),
            ("bad-input", 2, "otpu-lockstep: +otpu_flip_unit=99 is out of range", None)):
        b = record("k/k", kind=kind, exit=exit_, message=msg)["bucket"]["key"]
        expect = {"crash": {5: "crash/simulator", 7: "crash/status-7"}.get(exit_),
                  "timeout": "timeout/max-cycles", "bad-input": "bad-input/tool"}.get(
            kind, f"unexpected-outcome/{key}")
        check(f"of_test: {kind} exit {exit_} is {expect}", b == expect, b)
    # signatures of a report that are not the checker's: the bucket made from its facts
    long_key = "wrong-value/VPU/VOP/TMEM/" + "x" * 40
    for what, sig in (("words with a control byte", signature(SIG_A["key"], "wrong\x1b[2J")),
                      ("words of 320 characters", signature(SIG_A["key"], "w" * 320)),
                      ("empty words", signature(SIG_A["key"], "")),
                      ("a key of 4 parts", signature("wrong-value/VPU/VOP/TMEM", "w")),
                      ("a key of 6 parts", signature(SIG_A["key"] + "/x", "w")),
                      ("a key part of 41 characters", signature(long_key + "y", "w")),
                      ("a key with a space", signature("wrong-value/VPU/VOP/TMEM/a b", "w")),
                      ("a string", "wrong-value/VPU/VOP/TMEM/sign"),
                      ("null", None)):
        d = divergence("wrong-value", "VPU", "VOP rsub", "TMEM")
        d["signature"] = sig
        b = record("s/s", div=d, report_dir=report_dir("sig", d))["bucket"]
        check(f"a report's signature with {what}: the bucket from its facts",
              b["key"] == "wrong-value/VPU/VOP/TMEM/?" and "no usable signature" in b["words"],
              b)
    d = divergence("wrong-value", "VPU", "VOP rsub", "TMEM", signature(long_key, "w" * 319))
    b = record("s/s", div=d, report_dir=report_dir("sig", d))["bucket"]
    check("a report's signature at its bounds (a part of 40, words of 319): taken",
          b == signature(long_key, "w" * 319), b)
    d = divergence("wrong-\x1b[31mvalue/../..", "V\nPU", "VOP\x00x y", "TMEM")
    b = record("s/s", div=d, report_dir=report_dir("sig", d))["bucket"]
    check("a report without a signature, facts with control bytes and slashes: a key of the "
          "key's characters only", b["key"] == "wrong-31mvalue..../VPU/VOPx/TMEM/?", b)
    lost = {k: v for k, v in record("lost/z", kind="crash", exit=None,
                                    message="shard 2/2 ended").items() if k != "bucket"}
    buckets.assign([lost])
    check("assign: a lost test (no record of its own bucket) is crash/no-result",
          lost["bucket"]["key"] == "crash/no-result", lost.get("bucket"))

    groups = buckets.group(recs)
    order = [(b["n"], b["count"], b["key"]) for b in groups]
    want = [(1, 3, SIG_A["key"]), (2, 2, SIG_C["key"]), (3, 2, "timeout/wall-clock"),
            (4, 2, SIG_B["key"]), (5, 1, "bad-input/bundle"), (6, 1, "build-failed/-"),
            (7, 1, "crash/signal-11"), (8, 1, "unexpected-outcome/ok-vs-hazard-error")]
    check("group: by count, then by key, numbered from 1", order == want, order)
    check("group: a bucket's tests and words", groups[0]["tests"] == ["fp/a0", "fp/a1", "fp/a2"]
          and groups[0]["words"] == SIG_A["words"] and groups[0]["kind"] == "divergence",
          groups[0])
    check("group: every failure in exactly one bucket",
          sorted(n for b in groups for n in b["tests"]) ==
          sorted(r["name"] for r in recs if r["status"] != "pass"))

    out = path("fab")
    os.makedirs(out)
    write(os.path.join(out, "buckets", "1", "bundle", "case.txt"), "x\n")
    write(os.path.join(out, "buckets", "1", "repro.sh"), "#!/bin/sh\n")
    groups[0]["repro"] = {"folder": "buckets/1", "member": "fp/a0", "shrunk": True,
                          "minimal": True, "instructions": [20, 3], "note": "locally minimal",
                          "confirmed": True, "key_again": SIG_A["key"], "env": {},
                          "time": 1.0}
    groups[0]["shrink"] = "shrunk (20 -> 3 instructions; locally minimal)"
    groups[0]["command"] = "otpu-lockstep run /x/buckets/1/bundle"
    groups[1]["words"] = 'x < y && "q" <script>alert(1)</script>'
    run = {"started": "2026-01-02T03:04:05+00:00", "wall_time": 10.0, "host": "h", "jobs": 2,
           "shard": None, "suites": ["s"], "command": ["otpu-regress"], "out": out,
           "identity": {"suite": "0" * 64, "tests": len(recs), "revs": ["current"],
                        "build": "0" * 64, "dut": None}}
    changes = {"new_failures": [], "fixed": [], "still_failing": [], "new_buckets": [],
               "gone_buckets": []}
    summary = report.summarize(run, recs, None, changes, groups)
    report.write_all(out, run, recs, summary)
    report.write_results(out, run, recs)
    buckets.write(out, groups)
    s = load("fab", "summary.json")
    check("summary.json: buckets right after its schema",
          list(s)[:2] == ["schema", "buckets"] and s["schema"] == "otpu-regress/summary/2", list(s))
    check("summary.json: the buckets, in order, with count, words, key, tests",
          [(b["n"], b["count"], b["key"]) for b in s["buckets"]] == want and
          s["buckets"][0]["tests"] == ["fp/a0", "fp/a1", "fp/a2"], s["buckets"][:2])
    check("buckets.json reads back (its schema check)",
          [b["key"] for b in buckets.read(os.path.join(out, "buckets.json"))] ==
          [w[2] for w in want])
    with open(os.path.join(out, "summary.txt")) as f:
        text = f.read()
    check("summary.txt: the buckets before the failures by kind",
          0 < text.find("buckets: 8") < text.find(SIG_A["key"]) < text.find(SIG_C["key"]) <
          text.find("failures by kind"), text[:1500])
    check("summary.txt: a bucket's repro and command",
          "repro: buckets/1/bundle: shrunk (20 -> 3" in text and
          "command: otpu-lockstep run /x/buckets/1/bundle" in text, text[:1500])
    junit = ET.parse(os.path.join(out, "junit.xml")).getroot()
    cases = junit.findall(".//testcase")
    check("junit.xml: one testcase per test", len(cases) == len(recs), len(cases))
    fails = {f"{tc.get('classname')}/{tc.get('name')}": tc.find("failure") for tc in cases}
    ok = all((fails[r["name"]] is None) == (r["status"] == "pass") for r in recs) and all(
        fails[r["name"]].get("message").startswith(f"[{r['bucket']['key']}] ") and
        fails[r["name"]].get("type") == r["kind"] and
        f"bucket: {r['bucket']['key']}" in fails[r["name"]].text
        for r in recs if r["status"] != "pass")
    check("junit.xml: each failure's message names its bucket, its type the kind", ok)
    with open(os.path.join(out, "results.json")) as f:
        text = f.read()
    _, back = results.parse_results(text, "results.json")
    check("results.json reads back with every failure's bucket",
          {t["name"]: t["bucket"] for t in back} == {r["name"]: r["bucket"] for r in recs})
    doc = json.loads(text)
    for what, change in (("a failure without a bucket", lambda d: d["tests"][0].update(
            bucket=None)), ("a pass with a bucket", lambda d: next(
                t for t in d["tests"] if t["status"] == "pass").update(bucket=SIG_A)),
            ("a bucket key with a control byte", lambda d: d["tests"][0].update(
                bucket={"key": "a/\x1b[31m", "words": "w"})),
            ("a bucket key of 2000 characters", lambda d: d["tests"][0].update(
                bucket={"key": "a/" + "b" * 2000, "words": "w"}))):
        bad = json.loads(text)
        change(bad)
        try:
            results.parse_results(json.dumps(bad), "results.json")
            check(f"results.json with {what}: refused", False, "accepted")
        except results.Invalid as e:
            check(f"results.json with {what}: refused, one line", "\n" not in str(e), e)
    del doc

    page = html.render_index(out, summary, recs, [])
    p = Tables(page)
    check("the page: the buckets table is its first table, before the failures",
          p.tables[:2] == ["buckets", "failures"], p.tables)
    check("the page: one bucket row each, in order",
          p.bucket_keys == [w[2] for w in want], p.bucket_keys)
    check("the page: a bucket's words are escaped", "<script>alert" not in page and
          "&lt;script&gt;alert(1)&lt;/script&gt;" in page)
    missing = [h for h in p.hrefs if not h.startswith("#") and
               not os.path.exists(os.path.join(out, h))]
    check("the page: the bucket's links resolve", not missing and
          "buckets/1/bundle" in p.hrefs and "buckets/1/repro.sh" in p.hrefs, (missing, p.hrefs))
    anchors = [h[1:] for h in p.hrefs if h.startswith("#")]
    check("the page: a bucket's members link their failure rows",
          anchors and all(a in p.ids for a in anchors), [a for a in anchors if a not in p.ids])
    history_nights(recs)
    old_schema()


class Tables(HTMLParser):
    def __init__(self, text):
        super().__init__()
        self.tables, self.bucket_keys, self.hrefs, self.ids = [], [], [], set()
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.tables.append(a.get("id"))
        if tag == "tr" and "bucket" in (a.get("class") or "").split():
            self.bucket_keys.append(a.get("data-key"))
        if tag == "a":
            self.hrefs.append(a.get("href"))
        if "id" in a:
            self.ids.add(a["id"])


def night(db, recs, started):
    """what finish does with the history: buckets annotated, then the run recorded"""
    groups = buckets.group(recs)
    ch = history.changes(db, {r["name"]: (r["status"], r["kind"]) for r in recs},
                         history.last_run(db))
    ch.update(buckets.changes(db, groups, started))
    run = {"started": started, "wall_time": 1.0, "suites": ["s"], "out": "o"}
    summary = report.summarize(run, recs, None, ch, groups)
    history.record(db, run, recs, summary)
    return groups, ch


def history_nights(recs):
    path_db = path("h.db")
    db = history.connect(path_db)
    g1, ch1 = night(db, recs, "2026-01-01T02:00:00+00:00")
    check("history night 1: every bucket new, first seen tonight",
          all(b["new"] is True and b["first_seen"] == "2026-01-01T02:00:00+00:00" for b in g1)
          and sorted(ch1["new_buckets"]) == sorted(b["key"] for b in g1), g1[0])
    # night 2: the MXU bucket is gone, a new one comes, the rest stay
    recs2 = [r for r in recs if not r["name"].startswith("mm/")]
    d = divergence("order-violation", None, "LD x", "TMEM",
                   signature("order-violation/-/ST/TMEM/-", "order-violation: a write landed "
                             "while an older ST of that location was in flight, TMEM"))
    recs2.append(record("h/new", div=d, report_dir=report_dir("new", d)))
    g2, ch2 = night(db, recs2, "2026-01-02T02:00:00+00:00")
    a = next(b for b in g2 if b["key"] == SIG_A["key"])
    n = next(b for b in g2 if b["key"] == "order-violation/-/ST/TMEM/-")
    check("history night 2: a bucket of night 1 is not new, first seen on night 1",
          a["new"] is False and a["first_seen"] == "2026-01-01T02:00:00+00:00", a)
    check("history night 2: the new bucket is new tonight",
          n["new"] is True and n["first_seen"] == "2026-01-02T02:00:00+00:00", n)
    check("history night 2: changes name the new and the gone bucket",
          ch2["new_buckets"] == ["order-violation/-/ST/TMEM/-"] and
          ch2["gone_buckets"] == [SIG_B["key"]], ch2)
    text = history.report(history.connect(path_db, create=False))
    check("history: the latest run's new and gone buckets",
          "new buckets (first seen in this run): 1\n  order-violation/-/ST/TMEM/- (1)" in text
          and "gone buckets (in the run before, not in this one): 1\n  "
          f"{SIG_B['key']} (had 2)" in text, text)
    rows = sqlite3.connect(path_db).execute(
        "SELECT run, key, count FROM buckets WHERE key = ? ORDER BY run", (SIG_A["key"],))
    check("history: the buckets table has the bucket on both nights",
          rows.fetchall() == [(1, SIG_A["key"], 3), (2, SIG_A["key"], 3)])


def old_schema():
    """a database written before buckets: migrated by a run (its runs' buckets unknown); the
    history command reads it without a buckets table; one with another buckets table is
    refused"""
    p = path("old.db")
    db = sqlite3.connect(p)
    db.executescript(history.SCHEMA.split("CREATE TABLE IF NOT EXISTS buckets")[0])
    db.execute("INSERT INTO runs (started, tests, passed, failed, by_kind) VALUES "
               "('2025-12-31T02:00:00+00:00', 3, 1, 2, '{}')")
    db.commit()
    db.close()
    text = history.report(history.connect(p, create=False))
    check("an older database: history reads it (no buckets table)",
          "buckets: not recorded (the run predates bucket history)" in text, text)
    db = history.connect(p)
    check("an older database: opened for a run, the buckets table is added",
          history.has_buckets(db))
    groups, ch = night(db, fabricated(), "2026-01-03T02:00:00+00:00")
    check("an older database: a bucket first recorded now is not called new (runs before "
          "may have had it)", all(b["new"] is None for b in groups) and not ch["new_buckets"],
          groups[0])
    text = history.report(db)
    check("an older database: the history command says so",
          "runs before bucket history may have had them" in text and
          "gone buckets: not known (the run before predates bucket history)" in text, text)
    q = path("other.db")
    db = sqlite3.connect(q)
    db.executescript(history.SCHEMA.replace("count INTEGER NOT NULL", "n INTEGER"))
    db.close()
    try:
        history.connect(q)
        check("a database whose buckets table is not otpu-regress's: refused", False)
    except history.HistoryError as e:
        check("a database whose buckets table is not otpu-regress's: refused",
              "buckets" in str(e), e)


# --- (2) and (3): otpu-regress run with stub tools -----------------------------------------

def bundle(folder, name, stubdoc, mode=None):
    d = os.path.join(folder, name)
    shutil.copytree(QUICKSTART, d)
    write(os.path.join(d, "stub.json"), json.dumps(stubdoc))
    if mode:
        write(os.path.join(d, "shrink-mode"), mode + "\n")
    return d


def div_stub(sig, kind="wrong-value", unit="VPU", disasm="VOP rsub", space="TMEM"):
    return {"exit": 1, "say": f"lockstep: DIVERGENCE {kind}",
            "divergence": divergence(kind, unit, disasm, space, sig)}


SIG_H = signature("wrong-value/DMA/LD/TMEM/\x1b[31m", "wrong-value\x07")  # control bytes


def suite_folder():
    f = path("night")
    for i in range(3):
        bundle(f, f"a{i}", div_stub(SIG_A))
    for i in range(2):
        bundle(f, f"b{i}", div_stub(SIG_B, unit="MXU", disasm="MM sa=0"), "other")
    bundle(f, "c0", div_stub(SIG_C, "missing-write", "DMA", "ST dram=0", "DRAM"), "sleep")
    bundle(f, "u0", {"exit": 6, "say": "lockstep: UNEXPECTED OUTCOME: RTL and model agree on a "
                     "clean run, but the bundle expects an error (any) (9 cycles)"})
    bundle(f, "n0", div_stub(None, "stray-write", "QUANT", "QACT x", "ACT"))  # no signature
    bundle(f, "h0", div_stub(SIG_H, unit="DMA", disasm="LD x"))     # a hostile signature
    bundle(f, "g0", div_stub(signature("a/b", "too few parts")))    # another shape
    bundle(f, "z0", {**div_stub(SIG_A), "huge": True})              # past its bound
    bundle(f, "p0", {"exit": 0})
    return f


WANT = {  # key -> count of the night in suite_folder
    SIG_A["key"]: 3, SIG_B["key"]: 2, SIG_C["key"]: 1,
    "unexpected-outcome/error-vs-clean": 1, "stray-write/QUANT/QACT/ACT/?": 1,
    "wrong-value/DMA/LD/TMEM/?": 1, "wrong-value/VPU/VOP/TMEM/?": 1,
    "divergence/no-report": 1}


def shrinks_logged():
    calls = []
    if os.path.exists(LOG):
        with open(LOG) as f:
            calls = [json.loads(line) for line in f]
        os.remove(LOG)
    return [c for c in calls if c["tool"] == "shrink"]


def stub_night():
    folder = suite_folder()
    out, db = path("o1"), path("night.db")
    shrinks_logged()
    t0 = time.monotonic()
    rc, so, se = regress("run", folder, "--no-coverage", "--db", db, "--out", out, "-j", "2",
                         "--shrink-time", "4")
    took = time.monotonic() - t0
    hygiene("stub night", so, se)
    check("stub night: exit 1", rc == 1, se[-1500:])
    s = load("o1", "summary.json")
    got = {b["key"]: b["count"] for b in s["buckets"]}
    check("stub night: the buckets (report signatures; fallbacks for none, hostile, another "
          "shape, too large)", got == WANT, got)
    check("stub night: ordered by count then key",
          [b["key"] for b in s["buckets"]] ==
          sorted(WANT, key=lambda k: (-WANT[k], k)), [b["key"] for b in s["buckets"]])
    calls = shrinks_logged()
    members = {c["argv"][0] for c in calls}
    check("stub night: one member of each bucket shrunk (a round each; the sleeper once)",
          len(calls) == len(WANT) and len(members) == len(calls),
          sorted(c["argv"][0] for c in calls))
    check("stub night: the sleeping shrink was stopped by the budget (4 s), the run went on",
          took < 60, f"{took:.0f} s")
    by = {b["key"]: b for b in s["buckets"]}
    a, b_, c = by[SIG_A["key"]], by[SIG_B["key"]], by[SIG_C["key"]]
    check("stub night: a shrunk repro run again fails the same way",
          a["repro"] and a["repro"]["shrunk"] and a["repro"]["confirmed"] and
          a["repro"]["instructions"] == [20, 3] and "same signature" in a["shrink"], a)
    check("stub night: a shrunk repro failing otherwise is said, with its signature",
          b_["repro"] and not b_["repro"]["confirmed"] and
          b_["repro"]["key_again"] == "wrong-value/DMA/LD/TMEM/value" and
          "fails otherwise" in b_["shrink"] and "fails otherwise" in se, b_)
    check("stub night: the budget-stopped bucket keeps its member's bundle, unshrunk",
          c["repro"] and not c["repro"]["shrunk"] and "budget" in c["shrink"] and
          c["repro"]["confirmed"], c)
    n = by["divergence/no-report"]
    check("stub night: a bucket's folder, bundle, report, repro.sh and its command",
          all(os.path.exists(os.path.join(out, "buckets", "1", f)) for f in
              ("bundle/case.txt", "report/divergence.json", "repro.sh", "shrink.log",
               "output.txt")) and a["repro"]["folder"] == "buckets/1" and
          a["command"].endswith(os.path.join(out, "buckets", "1", "bundle")) and
          a["command"].startswith("OTPU_RTL_KEY=lib-0123 OTPU_SOURCE_ROOT=/src otpu-lockstep "
                                  "run "), a["command"])
    check("stub night: every bucket has a one-line command", all(
        b["command"] and "\n" not in b["command"] for b in s["buckets"]) and n["command"])
    p = subprocess.run([os.path.join(out, "buckets", "1", "repro.sh")], capture_output=True,
                       text=True, env={**os.environ, **ENV}, timeout=60)
    check("stub night: the bucket's repro.sh reruns its bundle (exit 1)", p.returncode == 1,
          p.stdout + p.stderr)
    r = {t["name"]: t for t in load("o1", "results.json")["tests"]}
    check("stub night: results.json has each failure's bucket",
          r["night/a0"]["bucket"] == SIG_A and r["night/p0"]["bucket"] is None and
          r["night/z0"]["bucket"]["key"] == "divergence/no-report", r["night/z0"])
    with open(os.path.join(out, "index.html")) as f:
        page = f.read()
    t = Tables(page)
    check("stub night: the page shows the buckets first", t.tables[:2] == ["buckets",
                                                                           "failures"], t.tables)
    with open(os.path.join(out, "summary.txt"), "rb") as f:
        raw = f.read()
    check("stub night: no raw control byte in summary.txt (a hostile signature)",
          b"\x1b" not in raw and b"\x07" not in raw)

    # night 2: the B bucket is gone, a new one (and no 65 MiB report: merge refuses to copy
    # a repro folder's file past its bound)
    shutil.rmtree(os.path.join(folder, "z0"))
    shutil.rmtree(os.path.join(folder, "b0"))
    shutil.rmtree(os.path.join(folder, "b1"))
    bundle(folder, "o0", div_stub(signature("order-violation/-/ST/TMEM/-", "order-violation"),
                                  "order-violation", None, "LD x"))
    rc, so, se = regress("run", folder, "--no-coverage", "--db", db, "--out", path("o2"),
                         "--shrink-time", "4")
    s2 = load("o2", "summary.json")
    by2 = {b["key"]: b for b in s2["buckets"]}
    check("stub night 2: an old bucket is not new and keeps its first night",
          by2[SIG_A["key"]]["new"] is False and
          by2[SIG_A["key"]]["first_seen"] == s["run"]["started"], by2[SIG_A["key"]])
    check("stub night 2: the new bucket is new tonight",
          by2["order-violation/-/ST/TMEM/-"]["new"] is True)
    check("stub night 2: the gone bucket in the summary's changes",
          s2["changes"]["gone_buckets"] == ["divergence/no-report", SIG_B["key"]] and
          s2["changes"]["new_buckets"] == ["order-violation/-/ST/TMEM/-"], s2["changes"])
    rc, so, se = regress("history", "--db", db)
    hygiene("history", so, se)
    check("history command: new and gone buckets",
          "new buckets (first seen in this run): 1\n  order-violation/-/ST/TMEM/-" in so and
          "gone buckets (in the run before, not in this one): 2\n  divergence/no-report (had "
          f"1): divergence: its report (divergence.json) is missing or is not otpu-lockstep's\n"
          f"  {SIG_B['key']} (had 2)" in so, so)
    return folder


def shards(folder):
    """two shards merged: the buckets of one run, with shrunk repros from the shards"""
    whole = load("o2", "summary.json")["buckets"]
    for i in (1, 2):
        rc, so, se = regress("run", folder, "--no-coverage", "--db", "none", "--shard",
                             f"{i}/2", "--out", path("sh", f"s{i}"), "--shrink-time", "4")
        check(f"shard {i}/2 ran (exit 1)", rc == 1, se[-800:])
    rc, so, se = regress("merge", path("sh", "s1"), path("sh", "s2"), "--out", path("merged"),
                         "--db", "none")
    hygiene("merge", so, se)
    check("merge: exit 1", rc == 1, se[-1500:])
    m = load("merged", "summary.json")["buckets"]
    check("merge: the same buckets, counts and members as one run",
          [(b["key"], b["count"], b["tests"]) for b in m] ==
          [(b["key"], b["count"], b["tests"]) for b in whole], [(b["key"], b["count"]) for b in m])
    a = next(b for b in m if b["key"] == SIG_A["key"])
    check("merge: a bucket's shrunk repro comes from a shard",
          a["repro"] and a["repro"]["confirmed"] and
          os.path.isfile(path("merged", a["repro"]["folder"], "bundle", "case.txt")) and
          a["command"].endswith(path("merged", a["repro"]["folder"], "bundle")), a)
    # a shard's buckets.json tampered, or its numbers not those of the shard's failures: the
    # merge goes on, says so, uses none of its repros
    with open(path("sh", "s1", "buckets.json")) as f:
        good = f.read()

    def edited(fn):
        doc = json.loads(good)
        fn(doc["buckets"])
        check("a tampered buckets.json differs from the shard's", json.dumps(doc) !=
              json.dumps(json.loads(good)))
        return json.dumps(doc)
    for name, text in (("not JSON", "{"), ("hostile", json.dumps(
            {"schema": buckets.BUCKETS_SCHEMA, "buckets": [{"n": 1, "key": "a/\x1b[2J"}]})),
            ("another schema", json.dumps({"schema": "otpu-regress/buckets/9", "buckets": []})),
            ("count one more", edited(lambda bs: bs[0].update(count=bs[0]["count"] + 1))),
            ("test not the shard's", edited(lambda bs: bs[0].update(
                tests=bs[0]["tests"][:-1] + ["zz/no-such-test"]))),
            ("numbered from 2", edited(lambda bs: [b.update(n=b["n"] + 1) for b in bs])),
            ("shrunk to more instructions", edited(lambda bs: [b["repro"].update(
                instructions=[1, 50]) for b in bs if b["repro"]]))):
        d = path("tampered", name.replace(" ", "-"))
        shutil.copytree(path("sh", "s1"), d)
        write(os.path.join(d, "buckets.json"), text)
        rc, so, se = regress("merge", d, path("sh", "s2"), "--out", path("merged-t"), "--db",
                             "none")
        hygiene(f"merge with a {name} buckets.json", so, se)
        mt = load("merged-t", "summary.json")["buckets"] if rc == 1 else []
        check(f"merge with a {name} buckets.json: merged (exit 1), said in one line",
              rc == 1 and [b["key"] for b in mt] == [b["key"] for b in whole] and
              "buckets.json" in se and "not used" in se, se[-800:])


def no_shrink(folder):
    shrinks_logged()
    rc, so, se = regress("run", folder, "--no-coverage", "--db", "none", "--out", path("o3"),
                         "--no-shrink-buckets")
    s = load("o3", "summary.json")
    check("--no-shrink-buckets: buckets without repros, no shrink ran",
          rc == 1 and not shrinks_logged() and all(
              b["repro"] is None and "--no-shrink-buckets" in b["shrink"]
              for b in s["buckets"]) and not os.path.exists(path("o3", "buckets")),
          s["buckets"][0])


def refusals(folder):
    for value in ("0", "-1", "1.5", "010", "abc", "604801", "", "1e3", "0x0"):
        rc, so, se = regress("run", folder, "--no-coverage", "--db", "none", "--out",
                             path("o-bad"), "--shrink-time", value)
        lines = se.strip().splitlines()
        hygiene(f"--shrink-time {value!r}", so, se)
        check(f"--shrink-time {value!r}: exit 2, one line naming it",
              rc == 2 and len(lines) == 1 and "--shrink-time" in se, se)
    p = path("foreign.db")
    db = sqlite3.connect(p)
    db.executescript(history.SCHEMA.replace("words TEXT NOT NULL", "words BLOB, extra TEXT"))
    db.close()
    rc, so, se = regress("run", folder, "--no-coverage", "--db", p, "--out", path("o-bad"))
    check("a database with another buckets table: exit 2, one line",
          rc == 2 and len(se.strip().splitlines()) == 1 and "buckets" in se, se)
    p = path("old-run.db")
    db = sqlite3.connect(p)
    db.executescript(history.SCHEMA.split("CREATE TABLE IF NOT EXISTS buckets")[0])
    db.close()
    rc, so, se = regress("run", folder, "--no-coverage", "--db", p, "--out", path("o-old"),
                         "--no-shrink-buckets")
    hygiene("an older database", so, se)
    check("an older database: the run migrates it (exit 1, buckets recorded)",
          rc == 1 and sqlite3.connect(p).execute("SELECT COUNT(*) FROM buckets").fetchone()[0]
          == len(load("o-old", "summary.json")["buckets"]), se[-800:])


def main():
    try:
        in_process()
        folder = stub_night()
        shards(folder)
        no_shrink(folder)
        refusals(folder)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return TALLY.summary()


if __name__ == "__main__":
    sys.exit(main())
