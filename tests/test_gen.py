#!/usr/bin/env python3
"""otpu-gen's tests (gen/README.md).

  test_gen.py determinism GEN           every family, the same command twice: identical bytes
  test_gen.py validity GEN SIM N [KEY=VALUE ...]
                                        N bundles per family run in otpu-sim with their outcome
  test_gen.py configs GEN SIM N         the same on a few non-default Configs
  test_gen.py bad-input GEN             bad usage: exit 2 and one line
  test_gen.py lockstep GEN LOCKSTEP N   N bundles per family pass otpu-lockstep on the RTL
  test_gen.py revision GEN SIM N        N bundles per family of revision acf0c1c6 (REV=), each
                                        with its outcome and no instruction the revision lacks
  test_gen.py finite GEN SIM N          --data finite: no NaN, inf or huge fp32 data word where
                                        --data all has them; written again; valid
  test_gen.py metrics SCRIPT GEN SIM COV  scripts/gen_metrics: its figures, and bad usage
  test_gen.py cover GEN SIM COV         --cover: a directed round hits more bins than an
                                        undirected one; gen.txt's command writes it again
"""
import concurrent.futures
import json
import os
import shlex
import struct
import subprocess
import sys
import tempfile

FAMILIES = ["mix", "hazard", "dma", "mm", "stream", "fp", "error"]
CONFIGS = [
    ["S=2"],
    ["D=16"],
    ["TMEM_WORDS=4096", "DRAM_BYTES=16384"],
    ["PAIR=1"],
    ["DSTEP=1", "STREAM=1"],
    ["MCOLS=4", "ACT_ROWS=8"],
]


def gen(exe, family, seed, count, out, extra=(), first=0):
    cmd = [exe, family, "--seed", str(seed), "--count", str(count), "--out", out,
           "--first", str(first)] + list(extra)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()}")


def read_kv(path):
    out = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            out[k] = v
    return out


def tree(folder):
    files = {}
    for root, _, names in os.walk(folder):
        for n in names:
            p = os.path.join(root, n)
            with open(p, "rb") as f:
                files[os.path.relpath(p, folder)] = f.read()
    return files


def determinism(exe):
    for family in FAMILIES:
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            gen(exe, family, 7, 6, a)
            gen(exe, family, 7, 6, b)
            ta, tb = tree(a), tree(b)
            # gen.txt names the --out folder: compare it without that
            for t, d in ((ta, a), (tb, b)):
                for k in list(t):
                    if k.endswith("gen.txt"):
                        t[k] = t[k].replace(d.encode(), b"OUT")
            hosts = sum(1 for k in ta if k.endswith("host.txt"))  # (mix: the host's steps)
            assert len(ta) == 6 * 4 + hosts, f"{family}: {len(ta)} files, want 6 bundles of 4"
            assert family == "mix" or not hosts, f"{family}: host steps"
            assert ta == tb, f"{family}: two runs of the same command differ"
            # and another seed gives other programs
            with tempfile.TemporaryDirectory() as c:
                gen(exe, family, 8, 1, c)
                pa = [v for k, v in ta.items() if k.endswith("prog_0.hex")][0]
                pc = [v for k, v in tree(c).items() if k.endswith("prog_0.hex")][0]
                assert pa != pc, f"{family}: seeds 7 and 8 give the same program"
        print(f"determinism {family}: ok")
    # written over a bundle of more slices, a bundle keeps none of its files
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        gen(exe, "mix", 7, 1, a, ["S=3"])
        gen(exe, "mix", 7, 1, a, ["S=2"])
        gen(exe, "mix", 7, 1, b, ["S=2"])
        ta, tb = tree(a), tree(b)
        for t, d in ((ta, a), (tb, b)):
            for k in list(t):
                if k.endswith("gen.txt"):
                    t[k] = t[k].replace(d.encode(), b"OUT")
        assert ta == tb, f"over an S=3 bundle: {sorted(set(ta) ^ set(tb))}"
    print("determinism over an earlier bundle: ok")


HOSTED = []  # bundles with host steps (host.txt) check_bundles ran


def check_bundles(sim, folder):
    """Run every bundle of folder in otpu-sim; returns (ok, error) counts."""
    n_ok = n_err = 0
    for name in sorted(os.listdir(folder)):
        b = os.path.join(folder, name)
        case = read_kv(os.path.join(b, "case.txt"))
        info = read_kv(os.path.join(b, "gen.txt"))
        r = subprocess.run([sim, "run", b], capture_output=True, text=True, timeout=120)
        if os.path.exists(os.path.join(b, "host.txt")):  # every step reached, every expect held
            HOSTED.append(b)
            assert "steps done" in r.stdout and "host:" not in r.stderr, f"{b}: {r.stderr}"
        if case["expect"] == "ok":
            assert r.returncode == 0, f"{b}: expect=ok but otpu-sim exit {r.returncode}: {r.stderr}"
            n_ok += 1
        else:
            assert r.returncode == 1, f"{b}: expect=error but otpu-sim exit {r.returncode}"
            assert case.get("error"), f"{b}: expect=error without error="
            want = "otpu-sim: error: " + info["model_error"]
            assert want in r.stderr, f"{b}: otpu-sim said {r.stderr!r}, gen.txt {want!r}"
            n_err += 1
        # the data is not mostly zeros (the first 16 KiB: the data pools start at 0)
        dram = open(os.path.join(b, "dram_0.bin"), "rb").read()[:16384]
        words = [dram[i:i + 4] for i in range(0, len(dram) - 3, 4)]
        zero = sum(1 for w in words if w == b"\0\0\0\0")
        assert len(words) >= 256 and zero < len(words) // 8, f"{b}: DRAM mostly zero"
    return n_ok, n_err


def validity(exe, sim, n, extra):
    for family in FAMILIES:
        with tempfile.TemporaryDirectory() as d:
            gen(exe, family, 1, n, d, extra)
            n_ok, n_err = check_bundles(sim, d)
            assert n_ok + n_err == n
            if family == "error":
                assert n_err == n, f"error family: {n_ok} bundles ran clean"
            else:
                assert n_ok == n, f"{family}: {n_err} bundles expect an error"
            hosted = sum(1 for b in HOSTED if b.startswith(d))
            # the mix family's slices wait for the host now and then (40% of its bundles)
            assert family != "mix" or n < 20 or hosted > 0, "mix: no bundle with host steps"
        print(f"validity {family} {' '.join(extra)}: {n_ok} ok, {n_err} expected errors, "
              f"{hosted} with host steps")


def bad_input(exe):
    with tempfile.TemporaryDirectory() as d:
        blocked = os.path.join(d, "file")
        open(blocked, "w").close()
        cover = os.path.join(d, "cover.json")
        with open(cover, "w") as f:
            f.write('{"model": "otpu-coverage", "version": 1, "configs": [], "groups": []}')
        base = ["mix", "--seed", "1", "--count", "1", "--out", d]
        cases = [  # (arguments, a word of the message)
            (["nosuch", "--seed", "1", "--count", "1", "--out", d], "unknown family"),
            (["mix", "--seed", "x1", "--count", "1", "--out", d], "not a number"),
            (["mix", "--seed", "-1", "--count", "1", "--out", d], "not a number"),
            (["mix", "--seed", "01", "--count", "1", "--out", d], "not a number"),
            (["mix", "--seed", "1", "--count", "0", "--out", d], "--count"),
            (["mix", "--seed", "1", "--count", "abc", "--out", d], "not a number"),
            (base + ["D=7"], "D"),
            (base + ["NOPE=1"], "not a Config field"),
            (base + ["--rev", "nosuch"], "not a revision"),
            (["mm", "--seed", "1", "--count", "1", "--out", d, "--rev", "acf0c1c6", "PAIR=1"],
             "PAIR"),
            (base + ["S=0x"], "not a number"),
            (["mix", "--seed", "1", "--count", "1", "--out", blocked], "not a folder"),
            (["mix", "--seed", "1", "--count", "1", "--out", os.path.join(blocked, "sub")],
             "a part of the path is not a folder"),
            (base + ["S=2", "S=3"], "S is given twice"),   # as case.txt: a field once
            (base + ["D=32", "MCOLS=8", "D=32"], "D is given twice"),
            (base + ["S=2", "s=2"], "not a Config field"),
            (["mix", "--seed", "1", "--count", "1"], "required"),
            (base + ["--bogus"], "unknown option"),
            (["stream", "--seed", "1", "--count", "1", "--out", d, "DSTEP=0", "STREAM=0"],
             "DSTEP"),
            (base + ["--cover", os.path.join(d, "nosuch.json")], "cannot open"),
            (base + ["--cover", blocked], "not JSON"),
            (base + ["--cover", cover], "version 1"),
            (base + ["--cover", d], "not a regular file"),
            (base + ["--cover", cover, "--variant", "1"], "not with --variant"),
            (base + ["--tries", "2"], "--tries goes with --cover"),
            (base + ["--cover", cover, "--tries", "0"], "1..64"),
            (base + ["--cover", cover, "--tries", "65"], "1..64"),
            (base + ["--variant", "x"], "not a number"),
            (base + ["--cover"], "needs a value"),
            (base + ["--data", "nan"], "not all or finite"),
            (base + ["--data", "Finite"], "not all or finite"),
            (base + ["--data"], "needs a value"),
        ]
        for args, word in cases:
            r = subprocess.run([exe] + args, capture_output=True, text=True, timeout=60)
            lines = r.stderr.strip().splitlines()
            assert r.returncode == 2, f"{args}: exit {r.returncode}, want 2"
            assert len(lines) == 1 and lines[0].startswith("otpu-gen: "), f"{args}: {r.stderr!r}"
            assert word in lines[0], f"{args}: {lines[0]!r} does not say {word!r}"
        if os.geteuid() != 0:  # root writes anywhere
            ro = os.path.join(d, "ro")
            os.mkdir(ro, 0o500)
            r = subprocess.run([exe, "mix", "--seed", "1", "--count", "1", "--out", ro],
                               capture_output=True, text=True)
            assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
        r = subprocess.run([exe, "--help"], capture_output=True, text=True)
        assert r.returncode == 0 and all(f in r.stdout for f in FAMILIES)
    print(f"bad input: {len(cases)} cases ok")


def coverage_of(sim, cov, folder, merged, start=None):
    """every bundle of folder run in the model with --coverage, merged (with start) into
    merged; the number of reachable bins hit"""
    files = [start] if start else []
    for name in sorted(os.listdir(folder)):
        b = os.path.join(folder, name)
        if os.path.isdir(b):
            f = b + ".json"
            subprocess.run([sim, "run", b, "--coverage", f], capture_output=True, timeout=120)
            files.append(f)
    subprocess.run([cov, "merge", *files, "-o", merged], check=True, capture_output=True)
    with open(merged) as f:
        doc = json.load(f)
    return sum(1 for g in doc["groups"] for b in g["bins"]
               if "unreachable" not in b and b["count"] > 0)


def cover(exe, sim, cov):
    with tempfile.TemporaryDirectory() as d:
        def at(*p):
            return os.path.join(d, *p)
        gen(exe, "mix", 5, 15, at("first"), ["S=2"])
        first = coverage_of(sim, cov, at("first"), at("first.json"))
        gen(exe, "mix", 5, 15, at("plain"), ["S=2"], first=15)
        gen(exe, "mix", 5, 15, at("aimed"), ["S=2", "--cover", at("first.json")], first=15)
        plain = coverage_of(sim, cov, at("plain"), at("plain.json"), at("first.json"))
        aimed = coverage_of(sim, cov, at("aimed"), at("aimed.json"), at("first.json"))
        print(f"cover: {first} bins after 15 bundles; 15 more: {plain} undirected, {aimed} "
              "directed")
        assert aimed > plain, f"a directed round hit {aimed} bins, an undirected one {plain}"
        variants = [read_kv(at("aimed", n, "gen.txt"))["variant"]
                    for n in sorted(os.listdir(at("aimed"))) if not n.endswith(".json")]
        assert any(v != "0" for v in variants), "--cover never chose another variant"
        # gen.txt's command writes the chosen bundle again (no coverage file needed)
        for name in sorted(n for n in os.listdir(at("aimed")) if not n.endswith(".json"))[:3]:
            args = shlex.split(read_kv(at("aimed", name, "gen.txt"))["command"])[1:]
            args[args.index("--out") + 1] = at("again")
            subprocess.run([exe, *args], check=True, capture_output=True, timeout=120)
            ta, tb = tree(at("aimed", name)), tree(at("again", name))
            ta.pop("gen.txt")
            tb.pop("gen.txt")
            assert ta and ta == tb, f"{name}: its gen.txt command writes other bytes"
        # one try is variant 0: the undirected bundle
        gen(exe, "mix", 5, 3, at("one"), ["S=2", "--cover", at("first.json"), "--tries", "1"],
            first=15)
        for name in os.listdir(at("one")):
            ta, tb = tree(at("one", name)), tree(at("plain", name))
            ta.pop("gen.txt")
            tb.pop("gen.txt")
            assert ta == tb, f"{name}: --tries 1 is not the undirected bundle"
    print("cover: ok")


def gen_metrics(script, exe, sim, cov):
    tools = [exe, sim, cov]
    r = subprocess.run([sys.executable, script, *tools, "--count", "3"], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    last = r.stdout.strip().splitlines()[-1]
    for k in ("MM changed by weights", "QACT bytes vary", "VOP inexact", "GATHER distinct src",
              "ran on nothing"):
        assert last.startswith("all ") and k in last, f"gen_metrics: {last!r} lacks {k!r}"
    rows = [(["nowhere", sim, cov], "not an executable file"),
            ([*tools, "--families", "nope"], "unknown family"),
            ([*tools, "--count", "0"], "--count"),
            ([*tools, "--seed", "-1"], "--seed"),
            ([*tools, "--count", "1", "--families", "dma", "--json", "/nonexistent/x.json"],
             "No such file")]
    for args, word in rows:
        r = subprocess.run([sys.executable, script, *args], capture_output=True, text=True,
                           timeout=120)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and word in lines[0], (args, r.stderr)
    print(f"metrics: ok ({len(rows)} bad-usage rows)")


def lockstep(exe, ls, n):
    with tempfile.TemporaryDirectory() as d:
        for family in FAMILIES:
            gen(exe, family, 1, n, d)
        rep = os.path.join(d, "reports")

        def one(name):  # a line for a failing bundle, None for a pass
            b = os.path.join(d, name)
            r = subprocess.run([ls, "run", b, "--report", os.path.join(rep, name),
                                "--wave-window", "0"], capture_output=True, text=True, timeout=600)
            if r.returncode == 0:
                return None
            last = (r.stdout + r.stderr).strip().splitlines()[-1:]
            where = os.path.join(rep, name, "divergence.txt")
            if os.path.exists(where):  # the instruction at fault
                last += [l.strip() for l in open(where) if "instruction" in l][:1]
            return f"{name}: exit {r.returncode}: {' | '.join(last)}"

        names = sorted(n for n in os.listdir(d) if n != "reports")
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:  # the CI's 2 cores
            failed = [f for f in pool.map(one, names) if f]
    for f in failed:
        print(f)
    print(f"lockstep: {len(names) - len(failed)} of {len(names)} passed")
    assert names and not failed


def revision(exe, sim, n):
    for family in FAMILIES:
        with tempfile.TemporaryDirectory() as d:
            if family == "stream":  # DSTEP and STREAM are not in that revision
                r = subprocess.run([exe, family, "--seed", "1", "--count", "1", "--out", d,
                                    "--rev", "acf0c1c6"], capture_output=True, text=True)
                assert r.returncode == 2 and "which ISA revision acf0c1c6 lacks" in r.stderr, \
                    f"stream --rev acf0c1c6: exit {r.returncode}: {r.stderr}"
                continue
            gen(exe, family, 1, n, d, ["--rev", "acf0c1c6"])
            for name in os.listdir(d):
                b = os.path.join(d, name)
                kv = read_kv(os.path.join(b, "case.txt"))
                assert kv.get("REV") == "acf0c1c6", b
                assert not os.path.exists(os.path.join(b, "host.txt")), f"{b}: host steps " \
                    "without WAITW"
                # that revision has no run arguments (its RTL's testbench cannot set R8..R15)
                assert "ARGS" not in kv, f"{b}: ARGS={kv.get('ARGS')}"
                for p in (f for f in os.listdir(b) if f.startswith("prog_")):
                    r = subprocess.run([sim, "disasm", os.path.join(b, p), "--rev", "acf0c1c6"],
                                       capture_output=True, text=True, timeout=60)
                    assert r.returncode == 0 and "not in ISA revision" not in r.stdout, \
                        f"{b}/{p}: {r.returncode} {r.stderr}" + "".join(
                            ln for ln in r.stdout.splitlines(True) if "not in ISA" in ln)
            n_ok, n_err = check_bundles(sim, d)
            assert n_ok + n_err == n and (n_err == n if family == "error" else n_ok == n), \
                f"{family}: {n_ok} ok, {n_err} errors"
        print(f"revision acf0c1c6 {family}: {n_ok} ok, {n_err} expected errors")


def far_words(folder):
    """(words, words of exponent 250 and up: NaN, inf, huge) among the first 16 KiB of every
    DRAM image under folder: the fp32 words region (gen/layout.c), but for hazard, whose tiny
    pool puts weights there too"""
    words = far = 0
    for name in sorted(os.listdir(folder)):
        for img in (f for f in os.listdir(os.path.join(folder, name)) if f.startswith("dram_")):
            with open(os.path.join(folder, name, img), "rb") as f:
                b = f.read(16384)
            for (w,) in struct.iter_unpack("<I", b[:len(b) // 4 * 4]):
                words += 1
                far += (w >> 23) & 0xFF >= 250
    return words, far


def finite(exe, sim, n):
    """--data finite: no NaN, infinity or huge value in the fp32 words, where --data all has
    them; gen.txt's command writes the same bundle again; the programs valid, of either
    revision"""
    for family in (f for f in FAMILIES if f != "hazard"):
        with tempfile.TemporaryDirectory() as d:
            rev = ["--rev", "acf0c1c6"] if family not in ("stream",) else []
            gen(exe, family, 3, n, os.path.join(d, "all"), rev)
            gen(exe, family, 3, n, os.path.join(d, "finite"), rev + ["--data", "finite"])
            (wa, fa), (wf, ff) = far_words(os.path.join(d, "all")), far_words(
                os.path.join(d, "finite"))
            assert wa == wf > 0 and fa > 0 and ff == 0, \
                f"{family}: {fa} of {wa} words far out with --data all, {ff} with finite"
            one = os.path.join(d, "finite", f"{family}-3-0000")
            cmd = read_kv(os.path.join(one, "gen.txt"))["command"]
            assert cmd.endswith("--data finite"), cmd
            again = os.path.join(d, "again")
            gen(exe, family, 3, 1, again, rev + ["--data", "finite"])
            same = {k: v for k, v in tree(one).items() if k != "gen.txt"}  # (its --out differs)
            assert same == {k: v for k, v in tree(os.path.join(again, f"{family}-3-0000"))
                            .items() if k != "gen.txt"}, family
            n_ok, n_err = check_bundles(sim, os.path.join(d, "finite"))
            assert n_ok + n_err == n and (n_err == n if family == "error" else n_ok == n), \
                f"{family}: {n_ok} ok, {n_err} errors"
        print(f"--data finite {family}: {fa} of {wa} words far out with all data, none with "
              f"finite; {n} valid")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    mode, exe = sys.argv[1], sys.argv[2]
    if mode == "determinism":
        determinism(exe)
    elif mode == "validity":
        validity(exe, sys.argv[3], int(sys.argv[4]), sys.argv[5:])
    elif mode == "configs":
        for cfg in CONFIGS:
            validity(exe, sys.argv[3], int(sys.argv[4]), cfg)
    elif mode == "bad-input":
        bad_input(exe)
    elif mode == "lockstep":
        lockstep(exe, sys.argv[3], int(sys.argv[4]))
    elif mode == "finite":
        finite(exe, sys.argv[3], int(sys.argv[4]))
    elif mode == "revision":
        revision(exe, sys.argv[3], int(sys.argv[4]))
    elif mode == "metrics":
        gen_metrics(exe, sys.argv[3], sys.argv[4], sys.argv[5])
    elif mode == "cover":
        cover(exe, sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
