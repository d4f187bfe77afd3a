"""Coverage-directed rounds (otpu-regress run --rounds N): the suites run once; then, while
coverage grows, every gen entry's next count programs are generated toward the bins that the
coverage merged so far has not hit (otpu-gen --cover) and run. The tests of round R are named
ENTRY@roundR/BUNDLE. Each round's record is in RUN's "rounds" (regress/README.md); the last
one says why the rounds stopped."""
import dataclasses
import os
import time

from . import coverage, runner, suite
from .errors import UsageError

MAX_ROUNDS = 100


def check_usage(a):
    if a.budget is not None and a.rounds == 1:
        raise UsageError("--budget goes with --rounds")
    if a.rounds > 1 and (a.shard or a.slurm):
        raise UsageError("--rounds runs on one machine: not with --shard or --slurm")
    if a.rounds > 1 and not a.coverage:
        raise UsageError("--rounds aims at coverage: not with --no-coverage")


def next_tests(tests, r, cover, gen_root):
    """the tests of round r (>= 2): each gen entry's next count programs, aimed by the coverage
    file cover"""
    entries = {t.entry.name: t.entry for t in tests if t.entry.gen}
    out = []
    for e in entries.values():
        g = dataclasses.replace(e.gen, first=e.gen.first + (r - 1) * e.gen.count, cover=cover)
        out += suite.tests_of(suite.Entry(f"{e.name}@round{r}", e.source, gen=g,
                                          plusargs=e.plusargs), gen_root)
    return sorted(out, key=lambda t: t.name)


def _totals(cov_tool, files, path, log):
    try:
        return coverage.totals(cov_tool, path) if coverage.merge(cov_tool, files, path) else None
    except coverage.CoverageError as e:
        log(f"otpu-regress: no coverage figure: {e}")
        return None


def _stop(a, r, rec, aimed, spent):
    """why no round follows round r (None: one does); spent: the rounds' seconds so far"""
    if rec["bins"] is None:
        return "no coverage figure"
    if rec["hit"] == rec["bins"]:
        return "every reachable bin hit"
    if r > 1 and rec["new"] == 0:
        return "coverage stopped growing"
    if r == a.rounds:
        return "--rounds reached"
    if not aimed:
        return "no gen entry to aim"
    if a.budget is not None and spent + rec["time"] > a.budget:  # (the next as long as this)
        return "--budget spent"
    return None


def run(a, tests, tools, out, run_round, results, records, save, log):
    """runs the rounds (run_round(tests) runs one; results grows with every record); records:
    the ROUNDs, each set as its round ends, then save() (run.json keeps them). A resumed run
    (resume.py) replays the rounds its records hold, each round's tests those of the coverage
    before it, again: a round that had ended keeps its time (--budget counts it)"""
    hit, round_tests, spent, ended = 0, tests, 0.0, len(records)
    gen_root = os.path.join(out, "bundles")
    for r in range(1, a.rounds + 1):
        start, before = time.monotonic(), len(results)
        run_round(round_tests)
        path = os.path.join(out, "work", f"coverage-round{r}.json")
        tot = _totals(tools["cov"], [runner.coverage_path(out, t["name"]) for t in results],
                      path, log) or {}
        mine = results[before:]
        rec = {"round": r, "tests": len(mine),
               "failed": sum(t["status"] != "pass" for t in mine),
               "time": records[r - 1]["time"] if r <= ended else
               round(time.monotonic() - start, 3), "hit": tot.get("hit"),
               "bins": tot.get("bins"), "percent": tot.get("percent"),
               "new": tot["hit"] - hit if tot else None}
        records[r - 1:r] = [rec]
        if tot:
            log(f"otpu-regress: round {r}: {tot['hit']} of {tot['bins']} bins hit "
                f"({rec['new']} new)")
            hit = tot["hit"]
        spent += rec["time"]
        stop = _stop(a, r, rec, any(t.entry.gen for t in tests), spent)
        if stop:
            rec["stopped"] = stop
            del records[r:]  # (rounds a replay did not reach)
            log(f"otpu-regress: no round {r + 1}: {stop}")
            save()
            break
        save()
        round_tests = next_tests(tests, r + 1, path, gen_root)
        log(f"otpu-regress: round {r + 1}: {len(round_tests)} programs toward the "
            f"{tot['bins'] - tot['hit']} bins still empty")
    return records
