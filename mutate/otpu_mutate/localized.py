"""`otpu-mutate --localize`: each killed mutant localized as a night's bucket would be
(otpu-regress's localize.py), and where its mutated line ranks: the figures of fault
localization on bugs whose line is known (mutate/README.md, "Localization").

A killed mutant's failing tests are its killing programs whose divergence has the most common
signature among them; its passing tests the programs that passed on it (those its families ran
before their kill, and the whole of the families that did not kill it); its witnesses the
variants of its first killing program that pass (otpu-shrink --variants)."""
import collections
import os

from otpu_regress import localize, spectrum

TOPS = (1, 3, 5, 10)


def case(tools, tree, rec, by_family):
    """the Case of a killed mutant's record, or None (no kill with a signature)"""
    kills = {f: k for f, k in rec["killed_by"].items() if k.get("key")}
    if not kills:
        return None
    key = collections.Counter(k["key"] for k in kills.values()).most_common(1)[0][0]
    path = {p.name: p.path for ps in by_family.values() for p in ps}
    members = [(path[k["program"]], []) for f, k in sorted(kills.items()) if k["key"] == key]
    # every other program: a run judges it (passing, failing with the key, or neither); the
    # programs of a family after its kill never ran on the mutant
    passing = [(p.path, []) for ps in by_family.values() for p in ps
               if (p.path, []) not in members]
    env = tools.env(tree)
    return localize.Case(key, None, members, passing, env["env"], env["unset"])


def localize_mutant(tools, shrink, tree, rec, by_family, jobs, budget, work):
    """rec["localize"]: the rank of the mutated line (None: not among the ranked lines), the
    first suspects, the runs; or why it was not ranked"""
    c = case(tools, tree, rec, by_family)
    if c is None:
        rec["localize"] = {"rank": None, "note": "no killing run has a signature"}
        return
    kill = next(k for k in rec["killed_by"].values() if k.get("key") == c.key)
    tool = {"lockstep": tools.lockstep, "rtl": tools.rtl, "shrink": shrink, "gen": tools.gen}
    ev, suspects, why = localize.localize(c, kill.get("unit"), tool, jobs, budget,
                                          spectrum.Sources(), work, limit=1 << 20)
    rank = next((i for i, s in enumerate(suspects, 1)
                 if s["file"] == rec["file"] and s["line"] == rec["line"]), None)
    rec["localize"] = {
        "rank": rank, "key": c.key, "suspects": suspects[:5],
        "note": why or localize._note(ev)}


def figures(records):
    """{"all": FIG, "by_unit": {unit: FIG}}: FIG = {"mutants": n (killed), "ranked": n, "top1",
    "top3", "top5", "top10": fraction of the killed mutants with the line that high}"""
    def fig(rs):
        ranks = [r["localize"]["rank"] for r in rs]
        out = {"mutants": len(rs), "ranked": sum(x is not None for x in ranks)}
        for t in TOPS:
            out[f"top{t}"] = round(sum(x is not None and x <= t for x in ranks) / len(rs), 4) \
                if rs else None
        return out
    done = [r for r in records if r.get("localize")]
    units = sorted({r["unit"] for r in done})
    return {"all": fig(done), "by_unit": {u: fig([r for r in done if r["unit"] == u])
                                          for u in units}}


def text(figs):
    """the report's lines"""
    def row(name, f):
        tops = "  ".join(f"top{t} {100 * f[f'top{t}']:5.1f} %" if f[f"top{t}"] is not None
                         else f"top{t}   -" for t in TOPS)
        return f"  {name:<8} {f['mutants']:3d} killed  {tops}"
    lines = ["localization: the mutated line's rank among the suspects of its kill",
             row("all", figs["all"])]
    lines += [row(u, f) for u, f in figs["by_unit"].items()]
    lines.append("  published: Wit-HW top1 49 %, top5 73 %, top10 88 %; "
                 "Pecker top1 51 %, top3 80 %, top5 85 %")
    return lines
