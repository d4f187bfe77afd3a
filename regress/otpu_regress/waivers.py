"""Waivers (regress/README.md, "Waivers"): the known differences of an RTL, so that a night
reports each of them as "waived" and a new one stands out. A waiver file is TOML (Python's
tomllib), one table per known difference:

    [[waiver]]
    id = "quant-nan-group"                       # [A-Za-z0-9_.-], unique in the file
    signature = "wrong-value/QUANT/QACT/ACT/*"   # a bucket key; * in a part: any characters
    # (or a list of them, when one difference shows under several: ["...", "..."])
    why = "the RTL writes +127 where isasim.py's NaN-to-int8 cast gives 0"
    link = "docs/opentpu.md#what-lockstep-found"

A failure whose bucket key matches one of a waiver's signatures (the first such waiver in the
file) is waived: it keeps its kind and report, is counted apart from the failures, is skipped
(with the waiver's reason) in junit.xml and does not make the night fail. A waiver that matches no
failure of the night is stale and is reported as such. The file is read whole and checked
before the first test runs; anything else in it is refused with one line (UsageError)."""
import re
import tomllib

from . import files
from .errors import UsageError
from .outcome import REPORT_KINDS
from .text import visible

MAX_BYTES = 1 << 20          # a waiver file
MAX_WAIVERS = 1000
MAX_SIGNATURES = 64          # of one waiver
MAX_WHY = 2000               # characters of why and of link
ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")
# a signature: a bucket key (buckets.KEY) whose parts may hold *
SIG_PART = r"[A-Za-z0-9_.+?*-]{1,40}"
SIGNATURE = re.compile(rf"{SIG_PART}(?:/{SIG_PART}){{1,7}}")
FIELDS = ("id", "signature", "why", "link")
# What a signature may name: a kind of failure that is a known difference, written out (no *),
# with the parts of that kind's key, one of them besides the kind a fact (not * alone, nor the
# ? of a fact not known, with or without *). The kinds: the
# checker's divergences (checker/REPORT.md: its key has 5 parts) and an outcome RTL and model
# agree on (2 parts). Never a failure without a verdict on the bundle (bad input, a bundle never
# read, a crash, a build, a timeout, a divergence without its report): that is no known
# difference, and a waiver of it would pass a night that checked nothing.
PARTS = {**dict.fromkeys(REPORT_KINDS, 5), "unexpected-outcome": 2}
WAIVABLE = ("divergence", "timeout", "unexpected-outcome")  # the failures' kinds those keys have


def _pattern(signatures):
    """the regular expression of a list of signatures: * matches any characters of one part"""
    return re.compile("|".join("[^/]*".join(re.escape(s) for s in sig.split("*"))
                               for sig in signatures))


def _text(w, field, where, limit, check=None, want=""):
    v = w.get(field)
    if not isinstance(v, str) or not v.strip():
        raise UsageError(f"{where}: '{field}' must be a non-empty string")
    if len(v) > limit or not v.isprintable() or (check and not check(v)):
        want = want or f"printable text of at most {limit} characters"
        raise UsageError(f"{where}: '{field}' '{visible(v[:80])}' is not {want}")
    return v


def _specific(sig, where):
    """sig, when it names one kind of known difference and something more (PARTS), else
    UsageError; * is its only wildcard (. + ? are characters of a key)"""
    kind, *rest = sig.split("/")
    if PARTS.get(kind) != len(rest) + 1 or all(set(p) <= {"*", "?"} for p in rest):
        raise UsageError(
            f"{where}: signature '{sig}' does not name one known difference: KIND/UNIT/OPCODE/"
            "SPACE/SHAPE of a divergence kind (" + ", ".join(REPORT_KINDS) + ") or "
            "unexpected-outcome/EXPECTED-vs-GOT, the kind written out and a part besides it "
            "that names a fact, not * or ? (bad input, crashes, builds and timeouts are never "
            "waived)")
    return sig


def parse(text, name):
    """[WAIVER] ({"id", "signature", "why", "link", "match"}) of a waiver file's text"""
    try:
        doc = tomllib.loads(text)
    except RecursionError:
        raise UsageError(f"{name}: nested too deeply to be a waiver file") from None
    except ValueError as e:  # TOMLDecodeError, and an integer of thousands of digits
        raise UsageError(f"{name}: not TOML: {visible(e)}") from None
    extra = sorted(set(doc) - {"waiver"})
    if extra:
        raise UsageError(f"{name}: unknown table or key '{visible(extra[0][:64])}' (a waiver "
                         "file holds [[waiver]] tables only)")
    items = doc.get("waiver", [])
    if not isinstance(items, list) or not all(isinstance(w, dict) for w in items):
        raise UsageError(f"{name}: 'waiver' must be an array of tables ([[waiver]])")
    if len(items) > MAX_WAIVERS:
        raise UsageError(f"{name}: {len(items)} waivers, more than {MAX_WAIVERS}")
    out, seen = [], set()
    for i, w in enumerate(items, 1):
        where = f"{name}: waiver {i}"
        extra = sorted(set(w) - set(FIELDS))
        if extra:
            raise UsageError(f"{where}: unknown key '{visible(extra[0][:64])}' (known: "
                             f"{', '.join(FIELDS)})")
        wid = _text(w, "id", where, 64, ID.fullmatch, "an id of [A-Za-z0-9_.-], 1..64")
        if wid in seen:
            raise UsageError(f"{where}: a second waiver with id '{wid}'")
        seen.add(wid)
        sigs = w.get("signature")
        sigs = sigs if isinstance(sigs, list) and 0 < len(sigs) <= MAX_SIGNATURES else [sigs]
        sigs = [_specific(_text({"signature": s}, "signature", where, 159, SIGNATURE.fullmatch,
                                "a bucket key KIND/UNIT/... (parts of [A-Za-z0-9_.+?-] and *)"),
                          where) for s in sigs]
        out.append({"id": wid, "signature": " | ".join(sigs), "match": _pattern(sigs),
                    "why": _text(w, "why", where, MAX_WHY),
                    "link": _text(w, "link", where, MAX_WHY)})
    return out


def load(path):
    """the waivers of the file at path ([] for None)"""
    if path is None:
        return []
    try:
        text = files.read_bytes(path, MAX_BYTES).decode("utf-8")
    except UnicodeDecodeError as e:
        raise UsageError(f"{path}: not UTF-8 text (byte {e.start})") from None
    return parse(text, path)


def waiver_of(waivers, key):
    """the first waiver whose signature matches the bucket key, or None"""
    return next((w for w in waivers if w["match"].fullmatch(key)), None)


def mark(waivers, t):
    """t's "waived" ({"id", "why", "link"}) when t is a failure a waiver matches (a mark an
    earlier run or a shard left is replaced); the waiver, or None"""
    t.pop("waived", None)
    w = waiver_of(waivers, t["bucket"]["key"]) if t["status"] != "pass" and t.get("bucket") \
        and t["kind"] in WAIVABLE else None
    if w:
        t["waived"] = {k: w[k] for k in ("id", "why", "link")}
    return w


def apply(waivers, tests):
    """marks every failure a waiver matches (mark) and returns the waivers as the summary
    keeps them, each with the number of failures it matched and whether it is stale (matched
    none)"""
    matched = dict.fromkeys((w["id"] for w in waivers), 0)
    for t in tests:
        w = mark(waivers, t)
        if w:
            matched[w["id"]] += 1
    return [{**{k: w[k] for k in FIELDS}, "matched": matched[w["id"]],
             "stale": matched[w["id"]] == 0} for w in waivers]


def failed(tests):
    """the failures no waiver matched"""
    return [t for t in tests if t["status"] != "pass" and not t.get("waived")]


def text_lines(summary_waivers):
    """the waivers in summary.txt: one line each, the stale ones said so"""
    return [f"  waiver {w['id']} ({w['signature']}): " +
            (f"{w['matched']} waived" if not w["stale"] else
             "STALE: matched no failure tonight") for w in summary_waivers]
