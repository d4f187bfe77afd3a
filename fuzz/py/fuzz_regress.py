#!/usr/bin/env python3
"""A deterministic mutational fuzzer of otpu-regress's parsers, in process (Python standard
library only). Targets: suite files, suite lines, gen:FAMILY:seed=N:count=K[:KEY=VALUE...]
specs, the number grammar, the result files merge reads (results.json, run.json,
results.jsonl), and what fault localization reads (RTL sources, Verilator coverage files). Seeds: ci/*.suite and a real run's files in fuzz/py/seeds/. Each input is a
seed mutated at the byte level (flips, inserts, deletions, repeats, splices, tokens such as
010, 1e400, NaN, ESC, NUL) or, for JSON, in its structure (a value replaced by one of another
type, a key dropped or added, deep nesting).

A parser may accept an input or refuse it with otpu-regress's documented exception
(errors.UsageError: exit status 2, one line); any other exception is a finding. What a parser
accepts must hold up downstream: a gen spec re-parses from its canonical spelling to the same
spec, a number to the same value, and accepted results go through the summary, junit.xml (which
must parse), summary.txt, the page and merge's checks without an exception.

usage: fuzz_regress.py [--time S] [--seed N] [--crash-dir DIR]
Exit status: 0 nothing found, 1 a finding (its input saved in --crash-dir and printed)."""
import argparse
import glob
import json
import os
import random
import sys
import tempfile
import time
import traceback
import types
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "regress"))
from otpu_regress import buckets, files, html, merge, report, results, suite, waivers  # noqa: E402
from otpu_regress import rtl_lines, spectrum  # noqa: E402
from otpu_regress.errors import UsageError  # noqa: E402
from otpu_regress.number import number  # noqa: E402

SEEDS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds")
MAX_INPUT = 1 << 20
TOKENS = ["0", "010", "0x", "0x1F", "-1", "1e400", "-0", "18446744073709551616", "NaN",
          "Infinity", "null", "true", "[]", "{}", '"', "'", "\\", "\x1b[2J", "\x00", "\n", "\r",
          "\t", ":", "=", "/", "#", "+", "name=", "gen:", "seed=", "count=", "rev=", "S=",
          "${OTPU_VECTORS_DIR}", "$(x)", "`x`", "\u202e", "\udcff", "]]>", "<", "&",
          "9" * 30, "a" * 300]
JSON_VALUES = [None, True, False, 0, -1, 1 << 64, 10 ** 30, 1e308, -1e308, 0.5, float("nan"),
               float("inf"), "", "x", "\x1b[31m", "\udcff", "a/b", "../../..", "repro/x",
               "pass", "fail", "crash", "1/0", "2/1", "2024-01-01T00:00:00", [], {}, [[[]]],
               {"a": {"b": {}}}]


def mutate_text(rng, text, seeds):
    """text with one to four byte-level mutations"""
    data = bytearray(text.encode("utf-8", "surrogateescape"))
    for _ in range(rng.randint(1, 4)):
        k = rng.randrange(7)
        at = rng.randint(0, len(data))
        if k == 0 and data:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif k == 1:
            data[at:at] = bytes([rng.randrange(256)])
        elif k == 2 and data:
            del data[at:at + rng.randint(1, 16)]
        elif k == 3:
            data[at:at] = rng.choice(TOKENS).encode("utf-8", "surrogateescape")
        elif k == 4 and data:
            piece = data[at:at + rng.randint(1, 64)]
            data[at:at] = piece * rng.randint(1, 8)
        elif k == 5:
            other = rng.choice(seeds).encode("utf-8", "surrogateescape")
            cut = rng.randint(0, len(other))
            data = data[:at] + other[cut:cut + rng.randint(1, 256)]
        elif k == 6 and data:  # a line or a field repeated or dropped
            cut = rng.randint(0, len(data))
            data = data[:cut] + data[at:] if rng.random() < 0.5 else data + data[cut:]
    return bytes(data[:MAX_INPUT]).decode("utf-8", "surrogateescape")


def _nodes(doc, path=()):
    yield path
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _nodes(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _nodes(v, path + (i,))


def _get(doc, path):
    for k in path:
        doc = doc[k]
    return doc


def mutate_json(rng, text, seeds):
    """text parsed and changed in its structure, as JSON again (NaN and Infinity included)"""
    doc = json.loads(text)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(list(_nodes(doc)))
        if not path:
            doc = rng.choice(JSON_VALUES) if rng.random() < 0.1 else doc
            continue
        parent, key = _get(doc, path[:-1]), path[-1]
        k = rng.randrange(5)
        if k == 0:
            parent[key] = rng.choice(JSON_VALUES)
        elif k == 1:
            del parent[key]
        elif k == 2 and isinstance(parent, dict):
            parent[rng.choice(["extra", "kind", "repro", "identity", ""])] = \
                rng.choice(JSON_VALUES)
        elif k == 3 and isinstance(parent, list):
            parent.insert(rng.randint(0, len(parent)), parent[key])
        else:
            nested = parent[key]
            for _ in range(rng.choice([2, 50, 5000])):
                nested = [nested]
            parent[key] = nested
    return json.dumps(doc)


def mutate(rng, text, seeds):
    if rng.random() < 0.5:
        try:
            return mutate_json(rng, text, seeds)
        except (ValueError, RecursionError):
            pass
    return mutate_text(rng, text, seeds)


class Targets:
    """each target: seeds and a function that runs one input through a parser and what
    consumes what it accepts"""

    def __init__(self, tmp):
        self.tmp = tmp
        self.out = os.path.join(tmp, "out")
        os.makedirs(self.out)
        for d in ("vectors/isa/ld_st", "vectors/isa/random_003", "bench/bench_small_vops"):
            os.makedirs(os.path.join(tmp, d))
            open(os.path.join(tmp, d, "case.txt"), "w").close()
        os.environ.update(OTPU_VECTORS_DIR=os.path.join(tmp, "vectors"),
                          OTPU_BENCH_DIR=os.path.join(tmp, "bench"))
        suites = [open(p).read() for p in sorted(glob.glob(os.path.join(ROOT, "ci", "*.suite")))]
        lines = [ln for s in suites for ln in s.splitlines() if ln.strip()]
        specs = [ln.split()[0] for ln in lines if ln.startswith("gen:")]

        def seed(name):
            with open(os.path.join(SEEDS, name)) as f:
                return f.read()
        self.targets = {
            "suite-file": (suites, self.suite_file),
            "suite-line": (lines, self.suite_line),
            "gen-spec": (specs + ["gen:mm:seed=0x10:count=3:rev=acf0c1c6:S=2:PAIR=1",
                                   "gen:fp:seed=1:count=2:rev=acf0c1c6:data=finite"],
                         self.gen_spec),
            "number": (["0", "7", "65536", "0x10000", "18446744073709551615"], self.number),
            "results": ([seed("results.json")], self.results),
            "run-file": ([seed("run.json")], self.run_file),
            "results-lines": ([seed("results.jsonl")], self.results_lines),
            "waivers": ([seed("waivers.toml")], self.waivers),
            "rtl-source": ([open(p).read() for p in
                            sorted(glob.glob(os.path.join(ROOT, "rtl", "otpu_*.sv")))[:4]],
                           self.rtl_source),
            "coverage-dat": ([seed("coverage.dat")], self.coverage_dat),
        }
        self.night = results.parse_results(seed("results.json"), "results.json")

    def suite_file(self, text):
        path = os.path.join(self.tmp, "fuzz.suite")
        with open(path, "w", errors="surrogateescape") as f:
            f.write(text)
        for e in suite.read_suite_file(path):
            if e.gen is None or e.gen.count <= 1000:
                suite.tests_of(e, os.path.join(self.tmp, "gen"))

    def suite_line(self, text):
        parsed = suite.parse_line(text, "fuzz")
        if parsed and parsed[0].startswith("gen:"):
            self.gen_spec(parsed[0])

    def gen_spec(self, text):
        g = suite.parse_gen(text, "fuzz")
        again = suite.parse_gen(g.canonical(), "fuzz")
        assert again == g, f"{g} re-parses as {again}"
        assert 1 <= g.count <= suite.MAX_COUNT and g.seed >= 0
        suite.gen_name(g)

    def number(self, text):
        v = number(text, "fuzz")
        assert number(str(v), "fuzz") == v and number(hex(v), "fuzz") == v

    def results(self, text):
        run, tests = results.parse_results(text, "results.json")
        self.consume(run, tests)

    def run_file(self, text):
        run, planned = results.parse_run(text, "run.json")
        self.consume(run, [merge.lost_record(n, "lost") for n in planned])

    def results_lines(self, text):
        results.parse_lines(text, "results.jsonl")

    def waivers(self, text):
        """a waiver file, and what it does to the seed night's failures"""
        found = waivers.parse(text, "waivers.toml")
        run, tests = self.night
        tests = [dict(t) for t in tests]
        self.consume(run, tests, found)

    def rtl_source(self, text):
        """an RTL source the localizer reads (rtl_lines, spectrum): every line of it as a
        covered one's reader, ranked"""
        path = os.path.join(self.tmp, "fuzz.sv")
        with open(path, "w", errors="surrogateescape") as f:
            f.write(text)
        src = spectrum.Sources()
        n = len(text.splitlines())
        covered = {(path, k) for k in range(1, n + 1, 3)}
        derived = rtl_lines.derived(covered, src.statement)
        assert all(by <= covered for by in derived.values())
        ran = [covered | set(derived)]
        for row in spectrum.rank(ran, [], src, types.SimpleNamespace(width=lambda f, n: 1)):
            assert 0 <= row["score"] <= 1

    def coverage_dat(self, text):
        """a code-coverage file: refused (files.BadFile) or read into executed lines"""
        path = os.path.join(self.tmp, "fuzz.dat")
        with open(path, "w", errors="surrogateescape") as f:
            f.write(text)
        try:
            layout, lines = spectrum.executed_lines(path, spectrum.Sources())
        except files.BadFile:
            return
        assert lines <= set(layout.owners) | set(layout.derived)

    def consume(self, run, tests, waiver_list=()):
        """what merge and the outputs do with accepted results"""
        index, count = results.shard_of(run["shard"] or "1/1")
        shard = types.SimpleNamespace(folder="f", run=run, tests=tests, planned=None,
                                      index=index, count=count)
        try:
            merge.check_parts([shard])
        except UsageError:
            pass
        merged = merge.merged_run([shard], run["identity"], ["f"], self.out)
        buckets.assign(tests)  # (what finish does: lost tests get theirs, then the buckets)
        applied = waivers.apply(waiver_list, tests)
        groups = buckets.group(tests)
        summary = report.summarize(merged, tests, None,
                                   {"new_failures": [], "fixed": [], "still_failing": []},
                                   groups, applied)
        report.summary_text(summary)
        report.failure_lines(tests)
        path = os.path.join(self.out, "junit.xml")
        report.write_junit(path, merged, tests)
        ET.parse(path)
        html.render_index(self.out, summary, tests, [])
        json.dumps(summary)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--time", type=float, default=30, help="seconds to run (default 30)")
    ap.add_argument("--seed", type=int, default=1, help="the random seed (default 1)")
    ap.add_argument("--crash-dir", default=tempfile.gettempdir(),
                    help="where a finding's input is saved")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    with tempfile.TemporaryDirectory(prefix="otpu-fuzz-regress-") as tmp:
        t = Targets(tmp)
        names = sorted(t.targets)
        runs = {n: [0, 0] for n in names}  # inputs, accepted
        end = time.monotonic() + a.time
        i = 0
        while time.monotonic() < end:
            name = names[i % len(names)]
            seeds, run = t.targets[name]
            text = rng.choice(seeds) if rng.random() < 0.02 else \
                mutate(rng, rng.choice(seeds), seeds)
            runs[name][0] += 1
            try:
                run(text)
                runs[name][1] += 1
            except UsageError:
                pass
            except Exception:  # anything else is a finding
                path = os.path.join(a.crash_dir, f"fuzz-regress-{name}-{a.seed}-{i}")
                with open(path, "w", errors="surrogateescape") as f:
                    f.write(text)
                print(f"FINDING in {name} (input {i}, --seed {a.seed}), saved as {path}:\n"
                      f"{text[:400]!r}\n{traceback.format_exc()}", flush=True)
                return 1
            i += 1
    print(f"fuzz_regress: {i} inputs in {a.time:g} s, nothing found; inputs (accepted) per "
          "target: " + ", ".join(f"{n} {r[0]} ({r[1]})" for n, r in runs.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
