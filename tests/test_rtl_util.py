"""Helpers of the RTL tests (test_rtl_faults.py, test_rtl_concurrency.py): encode a few
instructions, write a run bundle, run otpu-rtl on it, read its dump and its event log."""
import hashlib
import os
import struct
import subprocess

CONFIG = dict(S=1, D=32, MCOLS=8, ACT_BLOCKS=64, TMEM_WORDS=65536, DRAM_BYTES=262144,
              IMEM_WORDS=65536, LANES=8, PAIR=0, DSTEP=0, STREAM=0, ACT_ROWS=0)


def ins(op, ra=0, rb=0, rc=0, rd=0, flags=0, w=()):
    w = [x & 0xFFFFFFFF for x in w] + [0] * (7 - len(w))
    return [op | ra << 8 | rb << 12 | rc << 16 | rd << 20 | flags << 24] + w


def ld(dram, tmem, n):
    return ins(0x10, w=(dram, tmem, n))


def st(dram, tmem, n):
    return ins(0x11, w=(dram, tmem, n))


def vop(func, dst, a, b, rows, cols, drs=0, ars=0, brs=0, bmode=0, imm=0):
    return ins(0x30, w=(dst, a, b, rows | cols << 16, drs | ars << 16,
                        brs | func << 16 | bmode << 24, imm))


def halt():
    return ins(0x01)


def li(rd, imm):
    return ins(0x02, rd=rd, w=(imm,))


def bar():
    return ins(0x05)


def rld(rd, tmem, ra=0, rb=0, raw=False, mul=False, w2=0):
    return ins(0x06, ra=ra, rb=rb, rd=rd, flags=(1 if raw else 0) | (2 if mul else 0),
               w=(tmem, w2))


def waitw(dram, tmem, ref, mask, cmp, poll=0, timeout=0, ra=0, rb=0, rc=0):
    return ins(0x07, ra=ra, rb=rb, rc=rc, flags=cmp, w=(dram, tmem, ref, mask, poll, timeout))


def f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def write_hex(path, program):
    with open(path, "w") as f:
        for i in program:
            for w in i:
                f.write(f"{w:08x}\n")


def write_bundle(d, program, dram, desc, programs=None, drams=None, expect="expect=ok", S=1):
    """A bundle of S slices: program and dram for slice 0 (programs, drams: every slice's)."""
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "case.txt"), "w") as f:
        f.write(f"desc={desc}\n")
        for k, v in dict(CONFIG, S=S).items():
            f.write(f"{k}={v}\n")
        f.write(expect + "\n")
    for s in range(S):
        write_hex(os.path.join(d, f"prog_{s}.hex"), programs[s] if programs else program)
        with open(os.path.join(d, f"dram_{s}.bin"), "wb") as f:
            f.write(drams[s] if drams else dram)


def run(tool, bundle, out, *extra):
    """Runs otpu-rtl; returns (exit code, output, {key: value} of final_0.txt)."""
    os.makedirs(out, exist_ok=True)
    p = subprocess.run([tool, "run", bundle, "--dump", out, *extra], capture_output=True,
                       text=True)
    final = {}
    fp = os.path.join(out, "final_0.txt")
    if os.path.exists(fp):
        for line in open(fp):
            k, _, v = line.strip().partition("=")
            final[k] = v
    return p.returncode, p.stdout + p.stderr, final


def sha_words(words):
    return hashlib.sha256(b"".join(struct.pack("<I", w) for w in words)).hexdigest()


def sha_bytes(b):
    return hashlib.sha256(bytes(b)).hexdigest()


def events(path):
    """The event log as a list of dicts: cycle, slice, kind and the key=value fields."""
    out = []
    for line in open(path):
        parts = line.split()
        e = {"cycle": int(parts[0]), "slice": parts[1], "kind": parts[2]}
        for p in parts[3:]:
            k, _, v = p.partition("=")
            e[k] = v
        out.append(e)
    return out


# A small program whose units overlap: a long LD (DMA), an independent FILL (VPU) that finishes
# first, an ADD that reads the LD's last words (so waits for it), a ST of the ADD's result.
N_LD = 512


def overlap_bundle(d):
    prog = [ld(0, 0, N_LD),                                          # pc 0, DMA
            vop(13, 1000, 0, 0, 1, 8, bmode=3, imm=f32(1.0)),       # pc 1, VPU: FILL 1.0
            vop(0, 2000, N_LD - 8, N_LD - 8, 1, 8),                  # pc 2, VPU: the LD's last 8
                                                                     #   words, doubled
            st(0x8000, 2000, 8),                                     # pc 3, DMA
            halt()]                                                  # pc 4
    dram = b"".join(struct.pack("<f", float(i + 1)) for i in range(N_LD))
    write_bundle(d, prog, dram, "units overlap: LD, independent FILL, dependent ADD, ST")
    # the expected end state (every value is an exact small float)
    tmem = [0] * CONFIG["TMEM_WORDS"]
    for i in range(N_LD):
        tmem[i] = f32(float(i + 1))
    for c in range(8):
        tmem[1000 + c] = f32(1.0)
        tmem[2000 + c] = f32(2.0 * (N_LD - 8 + c + 1))
    mem = bytearray(CONFIG["DRAM_BYTES"])
    mem[:len(dram)] = dram
    for c in range(8):
        mem[0x8000 + 4 * c:0x8000 + 4 * c + 4] = struct.pack("<f", 2.0 * (N_LD - 8 + c + 1))
    return {"halted": "1", "pc": "4", "icount": "5", "tmem_sha256": sha_words(tmem),
            "dram_sha256": sha_bytes(mem)}


FAILS = []


def check(name, ok, info=""):
    """one line per check ("ok" or "FAIL" and what went wrong); FAILS collects the failures"""
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f"\n{info}"))
    if not ok:
        FAILS.append(name)
