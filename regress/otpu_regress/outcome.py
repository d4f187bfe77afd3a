"""What one otpu-lockstep run says: its exit status (README, "Exit status"), its output and
its divergence.json turned into a test result's status, kind and one-line message."""
import json
import os
import re

KINDS = ["divergence", "timeout", "crash", "build-failed", "bad-input"]
BY_EXIT = {1: "divergence", 2: "bad-input", 3: "timeout", 4: "build-failed", 5: "crash",
           6: "divergence"}


def divergence_of(report_dir):
    """the first divergence's facts from divergence.json, or None"""
    try:
        with open(os.path.join(report_dir, "divergence.json")) as f:
            d = json.load(f)
    except (OSError, ValueError):
        return None
    return {k: d.get(k) for k in ("kind", "detail", "slice", "cycle", "instruction", "unit",
                                  "location")}


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
    """cycles and instructions the run checked, from its 'cycles=' and 'icount=' lines"""
    c = re.findall(r"^cycles=(\d+)", out, re.M)
    i = re.findall(r"icount=(\d+)", out)
    return (int(c[-1]) if c else None), (sum(map(int, i)) if i else None)


def classify(exit_status, out, report_dir, timed_out, timeout):
    """(status, kind, message, divergence) of a finished run"""
    if timed_out:
        return "fail", "timeout", f"no verdict within the {timeout:g} s wall-clock limit", None
    if exit_status == 0:
        return "pass", None, "pass", None
    kind = BY_EXIT.get(exit_status, "crash")
    d = divergence_of(report_dir) if kind == "divergence" else None
    if d:
        msg = divergence_line(d)
    elif exit_status is not None and exit_status < 0:
        msg = f"otpu-lockstep died of signal {-exit_status}"
    elif exit_status is not None and exit_status >= 128:
        msg = f"otpu-lockstep stopped by signal {exit_status - 128} (no verdict)"
    else:
        msg = (last_line(out, r"^lockstep: |otpu-(lockstep|rtl): ") or
               f"otpu-lockstep exited with status {exit_status}")
    return "fail", kind, msg, d
