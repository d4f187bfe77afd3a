#!/usr/bin/env python3
"""otpu-sim and otpu-fpvec on hostile input: exit status 2 and one clear line on stderr, never a
crash, a hang or a silent pass (docs/bundle.md is the grammar). Each case is a regression test
of a bad input once mishandled.

usage: test_bad_input.py sim OTPU_SIM VECTORS_DIR
       test_bad_input.py fpvec OTPU_FPVEC VECTORS_DIR"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_rtl_util import CONFIG, halt, ins, vop  # noqa: E402

TIMEOUT = 20  # seconds: a tool that blocks on its input fails its case instead of the suite


class Suite:
    def __init__(self, tool):
        self.tool, self.failed, self.passed = tool, [], 0
        self.tmp = tempfile.mkdtemp(prefix="otpu-bad-input-")

    def run(self, *args, stdin=None, timeout=TIMEOUT):
        try:
            p = subprocess.run([self.tool, *args], capture_output=True, timeout=timeout,
                               stdin=stdin or subprocess.DEVNULL)
            return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(
                errors="replace"), p.stderr
        except subprocess.TimeoutExpired:
            return "timeout", "", f"no answer within {timeout} s", b""

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok   {name}")
        else:
            self.failed.append(name)
            print(f"FAIL {name}: {detail}")

    def bad(self, name, args, phrase, rc=2):
        """The tool exits rc with exactly one stderr line holding phrase, and no raw control
        byte on stderr."""
        got, out, err, raw = self.run(*args)
        lines = err.splitlines()
        clean = not any(b < 0x20 and b not in (0x0a,) for b in raw)
        self.check(name, got == rc and len(lines) == 1 and phrase in err and clean,
                   f"exit {got}, stderr {err!r}, stdout {out[-300:]!r}")

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

    def finish(self):
        shutil.rmtree(self.tmp, ignore_errors=True)
        print(f"{self.passed} passed, {len(self.failed)} failed")
        for n in self.failed:
            print(f"  failed: {n}")
        return 1 if self.failed else 0


def case_text(**over):
    kv = dict(CONFIG, DRAM_BYTES=4096)
    kv.update(over)
    text = "desc=t\n" + "".join(f"{k}={v}\n" for k, v in kv.items() if v is not None)
    return text + "expect=ok\n"


def bundle(s, name, case=None, prog=None, dram=b""):
    """A bundle folder: a HALT by default."""
    d = s.path(name)
    os.makedirs(d)
    with open(os.path.join(d, "case.txt"), "w") as f:
        f.write(case if case is not None else case_text())
    with open(os.path.join(d, "prog_0.hex"), "w") as f:
        for w in sum(prog or [halt()], []):
            f.write(f"{w:08x}\n")
    with open(os.path.join(d, "dram_0.bin"), "wb") as f:
        f.write(dram)
    return d


def write(path, data):
    if os.path.lexists(path):
        os.remove(path)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


def fifo_in(d, name):
    p = os.path.join(d, name)
    if os.path.lexists(p):
        os.remove(p)
    os.mkfifo(p)
    return p


def link_in(d, name, target):
    p = os.path.join(d, name)
    if os.path.lexists(p):
        os.remove(p)
    os.symlink(target, p)
    return p


# ---------------------------------------------------------------------------------- otpu-sim

def sim_cases(s, vectors):
    good = bundle(s, "good")
    rc, out, err, _ = s.run("run", good)
    s.check("a good bundle runs", rc == 0 and "slice 0: halted icount=1 pc=0" in out, err)

    # crashes in the model
    d = s.path("outer_b")
    shutil.copytree(os.path.join(vectors, "isa", "vop_outer_column"), d)
    os.chmod(d, 0o755)
    words = open(os.path.join(d, "prog_0.hex")).read().split()
    words[8 + 3] = "ffffffff"  # the OUTER's b word
    write(os.path.join(d, "prog_0.hex"), "\n".join(words) + "\n")
    rc, _, err, _ = s.run("run", d)
    s.check("VOP OUTER with b = 0xffffffff is a TMEM range error, not a crash",
            rc == 1 and "out of range" in err, f"exit {rc} {err!r}")
    # OUTER rows that overlap beyond TMEM: the reference names the hazard before the range
    d = bundle(s, "outer_beyond", prog=[vop(6, 0xFFFFFF00, 0x10, 0x20, 2, 4, drs=0, bmode=1,
                                            imm=0x30), halt()])
    rc, _, err, _ = s.run("run", d)
    s.check("VOP OUTER writing twice beyond TMEM is a hazard (as the reference)",
            rc == 1 and "hazard" in err, f"exit {rc} {err!r}")

    # files that are not regular files
    for name in ("case.txt", "prog_0.hex", "dram_0.bin"):
        d = bundle(s, "fifo_" + name)
        fifo_in(d, name)
        s.bad(f"a FIFO as {name}", ["run", d], name)
    d = bundle(s, "zero_case")
    link_in(d, "case.txt", "/dev/zero")
    s.bad("case.txt linked to /dev/zero", ["run", d], "character device")
    d = bundle(s, "dir_prog")
    os.remove(os.path.join(d, "prog_0.hex"))
    os.mkdir(os.path.join(d, "prog_0.hex"))
    s.bad("a directory as prog_0.hex is not an empty program", ["run", d], "directory")
    s.bad("disasm of a directory", ["disasm", d + "/prog_0.hex"], "directory")
    s.bad("disasm of a FIFO", ["disasm", fifo_in(s.tmp, "f.hex")], "FIFO")

    # one hex parser for bundles and disasm
    d = bundle(s, "hex_forms")
    for label, line in (("0x-prefixed", "0x000001"), ("tab-led", "\t0000001"),
                        ("space-led", " 0000001"), ("signed", "+0000001")):
        write(os.path.join(d, "prog_0.hex"), line + "\n" + "00000000\n" * 7)
        s.bad(f"a {label} hex line in a bundle", ["run", d], "prog_0.hex:1: expected 8 hex")
        s.bad(f"a {label} hex line in disasm", ["disasm", d + "/prog_0.hex"],
              "prog_0.hex:1: expected 8 hex")
    write(os.path.join(d, "prog_0.hex"), "00000001\n" + "00000000\n" * 6)
    s.bad("a program of 7 words", ["disasm", d + "/prog_0.hex"], "whole number")

    # case.txt: one grammar
    d = bundle(s, "grammar")
    casep = os.path.join(d, "case.txt")

    def case_bad(name, text, phrase):
        write(casep, text)
        s.bad(name, ["run", d], phrase)

    # (a 4095-byte read split this line, and its tail set DRAM_BYTES)
    case_bad("a 4108-byte desc line", "desc=" + "x" * 4090 + "DRAM_BYTES=64\n" +
             case_text(DRAM_BYTES=None)[len("desc=t\n"):], "case.txt:1: the line is longer")
    case_bad("a key given twice", case_text() + "D=64\n", "D is given twice")
    case_bad("D=040 (octal or decimal?)", case_text(D="040"), "D=040 is not a number")
    case_bad("TMEM_WORDS=065536", case_text(TMEM_WORDS="065536"), "TMEM_WORDS=065536")
    case_bad("a huge negative Config value", case_text(S="-18446744073709551615"),
             "S=-18446744073709551615 is not a number")
    case_bad("a value past 64 bits", case_text(DRAM_BYTES="99999999999999999999999"),
             "is not a number")
    case_bad("an empty case.txt", "", "missing S D MCOLS")
    case_bad("no expect=", case_text().replace("expect=ok\n", ""), "missing expect")
    case_bad("a Config field left out", case_text(ACT_ROWS=None), "missing ACT_ROWS")
    case_bad("error= with expect=ok", case_text() + "error=bad DRAM word address\n",
             "error= needs expect=error")
    case_bad("error= naming no kind of error",
             case_text().replace("expect=ok", "expect=error") + "error=banana\n",
             "case.txt:15: error=banana names no kind of error")
    case_bad("LANES=2^31 (no design has it)", case_text(LANES=2147483648),
             "LANES must be 1..256")
    case_bad("a NUL byte in a line", case_text().replace("desc=t", "desc=t\0DRAM_BYTES=8"),
             "control byte (\\x00)")
    case_bad("an escape sequence in a key", case_text() + "\x1b[31mRED=1\n", "control byte")
    case_bad("a byte >= 0x80 in a key is escaped", case_text() + "K\xe9Y=1\n",
             "unknown key 'K\\xc3\\xa9Y'")
    case_bad("an unknown key", case_text() + "WIDTH=3\n", "unknown key 'WIDTH'")
    case_bad("REV= of a revision this build does not know", case_text() + "REV=v0\n",
             "case.txt:15: REV=v0 is not an ISA revision")
    case_bad("REV= with a Config field the revision lacks",
             case_text(STREAM=1) + "REV=acf0c1c6\n", "acf0c1c6 has no STREAM")
    case_bad("9 run arguments", case_text() + "ARGS=1,2,3,4,5,6,7,8,9\n", "at most 8")
    case_bad("an argument past 32 bits", case_text() + "ARGS=4294967296\n", "32-bit")
    case_bad("D=12 the model cannot simulate", case_text(D=12), "D=12")
    write(casep, case_text() + "ARGS=-1, 0x10,7\n")
    rc, _, err, _ = s.run("run", d)
    s.check("ARGS with a negative, a hex and spaces", rc == 0, err)
    d2 = bundle(s, "stray_slice")
    shutil.copy(os.path.join(d2, "prog_0.hex"), os.path.join(d2, "prog_1.hex"))
    s.bad("prog_1.hex in a one-slice bundle", ["run", d2], "there is no slice 1")

    # ISA revisions: --rev against REV=, an instruction the revision lacks
    write(casep, case_text() + "REV=acf0c1c6\n")
    rc, _, err, _ = s.run("run", d, "--rev", "acf0c1c6")
    s.check("REV= and --rev of the same revision", rc == 0, err)
    s.bad("--rev contradicting REV=", ["run", d, "--rev", "current"],
          "case.txt:15: REV=acf0c1c6 contradicts --rev current")
    s.bad("check --rev contradicting REV=", ["check", d, "--rev", "current"], "contradicts")
    s.bad("--rev of an unknown revision", ["run", d, "--rev", "v0"],
          "--rev: 'v0' is not an ISA revision (current, acf0c1c6)")
    s.bad("disasm --rev of an unknown revision", ["disasm", d + "/prog_0.hex", "--rev", "v0"],
          "is not an ISA revision")
    d_rev = bundle(s, "rev_rdot", prog=[vop(19, 0x100, 0x10, 0x20, 1, 4), halt()])
    rc, _, err, _ = s.run("run", d_rev, "--rev", "acf0c1c6")
    s.check("a VOP function the revision lacks is an error naming it and the revision",
            rc == 1 and "pc 0" in err and "VOP function rdot (19) is not in ISA revision "
            "acf0c1c6" in err, f"exit {rc} {err!r}")
    rc, out, _, _ = s.run("disasm", d_rev + "/prog_0.hex", "--rev", "acf0c1c6")
    s.check("disasm --rev marks what the revision lacks",
            rc == 0 and "not in ISA revision acf0c1c6: VOP function rdot" in out
            and "1: HALT\n" in out, out)

    # otpu-sim check: every golden file is read, or the check fails
    d = s.path("golden2")
    shutil.copytree(os.path.join(vectors, "isa", "gather_bar_S2"), d)
    os.chmod(d, 0o755)
    rc, out, err, _ = s.run("check", d)
    s.check("a two-slice golden bundle checks", rc == 0 and "ok (2 slices" in out, out + err)
    for name in ("trace_1.txt", "final_1.txt"):
        os.rename(os.path.join(d, name), os.path.join(d, name + ".away"))
    s.bad("slice 1's golden files missing", ["check", d], "no final_1.txt")
    for name in ("trace_1.txt", "final_1.txt"):
        os.rename(os.path.join(d, name + ".away"), os.path.join(d, name))
    os.rename(os.path.join(d, "trace_1.txt"), os.path.join(d, "trace_1.txt.away"))
    s.bad("a golden trace for one slice of two", ["check", d], "for 1 of 2 slices")
    os.rename(os.path.join(d, "trace_1.txt.away"), os.path.join(d, "trace_1.txt"))
    saved = open(os.path.join(d, "final_0.txt")).read()
    link_in(d, "final_0.txt", os.path.join(d, "no-such-file"))
    s.bad("a broken link as a golden file", ["check", d], "final_0.txt: cannot open")
    link_in(d, "final_0.txt", "/dev/zero")
    s.bad("a golden file linked to /dev/zero", ["check", d], "character device")
    fifo_in(d, "trace_0.txt")
    write(os.path.join(d, "final_0.txt"), saved)
    s.bad("a FIFO as a golden trace", ["check", d], "FIFO")

    # missing files, sizes, the Config, a simulated error
    d = bundle(s, "missing_prog")
    os.remove(os.path.join(d, "prog_0.hex"))
    s.bad("a missing prog_0.hex", ["run", d], "prog_0.hex: cannot open")
    os.remove(os.path.join(d, "case.txt"))
    s.bad("a missing case.txt", ["check", d], "case.txt: cannot open")
    d = bundle(s, "imem", case=case_text(IMEM_WORDS=8), prog=[halt(), halt()])
    s.bad("a program larger than IMEM_WORDS", ["run", d], "IMEM_WORDS")
    d = bundle(s, "big_dram", dram=b"x" * 4100)
    s.bad("a DRAM image larger than DRAM_BYTES", ["run", d], "dram_0.bin: 4100 bytes")
    for k, v in (("DRAM_BYTES", 6), ("S", 0)):
        d = bundle(s, f"cfg_{k}", case=case_text(**{k: v}))
        s.bad(f"{k}={v} the model cannot simulate", ["run", d], f"{k}={v}")
    d = bundle(s, "st_error", prog=[ins(0x10, w=(3, 0, 1)), halt()])
    rc, _, err, _ = s.run("run", d)
    s.check("a simulated error exits 1 and names it", rc == 1 and "bad DRAM word address" in err,
            f"{rc} {err}")
    rc, out, _, _ = s.run("disasm", os.path.join(good, "prog_0.hex"))
    s.check("disasm of a good program", rc == 0 and "0: HALT" in out, out)

    # the command line
    s.bad("no command", [], "a command is needed")
    s.bad("an unknown command", ["frobnicate"], "unknown command 'frobnicate'")
    s.bad("a control byte in an option is escaped", ["run", good, "--x\x1b[2J"],
          "unknown option or missing value: --x\\x1b[2J")
    s.bad("--max-steps past 64 bits", ["run", good, "--max-steps", "99999999999999999999999"],
          "--max-steps")
    s.bad("--max-steps 010 (one number grammar: not octal, not decimal 10)",
          ["run", good, "--max-steps", "010"], "'010' is not a count")

    # --strict: a program that breaks a rule of the ISA the reference does not check
    d = bundle(s, "gather_overlap", prog=[ins(0x40, w=(0x10, 0x12, 1 | 4 << 16, 4, 4, 4)),
                                          halt()])
    rc, _, err, _ = s.run("run", d)
    s.check("a GATHER whose source meets its destination runs (as the reference)", rc == 0, err)
    rc, _, err, _ = s.run("run", d, "--strict")
    s.check("--strict: that GATHER is an isa-rule error naming the word",
            rc == 1 and "GATHER: source word T[0x12] (row 0, column 2) is also written" in err,
            f"exit {rc} {err!r}")
    s.bad("a missing bundle", ["run", s.path("missing")], "missing: not a bundle folder")
    rc, out, _, _ = s.run("--help")
    s.check("--help", rc == 0 and "otpu-sim run BUNDLE" in out)


# ---------------------------------------------------------------------------------- otpu-fpvec

def fpvec_cases(s, vectors):
    ops = os.path.join(vectors, "fp32", "ops.vec")
    good = s.path("good.vec")
    with open(ops) as f, open(good, "w") as g:
        for _ in range(100):
            g.write(f.readline())
    rc, out, err, _ = s.run("check", good)
    s.check("a good vector file checks", rc == 0, err)
    s.bad("check: a FIFO", ["check", fifo_in(s.tmp, "v.fifo")], "FIFO")
    s.bad("check: /dev/zero", ["check", "/dev/zero"], "character device")
    s.bad("check: a directory", ["check", s.tmp], "directory")
    s.bad("rtl: a FIFO", ["rtl", fifo_in(s.tmp, "w.fifo")], "FIFO")
    bad_line = s.path("bad.vec")
    with open(good) as f, open(bad_line, "w") as g:
        g.write(f.readline())
        g.write("2 3f800000 zz 3f800000\n")
    s.bad("check: a malformed line", ["check", bad_line], "bad.vec:2")
    s.bad("rtl: a malformed line is named on stderr", ["rtl", bad_line], "bad.vec:2")
    ctl = s.path("ctl.vec")
    write(ctl, "2 3f800000 \x1b[2J 3f800000\n")
    s.bad("check: control bytes in a line are escaped", ["check", ctl], "ctl.vec:1")
    s.bad("no command", [], "otpu-fpvec")


def main():
    which, tool, vectors = sys.argv[1], sys.argv[2], sys.argv[3]
    s = Suite(tool)
    {"sim": sim_cases, "fpvec": fpvec_cases}[which](s, vectors)
    return s.finish()


if __name__ == "__main__":
    sys.exit(main())
