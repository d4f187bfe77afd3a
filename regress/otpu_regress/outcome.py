"""What one otpu-lockstep run says: its exit status, its output and its divergence.json turned
into a test result's status, kind and one-line message."""
import os
import re

from . import files, schema
from .schema import integer, nullable, record, string
from .text import one_line

# otpu-lockstep run's documented exit statuses (docs/exit-status.md, its --help) and the kind of
# failure each one is; the one table of them, held to those documents by the test
# regress-outcome-table (tests/test_outcome_table.py). 128+N (stopped by signal N) and any other
# status are a crash whose message holds the status.
EXIT_KIND = {
    0: None,                    # pass (or the expected error)
    1: "divergence",            # the RTL and the model disagree
    2: "bad-input",             # the bundle or the arguments are bad
    3: "timeout",               # a hang, or the tool's own time limit
    4: "build-failed",          # the RTL's simulator could not be built
    5: "crash",                 # the simulator crashed
    6: "unexpected-outcome",    # RTL and model agree on an outcome expect= contradicts
}
# every kind of failure, in the order the summary, the page and the charts show them
KINDS = [k for k in EXIT_KIND.values() if k]
MEANING = {
    "divergence": "the RTL and the model disagree",
    "bad-input": "the bundle, its plusargs or its Config is bad",
    "timeout": "no verdict in time: a hang, or the wall-clock limit",
    "build-failed": "the RTL's simulator could not be built",
    "crash": "otpu-lockstep or its simulator died, or its shard was lost",
    "unexpected-outcome": "the RTL and the model agree, on an outcome the bundle's expect= "
                          "contradicts: the program or its expect= is wrong",
}

# the kinds of the checker's divergences (checker/REPORT.md, "Kinds"): a report's first part
REPORT_KINDS = ("wrong-value", "missing-write", "stray-write", "duplicate-write",
                "order-violation", "register-mismatch", "control-flow", "error-flag-mismatch",
                "hang", "end-state-mismatch", "host-step")

_INT = integer(-(1 << 63), (1 << 64) - 1)
# the facts of a divergence a result keeps (checker/REPORT.md's divergence.json, in part)
DIVERGENCE = record({"kind": string(64, printable=True)}, {
    "detail": nullable(string(1 << 16)), "slice": nullable(_INT), "cycle": nullable(_INT),
    "instruction": nullable(record({"n": _INT, "pc": _INT, "disasm": string(1 << 12)})),
    "unit": nullable(string(64)),
    "location": nullable(record({"space": string(64), "address": _INT},
                                {"mask": _INT, "row": _INT, "column": _INT}))})
LOCATION_KEYS = ("space", "address", "mask", "row", "column")


def divergence_of(report_dir):
    """the first divergence's facts from divergence.json, or None (none, or not readable as
    otpu-lockstep's)"""
    path = os.path.join(report_dir, "divergence.json")
    try:
        d = schema.parse(files.read_text(path, files.OTHER), path)
    except (files.BadFile, schema.Invalid):  # none written, or not otpu-lockstep's
        return None
    if not isinstance(d, dict):
        return None
    d = {k: d.get(k) for k in ("kind", "detail", "slice", "cycle", "instruction", "unit",
                               "location")}
    if isinstance(d["location"], dict):
        d["location"] = {k: v for k, v in d["location"].items() if k in LOCATION_KEYS}
    try:
        return DIVERGENCE(d, "divergence.json")
    except schema.Invalid:
        return None


def divergence_line(d):
    ins = d.get("instruction")
    loc = d.get("location")
    where = f"slice {d.get('slice')} cycle {d.get('cycle')}"
    if ins:
        where += f", pc {ins['pc']} (n {ins['n']}) {ins['disasm']}"
    if loc:
        where += f", {loc['space']} 0x{loc['address']:x}"
    return f"{d['kind']} at {where}: {d.get('detail') or ''}".rstrip(": ")


def last_line(text, pattern):
    lines = [ln for ln in text.splitlines() if re.search(pattern, ln)]
    return lines[-1].strip() if lines else ""


def counts(out):
    """cycles and instructions the run checked, from its 'cycles=' and 'icount=' lines (at most
    19 digits: what a tool prints is not trusted to be short)"""
    c = re.findall(r"^cycles=([0-9]{1,19})\b", out, re.M)
    i = re.findall(r"icount=([0-9]{1,19})\b", out)
    return (int(c[-1]) if c else None), (sum(map(int, i)) if i else None)


def failure(exit_status, out, report_dir):
    """(kind, message, divergence) of a run that did not pass"""
    tool = last_line(out, r"^lockstep: |otpu-(lockstep|rtl): |^cannot run ")
    if exit_status < 0:
        return "crash", f"otpu-lockstep died of signal {-exit_status}", None
    if 128 < exit_status <= 128 + 64:
        return "crash", f"otpu-lockstep stopped by signal {exit_status - 128} (no verdict)", None
    if exit_status not in EXIT_KIND:
        return "crash", (f"otpu-lockstep exited with status {exit_status}, which it does not "
                         "document" + (f": {tool}" if tool else "")), None
    kind = EXIT_KIND[exit_status]
    d = divergence_of(report_dir) if kind == "divergence" else None
    if d:
        return kind, divergence_line(d), d
    return kind, tool or f"otpu-lockstep exited with status {exit_status}", None


def classify(exit_status, out, report_dir, timed_out, timeout):
    """(status, kind, message, divergence) of a finished run; the message on one visible line"""
    if timed_out:
        return "fail", "timeout", f"no verdict within the {timeout:g} s wall-clock limit", None
    if exit_status == 0:
        return "pass", None, "pass", None
    kind, msg, d = failure(exit_status, out, report_dir)
    return "fail", kind, one_line(msg), d
