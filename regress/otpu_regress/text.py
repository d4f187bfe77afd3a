"""Input echoed as text. Bundle names, paths, suite entries and the tools' messages may hold
any byte; wherever otpu-regress shows one (terminal, summary.txt, junit.xml, index.html) every
character that is not printable becomes visible text: \\n, \\t, \\r, \\xNN (control bytes, ESC,
DEL, C1 controls, and the bytes of invalid UTF-8, which os and subprocess hand over as lone
surrogates) or \\uNNNN (format characters such as bidi overrides, unassigned code points). No
input reaches a terminal as an escape sequence, nor XML 1.0 as a character it forbids; escaping
twice changes nothing (as sim/input.h's otpu_escape)."""

NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _char(c):
    o = ord(c)
    if c in NAMED:
        return NAMED[c]
    if 0xDC80 <= o <= 0xDCFF:  # surrogateescape's stand-in for the byte o - 0xDC00
        return f"\\x{o - 0xDC00:02x}"
    if o < 0x100:
        return f"\\x{o:02x}"
    return f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}"


def visible(s):
    """s as printable text on one line"""
    s = str(s)
    if s.isprintable():
        return s
    return "".join(c if c.isprintable() else _char(c) for c in s)


def visible_lines(s):
    """each line of s made visible, the line breaks kept"""
    return "\n".join(visible(line) for line in str(s).split("\n"))


def one_line(s, limit=4096):
    """s visible, cut to limit characters (a message in a result, a table cell)"""
    s = visible(s)
    return s if len(s) <= limit else s[:limit - 3] + "..."
