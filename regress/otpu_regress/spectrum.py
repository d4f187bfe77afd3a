"""Spectrum-based ranking of RTL lines (fault localization, localize.py): which source lines a
test executed, from its Verilator code-coverage file, and each line's suspiciousness over
failing and passing tests.

A line is executed by a test when the innermost coverage point over it was hit: Verilator's
line and branch points each cover a span of lines (the S key, "31-34,40"), and a block's span
holds the arms nested in it, so the arm's own point, not the enclosing block's, says whether
the arm's lines ran. Lines with nothing a bug could be in (begin, end, else, a comment) are
left out. The score is Ochiai's, ef / sqrt(F * (ef + ep)) (F failing tests, ef of them and ep
passing ones executing the line): 1.0 for a line every failing test and no passing test ran."""
import math
import os
import re

from . import codecov, files, rtl_lines

MAX_SOURCE = files.OTHER            # an RTL source read for its lines' text
# what a line must hold besides these words and punctuation to be a statement
EMPTY_WORDS = re.compile(r"\b(?:begin|end|else|endcase|endfunction|endtask|endgenerate|fork|"
                         r"join|generate|unique|priority)\b|[;:()\s]")
COMMENT = re.compile(r"//.*|/\*.*?\*/")
ASSIGNS = re.compile(r"(?<![=!<>])<?=(?!=)|\breturn\b")


def _ident(keys):
    """a point's identity: all of its keys"""
    return "\x01".join(f"{k}={v}" for k, v in sorted(keys.items()))


def _points(path, resolve=None):
    """[(key text, file, span lines, count)] of a checked .dat's line and branch points; resolve:
    the source file of a name the .dat gives (openTPU's build names its copies src/PATH)"""
    out = []
    for keys, count in codecov.points(path):
        kind = keys.get("page", "").partition("/")[0]
        if kind not in ("v_line", "v_branch"):
            continue
        span = codecov.span_lines(keys.get("S") or keys.get("l"))
        f = keys.get("f", "")
        out.append((_ident(keys), resolve(f) if resolve else f, frozenset(span), count))
    return out


class Layout:
    """the lines of one build's sources and, for each, the innermost points over it (the same
    for every test of that build: the first .dat read makes it)"""

    def __init__(self, points, sources, flat=frozenset()):
        """flat: points that count nothing but the model's settling (1 in every run:
        Verilator evaluates each combinational block once as the model settles, and some
        blocks never again, their logic folded into their readers): the lines under them
        count as lines without a point (rtl_lines: executed when their readers are)"""
        best, self.widths = {}, {}
        for ident, f, span, _ in points:
            if ident in flat:
                continue
            for ln in span:
                size, ids = best.get((f, ln), (None, []))
                if size is None or len(span) < size:
                    best[(f, ln)] = (len(span), [ident])
                elif len(span) == size:
                    ids.append(ident)
        self.owners = {line: ids for line, (_, ids) in best.items()}
        self.widths = {line: size for line, (size, _) in best.items()}
        self.derived = rtl_lines.derived(set(self.owners), sources.statement)

    def width(self, f, n):
        """the lines of the narrowest point over a line (a line with none: after all)"""
        return self.widths.get((f, n), 1 << 20)

    def grown(self, full, early):
        """the lines whose points counted more in full than in early ({point: count} of the
        same test run to its end and stopped sooner): what ran in between"""
        more = {ident for ident, n in full.items() if n > early.get(ident, 0)}
        return self._lines(more)

    def _lines(self, hit):
        ran = {line for line, ids in self.owners.items() if any(i in hit for i in ids)}
        return ran | {d for d, by in self.derived.items() if not by.isdisjoint(ran)}

    def executed(self, counts):
        """the (file, line)s a test with these counts ({point: count}) ran"""
        return self._lines({ident for ident, n in counts.items() if n > 0})


def read_points(path, resolve=None):
    """the line and branch points of a .dat, _points' (files.BadFile when it is not
    Verilator's)"""
    codecov.check_dat(path)
    return _points(path, resolve)


def counts_of(points):
    return {ident: n for ident, _, _, n in points}


def flat_points(runs):
    """the points every run ({point: count} each) counted exactly once: the model's settling,
    nothing a test did (Layout's flat)"""
    seen = {}
    for counts in runs:
        for ident, n in counts.items():
            seen.setdefault(ident, set()).add(n)
    return frozenset(i for i, ns in seen.items() if ns == {1})


def executed_lines(path, sources, layout=None, resolve=None):
    """(layout, the lines a test ran) of its .dat (files.BadFile when it is not Verilator's)"""
    pts = read_points(path, resolve)
    layout = layout or Layout(pts, sources)
    return layout, layout.executed(counts_of(pts))


def ochiai(ef, ep, failing):
    return ef / math.sqrt(failing * (ef + ep)) if ef else 0.0


class Sources:
    """the text of the RTL's lines (for the statement test and the page), read once a file"""

    def __init__(self):
        self.text = {}

    def line(self, path, n):
        if path not in self.text:
            try:
                self.text[path] = files.read_text(path, MAX_SOURCE).splitlines()
            except (files.BadFile, UnicodeDecodeError, ValueError):  # (ValueError: a NUL)
                self.text[path] = None
        lines = self.text[path]
        return lines[n - 1] if lines and 0 < n <= len(lines) else None

    def assigns(self, path, n):
        """whether the line assigns (=, <=, a return) rather than only tests or declares"""
        code = COMMENT.sub("", self.line(path, n) or "")
        return bool(ASSIGNS.search(code)) and not re.match(r"\s*(?:if|for|while|case)\b",
                                                           code)

    def statement(self, path, n):
        """False for a line that holds no statement (begin/end/else, a comment, nothing);
        True when unknown (its file cannot be read)"""
        text = self.line(path, n)
        if text is None:
            return self.text.get(path) is None
        return bool(EMPTY_WORDS.sub("", COMMENT.sub("", text)))


def rank(failing, passing, sources, layout, prefer=(), limit=20, near=frozenset()):
    """the lines ranked, best first: [{"file", "line", "score", "failed", "passed"}] (file as
    the .dat names it). failing, passing: each test's executed lines; prefer: predicates of a
    file that break ties in that order (the diverging unit's files first), after the lines in
    near (run close to the divergence) first; then the line of
    the narrower coverage point (the statement inside a loop before the loop's header), an
    assignment before a condition, fewer passing runs"""
    ef, ep = {}, {}
    for runs, counts in ((failing, ef), (passing, ep)):
        for lines in runs:
            for ln in lines:
                counts[ln] = counts.get(ln, 0) + 1
    rows = []
    for (f, n), k in ef.items():
        if not sources.statement(f, n):
            continue
        score = ochiai(k, ep.get((f, n), 0), len(failing))
        order = ((f, n) not in near,) + tuple(not p(f) for p in prefer) + (layout.width(f, n),
                                                   not sources.assigns(f, n))
        # a line more than a tenth of the failing runs did not run comes after the lines
        # (nearly) all of them ran: one deterministic bug is on a line each failing run
        # executed before it diverged (a tenth: a run whose coverage is cut short, a failure
        # with the same signature from elsewhere)
        rows.append((len(failing) - k > len(failing) // 10, -score, order, ep.get((f, n), 0),
                     -k, f, n, score))
    rows.sort()
    return [{"file": f, "line": n, "score": round(score, 4), "failed": -k, "passed": p}
            for _, _, _, p, k, f, n, score in rows[:limit]]


def relative(path, roots):
    """path relative to the first of roots that holds it, else as given"""
    real = os.path.realpath(path) if os.path.isabs(path) and "\0" not in path else None
    for r in roots:
        if real and os.path.commonpath([real, r]) == r:
            return os.path.relpath(real, r)
    return path
