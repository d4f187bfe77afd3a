#!/usr/bin/env python3
"""dpi/gen_dpi.py refuses a description it cannot read (one line naming where), and reads a
good one: a table of descriptions and what the generator must say."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "dpi"))
import gen_dpi  # noqa: E402

WRITE = [("REG", ""), ("TMEM", ""), ("DRAM", "")]
PKG = "package p p.sv\n"
BAD = [  # (description, text the refusal must hold)
    ("", "no package"),
    ("space\n" + PKG, ":1: cannot read 'space'"),
    ("space TMEM\n" + PKG, ":1: cannot read 'space TMEM'"),  # a write space again
    ("load IMEM\n" + PKG, ":1: cannot read 'load IMEM'"),    # an unknown space
    ("info N x\n" + PKG, ":1: cannot read 'info N x'"),
    ("import void f int:a\n", ":1: cannot read 'import void f int:a'"),  # before a package
    (PKG + "import long f int:a\n", ":2: cannot read"),
    (PKG + "import void f float:a\n", ":2: an argument is TYPE:NAME"),
    (PKG + "import void f int\n", ":2: an argument is TYPE:NAME"),
    (PKG + "import void f int:\n", ":2: an argument is TYPE:NAME"),
    (PKG + "bogus\n", ":2: cannot read 'bogus'"),
]


def main():
    bad = 0
    for text, want in BAD:
        try:
            gen_dpi.parse(text, WRITE, "t.def")
            got = "(read without complaint)"
        except gen_dpi.Bad as e:
            got = str(e)
        if want not in got:
            print(f"FAIL: {text!r}: expected '{want}', got '{got}'")
            bad += 1
    d = gen_dpi.parse("space IMEM\nload IMEM DRAM\n" + PKG + "> doc\nimport uint f int:a out:b\n",
                      WRITE, "t.def")
    c = gen_dpi.c_text(d, len(WRITE))
    sv = gen_dpi.sv_text(d, len(WRITE), "p", "p.sv", d["packages"][0][2])
    for want, text in (("OTPU_SP_IMEM = 3,", c), ("unsigned int f(int a, unsigned int *b);", c),
                       ("localparam int BS_IMEM = 3;", sv), ("localparam int BS_DRAM = 2;", sv),
                       ('import "DPI-C" function int unsigned f(input int a, output int unsigned b);',
                        sv)):
        if want not in text:
            print(f"FAIL: the good description's output lacks '{want}'")
            bad += 1
    print(f"{len(BAD) + 5 - bad} of {len(BAD) + 5} passed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
