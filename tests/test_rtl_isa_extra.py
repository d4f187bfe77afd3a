#!/usr/bin/env python3
"""Instructions no golden vector covers, on the reference RTL, with end states computed here
(docs/isa.md "RLD", "WAITW"):
- RLD with MUL (f2i's value and RAW bits, times R[rb] + w2), rd = 0 writes nothing;
- WAITW whose compare holds (EQ, NE, GE, masked) writes the word to TMEM;
- WAITW whose compare never holds stops the slice with an error at its pc when w6 runs out,
  writing nothing;
- a Config with the board's 4 GiB DRAM (a sparse DRAM in the RTL): golden bundles rerun with
  DRAM_BYTES = 2^32 end in their golden TMEM, ACT RAM, registers and pc, and in the golden DRAM
  (dram_0.bin with the trace's M lines applied) padded with zeros to 4 GiB.

usage: test_rtl_isa_extra.py OTPU_RTL [VECTORS_ISA_DIR]"""
import hashlib
import os
import shutil
import struct
import sys
import tempfile

import test_rtl_util as U


def main():
    tool = sys.argv[1]
    problems = []
    with tempfile.TemporaryDirectory(prefix="otpu-rtl-extra-") as tmp:
        # DRAM: word 0 = 3.5 (f32), word 1 = -2.75, word 0x40 = 0x00001234, word 0x41 = 0x80000005
        dram = bytearray(0x200)
        dram[0:4] = struct.pack("<f", 3.5)
        dram[4:8] = struct.pack("<f", -2.75)
        dram[0x100:0x104] = struct.pack("<I", 0x1234)
        dram[0x104:0x108] = struct.pack("<I", 0x80000005)
        prog = [U.ld(0, 10, 2),                           # T[10] = 3.5, T[11] = -2.75
                U.li(2, 7),                                 # R2 = 7
                U.rld(1, 10, rb=2, mul=True, w2=1),         # R1 = f2i(3.5) * (7 + 1) = 24
                U.rld(3, 11, rb=2, mul=True, w2=0),         # R3 = f2i(-2.75) * 7 = -14
                U.rld(4, 11, rb=2, raw=True, mul=True, w2=0xFFFFFFFF),  # bits * 6 (mod 2^32)
                U.rld(0, 10, rb=2, mul=True),               # rd = 0: nothing
                U.li(5, 0x1000),                            # R5 = 0x1000
                U.rld(6, 10),                               # R6 = 3 (plain f2i)
                U.waitw(0x100, 50, 0x1234, 0xFFFFFFFF, 0),  # EQ holds: T[50] = 0x1234
                U.waitw(0x104, 51, 0x5, 0xFF, 1 - 1),       # masked EQ: 0x05 == 5: T[51]
                U.waitw(0x100, 52, 0x9999, 0xFFFFFFFF, 1),  # NE holds
                U.waitw(0x104, 53, 0x80000000, 0xFFFFFFFF, 2),  # GE: 5 >= 0 as a difference
                U.halt()]
        b1 = os.path.join(tmp, "ok")
        U.write_bundle(b1, prog, bytes(dram), "RLD MUL, WAITW that holds")
        rc, log, final = U.run(tool, b1, os.path.join(tmp, "o1"))
        R = final.get("R", "").split()
        bits = struct.unpack("<I", struct.pack("<f", -2.75))[0]
        want_r = {1: 24, 2: 7, 3: (-14) & 0xFFFFFFFF, 4: (bits * 6) & 0xFFFFFFFF, 5: 0x1000,
                  6: 3}
        tmem = [0] * U.CONFIG["TMEM_WORDS"]
        tmem[10] = U.f32(3.5)
        tmem[11] = bits
        tmem[50] = 0x1234
        tmem[51] = 0x80000005
        tmem[52] = 0x1234
        tmem[53] = 0x80000005
        ok = (rc == 0 and final.get("halted") == "1" and len(R) == 16 and
              all(int(R[k], 16) == v for k, v in want_r.items()) and int(R[0], 16) == 0 and
              final.get("tmem_sha256") == U.sha_words(tmem) and
              final.get("icount") == str(len(prog)))
        print(("ok   " if ok else "FAIL ") + "RLD MUL and WAITW (EQ, masked EQ, NE, GE) give the "
              "expected registers and TMEM")
        if not ok:
            problems.append(log)
            print(log, final)

        prog2 = [U.ld(0, 10, 1),
                 U.waitw(0x100, 60, 0x1235, 0xFFFFFFFF, 0, poll=3, timeout=100),  # never holds
                 U.ld(4, 11, 1),                              # younger: must not run
                 U.halt()]
        b2 = os.path.join(tmp, "to")
        U.write_bundle(b2, prog2, bytes(dram), "WAITW timeout")
        rc, log, final = U.run(tool, b2, os.path.join(tmp, "o2"))
        tmem = [0] * U.CONFIG["TMEM_WORDS"]
        tmem[10] = U.f32(3.5)
        ok = (rc == 1 and final.get("halted") == "0" and final.get("pc") == "1" and
              final.get("icount") == "2" and final.get("tmem_sha256") == U.sha_words(tmem))
        print(("ok   " if ok else "FAIL ") + "a WAITW that never holds stops the slice at its pc "
              "with an error, nothing written, nothing younger run")
        if not ok:
            problems.append(log)
            print(log, final)

        if len(sys.argv) > 2:
            for name in ("qst", "ld_st"):
                if not big_dram(tool, os.path.join(sys.argv[2], name), tmp):
                    problems.append(name)
    return 1 if problems else 0


def big_dram(tool, case, tmp):
    """Reruns a golden bundle with DRAM_BYTES = 2^32; True if it ends in the golden state."""
    size = 1 << 32
    b = os.path.join(tmp, "big_" + os.path.basename(case))
    os.makedirs(b)
    for f in ("prog_0.hex", "dram_0.bin"):
        shutil.copy(os.path.join(case, f), b)
    with open(os.path.join(case, "case.txt")) as f, open(os.path.join(b, "case.txt"), "w") as g:
        for line in f:
            g.write(f"DRAM_BYTES={size}\n" if line.startswith("DRAM_BYTES=") else line)
    rc, log, final = U.run(tool, b, os.path.join(tmp, "o_" + os.path.basename(case)))
    golden = dict(l.strip().partition("=")[::2] for l in open(os.path.join(case, "final_0.txt")))
    mem = bytearray(open(os.path.join(case, "dram_0.bin"), "rb").read())
    for line in open(os.path.join(case, "trace_0.txt")):
        if line.startswith("M "):
            _, a, v = line.split()
            a = int(a)
            if a + 4 > len(mem):
                mem.extend(bytes(a + 4 - len(mem)))
            mem[a:a + 4] = struct.pack("<I", int(v, 16))
    h = hashlib.sha256(mem)
    zeros = bytes(1 << 24)
    left = size - len(mem)
    while left:
        n = min(left, len(zeros))
        h.update(zeros[:n])
        left -= n
    same = [k for k in golden if k != "dram_sha256" and final.get(k) == golden[k]]
    ok = rc == 0 and len(same) == len(golden) - 1 and final.get("dram_sha256") == h.hexdigest()
    print(("ok   " if ok else "FAIL ") + f"{os.path.basename(case)} with a 4 GiB DRAM ends in its "
          "golden state")
    if not ok:
        print(log, final)
    return ok


if __name__ == "__main__":
    sys.exit(main())
