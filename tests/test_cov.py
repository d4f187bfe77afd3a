#!/usr/bin/env python3
"""otpu-sim run --coverage and otpu-cov (docs/coverage.md): merging adds the counts of every bin,
the report gives percentages and lists every bin never hit, bad input is exit 2 and one line.

usage: test_cov.py OTPU_SIM OTPU_COV VECTORS_DIR"""
import json
import os
import subprocess
import sys
import tempfile


def run(*cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def bins(doc):
    """{(group, bin): (count, reason)} of a coverage file."""
    return {(g["name"], b["name"]): (b["count"], b.get("unreachable"))
            for g in doc["groups"] for b in g["bins"]}


def main():
    sim, cov, vectors = sys.argv[1:4]
    problems = []

    def check(cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            problems.append(what)

    rc, out, _ = run(cov, "--help")
    check(rc == 0 and "merge" in out and "report" in out, "otpu-cov --help")
    with tempfile.TemporaryDirectory(prefix="otpu-cov-") as tmp:
        files = []
        for case in ("ld_st", "kernel_mlp_S1"):
            f = os.path.join(tmp, case + ".json")
            rc, _, err = run(sim, "run", os.path.join(vectors, "isa", case), "--coverage", f)
            check(rc == 0 and os.path.isfile(f),
                  f"otpu-sim run --coverage on {case}: {err.strip()}")
            files.append(f)
        if problems:
            return 1
        docs = [json.load(open(f)) for f in files]
        check(all(d["version"] == docs[0]["version"] for d in docs), "one model version")
        check(all("rtl" not in [g["name"] for g in d["groups"]] for d in docs),
              "a file of otpu-sim has no rtl group")
        merged = os.path.join(tmp, "merged.json")
        rc, _, err = run(cov, "merge", *files, "-o", merged)
        check(rc == 0, f"merge: {err.strip()}")
        m = bins(json.load(open(merged)))
        a, b = bins(docs[0]), bins(docs[1])
        check(set(m) == set(a) | set(b), "the merged file has every bin of its inputs")
        wrong = [k for k in m if m[k][0] != a.get(k, (0,))[0] + b.get(k, (0,))[0]]
        check(not wrong, f"merged counts are the sums ({len(m)} bins; wrong: {wrong[:3]})")
        check(any(a[k][0] and b[k][0] for k in a if k in b), "some bin was hit by both runs")

        rc, rep, err = run(cov, "report", merged)
        check(rc == 0 and "overall" in rep, "report runs")
        empty = [k for k, (n, why) in m.items() if n == 0 and why is None]
        lines = set(line.strip() for line in rep.splitlines())
        missing = [k for k in empty if k[1] not in lines]
        check(empty and not missing, f"the report lists all {len(empty)} empty bins "
              f"(missing: {missing[:3]})")
        hit = [k for k, (n, why) in m.items() if n and why is None]
        check(not any(k[1] in lines for k in hit if k[1] not in {e[1] for e in empty}),
              "the report does not list a hit bin as empty")
        reach = [k for k, (n, why) in m.items() if why is None]
        pct = 100.0 * len(hit) / len(reach)
        check(f"{pct:.1f}%" in rep, f"overall percentage {pct:.1f}% over the reachable bins")

        # counts near 2^63 saturate instead of wrapping to negative numbers
        big = os.path.join(tmp, "big.json")
        doc = json.load(open(files[0]))
        for g in doc["groups"]:
            for b in g["bins"]:
                b["count"] = 2 ** 63 - 1
        json.dump(doc, open(big, "w"))
        rc, _, err = run(cov, "merge", big, big, files[0], "-o", merged)
        counts = [n for n, _ in bins(json.load(open(merged))).values()] if rc == 0 else [-1]
        check(rc == 0 and min(counts) >= 0 and max(counts) == 2 ** 63 - 1,
              f"merged counts saturate at 2^63-1, never negative ({err.strip()})")
        # names are input: a control byte in a bin or group name is escaped in the report
        esc = os.path.join(tmp, "esc.json")
        doc = json.load(open(files[0]))
        doc["groups"][0]["name"] = "grp\x1b[2J"
        doc["groups"][0]["bins"][0].update(name="bin\x1b]0;x\x07", count=0)
        doc["groups"][0]["bins"][0].pop("unreachable", None)
        json.dump(doc, open(esc, "w"))
        rc, rep, err = run(cov, "report", esc)
        check(rc == 0 and "\x1b" not in rep and "\x07" not in rep
              and "grp\\x1b[2J" in rep and "bin\\x1b]0;x\\x07" in rep,
              f"report escapes control bytes of names ({err.strip()})")

        bad_json = os.path.join(tmp, "bad.json")
        with open(bad_json, "w") as f:
            f.write("{ not json")
        other = os.path.join(tmp, "other.json")
        doc = json.load(open(files[0]))
        doc["version"] += 1
        json.dump(doc, open(other, "w"))
        fifo = os.path.join(tmp, "cov.fifo")
        os.mkfifo(fifo)
        not_cov = os.path.join(tmp, "notcov.json")
        json.dump({"hello": 1}, open(not_cov, "w"))
        for what, args in [("invalid JSON", ["merge", files[0], bad_json, "-o", merged]),
                           ("another model version", ["merge", files[0], other, "-o", merged]),
                           ("not a coverage file", ["report", not_cov]),
                           ("an unreadable file", ["report", os.path.join(tmp, "none.json")]),
                           ("no files", ["merge", "-o", merged]),
                           ("no -o", ["merge", files[0]]),
                           ("report of invalid JSON", ["report", bad_json]),
                           ("a FIFO", ["report", fifo]),
                           ("a device", ["merge", files[0], "/dev/zero", "-o", merged]),
                           ("a directory", ["report", tmp]),
                           ("an unknown command", ["frobnicate"])]:
            rc, out, err = run(cov, *args)
            check(rc == 2 and len(err.strip().splitlines()) == 1 and not out,
                  f"{what}: exit 2 and one line ({rc}: {err.strip()})")
    print("FAIL" if problems else "PASS")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
