"""The results: mutation.json (schema "otpu-mutate/1", mutate/README.md) and the text report.

Status of a mutant: "stillborn" (its RTL does not Verilate or build: reported, not scored),
"equivalent" (identical Verilated model on every Config run, or listed in equivalent.txt and not
killed: reported with the reason, not scored), else "killed" when a generated program kills it
and "survived" when none does (the golden vectors may still kill a survivor; they are scored
apart, for comparison). Scores are over the scored mutants: per family, all generated families
together, and the golden vectors alone."""
import json
import os

from otpu_regress import outputs

from . import localized

from .programs import GOLDEN

SCHEMA = "otpu-mutate/1"


def _score(killed, of):
    return {"killed": killed, "of": of,
            "percent": round(100.0 * killed / of, 2) if of else None}


def totals(mutants, families, with_golden):
    scored = [m for m in mutants if m["status"] in ("killed", "survived")]
    n = len(scored)
    fam = {f: _score(sum(1 for m in scored if f in m["killed_by"]), n) for f in families}
    t = {
        "mutants": len(mutants),
        "scored": n,
        "killed": sum(1 for m in mutants if m["status"] == "killed"),
        "survived": sum(1 for m in mutants if m["status"] == "survived"),
        "equivalent": sum(1 for m in mutants if m["status"] == "equivalent"),
        "stillborn": sum(1 for m in mutants if m["status"] == "stillborn"),
        "score": {
            "generated": _score(sum(1 for m in scored if m["status"] == "killed"), n),
            "families": fam,
            "golden": (_score(sum(1 for m in scored if GOLDEN in m["killed_by"]), n)
                       if with_golden else None),
        },
        "by_unit": {},
        "by_kind": {},
    }
    for key, field in (("by_unit", "unit"), ("by_kind", "kind")):
        groups = {}
        for m in mutants:
            g = groups.setdefault(m[field], {"mutants": 0, "scored": 0, "killed": 0})
            g["mutants"] += 1
            if m["status"] in ("killed", "survived"):
                g["scored"] += 1
                g["killed"] += m["status"] == "killed"
        t[key] = dict(sorted(groups.items()))
    return t


def document(run, mutants, families, with_golden):
    return {"schema": SCHEMA, "run": run, "mutants": mutants,
            "totals": totals(mutants, families, with_golden),
            "survivors": [m["id"] for m in mutants if m["status"] == "survived"]}


def write_json(path, doc):
    """the whole file at path (a regular file or none: outputs.check has held it to that)"""
    outputs.write(path, json.dumps(doc, indent=1) + "\n")


def _pct(s):
    if not s or s["of"] == 0:
        return "-"
    return f"{s['killed']}/{s['of']} {s['percent']:.1f} %"


def _duration(s):
    s = int(round(s))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def _kills(m, families):
    parts = []
    for f in list(families) + [GOLDEN]:
        k = m["killed_by"].get(f)
        if k:
            parts.append(f"{f} ({k['program']}: {k['kind']})")
    return ", ".join(parts) or "-"


def text(doc):
    run, t = doc["run"], doc["totals"]
    fams = run["families"]
    lines = [f"otpu-mutate: {t['mutants']} mutants of {run['source_root']}/rtl "
             f"({run['mutant_list']}), {run['started']}, {_duration(run['wall_time'])}"]
    progs = run["programs"]
    lines.append("generated programs (" + run["config"]["generated"] + "): " +
                 ", ".join(f"{f} {len(progs.get(f, []))}" for f in fams) +
                 f"; seed {run['seed']}, {run['count']} a family")
    if run["config"].get("golden"):
        lines.append(f"golden vectors ({run['config']['golden']}): {len(progs.get(GOLDEN, []))} "
                     f"of {run['golden_dir']}")
    for d in run["dropped"]:
        lines.append(f"dropped (fails on the unmutated RTL): {d['family']}/{d['program']}: "
                     f"{d['message']}")
    if run.get("fast"):
        lines.append("--fast: each mutant stopped at its first kill; the per-family shares are "
                     "lower bounds")
    lines.append("")
    w = max([len(m["id"]) for m in doc["mutants"]] + [2])
    lines.append(f"{'id':<{w}}  {'where':<22} {'kind':<14} {'status':<10} killed by (first "
                 f"killing program of each family)")
    for m in doc["mutants"]:
        where = f"{os.path.basename(m['file'])}:{m['line']}"
        lines.append(f"{m['id']:<{w}}  {where:<22} {m['kind']:<14} {m['status']:<10} "
                     f"{_kills(m, fams)}")
        lines.append(f"{'':<{w}}  {m['description']}")
        if m.get("reason"):
            lines.append(f"{'':<{w}}  ({m['status']}: {m['reason']})")
        if m.get("note"):
            lines.append(f"{'':<{w}}  NOTE: {m['note']}")
    lines.append("")
    s = t["score"]
    lines.append(f"score: killed / scored mutants ({t['scored']} scored: not equivalent, not "
                 f"stillborn; {t['equivalent']} equivalent, {t['stillborn']} stillborn)")
    lines.append(f"  {'all generated families':<26} {_pct(s['generated'])}")
    for f in fams:
        lines.append(f"  {f:<26} {_pct(s['families'][f])}")
    if s.get("golden"):
        lines.append(f"  {'golden vectors alone':<26} {_pct(s['golden'])}")
    lines.append("by unit: " + ", ".join(f"{u} {g['killed']}/{g['scored']}"
                                          for u, g in t["by_unit"].items()))
    lines.append("by kind: " + ", ".join(f"{k} {g['killed']}/{g['scored']}"
                                          for k, g in t["by_kind"].items()))
    surv = [m for m in doc["mutants"] if m["status"] == "survived"]
    lines.append("")
    lines.append(f"survivors of the generated programs ({len(surv)}):" if surv else
                 "survivors of the generated programs: none")
    for m in surv:
        g = m["killed_by"].get(GOLDEN)
        also = (f"; the golden vectors kill it ({g['program']})" if g else
                "; the golden vectors do not kill it either" if s.get("golden") else "")
        lines.append(f"  {m['id']} ({m['file']}:{m['line']}, {m['kind']}): "
                     f"{m['description']}{also}")
    for status in ("equivalent", "stillborn"):
        ms = [m for m in doc["mutants"] if m["status"] == status]
        if ms:
            lines.append(f"{status} ({len(ms)}): " + "; ".join(f"{m['id']}: {m['reason']}"
                                                                 for m in ms))
    if doc.get("localization"):
        lines += localized.text(doc["localization"])
        lines += [f"  {m['id']}: {m['file']}:{m['line']} rank {m['localize']['rank'] or '-'}"
                  f" ({m['localize']['note']})" for m in doc["mutants"] if m.get("localize")]
    return "\n".join(lines) + "\n"
