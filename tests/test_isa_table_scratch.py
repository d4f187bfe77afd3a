#!/usr/bin/env python3
"""docs/isa-table.md's two recipes, followed in a scratch copy of the tree: a flag added to a
format (DSTEP FRESH) and an opcode added (PROBE, of the DMA format), each one line of
sim/isa.def, then sim/gen_isa.py. The new opcode's semantics are stubs (an execute function
that does nothing, an empty footprint), as the recipe says. Then the decoder and disassembler
(otpu-sim disasm), the generator (otpu-gen programs use both), the coverage bins (otpu-sim run
--coverage) and the Python constants and assembler must all know them.

    test_isa_table_scratch.py SRCDIR
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

from checks import Checks

SRC = os.path.abspath(sys.argv[1])
FLAG_LINE = "  flag fresh 0x2\n"                     # after DSTEP's zero flag
OP_LINE = "op PROBE 0x08 DMA DMA\n"                  # after WAITW
EXEC_STUB = """
int otpu_exec_probe(otpu_slice *s, const otpu_instr *in, const otpu_ops *o)
{
    (void)s, (void)in, (void)o;
    return 0;
}
"""
FP_STUB = "static void fp_probe(const fp_args *a) { (void)a; }\n\n"


def sh(cmd, cwd, check_ok=False, **kw):
    """Runs cmd; a failure ends the test unless check_ok (the caller judges the status)."""
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, **kw)
    if r.returncode and not check_ok:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {r.returncode}:\n{r.stdout[-2000:]}"
                 f"\n{r.stderr[-2000:]}")
    return r


def copy_tree(dst):
    """The tree's files (git's list when it is a checkout), without build folders."""
    if os.path.isdir(os.path.join(SRC, ".git")) or os.path.isfile(os.path.join(SRC, ".git")):
        files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                                "--exclude-standard"], cwd=SRC, capture_output=True,
                               check=True).stdout.decode().split("\0")
        for f in filter(None, files):
            if os.path.isfile(os.path.join(SRC, f)):
                os.makedirs(os.path.dirname(os.path.join(dst, f)), exist_ok=True)
                shutil.copy2(os.path.join(SRC, f), os.path.join(dst, f))
    else:
        shutil.copytree(SRC, dst, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("build*", "__pycache__"))


def edit(path, old, new):
    text = open(path).read()
    if old not in text:
        sys.exit(f"FAIL: {path}: {old!r} not found (the recipe's anchor moved)")
    open(path, "w").write(text.replace(old, new, 1))


def main():
    expect = Checks()

    with tempfile.TemporaryDirectory(prefix="isa-scratch-") as tmp:
        root = os.path.join(tmp, "src")
        copy_tree(root)
        d = os.path.join(root, "sim", "isa.def")
        # the two one-line changes
        edit(d, "  flag zero 0x1 c=DZERO dis=ZERO\n",
             "  flag zero 0x1 c=DZERO dis=ZERO\n" + FLAG_LINE)
        edit(d, "op WAITW  0x07 DMA   WAITW\n", "op WAITW  0x07 DMA   WAITW\n" + OP_LINE)
        gen = [sys.executable, os.path.join(root, "sim", "gen_isa.py")]
        r = sh(gen + ["--check"], root, check_ok=True)
        expect(r.returncode == 1 and "sim/isa_formats.h is not what" in r.stdout,
               "isa-generated's --check fails, naming the stale file, before the generator runs")
        sh(gen, root)
        expect(sh(gen + ["--check"], root, check_ok=True).returncode == 0,
               "--check passes after it")
        # the new opcode's semantics: stubs
        with open(os.path.join(root, "sim", "slice.c"), "a") as f:
            f.write(EXEC_STUB)
        edit(os.path.join(root, "sim", "footprint.c"),
             "static void (*const footprint_of[256])", FP_STUB +
             "static void (*const footprint_of[256])")

        build = os.path.join(tmp, "build")
        sh(["meson", "setup", build, "-Drtl=disabled", "-Dtests=disabled"], root)
        sh(["meson", "compile", "-C", build, "otpu-sim", "otpu-gen"], root, timeout=600)
        sim = os.path.join(build, "tools", "otpu-sim", "otpu-sim")
        otpu_gen = os.path.join(build, "gen", "otpu-gen")

        # decoder and disassembler
        prog = os.path.join(tmp, "prog.hex")
        words = [0x08 | 2 << 8, 0x40, 0x8, 3, 0, 0, 0, 0,          # PROBE R2+0x40, 0x8, 3
                 0x12 | 0x2 << 24, 0x100, 0x10, 0x20, 1 | 64 << 16, 0, 0, 1]  # DSTEP FRESH
        with open(prog, "w") as f:
            f.write("".join(f"{w:08x}\n" for w in words))
        out = sh([sim, "disasm", prog], tmp).stdout.splitlines()
        expect(len(out) == 2 and out[0].endswith("PROBE dram=R2+0x40 tmem=0x8 n=3"),
               f"otpu-sim disasm decodes PROBE's operands ({out[:1]})")
        expect(len(out) == 2 and out[1].endswith(" FRESH") and "DSTEP" in out[1],
               f"otpu-sim disasm shows DSTEP's FRESH ({out[1:]})")

        # the generator: both appear in its programs, which ran in the model
        gdir = os.path.join(tmp, "gen")
        sh([otpu_gen, "mix", "--seed", "1", "--count", "6", "--out", gdir, "DSTEP=1"], tmp,
           timeout=300)
        text = ""
        for h in sorted(glob.glob(os.path.join(gdir, "*", "prog_*.hex"))):
            text += sh([sim, "disasm", h], tmp).stdout
        expect(" PROBE " in text, "otpu-gen emits PROBE")
        expect(any(" FRESH" in line for line in text.splitlines() if "DSTEP" in line),
               "otpu-gen emits DSTEP with FRESH")

        # coverage: their opcode-flags bins exist
        bundle = sorted(glob.glob(os.path.join(gdir, "*")))[0]
        cov = os.path.join(tmp, "cov.json")
        sh([sim, "run", bundle, "--coverage", cov], tmp, check_ok=True)
        names = json.dumps(json.load(open(cov)))
        expect('"PROBE -"' in names, "the coverage has the bin PROBE -")
        expect('"DSTEP fresh"' in names and '"DSTEP zero+fresh"' in names,
               "the coverage has the bins DSTEP fresh and DSTEP zero+fresh")

        # Python: the constants and the assembler
        code = ("from otpu import asm\n"
                "assert asm.PROBE == 0x08 and asm.F_FRESH == 0x2\n"
                "i = asm.instr('PROBE', dram=0x40, dram_reg=2, tmem=8, n=3)\n"
                f"assert i.encode() == {words[:8]!r}, i.encode()\n"
                "assert asm.instr('DSTEP', fresh=True).flags == 0x2\n")
        r = sh([sys.executable, "-c", code], tmp, check_ok=True,
               env=dict(os.environ, PYTHONPATH=os.path.join(root, "python"),
                        PYTHONDONTWRITEBYTECODE="1"))
        expect(r.returncode == 0, f"python otpu.asm knows PROBE and FRESH {r.stderr[-300:]}")
    return expect.verdict()


if __name__ == "__main__":
    sys.exit(main())
