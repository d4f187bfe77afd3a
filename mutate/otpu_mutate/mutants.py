"""The reviewed mutant list (mutants.txt) and the reviewed equivalences (equivalent.txt): read,
checked against the RTL sources, applied. The formats are in mutate/README.md."""
import os
import re
import shlex

from .errors import UsageError, visible

KINDS = {
    "operator": "an operator swapped (+/-, </<=, &&/||, ==/!=, max/min)",
    "constant": "a constant off by one, or another constant",
    "condition": "a condition inverted or dropped",
    "range": "a range bound off by one (the first or last element of a range)",
    "mask": "a dropped byte enable or mask bit",
    "operands": "swapped or wrong operands",
    "width": "a narrowed accumulator or address",
    "stride": "a wrong stride, base or index",
    "order": "partial sums added in another order",
    "sign-extension": "a sign extension dropped",
    "rounding": "a rounding or flush-to-zero bug",
    "field": "a wrong bit field",
}
ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,47}\Z")
MAX_LIST_BYTES = 1 << 20


class Mutant:
    """one planted change: FILE with ANCHOR (exactly once in it) replaced by REPLACEMENT"""

    def __init__(self, mid, path, anchor, replacement, kind, description, where):
        self.id, self.file, self.anchor, self.replacement = mid, path, anchor, replacement
        self.kind, self.description, self.where = kind, description, where
        self.line = None      # the anchor's line in the file, once checked against the sources
        self.equivalent = None  # the reviewed reason, when equivalent.txt lists it

    @property
    def unit(self):
        """the RTL file's unit name: rtl/otpu_mxu.sv -> mxu"""
        base = os.path.basename(self.file)
        base = base[:-3] if base.endswith(".sv") else base
        return base[5:] if base.startswith("otpu_") else base

    def apply(self, text):
        """the file's text with this mutant planted"""
        return text.replace(self.anchor, self.replacement, 1)


def _read_text(path, what):
    try:
        if not os.path.isfile(path):
            raise UsageError(f"{what} {visible(path)}: not a regular file")
        if os.path.getsize(path) > MAX_LIST_BYTES:
            raise UsageError(f"{what} {visible(path)}: larger than {MAX_LIST_BYTES} bytes")
        with open(path, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError:
        raise UsageError(f"{what} {visible(path)}: not UTF-8 text") from None
    except OSError as e:
        raise UsageError(f"{what} {visible(path)}: {e.strerror}") from None


def read_sources(root):
    """the RTL sources the build compiles (rtl/sources.txt), relative to the source root"""
    path = os.path.join(root, "rtl", "sources.txt")
    text = _read_text(path, "the RTL sources list")
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(os.path.normpath(line))
    if not out:
        raise UsageError(f"{visible(path)}: lists no source")
    return out


def read_list(path):
    """the mutants of a list file, in its order (not yet checked against the sources)"""
    text = _read_text(path, "mutant list")
    mutants, seen = [], {}
    for no, line in enumerate(text.splitlines(), 1):
        where = f"{visible(path)}:{no}"
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            fields = shlex.split(line, comments=True, posix=True)
        except ValueError as e:
            raise UsageError(f"{where}: {e} (fields with spaces go in double quotes)") from None
        if not fields:
            continue
        if len(fields) != 6:
            raise UsageError(f"{where}: {len(fields)} fields, not 6 (ID FILE \"ANCHOR\" "
                             f"\"REPLACEMENT\" KIND \"DESCRIPTION\")")
        mid, rel, anchor, repl, kind, desc = fields
        if not ID_RE.match(mid):
            raise UsageError(f"{where}: '{visible(mid)}' is not a mutant id (letters, digits "
                             f"and '-', at most 48)")
        if mid in seen:
            raise UsageError(f"{where}: mutant {mid} is already on line {seen[mid]}")
        seen[mid] = no
        if not anchor:
            raise UsageError(f"{where}: mutant {mid}: empty anchor")
        if anchor == repl:
            raise UsageError(f"{where}: mutant {mid}: the replacement is the anchor itself")
        if any(c in anchor + repl for c in "\n\r"):
            raise UsageError(f"{where}: mutant {mid}: anchor and replacement are one line each")
        if kind not in KINDS:
            raise UsageError(f"{where}: mutant {mid}: unknown kind '{visible(kind)}' (one of "
                             f"{' '.join(KINDS)})")
        if not desc.strip():
            raise UsageError(f"{where}: mutant {mid}: no description")
        mutants.append(Mutant(mid, rel, anchor, repl, kind, desc, where))
    if not mutants:
        raise UsageError(f"mutant list {visible(path)}: no mutant in it")
    return mutants


def check_against(mutants, root):
    """every mutant's file is an RTL source and its anchor occurs exactly once in it; sets each
    mutant's line. Returns {relative path: text} of the files read."""
    sources = read_sources(root)
    texts = {}
    for m in mutants:
        rel = os.path.normpath(m.file)
        if os.path.isabs(m.file) or rel not in sources:
            raise UsageError(f"{m.where}: mutant {m.id}: unknown file '{visible(m.file)}' (not "
                             f"one of rtl/sources.txt's)")
        if rel not in texts:
            texts[rel] = _read_text(os.path.join(root, rel), "RTL source")
        text = texts[rel]
        n = text.count(m.anchor)
        if n == 0:
            raise UsageError(f"{m.where}: mutant {m.id}: anchor not found in {rel}: "
                             f"\"{visible(m.anchor)}\"")
        if n > 1:
            raise UsageError(f"{m.where}: mutant {m.id}: anchor occurs {n} times in {rel} (it "
                             f"must occur once): \"{visible(m.anchor)}\"")
        m.file = rel
        m.line = text[:text.index(m.anchor)].count("\n") + 1
    return texts


def read_equivalent(path, mutants):
    """equivalent.txt: 'ID reason' a line; sets each listed mutant's reason"""
    text = _read_text(path, "equivalence list")
    by_id = {m.id: m for m in mutants}
    seen = {}
    for no, line in enumerate(text.splitlines(), 1):
        where = f"{visible(path)}:{no}"
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        parts = s.split(None, 1)
        mid = parts[0]
        reason = parts[1].strip() if len(parts) > 1 else ""
        if mid in seen:
            raise UsageError(f"{where}: mutant {visible(mid)} is already on line {seen[mid]}")
        seen[mid] = no
        if not reason:
            raise UsageError(f"{where}: mutant {visible(mid)}: no reason given")
        if mid not in by_id:
            raise UsageError(f"{where}: unknown mutant '{visible(mid)}' (not in the mutant list)")
        by_id[mid].equivalent = reason


def select(mutants, only):
    """the mutants named by --only (comma-separated ids; None: every one), in the list's order;
    a list that names none (an empty variable) or one twice is bad usage"""
    if only is None:
        return mutants
    want = [x.strip() for x in only.split(",")]
    if not any(want):
        raise UsageError(f"--only '{visible(only)}' names no mutant (give ids, or leave --only "
                         "out to run them all)")
    ids = {m.id for m in mutants}
    for i, w in enumerate(want):
        if w not in ids:
            raise UsageError(f"--only: unknown mutant '{visible(w)}'" if w else
                             f"--only '{visible(only)}': an empty id")
        if w in want[:i]:
            raise UsageError(f"--only: mutant {w} is named twice")
    return [m for m in mutants if m.id in set(want)]
