"""The source trees the RTL builds read, one per mutant, and the Verilated model of a tree.

A tree holds copies of the folders the RTL build reads (rtl, rtl_bridge, dpi, and the lockstep
libraries' headers: checker, cov, golden, json, digest, sim), as tests/test_report.py's
repro_of_another_rtl plants a bug: otpu-rtl and otpu-lockstep build it with OTPU_SOURCE_ROOT
pointing at it. The original is a snapshot of the source tree taken when
the run starts (so that edits elsewhere during a run change nothing); each mutant's tree is that
snapshot with its one change. Trees live at stable paths under the work folder
(WORK/trees/original, WORK/trees/<ID>): the tools' build key holds the sources' paths and
contents, so the next run finds the same mutant's builds in the cache.

The Verilated model: Verilator's C++ of a tree's RTL and adapter for a Config (the sources and
parameters of the RTL library build), normalized (the tree's path replaced, the dependency and
file lists left out) and hashed. Two trees with the same hash build the same model: a mutant
whose hash equals the original's on every Config run is equivalent by construction."""
import hashlib
import os
import shutil
import subprocess
import tempfile

from otpu_regress import procs

from .errors import UsageError, visible

DIRS = ("rtl", "rtl_bridge", "dpi", "checker", "cov", "golden", "json", "digest", "sim")
ADAPTER = ("dpi/otpu_lockstep_dpi.sv", "rtl_bridge/otpu_rtl_tb.sv")
TOP = "otpu_rtl_tb"
FLAGS = ["--cc", "-Wno-fatal", "-Wno-lint", "-Wno-style", "--top-module", TOP]
INCLUDE_DIR = "rtl"  # the RTL's `include files (*.svh), as the RTL library build passes it
# the Config fields that are not parameters of the RTL
NOT_PARAMS = {"desc", "ARGS", "expect", "error", "REV"}
_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.o", "*.a", "*.so")


def _copy(src_root, dst_root):
    if os.path.lexists(dst_root):
        shutil.rmtree(dst_root)
    os.makedirs(dst_root)
    for d in DIRS:
        src = os.path.join(src_root, d)
        if not os.path.isdir(src):
            raise UsageError(f"source tree {visible(src_root)}: no folder {d}/")
        shutil.copytree(src, os.path.join(dst_root, d), ignore=_IGNORE, symlinks=False)


def snapshot(source_root, work):
    """WORK/trees/original: a copy of the source tree's RTL build folders"""
    dst = os.path.join(work, "trees", "original")
    _copy(source_root, dst)
    return dst


def mutant_tree(original, work, mutant):
    """WORK/trees/<ID>: the original with the mutant planted in its file"""
    return planted_tree(original, work, [mutant])


def planted_tree(original, work, mutants):
    """WORK/trees/<ID+ID...>: the original with each of the mutants planted (the tests plant
    several bugs in one tree)"""
    dst = os.path.join(work, "trees", "+".join(m.id for m in mutants))
    _copy(original, dst)
    for mutant in mutants:
        path = os.path.join(dst, mutant.file)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if text.count(mutant.anchor) != 1:  # the snapshot is what was checked: cannot happen
            raise UsageError(f"mutant {mutant.id}: anchor no longer once in {mutant.file}")
        with open(path, "w", encoding="utf-8") as f:
            f.write(mutant.apply(text))
    return dst


def verilator_argv(verilator, root, config, sources, mdir):
    """Verilator's command for a tree and a Config: the RTL library build's sources and
    parameters (rtl_bridge/rtl_build.cpp), C++ output into mdir, nothing compiled"""
    argv = [verilator] + FLAGS + ["-I" + os.path.join(root, INCLUDE_DIR)]
    for k, v in config:
        if k in NOT_PARAMS:
            continue
        argv.append(f"-G{k}=64'd{v}" if k == "DRAM_BYTES" else f"-G{k}={v}")
    argv += [os.path.join(root, s) for s in list(sources) + list(ADAPTER)]
    return argv + ["--Mdir", mdir]


def model_digest(verilator, root, config, sources, tmp_parent, timeout=600):
    """(sha256 of the normalized Verilated C++, None) or (None, Verilator's first error)"""
    with tempfile.TemporaryDirectory(prefix="verilate-", dir=tmp_parent) as tmp:
        mdir = os.path.join(tmp, "obj")
        rc, out, _, timed_out = procs.run(verilator_argv(verilator, root, config, sources, mdir),
                                          timeout=timeout)
        if timed_out or rc != 0:
            lines = [ln for ln in out.splitlines() if "%Error" in ln] or out.splitlines()[-3:]
            first = lines[0] if lines else f"exit status {rc}"
            return None, ("Verilator timed out" if timed_out else visible(first)[:400])
        h = hashlib.sha256()
        root_b = os.path.abspath(root).encode()
        for name in sorted(os.listdir(mdir)):
            # the dependency and file lists name every input with its path and time
            if name.endswith((".d", ".dat")):
                continue
            with open(os.path.join(mdir, name), "rb") as f:
                body = f.read().replace(root_b, b"<ROOT>")
            h.update(name.encode() + b"\0" + hashlib.sha256(body).digest())
        return h.hexdigest(), None


def verilator_found(verilator):
    """Verilator's version line, or raises UsageError"""
    try:
        p = subprocess.run([verilator, "--version"], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise UsageError(f"Verilator '{visible(verilator)}' cannot run: "
                         f"{getattr(e, 'strerror', None) or e} (set VERILATOR)") from None
    if p.returncode != 0:
        raise UsageError(f"'{visible(verilator)} --version' failed (exit {p.returncode})")
    return p.stdout.strip().splitlines()[0] if p.stdout.strip() else "verilator"
