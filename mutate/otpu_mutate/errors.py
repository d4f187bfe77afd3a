"""Bad usage or bad input (exit status 2): one line naming the argument, the file and line, or
the mutant, and what is wrong. Nothing else is raised for bad input: it is otpu-regress's class
(its outputs module, which otpu-mutate writes its files with, raises it too)."""
from otpu_regress.errors import UsageError  # noqa: F401 (otpu-mutate's modules import it here)


def visible(s):
    """s on one line with every character that is not printable escaped (\\n, \\xNN, \\uNNNN)"""
    s = str(s)
    if s.isprintable():
        return s
    out = []
    for c in s:
        o = ord(c)
        if c.isprintable():
            out.append(c)
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif 0xDC80 <= o <= 0xDCFF:  # a byte that is not UTF-8 (surrogateescape)
            out.append(f"\\x{o - 0xDC00:02x}")
        elif o < 0x100:
            out.append(f"\\x{o:02x}")
        else:
            out.append(f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}")
    return "".join(out)
