"""The run's files for tools and people: junit.xml (testsuites / testsuite per suite entry /
testcase per bundle), summary.json and summary.txt. Every text from input is made visible
(text.py) on its way into junit.xml and summary.txt: XML 1.0 forbids most control characters
even escaped, and a terminal would obey them."""
import json
import os
import xml.etree.ElementTree as ET

from . import buckets, codecov, outputs, suspects, waivers
from .outcome import KINDS
from .results import SCHEMA
from .text import visible


def summarize(run, tests, coverage, changes, groups=(), applied=()):
    """SUMMARY of regress/README.md (groups: the failures' buckets, buckets.group's, first;
    applied: the waivers as waivers.apply returns them). "failed" counts the failures no
    waiver matched, "waived" the others"""
    failed = waivers.failed(tests)
    passed = sum(t["status"] == "pass" for t in tests)
    return {"schema": "otpu-regress/summary/2", "buckets": list(groups), "run": run,
            "tests": len(tests), "passed": passed, "failed": len(failed),
            "waived": len(tests) - passed - len(failed), "waivers": list(applied),
            "by_kind": {k: sum(1 for t in failed if t["kind"] == k) for k in KINDS},
            "instructions": sum(t["instructions"] or 0 for t in tests),
            "cycles": sum(t["cycles"] or 0 for t in tests),
            "slowest": [{"name": t["name"], "time": round(t["time"], 3)}
                        for t in sorted(tests, key=lambda t: -t["time"])[:10]],
            "coverage": coverage, "changes": changes}


def write_junit(path, run, tests):
    def failing(ts):
        return str(len(waivers.failed(ts)))

    def waived(ts):
        return str(sum(bool(t.get("waived")) for t in ts))
    root = ET.Element("testsuites", name="otpu-regress", tests=str(len(tests)),
                      failures=failing(tests), errors="0", skipped=waived(tests),
                      time=f"{run['wall_time']:.3f}", timestamp=visible(run["started"]))
    suites = {}
    for t in tests:
        suites.setdefault(t["suite"], []).append(t)
    for name, members in suites.items():
        ts = ET.SubElement(root, "testsuite", name=visible(name), tests=str(len(members)),
                           failures=failing(members), errors="0", skipped=waived(members),
                           time=f"{sum(t['time'] for t in members):.3f}",
                           timestamp=visible(run["started"]), hostname=visible(run["host"]))
        for t in members:
            tc = ET.SubElement(ts, "testcase", name=visible(t["bundle"]), classname=visible(name),
                               time=f"{t['time']:.3f}")
            w = t.get("waived")
            if w:  # a known difference: skipped, with the waiver's reason
                ET.SubElement(tc, "skipped", message=visible(
                    f"waived ({w['id']}): {w['why']} ({w['link']})")).text = visible(
                    f"bucket: {t['bucket']['key']}\n{t['kind']}: {t['message']}\n")
            elif t["status"] != "pass":
                key = (t.get("bucket") or {}).get("key", "-")
                f = ET.SubElement(tc, "failure", message=visible(f"[{key}] {t['message']}"),
                                  type=t["kind"])
                f.text = (f"bucket: {key} ({visible(t['bucket']['words'])})\n"
                          if t.get("bucket") else "") + (
                          f"{t['kind']}: {visible(t['message'])}\n" +
                          (f"repro folder: {t['repro']}\n" if t["repro"] else ""))
            ET.SubElement(tc, "system-out").text = visible(t["command"]) + "\n"
    ET.indent(root)
    outputs.write(path, ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n")


def summary_text(s):
    r = s["run"]
    lines = [f"otpu-regress: {s['tests']} tests, {s['passed']} passed, {s['failed']} failed" +
             (f", {s['waived']} waived" if s.get("waivers") else "") +
             f" in {r['wall_time']:.1f} s (-j {r['jobs']}" +
             (f", shard {r['shard']}" if r.get("shard") else "") + ")"]
    lines += buckets.text_lines(s.get("buckets") or [])  # the buckets first (buckets.py)
    lines += suspects.text_lines(s)  # their suspect lines and causes, when localized
    if s.get("waivers"):
        stale = sum(w["stale"] for w in s["waivers"])
        lines.append(f"waivers: {len(s['waivers'])}, {s['waived']} failures waived, "
                     f"{stale} stale")
        lines += waivers.text_lines(s["waivers"])
    lines += ["failures by kind: " + ", ".join(f"{k} {n}" for k, n in s["by_kind"].items()),
              f"checked: {s['instructions']} instructions, {s['cycles']} cycles"]
    if s["coverage"]:
        c = s["coverage"]
        lines.append(f"coverage: {c['percent']:.1f}% ({c['hit']} of {c['bins']} bins)")
    lines += codecov.summary_lines(s.get("code_coverage"))  # (RTL code coverage, per module)
    lines += [round_line(x) for x in r.get("rounds") or []]
    ch = s["changes"]
    lines.append(f"since the last run: {len(ch['new_failures'])} new failures, "
                 f"{len(ch['fixed'])} fixed, {len(ch['still_failing'])} still failing")
    lines += [f"  new failure: {n}" for n in ch["new_failures"]]
    lines += [f"  fixed: {n}" for n in ch["fixed"]]
    if "new_buckets" in ch:
        lines.append(f"buckets since the last run: {len(ch['new_buckets'])} new, "
                     f"{len(ch['gone_buckets'])} gone")
        lines += [f"  gone: {k}" for k in ch["gone_buckets"]]
    lines.append("slowest:")
    lines += [f"  {x['time']:8.2f} s  {x['name']}" for x in s["slowest"]]
    return "\n".join(visible(line) for line in lines) + "\n"


def round_line(x):
    """one round of --rounds (rounds.py) as text"""
    cov = (f"{x['hit']} of {x['bins']} bins ({x['percent']:.1f}%), {x['new']} new"
           if x["bins"] is not None else "no coverage figure")
    return (f"  round {x['round']}: {x['tests']} tests, {x['failed']} failed, {cov}, "
            f"{x['time']:.1f} s" + (f"; stopped: {x['stopped']}" if x.get("stopped") else ""))


def failure_lines(tests):
    return [visible(("WAIVED" if t.get("waived") else "FAIL") +
                    f" {t['name']}: {t['kind']}: {t['message']}" +
                    (f" [waiver {t['waived']['id']}]" if t.get("waived") else "") +
                    (f" (repro: {t['repro']}/repro.sh)" if t["repro"] else ""))
            for t in tests if t["status"] != "pass"]


def write_results(out_dir, run, tests):
    write_json(os.path.join(out_dir, "results.json"),
               {"schema": SCHEMA, "run": run, "tests": tests})


def write_json(path, doc):
    outputs.write(path, json.dumps(doc, indent=1))


def write_all(out_dir, run, tests, summary):
    """summary.json, summary.txt, junit.xml (results.json: write_results, last)"""
    write_json(os.path.join(out_dir, "summary.json"), summary)
    outputs.write(os.path.join(out_dir, "summary.txt"), summary_text(summary))
    write_junit(os.path.join(out_dir, "junit.xml"), run, tests)
