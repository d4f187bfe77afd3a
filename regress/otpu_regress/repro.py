"""A failed test's repro folder: its bundle (with its plusargs in plusargs.txt), the report
otpu-lockstep wrote there (report/: divergence.txt, divergence.json, wave.fst), the tool's
output, repro.sh with the exact command, and with --shrink the bundle otpu-shrink reduced.

repro.sh is shell code made from input (test names, messages, the tool's path, plusargs, the
report's environment): every value in it is quoted with shlex.quote or made visible in a
comment, so no name or value is ever run as a command, whatever bytes it holds."""
import os
import re
import shlex
import subprocess

from . import files, schema
from .names import safe_name
from .text import visible

REPRO_SH = """#!/bin/sh
# otpu-regress repro of {name}: {kind}
#   {message}
# Runs the bundle beside this script exactly as the regression did: exit 1 and the same
# divergence.txt (in report-rerun/) is the failure reproduced. Another otpu-lockstep:
# OTPU_LOCKSTEP=/path/to/otpu-lockstep ./repro.sh
here=$(dirname -- "$0") && cd -- "$here" || exit 2
lockstep={lockstep}
if [ -n "${{OTPU_LOCKSTEP:-}}" ]; then lockstep=$OTPU_LOCKSTEP; fi
{env}exec "$lockstep" run bundle --report report-rerun {plusargs} "$@"
"""
ENV_NAME = re.compile(r"OTPU_[A-Z0-9_]{1,64}")


def report_env(report):
    """{name: value} of the RTL the regression ran: openTPU's own when OTPU_DUT named it
    (docs/opentpu.md), and the RTL's sources and build key the report's repro names
    (OTPU_SOURCE_ROOT, OTPU_RTL_KEY; checker/REPORT.md)"""
    env = {}
    path = os.path.join(report, "divergence.json")
    try:
        repro = schema.parse(files.read_text(path, files.OTHER), path).get("repro")
        words = shlex.split(repro) if isinstance(repro, str) else []
    except (files.BadFile, schema.Invalid, AttributeError, ValueError):
        words = []
    for w in words:  # the assignments before the command
        k, eq, v = w.partition("=")
        if not eq or not ENV_NAME.fullmatch(k):
            break
        env[k] = v
    if os.environ.get("OTPU_DUT"):
        env["OTPU_DUT"] = os.environ["OTPU_DUT"]
    return env


def env_lines(env):
    """sh lines that set each variable unless the caller's environment sets it already"""
    return "".join(f'if [ -z "${{{k}:-}}" ]; then {k}={shlex.quote(v)}; fi; export {k}\n'
                   for k, v in env.items())


def repro_sh(test, rec, lockstep, env):
    return REPRO_SH.format(name=visible(test.name), kind=rec["kind"],
                           message=visible(rec["message"]),
                           lockstep=shlex.quote(os.path.abspath(lockstep)), env=env_lines(env),
                           plusargs=" ".join(shlex.quote(p) for p in test.plusargs))


def make_repro(test, rec, tools, out_dir, output, shrink):
    """write the repro folder around the report otpu-lockstep left in it (report/); its path
    relative to out_dir. files.BadFile when the bundle holds what cannot be copied (the folder
    is then left without it)."""
    rel = os.path.join("repro", safe_name(test.name))
    folder = os.path.join(out_dir, rel)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "output.txt"), "w", errors="surrogateescape") as f:
        f.write(output)
    sh = os.path.join(folder, "repro.sh")
    with open(sh, "w", errors="surrogateescape") as f:
        f.write(repro_sh(test, rec, tools["lockstep"], report_env(os.path.join(folder,
                                                                                "report"))))
    os.chmod(sh, 0o755)
    bundle = os.path.join(folder, "bundle")
    files.copy_tree(test.path, bundle)
    if test.plusargs:
        with open(os.path.join(bundle, "plusargs.txt"), "w", errors="surrogateescape") as f:
            f.write(" ".join(test.plusargs) + "\n")
    if shrink:
        p = subprocess.run([tools["shrink"], bundle, "--lockstep", tools["lockstep"], "--out",
                            os.path.join(folder, "shrunk")], capture_output=True,
                           encoding="utf-8", errors="surrogateescape")
        with open(os.path.join(folder, "shrink.log"), "w", errors="surrogateescape") as f:
            f.write(p.stdout + p.stderr)
    return rel
