#!/usr/bin/env python3
"""otpu-regress on hostile and unusual input (issue 25), without the RTL: the tools are stub
scripts in a folder whose name is itself shell code, so the whole file runs in seconds.

The tables: refusals() and merge_refusals() hold rows (arguments and prepared inputs, the
words of the line) that want exit status 2 and exactly one stderr line holding the words; the
run rows (bad_files, exit_statuses, control_bytes, hostile_names, killed_shard,
slurm_lost_task) want their run to go on and to record what it met (the test's kind and
one-line message). Every row also wants no traceback and no raw control byte on stdout or
stderr. The classes: (1) hostile bundle names in repro.sh and the command field, (2)
arguments and output places checked before any test runs, (3) the --out lock, (4) tampered
results.json, (5) merges of parts of different runs or incomplete sets of shards, and --slurm
(with stand-ins for sbatch and squeue) keeping a lost task's tests as failures, (6) files that
are not regular files or are huge, (7) every exit status of otpu-lockstep, unexpected-outcome
its own kind, (8) control bytes never reach the terminal, summary.txt, junit.xml (parsed) or
index.html; and the number grammar. Issue 38's classes: (9) empty values (an unset variable),
(10) --out a folder otpu-regress did not write, an input inside a part of --out a run clears,
an output's place held by a FIFO, a device or a link (each still there afterwards), (11) gen:
specs otpu-gen refuses (the real otpu-gen asked), (12) history rows otpu-regress did not write,
(13) shards whose numbers do not agree, (14) test names that differ only where a folder name
cannot (one folder each), (15) a Config whose first bundles are malformed (the others run),
(16) files nested too deeply (a lock file, mutation.json).

usage: test_regress_bad_input.py OTPU_REGRESS SOURCE_ROOT OTPU_GEN"""
import fcntl
import json
import os
import re
import shlex
import shutil
import socket
import sqlite3
import stat
import subprocess
import sys
import time
import xml.dom.minidom
import xml.etree.ElementTree as ET
from stub_kit import Tally, executable, run_tool, write

REGRESS, ROOT, GEN = (os.path.abspath(a) for a in sys.argv[1:4])
QUICKSTART = os.path.join(ROOT, "examples", "quickstart")
TIMEOUT = 60  # seconds for one otpu-regress run: a hang fails its row, not the suite
# a folder name that runs commands if it is ever pasted into shell code unquoted
HOSTILE_DIR = "tools $(touch MARK) `touch MARK` 'q\" -x"
HOSTILE_BUNDLES = ["nl\nname", "dollar$(touch MARK)", "back`touch MARK`tick", "quote'q\"dq",
                   "sp ace", "-dash", "all $(touch MARK);`touch MARK`'\"\n -x"]
CONTROL_BUNDLES = [b"esc\x1b[31mred", b"ctl\x01\x02\x7f", b"bad-utf8-\xff\xfe", b"cdata]]>",
                   b"lt<gt>amp&"]
STUB = r'''#!/usr/bin/env python3
# a stand-in for otpu-lockstep: logs its argv and cwd, writes what it is told, exits as told
import json, os, sys, time
a = sys.argv[1:]
if os.environ.get("STUB_LOG"):
    with open(os.environ["STUB_LOG"], "a") as f:
        f.write(json.dumps({"argv": a, "cwd": os.getcwd()}) + "\n")
if "--report" in a and os.environ.get("STUB_DIVERGENCE"):
    d = a[a.index("--report") + 1]
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "divergence.json"), "w") as f:
        f.write(os.environ["STUB_DIVERGENCE"])
if len(a) > 1 and os.path.isfile(os.path.join(a[1], "stub-exit")):  # (a bundle's own status)
    with open(os.path.join(a[1], "stub-exit")) as f:
        os.environ["STUB_EXIT"] = f.read().strip()
if os.environ.get("STUB_SAY"):
    with open(os.environ["STUB_SAY"], "rb") as f:
        sys.stdout.buffer.write(f.read())
time.sleep(float(os.environ.get("STUB_SLEEP", "0")))
sys.exit(int(os.environ.get("STUB_EXIT", "0")))
'''

TALLY = Tally("otpu-regress-bad-")
check, tmp, path = TALLY.check, TALLY.scratch, TALLY.path
TOOLS = os.path.join(tmp, HOSTILE_DIR)
LOG = os.path.join(tmp, "stub.log")


def stub(name, text=STUB):
    p = executable(os.path.join(TOOLS, name), text)
    return p


ENV = {"OTPU_LOCKSTEP": stub("otpu-lockstep"), "OTPU_RTL": stub("otpu-rtl", "#!/bin/sh\n"),
       "OTPU_GEN": stub("otpu-gen", "#!/bin/sh\n"), "OTPU_COV": stub("otpu-cov", "#!/bin/sh\n"),
       "OTPU_SHRINK": stub("otpu-shrink", "#!/bin/sh\n"), "STUB_LOG": LOG}


def bundle(folder, name=None):
    """a copy of the quickstart bundle (the stubs never read it)"""
    dst = os.path.join(folder, name) if name else folder
    shutil.copytree(QUICKSTART, dst)
    return dst


def regress(*args, env=None):
    """(exit status, stdout, stderr) of otpu-regress in tmp, stdout and stderr as bytes"""
    return run_tool([REGRESS, *args], tmp, {**os.environ, **ENV, **(env or {})}, TIMEOUT)


def raw_control(data):
    return any((b < 0x20 and b != 0x0a) or b == 0x7f for b in data)


def hygiene(name, out, err):
    """no traceback and no raw control byte in what otpu-regress printed"""
    return check(f"{name}: no traceback, no control byte",
                 b"Traceback" not in err and not raw_control(out) and not raw_control(err),
                 f"stdout {out[-300:]!r} stderr {err[-600:]!r}")


def stub_ran():
    ran = os.path.exists(LOG) and os.path.getsize(LOG) > 0
    if os.path.exists(LOG):
        os.remove(LOG)
    return ran


def refused(name, args, words, no_test=False, env=None):
    """a row of REFUSALS: exit 2, one stderr line with the words"""
    stub_ran()
    rc, out, err = regress(*args, env=env)
    text = err.decode(errors="replace")
    lines = text.splitlines()
    ran = stub_ran()
    check(name, rc == 2 and len(lines) == 1 and all(w in text for w in words) and
          not (no_test and ran),
          f"exit {rc}, {len(lines)} stderr lines {text[-600:]!r}, a test ran: {ran}")
    hygiene(name, out, err)


def results(out):
    """{name: TEST} of an output folder's results.json ({} when there is none)"""
    try:
        with open(os.path.join(out, "results.json")) as f:
            return {t["name"]: t for t in json.load(f)["tests"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        check(f"{out}: results.json", False, e)
        return {}


def read(out, name):
    """an output file's bytes (none when it is missing: that row fails)"""
    try:
        with open(os.path.join(out, name), "rb") as f:
            return f.read()
    except OSError as e:
        check(f"{out}: {name}", False, e)
        return b""


# --- inputs the rows share --------------------------------------------------------------------

ONE = bundle(path("one"))
bundle(path("two"), "a")
bundle(path("two"), "b")
bundle(path("three"), "a")
bundle(path("three"), "b")
bundle(path("three"), "c")
A_FILE = write(path("a-file"), "not a folder\n")
SUITE = write(path("ok.suite"), f"{ONE} name=x\n")
RUN = ["run", "--no-coverage", "--db", "none", "--out", path("o"), ONE]


def shard_folders():
    """the shard folders of one run of 'two' (2 tests, both pass), and a folder of another"""
    for i in (1, 2):
        rc, _, err = regress("run", path("two"), "--shard", f"{i}/2", "--no-coverage", "--db",
                             "none", "--out", path("sh", f"shard-{i}"))
        check(f"shard {i}/2 runs", rc == 0, err[-400:])
    regress("run", path("three"), "--shard", "2/2", "--no-coverage", "--db", "none", "--out",
            path("sh", "other-suite"))
    regress("run", path("two"), "--shard", "1/3", "--no-coverage", "--db", "none", "--out",
            path("sh", "other-total"))
    other = stub("otpu-lockstep-other", STUB + "# another build\n")
    regress("run", path("two"), "--shard", "2/2", "--no-coverage", "--db", "none", "--out",
            path("sh", "other-build"), env={"OTPU_LOCKSTEP": other})
    rc, _, err = regress("merge", path("sh", "shard-1"), path("sh", "shard-2"), "--out",
                         path("merged"), "--db", "none")
    check("the shards of one run merge (exit 0)", rc == 0, err[-400:])


def tampered(name, change):
    """a copy of shard 1 whose results.json is change(its document): a text or a document"""
    d = path("tampered", name)
    shutil.copytree(path("sh", "shard-1"), d)
    p = os.path.join(d, "results.json")
    with open(p) as f:
        new = change(json.load(f))
    write(p, new if isinstance(new, str) else json.dumps(new))
    return d


def edit(fn):
    """a change that edits the document in place"""
    def change(doc):
        fn(doc)
        return doc
    return change


def tampered_file(name, make):
    """a copy of shard 1 whose results.json is what make(path) makes"""
    d = path("tampered", name)
    shutil.copytree(path("sh", "shard-1"), d)
    p = os.path.join(d, "results.json")
    os.remove(p)
    make(p)
    return d


def sqlite_other():
    p = path("other.db")
    db = sqlite3.connect(p)
    db.execute("CREATE TABLE accounts (id INTEGER, owner TEXT)")
    db.commit()
    db.close()
    return p


def db_tampered_row():
    p = path("tampered.db")
    regress(*RUN[:3], p, *RUN[4:])
    db = sqlite3.connect(p)
    db.execute("UPDATE results SET name = X'00ff'")
    db.commit()
    db.close()
    return p


def fifo(p):
    os.mkfifo(p)
    return p


def sparse(p, size):
    with open(p, "wb") as f:
        f.truncate(size)
    return p


def symlink(target, p):
    os.symlink(target, p)
    return p


def locked_out():
    """a run that holds --out (its stub sleeps); the refused second run names its pid"""
    out = path("busy")
    first = subprocess.Popen([REGRESS, "run", ONE, "--no-coverage", "--db", "none", "--out", out],
                             cwd=tmp, env={**os.environ, **ENV, "STUB_SLEEP": "30"},
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    lock = os.path.join(out, "otpu-regress.lock")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not (os.path.exists(lock) and
                                               os.path.getsize(lock) > 0):
        time.sleep(0.1)
    refused("a second run into a locked --out", ["run", ONE, "--no-coverage", "--db", "none",
                                                   "--out", out],
            ["in use", f"pid {first.pid}", f"on {socket.gethostname()}", "started",
             "--out"])
    refused("a merge into a locked --out", ["merge", path("sh", "shard-1"),
                                            path("sh", "shard-2"), "--out", out, "--db", "none"],
            ["in use", f"pid {first.pid}"])
    first.terminate()
    first.wait(timeout=30)


def refusals():
    """the REFUSALS table: (name, args, words[, env]); every row exit 2 and one line"""
    ro = path("ro")
    os.makedirs(ro)
    os.chmod(ro, 0o555)
    rows = []
    for v in ("0", "0.5", "-3", "inf", "nan", "1e400", "010", "1025"):
        rows.append((f"-j {v}", ["run", "-j", v, ONE], ["-j", v]))
    for v in ("0", "-1", "inf", "nan", "1e400", "abc", "0x"):
        rows.append((f"--timeout {v}", ["run", "--timeout", v, ONE], ["--timeout", v]))
    for v in ("0/4", "5/4", "1/0", "x", "1/04", "/"):
        rows.append((f"--shard {v}", ["run", "--shard", v, ONE], ["--shard"]))
    rows += [
        ("--tasks 0", ["run", "--slurm", "--tasks", "0", ONE], ["--tasks"]),
        ("--shard with --slurm", ["run", "--slurm", "--shard", "1/2", ONE], ["--slurm"]),
        ("--sbatch-args unbalanced", ["run", "--slurm", "--sbatch-args", "'x", ONE],
         ["--sbatch-args"]),
        ("history --runs 0", ["history", "--runs", "0"], ["--runs"]),
        ("--rounds 0", ["run", "--rounds", "0", ONE], ["--rounds"]),
        ("--rounds 101", ["run", "--rounds", "101", ONE], ["--rounds"]),
        ("--rounds with --shard", ["run", "--rounds", "2", "--shard", "1/2", ONE],
         ["--rounds", "--shard"]),
        ("--rounds with --slurm", ["run", "--rounds", "2", "--slurm", ONE], ["--rounds"]),
        ("--rounds with --no-coverage", ["run", "--rounds", "2", "--no-coverage", ONE],
         ["--no-coverage"]),
        ("--budget without --rounds", ["run", "--budget", "60", ONE], ["--budget"]),
        ("--budget 0", ["run", "--rounds", "2", "--budget", "0", ONE], ["--budget"]),
        ("no subcommand", [], ["required"]),
        # the number grammar in gen entries
        ("gen seed=010", ["run", "gen:dma:seed=010:count=2"], ["seed", "010"]),
        ("gen count=0", ["run", "gen:dma:seed=1:count=0"], ["count"]),
        ("gen count=-1", ["run", "gen:dma:seed=1:count=-1"], ["count"]),
        ("gen seed=1e3", ["run", "gen:dma:seed=1e3:count=1"], ["seed"]),
        ("gen seed too large", ["run", "gen:dma:seed=18446744073709551616:count=1"], ["seed"]),
        ("gen KEY=02", ["run", "gen:dma:seed=1:count=1:S=02"], ["S", "02"]),
        ("gen seed twice", ["run", "gen:dma:seed=1:seed=2:count=1"], ["twice"]),
        ("gen data=nan", ["run", "gen:dma:seed=1:count=1:data=nan"], ["data=", "finite"]),
        ("gen bad family", ["run", "gen:\x1b[31m:seed=1:count=1"], ["FAMILY"]),
        # output places, all before any test runs
        ("--out is a regular file", ["run", "--out", A_FILE, "--db", "none", ONE],
         ["--out", "not a folder"]),
        ("--out under a regular file", ["run", "--out", os.path.join(A_FILE, "sub"), "--db",
                                        "none", ONE], ["--out", "cannot make"]),
        ("--db of another schema", ["run", *RUN[1:3], sqlite_other(), *RUN[4:]],
         ["another program's database"]),
        ("--db of random bytes", ["run", *RUN[1:3], write(path("random.db"),
                                                          os.urandom(4096)), *RUN[4:]],
         ["not an SQLite database"]),
        ("--db that is a folder", ["run", *RUN[1:3], ro, *RUN[4:]], ["a folder"]),
        ("--db under a regular file", ["run", *RUN[1:3], os.path.join(A_FILE, "h.db"),
                                       *RUN[4:]], ["folder does not exist"]),
        ("--db where nothing can be written", ["run", *RUN[1:3], "/proc/otpu-regress.db",
                                               *RUN[4:]], ["--db", "not a usable"]),
        ("--db a FIFO", ["run", *RUN[1:3], fifo(path("fifo.db")), *RUN[4:]], ["FIFO"]),
        ("history --db of random bytes", ["history", "--db", path("random.db")],
         ["not an SQLite"]),
        ("history --db missing", ["history", "--db", path("nowhere.db")], ["no history"]),
        ("history --db with a tampered row", ["history", "--db", db_tampered_row()],
         ["a row otpu-regress did not write"]),
        # suites that are not regular files, or too large, or hold control bytes
        ("a FIFO as the suite", ["run", *RUN[1:-1], fifo(path("fifo.suite"))], ["FIFO"]),
        ("/dev/zero as the suite", ["run", *RUN[1:-1], symlink("/dev/zero",
                                                              path("zero.suite"))],
         ["character device"]),
        ("a huge suite file", ["run", *RUN[1:-1], sparse(path("huge.suite"), 17 << 20)],
         ["more than"]),
        ("a suite line with ESC", ["run", *RUN[1:-1], write(path("esc.suite"),
                                                           f"{ONE} name=\x1b[2J\n")],
         ["control byte"]),
        ("a suite line with NUL", ["run", *RUN[1:-1], write(path("nul.suite"),
                                                           f"{ONE}\0\n")], ["control byte"]),
        ("a suite name= with /", ["run", *RUN[1:-1], write(path("slash.suite"),
                                                          f"{ONE} name=a/b\n")], ["name="]),
        ("a suite file of no entry", ["run", *RUN[1:-1], write(path("empty.suite"), "# x\n")],
         ["no entry"]),
    ]
    if os.geteuid() != 0:  # root writes anyway
        rows.append(("--out in a read-only folder", ["run", "--out", os.path.join(ro, "o"),
                                                    "--db", "none", ONE], ["--out"]))
        ro_db = path("ro.db")
        sqlite3.connect(ro_db).close()
        os.chmod(ro_db, 0o444)
        rows.append(("--db read-only", ["run", *RUN[1:3], ro_db, *RUN[4:]], ["not a usable"]))
    for name, args, words in rows:
        refused(name, args, words, no_test=True)
    os.chmod(ro, 0o755)


def merge_refusals():
    """tampered results.json, foreign and incomplete shard sets: exit 2, one line, and nothing
    merged"""
    s1, s2 = path("sh", "shard-1"), path("sh", "shard-2")

    def merge(name, dirs, words):
        out = path("m-" + name.replace(" ", "-").replace("/", "-"))
        refused(f"merge: {name}", ["merge", *dirs, "--out", out, "--db", "none"], words)
        check(f"merge: {name}: nothing written", not os.path.exists(os.path.join(out,
                                                                                 "results.json")))

    big = 10 ** 30
    docs = {
        "truncated": lambda d: json.dumps(d)[:200],
        "not JSON": lambda d: "<html>not json</html>",
        "another schema": lambda d: {"schema": "someone/else/1", "items": []},
        "an older schema": edit(lambda d: d.update(schema="otpu-regress/results/1")),
        "tests not a list": edit(lambda d: d.update(tests={"a": 1})),
        "a wrong type": edit(lambda d: d["tests"][0].update(time="fast")),
        "a missing key": edit(lambda d: d["tests"][0].pop("status")),
        "an unknown key": edit(lambda d: d["tests"][0].update(extra=1)),
        "a huge number": edit(lambda d: d["tests"][0].update(cycles=big)),
        "1e400": lambda d: re.sub(r'"wall_time": [-0-9.e]+', '"wall_time": 1e400',
                                  json.dumps(d)),
        "NaN": lambda d: re.sub(r'"time": [-0-9.e]+', '"time": NaN', json.dumps(d), 1),
        "nested garbage": lambda d: "[" * 100000 + "]" * 100000,
        "a repro outside": edit(lambda d: d["tests"][0].update(repro="../../..")),
        "a control byte in a name": edit(lambda d: d["tests"][0].update(name="a\x1b[2Jb")),
        "a pass with a kind": edit(lambda d: d["tests"][0].update(kind="crash")),
        "a naive time": edit(lambda d: d["run"].update(started="2024-01-01T00:00:00")),
        "a test twice": edit(lambda d: d["tests"].append(d["tests"][0])),
        "a test less": edit(lambda d: d["tests"].pop()),
    }
    words = {"another schema": ["schema"], "an older schema": ["another version"],
             "a test less": ["tests"], "a test twice": ["second test"],
             "nested garbage": ["nested"]}
    for name, change in docs.items():
        merge(name, [tampered(name.replace(" ", "-"), change), s2],
              ["results.json"] + words.get(name, []) if name != "a test less" else ["tests"])
    for name, make, w in (("results.json a FIFO", fifo, "FIFO"),
                          ("results.json /dev/zero", lambda p: symlink("/dev/zero", p),
                           "character device"),
                          ("results.json huge", lambda p: sparse(p, 300 << 20), "more than")):
        merge(name, [tampered_file(name.replace(" ", "-"), make), s2], ["results.json", w])
    cov = tampered_file("coverage-fifo", lambda p: shutil.copy(os.path.join(s1,
                                                                            "results.json"), p))
    fifo(os.path.join(cov, "coverage.json"))
    merge("coverage.json a FIFO", [cov, s2], ["coverage.json", "FIFO"])
    merge("a shard missing", [s1], ["missing shard 2/2"])
    merge("a shard twice", [s1, s1, s2], ["shard 1/2", "twice"])
    merge("shards of different suites", [s1, path("sh", "other-suite")], ["another suite"])
    merge("different --shard totals", [s1, s2, path("sh", "other-total")], ["totals"])
    merge("shards of another build", [s1, path("sh", "other-build")], ["another build"])
    merge("a folder that is no run", [s1, path("two")], ["not an otpu-regress output folder"])
    refused("merge: a shard folder as --out", ["merge", s1, s2, "--out", s1, "--db", "none"],
            ["one of the shard folders"])
    check("merge: a shard folder as --out: it is left as it was",
          os.path.exists(os.path.join(s1, "results.json")))


def fifo_lock():
    out = path("fifo-lock")
    os.makedirs(out)
    fifo(os.path.join(out, "otpu-regress.lock"))
    refused("a FIFO as the lock file", ["run", ONE, "--no-coverage", "--db", "none", "--out",
                                        out], ["lock file", "FIFO"], no_test=True)


def run_row(name, args, env=None, want=1):
    """a run that goes on: (its output folder's results, stderr); no traceback, no control
    byte, the exit status wanted"""
    rc, out, err = regress(*args, env=env)
    check(f"{name}: exit {want}", rc == want, f"exit {rc}: {err[-800:]!r}")
    hygiene(name, out, err)
    return err


def bad_files():
    """a bundle holding a FIFO, a link to /dev/zero, a socket or a huge file: a bad-input
    failure with one line, never read or copied, and the run goes on"""
    folder = path("badfiles")
    bundle(folder, "good")
    fifo(os.path.join(bundle(folder, "fifo"), "extra.txt"))
    dram = os.path.join(bundle(folder, "zero"), "dram_0.bin")
    os.remove(dram)
    symlink("/dev/zero", dram)
    s = socket.socket(socket.AF_UNIX)
    s.bind(os.path.join(bundle(folder, "sock"), "s"))
    sparse(os.path.join(bundle(folder, "huge"), "prog_0.hex"), 65 << 20)
    sparse(os.path.join(bundle(folder, "hugedram"), "dram_0.bin"), (1 << 30) + 1)
    fifo(os.path.join(bundle(folder, "fifocase"), "case.txt.tmp"))
    os.replace(os.path.join(folder, "fifocase", "case.txt.tmp"),
               os.path.join(folder, "fifocase", "case.txt"))
    out = path("o-badfiles")
    t0 = time.monotonic()
    run_row("bad files in bundles", ["run", folder, "--no-coverage", "--db", "none", "--out",
                                     out], env={"STUB_EXIT": "1"})
    s.close()
    check("bad files: no hang", time.monotonic() - t0 < 30)
    r = results(out)
    for b, w in (("fifo", "FIFO"), ("zero", "character device"), ("sock", "socket"),
                 ("huge", "more than"), ("hugedram", "more than"), ("fifocase", "FIFO")):
        t = r.get(f"badfiles/{b}", {})
        check(f"bad files: {b} is bad input, one line, no repro",
              t.get("kind") == "bad-input" and w in t.get("message", "") and
              "\n" not in t.get("message", "") and t.get("repro") is None and
              not os.path.exists(os.path.join(out, "repro", f"badfiles_{b}")), t)
    check("bad files: the good bundle still ran", r.get("badfiles/good", {}).get("kind") ==
          "divergence", r.get("badfiles/good"))


def exit_statuses():
    """each documented exit status is its kind; unexpected-outcome everywhere as itself;
    anything else a crash naming the status"""
    out, db = path("o-exit"), path("exit.db")
    say = write(path("say6"), "lockstep: UNEXPECTED OUTCOME: RTL and model agree on a clean "
                              "run, but the bundle expects an error\n")
    for status, kind, words in ((0, None, "pass"), (1, "divergence", ""), (2, "bad-input", ""),
                                (3, "timeout", ""), (4, "build-failed", ""), (5, "crash", ""),
                                (6, "unexpected-outcome", "UNEXPECTED OUTCOME"),
                                (7, "crash", "status 7"), (127, "crash", "status 127"),
                                (130, "crash", "signal 2"), (255, "crash", "status 255")):
        run_row(f"exit {status}", ["run", ONE, "--no-coverage", "--db", db, "--out", out],
                env={"STUB_EXIT": str(status), "STUB_SAY": say}, want=0 if status == 0 else 1)
        t = results(out).get("one/one", {})
        check(f"exit {status}: kind {kind}", t.get("kind", "?") == kind and
              words in t.get("message", ""), t)
        if status != 6:
            continue
        check("unexpected-outcome: in summary.json",
              json.loads(read(out, "summary.json"))["by_kind"].get("unexpected-outcome") == 1)
        check("unexpected-outcome: in summary.txt",
              b"unexpected-outcome 1" in read(out, "summary.txt"))
        fail = ET.fromstring(read(out, "junit.xml")).find(".//failure")
        check("unexpected-outcome: a JUnit failure of that type",
              fail is not None and fail.get("type") == "unexpected-outcome")
        check("unexpected-outcome: on the page",
              b">unexpected-outcome</span>" in read(out, "index.html"))
        kinds = [k for (k,) in sqlite3.connect(db).execute("SELECT kind FROM results")]
        check("unexpected-outcome: in the history", kinds[-1] == "unexpected-outcome", kinds)


def control_bytes():
    """bundle names and tool messages with control bytes, ESC, invalid UTF-8, ]]>, < and &:
    junit.xml parses, and nothing raw reaches the outputs people read"""
    folder = path(b"ctl".decode())
    for name in CONTROL_BUNDLES:
        bundle(folder, os.fsdecode(name))
    say = write(path("say-ctl"), b"lockstep: DIVERGENCE \x1b[31mred\x1b[0m \x00 \xff\xfe ]]> "
                                 b"<b>&amp; \x07bell\n")
    out = path("o-ctl")
    run_row("control bytes", ["run", folder, "--no-coverage", "--db", path("ctl.db"), "--out",
                              out], env={"STUB_EXIT": "1", "STUB_SAY": say})
    junit = read(out, "junit.xml")
    try:
        cases = ET.fromstring(junit).findall(".//testcase")
        xml.dom.minidom.parseString(junit)
        check("control bytes: junit.xml parses (ElementTree, minidom)",
              len(cases) == len(CONTROL_BUNDLES))
    except Exception as e:  # any parser error is this row's failure
        check("control bytes: junit.xml parses (ElementTree, minidom)", False, e)
    for f in ("junit.xml", "summary.txt", "index.html", "summary.json", "results.json"):
        data = read(out, f)
        check(f"control bytes: none raw in {f}", data and not raw_control(data))
    r = results(out)
    msg = next(iter(r.values()), {}).get("message", "")
    check("control bytes: the message shows them as \\xNN", "\\x1b[31m" in msg and
          "\\xff" in msg and "]]>" in msg, msg)
    check("control bytes: the names show them as \\xNN",
          "ctl/esc\\x1b[31mred" in r and "ctl/bad-utf8-\\xff\\xfe" in r, sorted(r))
    rc, hout, herr = regress("history", "--db", path("ctl.db"))
    hygiene("control bytes: history", hout, herr)


def hostile_names():
    """bundle names that are shell code: repro.sh parses (sh -n), runs exactly its bundle with
    exactly its plusarg, and nothing injected runs; the command field names the bundle"""
    folder = path("hostile")
    for name in HOSTILE_BUNDLES:
        bundle(folder, name)
    plus = "+otpu_x=$(touch MARK)`touch MARK`'\""
    suite = write(path("hostile.suite"), f"{shlex.quote(folder)} {shlex.quote(plus)}\n")
    div = json.dumps({"kind": "wrong-value", "repro": "OTPU_SOURCE_ROOT='/x $(touch MARK)' "
                      "OTPU_RTL_KEY=k\\`touch\\ MARK\\` PATH=/evil otpu-lockstep run x"})
    out = path("o-hostile")
    run_row("hostile names", ["run", suite, "--no-coverage", "--db", "none", "--out", out],
            env={"STUB_EXIT": "1", "STUB_DIVERGENCE": div})
    r = results(out)
    check("hostile names: every bundle failed", len(r) == len(HOSTILE_BUNDLES), sorted(r))
    for name in HOSTILE_BUNDLES:
        src = os.path.join(folder, name)
        t = next((t for t in r.values() if t["bundle_path"] == src), None)
        if not check(f"hostile {name!r}: a result", t is not None):
            continue
        check(f"hostile {name!r}: the command field runs the bundle",
              shlex.split(t["command"])[1:] == ["run", src, plus], t["command"])
        sh = os.path.join(out, t["repro"], "repro.sh")
        p = subprocess.run(["sh", "-n", sh], capture_output=True, text=True)
        check(f"hostile {name!r}: sh -n repro.sh", p.returncode == 0, p.stderr)
        stub_ran()
        p = subprocess.run([sh], capture_output=True, text=True, cwd=tmp, timeout=TIMEOUT,
                           env={**os.environ, "STUB_LOG": LOG, "STUB_EXIT": "1"})
        calls = []
        if os.path.exists(LOG):
            with open(LOG) as f:
                calls = [json.loads(line) for line in f]
        stub_ran()
        folder_of = os.path.realpath(os.path.join(out, t["repro"]))
        ok = (p.returncode == 1 and len(calls) == 1 and
              calls[0]["argv"] == ["run", "bundle", "--report", "report-rerun", plus] and
              os.path.samefile(os.path.join(calls[0]["cwd"], "bundle"),
                               os.path.join(folder_of, "bundle")) and
              sorted(os.listdir(os.path.join(folder_of, "bundle"))) ==
              sorted(os.listdir(src) + ["plusargs.txt"]))
        check(f"hostile {name!r}: repro.sh runs exactly its bundle", ok, (p.returncode, calls))
        with open(sh) as f:
            text = f.read()
        check(f"hostile {name!r}: repro.sh sets no PATH", "PATH=" not in text.replace(
            "OTPU_", ""), text)
    marks = [os.path.join(d, f) for d, _, fs in os.walk(tmp) for f in fs if f == "MARK"]
    check("hostile names: no injected command ran (no MARK file)", not marks, marks)
    try:
        ET.parse(os.path.join(out, "junit.xml"))
        check("hostile names: junit.xml parses", True)
    except ET.ParseError as e:
        check("hostile names: junit.xml parses", False, e)


def killed_shard():
    """a shard killed part way (run.json, a results.jsonl cut in its last line): its missing
    test is a crash failure, never missing"""
    d = path("killed-1")
    shutil.copytree(path("sh", "shard-1"), d)
    os.remove(os.path.join(d, "results.json"))
    jl = os.path.join(d, "results.jsonl")
    with open(jl) as f:
        text = f.read()
    write(jl, text[:len(text) // 2])
    out = path("o-killed")
    run_row("a killed shard merged", ["merge", d, path("sh", "shard-2"), "--out", out, "--db",
                                      "none"])
    r = results(out)
    check("a killed shard: its test is a crash failure", len(r) == 2 and any(
        t["kind"] == "crash" and "ended before" in t["message"] for t in r.values()), r)


def slurm_lost_task():
    """--slurm with stand-ins for sbatch (it runs task 1 only) and squeue: the test of the lost
    task 2 is a crash failure, never missing, and an earlier run's shard-2 folder, of the same
    suite and build and all passed, is not taken for it"""
    bin_dir = path("slurm-bin")
    os.makedirs(bin_dir)
    for name, text in (("sbatch", 'for s; do :; done\nSLURM_ARRAY_TASK_ID=1 bash "$s" '
                                  ">/dev/null 2>&1\necho 4242\n"), ("squeue", "exit 0\n")):
        p = write(os.path.join(bin_dir, name), "#!/bin/sh\n" + text)
        os.chmod(p, 0o755)
    out = path("o-slurm")
    rc, _, err = regress("run", path("two"), "--shard", "2/2", "--no-coverage", "--db", "none",
                         "--out", os.path.join(out, "shard-2"))
    check("slurm: an earlier run's shard 2 passed", rc == 0, err[-400:])
    env = {"PATH": bin_dir + os.pathsep + os.environ["PATH"], "SLURM_CONF": SUITE}
    run_row("slurm: a lost task", ["run", path("two"), "--slurm", "--tasks", "2",
                                   "--no-coverage", "--db", "none", "--out", out], env=env)
    r = results(out)
    check("slurm: the lost task's test is a crash failure, the other passed",
          r.get("two/a", {}).get("status") == "pass" and
          r.get("two/b", {}).get("kind") == "crash" and
          "never ran" in r.get("two/b", {}).get("message", ""), r)


def tool_gone():
    """otpu-lockstep that cannot be started once the run began (it was being relinked): each
    test is a crash failure saying so, never a traceback"""
    gone = stub("otpu-lockstep-gone", STUB)
    # (the RTL step runs before the tests: its stand-in takes otpu-lockstep's x bit away)
    remover = stub("otpu-rtl-remover", f"#!/bin/sh\nchmod -x {shlex.quote(gone)}\n")
    rc, out, err = regress("run", "--no-coverage", "--db", "none", "--out", path("o-gone"), ONE,
                           env={"OTPU_LOCKSTEP": gone, "OTPU_RTL": remover})
    hygiene("a tool that cannot be started", out, err)
    res = json.load(open(path("o-gone", "results.json"))) if rc == 1 else {}
    t = (res.get("tests") or [{}])[0]
    check("a tool that cannot be started: a crash failure naming it",
          rc == 1 and t.get("kind") == "crash" and "cannot run" in t.get("message", ""),
          f"exit {rc}: {err[-400:]!r} {t}")


# --- issue 38: a hostile probe's classes ------------------------------------------------------

def empty_values():
    """an unset variable's empty value names no suite, folder or file (it would mean the current
    folder, or the default): refused"""
    out = path("o-empty")
    for name, args, words in (
            ("an empty suite", [*RUN[:5], out, ""], ["SUITE", "empty"]),
            ("--out ''", [*RUN[:5], "", ONE], ["--out", "empty"]),
            ("--db ''", ["run", "--db", "", "--out", out, ONE], ["--db", "empty"]),
            ("--waivers ''", [*RUN, "--waivers", ""], ["--waivers", "empty"]),
            ("--partition ''", ["run", "--slurm", "--partition", "", ONE], ["--partition"]),
            ("merge ''", ["merge", "", "--out", out], ["DIR", "empty"]),
            ("merge --out ''", ["merge", path("sh", "shard-1"), "--out", ""], ["--out"]),
            ("history --db ''", ["history", "--db", ""], ["--db", "empty"])):
        refused(name, args, words, no_test=True)
    check("empty values: no output folder made", not os.path.exists(out))


def snapshot(folder):
    """{path under folder: (its file type, its bytes for a regular file)}"""
    found = {}
    for d, dirs, names in os.walk(folder):
        for n in dirs + names:
            p = os.path.join(d, n)
            mode = os.lstat(p).st_mode
            found[os.path.relpath(p, folder)] = (stat.S_IFMT(mode), read(d, n) if
                                                 stat.S_ISREG(mode) else None)
    return found


# folders that are not otpu-regress's: {path in it: text}
FOREIGN = {"a project with work/": {"work/notes.txt": "mine", "README": "x"},
           "a folder with index.html": {"index.html": "<p>my page</p>"},
           "a folder with repro/ and buckets/": {"repro/x/keep.txt": "k", "buckets/1/y": "y"},
           "a folder of one file": {"notes.txt": "mine"},
           "a folder of a shard-1 that is not a shard": {"shard-1/notes.txt": "mine"}}


def foreign_out():
    """--out on a folder otpu-regress did not write: refused, every file of it left as it was;
    an empty folder, or one of otpu-mutate's results only, is taken"""
    for name, content in FOREIGN.items():
        d = path("foreign", re.sub(r"[^a-z0-9-]", "", name.replace(" ", "-")))
        for rel, text in content.items():
            write(os.path.join(d, rel), text)
        before = snapshot(d)
        for cmd in ([*RUN[:5], d, ONE], ["merge", path("sh", "shard-1"), path("sh", "shard-2"),
                                         "--out", d, "--db", "none"]):
            refused(f"--out {name} ({cmd[0]})", cmd, ["--out", "neither empty nor"],
                    no_test=True)
            check(f"--out {name} ({cmd[0]}): left as it was", snapshot(d) == before)
    for name, content in (("an empty folder", {}), ("a folder of otpu-mutate's results",
                                                    {"mutation.json": "{}", "mutation.txt": "m"})):
        d = path("taken", name.replace(" ", "-").replace("'", ""))
        os.makedirs(d)
        for rel, text in content.items():
            write(os.path.join(d, rel), text)
        rc, out, err = regress(*RUN[:5], d, ONE)
        check(f"--out {name}: the run takes it (exit 0), its files kept",
              rc == 0 and os.path.isfile(os.path.join(d, "index.html")) and
              all(read(d, rel) == text.encode() for rel, text in content.items()), err[-400:])


def inputs_inside_out():
    """an input inside a part of --out that a run removes first (its own repro bundle run again
    into it, say): refused, the input left where it was; one elsewhere in --out is taken"""
    out = path("o-inside")
    regress(*RUN[:5], out, ONE, env={"STUB_EXIT": "1"})
    kept = os.path.join(out, "repro", "one_one", "bundle")
    check("inside: the earlier run left its repro bundle",
          os.path.isfile(os.path.join(kept, "case.txt")))
    linked = bundle(path("linked"))
    os.remove(os.path.join(linked, "dram_0.bin"))
    symlink(os.path.join(kept, "dram_0.bin"), os.path.join(linked, "dram_0.bin"))
    suite_file = write(os.path.join(out, "work", "s.suite"), f"{ONE}\n")
    waiver_file = write(os.path.join(out, "buckets", "w.toml"), "")
    shard_bundle = bundle(os.path.join(out, "shard-2", "b"))
    gen_bundle = bundle(os.path.join(out, "bundles", "x"))
    rows = [
        ("a repro bundle run again into its --out", [*RUN[:5], out, kept], ["repro"]),
        ("a suite file in work/", [*RUN[:5], out, suite_file], ["the suite", "work"]),
        ("a bundle file linked into repro/", [*RUN[:5], out, linked], ["the bundle file",
                                                                       "repro"]),
        ("a bundle in bundles/", [*RUN[:5], out, gen_bundle], ["bundles"]),
        ("--waivers in buckets/", [*RUN[:5], out, ONE, "--waivers", waiver_file],
         ["--waivers", "buckets"]),
        ("--db in work/", ["run", "--no-coverage", "--db", os.path.join(out, "work", "h.db"),
                           "--out", out, ONE], ["--db", "work"]),
        ("a --slurm task's folder", ["run", "--slurm", "--tasks", "2", *RUN[1:5], out,
                                     shard_bundle], ["shard-2"]),
        ("merge of a folder in repro/", ["merge", os.path.join(out, "repro"), "--out", out,
                                         "--db", "none"], ["the shard folder", "repro"]),
    ]
    refused("--out inside a bundle of the run", [*RUN[:5], os.path.join(ONE, "out"), ONE],
            ["--out", "inside the bundle"], no_test=True)
    check("--out inside a bundle of the run: the bundle left as it was",
          not os.path.exists(os.path.join(ONE, "out")))
    before = snapshot(out)
    for name, args, words in rows:
        refused(f"inside --out: {name}", args, words + ["inside"], no_test=True)
        check(f"inside --out: {name}: the folder left as it was", snapshot(out) == before)
    mine = bundle(os.path.join(out, "mine"))
    rc, _, err = regress(*RUN[:5], out, mine)
    check("inside --out, not in a part a run clears: taken (exit 0), kept",
          rc == 0 and os.path.isfile(os.path.join(mine, "case.txt")), err[-400:])


# what a run writes into --out (regress/README.md, "The output folder"): a FIFO, a device or a
# link in one's place is refused, and still there afterwards (the first SOME against each kind,
# the first by merge too; every one against a FIFO)
OUTPUT_NAMES = ["results.json", "index.html", "repro", "summary.txt", "slurm-array.sh",
                "run.json", "results.jsonl", "summary.json", "junit.xml", "buckets.json",
                "coverage.json", "work", "buckets", "code-coverage", "bundles"]
SOME = 3
SPECIALS = ["FIFO", "link to /dev/null"] + (["device"] if os.geteuid() == 0 else [])


def special(kind, p):
    """p made a FIFO, a character device (mknod: root only) or a link to /dev/null; the test
    that it still is"""
    if kind == "FIFO":
        os.mkfifo(p)
        test = stat.S_ISFIFO
    elif kind == "device":
        os.mknod(p, 0o600 | stat.S_IFCHR, os.makedev(1, 3))
        test = stat.S_ISCHR
    else:
        os.symlink("/dev/null", p)
        test = stat.S_ISLNK
    return lambda: os.path.lexists(p) and test(os.lstat(p).st_mode) and \
        stat.S_ISCHR(os.stat(p).st_mode) == (kind != "FIFO")


def output_kinds():
    """every output of otpu-regress (--out itself, each file and folder it writes there, --db)
    against a FIFO, and some of them against a link to /dev/null and (root) a character device:
    exit 2 and one line before the run, and the FIFO or device still there afterwards"""
    base = path("o-kinds-base")
    regress(*RUN[:5], base, ONE)
    rows = [(kind, name) for kind in SPECIALS for name in OUTPUT_NAMES
            if kind == "FIFO" or name in OUTPUT_NAMES[:SOME]]
    for n, (kind, name) in enumerate(rows):
        d = path("kinds", str(n))
        shutil.copytree(base, d)
        p = os.path.join(d, name)
        if os.path.isdir(p):
            shutil.rmtree(p)
        elif os.path.lexists(p):
            os.remove(p)
        still = special(kind, p)
        merge = ["merge", path("sh", "shard-1"), path("sh", "shard-2"), "--out", d, "--db",
                 "none"]
        for cmd in [[*RUN[:5], d, ONE]] + ([merge] if name == OUTPUT_NAMES[0] else []):
            refused(f"{name} a {kind} ({cmd[0]})", cmd, ["--out", name], no_test=True)
            check(f"{name} a {kind} ({cmd[0]}): still a {kind}", still())
    for kind in SPECIALS:
        for what, args in (("--out", [*RUN[:5], "{}", ONE]),
                           ("--db", ["run", "--no-coverage", "--db", "{}", "--out",
                                     path("o-kinds"), ONE]),
                           ("history --db", ["history", "--db", "{}"])):
            p = path("kinds", re.sub(r"[^a-z-]", "", f"{what}-{kind}".replace(" ", "-")))
            still = special(kind, p)
            refused(f"{what} a {kind}", [a.replace("{}", p) for a in args],
                    [os.path.basename(p)], no_test=True)
            check(f"{what} a {kind}: still a {kind}", still())
    check("/dev/null is still a character device", stat.S_ISCHR(os.stat("/dev/null").st_mode))


# gen: specs otpu-gen refuses: (spec, words of its one line)
GEN_ROWS = [("gen:dma:seed=1:count=100001", ["count", "100001"]),
            ("gen:nosuch:seed=1:count=2", ["unknown family"]),
            ("gen:dma:seed=1:count=2:FOO=1", ["FOO", "Config field"]),
            ("gen:dma:seed=1:count=2:S=99", ["S=99"]),
            ("gen:mm:seed=1:count=2:D=7", ["D=7"]),
            ("gen:dma:seed=1:count=2:rev=nosuch", ["nosuch", "revision"]),
            ("gen:dma:seed=1:count=2:rev=acf0c1c6:STREAM=1", ["STREAM", "acf0c1c6"]),
            ("gen:stream:seed=1:count=2:DSTEP=0:STREAM=0", ["stream", "DSTEP"])]


def gen_specs():
    """each gen: spec asked of otpu-gen (the real one) before the first test: refused with its
    one line, exit 2, no output folder made, no test run (as an argument; the first two on a
    suite file's line after a good entry too); a good spec runs"""
    env = {"OTPU_GEN": GEN}
    for n, (spec, words) in enumerate(GEN_ROWS):
        for how, arg in [("argument", spec)] + [("suite file", write(
                path("gen-suites", f"{n}.suite"), f"{ONE}\n{spec}\n"))] * (n < 2):
            out = path("o-gen", re.sub(r"[^a-z0-9]", "-", spec + how))
            stub_ran()
            rc, so, se = regress(*RUN[:5], out, arg, env=env)
            lines = se.decode(errors="replace").splitlines()
            check(f"{spec} ({how}): exit 2, one line, otpu-gen's words, nothing made or run",
                  rc == 2 and len(lines) == 1 and "otpu-gen refuses" in lines[0] and
                  all(w in lines[0] for w in words) and not os.path.exists(out) and
                  not stub_ran(), f"exit {rc}: {se[-600:]!r}")
            hygiene(f"{spec} ({how})", so, se)
    rc, _, se = regress(*RUN[:5], path("o-gen-good"), "gen:dma:seed=1:count=2", env=env)
    check("a good gen: spec: generated and run (exit 0, 2 tests)", rc == 0 and len(
        results(path("o-gen-good"))) == 2, se[-600:])


def db_tampered(base, name, sql):
    """a copy of the history database base, changed by sql"""
    p = shutil.copy(base, path("dbs", re.sub(r"[^a-z0-9]", "-", name) + ".db"))
    db = sqlite3.connect(p)
    db.executescript(sql)
    db.commit()
    db.close()
    return p


# rows otpu-regress did not write: (name, the SQL that makes one)
HISTORY_ROWS = [
    ("a name that is a blob", "UPDATE results SET name = X'00ff'"),
    ("a status of neither", "UPDATE results SET status = 'maybe'"),
    ("a failure of no kind", "UPDATE results SET status = 'fail'"),
    ("a kind no result has", "UPDATE results SET status = 'fail', kind = 'weird'"),
    ("a pass with a kind", "UPDATE results SET kind = 'crash'"),
    ("a negative count", "UPDATE runs SET tests = -1"),
    ("counts that do not add up", "UPDATE runs SET passed = 5, failed = 5, tests = 1"),
    ("failures by kind nested deep", "UPDATE runs SET by_kind = '" + "[" * 5000 + "]" * 5000 +
     "'"),
    ("failures by kind a huge number", "UPDATE runs SET by_kind = '{\"crash\": " + "9" * 5000 +
     "}'"),
    ("failures by kind of text", "UPDATE runs SET by_kind = '{\"crash\": \"x\"}'"),
    ("an endless wall time", "UPDATE runs SET wall = 1e999"),
    ("a coverage of 1000 %", "UPDATE runs SET coverage = 1000"),
    ("a result of no run", "INSERT INTO results VALUES (99, 'x/y', 'pass', NULL, 'pass', '')"),
    ("a bucket of no run", "INSERT INTO buckets VALUES (99, 'crash/-', 'w', 1)"),
    ("a bucket's count of text", "INSERT INTO buckets SELECT id, 'crash/-', 'w', 'many' FROM "
     "runs"),
]


def history_rows():
    """a history database holding a row otpu-regress did not write: found when it is opened,
    before the first test (exit 2, one line; no test run, no page, no work/ left), by run (and
    by history, every third row)"""
    base = path("dbs", "base.db")
    os.makedirs(os.path.dirname(base))
    regress(*RUN[:3], base, *RUN[4:])
    for n, (name, sql) in enumerate(HISTORY_ROWS):
        db = db_tampered(base, name, sql)
        out = path("o-db", str(n))
        refused(f"history row: {name} (run)", ["run", "--no-coverage", "--db", db, "--out", out,
                                               ONE], ["did not write"], no_test=True)
        check(f"history row: {name} (run): no page, no results, no work/",
              not any(os.path.exists(os.path.join(out, f)) for f in ("index.html", "work",
                                                                      "results.jsonl")))
        if n % 3 == 0:  # (the history command opens it the same way)
            refused(f"history row: {name} (history)", ["history", "--db", db],
                    ["did not write"])


def moved_test():
    """shard 1 holding shard 2's test too, shard 2 none: the total is right, the shares not"""
    one, two = path("moved", "s1"), path("moved", "s2")
    shutil.copytree(path("sh", "shard-1"), one)
    shutil.copytree(path("sh", "shard-2"), two)
    with open(os.path.join(two, "results.json")) as f:
        doc2 = json.load(f)
    with open(os.path.join(one, "results.json")) as f:
        doc1 = json.load(f)
    doc1["tests"] += doc2["tests"]
    doc2["tests"] = []
    write(os.path.join(one, "results.json"), json.dumps(doc1))
    write(os.path.join(two, "results.json"), json.dumps(doc2))
    return [one, two]


def with_coverage(name, text):
    """a copy of shard 1 with a coverage.json of text"""
    d = tampered(name, lambda doc: json.dumps(doc))
    write(os.path.join(d, "coverage.json"), text)
    return d


def merge_numbers():
    """numbers of shards that do not agree with what they must, coverage.json nested too deeply,
    of a number of thousands of digits or refused by otpu-cov: refused, nothing merged"""
    s2 = path("sh", "shard-2")
    cov_refuses = stub("otpu-cov-refuses", "#!/bin/sh\necho 'otpu-cov: not a coverage file' >&2"
                                           "\nexit 2\n")
    rows = [("a pass with exit status 1", [tampered("exit-1", edit(
                lambda d: d["tests"][0].update(exit=1))), s2], ["exit status 1"], None),
            ("a test longer than its run", [tampered("long", edit(
                lambda d: d["tests"][0].update(time=d["run"]["wall_time"] + 100))), s2],
             ["longer than the run"], None),
            ("a test moved to the other shard", moved_test(), ["holds 2 tests", "has 1"], None),
            ("coverage.json nested deep", [with_coverage("cov-deep", "[" * 100000 +
                                                         "]" * 100000), s2],
             ["coverage.json", "nested too deeply"], None),
            ("coverage.json a number of 5000 digits", [with_coverage(
                "cov-huge", '{"groups": ' + "9" * 5000 + "}"), s2], ["coverage.json", "not JSON"],
             None),
            ("coverage.json otpu-cov refuses", [with_coverage("cov-refused", '{"groups": 1}'),
                                                s2], ["coverage.json", "not a coverage file"],
             {"OTPU_COV": cov_refuses})]
    for name, dirs, words, env in rows:
        out = path("m-num-" + name.replace(" ", "-"))
        refused(f"merge: {name}", ["merge", *dirs, "--out", out, "--db", "none"], words,
                env=env)
        check(f"merge: {name}: nothing written",
              not os.path.exists(os.path.join(out, "results.json")))


# test names that differ only in characters a folder name cannot keep as they are: each its own
# repro folder, the plain ones as they always were
NAME_BUNDLES = ["x y", "x_y", "x%20y", "x\\y", "x.y", "x:y", "x~y", "M" * 250]


def colliding_names():
    folder = path("names")
    for n in NAME_BUNDLES:
        write(os.path.join(bundle(folder, n), "name.txt"), n)
    b_c, c = bundle(path("ents", "a"), "b_c"), bundle(path("ents", "b"), "c")
    for b in (b_c, c):
        write(os.path.join(b, "name.txt"), os.path.basename(b))
    suite = write(path("names.suite"), f"{folder}\n{b_c} name=a\n{c} name=a_b\n"
                                       f"{folder} name={'L' * 200}\n")
    out = path("o-names")
    run_row("names that differ only where a folder name cannot", [*RUN[:5], out, suite],
            env={"STUB_EXIT": "1"})
    r = results(out)
    folders = [t["repro"] for t in r.values()]
    check("names: every test has a result and a repro folder of its own",
          len(r) == 2 * len(NAME_BUNDLES) + 2 and None not in folders and
          len(set(folders)) == len(folders), sorted(folders))
    check("names: each repro folder holds its own test's bundle", all(
        read(os.path.join(out, t["repro"], "bundle"), "name.txt") ==
        os.path.basename(t["bundle_path"]).encode() for t in r.values()), sorted(r))
    check("names: plain names keep their folders (names_x_y, a_b_c)",
          os.path.isdir(os.path.join(out, "repro", "names_x_y")) and
          os.path.isdir(os.path.join(out, "repro", "a_b_c")))
    check("names: every folder name within 255 bytes",
          all(len(os.path.basename(f).encode()) <= 255 for f in folders))
    check("names: summary, JUnit and the page written", all(
        os.path.isfile(os.path.join(out, f)) for f in ("summary.json", "junit.xml",
                                                       "index.html")))


CONFIG = "".join(f"{k}={v}\n" for k, v in (("S", 1), ("D", 32), ("MCOLS", 8),
                                           ("ACT_BLOCKS", 64), ("TMEM_WORDS", 65536),
                                           ("DRAM_BYTES", 262144), ("IMEM_WORDS", 65536),
                                           ("LANES", 8), ("PAIR", 0), ("DSTEP", 0),
                                           ("STREAM", 0), ("ACT_ROWS", 0)))
# a Config's bundles, the first ones malformed: (bundle, case.txt, its stub-exit, a FIFO in it,
# the kind wanted, words of its message)
CONFIG_ROWS = [
    ("a-malformed", CONFIG + "expect=ok\nbogus line\n", "2", False, "bad-input", ""),
    ("b-fifo", CONFIG + "expect=ok\n", "0", True, "bad-input", "FIFO"),
    ("c-no-config", "expect=ok\n", "2", False, "bad-input", ""),
    ("d-diverges", CONFIG + "expect=ok\n", "1", False, "divergence", ""),
    ("e-passes", CONFIG + "expect=ok\n", "0", False, None, "pass"),
    ("f-s99", CONFIG.replace("S=1\n", "S=99\n") + "expect=ok\n", "0", False, "bad-input",
     "S=99"),
]
RTL_STUB = r"""#!/bin/sh
# a stand-in for otpu-rtl: logs its arguments; refuses a bundle (as a malformed one) and S=99
echo "$*" >>"$RTL_LOG"
for a; do
  case $a in
    --bundle) echo "otpu-rtl: given a bundle" >&2; exit 2 ;;
    S=99) echo "otpu-rtl: config S=99: slices must be 1..64" >&2; exit 2 ;;
  esac
done
"""


def config_bundles():
    """a Config built from its fields, never from its first bundle: malformed first bundles are
    each their own bad input, the others of the Config run (a divergence among them found), a
    Config otpu-rtl refuses is each of its tests' own bad input"""
    folder = path("cfg")
    for name, case, status, fifo_in, _, _ in CONFIG_ROWS:
        d = bundle(folder, name)
        write(os.path.join(d, "case.txt"), case)
        write(os.path.join(d, "stub-exit"), status)
        if fifo_in:
            fifo(os.path.join(d, "extra.txt"))
    log = path("rtl.log")
    out = path("o-cfg")
    run_row("a Config whose first bundles are malformed", [*RUN[:5], out, folder],
            env={"OTPU_RTL": stub("otpu-rtl-cfg", RTL_STUB), "RTL_LOG": log})
    r = results(out)
    for name, _, _, _, kind, words in CONFIG_ROWS:
        t = r.get(f"cfg/{name}", {})
        check(f"Config: {name} is judged on its own input ({kind or 'pass'})",
              t.get("kind", "?") == kind and words in t.get("message", ""), t)
    with open(log) as f:
        calls = f.read()
    check("Config: otpu-rtl built from the fields, never from a bundle",
          "--bundle" not in calls and calls.count("build") == 2 and "S=1 D=32" in calls, calls)


def deep_files():
    """files nested deeper than a parser goes: a lock file's holder not said, mutation.json on
    the page as a file that cannot be read; one line, never a traceback"""
    out = path("o-deep")
    regress(*RUN[:5], out, ONE)
    write(os.path.join(out, "mutation.json"), "[" * 100000 + "]" * 100000)
    rc, so, se = regress(*RUN[:5], out, ONE)
    hygiene("mutation.json nested deep", so, se)
    check("mutation.json nested deep: the run ends (exit 0), the page says it cannot be read",
          rc == 0 and b"mutation.json cannot be read" in read(out, "index.html"), se[-400:])
    lock = os.path.join(out, "otpu-regress.lock")
    write(lock, "[" * 60000)
    with open(lock) as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        refused("a lock file nested deep, held", [*RUN[:5], out, ONE],
                ["in use", "does not say which"], no_test=True)


def main():
    return TALLY.run((tool_gone, shard_folders, refusals, merge_refusals, fifo_lock,
                      locked_out, bad_files, exit_statuses, control_bytes, hostile_names,
                      killed_shard, slurm_lost_task, empty_values, foreign_out,
                      inputs_inside_out, output_kinds, gen_specs, history_rows, merge_numbers,
                      colliding_names, config_bundles, deep_files), tmp)


if __name__ == "__main__":
    sys.exit(main())
