"""Shard output folders merged into one: the tests of every shard (a shard killed part way
keeps the tests its results.jsonl holds), their repro folders and coverage, then the files,
the page and the history of the whole as one run."""
import datetime
import json
import os
import shutil

from .errors import UsageError
from .finish import finish
from .tools import tools_from_env


def read_shard(d):
    """(run or None, tests) of a shard folder: results.json, else the results.jsonl of a run
    that did not finish"""
    try:
        with open(os.path.join(d, "results.json")) as f:
            r = json.load(f)
        return r["run"], r["tests"]
    except FileNotFoundError:
        pass
    except (ValueError, KeyError) as e:
        raise UsageError(f"{d}/results.json: not an otpu-regress result ({e})") from None
    try:
        with open(os.path.join(d, "results.jsonl")) as f:
            return None, [json.loads(ln) for ln in f if ln.strip()]
    except FileNotFoundError:
        return None, []
    except ValueError as e:
        raise UsageError(f"{d}/results.jsonl: not an otpu-regress result ({e})") from None


def merged_run(runs, dirs, out):
    """one RUN of the shards': the earliest start to the latest end"""
    runs = [r for r in runs if r]
    if not runs:
        return {"started": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"), "wall_time": 0.0, "host": "", "jobs": 0, "shard": None,
            "suites": [], "command": [], "out": out, "merged": dirs}
    def start(r):
        return datetime.datetime.fromisoformat(r["started"])
    t0 = min(start(r) for r in runs)
    t1 = max(start(r) + datetime.timedelta(seconds=r["wall_time"]) for r in runs)
    return {"started": t0.isoformat(timespec="seconds"), "wall_time": (t1 - t0).total_seconds(),
            "host": ",".join(sorted({r["host"] for r in runs})),
            "jobs": sum(r["jobs"] for r in runs), "shard": None, "suites": runs[0]["suites"],
            "command": runs[0]["command"], "out": out, "merged": dirs}


def collect(dirs, out):
    """(runs, tests, coverage files) of the shard folders; repro folders copied into out"""
    runs, tests, covs, seen = [], [], [], {}
    for d in dirs:
        if not os.path.isdir(d):
            raise UsageError(f"{d}: no such folder")
        run, ts = read_shard(d)
        runs.append(run)
        for t in ts:
            if t["name"] in seen:
                raise UsageError(f"test {t['name']} is in both {seen[t['name']]} and {d}")
            seen[t["name"]] = d
            if t.get("repro"):
                src = os.path.join(d, t["repro"])
                if os.path.abspath(src) != os.path.abspath(os.path.join(out, t["repro"])) and \
                        os.path.isdir(src):
                    shutil.copytree(src, os.path.join(out, t["repro"]), dirs_exist_ok=True)
            tests.append(t)
        if os.path.isfile(os.path.join(d, "coverage.json")):
            covs.append(os.path.join(d, "coverage.json"))
    return runs, tests, covs


def merge_dirs(dirs, out, db, log, tools=None, missing=()):
    """merge the shard folders into out; missing: failure records of tests no shard reported"""
    tools = tools or tools_from_env(("cov",))
    os.makedirs(out, exist_ok=True)
    runs, tests, covs = collect(dirs, out)
    if not tests and not missing:
        raise UsageError("no test result in " + " ".join(dirs))
    run = merged_run(runs, dirs, out)
    return finish(out, run, tests + list(missing), db, tools["cov"], covs, log)
