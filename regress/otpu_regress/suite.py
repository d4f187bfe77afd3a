"""Suites: what a regression runs. A suite argument is a bundle folder, a folder of bundles, a
generator spec (gen:FAMILY:seed=N:count=K[:rev=NAME][:KEY=VALUE...]) or a suite file (one entry per line:
ENTRY [name=NAME] [+plusarg ...]). Each entry becomes tests with stable names ENTRY/BUNDLE, so
one night can be compared with the one before."""
import os
import re
import shlex
from dataclasses import dataclass, field


class SuiteError(Exception):
    """bad input in a suite: the message names the file, line and entry"""


@dataclass
class GenSpec:
    family: str
    seed: int
    count: int
    overrides: list = field(default_factory=list)  # Config KEY=VALUE for otpu-gen
    rev: str = None                                # otpu-gen --rev

    def bundle_names(self):
        return [f"{self.family}-{self.seed}-{i:04d}" for i in range(self.count)]


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


GEN_KEY = re.compile(r"^[A-Z_]+=(0x[0-9a-fA-F]+|\d+)$")


def parse_gen(spec, where):
    parts = spec.split(":")
    if len(parts) < 2 or not parts[1]:
        raise SuiteError(f"{where}: '{spec}': a generator spec is gen:FAMILY:seed=N:count=K")
    g = GenSpec(parts[1], None, None)
    for p in parts[2:]:
        k, _, v = p.partition("=")
        if k == "rev" and v:
            g.rev = v
        elif k in ("seed", "count"):
            if not v.isdigit():
                raise SuiteError(f"{where}: '{spec}': {k} must be a decimal number, not '{v}'")
            setattr(g, k, int(v))
        elif GEN_KEY.match(p):
            g.overrides.append(p)
        else:
            raise SuiteError(f"{where}: '{spec}': '{p}' is neither seed=, count=, rev= nor a "
                             "Config KEY=VALUE")
    if g.seed is None or g.count is None or g.count < 1:
        raise SuiteError(f"{where}: '{spec}': seed= and count= (at least 1) are required")
    return g


def gen_name(g):
    return "-".join([f"gen-{g.family}-seed{g.seed}"] + ([f"rev-{g.rev}"] if g.rev else []) +
                    [o.replace("=", "-") for o in g.overrides])


def is_bundle(path):
    return os.path.isfile(os.path.join(path, "case.txt"))


def entry_of(text, base, where, name=None, plusargs=()):
    """one entry: a gen spec or a path (relative to base; ${VAR} from the environment)"""
    if text.startswith("gen:"):
        g = parse_gen(text, where)
        return Entry(name or gen_name(g), text, gen=g, plusargs=list(plusargs))
    path = os.path.expandvars(text)
    if "$" in path:
        raise SuiteError(f"{where}: '{text}': an environment variable is not set")
    path = os.path.normpath(os.path.join(base, path))
    if not os.path.isdir(path):
        raise SuiteError(f"{where}: '{text}': no such folder ({path})")
    return Entry(name or os.path.basename(path), text, path=path, plusargs=list(plusargs))


def read_suite_file(path):
    entries = []
    with open(path) as f:
        for no, line in enumerate(f, 1):
            where = f"{path}:{no}"
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            try:
                words = shlex.split(line)
            except ValueError as e:
                raise SuiteError(f"{where}: {e}") from None
            name, plus = None, []
            for w in words[1:]:
                if w.startswith("+"):
                    plus.append(w)
                elif w.startswith("name=") and len(w) > 5:
                    name = w[5:]
                else:
                    raise SuiteError(f"{where}: '{w}': expected name=NAME or +plusarg")
            entries.append(entry_of(words[0], os.path.dirname(os.path.abspath(path)), where,
                                    name, plus))
    if not entries:
        raise SuiteError(f"{path}: the suite file has no entry")
    return entries


def entries_of(arg):
    """the entries of one suite argument"""
    if arg.startswith("gen:"):
        return [entry_of(arg, ".", "suite")]
    if os.path.isfile(arg):
        return read_suite_file(arg)
    return [entry_of(arg, ".", "suite")]


def tests_of(entry, gen_root):
    if entry.gen:
        folder = os.path.join(gen_root, entry.name)
        names = entry.gen.bundle_names()
        paths = [os.path.join(folder, n) for n in names]
    elif is_bundle(entry.path):
        names, paths = [os.path.basename(entry.path)], [entry.path]
    else:
        names = sorted(n for n in os.listdir(entry.path)
                       if is_bundle(os.path.join(entry.path, n)))
        if not names:
            raise SuiteError(f"{entry.source}: no bundle (a folder with case.txt) in "
                             f"{entry.path}")
        paths = [os.path.join(entry.path, n) for n in names]
    return [Test(f"{entry.name}/{n}", entry.name, n, p, entry.plusargs, entry)
            for n, p in zip(names, paths)]


def load(args, gen_root):
    """every test of the suite arguments, sorted by name; two tests of one name are bad input"""
    tests, seen = [], {}
    for a in args:
        for e in entries_of(a):
            for t in tests_of(e, gen_root):
                if t.name in seen:
                    raise SuiteError(f"two tests are named '{t.name}' ({seen[t.name]} and "
                                     f"{e.source}): give one entry another name=")
                seen[t.name] = e.source
                tests.append(t)
    return sorted(tests, key=lambda t: t.name)


def safe_name(name):
    """a test name as one folder name"""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)


def shard(tests, index, count):
    """the deterministic index-th (1-based) of count shares of the sorted tests"""
    return [t for k, t in enumerate(tests) if k % count == index - 1]
