"""Builds and lockstep runs: a tree's RTL built for a Config (otpu-rtl build, cached by the tool
itself), the unmutated RTL's baseline, and each mutant's programs family by family until the
first kill of each family."""
import json
import os
import re
import shutil
import threading
from concurrent.futures import ThreadPoolExecutor

from otpu_regress import procs

from .errors import visible

PASS_RE = re.compile(r"^lockstep: PASS \((\d+) cycles", re.M)
CYCLES_RE = re.compile(r"^cycles=(\d+)", re.M)
# otpu-lockstep's exit statuses (docs/exit-status.md) as the kind of a kill without a report
EXIT_KIND = {1: "divergence", 2: "bad-input", 3: "hang-or-timeout", 4: "build-failed",
             5: "crash", 6: "unexpected-outcome"}


class Tools:
    def __init__(self, lockstep, rtl, gen, verilator, cache, timeout, build_timeout):
        self.lockstep, self.rtl, self.gen, self.verilator = lockstep, rtl, gen, verilator
        self.cache, self.timeout, self.build_timeout = cache, timeout, build_timeout

    def env(self, tree):
        """the environment of a tool run on a tree, as procs.run's keyword arguments (env
        and unset): its RTL, the cache; never another DUT"""
        return {"env": {"OTPU_SOURCE_ROOT": tree, "OTPU_RTL_CACHE": self.cache},
                "unset": ("OTPU_DUT", "OTPU_RTL_KEY", "OTPU_RTL_PREBUILT")}


def _last_line(out, prefix=None):
    lines = [ln for ln in out.strip().splitlines() if ln.strip()]
    if prefix:
        picked = [ln for ln in lines if ln.startswith(prefix)]
        if picked:
            return visible(picked[-1])[:500]
    return visible(lines[-1])[:500] if lines else ""


def build(tools, tree, bundle):
    """otpu-rtl build --bundle: (ok, seconds, message)"""
    rc, out, secs, timed_out = procs.run([tools.rtl, "build", "--bundle", bundle],
                                         timeout=tools.build_timeout, **tools.env(tree))
    if rc == 0:
        return True, secs, ""
    errs = [ln for ln in out.splitlines() if "%Error" in ln or "error:" in ln]
    why = ("timed out after %d s" % tools.build_timeout if timed_out else
           visible(errs[0])[:400] if errs else _last_line(out) or f"exit status {rc}")
    return False, secs, why


def run_program(tools, tree, prog, report_dir, max_cycles=None):
    """one lockstep run: {"exit", "kind", "message", "cycles", "time", "unit", "instruction"}"""
    if os.path.lexists(report_dir):
        shutil.rmtree(report_dir, ignore_errors=True)
    argv = [tools.lockstep, "run", prog.path, "--wave-window", "0", "--report", report_dir]
    if max_cycles:
        argv += ["--max-cycles", str(max_cycles)]
    rc, out, secs, timed_out = procs.run(argv, timeout=tools.timeout, **tools.env(tree))
    res = {"exit": rc, "kind": None, "message": "", "cycles": None, "time": round(secs, 3),
           "unit": None, "instruction": None}
    m = PASS_RE.search(out) or CYCLES_RE.search(out)
    if m:
        res["cycles"] = int(m.group(1))
    if rc == 0:
        return res
    if timed_out:
        res["kind"] = "wall-clock-timeout"
        res["message"] = f"no verdict within {tools.timeout} s (stopped)"
        return res
    res["kind"] = EXIT_KIND.get(rc, "crash")
    res["message"] = _last_line(out, "lockstep: ") or f"exit status {rc}"
    try:
        with open(os.path.join(report_dir, "divergence.json"), encoding="utf-8") as f:
            d = json.load(f)
        res["kind"] = visible(d.get("kind") or res["kind"])
        res["unit"] = d.get("unit")
        sig = d.get("signature") or {}
        res["key"] = sig.get("key") if isinstance(sig.get("key"), str) else None
        ins = d.get("instruction") or {}
        res["instruction"] = visible(ins.get("disasm", ""))[:200] or None
    except (OSError, ValueError, AttributeError):
        pass
    return res


def baseline(tools, tree, programs, work, jobs):
    """every program on the unmutated RTL: (kept, dropped); a kept program knows its cycles"""
    rdir = os.path.join(work, "reports", "original")
    results = {}

    def one(p):
        results[p] = run_program(tools, tree, p, os.path.join(rdir, p.family, p.name))

    with ThreadPoolExecutor(max_workers=jobs) as ex:
        for f in [ex.submit(one, p) for p in programs]:
            f.result()
    kept, dropped = [], []
    for p in programs:
        r = results[p]
        if r["exit"] == 0:
            p.cycles = r["cycles"]
            kept.append(p)
        else:
            dropped.append({"family": p.family, "program": p.name, "path": p.path,
                            "exit": r["exit"], "kind": r["kind"], "message": r["message"]})
    shutil.rmtree(rdir, ignore_errors=True)
    return kept, dropped


def max_cycles_of(prog):
    """a run of a mutant past 4x the unmutated RTL's cycles (+100,000) is a hang"""
    return 4 * prog.cycles + 100000 if prog.cycles else None


def run_families(tools, tree, by_family, report_root, jobs, fast):
    """each family's programs in order until its first kill (with fast: until any kill);
    {family: {"run": n, "kill": result-with-program or None}}"""
    stop = threading.Event()
    out = {}

    def family(fam, progs):
        n = 0
        for p in progs:
            if stop.is_set():
                break
            n += 1
            rdir = os.path.join(report_root, fam)
            r = run_program(tools, tree, p, rdir, max_cycles_of(p))
            shutil.rmtree(rdir, ignore_errors=True)
            if r["exit"] != 0:
                r["program"] = p.name
                out[fam] = {"run": n, "kill": r}
                if fast:
                    stop.set()
                return
        out[fam] = {"run": n, "kill": None, "complete": not stop.is_set() or n == len(progs)}

    with ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = [ex.submit(family, fam, progs) for fam, progs in by_family.items()]
        for f in futs:
            f.result()
    for fam in by_family:
        out[fam].setdefault("complete", True)
    return out
