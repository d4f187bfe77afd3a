"""The host-step scenarios (docs/bundle.md, host.txt): openTPU's WAITW cases, two slices where one
waits on the host while the other runs to a BAR, and three programs loaded in turn with the
memories kept. `python3 tests/host_scenarios.py DIR` writes them as bundles (examples/host is
this output; test_host.py checks it is current)."""
import os
import struct
import sys

import test_rtl_util as U

FLAG, DATA, OUT = 0x100, 0x104, 0x200
EQ, NE, GE = 0, 1, 2
ADD = 0


def dram(words):
    """A DRAM image holding {byte address: word}."""
    img = bytearray(0x300)
    for a, w in words.items():
        img[a:a + 4] = struct.pack("<I", w)
    return bytes(img)


def waiter(ref, mask=0xFFFFFFFF, cmp=EQ, timeout=0, rc=0):
    """WAITW on FLAG into T[10], then the host's data word into T[11], both stored at OUT."""
    return [U.waitw(FLAG, 10, ref, mask, cmp, poll=4, timeout=timeout, rc=rc),
            U.ld(DATA, 11, 1), U.st(OUT, 10, 2), U.halt()]


def host(*lines):
    return "\n".join(lines) + "\n"


def f32s(*xs):
    return [U.f32(x) for x in xs]


# name: (description, slice 0's program, DRAM words, host.txt or None, expect line, extra)
def scenarios():
    x = [1.5, 2.0, -3.25, 0.5]
    xw = dict(zip(range(0, 16, 4), f32s(*x)))
    yield ("holds_at_once", "WAITW whose word holds at once",
           waiter(7), {FLAG: 7, DATA: 0x11}, host(
               "# the word holds at once: the host only reads the result",
               "await 0 halted",
               f"expect 0 {OUT:#x} 00000007 00000011"))
    yield ("host_writes", "the host writes the data, then the flag",
           waiter(1), {FLAG: 0}, host(
               "await 0 waitw          # the slice polls its flag",
               f"write 0 {DATA:#x} cafef00d",
               f"write 0 {FLAG:#x} 1",
               "await 0 halted",
               f"expect 0 {OUT:#x} 00000001 cafef00d"))
    yield ("mask", "a masked EQ: only bits 15:8 of the flag count",
           waiter(0x1200, mask=0xFF00), {FLAG: 0}, host(
               "await 0 waitw",
               f"write 0 {DATA:#x} 5",
               f"write 0 {FLAG:#x} 00ab11cd   # bits 15:8 = 0x11: still waits",
               "polls 2",
               f"write 0 {FLAG:#x} 00ab12cd   # bits 15:8 = 0x12: holds",
               "await 0 halted",
               f"expect 0 {OUT:#x} 00ab12cd 00000005"))
    yield ("ge_wrap", "GE against R3 = 0xfffffff8 across the wrap of a 32-bit counter",
           [U.li(3, 0xFFFFFFF8)] + waiter(0, cmp=GE, rc=3), {FLAG: 0xFFFFFFF0, DATA: 0x22}, host(
               "await 0 waitw          # 0xfffffff0 - 0xfffffff8 < 0",
               f"write 0 {FLAG:#x} fffffff4",
               "polls 2",
               f"write 0 {FLAG:#x} 00000002   # wrapped: 2 - 0xfffffff8 = 10 >= 0",
               "await 0 halted",
               f"expect 0 {OUT:#x} 00000002 00000022"))
    yield ("timeout_no_host", "a WAITW that never holds, no host: the timeout",
           waiter(1, timeout=200), {FLAG: 0}, None,
           "expect=error\nerror=WAITW timeout")
    yield ("wrong_then_right", "the host writes a wrong value first, the right one later",
           waiter(1), {FLAG: 0}, host(
               "await 0 waitw",
               f"write 0 {FLAG:#x} 2      # not the value the slice waits for",
               "polls 3",
               "cycles 20",
               f"write 0 {DATA:#x} 600d",
               f"write 0 {FLAG:#x} 1",
               "await 0 halted",
               f"expect 0 {OUT:#x} 00000001 0000600d"))
    # two slices: slice 0 waits on the host, slice 1 computes and waits at the BAR
    p0 = [U.waitw(FLAG, 10, 1, 0xFFFFFFFF, EQ, poll=2), U.ld(DATA, 11, 1), U.bar(),
          U.st(OUT, 10, 2), U.halt()]
    p1 = [U.ld(0, 20, 4), U.vop(ADD, 24, 20, 20, 1, 4), U.bar(), U.st(OUT, 24, 4), U.halt()]
    yield ("two_slices_bar", "slice 0 waits on the host while slice 1 runs to the BAR",
           (p0, p1), ({FLAG: 0}, xw), host(
               "await 0 waitw",
               "barrier                # slice 0 polls, slice 1 waits at its BAR",
               f"write 0 {DATA:#x} 12345678",
               f"write 0 {FLAG:#x} 1",
               "await all halted",
               f"expect 0 {OUT:#x} 00000001 12345678",
               f"expect 1 {OUT:#x} " + " ".join(f"{w:08x}" for w in f32s(3.0, 4.0, -6.5, 1.0))))
    # three programs in turn on one machine: TMEM and DRAM are kept between them
    yield ("three_programs", "three programs loaded in turn, memories kept, an argument",
           [U.ld(0, 0, 4), U.vop(ADD, 4, 0, 0, 1, 4), U.halt()], xw, host(
               "await 0 halted",
               "load 0 next_1.hex      # T[R8 + 9 ...] = T[4..7] + T[0..3]",
               "args 0 3",
               "run 0",
               "await 0 halted",
               "load 0 next_2.hex      # DRAM[0x200 ...] = T[12..15]",
               "run 0",
               "await 0 halted",
               f"expect 0 {OUT:#x} " + " ".join(f"{w:08x}" for w in f32s(4.5, 6.0, -9.75, 1.5))),
           "expect=ok", {
               "next_1.hex": [U.ins(0x30, ra=8, w=(9, 4, 0, 1 | 4 << 16, 0, ADD << 16, 0)),
                              U.halt()],
               "next_2.hex": [U.st(OUT, 12, 4), U.halt()]})


def write_all(out):
    names = []
    for sc in scenarios():
        name, desc, prog, words, host_txt = sc[:5]
        expect = sc[5] if len(sc) > 5 else "expect=ok"
        extra = sc[6] if len(sc) > 6 else {}
        d = os.path.join(out, name)
        if isinstance(prog, tuple):
            U.write_bundle(d, None, None, desc, programs=prog,
                           drams=[dram(w) for w in words], expect=expect, S=len(prog))
        else:
            U.write_bundle(d, prog, dram(words), desc, expect=expect)
        if host_txt:
            with open(os.path.join(d, "host.txt"), "w") as f:
                f.write(host_txt)
        for fname, p in extra.items():
            U.write_hex(os.path.join(d, fname), p)
        names.append(name)
    return names


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: host_scenarios.py DIR")
    write_all(sys.argv[1])
