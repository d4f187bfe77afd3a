#!/usr/bin/env python3
"""otpu-shrink --variants (shrink/README.md, "Variants (witnesses)"): the variants of a bundle,
written and not run. On a copy of BUNDLE (with a plusargs.txt added): as many drops as the
program has instructions but its final HALT, then each LOOP count above 1 lowered to 1 (above
2, also to count - 1), then 4 data redraws, in that order, numbered v001, v002, ... in
variants.txt; each variant differs from the original in exactly what its line says (otpu-sim
disasm compares the programs) and is a valid bundle (otpu-sim run does not refuse it);
--max-variants caps them, drops first; the same --seed gives a byte-identical folder, another
seed other data and the same programs; a bundle with nothing to vary exits 1; bad input exits 2
with one line, nothing written.

usage: test_shrink_variants.py OTPU_SHRINK OTPU_SIM BUNDLE"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, too_few  # noqa: E402

DATA_DRAWS = 4
PLUSARGS = "+otpu_flip_unit=0 +otpu_flip_n=1 +otpu_flip_bit=0\n"


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def disasm(sim, hexfile):
    """[(opcode, text)] of a program, text without its index"""
    rc, out, err = run([sim, "disasm", hexfile])
    if rc:
        raise RuntimeError(f"otpu-sim disasm {hexfile}: exit {rc}: {err}")
    lines = [re.sub(r"^\s*\d+: ", "", x) for x in out.splitlines() if x.strip()]
    return [(x.split(" ")[0], x) for x in lines]


def loop_field(text, name):
    m = re.search(name + r"=(\S+)", text)
    return int(m.group(1), 0) if m else None


def after_drop(prog, i):
    """the program once instruction i is dropped: each LOOP around it one shorter, a LOOP left
    empty gone too (from the innermost outwards, as shrink/program.h says)"""
    n = len(prog)
    gone = [k == i for k in range(n)]
    body = {}
    for j in reversed(range(n)):
        if gone[j] or prog[j][0] != "LOOP":
            continue
        b = loop_field(prog[j][1], "body")
        kept = sum(not gone[k] for k in range(j + 1, min(j + b, n - 1) + 1))
        body[j] = kept
        gone[j] = kept == 0 and b > 0
    return [(op, re.sub(r"body=\S+", f"body={body[k]}", t) if k in body else t)
            for k, (op, t) in enumerate(prog) if not gone[k]]


def read(path):
    with open(path, "rb") as f:
        return f.read()


def tree(d):
    """{relative path: bytes} of every file under d"""
    out = {}
    for root, _, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            out[os.path.relpath(p, d)] = read(p)
    return out


def slices(bundle):
    return sorted(int(m.group(1)) for f in os.listdir(bundle)
                  if (m := re.match(r"prog_(\d+)\.hex$", f)))


def expected_lines(sim, bundle):
    """the variants.txt descriptions (their start) the bundle should give, in order"""
    drops, loops, data = [], [], 0
    for s in slices(bundle):
        prog = disasm(sim, os.path.join(bundle, f"prog_{s}.hex"))
        for i, (op, text) in enumerate(prog):
            if not (i == len(prog) - 1 and op == "HALT"):
                drops.append(f"drop slice {s} instruction {i} (pc {i}): {op}")
            count = loop_field(text, "count") if op == "LOOP" else None
            if count is not None and count > 1:
                loops.append(f"loop slice {s} pc {i} count {count} -> 1")
                if count > 2:
                    loops.append(f"loop slice {s} pc {i} count {count} -> {count - 1}")
        data |= os.path.getsize(os.path.join(bundle, f"dram_{s}.bin")) > 0
    draws = [f"data seed 1 draw {k} (" for k in range(1, DATA_DRAWS + 1)] if data else []
    return drops, loops, draws


def variants_txt(d):
    with open(os.path.join(d, "variants.txt")) as f:
        return [line.rstrip("\n").split("\t") for line in f]


def check_variant(c, sim, orig, d, name, what):
    """the variant differs from orig in exactly what its line says"""
    v = os.path.join(d, name)
    same = ["case.txt", "plusargs.txt"]
    ss = slices(orig)
    m = re.match(r"drop slice (\d+) instruction (\d+) ", what)
    m2 = re.match(r"loop slice (\d+) pc (\d+) count (\d+) -> (\d+)$", what)
    if m or m2:
        s = int((m or m2).group(1))
        same += [f"dram_{k}.bin" for k in ss] + [f"prog_{k}.hex" for k in ss if k != s]
        prog = disasm(sim, os.path.join(orig, f"prog_{s}.hex"))
        if m:
            want = after_drop(prog, int(m.group(2)))
        else:
            pc, to = int(m2.group(2)), int(m2.group(4))
            want = list(prog)
            want[pc] = ("LOOP", re.sub(r"count=\S+", f"count={hex(to)}", prog[pc][1]))
        got = disasm(sim, os.path.join(v, f"prog_{s}.hex"))
        prog_ok = got == want and got != prog
    else:
        same += [f"prog_{k}.hex" for k in ss]
        prog_ok = all(len(read(os.path.join(v, f"dram_{k}.bin"))) ==
                      len(read(os.path.join(orig, f"dram_{k}.bin"))) for k in ss) and \
            any(read(os.path.join(v, f"dram_{k}.bin")) != read(os.path.join(orig, f"dram_{k}.bin"))
                for k in ss)
    same_ok = all(read(os.path.join(v, f)) == read(os.path.join(orig, f)) for f in same)
    files_ok = sorted(os.listdir(v)) == sorted(os.listdir(orig))
    c(prog_ok and same_ok and files_ok, f"{name} differs in exactly '{what}'",
      f"program/data as said: {prog_ok}, the rest the same: {same_ok}, the same files: "
      f"{files_ok} ({sorted(os.listdir(v))})")


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    shrink, sim, src = (os.path.abspath(a) for a in sys.argv[1:])
    c = Checks()
    with tempfile.TemporaryDirectory(prefix="otpu-shrink-variants-") as tmp:
        orig = os.path.join(tmp, "bundle")
        shutil.copytree(src, orig)
        with open(os.path.join(orig, "plusargs.txt"), "w") as f:
            f.write(PLUSARGS)
        drops, loops, draws = expected_lines(sim, orig)
        want = drops + loops + draws
        if too_few(len(drops), 2, "instructions to drop") or too_few(len(loops), 1, "LOOPs"):
            return 1

        a = os.path.join(tmp, "a", "variants")  # (its parent is made too)
        rc, out, err = run([shrink, orig, "--variants", a])
        c(rc == 0 and out == f"otpu-shrink: {len(want)} variants in {a}\n",
          f"{len(want)} variants: exit 0, one line on stdout", f"exit {rc}\n{out}{err}")
        lines = variants_txt(a) if os.path.exists(os.path.join(a, "variants.txt")) else []
        names = [f"v{k:03d}" for k in range(1, len(want) + 1)]
        c([n for n, _ in lines] == names and
          sorted(os.listdir(a)) == sorted(names + ["variants.txt"]),
          f"variants.txt names v001..v{len(want):03d}, the folder holds them and nothing else",
          f"{lines}\n{sorted(os.listdir(a))}")
        c(len(lines) == len(want) and
          all(w == want[k] if k < len(drops) + len(loops) else w.startswith(want[k])
              for k, (_, w) in enumerate(lines)),
          f"the kinds in order: {len(drops)} drops (the instructions but the final HALT), "
          f"{len(loops)} LOOP counts, {len(draws)} data draws", "\n".join(
              f"{w!r} want {x!r}" for (_, w), x in zip(lines, want)))
        for name, what in lines:
            check_variant(c, sim, orig, a, name, what)
        refused = [n for n, _ in lines if run([sim, "run", os.path.join(a, n)])[0] == 2]
        c(not refused, "each variant is a valid bundle (otpu-sim run does not refuse it)",
          f"refused: {refused}")
        data = [n for n, w in lines if w.startswith("data ")]
        c(len({read(os.path.join(a, n, "dram_0.bin")) for n in data}) == len(data),
          "each data draw is other data")

        # determinism, and another seed
        b = os.path.join(tmp, "b")
        rc, _, err = run([shrink, orig, "--variants", b, "--seed", "1"])
        c(rc == 0 and tree(a) == tree(b), "the same seed: a byte-identical folder", err)
        s7 = os.path.join(tmp, "seed7")
        rc, _, err = run([shrink, orig, "--variants", s7, "--seed", "0x7"])
        t7, ta = tree(s7), tree(a)
        images = {f for f in ta if f.split(os.sep)[0] in data and f.endswith(".bin")}
        rest_same = set(t7) == set(ta) and all(t7[f] == ta[f] for f in ta
                                               if f not in images and f != "variants.txt")
        c(rc == 0 and rest_same and all(t7[f] != ta[f] for f in images) and
          variants_txt(s7)[-1][1].startswith(f"data seed 7 draw {DATA_DRAWS} ("),
          "--seed 0x7: the same drops and LOOP counts, other data", err)

        # --max-variants: drops first
        for cap in (3, len(drops) + 1, len(want) + 50):
            d = os.path.join(tmp, f"cap{cap}")
            rc, out, err = run([shrink, orig, "--variants", d, "--max-variants", str(cap)])
            n = min(cap, len(want))
            c(rc == 0 and [w for _, w in variants_txt(d)] == [w for _, w in lines][:n] and
              len(os.listdir(d)) == n + 1 and f" {n} variants in " in out,
              f"--max-variants {cap}: the first {n} variants", f"exit {rc}\n{out}{err}")

        # nothing to vary: a HALT alone, no DRAM data
        halt = os.path.join(tmp, "halt")
        os.mkdir(halt)
        shutil.copy(os.path.join(orig, "case.txt"), halt)
        with open(os.path.join(orig, "prog_0.hex")) as f:
            last = f.read().splitlines()[-8:]
        with open(os.path.join(halt, "prog_0.hex"), "w") as f:
            f.write("\n".join(last) + "\n")
        open(os.path.join(halt, "dram_0.bin"), "wb").close()
        d = os.path.join(tmp, "none")
        rc, out, err = run([shrink, halt, "--variants", d])
        c(rc == 1 and not out and len(err.splitlines()) == 1 and "no variant" in err and
          not os.path.exists(d), "a HALT alone and no DRAM data: exit 1, one line, no folder",
          f"exit {rc}\n{out}{err}")

        # bad input: exit 2, one line naming it, nothing written
        full = os.path.join(tmp, "full")
        os.mkdir(full)
        open(os.path.join(full, "x"), "w").close()
        afile = os.path.join(tmp, "afile")
        open(afile, "w").close()
        new = os.path.join(tmp, "new")
        missing = os.path.join(tmp, "missing")
        bad = [
            ([missing, "--variants", new], ["missing", "not a bundle"]),
            ([orig, "--variants", full], ["--variants", "is not empty"]),
            ([orig, "--variants", afile], ["--variants", "not a folder"]),
            ([orig, "--variants", new, "--out", os.path.join(tmp, "o")], ["--out"]),
            ([orig, "--variants", new, "--cmd", "false {}"], ["--cmd"]),
            ([orig, "--variants", new, "--max-tries", "3"], ["--max-tries"]),
            ([orig, "--variants", new, "--max-variants", "0"], ["--max-variants", "'0'"]),
            ([orig, "--variants", new, "--max-variants", "01"], ["--max-variants", "'01'"]),
            ([orig, "--variants", new, "--max-variants", "100001"], ["--max-variants"]),
            ([orig, "--variants", new, "--seed", "x"], ["--seed", "'x'"]),
            ([orig, "--variants", new, "--seed", "-1"], ["--seed", "'-1'"]),
            ([orig, "--seed", "3"], ["--seed", "--variants"]),
            ([orig, "--variants"], ["--variants"]),
        ]
        for args, words in bad:
            rc, out, err = run([shrink] + args)
            shown = " ".join(os.path.relpath(x, tmp) if x.startswith(tmp) else x for x in args)
            c(rc == 2 and len(err.splitlines()) == 1 and all(w in err for w in words) and
              not os.path.exists(new) and os.listdir(full) == ["x"],
              f"{shown}: exit 2, one line with {words}, nothing written",
              f"exit {rc}\nstdout {out!r}\nstderr {err!r}")
    return c.verdict()


if __name__ == "__main__":
    sys.exit(main())
