"""otpu-regress run --resume OUT: the output folder of an interrupted run (killed, its machine
rebooted, its Slurm task requeued, its disk full) read back and made ready for the run to go on.

A test whose line in results.jsonl is whole keeps its result, once its input is checked to be
the same bundle (its input_hash) and its repro folder is there; every other test of the plan
runs (a last line cut short is dropped: its test runs again). What the interrupted run left of
the tests that have no result (a repro folder, a coverage file) is removed first, and what its
end wrote part way (the summaries, the page, buckets/, code-coverage/) is written anew. The
run's options are its own: the command run.json records, run again in the folder it was run
from (RUN's "cwd"); the suite and the build must still be the run's (identity.py), else its
results would not be comparable and it is refused. (regress/README.md, "Resuming a night")"""
import datetime
import json
import os
import re

from . import lock, outputs, places, results, runner, waivers
from .errors import UsageError
from .names import safe_name

# the parts of the identity (identity.py) a resumed run must share, and what differs when not
SAME = {"suite": "the suite (its tests, their plusargs or gen: specs) changed",
        "tests": "the suite changed",
        "revs": "the ISA revisions of its gen: entries changed",
        "build": "otpu-lockstep, otpu-rtl, otpu-gen or otpu-regress itself was rebuilt or "
                 "changed",
        "dut": "OTPU_DUT names another RTL"}


class Finished(Exception):
    """the run ended (results.json is there): nothing to resume; status: its exit status"""

    def __init__(self, status):
        super().__init__(status)
        self.status = status


def _shards(out, names):
    return any(re.fullmatch(r"shard-[1-9][0-9]*", n) for n in names)


def open_run(out):
    """(RUN, planned names, {name: TEST} kept, in results.jsonl's order) of the interrupted run
    in out, the folder locked for this process; UsageError (one line) when out holds no run
    that can be resumed, Finished when its run ended"""
    if not os.path.isdir(out):
        raise UsageError(f"--resume {out}: no such folder")
    names = os.listdir(out)
    slurm = (f"--resume {out}: the folder of a --slurm run: resume each of its shard-I "
             "folders (a requeued task does), then merge them (otpu-regress merge)")
    if lock.NAME not in names:
        raise UsageError(slurm if _shards(out, names) else
                         f"--resume {out}: not an otpu-regress output folder (no {lock.NAME})")
    places.claim(out)
    done = os.path.join(out, "results.json")
    if os.path.lexists(done):
        tests = results.read(done, results.parse_results)[1]
        raise Finished(1 if waivers.failed(tests) else 0)
    if not os.path.lexists(os.path.join(out, "run.json")):
        raise UsageError(slurm if _shards(out, names) else
                         f"--resume {out}: its run stopped before its first test (no "
                         "run.json): nothing to keep; run it again")
    run, kept, planned = results.read_folder(out)
    if "cwd" not in run:
        raise UsageError(f"--resume {out}: its run.json does not say where the run was "
                         "started (written by an otpu-regress without --resume): run it again")
    if os.path.realpath(run["out"]) != os.path.realpath(out):
        raise UsageError(f"--resume {out}: its run wrote into {run['out']}: the folder was "
                         "moved (its results name that place): resume it there")
    return run, planned, {t["name"]: t for t in kept}


def check_identity(out, run, ident):
    """UsageError unless the suite and build of this resumed run are the interrupted run's"""
    for k, why in SAME.items():
        if run["identity"][k] != ident[k]:
            raise UsageError(f"--resume {out}: {why} since the run was interrupted: its "
                             f"results are not comparable; run it again (no --resume)")


def prepare(out, kept, log):
    """out made ready to go on: the outputs of the run's end removed, and what the tests without
    a kept result left (a repro folder, a coverage file); the kept records, those whose repro
    folder is not whole left out"""
    places.clear(out, keep=places.RESUMED)
    good = {}
    for name, t in kept.items():
        if t["repro"] and not os.path.isfile(os.path.join(out, t["repro"], "repro.sh")):
            log(f"otpu-regress: {name}: its repro folder is not whole: it runs again")
            continue
        good[name] = t
    _keep_only(os.path.join(out, "repro"), {safe_name(n) for n, t in good.items() if t["repro"]})
    _keep_only(os.path.join(out, "work", "coverage"), {safe_name(n) + ".json" for n in good})
    places.remove(os.path.join(out, "work", "serve"))
    return good


def _keep_only(folder, names):
    try:
        found = os.listdir(folder)
    except FileNotFoundError:
        return
    for n in found:
        if n not in names:
            places.remove(os.path.join(folder, n))


def split(out, tests, kept, journal, log):
    """(the kept records of tests, the tests to run): a kept test whose bundle is not the one
    its result is of (its input_hash: a bundle changed, a gen: entry written otherwise) runs
    again, its line taken out of results.jsonl"""
    mine, rest = [], []
    for t in tests:
        rec = kept.pop(t.name, None)
        if rec and rec["input_hash"] != runner.input_hash(t):
            log(f"otpu-regress: {t.name}: its bundle is not the one its result is of: it runs "
                "again")
            journal.drop(t.name)
            places.remove(os.path.join(out, "repro", safe_name(t.name)))
            places.remove(runner.coverage_path(out, t.name))
            rec = None
        if rec:
            mine.append(rec)
        else:
            rest.append(t)
    return mine, rest


def journal(out, kept):
    """results.jsonl: the kept lines written anew (without a last line cut short), appended to"""
    return outputs.Journal(os.path.join(out, "results.jsonl"),
                           {n: json.dumps(t) for n, t in kept.items()})


def span(run):
    """a resumed run's wall_time: from its start to now (the time it lay killed in it)"""
    start = datetime.datetime.fromisoformat(run["started"])
    return max(0.0, (datetime.datetime.now(datetime.timezone.utc) - start).total_seconds())
