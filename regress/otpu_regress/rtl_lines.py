"""The RTL lines Verilator's code coverage has no point on, tied to the lines that do
(spectrum.py): a declaration, a continuous assignment, a localparam, a package function's body.
Such a line is executed by a test when a covered line that reads what it defines was: a wire's
initializer runs when its readers do, a function's body when one of its calls does (through
other uncovered lines, transitively). A name defined in a package reaches every file; any other
stays in its own file.

This is a text-level reading of SystemVerilog (no parser): a line's names are the last
identifier of each comma-separated part before its first '=' (brackets taken out), or of the
whole line without one; a function's are its name, for every line up to endfunction."""
import os
import re

from . import files

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")
COMMENT = re.compile(r"//.*|/\*.*?\*/")
BRACKETS = re.compile(r"\[[^\]]*\]")
FUNCTION = re.compile(r"^\s*function\b[^(;]*?([A-Za-z_][A-Za-z0-9_$]*)\s*[(;]")
ASSIGN = re.compile(r"(?<![=!<>])=(?!=)")
KEYWORDS = frozenset("""assign wire logic reg bit int integer byte shortint longint signed
unsigned localparam parameter input output inout var automatic static const typedef struct
packed enum function endfunction return begin end if else case endcase for genvar""".split())
SUFFIXES = (".sv", ".svh", ".v")
MAX_FILES = 200


def _names(code):
    lhs = ASSIGN.split(BRACKETS.sub(" ", code), 1)[0]
    out = []
    for part in lhs.split(","):
        ids = [i for i in IDENT.findall(part) if i not in KEYWORDS]
        if ids:
            out.append(ids[-1])
    return out


def sources(covered_files):
    """the RTL sources: every .sv/.svh/.v file in the folders of the covered files"""
    found = {f for f in covered_files if "\0" not in f}  # (a .dat names any bytes)
    for d in sorted({os.path.dirname(f) for f in found if os.path.isabs(f)}):
        try:
            found.update(os.path.join(d, n) for n in os.listdir(d) if n.endswith(SUFFIXES))
        except OSError:
            continue
    return sorted(found)[:MAX_FILES]


def _read(path):
    try:
        return [COMMENT.sub("", ln) for ln in files.read_text(path, files.OTHER).splitlines()]
    except (files.BadFile, UnicodeDecodeError, ValueError):
        return []


def derived(covered, statement):
    """{(file, line): frozenset of covered (file, line)s}: each uncovered statement line
    (statement(file, line) true) and the covered lines whose execution means it ran"""
    texts = {f: _read(f) for f in sources({f for f, _ in covered})}
    package = {f for f, t in texts.items() if any(re.match(r"\s*package\b", ln) for ln in t)}
    # line -> (where its names are read: None everywhere, else its file, [names]);
    # (file or None, name) -> the lines that read it in that file, or anywhere
    defines, uses = {}, {}
    for f, lines in texts.items():
        scope = None if f in package else f
        fn = None
        for n, code in enumerate(lines, 1):
            m = FUNCTION.match(code)
            if m:
                fn = m[1]
            here = (f, n)
            names = []
            if here not in covered and statement(f, n):
                names = [fn] if fn else _names(code)
                if names:
                    defines[here] = (scope, names)
            for ident in set(IDENT.findall(code)) - KEYWORDS - set(names):
                uses.setdefault((None, ident), []).append(here)
                uses.setdefault((f, ident), []).append(here)
            if re.search(r"\bendfunction\b", code):
                fn = None
    reach = {d: set() for d in defines}
    for _ in range(8):  # (chains of uncovered lines: a few steps deep at most)
        changed = False
        for d, (scope, names) in defines.items():
            got = set()
            for name in names:
                for u in uses.get((scope, name), ()):
                    if u != d:
                        got |= {u} if u in covered else reach.get(u, set())
            if got - reach[d]:
                reach[d] |= got
                changed = True
        if not changed:
            break
    return {d: frozenset(r) for d, r in reach.items() if r}
