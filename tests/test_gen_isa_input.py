#!/usr/bin/env python3
"""sim/gen_isa.py on descriptions it must refuse (exit 2, one line FILE:LINE: what is wrong,
nothing written) and --check on a stale output (exit 1, naming it).

    test_gen_isa_input.py SRCDIR
"""
import os
import shutil
import subprocess
import sys
import tempfile

SRC = os.path.abspath(sys.argv[1])
GEN = os.path.join(SRC, "sim", "gen_isa.py")
DEF = open(os.path.join(SRC, "sim", "isa.def")).read()

# (what, edit of the real description: (old, new) or a line appended, the message's part)
CASES = [
    ("unknown line kind", "bogus 1 2", "unknown line kind 'bogus'"),
    ("op: too few words", "op FOO 0x08 SEQ", "expected 'op NAME CODE UNIT FORMAT'"),
    ("op: unknown unit", "op FOO 0x08 GPU NONE", "unit 'GPU' is not one of"),
    ("op: code taken", "op FOO 0x20 MXU MM", "its name or code 0x20 is taken"),
    ("op: name taken", "op MM 0x08 MXU MM", "its name or code 0x08 is taken"),
    ("op: code not a number", "op FOO zz SEQ NONE", "opcode 'zz' is not a number"),
    ("op: code past 255", "op FOO 0x100 SEQ NONE", "opcode 0x100 is not in 0..255"),
    ("op: format not described", "op FOO 0x08 SEQ NOSUCH", "format NOSUCH is not described"),
    ("format twice", "format MM", "format MM twice"),
    ("field outside a format", ("op NOP    0x00 SEQ   NONE", "word x 1\nop NOP 0x00 SEQ NONE"),
     "outside a format"),
    ("flag: mask of two bits", ("  flag dup 0x8", "  flag dup 0x18"), "is not one bit"),
    ("flag: overlaps", ("  flag dup 0x8", "  flag dup 0x8\n  flag dup2 0x4"),
     "dup2: overlaps another flag"),
    ("flag: C name with another value", ("  flag dup 0x8", "  flag dup 0x8\n  flag x 0x10 c=ROW"),
     "OTPU_F_ROW is 0x1 elsewhere, 0x10 here"),
    ("flag: unknown option", ("  flag dup 0x8", "  flag dup 0x8 colour=red"),
     "unknown option 'colour=red'"),
    ("field twice", ("  word seg 6", "  word seg 6\n  word seg 7"), "field seg twice"),
    ("bits past bit 31", ("  word seg 6", "  bits seg 6 20 16"), "LO + WIDTH is past bit 31"),
    ("fields overlap in a word", ("  word seg 6", "  word seg 5"), "overlaps another field of w5"),
    ("word index out of range", ("  word seg 6", "  word seg 8"), "word 8 is not in 1..7"),
    ("register of two fields", ("  ri dst ra 3 shared", "  ri dst ra 3"),
     "ra is also src's (mark one 'shared')"),
    ("shared without an owner", ("  ri dst rb 2\n  ri sdst", "  ri dst rd 2 shared\n  ri sdst"),
     "shared, but no field owns rd"),
    ("reg: unknown register", ("  reg rd rd\n  word imm 1", "  reg rd re\n  word imm 1"),
     "REG is one of ra rb rc rd"),
    ("names: wrong count", ("names=full,row,col,scalar", "names=full,row"),
     "names has 2 names for 4 values"),
    ("ffield: wrong count", ("vals=eq,ne,ge,3 dis=EQ,NE,GE,cmp3?", "vals=eq,ne,ge"),
     "vals= and dis= need 4 names each"),
    ("ffield: no vals", ("ffield cmp 0 2 vals=eq,ne,ge,3 dis=EQ,NE,GE,cmp3?", "ffield cmp 0 2"),
     "vals= is missing"),
    ("forbid: unknown flag", ("  forbid half !row", "  forbid half !rows"),
     "forbid condition '!rows'"),
    ("forbid: unknown value", ("  forbid wf=3", "  forbid wf=int2"), "int2 is not one of"),
    ("size: unknown rule", ("  size rows empty\n  size cols empty\n",
                            "  size rows none\n  size cols empty\n"), "ZERO one of empty"),
    ("size: no rule", ("  size KB empty\n  size M error", "  size KB\n  size M error"),
     "expected 'size FIELD ZERO"),
    ("size: unknown field", ("  size KB empty\n  size M error", "  size KB empty\n  size Q error"),
     "size Q: not a bits, word or ri field"),
    ("size: a flag", ("  size KB empty\n  size M error", "  size KB empty\n  size acc error"),
     "size acc: not a bits, word or ri field"),
    ("size twice", ("  size KB empty\n  size M error", "  size KB empty\n  size KB error"),
     "size KB twice"),
    ("size: unknown option", ("  size KB empty\n", "  size KB empty when=acc\n"),
     "unknown option 'when=acc'"),
    ("size: unknown condition", ("size N empty error=rmax", "size N empty error=rmin"),
     "no field rmin"),
    ("size: too many alternatives", ("size N empty error=rmax",
                                     "size N empty error=rmax|acc|unit"), "error= holds 1..2"),
    ("size: too many conditions", ("size N empty error=rmax", "size N empty error=rmax&acc&unit"),
     "of one or two conditions"),
    ("size: empty condition", ("size N empty error=rmax", "size N empty error=rmax|"),
     "error= holds 1..2"),
    ("size: empty conjunct", ("size N empty error=rmax", "size N empty error=rmax&"),
     "error= holds 1..2"),
    ("dis: unknown kind", ("dis ri:src ri:dst u:rows u:cols u:srs u:drs u:seg",
                           "dis ri:src ri:dst q:rows"), "dis item 'q:rows'"),
    ("dis: unknown field", ("dis ri:src ri:dst u:rows u:cols u:srs u:drs u:seg",
                            "dis ri:src ri:dst u:nrows"), "no field nrows"),
    ("dis: ri of a word", ("dis ri:src ri:dst u:rows u:cols u:srs u:drs u:seg",
                           "dis ri:rows"), "ri wants an ri field"),
    ("dis: label without else", ("ri:ssa:ascale?alpha|ssa", "ri:ssa:ascale?alpha"),
     "COND?A|B"),
    ("dis: second line", ("  dis ri:src ri:dst u:rows u:cols u:srs u:drs u:seg",
                          "  dis ri:src\n  dis ri:dst"), "a second dis line"),
    ("lacks outside a revision", ("revision acf0c1c6\n", ""), "'lacks' outside a revision block"),
    ("lacks an unknown op", "  lacks op FOO", "revision acf0c1c6: no op FOO"),
    ("lacks an unknown flag", "  lacks flag MM dup", "op MM has no flag dup"),
    ("lacks: bad form", "  lacks everything", "expected 'lacks op NAME'"),
    ("unterminated quote", '  lacks flag MM wf "4-bit', "No closing quotation"),
    ("no format NONE", ("format NONE\n", ""), "format NONE (no operands) is missing"),
]


def run(root, *args):
    return subprocess.run([sys.executable, GEN, "--root", root, *args], capture_output=True,
                          text=True, timeout=60)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "sim"))
        os.makedirs(os.path.join(tmp, "python", "otpu"))
        for what, edit, expect in CASES:
            if isinstance(edit, tuple):
                if edit[0] not in DEF:
                    failures.append(f"{what}: the edit's text is not in sim/isa.def")
                    continue
                text = DEF.replace(edit[0], edit[1], 1)
            else:
                text = DEF + edit + "\n"
            with open(os.path.join(tmp, "sim", "isa.def"), "w") as f:
                f.write(text)
            r = run(tmp)
            err = r.stderr.strip()
            if r.returncode != 2 or expect not in err or len(err.splitlines()) != 1 \
                    or not err.startswith("gen_isa: "):
                failures.append(f"{what}: exit {r.returncode}, stderr {err!r} (wanted 2 and "
                                f"{expect!r})")
            if os.listdir(os.path.join(tmp, "python", "otpu")):
                failures.append(f"{what}: a file was written")
        # no description at all, an unknown argument
        os.remove(os.path.join(tmp, "sim", "isa.def"))
        r = run(tmp)
        if r.returncode != 2 or "isa.def" not in r.stderr:
            failures.append(f"missing isa.def: exit {r.returncode}, {r.stderr!r}")
        r = run(tmp, "--frobnicate")
        if r.returncode != 2 or "unknown argument" not in r.stderr:
            failures.append(f"unknown argument: exit {r.returncode}, {r.stderr!r}")
        # --check: fresh outputs pass, a stale one fails by name
        shutil.copy(os.path.join(SRC, "sim", "isa.def"), os.path.join(tmp, "sim", "isa.def"))
        r = run(tmp)
        c = run(tmp, "--check")
        if r.returncode or c.returncode:
            failures.append(f"fresh outputs: write exit {r.returncode}, check exit "
                            f"{c.returncode} {c.stdout!r}")
        with open(os.path.join(tmp, "sim", "isa_table.c"), "a") as f:
            f.write("/* edited by hand */\n")
        c = run(tmp, "--check")
        if c.returncode != 1 or "sim/isa_table.c is not what" not in c.stdout \
                or "isa_formats.h" in c.stdout:
            failures.append(f"stale isa_table.c: exit {c.returncode}, {c.stdout!r}")
    for f in failures:
        print("FAIL", f)
    print(f"{len(CASES) + 4 - len(failures)} of {len(CASES) + 4} checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
