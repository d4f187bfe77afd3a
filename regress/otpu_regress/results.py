"""The result files of an output folder read back (merge, the Slurm path): results.json,
run.json and results.jsonl (regress/README.md). Each is read as a regular file of bounded size
(files.py), parsed as strict JSON and checked against the schema below as a whole; anything
else is refused with one line naming the file and what is wrong (schema.Invalid), never used
in part."""
import datetime
import os
import re

from . import files, schema
from .buckets import TEST_BUCKET
from .outcome import DIVERGENCE, EXIT_KIND, KINDS
from .schema import Invalid, integer, list_of, nullable, number, one_of, record, string
from .names import safe_name

SCHEMA = "otpu-regress/results/3"
RUN_SCHEMA = "otpu-regress/run/2"
SHARD = re.compile(r"([1-9][0-9]{0,5})/([1-9][0-9]{0,5})")
HEX64 = re.compile(r"[0-9a-f]{64}")
MAX_TESTS = 1 << 24


def _time(v, where):
    """an ISO-8601 time with its zone, in years merge can compute with"""
    try:
        t = datetime.datetime.fromisoformat(v) if isinstance(v, str) and len(v) < 64 else None
    except ValueError:
        t = None
    if t is None or t.tzinfo is None or not 1970 <= t.year <= 2999:
        raise Invalid(f"{where}: an ISO-8601 time with its zone expected")
    return v


def shard_of(text):
    """(I, N) of "I/N", or None when it is not one"""
    m = SHARD.fullmatch(text) if isinstance(text, str) else None
    return (int(m.group(1)), int(m.group(2))) if m and int(m.group(1)) <= int(m.group(2)) \
        else None


def _shard(v, where):
    if shard_of(v) is None:
        raise Invalid(f"{where}: a shard I/N (1 <= I <= N) expected")
    return v


_NAME = string(4096, printable=True)
_PATH = string(1 << 20)  # a path, an argument, a command line
_HASH = string(64, test=HEX64.fullmatch, want="a sha256 in hex")
IDENTITY = record({"suite": _HASH, "tests": integer(0, MAX_TESTS),
                   "revs": list_of(string(64, printable=True), 64), "build": _HASH,
                   "dut": nullable(_PATH)})
# a round of otpu-regress run --rounds (rounds.py)
ROUND = record({"round": integer(1, 1 << 20), "tests": integer(0, MAX_TESTS),
                "failed": integer(0, MAX_TESTS), "time": number(0, 1e9),
                "hit": nullable(integer(0)), "bins": nullable(integer(0)),
                "percent": nullable(number(0, 100)), "new": nullable(integer())},
               {"stopped": string(256, printable=True)})
# (wall_time: a merge of shards started years apart spans years)
RUN = record({"started": _time, "wall_time": number(0, 1e11), "host": string(1 << 16),
              "jobs": integer(0, 1 << 20), "shard": nullable(_shard),
              "suites": list_of(_PATH, 1 << 16), "command": list_of(_PATH, 1 << 16),
              "out": _PATH, "identity": IDENTITY},
             {"merged": list_of(_PATH, 1 << 16), "rounds": list_of(ROUND, 1 << 10),
              # where the command was run; when each --resume of it started (resume.py)
              "cwd": _PATH, "resumed": list_of(_time, 1 << 16)})
_TEST = record({
    "name": _NAME, "suite": _NAME, "bundle": _NAME, "bundle_path": _PATH,
    "plusargs": list_of(_PATH, 1024), "status": one_of("pass", "fail"),
    "kind": nullable(one_of(*KINDS)), "message": string(1 << 16, printable=True),
    "divergence": nullable(DIVERGENCE), "cycles": nullable(integer()),
    "instructions": nullable(integer()), "time": number(0, 1e9),
    "exit": nullable(integer(-255, 255)), "repro": nullable(_PATH), "command": _PATH,
    "input_hash": string(64, test=lambda s: not s or HEX64.fullmatch(s),
                         want="a sha256 in hex, or empty"),
    "bucket": nullable(TEST_BUCKET)},
    {"served": one_of(True, False),
     # the waiver (waivers.py) that matched this failure
     "waived": record({"id": string(64, printable=True), "why": string(4096, printable=True),
                       "link": string(4096, printable=True)})})


def check_test(t, where):
    """a TEST, with what one field says of another: a failure has a kind and a bucket, a pass
    neither, and a repro folder is the test's own (merge copies it)"""
    _TEST(t, where)
    if (t["status"] == "pass") != (t["kind"] is None):
        raise Invalid(f"{where}: status {t['status']} with kind {t['kind']}")
    if (t["status"] == "pass") != (t["bucket"] is None):
        raise Invalid(f"{where}: status {t['status']} with bucket {t['bucket']}")
    if t["status"] == "pass" and "waived" in t:
        raise Invalid(f"{where}: a pass with a waiver")
    # the kind is the exit status's (outcome.py's one table), or bad input found in the
    # bundle after the run (runner.run_test)
    kind_of_exit = EXIT_KIND.get(t["exit"], "crash") if t["exit"] is not None else "?"
    if (t["status"] == "pass") != (t["exit"] == 0) or t["exit"] not in (None, 0) and \
            t["kind"] not in (kind_of_exit, "bad-input"):
        raise Invalid(f"{where}: exit status {t['exit']} with status {t['status']} and kind "
                      f"{t['kind']}")
    if t["repro"] not in (None, "repro/" + safe_name(t["name"])):
        raise Invalid(f"{where}.repro: not this test's repro folder")
    return t


def _unique(tests, where):
    seen = set()
    for i, t in enumerate(tests):
        if t["name"] in seen:
            raise Invalid(f"{where}[{i}]: a second test named {t['name']}")
        seen.add(t["name"])


RESULTS = record({"schema": one_of(SCHEMA), "run": RUN,
                  "tests": list_of(check_test, MAX_TESTS)})
RUN_FILE = record({"schema": one_of(RUN_SCHEMA), "run": RUN,
                   "tests": list_of(_NAME, MAX_TESTS)})


def _document(text, name, check):
    doc = schema.parse(text, name)
    if isinstance(doc, dict) and isinstance(doc.get("schema"), str) and \
            doc["schema"].startswith("otpu-regress/") and \
            doc["schema"] not in (SCHEMA, RUN_SCHEMA):
        raise Invalid(f"{name}: written by another version of otpu-regress "
                      f"({doc['schema'][:40]}; this one reads {SCHEMA})")
    try:
        return check(doc, "")
    except Invalid as e:
        raise Invalid(f"{name}: {str(e).lstrip('.: ')}") from None


def parse_results(text, name):
    """(RUN, [TEST]) of a results.json's text"""
    doc = _document(text, name, RESULTS)
    _unique(doc["tests"], f"{name}: tests")
    for i, t in enumerate(doc["tests"]):  # (each test ran within the run's wall-clock time)
        if t["time"] > doc["run"]["wall_time"] + 1:
            raise Invalid(f"{name}: tests[{i}].time: {t['time']:g} s, longer than the run "
                          f"({doc['run']['wall_time']:g} s)")
    return doc["run"], doc["tests"]


def parse_run(text, name):
    """(RUN, [planned test names]) of a run.json's text"""
    doc = _document(text, name, RUN_FILE)
    return doc["run"], doc["tests"]


def parse_lines(text, name):
    """the TESTs of a results.jsonl's text; a last line cut short (the run was killed while it
    wrote it) is dropped, its test counted as lost"""
    lines = text.split("\n")
    if lines and lines[-1] != "":
        lines.pop()
    tests = []
    for no, line in enumerate(lines, 1):
        if line.strip():
            tests.append(check_test(schema.parse(line, f"{name}:{no}"), f"{name}:{no}"))
    _unique(tests, name)
    return tests


def read(path, parse):
    return parse(files.read_text(path, files.RESULTS), path)


def read_folder(d):
    """(RUN, [TEST], planned names or None) of an output folder: its results.json, else the
    run.json and results.jsonl a run that did not end left"""
    if not os.path.isdir(d):
        raise Invalid(f"{d}: no such folder")
    path = os.path.join(d, "results.json")
    if os.path.lexists(path):
        run, tests = read(path, parse_results)
        return run, tests, None
    path = os.path.join(d, "run.json")
    if not os.path.lexists(path):
        raise Invalid(f"{d}: not an otpu-regress output folder (no "
                      "results.json, no run.json)")
    run, planned = read(path, parse_run)
    lines = os.path.join(d, "results.jsonl")
    tests = read(lines, parse_lines) if os.path.lexists(lines) else []
    stray = {t["name"] for t in tests} - set(planned)
    if stray:
        raise Invalid(f"{lines}: test {sorted(stray)[0]} is not one run.json "
                      "plans")
    return run, tests, planned
