"""Suites: what a regression runs. A suite argument is a bundle folder, a folder of bundles, a
generator spec (gen:FAMILY:seed=N:count=K[:rev=NAME][:data=finite][:KEY=VALUE...]) or a suite
file (one entry per line: ENTRY [name=NAME] [+plusarg ...]). Each entry becomes tests with
stable names ENTRY/BUNDLE, so one night can be compared with the one before. Numbers follow the
project's grammar (number.py); names are kept as visible text (text.py)."""
import os
import re
import shlex
from dataclasses import dataclass, field

from . import files
from .errors import UsageError
from .number import number
from .text import visible


class SuiteError(UsageError):
    """bad input in a suite: the message names the file, line and entry"""


@dataclass
class GenSpec:
    family: str
    seed: int
    count: int
    overrides: list = field(default_factory=list)  # Config KEY=VALUE for otpu-gen
    rev: str = None                                # otpu-gen --rev
    first: int = 0                                 # otpu-gen --first (rounds.py)
    cover: str = None                              # otpu-gen --cover (rounds.py)
    data: str = None                               # otpu-gen --data (None: its default)

    def bundle_names(self):
        return [f"{self.family}-{self.seed}-{i:04d}"
                for i in range(self.first, self.first + self.count)]

    def canonical(self):
        """the spec in one spelling (the suite's identity: identity.py)"""
        return ":".join(["gen", self.family, f"seed={self.seed}", f"count={self.count}"] +
                        ([f"rev={self.rev}"] if self.rev else []) +
                        ([f"data={self.data}"] if self.data else []) + self.overrides)


@dataclass
class Entry:
    name: str
    source: str          # as written: a path or a gen spec
    path: str = None     # a bundle folder or a folder of bundles
    gen: GenSpec = None
    plusargs: list = field(default_factory=list)


@dataclass
class Test:
    name: str            # ENTRY/BUNDLE
    suite: str
    bundle: str
    path: str            # the bundle folder (for gen entries: where otpu-gen writes it)
    plusargs: list
    entry: Entry


FAMILY = re.compile(r"[A-Za-z0-9_-]{1,64}")
REV = re.compile(r"[A-Za-z0-9_.-]{1,64}")
GEN_KEY = re.compile(r"[A-Z][A-Z0-9_]{0,63}")
NAME = re.compile(r"[^/]{1,200}")  # an entry's name= (also a folder name under bundles/)
MAX_COUNT = 1000000  # the parser's bound; otpu-gen's own, lower, is asked of it (gen.py)
MAX_LINE = 65536     # a suite file's line


def parse_gen(spec, where):
    """a gen: spec as a GenSpec, or SuiteError"""
    def bad(why):
        return SuiteError(f"{where}: '{spec}': {why}")
    parts = spec.split(":")
    if len(parts) < 2 or not FAMILY.fullmatch(parts[1]):
        raise bad("a generator spec is gen:FAMILY:seed=N:count=K (FAMILY: letters, digits, "
                  "- and _)")
    g, seen = GenSpec(parts[1], None, None), set()
    for p in parts[2:]:
        k, eq, v = p.partition("=")
        if not eq:
            raise bad(f"'{p}' is neither seed=, count=, rev=, data= nor a Config KEY=VALUE")
        if k in seen:
            raise bad(f"{k}= is given twice")
        seen.add(k)
        try:
            if k == "rev":
                if not REV.fullmatch(v):
                    raise bad(f"rev= names no revision: '{v}'")
                g.rev = v
            elif k == "data":
                if v not in ("all", "finite"):
                    raise bad(f"data= is all or finite (otpu-gen --data), not '{v}'")
                g.data = v if v == "finite" else None
            elif k == "seed":
                g.seed = number(v, "seed")
            elif k == "count":
                g.count = number(v, "count", 1, MAX_COUNT)
            elif GEN_KEY.fullmatch(k):
                number(v, k)
                g.overrides.append(p)
            else:
                raise bad(f"'{p}' is neither seed=, count=, rev=, data= nor a Config "
                          "KEY=VALUE")
        except SuiteError:
            raise
        except UsageError as e:  # a number the grammar refuses
            raise bad(str(e)) from None
    if g.seed is None or g.count is None:
        raise bad("seed= and count= are required")
    return g


def gen_name(g):
    return "-".join([f"gen-{g.family}-seed{g.seed}"] + ([f"rev-{g.rev}"] if g.rev else []) +
                    (["data-finite"] if g.data else []) +
                    [o.replace("=", "-") for o in g.overrides])


def is_bundle(path):
    """a folder with a case.txt (of any kind: a bad one is the test's bad input)"""
    return os.path.lexists(os.path.join(path, "case.txt"))


def entry_of(text, base, where, name=None, plusargs=(), expand=False):
    """one entry: a gen spec or a path (relative to base; with expand, ${VAR} from the
    environment, as in suite files)"""
    if text.startswith("gen:"):
        g = parse_gen(text, where)
        return Entry(name or gen_name(g), text, gen=g, plusargs=list(plusargs))
    path = text
    if expand:
        path = os.path.expandvars(text)
        if "$" in path:
            raise SuiteError(f"{where}: '{text}': an environment variable is not set")
    path = os.path.abspath(os.path.join(base, path))
    if not os.path.isdir(path):
        raise SuiteError(f"{where}: '{text}': no such folder ({path})")
    return Entry(name or visible(os.path.basename(path)), text, path=path,
                 plusargs=list(plusargs))


def parse_line(line, where):
    """(entry text, name or None, plusargs) of a suite file's line, or None for a blank one"""
    if len(line) > MAX_LINE:
        raise SuiteError(f"{where}: the line is longer than {MAX_LINE} characters")
    if any(not c.isprintable() and c != "\t" for c in line):
        raise SuiteError(f"{where}: the line holds a control byte or a byte that is not UTF-8")
    line = line.split("#", 1)[0].strip()
    if not line:
        return None
    try:
        words = shlex.split(line)
    except ValueError as e:
        raise SuiteError(f"{where}: {e}") from None
    if not words:
        return None
    name, plus = None, []
    for w in words[1:]:
        if w.startswith("+") and len(w) > 1:
            plus.append(w)
        elif w.startswith("name=") and NAME.fullmatch(w[5:]) and w[5:] not in (".", ".."):
            name = w[5:]
        else:
            raise SuiteError(f"{where}: '{w}': expected name=NAME (no /, not . or ..) "
                             "or +plusarg")
    return words[0], name, plus


def read_suite_file(path):
    entries = []
    text = files.read_text(path, files.SUITE)
    for no, line in enumerate(text.split("\n"), 1):
        where = f"{path}:{no}"
        parsed = parse_line(line, where)
        if parsed:
            entries.append(entry_of(parsed[0], os.path.dirname(os.path.abspath(path)), where,
                                    parsed[1], parsed[2], expand=True))
    if not entries:
        raise SuiteError(f"{path}: the suite file has no entry")
    return entries


def entries_of(arg):
    """the entries of one suite argument"""
    if arg.startswith("gen:"):
        return [entry_of(arg, ".", "suite")]
    if os.path.isdir(arg) or not os.path.lexists(arg):
        return [entry_of(arg, ".", "suite")]
    files.check(arg, files.SUITE)  # a FIFO, a device, a huge file: refused before it is read
    return read_suite_file(arg)


def tests_of(entry, gen_root):
    if entry.gen:
        folder = os.path.join(gen_root, entry.name)
        names = entry.gen.bundle_names()
        paths = [os.path.join(folder, n) for n in names]
    elif is_bundle(entry.path):
        names, paths = [os.path.basename(entry.path)], [entry.path]
    else:
        try:
            names = sorted(n for n in os.listdir(entry.path)
                           if is_bundle(os.path.join(entry.path, n)))
        except OSError as e:
            raise SuiteError(f"{entry.source}: {entry.path}: "
                             f"{e.strerror}") from None
        if not names:
            raise SuiteError(f"{entry.source}: no bundle (a folder with case.txt) in "
                             f"{entry.path}")
        paths = [os.path.join(entry.path, n) for n in names]
    return [Test(f"{entry.name}/{visible(n)}", entry.name, visible(n), p, entry.plusargs, entry)
            for n, p in zip(names, paths)]


def load(args, gen_root):
    """every test of the suite arguments, sorted by name; two tests of one name are bad input"""
    tests, seen = [], {}
    for a in args:
        for e in entries_of(a):
            for t in tests_of(e, gen_root):
                if t.name in seen:
                    raise SuiteError(f"two tests are named '{t.name}' ({seen[t.name]} "
                                     f"and {e.source}): give one entry another name=")
                seen[t.name] = e.source
                tests.append(t)
    return sorted(tests, key=lambda t: t.name)


def shard(tests, index, count):
    """the deterministic index-th (1-based) of count shares of the sorted tests"""
    return [t for k, t in enumerate(tests) if k % count == index - 1]
