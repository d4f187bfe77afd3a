"""A failed test's repro folder: its bundle (with its plusargs in plusargs.txt), the report
otpu-lockstep wrote there (report/: divergence.txt, divergence.json, wave.fst), the tool's
output, repro.sh with the exact command, and with --shrink the bundle otpu-shrink reduced."""
import json
import os
import shlex
import shutil
import subprocess

from .suite import safe_name

REPRO_SH = """#!/bin/sh
# otpu-regress repro of {name}: {kind}
#   {message}
# Runs the bundle beside this script exactly as the regression did: exit 1 and the same
# divergence.txt (in report-rerun/) is the failure reproduced. Another otpu-lockstep:
# OTPU_LOCKSTEP=/path/to/otpu-lockstep ./repro.sh
cd "$(dirname "$0")" || exit 2
{dut}exec "${{OTPU_LOCKSTEP:-{lockstep}}}" run bundle --report report-rerun {plusargs} "$@"
"""


def dut_line(report):
    """the repro.sh lines that run the same RTL as the regression: openTPU's own when OTPU_DUT
    named it (docs/opentpu.md), and the RTL's sources and build key the report's repro names
    (OTPU_SOURCE_ROOT, OTPU_RTL_KEY; checker/REPORT.md)"""
    env = {}
    try:
        with open(os.path.join(report, "divergence.json")) as f:
            words = shlex.split(json.load(f).get("repro") or "")
    except (OSError, ValueError):
        words = []
    for w in words:  # the assignments before the command
        if "=" not in w or w.startswith("-"):
            break
        k, v = w.split("=", 1)
        env[k] = v
    if os.environ.get("OTPU_DUT"):
        env["OTPU_DUT"] = os.environ["OTPU_DUT"]
    return "".join(f"export {k}=${{{k}:-{shlex.quote(v)}}}\n" for k, v in env.items())


def make_repro(test, rec, tools, out_dir, output, shrink):
    """write the repro folder around the report otpu-lockstep left in it (report/); its path
    relative to out_dir"""
    rel = os.path.join("repro", safe_name(test.name))
    folder = os.path.join(out_dir, rel)
    os.makedirs(folder, exist_ok=True)
    bundle = os.path.join(folder, "bundle")
    if os.path.isdir(test.path):
        shutil.copytree(test.path, bundle)
        if test.plusargs:
            with open(os.path.join(bundle, "plusargs.txt"), "w") as f:
                f.write(" ".join(test.plusargs) + "\n")
    with open(os.path.join(folder, "output.txt"), "w") as f:
        f.write(output)
    sh = os.path.join(folder, "repro.sh")
    with open(sh, "w") as f:
        f.write(REPRO_SH.format(name=test.name, kind=rec["kind"],
                                message=rec["message"].replace("\n", " "),
                                lockstep=os.path.abspath(tools["lockstep"]),
                                dut=dut_line(os.path.join(folder, "report")),
                                plusargs=" ".join(shlex.quote(p) for p in test.plusargs)))
    os.chmod(sh, 0o755)
    if shrink and os.path.isdir(bundle):
        p = subprocess.run([tools["shrink"], bundle, "--lockstep", tools["lockstep"], "--out",
                            os.path.join(folder, "shrunk")], capture_output=True, text=True)
        with open(os.path.join(folder, "shrink.log"), "w") as f:
            f.write(p.stdout + p.stderr)
    return rel
