"""The programs a mutant meets: otpu-gen's families on one Config that every family accepts
(one RTL build per mutant), and for comparison the golden bundles of the Config most of them
share (a second build)."""
import collections
import os
import shutil

from otpu_regress import procs

from .errors import UsageError, visible

FAMILIES = ("mix", "hazard", "dma", "mm", "fp", "stream", "error")
GOLDEN = "golden"
CONFIG_KEYS = ("S", "D", "MCOLS", "ACT_BLOCKS", "TMEM_WORDS", "DRAM_BYTES", "IMEM_WORDS",
               "LANES", "PAIR", "DSTEP", "STREAM", "ACT_ROWS", "REV")


class Program:
    def __init__(self, family, name, path):
        self.family, self.name, self.path = family, name, path
        self.cycles = None  # on the unmutated RTL


def read_config(bundle):
    """the Config fields of a bundle's case.txt, in order, as [(key, value)]"""
    path = os.path.join(bundle, "case.txt")
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read(1 << 20).splitlines()
    except OSError as e:
        raise UsageError(f"{visible(path)}: {e.strerror}") from None
    out = []
    for line in lines:
        k, sep, v = line.partition("=")
        k = k.strip()
        if sep and k in CONFIG_KEYS:
            out.append((k, v.strip()))
    if not any(k == "S" for k, _ in out):
        raise UsageError(f"{visible(path)}: no Config in it")
    return tuple(out)


def config_text(config):
    return " ".join(f"{k}={v}" for k, v in config)


def generate(gen, families, seed, count, settings, out_dir, timeout):
    """otpu-gen FAMILY --seed S --count K for each family into out_dir; [Program] and the one
    Config of them all"""
    if os.path.lexists(out_dir):
        shutil.rmtree(out_dir)
    os.makedirs(out_dir)
    progs = []
    for fam in families:
        argv = [gen, fam, "--seed", str(seed), "--count", str(count), "--out", out_dir] + settings
        rc, out, _, timed_out = procs.run(argv, timeout=timeout)
        if rc != 0:
            tail = visible(out.strip().splitlines()[-1]) if out.strip() else ""
            raise UsageError(f"otpu-gen {fam} failed ({'timed out' if timed_out else f'exit {rc}'}"
                             f"): {tail}")
        names = sorted(n for n in os.listdir(out_dir) if n.startswith(f"{fam}-{seed}-"))
        if len(names) != count:
            raise UsageError(f"otpu-gen {fam} wrote {len(names)} bundles, not {count}")
        progs += [Program(fam, n, os.path.join(out_dir, n)) for n in names]
    configs = collections.OrderedDict()
    for p in progs:
        configs.setdefault(read_config(p.path), []).append(p.family)
    if len(configs) != 1:
        parts = [f"{'/'.join(sorted(set(f)))}: {config_text(c)}" for c, f in configs.items()]
        raise UsageError("the families wrote bundles of different Configs (" + "; ".join(parts) +
                         "): give --config settings that every family keeps")
    return progs, next(iter(configs))


def golden(vectors, limit):
    """the golden bundles of the Config most of them share (ties: the first by name), sorted,
    at most limit of them (0: all); ([Program], Config)"""
    try:
        names = sorted(os.listdir(vectors))
    except OSError as e:
        raise UsageError(f"--golden {visible(vectors)}: {e.strerror}") from None
    by_config = collections.OrderedDict()
    for n in names:
        path = os.path.join(vectors, n)
        if not os.path.isfile(os.path.join(path, "case.txt")):
            continue
        try:
            cfg = read_config(path)
        except UsageError:
            continue
        if any(k == "REV" for k, _ in cfg):  # the reference RTL runs the current ISA only
            continue
        by_config.setdefault(cfg, []).append(n)
    if not by_config:
        raise UsageError(f"--golden {visible(vectors)}: no run bundle in it")
    cfg = max(by_config, key=lambda c: len(by_config[c]))
    chosen = by_config[cfg][:limit] if limit else by_config[cfg]
    return [Program(GOLDEN, n, os.path.join(vectors, n)) for n in chosen], cfg
