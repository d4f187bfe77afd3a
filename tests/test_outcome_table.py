#!/usr/bin/env python3
"""otpu-regress's outcome table (regress/otpu_regress/outcome.py EXIT_KIND) against otpu-lockstep's
documented exit statuses: docs/exit-status.md's row for `otpu-lockstep run` and, when the tool is
built, its --help. The statuses must be the same set, each kind must say what the documents say
(a keyword of the kind in both), 128+N and an undocumented status must be crashes. The kinds
of divergence a waiver may name (outcome.REPORT_KINDS) are checker/REPORT.md's, no more or less.

usage: test_outcome_table.py SOURCE_ROOT [OTPU_LOCKSTEP]"""
import os
import re
import subprocess
import sys
import tempfile

# a kind of result -> a word each document's meaning of its status must hold
KEYWORD = {None: "pass", "divergence": "divergence", "bad-input": "bad input",
           "timeout": "timeout", "build-failed": "build failed", "crash": "crashed",
           "unexpected-outcome": "expect="}


def doc_row(path, tool="`otpu-lockstep run`"):
    """{status: meaning} of the tool's row in the per-tool table ('-': not used)"""
    header = row = None
    with open(path) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] == "tool" and "0" in cells:  # (the table of statuses, not another)
                header = cells[1:]
            elif cells[0] == tool and header and row is None:
                row = cells[1:]
    if not header or not row or len(header) != len(row):
        raise SystemExit(f"FAIL {path}: no per-tool row for {tool}")
    return {h: m for h, m in zip(header, row) if m != "-"}


def help_statuses(tool):
    """{status: meaning} from the tool's --help 'exit status:' paragraph"""
    out = subprocess.run([tool, "--help"], capture_output=True, text=True, timeout=60)
    text = out.stdout + out.stderr
    para = text[text.find("exit status:") + len("exit status:"):]
    para = " ".join(para.split())
    return {m.group(1): m.group(2) for m in
            re.finditer(r"(\d+(?:\+N)?):? (.*?)(?=[,;] \d+(?:\+N)?:? |$)", para)}


def check(statuses, where, table, failures):
    numeric = {int(s) for s in statuses if s.isdigit()}
    if numeric != set(table):
        failures.append(f"{where} documents {sorted(numeric)}, otpu-regress maps {sorted(table)}")
    for status, kind in table.items():
        meaning = statuses.get(str(status), "")
        if KEYWORD[kind] not in meaning.replace("the build", "build"):
            failures.append(f"{where}: status {status} is {meaning!r}, otpu-regress calls it "
                            f"{kind or 'a pass'}")
    if "128+N" not in statuses:
        failures.append(f"{where}: 128+N (a signal) is not documented")


def report_kinds(path):
    """the kinds of checker/REPORT.md's "Kinds" table"""
    with open(path) as f:
        text = f.read()
    table = text[text.index("## Kinds"):text.index("## Signature")]
    return re.findall(r"^\| `([a-z-]+)` \|", table, re.M)


def main():
    root = sys.argv[1]
    sys.path.insert(0, os.path.join(root, "regress"))
    from otpu_regress import outcome
    failures = []
    doc = doc_row(os.path.join(root, "docs", "exit-status.md"))
    check(doc, "docs/exit-status.md", outcome.EXIT_KIND, failures)
    if len(sys.argv) > 2:
        hs = help_statuses(sys.argv[2])
        if len(hs) < 7:
            failures.append(f"otpu-lockstep --help: only {len(hs)} exit statuses read: {hs}")
        check(hs, "otpu-lockstep --help", outcome.EXIT_KIND, failures)
    # every failure kind has its meaning, and whatever is not documented is a crash
    missing = [k for k in outcome.KINDS if k not in outcome.MEANING]
    if missing:
        failures.append(f"kinds without a meaning: {missing}")
    with tempfile.TemporaryDirectory() as tmp:
        for status in (130, 128 + 9, 7, 127):
            kind = outcome.failure(status, "", tmp)[0]
            if kind != "crash":
                failures.append(f"status {status} classified {kind}, not crash")
    kinds = report_kinds(os.path.join(root, "checker", "REPORT.md"))
    if len(kinds) < 10 or tuple(kinds) != outcome.REPORT_KINDS:
        failures.append(f"checker/REPORT.md's kinds {kinds}, outcome.REPORT_KINDS "
                        f"{list(outcome.REPORT_KINDS)}")
    for f in failures:
        print("FAIL " + f)
    print(f"{len(outcome.EXIT_KIND)} statuses checked, {len(failures)} disagreements")
    return 1 if failures or len(outcome.EXIT_KIND) < 7 else 0


if __name__ == "__main__":
    sys.exit(main())
